"""A folder of datasets by one key, run by Snakemake: config/examples/folders.yaml (two
`dataset_files` entries with different class columns, `run.datasets: [dataset_files]`) passed
with --configfile next to the project's config.yaml, as docs/own-experiment.md shows it.

One real run on an ARFF file and a CSV, then dry runs of what a change would rerun: nothing
after the run; a new file adds its dataset's jobs and nothing of the other datasets; an edited
file reruns its dataset's chain and nothing of the other datasets (a file touched but not
changed reruns nothing). Besides, each reruns the jobs that collect across datasets. The
config resolution and its errors are unit tests (tests/unit/test_config_files.py).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from helpers import (
    REPO_ROOT,
    WINE,
    ZOO,
    ZOO_CLASSES,
    Job,
    dry_run,
    job_wildcards,
    planned_jobs,
    run_snakemake,
)

pytestmark = pytest.mark.slow

#: The worked example of docs/own-experiment.md, and what makes its run small: two fast
#: classifiers, 3 folds, no 5 x 2-fold CV, coarse `auto` kappa grids, few draws.
EXAMPLE = REPO_ROOT / "config" / "examples" / "folders.yaml"
SMALL = """\
run:
  classifiers: {sklearn: [NaiveBayes, DecisionTree]}
cv: {folds: 3}
stats: {cv5x2: false}
histogram: {auto_grid_vectors: 200}
exact: {monte_carlo_samples: 2000}
uncertainty: {draws: 200}
"""
CONFIGFILES = ("folders.yaml", "small.yaml")


def _workdir(workdir: Path) -> None:
    """The project's config.yaml, the example and SMALL in ``workdir``."""
    shutil.copy(REPO_ROOT / "config.yaml", workdir / "config.yaml")
    shutil.copy(EXAMPLE, workdir / "folders.yaml")
    (workdir / "small.yaml").write_text(SMALL, encoding="utf-8")


def _dataset(job: Job) -> str | None:
    return job_wildcards(job).get("dataset")


@pytest.fixture(scope="module")
def folder_run(tmp_path_factory) -> Path:
    """The completed run of the example in its working directory: data/arff/zoo.arff and
    data/csv/wine.csv."""
    workdir = tmp_path_factory.mktemp("folder")
    (workdir / "data" / "arff").mkdir(parents=True)
    (workdir / "data" / "csv").mkdir()
    shutil.copy(ZOO, workdir / "data" / "arff" / "zoo.arff")
    shutil.copy(WINE, workdir / "data" / "csv" / "wine.csv")
    _workdir(workdir)
    done = run_snakemake(workdir, "--cores", "2", "--configfile", *CONFIGFILES)
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
    new = folder_run / "data" / "csv" / "wine-b.csv"
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
    assert rules["wine_b"] == rules["wine"]
    assert rules["wine"] >= {"fetch_data", "analyse"}
    # Each engine's pages (rule render, all datasets) are drawn again, with the new one's.
    assert {job[0] for job in planned if _dataset(job) is None} >= {"render", "collect"}
    assert "cross_validate" in rules["wine"]
    assert planned_jobs(folder_run, configfiles=CONFIGFILES) == set()


def test_an_edited_file_reruns_its_datasets_jobs_only(folder_run):
    path = folder_run / "data" / "csv" / "wine.csv"
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
    _workdir(tmp_path)
    done = dry_run(tmp_path, configfiles=CONFIGFILES)
    assert not done.ok and not done.jobs
    assert (
        "config key `dataset_files.0.glob`: no file matches 'data/arff/*.arff' (relative "
        f"patterns start at the working directory {tmp_path};" in done.text
    )
    assert not (tmp_path / "results").exists()
