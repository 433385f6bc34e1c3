"""Undefined pd through the whole pipeline: ``rule all`` under ``zero_division: nan``.

A depth-1 decision tree on a 3-class local dataset predicts at most two classes, so the
precision of the third is 0/0, NaN under ``zero_division: nan``, and pd is undefined at every
kappa vector that weighs it. The kappa grid histograms count those vectors in ``n_undefined``
instead of binning them; the exact analysis leaves the tree out with a logged warning and
analyses the one classifier left, so its pairwise tables are empty and their figures are
placeholders. An engine with one configured classifier has empty pairwise tables too.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from helpers import PNG_MAGIC, run_snakemake, select, sklearn_entry, small_config, write_config
from pdmeasure import measures
from pdmeasure.render.exact_figures import read_exact_table
from pdmeasure.tables.confusion import pooled_matrices, read_long
from pdmeasure.tables.io import read_csv

pytestmark = pytest.mark.slow

CLASSES = ["lo", "mid", "hi"]
#: A depth-1 tree: one split on ``size``, so it never predicts one of the three classes.
STUMP = sklearn_entry("DecisionTree", criterion="entropy", max_depth=1)


def toy_csv(path: Path, n: int = 120, seed: int = 5) -> None:
    """A local 3-class dataset: the class follows ``size`` (three bands), ``colour`` is noise.

    One split on ``size`` separates at most two of the three bands, so a depth-1 tree never
    predicts one of the classes. The first three rows are lo, mid, hi (the class order).
    """
    rng = np.random.default_rng(seed)
    size = rng.integers(1, 60, n)
    size[:3] = [5, 25, 45]  # the classes first appear in the configured order
    label = np.where(size < 20, "lo", np.where(size < 40, "mid", "hi"))
    lines = ["colour,size,grade"] + [
        f"{rng.choice(['red', 'blue'])},{s},{y}" for s, y in zip(size, label)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def toy_config(classifiers: dict, zero_division) -> dict:
    """The small config with the local dataset ``toy`` only and the sklearn engine only."""
    config = small_config(None)
    config["datasets"] = {
        "toy": {
            "path": "toy.csv",
            "target": "grade",
            "classes": list(CLASSES),
            "missing": None,
            "numeric_features": ["size"],
            "kappa_grid": [0, 0.5, 1],
            "kappa_vectors": {"p1": [1, 0, 0.5]},
        }
    }
    select(config, datasets=["toy"], engines=["sklearn"])
    config["classifiers"] = {"sklearn": classifiers}
    config["zero_division"] = zero_division
    config["exact"] = {**config["exact"], "fine_grid_values": 5}
    config["stats"] = {**config.get("stats", {}), "cv5x2": False}
    return config


def run_all(workdir: Path, config: dict, *, check: bool = True):
    """Write the toy data and ``config`` to ``workdir`` and run ``rule all``.

    With ``check`` the run must succeed and the results folder is returned; without, the run
    keeps going past a failed job and ``(results folder, completed process)`` is returned.
    """
    workdir.mkdir(parents=True)
    toy_csv(workdir / "toy.csv")
    write_config(workdir, config)
    done = run_snakemake(workdir, "--cores", "2", *(() if check else ("--keep-going",)))
    if not check:
        return workdir / "results", done
    assert done.returncode == 0, (
        f"snakemake failed (exit {done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-8000:]}"
    )
    return workdir / "results"


def _png(path: Path) -> bool:
    return path.read_bytes()[:8] == PNG_MAGIC


def test_rule_all_with_a_classifier_that_never_predicts_a_class(tmp_path):
    config = toy_config(
        {"NaiveBayes": sklearn_entry("NaiveBayes", alpha=1.0), "DecisionTree": STUMP}, "nan"
    )
    results = run_all(tmp_path / "run", config)
    workdir = results.parent

    pooled = pooled_matrices(read_long(results / "confusion_matrices.csv"), {"toy": CLASSES})
    stump = pooled[("sklearn", "toy", "DecisionTree")]
    never = [CLASSES[i] for i in np.flatnonzero(stump.sum(axis=0) == 0)]
    assert never, "the depth-1 tree predicts every class: the toy data do not test anything"
    assert (pooled[("sklearn", "toy", "NaiveBayes")].sum(axis=0) > 0).all()

    # kappa grid: the tree's undefined vectors are counted, not binned
    summary = read_csv(
        results / "grids/sklearn/toy/summary.csv", integers=["n", "n_undefined"], numbers=["mean"]
    )
    by_name = summary.set_index("classifier")
    assert by_name.loc["DecisionTree", "n_undefined"] > 0
    grid = np.array(list(itertools.product([0, 0.5, 1], repeat=len(CLASSES))))
    undefined = np.isnan(measures.preference_driven(stump, grid, zero_division="nan"))
    assert by_name.loc["DecisionTree", "n_undefined"] == undefined.sum()
    assert by_name.loc["NaiveBayes", "n_undefined"] == 0
    assert (summary["n"] == 3 ** len(CLASSES)).all()
    histogram = read_csv(results / "grids/sklearn/toy/histogram.csv", integers=["count"])
    binned = histogram.groupby("classifier")["count"].sum()
    assert binned["DecisionTree"] == 27 - by_name.loc["DecisionTree", "n_undefined"]
    assert _png(results / "figures/figure7_sklearn.png")

    # exact analysis: the tree is left out with a warning naming it and the fix
    log = (workdir / "logs/analyse/toy.log").read_text(encoding="utf-8")
    assert "WARNING" in log
    assert "sklearn/toy: classifier 'DecisionTree' is left out of the exact analysis" in log
    assert "is never predicted, so its precision is 0/0" in log
    for name in never:
        i = CLASSES.index(name)
        # named by its index, and by its name when the script passes the class names
        assert (
            f"class index {i} is never predicted" in log
            or f"class {name!r} (index {i}) is never predicted" in log
        ), name
    assert "set zero_division to 0" in log
    for name in ("summary", "cdf", "histogram", "share"):
        table = read_exact_table(results / f"exact/sklearn/toy/{name}.csv")
        assert set(table["classifier"]) == {"NaiveBayes"}, name
    for name in ("win", "robustness"):
        table = read_exact_table(results / f"exact/sklearn/toy/{name}.csv")
        assert table.empty and len(table.columns) > 5, name
    for name in ("win", "cdf", "share"):
        assert _png(results / f"exact/figures/sklearn/toy_{name}.png"), name
    assert _png(results / "exact/figures/figure7_fine_sklearn.png")
    assert read_exact_table(results / "exact/win_probabilities.csv").empty


@pytest.mark.parametrize(
    "classifier, params, zero_division",
    [("NaiveBayes", sklearn_entry("NaiveBayes", alpha=1.0), 0.0), ("DecisionTree", STUMP, "nan")],
    ids=["one-classifier", "one-classifier-left-out"],
)
def test_rule_all_with_a_single_classifier(tmp_path, classifier, params, zero_division):
    """One classifier: no pairs, so the win and robustness tables are empty; left out under
    ``nan`` (the depth-1 tree), every exact table is empty and every exact figure is a
    placeholder."""
    config = toy_config({classifier: params}, zero_division)
    workdir = tmp_path / "run"
    results, done = run_all(workdir, config, check=False)
    left_out = zero_division == "nan"

    exact = {
        name: read_exact_table(results / f"exact/sklearn/toy/{name}.csv")
        for name in ("summary", "cdf", "histogram", "win", "share", "robustness")
    }
    for name, table in exact.items():
        assert len(table.columns) > 5, name
        pairwise = name in ("win", "robustness")
        assert table.empty == (pairwise or left_out), name
    for name in ("win", "cdf", "share"):
        assert _png(results / f"exact/figures/sklearn/toy_{name}.png"), name
    assert _png(results / "exact/figures/figure7_fine_sklearn.png")
    summary = read_csv(results / "exact/robustness_summary.csv")
    assert summary.empty and "new_winner" in summary.columns
    grid = read_csv(results / "grids/sklearn/toy/summary.csv", integers=["n_undefined"])
    assert (grid["n_undefined"] > 0).all() == left_out
    assert _png(results / "figures/figure7_sklearn.png")
    if left_out:
        log = (workdir / "logs/analyse/toy.log").read_text(encoding="utf-8")
        assert "classifier 'DecisionTree' is left out of the exact analysis" in log

    assert done.returncode == 0, (
        f"snakemake failed (exit {done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-8000:]}"
    )
