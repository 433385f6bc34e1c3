"""The paper-exact Weka engine without a JVM: encoding rules, fold sizes, classifier entries
and requirement checks. Its runs in a JVM are system tests (tests/system/test_weka_runs.py)."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest

from helpers import dataset_spec, fresh_python, mirror_table, need_module, repo_config
from pdmeasure.pipeline.engines import (
    DatasetSpec,
    EngineUnavailable,
    get_engine,
    weka_engine,
)
from pdmeasure.pipeline.engines.weka_encoding import (
    WekaEncoding,
    class_positions,
    declared_values,
    encode,
)
from pdmeasure.pipeline.engines.weka_engine import WekaEngine, classifier_setup, fold_sizes


# ----------------------------------------------------------------------------- helpers
@pytest.fixture(scope="module")
def config():
    return repo_config()


def toy(config, **override) -> tuple[pd.DataFrame, DatasetSpec]:
    data = pd.DataFrame(
        {
            "age": ["10", "8", "?", "9", "10"],
            "colour": ["red", "blue", "red", "green", "blue"],
            "class": ["b", "a", "b", "a", "c"],
        }
    )
    spec = DatasetSpec(
        name="toy",
        target="class",
        classes=("c", "b", "a"),
        numeric_features=("age",),
        missing="?",
        options={
            "all_nominal": True,
            "value_order": "sorted",
            "missing_as_category": False,
            "keep_file_order": True,
            **override,
        },
    )
    return data, spec


# ----------------------------------------------------------------------------- encoding rules
def test_declared_values_sorted_numeric_alphabetical_first_appearance():
    assert declared_values(["10", "8", "9", "10", "8.5"]) == ["8", "8.5", "9", "10"]
    assert declared_values(["b", "a", "c", "a"]) == ["a", "b", "c"]
    # a kept missing marker makes the column non-numeric: alphabetical (code-point) order
    assert declared_values(["10", "8", "?", "9"]) == ["10", "8", "9", "?"]
    assert declared_values(["b", "a", "c", "a"], value_order="first_appearance") == ["b", "a", "c"]
    with pytest.raises(ValueError, match="value_order"):
        declared_values(["a"], value_order="random")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"all_nominal": True, "colour": 1}, "unknown weka encoding option"),
        ({"keep_file_order": False}, "keep_file_order"),
        ({"missing_as_category": "yes"}, "true or false"),
        ({"value_order": "random"}, "value_order"),
        ({"value_order": "declared"}, "needs declared_values"),
    ],
)
def test_encoding_options_rejected(options, message):
    with pytest.raises(ValueError, match=message):
        WekaEncoding.from_options(options)


def test_encode_missing_as_weka_missing_and_class_order(config):
    data, spec = toy(config)
    attributes, values = encode(data, spec)
    assert [a.name for a in attributes] == ["age", "colour", "class"]
    assert attributes[0].values == ("8", "9", "10")
    assert attributes[1].values == ("blue", "green", "red")
    assert attributes[2].values == ("c", "b", "a")  # configured order, never sorted
    np.testing.assert_array_equal(values[:, 0], [2, 0, np.nan, 1, 2])
    np.testing.assert_array_equal(values[:, 2], [1, 2, 1, 2, 0])


def test_encode_missing_as_category(config):
    data, spec = toy(config, missing_as_category=True)
    attributes, values = encode(data, spec)
    assert attributes[0].values == ("10", "8", "9", "?")
    np.testing.assert_array_equal(values[:, 0], [0, 1, 3, 2, 0])


def test_encode_numeric_features_when_not_all_nominal(config):
    data, spec = toy(config, all_nominal=False)
    attributes, values = encode(data, spec)
    assert attributes[0].values is None
    np.testing.assert_array_equal(values[:, 0], [10, 8, np.nan, 9, 10])
    bad = data.assign(age=["10", "x", "?", "9", "10"])
    with pytest.raises(ValueError, match="non-numeric cell 'x'"):
        encode(bad, spec)


#: What an ARFF header declares for the toy table: values in an order that is not sorted,
#: a value no row has, and the class attribute in an order other than the configured one.
TOY_DECLARED = {"colour": ["red", "green", "blue", "black"], "class": ["a", "b", "c"]}


def test_encode_as_declared(config):
    """``value_order: declared``: every nominal attribute and the class attribute as the
    source declares them; ``?`` is Weka's missing value; an attribute the source does not
    declare nominal (age, numeric in the source, nominal here) falls back to sorted."""
    data, spec = toy(config, value_order="declared", declared_values=TOY_DECLARED)
    attributes, values = encode(data, spec)
    assert attributes[0].values == ("8", "9", "10")
    assert attributes[1].values == ("red", "green", "blue", "black")
    assert attributes[2].values == ("a", "b", "c")  # the source's order, not ("c", "b", "a")
    np.testing.assert_array_equal(values[:, 1], [0, 2, 0, 1, 2])
    np.testing.assert_array_equal(values[:, 2], [1, 0, 1, 0, 2])
    # Weka's class index -> position in the configured order ("c", "b", "a").
    np.testing.assert_array_equal(class_positions(spec), [2, 1, 0])
    # null is declared when the declarations are there
    assert WekaEncoding.from_options({"value_order": None, "declared_values": {}}).value_order == (
        "declared"
    )
    kept = encode(
        data.assign(colour=["red", "?", "blue", "?", "red"]),
        toy(config, value_order="declared", declared_values=TOY_DECLARED, missing_as_category=True)[
            1
        ],
    )[0]
    assert kept[1].values == ("red", "green", "blue", "black", "?")


def test_encode_as_declared_keeps_the_configured_order_for_other_classes(config):
    """Configured classes that are not the declared ones (a declared class left out): the
    class attribute is declared in the configured order."""
    data, spec = toy(
        config,
        value_order="declared",
        declared_values={**TOY_DECLARED, "class": ["a", "b", "c", "d"]},
    )
    assert encode(data, spec)[0][2].values == ("c", "b", "a")
    np.testing.assert_array_equal(class_positions(spec), [0, 1, 2])


def test_encode_as_declared_rejects_an_undeclared_value(config):
    data, spec = toy(config, value_order="declared", declared_values=TOY_DECLARED)
    with pytest.raises(ValueError, match=r"attribute 'colour' has the value\(s\) \['pink'\]"):
        encode(data.assign(colour=["red", "pink", "red", "red", "red"]), spec)


def test_importing_the_wrapper_leaves_the_root_logger_alone():
    """python-weka-wrapper3 calls logging.basicConfig() on import; the engine removes the
    handler it adds, or Snakemake (whose process parses the workflow and runs the engine
    checks) prints every message twice."""
    need_module("weka")
    code = (
        "import logging\n"
        "from pdmeasure.pipeline.engines.weka_engine import bundled_weka_classes\n"
        "assert bundled_weka_classes(), 'no weka.jar'\n"
        "print(len(logging.getLogger().handlers))\n"
    )
    assert fresh_python(code) == "0"


def test_encode_rejects_unknown_class_and_missing_target(config):
    data, spec = toy(config)
    with pytest.raises(ValueError, match=r"class labels \['d'\]"):
        encode(data.assign(**{"class": ["a", "b", "c", "d", "a"]}), spec)
    with pytest.raises(ValueError, match="class column"):
        encode(data.drop(columns="class"), spec)


def test_dermatology_encoding_keeps_question_mark_ages(config, uci_mirror):
    data = mirror_table(uci_mirror, "dermatology")
    spec = dataset_spec(config, "dermatology")
    attributes, values = encode(data, spec)
    age = attributes[data.columns.get_loc("age")]
    assert age.values[-1] == "?"
    assert not np.isnan(values).any()
    assert (
        int((values[:, data.columns.get_loc("age")] == len(age.values) - 1).sum())
        == int((data["age"] == "?").sum())
        == 8
    )
    scores = attributes[0].values
    assert scores == ("0", "1", "2", "3")


def test_fold_sizes_match_weka_testcv():
    np.testing.assert_array_equal(fold_sizes(23, 10), [3, 3, 3, 2, 2, 2, 2, 2, 2, 2])
    assert fold_sizes(28056, 10).sum() == 28056


@pytest.mark.parametrize(
    "params, message",
    [
        ({"class": "weka.classifiers.trees.J48", "seed": 1}, "unknown weka classifier"),
        ({"options": []}, "needs `class`"),
        ({"class": "sklearn.tree.DecisionTreeClassifier"}, "needs `class`"),
        ({"class": "weka.classifiers.trees.J48", "options": "-C 0.25"}, "list of strings"),
    ],
)
def test_classifier_setup_rejects_bad_entries(params, message):
    with pytest.raises(ValueError, match=message):
        classifier_setup(params)


def test_configured_classifiers_are_valid(config):
    for params in config["classifiers"]["weka"].values():
        name, options = classifier_setup(params)
        assert name.startswith("weka.classifiers.") and options == []


# ----------------------------------------------------------------------------- requirements
def test_check_available_names_java_when_missing(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    with pytest.raises(EngineUnavailable) as info:
        get_engine("weka").check_available()
    message = str(info.value)
    for needed in (
        "apt-get install openjdk-17-jre-headless",
        "conda install -c conda-forge openjdk",
        "remove `weka` from `engines` in config.yaml",
    ):
        assert needed in message


def test_check_available_names_package_when_missing(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: "/usr/bin/java")
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "weka" else real(name, *a)
    )
    with pytest.raises(EngineUnavailable, match=r"pip install python-weka-wrapper3.*remove `weka`"):
        WekaEngine().check_available()


def test_check_available_names_java_home_when_jvm_library_missing(monkeypatch):
    jpype = need_module("jpype")

    def no_jvm():
        raise jpype.JVMNotFoundException("No JVM shared library file (libjvm.so) found")

    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: "/usr/bin/java")
    monkeypatch.setattr(jpype, "getDefaultJVMPath", no_jvm)
    with pytest.raises(EngineUnavailable, match=r"libjvm.so.*JAVA_HOME.*remove `weka`"):
        WekaEngine().check_available()


def test_max_heap_size_from_environment(monkeypatch):
    monkeypatch.delenv(weka_engine.MAX_HEAP_ENV, raising=False)
    assert weka_engine.max_heap_size() == weka_engine.DEFAULT_MAX_HEAP
    monkeypatch.setenv(weka_engine.MAX_HEAP_ENV, "768m")
    assert weka_engine.max_heap_size() == "768m"
    monkeypatch.setenv(weka_engine.MAX_HEAP_ENV, "lots")
    with pytest.raises(ValueError, match="PDMEASURE_WEKA_MAX_HEAP='lots'"):
        weka_engine.max_heap_size()


@pytest.mark.parametrize(
    ("current", "threads", "expected"),
    [
        ("", 1, "-Xms1024m -XX:ActiveProcessorCount=1"),
        ("", None, "-Xms1024m"),
        ("-Dfile.encoding=UTF-8", 4, "-Dfile.encoding=UTF-8 -Xms1024m -XX:ActiveProcessorCount=4"),
        # The user's own settings win.
        ("-Xms64m -XX:ActiveProcessorCount=2", 1, "-Xms64m -XX:ActiveProcessorCount=2"),
        ("-XX:InitialHeapSize=64m", None, "-XX:InitialHeapSize=64m"),
    ],
)
def test_java_tool_options_add_the_jobs_flags_the_user_did_not_set(current, threads, expected):
    assert weka_engine.java_tool_options(current, "1024m", threads) == expected


def test_pipeline_config_check_fails_before_any_job(monkeypatch, config):
    from pdmeasure.pipeline.config import ConfigError, check_engines

    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    with pytest.raises(ConfigError, match="openjdk-17-jre-headless"):
        check_engines({**config, "engines": ["sklearn", "weka"]})
    check_engines({**config, "engines": ["sklearn"]})  # sklearn alone still runs
