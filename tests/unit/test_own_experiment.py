"""One's own experiment by config alone: the `run` block, local sources, classifiers by import
path, kappa vectors by class label, and the generic outputs of a dataset the papers never saw.

These resolve configs without running anything; the Snakemake runs of the README's user file
and of `.test/` are in tests/workflow/test_own_experiment_runs.py, one's own Weka classifier
in tests/system/test_weka_own_classifiers.py.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

import pdmeasure.pipeline.config as pdconfig
from helpers import USER_FILE, WINE, ZOO, ZOO_CLASSES, repo_config, select
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, get_engine


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


# --- the Weka encoding of a source that declares itself --------------------------------------


def test_arff_source_is_encoded_as_it_declares_itself(tmp_path, monkeypatch):
    """An ARFF file without a `weka` block: value_order resolves to `declared`, and with the
    weka engine the Weka jobs get each nominal attribute's declared values as a parameter."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(ZOO, tmp_path / "zoo.arff")
    block = {"path": "zoo.arff", "target": "type"}
    weka = pdconfig.prepare_config(own(tmp_path, block, engines=["weka"]))["datasets"]["mine"]
    assert weka["weka"]["value_order"] == "declared"
    assert weka["weka"]["declared_values"]["type"] == list(ZOO_CLASSES)
    assert weka["weka"]["declared_values"]["hair"] == ["false", "true"]
    assert "legs" not in weka["weka"]["declared_values"]  # numeric in the header
    spec = pdconfig.dataset_spec({"datasets": {"mine": weka}}, "mine", "weka")
    assert spec.options["declared_values"]["type"] == list(ZOO_CLASSES)
    sklearn = pdconfig.prepare_config(own(tmp_path, block))["datasets"]["mine"]
    assert sklearn["weka"]["value_order"] == "declared"
    assert "declared_values" not in sklearn["weka"]  # only the Weka jobs need them
    chosen = {**block, "weka": {"value_order": "sorted"}}
    assert pdconfig.prepare_config(own(tmp_path, chosen, engines=["weka"]))["datasets"]["mine"][
        "weka"
    ] == {
        "all_nominal": False,
        "value_order": "sorted",
        "missing_as_category": False,
        "keep_file_order": True,
    }


def test_csv_source_is_sorted_and_cannot_be_declared(tmp_path, wine_copy):
    block = {"path": "data/mydata.csv", "target": "first"}
    resolved = pdconfig.prepare_config(own(tmp_path, block, engines=["weka"]))
    assert resolved["datasets"]["mine"]["weka"]["value_order"] == "sorted"
    declared = {**block, "weka": {"value_order": "declared"}}
    with pytest.raises(ConfigError) as caught:
        pdconfig.prepare_config(own(tmp_path, declared, engines=["weka"]))
    assert str(caught.value).startswith(
        "config key `datasets.mine.weka.value_order`: `declared` takes each nominal attribute's "
        "values from the source's declaration, but dataset `mine` is a delimited file"
    )


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


# --- Snakemake: the user file, and the small test experiment ------------------------------
