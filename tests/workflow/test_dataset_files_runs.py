"""A folder of datasets by one key, run by Snakemake: `dataset_files` in a user file passed with
--configfile next to the project's config.yaml, `run.datasets: [dataset_files]`.

One real run on an ARFF file and a CSV (two entries with different class columns), then dry
runs of what a change would rerun: nothing after the run; a new file adds its dataset's jobs
and nothing of the other datasets; an edited file reruns its dataset's chain and nothing of the
other datasets (a file touched but not changed reruns nothing). Besides, each reruns the jobs that collect across datasets. The config
resolution and its errors are unit tests (tests/unit/test_config_files.py).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from helpers import REPO_ROOT, WINE, ZOO, ZOO_CLASSES, Job, dry_run, planned_jobs, run_snakemake

pytestmark = pytest.mark.slow

#: The user's file: two folders with different class columns, everything small (two fast
#: classifiers, 3 folds, no 5 x 2-fold CV, a two-value kappa grid, few draws).
USER_FILE = """\
run:
  datasets: [dataset_files]
  engines: [sklearn]
  classifiers: {sklearn: [NaiveBayes, DecisionTree]}
dataset_files:
  - {glob: "data/*.arff", kappa_grid: [0, 1]}
  - {glob: "data/first/*.csv", target: first, kappa_grid: [0, 1]}
cv: {folds: 3}
stats: {cv5x2: false}
exact: {monte_carlo_samples: 2000}
uncertainty: {draws: 200}
"""
CONFIGFILES = ("my.yaml",)


def _dataset(job: Job) -> str | None:
    return dict(job[1]).get("dataset")


@pytest.fixture(scope="module")
def folder_run(tmp_path_factory) -> Path:
    """The completed run in its working directory: data/zoo.arff and data/first/wine.csv."""
    workdir = tmp_path_factory.mktemp("folder")
    (workdir / "data" / "first").mkdir(parents=True)
    shutil.copy(ZOO, workdir / "data" / "zoo.arff")
    shutil.copy(WINE, workdir / "data" / "first" / "wine.csv")
    shutil.copy(REPO_ROOT / "config.yaml", workdir / "config.yaml")
    (workdir / "my.yaml").write_text(USER_FILE, encoding="utf-8")
    done = run_snakemake(workdir, "--configfile", "my.yaml", "--cores", "2")
    assert done.returncode == 0, done.stderr[-4000:]
    return workdir


def test_every_file_of_the_folders_runs(folder_run):
    results = folder_run / "results"
    assert sorted(p.name for p in (results / "data").glob("*.csv")) == ["wine.csv", "zoo.csv"]
    for dataset in ("zoo", "wine"):
        for output in (
            f"tables/table_{dataset}_sklearn.csv",
            f"tables/table_{dataset}_sklearn_ci.md",
            f"explorer/sklearn/{dataset}.html",
            f"exact/sklearn/{dataset}/summary.csv",
        ):
            assert (results / output).is_file(), output
    zoo = json.loads((results / "data" / "zoo.json").read_text())
    assert zoo["classes"] == list(ZOO_CLASSES) and zoo["target"] == "type"
    wine = json.loads((results / "data" / "wine.json").read_text())
    assert wine["target"] == "cultivar" and wine["classes"] == ["1", "2", "3"]
    assert not (results / "paper").exists() and not (results / "cv" / "weka").exists()


def test_the_run_is_up_to_date(folder_run):
    assert planned_jobs(folder_run, configfiles=CONFIGFILES) == set()


def test_a_new_file_adds_its_datasets_jobs_only(folder_run):
    new = folder_run / "data" / "first" / "wine-b.csv"
    shutil.copy(WINE, new)
    try:
        planned = planned_jobs(folder_run, configfiles=CONFIGFILES)
        every = planned_jobs(folder_run, configfiles=CONFIGFILES, forceall=True)
    finally:
        new.unlink()
    expected = {job for job in every if _dataset(job) in (None, "wine_b")}
    assert planned == expected
    assert {_dataset(job) for job in planned} == {None, "wine_b"}
    assert ("fetch_data", frozenset({("dataset", "wine_b")})) in planned
    # the new dataset gets the whole chain of the others
    rules = {
        name: {job[0] for job in every if _dataset(job) == name} for name in ("wine", "wine_b")
    }
    assert rules["wine_b"] == rules["wine"] and len(rules["wine"]) >= 10
    assert planned_jobs(folder_run, configfiles=CONFIGFILES) == set()


def test_an_edited_file_reruns_its_datasets_jobs_only(folder_run):
    path = folder_run / "data" / "first" / "wine.csv"
    original, before = path.read_bytes(), path.stat()
    later = (time.time() + 60, time.time() + 60)
    try:
        # A new time stamp alone reruns nothing: Snakemake compares the checksum of a small
        # input newer than its outputs (--max-checksum-file-size).
        os.utime(path, later)
        assert planned_jobs(folder_run, configfiles=CONFIGFILES) == set()
        path.write_bytes(original.replace(b"1,14.23,", b"1,14.24,", 1))
        os.utime(path, later)
        planned = planned_jobs(folder_run, configfiles=CONFIGFILES)
    finally:
        path.write_bytes(original)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    every = planned_jobs(folder_run, configfiles=CONFIGFILES, forceall=True)
    assert planned == {job for job in every if _dataset(job) in (None, "wine")}
    assert ("fetch_data", frozenset({("dataset", "wine")})) in planned
    assert planned_jobs(folder_run, configfiles=CONFIGFILES) == set()


def test_a_pattern_that_matches_nothing_stops_before_any_job(tmp_path):
    shutil.copy(REPO_ROOT / "config.yaml", tmp_path / "config.yaml")
    (tmp_path / "my.yaml").write_text(USER_FILE, encoding="utf-8")
    done = dry_run(tmp_path, configfiles=CONFIGFILES)
    assert not done.ok and not done.jobs
    assert (
        f"config key `dataset_files.0.glob`: no file matches 'data/*.arff' (relative patterns "
        f"start at the working directory {tmp_path};" in done.text
    )
    assert not (tmp_path / "results").exists()
