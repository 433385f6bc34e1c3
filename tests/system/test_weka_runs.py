"""The paper-exact Weka engine in a JVM: its cross-validation against the authors' published
krkopt matrices and Weka's own API, repeats, execution slots, the job's heap and cores.

Its encoding rules and requirement checks, which need no JVM, are unit tests
(tests/unit/test_weka_engine.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from helpers import dataset_spec, mirror_table, repo_config
from pdmeasure.pipeline.engines import (
    CVSpec,
    DatasetSpec,
    weka_engine,
)
from pdmeasure.pipeline.engines.weka_engine import fold_sizes
from pdmeasure.tables.confusion import confusion_matrix

PAPER_EXACT = ("Bagging", "BayesNet", "DecisionTable", "J48")


@pytest.fixture(scope="module")
def config():
    return repo_config()


@pytest.fixture(scope="module")
def krkopt(uci_mirror, config):
    return mirror_table(uci_mirror, "krkopt"), dataset_spec(config, "krkopt")


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
def test_krkopt_pooled_matrix_equals_authors(weka, krkopt, config, authors_reference, classifier):
    data, spec = krkopt
    reference = authors_reference
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

    data, spec = mirror_table(uci_mirror, "car"), dataset_spec(config, "car")
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


def identity_fold_order(instances, folds: int, seed: int) -> np.ndarray:
    """Slow oracle of ``weka_engine.replay_fold_order``: randomize and stratify a copy of the
    instances themselves, and map every position back to its row by instance identity."""
    from jpype import JClass, JInt

    copy = JClass("weka.core.Instances")(instances)
    n = int(copy.numInstances())
    row_of = JClass("java.util.IdentityHashMap")(n * 2)
    for k in range(n):
        row_of.put(copy.instance(k), JInt(k))
    copy.randomize(JClass("java.util.Random")(seed))
    copy.stratify(folds)
    return np.array([int(row_of.get(copy.instance(k))) for k in range(n)])


@pytest.mark.weka
@pytest.mark.parametrize("dataset", ["car", "dermatology", "nursery"])
def test_fold_order_replayed_on_row_numbers_equals_instance_identity(
    weka, uci_mirror, config, dataset
):
    """The layout read from (row, class) pairs is the layout of the data's own instances."""
    from pdmeasure.pipeline.engines.weka_encoding import to_instances

    weka_engine.ensure_jvm()
    instances = to_instances(mirror_table(uci_mirror, dataset), dataset_spec(config, dataset))
    tagged = weka_engine.row_tagged(instances)
    for folds, seed in [(10, 1), (2, 1), (2, 5), (3, 42)]:
        expected = identity_fold_order(instances, folds, seed)
        got = weka_engine.replay_fold_order(instances, folds, seed, tagged=tagged)
        np.testing.assert_array_equal(got, expected)
    untagged = weka_engine.replay_fold_order(instances, 10, 1)
    np.testing.assert_array_equal(untagged, identity_fold_order(instances, 10, 1))


@pytest.mark.weka
def test_repeats_use_consecutive_seeds(weka, uci_mirror, config):
    data, spec = mirror_table(uci_mirror, "car"), dataset_spec(config, "car")
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
    data, spec = mirror_table(uci_mirror, "car"), dataset_spec(config, "car")
    params = config["classifiers"]["weka"][classifier]
    cv = CVSpec(folds=4, seed=1)
    one = weka.cross_validate(data, spec, classifier, params, cv)
    monkeypatch.setitem(weka_engine._JVM, "threads", 3)  # as configure_jvm(threads=3) sets it
    assert weka_engine.make_classifier(params).getNumExecutionSlots() == 3
    three = weka.cross_validate(data, spec, classifier, params, cv)
    pd.testing.assert_frame_equal(one, three)


def _fresh_process(code: str) -> str:
    """The output of ``code`` run by this Python in a process of its own (a process has one
    JVM for good), without the user's ``JAVA_TOOL_OPTIONS``."""
    env = {key: value for key, value in os.environ.items() if key != "JAVA_TOOL_OPTIONS"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=env,
    )
    return done.stdout


def test_jvm_takes_heap_and_processors_from_the_job(weka):
    """configure_jvm(threads, mem_mb) before the JVM starts: -Xmx, -Xms (the whole heap from
    the start) and ActiveProcessorCount.

    Run in a fresh process, since a process has one JVM for good.
    """
    code = (
        "from pdmeasure.pipeline.engines import get_engine, weka_engine\n"
        "get_engine('weka').configure(threads=1, mem_mb=4096)\n"
        "weka_engine.ensure_jvm()\n"
        "from jpype import JClass\n"
        "rt = JClass('java.lang.Runtime').getRuntime()\n"
        "print(rt.availableProcessors(), rt.maxMemory() // 2**20, rt.totalMemory() // 2**20)\n"
    )
    processors, heap, committed = map(int, _fresh_process(code).split()[-3:])
    assert processors == 1
    # -Xmx3584m (4096 - JVM_OVERHEAD_MB); the JVM reports a little less (a survivor space).
    assert 0.85 * 3584 <= heap <= 3584
    # -Xms3584m: the heap is committed whole at start (the default starts at 1/64 of the RAM,
    # which reaches 3.5 GB only on a machine of 224 GB).
    assert committed == heap


@pytest.mark.parametrize(("cells", "quick"), [(6_912, True), (64_800, False), (None, False)])
def test_jvm_compilers_follow_the_size_of_the_jobs_data(weka, cells, quick):
    """configure(cells=rows x classes) before the JVM starts: the quick compiler alone below
    QUICK_JIT_BELOW_CELLS (car's 1,728 rows x 4 classes), both compilers from nursery's size
    up, or when the size is not given. Read back from the running JVM's own arguments."""
    code = (
        "from pdmeasure.pipeline.engines import get_engine, weka_engine\n"
        f"get_engine('weka').configure(threads=1, mem_mb=1024, cells={cells})\n"
        "weka_engine.ensure_jvm()\n"
        "from jpype import JClass\n"
        "bean = JClass('java.lang.management.ManagementFactory').getRuntimeMXBean()\n"
        "print('|'.join(str(a) for a in bean.getInputArguments()))\n"
    )
    arguments = _fresh_process(code).strip().splitlines()[-1].split("|")
    assert ("-XX:TieredStopAtLevel=1" in arguments) is quick
    assert "-XX:ActiveProcessorCount=1" in arguments


def test_the_users_compiler_flags_win():
    for flags in ("-XX:TieredStopAtLevel=4", "-XX:-TieredCompilation"):
        got = weka_engine.java_tool_options(flags, "1g", None, quick_jit=True)
        assert got == f"{flags} -Xms1g"
