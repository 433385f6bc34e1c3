"""End to end: the real Snakemake DAG on the small config (car, sklearn, 3 folds, coarse grid).

The run itself is the session fixture ``small_pipeline`` (conftest.py); every test here reads
it: the confusion matrices, measures, grid histograms, ranking tables, statistics and the
reproduction table, each against a direct computation.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import yaml

from helpers import (
    RANKING_ROWS,
    REPO_ROOT,
    SMALL_FOLDS,
    benchmark_module,
    grade_block,
    grade_csv,
    pd_over_grid,
    select,
    small_config,
    write_config,
)
from pdmeasure import measures
from pdmeasure.paper import published
from pdmeasure.paper import reproduction as R
from pdmeasure.pipeline.data.mirror import load_manifest
from pdmeasure.pipeline.engines import ENGINES
from pdmeasure.tables import folds as stats_folds
from pdmeasure.tables import stats as stats_tables
from pdmeasure.tables.confusion import LONG_COLUMNS, POOLED, from_long, pooled_matrices, read_long
from pdmeasure.tables.histograms import histogram_edges, read_histogram
from pdmeasure.tables.measures import MEASURE_COLUMNS, read_measures
from pdmeasure.tables.rankings import competition_ranks

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
    # One fitting job per engine and dataset, its one benchmark file.
    assert [p.name for p in (small_pipeline / "benchmarks" / "cv" / "sklearn").iterdir()] == [
        "car.tsv"
    ]
    folder = small_pipeline / "cv" / "sklearn" / "car"
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == sorted(
        config["classifiers"]["sklearn"]
    )


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
    grade_csv(tmp_path / "toy.csv")
    config = small_config(uci_mirror)
    config["datasets"] = {"toy": grade_block()}
    select(config, datasets=["toy"])
    write_config(tmp_path, config)
    done = snakemake_runner(tmp_path, "--cores", "2", "results/confusion_matrices.csv")
    assert done.returncode == 0, done.stderr[-3000:]
    frame = read_long(tmp_path / "results" / "confusion_matrices.csv")
    pooled = frame[frame["fold"] == POOLED]
    assert set(pooled["classifier"]) == set(config["classifiers"]["sklearn"])
    for _, group in pooled.groupby("classifier"):
        assert from_long(group, ["mid", "lo", "hi"]).sum() == 90  # grade_csv rows


def test_every_job_logs_its_cpu_time_and_the_figures_script_reads_the_run(small_pipeline):
    """Each job's log ends with its kernel CPU account, one per benchmark file, and
    ``benchmarks/pipeline_figures.py`` sums both over the finished run."""
    import subprocess
    import sys

    from pdmeasure.pipeline.run import CPU_LOG_LABEL

    workdir = small_pipeline.parent
    logs = sorted((workdir / "logs").rglob("*.log"))
    benchmarks = sorted((small_pipeline / "benchmarks").rglob("*.tsv"))
    assert logs and len(logs) == len(benchmarks)
    for log in logs:
        last = log.read_text(encoding="utf-8").strip().splitlines()[-1]
        assert CPU_LOG_LABEL in last, f"{log}: {last}"
    script = REPO_ROOT / "benchmarks" / "pipeline_figures.py"
    done = subprocess.run(
        [sys.executable, str(script)], cwd=workdir, capture_output=True, text=True, check=True
    )
    assert f"benchmark files: {len(benchmarks)}" in done.stdout
    assert f"job logs with a CPU line: {len(logs)}" in done.stdout
    assert "last CV job to the end:" in done.stdout


def test_cores_reads_the_jobs_of_a_run_from_their_benchmark_files(small_pipeline, capsys):
    """benchmarks/cores.py on a finished run: its results folder from the config, one job per
    benchmark file, and the report of the run with its longest jobs, longest first."""
    cores = benchmark_module("cores")
    assert cores.results_folder(small_pipeline.parent, []) == small_pipeline
    jobs = cores.benchmark_table(small_pipeline)
    assert len(jobs) == len(list((small_pipeline / "benchmarks").rglob("*.tsv")))
    assert (jobs["s"] >= 0).all() and (jobs["cpu_time"] >= 0).all()
    cores.report({"cores": 2, "wall": 12.5, "jobs": jobs})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"--cores 2: wall 12.5 s, {len(jobs)} jobs, job seconds ")
    longest = jobs.sort_values("s", ascending=False)["file"].head(10).tolist()
    assert [line.split()[-1] for line in lines[3:]] == longest


@pytest.mark.slow
def test_pipeline_grid_files(small_pipeline):
    import yaml

    from pdmeasure.tables.confusion import pooled_matrices, read_long

    config = yaml.safe_load((small_pipeline.parent / "config.yaml").read_text())
    block = config["datasets"]["car"]
    n_vectors = len(block["kappa_grid"]) ** len(block["classes"])
    pooled = pooled_matrices(
        read_long(small_pipeline / "confusion_matrices.csv"), {"car": block["classes"]}
    )
    edges = histogram_edges(config["histogram"]["bin_width"])
    histogram = read_histogram(small_pipeline / "grids/sklearn/car/histogram.csv")
    summary = pd.read_csv(small_pipeline / "grids/sklearn/car/summary.csv")
    assert list(summary["classifier"]) == list(config["classifiers"]["sklearn"])
    assert (summary["n"] == n_vectors).all()
    assert (summary["n_undefined"] == 0).all()
    for (_, _, classifier), cm in pooled.items():
        counts = histogram.loc[histogram["classifier"] == classifier, "count"].to_numpy()
        expected = np.histogram(pd_over_grid(cm[None], block["kappa_grid"])[0], bins=edges)[0]
        np.testing.assert_array_equal(counts, expected)
    assert (small_pipeline / "figures/figure7_sklearn.png").stat().st_size > 10_000


@pytest.mark.slow
def test_pipeline_measures_csv_matches_direct_calls(small_pipeline):
    import yaml

    from pdmeasure.tables.confusion import read_long

    config = yaml.safe_load((small_pipeline.parent / "config.yaml").read_text())
    zero_division = config.get("zero_division", 0.0)
    classes = {name: block["classes"] for name, block in config["datasets"].items()}
    pooled = pooled_matrices(read_long(small_pipeline / "confusion_matrices.csv"), classes)
    table = read_measures(small_pipeline / "measures.csv")
    assert tuple(table.columns) == MEASURE_COLUMNS
    values = table.set_index(["engine", "dataset", "classifier", "measure", "kappa"])["value"]
    assert values.index.is_unique
    for (engine, dataset, classifier), cm in pooled.items():
        assert cm.sum() > 0
        key = (engine, dataset, classifier)
        for name in ("accuracy", "f1_macro", "mcc", "pacc"):
            assert values[(*key, name, "")] == pytest.approx(
                measures.REGISTRY[name](cm, zero_division=zero_division)
            )
        for name, vector in config["datasets"][dataset]["kappa_vectors"].items():
            assert values[(*key, "preference_driven", name)] == pytest.approx(
                measures.preference_driven(cm, vector, zero_division=zero_division)
            )
    per_matrix = len(measures.REGISTRY) + len(config["datasets"]["car"]["kappa_vectors"])
    assert len(table) == per_matrix * len(pooled)


@pytest.mark.slow
def test_pipeline_ranking_table(small_pipeline):
    import yaml

    config = yaml.safe_load((small_pipeline.parent / "config.yaml").read_text())
    classifiers = list(config["classifiers"]["sklearn"])
    vectors = config["datasets"]["car"]["kappa_vectors"]
    table = pd.read_csv(small_pipeline / "tables/table_car_sklearn.csv")
    rows = [*RANKING_ROWS, *(f"pd {name}" for name in vectors)]
    assert list(dict.fromkeys(table["row"])) == rows
    for _, group in table.groupby("row", sort=False):
        assert list(group["classifier"]) == classifiers
        np.testing.assert_array_equal(group["rank"], competition_ranks(group["value"]))
    md = (small_pipeline / "tables/table_car_sklearn.md").read_text()
    assert md.startswith("# Table 6: car (engine sklearn)")


@pytest.mark.slow
def test_pipeline_outputs(small_pipeline):
    results = small_pipeline
    for name in (
        "pd_table3",
        "pd_table4",
        "pacc_table2",
        "pacc_table4",
        "pacc_table5",
        "pacc_table6",
    ):
        assert (results / "paper" / f"{name}.csv").is_file()
        assert (results / "paper" / f"{name}.md").read_text().startswith("# ")
    for n in range(2, 7):
        assert (results / "paper" / f"pd_figure{n}.png").stat().st_size > 10_000
        assert (results / "paper" / f"pd_figure{n}.csv").is_file()
    table = R.read_reproduction(results / "reproduction.csv")
    pub = published.load()
    data = (pub["paper"] == "preference-driven") & pub["table"].isin(["6", "7", "8", "9"])
    engines = yaml.safe_load((results.parent / "config.yaml").read_text())["run"]["engines"]
    assert len(table) == (~data).sum() + data.sum() * len(set(engines) | set(ENGINES))
    assert set(table["status"]) <= set(R.STATUSES)
    assert (table.loc[table["status"] == "differs", "reason"] != "").all()
    assert table.loc[table["status"] == "differs", "reproduced"].notna().all()
    assert (table.loc[~table["engine"].isin([*engines, "none"]), "status"] == "not_run").all()
    anchors = set(published.errata()["anchor"])
    for reason in table.loc[table["status"] == "erratum", "reason"]:
        assert re.match(r"docs/errata\.md#([\w-]+)", reason)[1] in anchors
    summary = (results / "reproduction.md").read_text()
    assert summary.startswith("# Reproduction") and "| sklearn" in summary
    assert re.search(r"\|\s*not_run\s*\|", summary)  # the column of the counts tables
    assert re.search(r"\d+ not_run\.", summary)  # the overall line


@pytest.mark.slow
def test_pipeline_stats_outputs(small_pipeline):
    """The small pipeline (car only, sklearn, 3 folds): stats files agree with direct calls."""
    import yaml

    config = yaml.safe_load((small_pipeline.parent / "config.yaml").read_text())
    classifiers = list(config["classifiers"]["sklearn"])
    folder = small_pipeline / "stats" / "sklearn" / "car"
    five = stats_folds.read_predictions(
        small_pipeline
        / "stats"
        / "cv5x2"
        / "sklearn"
        / "car"
        / classifiers[0]
        / "predictions.csv.gz"
    )
    assert sorted(set(zip(five["repeat"], five["fold"]))) == [
        (r, f) for r in range(1, 6) for f in (1, 2)
    ]
    folds = stats_tables.read_stats_table(folder / "fold_measures.csv")
    pred = stats_folds.read_predictions(
        small_pipeline / "cv" / "sklearn" / "car" / classifiers[0] / "predictions.csv"
    )
    first = pred[pred["fold"] == 1]
    accuracy = folds[
        (folds["scheme"] == "cv")
        & (folds["classifier"] == classifiers[0])
        & (folds["fold"] == 1)
        & (folds["measure"] == "accuracy")
    ]["value"]
    assert accuracy.iloc[0] == pytest.approx((first["actual"] == first["predicted"]).mean())
    pairwise = stats_tables.read_stats_table(folder / "pairwise.csv")
    assert set(pairwise["test"]) == set(stats_tables.WITHIN_TESTS)
    n_pairs = len(classifiers) * (len(classifiers) - 1) // 2
    assert (pairwise.groupby(["measure", "kappa", "test"]).size() == n_pairs).all()
    assert "## preference_driven [default]" in (folder / "significance.md").read_text()
    omnibus = stats_tables.read_stats_table(small_pipeline / "stats" / "across_omnibus.csv")
    assert omnibus["note"].str.contains("N = 1").all()  # one dataset: no test across datasets
    report = (small_pipeline / "stats" / "report.md").read_text()
    assert "### Within car (sklearn)" in report
    figure = small_pipeline / "figures" / "cd" / "sklearn" / "preference_driven_default.png"
    assert figure.read_bytes()[:4] == b"\x89PNG"


def test_result_matrix_of_every_measure_and_named_kappa(small_pipeline, config):
    """The engine's result matrix: accuracy and pd at the default kappa and at each named
    kappa vector, in Markdown, LaTeX and CSV; the report opens with the verdicts in short."""
    folder = small_pipeline / "stats" / "sklearn"
    names = list(config["datasets"]["car"]["kappa_vectors"])
    markdown = (folder / "result_matrix.md").read_text()
    latex = (folder / "result_matrix.tex").read_text()
    for title in [
        "accuracy",
        "preference_driven [default]",
        *(f"preference_driven [{n}]" for n in names),
    ]:
        assert f"\n## {title}\n" in markdown, title
        assert f"% {title}\n" in latex, title
    tidy = pd.read_csv(folder / "result_matrix.csv", keep_default_na=False)
    assert set(tidy["kappa"]) == {"", "default", *names}
    classifiers = list(config["classifiers"]["sklearn"])
    cells = tidy[(tidy["measure"] == "preference_driven") & (tidy["kappa"] == names[0])]
    assert (
        cells["classifier"].tolist() == classifiers and (cells["baseline"] == classifiers[0]).all()
    )
    counts = pd.read_csv(folder / "result_counts.csv", keep_default_na=False)
    assert set(counts["classifier"]) == set(classifiers[1:])
    report = (small_pipeline / "stats" / "report.md").read_text()
    assert report.split("\n")[2:5] == ["## In short", "", "### sklearn"]
    short = report.split("## Verdicts")[0]
    assert "- **accuracy (sklearn)**: " in short
    assert "- **preference_driven [default] (sklearn)**: " in short
