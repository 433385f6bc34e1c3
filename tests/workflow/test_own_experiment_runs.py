"""One's own experiment by config alone, run by Snakemake: the user file of the README (a local
CSV whose class is the first column, merged into the repository's config.yaml with
--configfile) and the small test experiment in `.test/` (a CSV, an ARFF and an OpenML dataset),
each with the generic outputs of a dataset the papers never saw.

The configs themselves are resolved without running anything in tests/unit/test_own_experiment.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from helpers import REPO_ROOT, TEST_EXPERIMENT, USER_FILE, WINE, ZOO_CLASSES, run_snakemake

GENERIC = [
    "data/{d}.csv",
    "data/{d}.json",
    "confusion_matrices.csv",
    "measures.csv",
    "warnings.csv",
    "grids/sklearn/{d}/histogram.csv",
    "grids/sklearn/{d}/summary.csv",
    "figures/figure7_sklearn.png",
    "tables/table_{d}_sklearn.csv",
    "tables/table_{d}_sklearn.md",
    "stats/report.md",
    "stats/sklearn/{d}/pairwise.csv",
    "stats/sklearn/{d}/significance.csv",
    "stats/sklearn/{d}/fold_measures.csv",
    "exact/sklearn/{d}/summary.csv",
    "exact/sklearn/{d}/win.csv",
    "exact/robustness_summary.csv",
    "explorer/sklearn/{d}.html",
]


def assert_generic_outputs(results: Path, dataset: str, classifiers: list[str]) -> None:
    """Every generic output of ``dataset`` exists; matrices hold exactly its classifiers."""
    missing = [p for p in GENERIC if not (results / p.format(d=dataset)).is_file()]
    assert not missing, missing
    for classifier in classifiers:
        folds = pd.read_csv(results / f"cv/sklearn/{dataset}/{classifier}/confusion.csv")
        assert {"all", "1"} <= set(folds["fold"].astype(str))
    measures = pd.read_csv(results / "measures.csv", keep_default_na=False)
    assert set(measures["dataset"]) >= {dataset}
    assert set(measures[measures["dataset"] == dataset]["classifier"]) == set(classifiers)


@pytest.mark.slow
def test_user_file_runs_only_mydata(tmp_path):
    """The README's user file, passed with --configfile next to the project's config.yaml."""
    (tmp_path / "data").mkdir()
    shutil.copy(WINE, tmp_path / "data" / "mydata.csv")
    shutil.copy(REPO_ROOT / "config.yaml", tmp_path / "config.yaml")
    (tmp_path / "my.yaml").write_text(USER_FILE, encoding="utf-8")
    done = run_snakemake(tmp_path, "--configfile", "my.yaml", "--cores", "2")
    assert done.returncode == 0, done.stderr[-4000:]
    results = tmp_path / "results"
    classifiers = ["Bagging", "NaiveBayes", "DecisionTree", "RandomForest"]
    assert_generic_outputs(results, "mydata", classifiers)
    assert sorted(p.name for p in (results / "data").glob("*.csv")) == ["mydata.csv"]
    assert not (results / "cv" / "weka").exists()
    assert not (results / "reproduction.csv").exists() and not (results / "paper").exists()
    about = json.loads((results / "data" / "mydata.json").read_text())
    assert about["classes"] == ["1", "2", "3"]
    assert about["class_order"] == "first appearance in file data/mydata.csv"
    assert (
        "class order ['1', '2', '3'] (first appearance"
        in (tmp_path / "logs" / "data" / "mydata.log").read_text()
    )


@pytest.mark.slow
def test_small_test_experiment(tmp_path):
    """`.test/`: a CSV, an ARFF and an OpenML dataset read from its offline mirror."""
    workdir = tmp_path / ".test"
    shutil.copytree(TEST_EXPERIMENT, workdir, ignore=shutil.ignore_patterns("results", "logs"))
    done = run_snakemake(workdir, "--configfile", "config/config.yaml", "--cores", "2")
    assert done.returncode == 0, done.stderr[-4000:]
    results = workdir / "results"
    for dataset in ("wine", "zoo", "iris"):
        assert_generic_outputs(results, dataset, ["DecisionTree", "SVM"])
    zoo = json.loads((results / "data" / "zoo.json").read_text())
    assert zoo["classes"] == list(ZOO_CLASSES)
    assert zoo["class_order"].startswith("declared order")
    iris = json.loads((results / "data" / "iris.json").read_text())
    assert iris["classes"] == ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    tables = pd.read_csv(results / "tables" / "table_zoo_sklearn.csv", keep_default_na=False)
    assert "vertebrates" in " ".join(tables.astype(str).to_numpy().ravel())
