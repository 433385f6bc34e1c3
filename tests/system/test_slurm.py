"""The Slurm profile on a real Slurm: the same files as a local run, in a few group jobs.

The profile is the CI's, ``.ci/slurm-profile``: the cluster profile ``profiles/slurm`` with
``squeue`` for the job status, as the single-node Slurm of ``.ci/slurm-up`` has no job
accounting (``tests/unit/test_slurm_profiles.py`` keeps the two alike). A small config (car and
dermatology, RandomForest of each engine, 3 folds; Weka too when Java and python-weka-wrapper3
are present) runs twice up to its confusion matrices (rule collect, after every dataset's
analyses): locally with ``--cores 2`` and with ``--workflow-profile .ci/slurm-profile``. Every
confusion-matrix file and ranking table must be byte-identical between the two runs, every
Slurm job id that Snakemake reports must be known to Slurm as completed, and the profile's
groups must submit one Slurm job per dataset (its fitting job of each engine, then its
analyses: rule analyse joins them). The ``.test`` experiment runs both ways
too: every table byte-identical, in one Slurm job per dataset (at most
:data:`MAX_TEST_SUBMISSIONS`; ``benchmarks/slurm_overhead.py`` times the two).
Skipped, with the reason, when Slurm is not installed or not up (``bash .ci/slurm-up``
installs and starts a single-node Slurm).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from helpers import (
    REPO_ROOT,
    TEST_EXPERIMENT,
    repo_config,
    run_snakemake,
    select,
    slurm_or_missing,
    small_config,
    write_config,
)

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

#: The CI's Slurm profile: profiles/slurm, with squeue for the job status (no slurmdbd).
PROFILE = REPO_ROOT / ".ci" / "slurm-profile"

#: Classifiers per engine: one each keeps the number of Slurm jobs small; a seeded random forest
#: gives identical matrices only if the seed reaches the Slurm job as it does a local one.
CLASSIFIERS = {"sklearn": ["RandomForest"], "weka": ["RandomForest"]}
DATASETS = ["car", "dermatology"]

#: Seconds before ``timeout`` stops the Slurm run (SIGTERM; Snakemake cancels its jobs): a
#: hang fails the test instead of stalling it.
SLURM_TIMEOUT = 900

#: Most Slurm jobs the .test experiment may submit (it submits one group job per dataset: the
#: fits of its engines and its analyses).
MAX_TEST_SUBMISSIONS = 12

#: What the Slurm executor logs for each submission.
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+)")


def weka_available() -> bool:
    from pdmeasure.pipeline.engines.base import EngineUnavailable
    from pdmeasure.pipeline.engines.weka_engine import WekaEngine

    try:
        WekaEngine().check_available()
    except EngineUnavailable:
        return False
    return True


def slurm_config(mirror: Path) -> dict:
    """The small end-to-end config on ``DATASETS`` with ``CLASSIFIERS`` of each engine."""
    config = small_config(mirror)
    full = repo_config()
    config["datasets"] = {name: full["datasets"][name] for name in DATASETS}
    engines = ["sklearn", "weka"] if weka_available() else ["sklearn"]
    select(config, datasets=DATASETS, engines=engines)
    config["classifiers"] = {
        engine: {
            name: (config["classifiers"].get(engine) or full["classifiers"][engine])[name]
            for name in CLASSIFIERS[engine]
        }
        for engine in engines
    }
    return config


def confusion_files(results: Path) -> dict[str, bytes]:
    """Every confusion-matrix file under ``results``, by its relative path."""
    return {
        str(path.relative_to(results)): path.read_bytes()
        for path in sorted(results.rglob("confusion*.csv"))
    }


def tail(done: subprocess.CompletedProcess) -> str:
    return f"exit {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-8000:]}"


@pytest.fixture(scope="module")
def slurm_up():
    slurm_or_missing()


def test_slurm_profile_matches_local_run(slurm_up, uci_mirror, tmp_path):
    config = slurm_config(uci_mirror)
    # The matrices' aggregate (rule collect, which reads every dataset's analyses too).
    targets = ["results/confusion_matrices.csv"]
    ranking_tables = [
        f"results/tables/table_{dataset}_{engine}.csv"
        for dataset in DATASETS
        for engine in config["classifiers"]
    ]
    n_cv = sum(len(names) for names in config["classifiers"].values()) * len(DATASETS)

    local = tmp_path / "local"
    write_config(local, config)
    done = run_snakemake(local, "--cores", "2", *targets)
    assert done.returncode == 0, f"the local run failed ({tail(done)})"

    cluster = tmp_path / "slurm"
    write_config(cluster, config)
    done = run_snakemake(
        cluster,
        "--workflow-profile",
        str(PROFILE),
        *targets,
        prefix=("timeout", "--kill-after=60", str(SLURM_TIMEOUT)),
        timeout=SLURM_TIMEOUT + 120,
    )
    output = done.stdout + done.stderr
    job_ids = SUBMITTED.findall(output)
    try:
        assert done.returncode == 0, (
            "the Slurm run failed"
            + (f" (timeout: no end after {SLURM_TIMEOUT} s)" if done.returncode == 124 else "")
            + f" ({tail(done)})"
        )
        # One group job per dataset (its fitting job of each engine, then its analyses, which
        # join them); the downloads and the jobs that only read tidy tables run locally
        # (localrules).
        groups = len(DATASETS)
        assert len(job_ids) == groups, f"{len(job_ids)} Slurm jobs ({tail(done)})"
        queue = subprocess.run(
            [
                "squeue",
                "--states=all",
                "--noheader",
                "--format=%i|%T",
                f"--jobs={','.join(job_ids)}",
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        states = dict(line.split("|", 1) for line in queue.stdout.split())
        assert set(states) == set(job_ids), (
            f"Slurm does not know every submitted job: {sorted(job_ids)} vs squeue "
            f"{queue.stdout}{queue.stderr}"
        )
        assert set(states.values()) == {"COMPLETED"}, states
    finally:
        # A failed or stopped run leaves no job behind for later tests.
        if job_ids and done.returncode != 0:
            subprocess.run(["scancel", *job_ids], capture_output=True, check=False)

    expected = confusion_files(local / "results")
    assert len(expected) == n_cv + 1, sorted(expected)
    got = confusion_files(cluster / "results")
    assert sorted(got) == sorted(expected)
    different = [name for name in expected if got[name] != expected[name]]
    assert not different, (
        f"confusion matrices differ between the local and the Slurm run: {different}"
    )
    for table in ranking_tables:
        assert (cluster / table).read_bytes() == (local / table).read_bytes(), table


def result_tables(results: Path) -> dict[str, bytes]:
    """Every table of a results folder (CSV, Markdown, HTML) by relative path, benchmarks left
    out."""
    return {
        str(path.relative_to(results)): path.read_bytes()
        for path in sorted(results.rglob("*"))
        if path.suffix in {".csv", ".md", ".html"} and "benchmarks" not in path.parts
    }


def test_the_test_experiment_runs_in_few_slurm_jobs(slurm_up, tmp_path):
    """``.test`` under the CI's Slurm profile: the tables of a local run, in at most
    MAX_TEST_SUBMISSIONS Slurm jobs."""
    runs = {}
    for name, args in (
        ("local", ("--cores", "2")),
        ("slurm", ("--workflow-profile", str(PROFILE))),
    ):
        workdir = tmp_path / name
        shutil.copytree(
            TEST_EXPERIMENT, workdir, ignore=shutil.ignore_patterns("results", "logs", ".snakemake")
        )
        done = run_snakemake(
            workdir,
            "--configfile",
            str(workdir / "config" / "config.yaml"),
            *args,
            prefix=("timeout", "--kill-after=60", str(SLURM_TIMEOUT)),
            timeout=SLURM_TIMEOUT + 120,
        )
        assert done.returncode == 0, f"the {name} run failed ({tail(done)})"
        runs[name] = (workdir, done.stdout + done.stderr)
    job_ids = SUBMITTED.findall(runs["slurm"][1])
    assert 1 <= len(job_ids) <= MAX_TEST_SUBMISSIONS, f"{len(job_ids)} Slurm jobs"
    # One group job per dataset: the model fits of its engines (rule cross_validate), which
    # its analyses (rule analyse, every engine in one job) join into one group.
    config = yaml.safe_load((TEST_EXPERIMENT / "config" / "config.yaml").read_text("utf-8"))
    datasets = len(config["run"]["datasets"])
    assert len(job_ids) == datasets, f"{len(job_ids)} Slurm jobs for {datasets} datasets"
    local, slurm = (result_tables(runs[n][0] / "results") for n in ("local", "slurm"))
    assert sorted(slurm) == sorted(local)
    assert [name for name in local if slurm[name] != local[name]] == []
