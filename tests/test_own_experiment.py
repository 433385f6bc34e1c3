"""One's own experiment by config alone: the `run` block, local sources, classifiers by import
path, kappa vectors by class label, and the generic outputs of a dataset the papers never saw.

The unit tests resolve configs without running anything; the two Snakemake runs are the
user file of the README (a local CSV whose class is the first column, merged into the
repository's config.yaml with --configfile) and the small test experiment in `.test/`.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO_ROOT, ZOO_CLASSES, repo_config, run_snakemake, select

import pdmeasure.pipeline.config as pdconfig
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, get_engine

TEST_EXPERIMENT = REPO_ROOT / ".test"
WINE = TEST_EXPERIMENT / "data" / "wine.csv"
ZOO = TEST_EXPERIMENT / "data" / "zoo.arff"

#: The user file of the README and of config/examples/mydata.yaml, verbatim.
USER_FILE = """\
run:
  datasets: [mydata]
  engines: [sklearn]
datasets:
  mydata:
    path: data/mydata.csv
    target: first        # a column name, or first / last / a 0-based index
"""


def own(tmp_path: Path, block: dict, **run) -> dict:
    """The repository config plus dataset ``mine`` (``block``), selected alone (sklearn)."""
    config = copy.deepcopy(repo_config())
    config["datasets"]["mine"] = block
    select(config, datasets=["mine"], engines=run.get("engines", ["sklearn"]))
    config["mirror"] = None
    config["results"] = str(tmp_path / "results")
    return config


@pytest.fixture
def wine_copy(tmp_path, monkeypatch) -> Path:
    """wine.csv copied to tmp_path/data/mydata.csv; the working directory is tmp_path."""
    (tmp_path / "data").mkdir()
    shutil.copy(WINE, tmp_path / "data" / "mydata.csv")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data" / "mydata.csv"


# --- the run block ------------------------------------------------------------------------


def test_user_file_selects_only_its_dataset_and_engine(wine_copy):
    config = repo_config()
    pdconfig_update(config, yaml.safe_load(USER_FILE))
    resolved = pdconfig.prepare_config(config)
    assert list(resolved["datasets"]) == ["mydata"]
    assert resolved["engines"] == ["sklearn"]
    assert list(resolved["classifiers"]) == ["sklearn"]
    mine = resolved["datasets"]["mydata"]
    assert mine["target"] == "cultivar"
    assert mine["classes"] == ["1", "2", "3"]
    assert mine["class_order"] == "first appearance in file data/mydata.csv"
    assert "alcohol" in mine["numeric_features"] and "cultivar" not in mine["numeric_features"]
    # auto grid: 11 values per class keep 3 classes far under the budget.
    assert mine["kappa_grid"] == [round(i / 10, 6) for i in range(11)]


def pdconfig_update(config: dict, user: dict) -> None:
    """Merge ``user`` into ``config`` as Snakemake's --configfile does (nested update)."""
    from snakemake.utils import update_config

    update_config(config, user)


@pytest.mark.parametrize(
    ("edit", "key", "words"),
    [
        (lambda c: select(c, datasets=["car", "cars"]), "run.datasets", "['cars'] are not defined"),
        (
            lambda c: c["run"].__setitem__("classifiers", {"weka": ["J48"]}),
            "run.classifiers.weka",
            "not in `run.engines`",
        ),
        (
            lambda c: c["run"].__setitem__("classifiers", {"sklearn": ["SVM"]}),
            "run.classifiers.sklearn",
            "['SVM'] are not defined",
        ),
    ],
    ids=["unknown-dataset", "engine-not-run", "unknown-classifier"],
)
def test_selection_errors_name_the_key(edit, key, words):
    config = select(copy.deepcopy(repo_config()), engines=["sklearn"])
    edit(config)
    with pytest.raises(ConfigError) as caught:
        pdconfig.prepare_config(config)
    assert str(caught.value).startswith(f"config key `{key}`")
    assert words in str(caught.value)


def test_run_classifiers_selects_a_subset():
    config = select(copy.deepcopy(repo_config()), engines=["sklearn"])
    config["run"]["classifiers"] = {"sklearn": ["RandomForest", "NaiveBayes"]}
    resolved = pdconfig.prepare_config(config)
    assert list(resolved["classifiers"]["sklearn"]) == ["RandomForest", "NaiveBayes"]


# --- local sources and what is inferred ----------------------------------------------------


@pytest.mark.parametrize(
    ("target", "expected"),
    [("first", "cultivar"), ("last", "proline"), (0, "cultivar"), (-1, "proline")],
)
def test_target_by_keyword_or_position(tmp_path, wine_copy, target, expected):
    config = own(tmp_path, {"path": "data/mydata.csv", "target": target})
    if expected == "proline":
        # proline as the class: 3 classes would not hold, so only the resolution is checked.
        block = pdconfig.resolve_dataset(pdconfig_validated(config), "mine")
        assert block["target"] == expected
        return
    assert pdconfig.prepare_config(config)["datasets"]["mine"]["target"] == expected


def pdconfig_validated(config: dict) -> dict:
    pdconfig.validate_schema(config)
    return config


def test_unknown_target_names_the_columns(tmp_path, wine_copy):
    config = own(tmp_path, {"path": "data/mydata.csv", "target": "grape"})
    with pytest.raises(ConfigError) as caught:
        pdconfig.prepare_config(config)
    assert "`datasets.mine.target`" in str(caught.value)
    assert "cultivar" in str(caught.value)


def test_unknown_extension_asks_for_format(tmp_path, wine_copy):
    shutil.copy(wine_copy, tmp_path / "data" / "mydata.txt")
    config = own(tmp_path, {"path": "data/mydata.txt", "target": "first"})
    with pytest.raises(ConfigError, match=r"`datasets.mine.format`: cannot tell the format"):
        pdconfig.prepare_config(config)
    config["datasets"]["mine"]["format"] = "csv"
    assert pdconfig.prepare_config(config)["datasets"]["mine"]["format"] == "csv"


def test_auto_grid_stays_under_the_budget():
    limit = 1_000_000
    for n_classes in range(2, 40):
        grid = pdconfig.auto_kappa_grid(n_classes, limit)
        if grid is None:
            assert 2**n_classes > limit
            continue
        assert 2 <= len(grid) <= 11 and grid[0] == 0 and grid[-1] == 1
        assert len(grid) ** n_classes <= limit
        assert len(grid) == 11 or (len(grid) + 1) ** n_classes > limit
    assert pdconfig.auto_kappa_grid(4, limit) == [round(i / 10, 6) for i in range(11)]
    assert pdconfig.auto_kappa_grid(18, limit) == [0.0, 1.0]
    assert pdconfig.auto_kappa_grid(25, limit) is None


# --- kappa vectors by class label ---------------------------------------------------------


def test_kappa_vector_by_label_becomes_positional(tmp_path, wine_copy):
    vectors = {"by_name": {"3": 0.0, "1": 1.0, "2": 0.25}, "by_position": [1, 0.25, 0]}
    config = own(tmp_path, {"path": "data/mydata.csv", "target": 0, "kappa_vectors": vectors})
    resolved = pdconfig.prepare_config(config)["datasets"]["mine"]["kappa_vectors"]
    assert resolved == {"by_name": [1.0, 0.25, 0.0], "by_position": [1, 0.25, 0]}


@pytest.mark.parametrize(
    ("vector", "words"),
    [
        ({"1": 1, "2": 0.5, "4": 0}, "unknown label(s) '4'"),
        ({"1": 1, "2": 0.5}, "no weight for label(s) '3'"),
    ],
    ids=["unknown-label", "missing-label"],
)
def test_kappa_mapping_errors_name_the_label(tmp_path, wine_copy, vector, words):
    config = own(tmp_path, {"path": "data/mydata.csv", "target": 0, "kappa_vectors": {"p": vector}})
    with pytest.raises(ConfigError) as caught:
        pdconfig.prepare_config(config)
    message = str(caught.value)
    assert message.startswith("config key `datasets.mine.kappa_vectors.p`")
    assert words in message
    assert "['1', '2', '3']" in message


# --- classifiers by import path ------------------------------------------------------------


def sklearn_config(tmp_path, entry: dict) -> dict:
    config = select(copy.deepcopy(repo_config()), engines=["sklearn"])
    config["classifiers"]["sklearn"]["Mine"] = entry
    config["run"]["classifiers"] = {"sklearn": ["Mine"]}
    return pdconfig.prepare_config(config)


@pytest.mark.parametrize(
    "entry",
    [
        {
            "class": "sklearn.svm.SVC",
            "params": {"C": 2.0, "kernel": "linear"},
            "encoding": "onehot",
        },
        {"class": "sklearn.ensemble:HistGradientBoostingClassifier", "params": {"max_iter": 20}},
        {"class": "sklearn.linear_model.LogisticRegression", "encoding": "onehot"},
        {"class": "sklearn.neighbors.KNeighborsClassifier", "params": {"n_neighbors": 3}},
    ],
    ids=["SVC", "HistGradientBoosting", "LogisticRegression", "KNeighbors"],
)
def test_sklearn_classifier_by_import_path_cross_validates(tmp_path, entry):
    config = sklearn_config(tmp_path, entry)
    pdconfig.check_engines(config)
    rng = np.random.default_rng(0)
    n = 60
    label = np.where(np.arange(n) % 3 == 0, "a", np.where(np.arange(n) % 3 == 1, "b", "c"))
    data = pd.DataFrame(
        {
            "colour": np.where(rng.random(n) < 0.7, label, "x"),
            "size": [str(round(v, 3)) if i % 11 else "?" for i, v in enumerate(rng.random(n))],
            "label": label,
        }
    )
    spec = DatasetSpec("toy", "label", ("a", "b", "c"), ("size",), "?")
    entry = config["classifiers"]["sklearn"]["Mine"]
    predictions = get_engine("sklearn").cross_validate(data, spec, "Mine", entry, CVSpec(3, 1, 1))
    assert len(predictions) == n
    assert set(predictions["predicted"]) <= {"a", "b", "c"}
    again = get_engine("sklearn").cross_validate(data, spec, "Mine", entry, CVSpec(3, 1, 1))
    pd.testing.assert_frame_equal(predictions, again)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"class": "sklearn.svm.SVX"}, "module 'sklearn.svm' has no attribute 'SVX'"),
        ({"class": "sklearn.notamodule.Tree"}, "module 'sklearn.notamodule' cannot be imported"),
        ({"class": "sklearn.svm.SVC", "params": {"C": -1.0}}, "'C' parameter of SVC"),
        ({"class": "sklearn.svm.SVC", "params": {"gamma_": 1}}, "SVC has no parameters ['gamma_']"),
        ({"class": "sklearn.svm.SVC", "params": {"random_state": 3}}, "set by the engine"),
        ({"class": "pathlib.Path"}, "is not an estimator class"),
    ],
    ids=["unknown-class", "unknown-module", "bad-value", "unknown-param", "reserved", "not-est"],
)
def test_bad_sklearn_classifier_is_a_config_error(tmp_path, entry, words):
    config = sklearn_config(tmp_path, entry)
    with pytest.raises(ConfigError) as caught:
        pdconfig.check_engines(config)
    assert str(caught.value).startswith("config key `classifiers.sklearn.Mine`")
    assert words in str(caught.value)


def test_weka_options_string_is_split_like_a_command_line():
    config = select(copy.deepcopy(repo_config()), engines=["weka"])
    config["classifiers"]["weka"]["SMO"] = {
        "class": "weka.classifiers.functions.SMO",
        "options": "-C 1.0 -K 'weka.classifiers.functions.supportVector.PolyKernel -E 2.0'",
    }
    config["run"]["classifiers"] = {"weka": ["SMO"]}
    resolved = pdconfig.prepare_config(config)
    assert resolved["classifiers"]["weka"]["SMO"]["options"] == [
        "-C",
        "1.0",
        "-K",
        "weka.classifiers.functions.supportVector.PolyKernel -E 2.0",
    ]
    config["classifiers"]["weka"]["SMO"]["options"] = "-C '1.0"
    with pytest.raises(ConfigError, match=r"`classifiers.weka.SMO.options`: No closing"):
        pdconfig.prepare_config(config)


@pytest.fixture
def weka_engine():
    """The Weka engine, or a skip naming why it cannot run here."""
    engine = get_engine("weka")
    try:
        engine.check_available()
    except Exception as exc:  # noqa: BLE001 - any reason the engine cannot run skips
        pytest.skip(f"weka engine unavailable: {exc}")
    return engine


def smo_config(options: str) -> dict:
    """The repository config running only a Weka SMO with ``options``, resolved."""
    config = select(copy.deepcopy(repo_config()), engines=["weka"])
    config["classifiers"]["weka"]["SMO"] = {
        "class": "weka.classifiers.functions.SMO",
        "options": options,
    }
    config["run"]["classifiers"] = {"weka": ["SMO"]}
    return pdconfig.prepare_config(config)


@pytest.mark.weka
def test_weka_classifier_by_class_name_cross_validates(weka_engine):
    engine = weka_engine
    resolved = smo_config("-C 1.0")
    pdconfig.check_engines(resolved)
    data = pd.read_csv(WINE, dtype=str, keep_default_na=False)
    numeric = tuple(c for c in data.columns if c != "cultivar")
    spec = DatasetSpec("wine", "cultivar", ("1", "2", "3"), numeric, None, {"all_nominal": False})
    entry = resolved["classifiers"]["weka"]["SMO"]
    predictions = engine.cross_validate(data, spec, "SMO", entry, CVSpec(3, 1, 1))
    assert len(predictions) == len(data)
    assert (predictions["actual"] == predictions["predicted"]).mean() > 0.9


# --- Snakemake: the user file, and the small test experiment ------------------------------


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


@pytest.mark.weka
@pytest.mark.parametrize(
    ("options", "words"),
    [("-Q 1.0", "Illegal options: -Q 1.0"), ("-C abc", 'For input string: "abc"')],
)
def test_bad_weka_options_are_a_config_error(weka_engine, options, words):
    with pytest.raises(ConfigError) as caught:
        pdconfig.check_engines(smo_config(options))
    assert str(caught.value).startswith("config key `classifiers.weka.SMO`: Weka rejects")
    assert words in str(caught.value)
