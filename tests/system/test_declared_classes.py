"""A class the source declares but no row has runs end to end with both engines.

Weka's glass.arff declares 7 classes; `vehic wind non-float` has no row. The whole default
DAG runs on it (3 folds, small draws) with the scikit-learn and the Weka engine, and the test
reads only output files: every matrix has the class's zero row, every kappa vector a weight
for it, the ranking tables, their uncertainty companions, the exact analysis and the explorer
pages are written, and the class is named in the fetch log and in warnings.csv.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from helpers import REPO_ROOT, raw_csv, run_snakemake, weka_or_missing, write_config

pytestmark = [pytest.mark.slow, pytest.mark.weka]

ABSENT = "vehic wind non-float"
ENGINES = ("sklearn", "weka")
CLASSIFIERS = {
    "sklearn": ["DecisionTree", "NaiveBayes"],
    "weka": ["Bagging", "BayesNet", "DecisionTable", "J48", "RandomForest"],
}
#: One weight per declared class, by label (the absent class included).
WINDOWS = {
    "build wind float": 1,
    "build wind non-float": 1,
    "vehic wind float": 1,
    ABSENT: 1,
    "containers": 0,
    "tableware": 0,
    "headlamps": 0,
}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """The working directory of a finished run of glass with both engines."""
    weka_or_missing()
    workdir = tmp_path_factory.mktemp("declared_classes")
    (workdir / "data").mkdir()
    shutil.copy(REPO_ROOT / "tests" / "data" / "arff" / "glass.arff", workdir / "data")
    config = {
        "run": {"datasets": ["glass"], "engines": list(ENGINES)},
        "results": "results",
        "cv": {"folds": 3, "seed": 1},
        "classifiers": {
            "sklearn": {
                "DecisionTree": {
                    "class": "sklearn.tree.DecisionTreeClassifier",
                    "params": {"criterion": "entropy", "min_samples_leaf": 2},
                },
                "NaiveBayes": {
                    "class": "sklearn.naive_bayes.CategoricalNB",
                    "params": {"alpha": 1.0},
                    "encoding": "categorical",
                },
            }
        },
        "datasets": {
            "glass": {
                "path": "data/glass.arff",
                "kappa_grid": [0, 1],
                "kappa_vectors": {"windows": WINDOWS},
            }
        },
        "stats": {"cv5x2": False},
        "exact": {"monte_carlo_samples": 2000},
        "uncertainty": {"draws": 400},
    }
    write_config(workdir, config)
    done = run_snakemake(workdir, "--cores", "2")
    assert done.returncode == 0, done.stderr[-6000:]
    return workdir


def test_the_declared_class_keeps_its_place_and_a_zero_row(run):
    results = run / "results"
    about = json.loads((results / "data" / "glass.json").read_text())
    assert len(about["classes"]) == 7 and about["classes"][3] == ABSENT
    cells = raw_csv(results / "confusion_matrices.csv")
    for engine in ENGINES:
        mine = cells[cells["engine"] == engine]
        assert sorted(set(mine["classifier"])) == sorted(CLASSIFIERS[engine])
        pooled = mine[mine["fold"] == "all"]
        assert len(pooled) == len(CLASSIFIERS[engine]) * 49  # 7 x 7 cells each
        assert (pooled[pooled["actual"] == ABSENT]["count"].astype(int) == 0).all()


def test_every_kappa_vector_has_a_weight_per_declared_class(run):
    table = raw_csv(run / "results" / "measures.csv")
    pd_rows = table[table["measure"] == "preference_driven"]
    windows = pd_rows[pd_rows["kappa"] == "windows"]["kappa_values"]
    assert set(windows) == {"1;1;1;1;0;0;0"}
    for values in pd_rows[pd_rows["kappa"] == "default"]["kappa_values"]:
        weights = [float(v) for v in values.split(";")]
        assert len(weights) == 7 and weights[3] == 0.0  # its share of the samples


def test_the_warning_names_the_class_in_the_log_and_in_warnings_csv(run):
    # Whichever jobs log it (the logs are the rules'), the run's logs name the class.
    logs = "\n".join(p.read_text() for p in sorted((run / "logs").rglob("*.log")))
    assert f"dataset glass: class(es) ['{ABSENT}'] have no sample among the 214 rows" in logs
    for engine in ENGINES:
        for classifier in CLASSIFIERS[engine]:
            named = f"{engine}/glass/{classifier}: class '{ABSENT}' never an actual class"
            assert named in logs
    warnings = raw_csv(run / "results" / "warnings.csv")
    recall = warnings[(warnings["class"] == ABSENT) & (warnings["measure"] == "recall")]
    expected = {(e, c) for e in ENGINES for c in CLASSIFIERS[e]}
    assert set(zip(recall["engine"], recall["classifier"])) == expected
    assert recall["reason"].str.startswith("never an actual class (0 of 214 samples").all()


@pytest.mark.parametrize("engine", ENGINES)
def test_tables_uncertainty_exact_analysis_and_explorer_are_written(run, engine):
    results = run / "results"
    for ext in ("csv", "md"):
        assert (results / "tables" / f"table_glass_{engine}.{ext}").is_file()
        assert (results / "tables" / f"table_glass_{engine}_ci.{ext}").is_file()
    ranking = raw_csv(results / "tables" / f"table_glass_{engine}.csv")
    assert set(CLASSIFIERS[engine]) <= set(ranking.columns) | set(ranking.to_numpy().ravel())
    intervals = raw_csv(results / "uncertainty" / engine / "glass" / "intervals.csv")
    assert set(intervals["classifier"]) == set(CLASSIFIERS[engine])
    bounds = intervals[["value", "lower", "upper"]].astype(float).to_numpy()
    assert np.isfinite(bounds).all()
    summary = raw_csv(results / "exact" / engine / "glass" / "summary.csv")
    assert set(summary["classifier"]) == set(CLASSIFIERS[engine])  # none left out
    assert (results / "explorer" / engine / "glass.html").stat().st_size > 0
    data = json.loads((results / "explorer" / engine / "glass.json").read_text())
    assert data["labels"][3] == ABSENT and not data["excluded"]
    assert (results / "stats" / engine / "glass" / "pairwise.csv").is_file()
