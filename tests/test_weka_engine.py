"""The paper-exact Weka engine: encoding rules, requirement checks, and (marked ``weka``) the
cross-validation against the authors' published krkopt matrices and Weka's own API."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml

from pdmeasure.pipeline.confusion import confusion_matrix
from pdmeasure.pipeline.engines import (
    CVSpec,
    DatasetSpec,
    EngineUnavailable,
    get_engine,
    weka_engine,
)
from pdmeasure.pipeline.engines.weka_encoding import WekaEncoding, declared_values, encode
from pdmeasure.pipeline.engines.weka_engine import WekaEngine, classifier_setup, fold_sizes

PAPER_EXACT = ("Bagging", "BayesNet", "DecisionTable", "J48")


# ----------------------------------------------------------------------------- helpers
@pytest.fixture(scope="module")
def config(repo_root):
    with open(repo_root / "config.yaml") as handle:
        return yaml.safe_load(handle)


def spec_of(config, name: str, **override) -> DatasetSpec:
    block = config["datasets"][name]
    return DatasetSpec(
        name=name,
        target=block["target"],
        classes=tuple(block["classes"]),
        numeric_features=tuple(block["numeric_features"]),
        missing=block["missing"],
        options={**block["weka"], **override},
    )


def canonical(mirror, name: str) -> pd.DataFrame:
    """The canonical table (results/data/<name>.csv layout) straight from the UCI file."""
    manifest = json.loads((mirror / "MANIFEST.json").read_text())["datasets"][name]
    return pd.read_csv(
        mirror / manifest["file"],
        header=None,
        names=manifest["columns"],
        dtype=str,
        keep_default_na=False,
    )


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


def test_encode_rejects_unknown_class_and_missing_target(config):
    data, spec = toy(config)
    with pytest.raises(ValueError, match=r"class labels \['d'\]"):
        encode(data.assign(**{"class": ["a", "b", "c", "d", "a"]}), spec)
    with pytest.raises(ValueError, match="class column"):
        encode(data.drop(columns="class"), spec)


def test_dermatology_encoding_keeps_question_mark_ages(config, uci_mirror):
    data = canonical(uci_mirror, "dermatology")
    spec = spec_of(config, "dermatology")
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
    jpype = pytest.importorskip("jpype")

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


def test_pipeline_config_check_fails_before_any_job(monkeypatch, config):
    from pdmeasure.pipeline.config import ConfigError, check_engines

    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    with pytest.raises(ConfigError, match="openjdk-17-jre-headless"):
        check_engines({**config, "engines": ["sklearn", "weka"]})
    check_engines({**config, "engines": ["sklearn"]})  # sklearn alone still runs


# ----------------------------------------------------------------------------- Weka runs
@pytest.fixture(scope="module")
def weka():
    engine = WekaEngine()
    try:
        engine.check_available()
    except EngineUnavailable as exc:
        pytest.skip(f"weka engine unavailable: {exc}")
    weka_engine.ensure_jvm()
    return engine


@pytest.fixture(scope="module")
def krkopt(uci_mirror, config):
    return canonical(uci_mirror, "krkopt"), spec_of(config, "krkopt")


def check_predictions(pred: pd.DataFrame, data: pd.DataFrame, spec: DatasetSpec, folds: int):
    """Every row once per repeat, folds of Weka's sizes, actual labels from the data."""
    n = len(data)
    for _, by_repeat in pred.groupby("repeat"):
        assert sorted(by_repeat["row"]) == list(range(n))
        sizes = by_repeat.groupby("fold").size()
        assert list(sizes.index) == list(range(1, folds + 1))
        np.testing.assert_array_equal(sizes.to_numpy(), fold_sizes(n, folds))
        labels = data[spec.target].to_numpy(dtype=object)[by_repeat["row"].to_numpy()]
        np.testing.assert_array_equal(by_repeat["actual"].to_numpy(dtype=object), labels)


@pytest.mark.weka
def test_weka_version_is_at_least_3_7_11(weka):
    major, minor, patch = (int(p) for p in weka_engine.weka_version().split(".")[:3])
    assert (major, minor, patch) >= (3, 7, 11)


@pytest.mark.weka
@pytest.mark.parametrize("classifier", PAPER_EXACT)
def test_krkopt_pooled_matrix_equals_authors(weka, krkopt, config, shared_dir, classifier):
    data, spec = krkopt
    reference = json.loads(
        (shared_dir / "reference" / "krkopt-weka-confusion-matrices.json").read_text()
    )
    assert reference["class_order"] == list(spec.classes)
    pred = weka.cross_validate(
        data,
        spec,
        classifier,
        config["classifiers"]["weka"][classifier],
        CVSpec(folds=10, seed=1, repeats=1),
    )
    check_predictions(pred, data, spec, 10)
    pooled = confusion_matrix(pred["actual"], pred["predicted"], spec.classes)
    np.testing.assert_array_equal(pooled, np.array(reference["confusion_matrices"][classifier]))


@pytest.mark.weka
def test_rows_and_folds_equal_an_independent_weka_loop(weka, uci_mirror, config):
    """Per-row predictions equal a hand-written Weka fold loop, and the pooled matrix equals
    python-weka-wrapper3's Evaluation.crossvalidate_model."""
    from jpype import JClass
    from weka.classifiers import Classifier, Evaluation
    from weka.core.classes import Random
    from weka.core.dataset import Instances

    from pdmeasure.pipeline.engines.weka_encoding import to_instances

    data, spec = canonical(uci_mirror, "car"), spec_of(config, "car")
    params = config["classifiers"]["weka"]["J48"]
    pred = weka.cross_validate(data, spec, "J48", params, CVSpec(folds=10, seed=1, repeats=1))
    check_predictions(pred, data, spec, 10)

    instances = Instances(to_instances(data, spec))
    evaluation = Evaluation(instances)
    evaluation.crossvalidate_model(Classifier(classname=params["class"]), instances, 10, Random(1))
    pooled = confusion_matrix(pred["actual"], pred["predicted"], spec.classes)
    np.testing.assert_array_equal(pooled, np.rint(evaluation.confusion_matrix).astype(int))

    # The loop of Evaluation.crossValidateModel, written out; each test instance carries its
    # file row through randomize/stratify because we look it up by its attribute values.
    key_of = {
        tuple(row): i
        for i, row in enumerate(data.drop(columns=spec.target).itertuples(index=False))
    }
    assert len(key_of) == len(data)  # car rows are unique feature vectors
    random = JClass("java.util.Random")(1)
    shuffled = JClass("weka.core.Instances")(instances.jobject)
    shuffled.randomize(random)
    shuffled.stratify(10)
    expected = {}
    for fold in range(10):
        train = shuffled.trainCV(10, fold, random)
        model = JClass("weka.classifiers.AbstractClassifier").forName(params["class"], [])
        model.buildClassifier(train)
        test = shuffled.testCV(10, fold)
        for k in range(test.numInstances()):
            inst = test.instance(k)
            key = tuple(inst.stringValue(a) for a in range(test.numAttributes() - 1))
            expected[key_of[key]] = (fold + 1, spec.classes[int(model.classifyInstance(inst))])
    got = {r.row: (r.fold, r.predicted) for r in pred.itertuples(index=False)}
    assert got == expected


@pytest.mark.weka
def test_repeats_use_consecutive_seeds(weka, uci_mirror, config):
    data, spec = canonical(uci_mirror, "car"), spec_of(config, "car")
    params = config["classifiers"]["weka"]["BayesNet"]
    two = weka.cross_validate(data, spec, "BayesNet", params, CVSpec(folds=5, seed=3, repeats=2))
    check_predictions(two, data, spec, 5)
    second = weka.cross_validate(data, spec, "BayesNet", params, CVSpec(folds=5, seed=4, repeats=1))
    got = two[two["repeat"] == 2].drop(columns="repeat").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, second.drop(columns="repeat"))
    first = two[two["repeat"] == 1]
    assert not np.array_equal(first["row"].to_numpy(), second["row"].to_numpy())


@pytest.mark.weka
@pytest.mark.parametrize("classifier", ["Bagging", "RandomForest"])
def test_execution_slots_build_the_same_models(weka, uci_mirror, config, monkeypatch, classifier):
    """A job with more cores (`resources.cv_threads`) gives Weka's ensembles as many
    execution slots, and the same predictions: every member's seed is drawn first."""
    data, spec = canonical(uci_mirror, "car"), spec_of(config, "car")
    params = config["classifiers"]["weka"][classifier]
    cv = CVSpec(folds=4, seed=1)
    one = weka.cross_validate(data, spec, classifier, params, cv)
    monkeypatch.setitem(weka_engine._JVM, "threads", 3)  # as configure_jvm(threads=3) sets it
    assert weka_engine.make_classifier(params).getNumExecutionSlots() == 3
    three = weka.cross_validate(data, spec, classifier, params, cv)
    pd.testing.assert_frame_equal(one, three)


def test_jvm_takes_heap_and_processors_from_the_job(weka):
    """configure_jvm(threads, mem_mb) before the JVM starts: -Xmx and ActiveProcessorCount.

    Run in a fresh process, since a process has one JVM for good.
    """
    code = (
        "from pdmeasure.pipeline.engines import get_engine, weka_engine\n"
        "get_engine('weka').configure(threads=1, mem_mb=1024)\n"
        "weka_engine.ensure_jvm()\n"
        "from jpype import JClass\n"
        "rt = JClass('java.lang.Runtime').getRuntime()\n"
        "print(rt.availableProcessors(), rt.maxMemory() // 2**20)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    processors, heap = map(int, done.stdout.split()[-2:])
    assert processors == 1
    # -Xmx512m (1024 - JVM_OVERHEAD_MB); the JVM reports a little less (a survivor space).
    assert 0.85 * 512 <= heap <= 512
