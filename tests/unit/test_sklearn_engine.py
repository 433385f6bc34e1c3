"""The scikit-learn engine: coverage of the folds, determinism, encodings, small classes."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import pdmeasure.pipeline.data.fetch as pddata
from helpers import fresh_python, repo_config, sklearn_entry
from pdmeasure.pipeline.data.mirror import load_manifest
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, get_engine
from pdmeasure.pipeline.engines.base import PREDICTION_COLUMNS
from pdmeasure.pipeline.engines.sklearn_engine import make_estimator

#: Small ensembles keep the tests fast; the code path is the same as with the config's sizes.
FAST = {
    "Bagging": sklearn_entry("Bagging", n_estimators=3),
    "NaiveBayes": sklearn_entry("NaiveBayes", alpha=1.0),
    "DecisionTree": sklearn_entry("DecisionTree", criterion="entropy", min_samples_leaf=2),
    "RandomForest": sklearn_entry("RandomForest", n_estimators=5),
}


@pytest.fixture(scope="module")
def tables(uci_mirror):
    """Canonical tables and specs of the mirror datasets (read once)."""
    manifest = load_manifest(uci_mirror)
    out = {}
    for name in ("car", "dermatology", "nursery"):
        entry = manifest["datasets"][name]
        frame, _ = pddata.read_mirror(name, entry["uci_id"], uci_mirror)
        spec = DatasetSpec(
            name=name,
            target=entry["target"],
            classes=tuple(entry["class_order_first_appearance"]),
            numeric_features=("age",) if name == "dermatology" else (),
            missing=entry["missing"],
        )
        out[name] = (frame, spec)
    return out


@pytest.fixture(scope="module")
def engine():
    engine = get_engine("sklearn")
    engine.check_available()
    return engine


def test_every_configured_classifier_is_registered_and_builds_a_classifier(engine):
    from sklearn.base import is_classifier

    configured = repo_config()["classifiers"]["sklearn"]
    for name, entry in configured.items():
        engine.check_classifier(name, entry)
        estimator = make_estimator(entry, n_categories=[3, 2], n_numeric=0)
        assert is_classifier(estimator), name


@pytest.mark.parametrize("classifier", list(FAST))
def test_every_sample_predicted_once_per_repeat(engine, tables, classifier):
    frame, spec = tables["car"]
    cv = CVSpec(folds=3, seed=5, repeats=2)
    pred = engine.cross_validate(frame, spec, classifier, FAST[classifier], cv)
    assert tuple(pred.columns) == PREDICTION_COLUMNS
    assert len(pred) == 2 * len(frame)
    for _, group in pred.groupby("repeat"):
        assert sorted(group["row"]) == list(range(len(frame)))
        assert set(group["fold"]) == {1, 2, 3}
    # actual labels are the data's, in place
    first = pred[pred["repeat"] == 1].sort_values("row")
    assert first["actual"].tolist() == frame["class"].tolist()
    assert set(pred["predicted"]) <= set(spec.classes)
    # the two repeats shuffle differently
    folds = pred.pivot(index="row", columns="repeat", values="fold")
    assert not (folds[1] == folds[2]).all()


@pytest.mark.parametrize("classifier", ["Bagging", "RandomForest"])
def test_deterministic(engine, tables, classifier):
    frame, spec = tables["car"]
    cv = CVSpec(folds=3, seed=1)
    first = engine.cross_validate(frame, spec, classifier, FAST[classifier], cv)
    second = engine.cross_validate(frame, spec, classifier, FAST[classifier], cv)
    pd.testing.assert_frame_equal(first, second)
    other = engine.cross_validate(frame, spec, classifier, FAST[classifier], CVSpec(3, seed=2))
    assert not first["row"].equals(other["row"])  # rows are listed fold by fold


@pytest.mark.parametrize("classifier", list(FAST))
def test_numeric_feature_with_missing_values(engine, tables, classifier):
    """dermatology: 'age' numeric with '?'; better than always predicting the majority class."""
    frame, spec = tables["dermatology"]
    pred = engine.cross_validate(frame, spec, classifier, FAST[classifier], CVSpec(folds=3))
    accuracy = (pred["actual"] == pred["predicted"]).mean()
    majority = frame["class"].value_counts(normalize=True).max()
    assert accuracy > majority


def test_small_class_warns_and_is_kept(engine, tables):
    frame, spec = tables["nursery"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pred = engine.cross_validate(
            frame, spec, "DecisionTree", FAST["DecisionTree"], CVSpec(folds=10)
        )
    messages = [str(w.message) for w in caught]
    assert any("'recommend' has only 2 samples" in m for m in messages)
    assert not any("least populated class" in m for m in messages)  # replaced by ours
    assert (pred["actual"] == "recommend").sum() == 2
    assert sorted(pred["row"]) == list(range(len(frame)))


def test_label_outside_classes(engine, tables):
    frame, spec = tables["car"]
    narrow = DatasetSpec(name="car", target="class", classes=("unacc", "acc", "vgood"))
    with pytest.raises(ValueError, match=r"\['good'\].*`datasets.car.classes`"):
        engine.cross_validate(frame, narrow, "NaiveBayes", FAST["NaiveBayes"], CVSpec(folds=3))


def test_non_numeric_value_in_numeric_feature(engine, tables):
    frame, spec = tables["car"]
    wrong = DatasetSpec(
        name="car", target="class", classes=spec.classes, numeric_features=("doors",)
    )
    with pytest.raises(ValueError, match=r"numeric feature 'doors' has the value '5more'"):
        engine.cross_validate(frame, wrong, "DecisionTree", FAST["DecisionTree"], CVSpec(folds=3))


@pytest.mark.parametrize(
    ("classifier", "params", "message"),
    [
        ("SVM", {"params": {}}, "`class` must be an import path"),
        ("SVM", {"class": "sklearn.svm.SVM"}, "module 'sklearn.svm' has no attribute 'SVM'"),
        ("SVM", {"class": "SVC"}, "is not an import path"),
        ("SVM", {"class": "sklearn.svm.SVC", "encoding": "binary"}, "`encoding` must be one of"),
        ("SVM", {"class": "sklearn.svm.SVC", "C": 1}, r"unknown key\(s\) \['C'\]"),
        (
            "RandomForest",
            sklearn_entry("RandomForest", n_estimator=3),
            r"no parameters \['n_estimator'\]",
        ),
        ("Bagging", sklearn_entry("Bagging", n_jobs=4), r"\['n_jobs'\] are set by the engine"),
    ],
)
def test_bad_classifier(engine, classifier, params, message):
    with pytest.raises(ValueError, match=message):
        engine.check_classifier(classifier, params)


def test_engine_sets_seed_and_single_core():
    model = make_estimator(sklearn_entry("RandomForest", n_estimators=3), random_state=7)
    assert model.get_params()["n_jobs"] == 1 and model.get_params()["random_state"] == 7
    nb = make_estimator(sklearn_entry("NaiveBayes"), n_categories=[3, 2], n_numeric=1)
    assert nb.steps[-1][1].min_categories == [3, 2, 5]


@pytest.mark.parametrize("classifier", ["Bagging", "RandomForest"])
def test_threads_build_the_same_models(engine, tables, classifier):
    """A job with more cores (`resources.cv_threads`) gets n_jobs = threads and the same
    predictions: the ensembles draw every member's seed before they spread the work."""
    frame, spec = tables["car"]
    cv = CVSpec(folds=3, seed=1)
    entry = sklearn_entry(classifier, n_estimators=8)
    try:
        one = engine.cross_validate(frame, spec, classifier, entry, cv)
        engine.configure(threads=2)
        assert make_estimator(entry).get_params()["n_jobs"] == 2
        two = engine.cross_validate(frame, spec, classifier, entry, cv)
    finally:
        engine.configure(threads=1)
    pd.testing.assert_frame_equal(one, two)


def test_unseen_category_in_training_fold(engine):
    """A value present only in the test fold still has a code (encoder fitted on the domain)."""
    rng = np.random.default_rng(0)
    n = 60
    frame = pd.DataFrame(
        {
            "colour": rng.choice(["red", "green"], n).astype(object),
            "label": np.array(["a", "b"] * (n // 2), dtype=object),
        }
    )
    frame.loc[0, "colour"] = "blue"  # one sample -> in a single test fold only
    spec = DatasetSpec(name="toy", target="label", classes=("a", "b"))
    for classifier in FAST:
        pred = engine.cross_validate(frame, spec, classifier, FAST[classifier], CVSpec(folds=3))
        assert len(pred) == n


def test_availability_imports_nothing():
    # The config check runs it at the start of every `snakemake` command; importing
    # scikit-learn there took about 2 s.
    code = (
        "import sys\n"
        "from pdmeasure.pipeline.engines import get_engine\n"
        "get_engine('sklearn').check_available()\n"
        "print('sklearn' in sys.modules)\n"
    )
    assert fresh_python(code).splitlines()[-1] == "False"
