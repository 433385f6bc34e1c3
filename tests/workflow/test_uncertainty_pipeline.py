"""The uncertainty module on the session's small run (``small_pipeline``: car, sklearn, 3 folds).

Its outputs exist and agree with each other and with the ranking tables; the ranking tables
are what the unchanged code writes from ``measures.csv``; and rerunning the uncertainty jobs on
one core gives the same bytes as the session's run on two.
"""

from __future__ import annotations

import filecmp
import json
import shutil

import numpy as np
import pandas as pd
import pytest

# The library package lands separately; until it is installed these tests have nothing to test.
import yaml

from helpers import run_snakemake
from pdmeasure.render.markdown import ranking_table_markdown
from pdmeasure.tables.io import read_csv
from pdmeasure.tables.measures import read_measures
from pdmeasure.tables.rankings import ranking_table
from pdmeasure.tables.uncertainty import (
    COMPANION_COLUMNS,
    EXPLORER_DRAWS,
    INTERVAL_COLUMNS,
    PROBABILITY_COLUMNS,
    RANK_PROBABILITY_COLUMNS,
    WITHIN_COLUMNS,
    read_signed_rank,
)

pytestmark = pytest.mark.slow

ENGINE, DATASET = "sklearn", "car"
PER_JOB = ("intervals.csv", "pairwise.csv", "ranks.csv", "within.csv", "posterior.csv")


@pytest.fixture(scope="module")
def run(small_pipeline):
    config = yaml.safe_load((small_pipeline.parent / "config.yaml").read_text())
    folder = small_pipeline / "uncertainty" / ENGINE / DATASET
    return small_pipeline, config, folder


def _read(path, numbers):
    return read_csv(path, numbers=numbers)


def test_every_output_exists(run):
    results, _, folder = run
    for name in (*PER_JOB, "explorer.json"):
        assert (folder / name).is_file(), name
    for ext in ("csv", "md"):
        assert (results / "tables" / f"table_{DATASET}_{ENGINE}_ci.{ext}").is_file()
    for name in ("forest", "posterior"):
        figure = results / "figures" / "uncertainty" / ENGINE / f"{DATASET}_{name}.png"
        assert figure.stat().st_size > 1000
    assert (results / "uncertainty" / "across_signed_rank.csv").is_file()


def test_intervals_hold_their_values(run):
    results, config, folder = run
    table = _read(folder / "intervals.csv", ["value", "lower", "upper", "level"])
    assert tuple(table.columns) == INTERVAL_COLUMNS
    assert (table["lower"] <= table["upper"]).all()
    outside = table[(table["value"] < table["lower"]) | (table["value"] > table["upper"])]
    assert outside.empty, outside.to_string()
    assert (table["level"] == config["uncertainty"]["level"]).all()
    # the same point values as measures.csv, row for row
    measures = read_measures(results / "measures" / ENGINE / f"{DATASET}.csv")
    key = ["classifier", "measure", "kappa"]
    merged = table.merge(measures, on=key, suffixes=("", "_measures"), validate="1:1")
    assert len(merged) == len(measures) == len(table)
    np.testing.assert_array_equal(merged["value"], merged["value_measures"])


def test_probabilities_sum_to_one(run):
    _, _, folder = run
    pairwise = _read(folder / "pairwise.csv", ["p_better", "p_equivalent", "p_worse", "rope"])
    assert tuple(pairwise.columns) == PROBABILITY_COLUMNS
    total = pairwise[["p_better", "p_equivalent", "p_worse"]].sum(axis=1)
    np.testing.assert_allclose(total, 1.0, atol=1e-9)
    mirrored = pairwise.merge(
        pairwise,
        left_on=["measure", "kappa", "classifier_a", "classifier_b"],
        right_on=["measure", "kappa", "classifier_b", "classifier_a"],
        suffixes=("", "_mirror"),
    )
    assert len(mirrored) == len(pairwise)
    np.testing.assert_allclose(mirrored["p_better"], mirrored["p_worse_mirror"], atol=1e-12)
    assert {"kappa_uniform", "kappa_grid"} <= set(pairwise["kappa"])
    ranks = _read(folder / "ranks.csv", ["probability"])
    assert tuple(ranks.columns) == RANK_PROBABILITY_COLUMNS
    for keys in (["measure", "kappa", "classifier"], ["measure", "kappa", "rank"]):
        np.testing.assert_allclose(ranks.groupby(keys)["probability"].sum(), 1.0, atol=1e-9)
    within = _read(folder / "within.csv", ["p_a_better", "p_equivalent", "p_b_better"])
    assert tuple(within.columns) == WITHIN_COLUMNS
    total = within[["p_a_better", "p_equivalent", "p_b_better"]].sum(axis=1)
    np.testing.assert_allclose(total, 1.0, atol=1e-6)


def test_ranking_table_is_unchanged_and_its_companion_agrees(run):
    results, config, folder = run
    vectors = config["datasets"][DATASET]["kappa_vectors"]
    classifiers = list(config["classifiers"][ENGINE])
    expected = ranking_table(
        read_measures(results / "measures" / ENGINE / f"{DATASET}.csv"),
        engine=ENGINE,
        dataset=DATASET,
        classifiers=classifiers,
        kappa_vectors=vectors,
    )
    table_md = results / "tables" / f"table_{DATASET}_{ENGINE}.md"
    assert table_md.read_text(encoding="utf-8") == ranking_table_markdown(expected, vectors)
    printed = pd.read_csv(results / "tables" / f"table_{DATASET}_{ENGINE}.csv")
    companion = pd.read_csv(results / "tables" / f"table_{DATASET}_{ENGINE}_ci.csv")
    assert tuple(companion.columns) == COMPANION_COLUMNS
    pd.testing.assert_frame_equal(
        companion[["row", "classifier", "value", "rank"]],
        printed[["row", "classifier", "value", "rank"]],
    )
    ranks = _read(folder / "ranks.csv", ["probability"])
    first = ranks[(ranks["rank"] == "1") & (ranks["measure"] == "accuracy")]
    by_name = first.set_index("classifier")["probability"]
    accuracy = companion[companion["row"] == "accuracy"].set_index("classifier")["p_first"]
    np.testing.assert_allclose(accuracy, by_name.loc[accuracy.index])
    np.testing.assert_allclose(companion.groupby("row")["p_first"].sum(), 1.0, atol=1e-9)
    markdown = (results / "tables" / f"table_{DATASET}_{ENGINE}_ci.md").read_text()
    cell = companion.iloc[0]
    assert (
        f"{cell['value']:.4f} [{cell['lower']:.4f}, {cell['upper']:.4f}] ({cell['rank']})"
        in markdown
    )
    assert "Probability of ranking first" in markdown


def test_report_has_the_bayesian_section_and_the_explorer_the_intervals(run):
    results, config, _ = run
    across = read_signed_rank(results / "uncertainty" / "across_signed_rank.csv")
    # one dataset: nothing to test across datasets, said as such
    assert (across["n_datasets"] == 1).all() and (across["verdict"] == "no data").all()
    report = (results / "stats" / "report.md").read_text(encoding="utf-8")
    assert "## Bayesian comparison across datasets" in report
    page = (results / "explorer" / ENGINE / f"{DATASET}.html").read_text(encoding="utf-8")
    assert '"uncertainty":' in page and 'id="intervals"' in page
    drawn = json.loads((results / "uncertainty" / ENGINE / DATASET / "explorer.json").read_text())
    assert drawn["classifiers"] == list(config["classifiers"][ENGINE])
    assert drawn["draws"] == min(EXPLORER_DRAWS, config["uncertainty"]["draws"])
    n_classes = len(config["datasets"][DATASET]["classes"])
    assert np.shape(drawn["precision"]) == (len(drawn["classifiers"]), drawn["draws"], n_classes)


def test_one_core_gives_the_same_bytes_as_two(run, tmp_path):
    """Rerun the jobs that compute the uncertainty (rule analyse, and signed_rank for the
    tests across datasets) and what reads them with --cores 1 in a copy of the session's run (made
    with --cores 2): every output is byte-identical."""
    results, _, _ = run
    workdir = tmp_path / "copy"
    shutil.copytree(results.parent, workdir, symlinks=True)
    done = run_snakemake(workdir, "--cores", "1", "--forcerun", "analyse", "signed_rank")
    assert done.returncode == 0, done.stderr[-4000:]
    assert "rule analyse" in done.stderr + done.stdout
    names = [
        *(f"uncertainty/{ENGINE}/{DATASET}/{n}" for n in (*PER_JOB, "explorer.json")),
        "uncertainty/across_signed_rank.csv",
        f"tables/table_{DATASET}_{ENGINE}_ci.csv",
        f"tables/table_{DATASET}_{ENGINE}_ci.md",
        "stats/report.md",
        f"explorer/{ENGINE}/{DATASET}.html",
    ]
    differ = [
        n for n in names if not filecmp.cmp(results / n, workdir / "results" / n, shallow=False)
    ]
    assert differ == []


def test_the_bootstrap_method_runs_from_every_classifiers_predictions(run, tmp_path):
    """`uncertainty.method: bootstrap` reruns rule analyse on the predictions of every
    classifier of the dataset (one file each) and writes bootstrap intervals."""
    results, config, _ = run
    workdir = tmp_path / "bootstrap"
    shutil.copytree(results.parent, workdir, symlinks=True)
    config = {**config, "uncertainty": {**config["uncertainty"], "method": "bootstrap"}}
    (workdir / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), "utf-8")
    done = run_snakemake(workdir, "--cores", "2")
    assert done.returncode == 0, done.stderr[-4000:]
    folder = workdir / "results" / "uncertainty" / ENGINE / DATASET
    intervals = _read(folder / "intervals.csv", ["value", "lower", "upper", "level"])
    assert set(intervals["method"]) == {"bootstrap"}
    assert len(set(intervals["classifier"])) == len(config["classifiers"][ENGINE]) > 1
