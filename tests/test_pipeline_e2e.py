"""End to end: the real Snakemake DAG on the small config (car, sklearn, 3 folds, coarse grid).

The run itself is the session fixture ``small_pipeline`` (conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import SMALL_FOLDS, select, small_config, write_config

from pdmeasure.pipeline.confusion import LONG_COLUMNS, POOLED, from_long, read_long
from pdmeasure.pipeline.mirror import load_manifest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def config(small_pipeline):
    import yaml

    return yaml.safe_load((small_pipeline.parent / "config.yaml").read_text())


@pytest.fixture(scope="module")
def matrices(small_pipeline):
    return read_long(small_pipeline / "confusion_matrices.csv")


@pytest.fixture(scope="module")
def n_rows(uci_mirror):
    return load_manifest(uci_mirror)["datasets"]["car"]["rows"]


def test_canonical_table(small_pipeline, uci_mirror, n_rows):
    frame = pd.read_csv(small_pipeline / "data" / "car.csv", dtype=str, keep_default_na=False)
    assert len(frame) == n_rows
    lines = [line.split(",") for line in (uci_mirror / "car.data").read_text().splitlines()]
    assert frame.to_numpy(dtype=object).tolist() == lines
    log = (small_pipeline.parent / "logs" / "data" / "car.log").read_text()
    assert "falling back to the offline mirror" in log
    assert f"source file {(uci_mirror / 'car.data').resolve()}" in log


def test_aggregate_has_every_job_and_the_contract_columns(matrices, config):
    assert tuple(matrices.columns) == LONG_COLUMNS
    expected = {("sklearn", "car", c) for c in config["classifiers"]["sklearn"]}
    assert (
        set(
            map(
                tuple,
                matrices[["engine", "dataset", "classifier"]].drop_duplicates().to_numpy().tolist(),
            )
        )
        == expected
    )
    assert set(matrices["fold"]) == {str(f) for f in range(1, SMALL_FOLDS + 1)} | {POOLED}


def test_pooled_matrices_sum_to_dataset_size(matrices, config, n_rows):
    classes = config["datasets"]["car"]["classes"]
    pooled = matrices[matrices["fold"] == POOLED]
    for key, group in pooled.groupby(["engine", "dataset", "classifier", "repeat"]):
        cm = from_long(group, classes)
        assert cm.sum() == n_rows, key
        # rows = actual classes, in the configured order: row sums are the class sizes
        assert group["actual"].drop_duplicates().tolist() == classes


def test_fold_matrices_sum_to_pooled(matrices, config):
    classes = config["datasets"]["car"]["classes"]
    for key, group in matrices.groupby(["engine", "dataset", "classifier", "repeat"]):
        folds = group[group["fold"] != POOLED]
        total = sum(from_long(f, classes) for _, f in folds.groupby("fold"))
        assert (total == from_long(group[group["fold"] == POOLED], classes)).all(), key


def test_predictions_and_per_job_files(small_pipeline, config, matrices, n_rows):
    for classifier in config["classifiers"]["sklearn"]:
        folder = small_pipeline / "cv" / "sklearn" / "car" / classifier
        pred = pd.read_csv(folder / "predictions.csv", dtype=str, keep_default_na=False)
        assert sorted(pred["row"].astype(int)) == list(range(n_rows))
        per_job = read_long(folder / "confusion.csv")
        in_aggregate = matrices[matrices["classifier"] == classifier].reset_index(drop=True)
        pd.testing.assert_frame_equal(per_job, in_aggregate)
        assert (
            small_pipeline / "benchmarks" / "cv" / "sklearn" / "car" / f"{classifier}.tsv"
        ).is_file()


def test_second_run_does_nothing(small_pipeline, snakemake_runner):
    workdir = small_pipeline.parent
    before = {p: p.stat().st_mtime_ns for p in small_pipeline.rglob("*") if p.is_file()}
    done = snakemake_runner(workdir, "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Nothing to be done" in done.stdout + done.stderr
    after = {p: p.stat().st_mtime_ns for p in small_pipeline.rglob("*") if p.is_file()}
    assert after == before


def test_one_core_gives_identical_matrices(small_pipeline, uci_mirror, tmp_path, snakemake_runner):
    """--cores 1 and --cores 2 (the fixture) give byte-identical confusion matrices."""
    write_config(tmp_path, small_config(uci_mirror))
    done = snakemake_runner(tmp_path, "--cores", "1", "results/confusion_matrices.csv")
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "results" / "confusion_matrices.csv").read_bytes() == (
        small_pipeline / "confusion_matrices.csv"
    ).read_bytes()


def test_a_new_dataset_is_one_config_block(tmp_path, uci_mirror, snakemake_runner):
    """A fifth dataset from a local CSV (with a numeric feature and missing values) runs
    through fetch, CV and aggregation with nothing but its config block."""
    import numpy as np

    rng = np.random.default_rng(3)
    n = 90
    size = rng.integers(1, 50, n)
    label = np.where(size < 15, "lo", np.where(size < 35, "mid", "hi"))
    label[:3] = ["mid", "lo", "hi"]
    lines = ["colour,size,grade"] + [
        f"{rng.choice(['red', 'blue'])},{'?' if i % 17 == 5 else s},{y}"
        for i, (s, y) in enumerate(zip(size, label))
    ]
    (tmp_path / "toy.csv").write_text("\n".join(lines) + "\n")
    config = small_config(uci_mirror)
    config["datasets"] = {
        "toy": {
            "path": "toy.csv",
            "target": "grade",
            "classes": ["mid", "lo", "hi"],
            "missing": "?",
            "numeric_features": ["size"],
            "kappa_grid": [0, 1],
            "kappa_vectors": {"p1": [1, 0, 0.5]},
        }
    }
    select(config, datasets=["toy"])
    write_config(tmp_path, config)
    done = snakemake_runner(tmp_path, "--cores", "2", "results/confusion_matrices.csv")
    assert done.returncode == 0, done.stderr[-3000:]
    frame = read_long(tmp_path / "results" / "confusion_matrices.csv")
    pooled = frame[frame["fold"] == POOLED]
    assert set(pooled["classifier"]) == set(config["classifiers"]["sklearn"])
    for _, group in pooled.groupby("classifier"):
        assert from_long(group, ["mid", "lo", "hi"]).sum() == n


def test_every_job_logs_its_cpu_time_and_the_figures_script_reads_the_run(small_pipeline):
    """Each job's log ends with its kernel CPU account, one per benchmark file, and
    ``benchmarks/pipeline_figures.py`` sums both over the finished run."""
    import subprocess
    import sys

    from pdmeasure.pipeline.io import CPU_LOG_LABEL

    workdir = small_pipeline.parent
    logs = sorted((workdir / "logs").rglob("*.log"))
    benchmarks = sorted((small_pipeline / "benchmarks").rglob("*.tsv"))
    assert logs and len(logs) == len(benchmarks)
    for log in logs:
        last = log.read_text(encoding="utf-8").strip().splitlines()[-1]
        assert CPU_LOG_LABEL in last, f"{log}: {last}"
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "pipeline_figures.py"
    done = subprocess.run(
        [sys.executable, str(script)], cwd=workdir, capture_output=True, text=True, check=True
    )
    assert f"benchmark files: {len(benchmarks)}" in done.stdout
    assert f"job logs with a CPU line: {len(logs)}" in done.stdout
    assert "last CV job to the end:" in done.stdout


def test_simulated_cores_replay_the_run_within_its_bounds(small_pipeline, snakemake_runner):
    """benchmarks/simulate_cores.py on the small run: on one core the wall is the total work,
    with a core per job it is the critical path, and in between it is never below either
    bound nor above one core's figure."""
    import importlib.util

    workdir = small_pipeline.parent
    done = snakemake_runner(workdir, "--detailed-summary")
    assert done.returncode == 0, done.stderr[-2000:]
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "simulate_cores.py"
    spec = importlib.util.spec_from_file_location("simulate_cores", path)
    simulate_cores = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(simulate_cores)
    cpu, needs, rule = simulate_cores.read_dag(done.stdout, workdir / "logs")
    assert set(rule.values()) >= {"fetch_data", "cross_validate", "measures", "stats_report"}
    assert all(needs[job] for job in cpu if rule[job] == "cross_validate")
    work = sum(cpu.values())
    chain = simulate_cores.critical_path(cpu, needs)
    longest = sum(cpu[job] for job in chain)
    assert rule[chain[0]] == "fetch_data"
    walls = [simulate_cores.simulate(cpu, needs, cores) for cores in (1, 2, 4, len(cpu))]
    assert walls[0] == pytest.approx(work)
    assert walls[-1] == pytest.approx(longest)
    for cores, wall in zip((1, 2, 4), walls[:3]):
        assert max(work / cores, longest) - 1e-9 <= wall <= work + 1e-9
