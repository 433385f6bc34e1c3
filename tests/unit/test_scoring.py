"""scikit-learn style scores of label vectors (pdmeasure.scoring) against the matrix form."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.metrics import confusion_matrix, make_scorer, matthews_corrcoef
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.tree import DecisionTreeClassifier

import pdmeasure
from pdmeasure import measures, scoring
from pdmeasure.paper import examples
from pdmeasure.scoring import (
    average_accuracy_score,
    cen_score,
    iba_score,
    pacc_score,
    preference_driven_score,
)

AUTHORS = examples.authors_reference()["authors_example"]


def labels_of(cm, names):
    """Label vectors whose confusion matrix (in ``names`` order) is ``cm``."""
    y_true, y_pred = [], []
    for i, row in enumerate(cm):
        for j, count in enumerate(row):
            y_true += [names[i]] * count
            y_pred += [names[j]] * count
    return np.array(y_true), np.array(y_pred)


@pytest.fixture
def random_labels():
    rng = np.random.default_rng(7)
    classes = np.array(["cat", "dog", "eel", "fox"])
    y_true = classes[rng.integers(0, 4, 300)]
    y_pred = np.where(rng.random(300) < 0.6, y_true, classes[rng.integers(0, 4, 300)])
    return y_true, y_pred, rng.random(300)


def test_authors_example_from_label_vectors():
    y_true, y_pred = labels_of(AUTHORS["matrix"], ["a", "b", "c"])
    value = preference_driven_score(y_true, y_pred, kappa=AUTHORS["kappa"])
    assert value == AUTHORS["preference_driven"] == 0.6641628736750688
    assert isinstance(value, float)


@pytest.mark.parametrize("weighted", [False, True])
def test_preference_driven_score_equals_matrix_form(random_labels, weighted):
    y_true, y_pred, weights = random_labels
    weights = weights if weighted else None
    cm = confusion_matrix(
        y_true, y_pred, labels=["cat", "dog", "eel", "fox"], sample_weight=weights
    )
    kappa = [0.2, 0.9, 0.5, 0.0]
    assert preference_driven_score(y_true, y_pred, kappa=kappa, sample_weight=weights) == float(
        measures.preference_driven(cm, kappa)
    )
    # default kappa: eq. 31, the (weighted) actual-class shares
    assert preference_driven_score(y_true, y_pred, sample_weight=weights) == float(
        measures.preference_driven(cm)
    )


def test_mapping_kappa_equals_sequence_in_label_order(random_labels):
    y_true, y_pred, _ = random_labels
    mapping = {"fox": 0.0, "dog": 0.9, "cat": 0.2, "eel": 0.5}  # key order does not matter
    by_name = preference_driven_score(y_true, y_pred, kappa=mapping)
    assert by_name == preference_driven_score(y_true, y_pred, kappa=[0.2, 0.9, 0.5, 0.0])
    # an explicit label order reorders the matrix and the sequence together
    reordered = preference_driven_score(
        y_true, y_pred, labels=["fox", "eel", "dog", "cat"], kappa=[0.0, 0.5, 0.9, 0.2]
    )
    assert reordered == pytest.approx(by_name, rel=1e-15)
    assert preference_driven_score(y_true, y_pred, kappa=mapping) != preference_driven_score(
        y_true, y_pred, kappa=[0.0, 0.9, 0.5, 0.2]
    )


def test_integer_labels_and_numpy_keys():
    y_true, y_pred = labels_of(AUTHORS["matrix"], [0, 1, 2])
    mapping = {np.int64(2): 0.9, 0: 0.3, 1: 0.1}
    assert preference_driven_score(y_true, y_pred, kappa=mapping) == AUTHORS["preference_driven"]


@pytest.mark.parametrize(
    ("kappa", "match"),
    [
        ({"cat": 0.2, "dog": 0.9, "eel": 0.5, "fox": 0.1, "gnu": 0.3}, r"unknown label\(s\) 'gnu'"),
        ({"cat": 0.2, "dog": 0.9, "eel": 0.5}, r"no weight for label\(s\) 'fox'"),
        ([0.2, 0.9, 0.5], r"kappa has 3 value\(s\) but there are 4 classes"),
        ([0.2, 0.9, 0.5, 1.5], r"\[0, 1\]"),
    ],
)
def test_bad_kappa_is_a_value_error_naming_it(random_labels, kappa, match):
    y_true, y_pred, _ = random_labels
    with pytest.raises(ValueError, match=match):
        preference_driven_score(y_true, y_pred, kappa=kappa)


def test_explicit_labels_keep_an_absent_class():
    y_true, y_pred = ["a", "a", "b", "b"], ["a", "b", "b", "b"]
    # c has neither samples nor predictions: 0/0 precision and recall
    assert preference_driven_score(
        y_true, y_pred, labels=["a", "b", "c"], kappa=[0, 0, 0], zero_division=0.0
    ) == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert np.isnan(
        preference_driven_score(
            y_true, y_pred, labels=["a", "b", "c"], kappa=[0, 0, 0], zero_division="nan"
        )
    )
    assert preference_driven_score(y_true, y_pred, kappa=[0, 0]) == pytest.approx(0.75)


def test_default_follows_scikit_learn_warn_and_score_zero():
    from sklearn.exceptions import UndefinedMetricWarning

    y_true, y_pred = ["a", "a", "b", "b"], ["a", "b", "b", "b"]
    with pytest.warns(UndefinedMetricWarning, match="zero_division=0.0"):
        value = preference_driven_score(y_true, y_pred, labels=["a", "b", "c"], kappa=[0, 0, 0])
    assert value == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    with pytest.warns(UndefinedMetricWarning):
        assert pacc_score(y_true, y_pred, labels=["a", "b", "c"]) == pacc_score(
            y_true, y_pred, labels=["a", "b", "c"], zero_division=0.0
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a defined score does not warn
        assert preference_driven_score(y_true, y_pred) == pytest.approx(
            preference_driven_score(y_true, y_pred, zero_division="nan")
        )


def test_model_selection_never_sees_nan():
    """A shallow tree that never predicts a class: GridSearchCV gets finite scores only."""
    from sklearn.datasets import load_iris
    from sklearn.exceptions import UndefinedMetricWarning
    from sklearn.metrics import make_scorer
    from sklearn.model_selection import GridSearchCV
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 3]},
        scoring=make_scorer(preference_driven_score, labels=[0, 1, 2]),
        cv=3,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y)
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
    assert not [w for w in caught if "non-finite" in str(w.message)]
    assert any(issubclass(w.category, UndefinedMetricWarning) for w in caught)


@pytest.mark.parametrize(
    ("score", "name"),
    [
        (pacc_score, "pacc"),
        (cen_score, "cen"),
        (iba_score, "iba"),
        (average_accuracy_score, "average_accuracy"),
    ],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_label_scores_equal_the_registry_measure(random_labels, score, name, weighted):
    y_true, y_pred, weights = random_labels
    weights = weights if weighted else None
    cm = confusion_matrix(y_true, y_pred, sample_weight=weights)
    expected = float(measures.REGISTRY[name](cm))
    assert score(y_true, y_pred, sample_weight=weights) == expected
    assert score.__name__ == f"{name}_score"
    assert pickle.loads(pickle.dumps(score)) is score  # usable with n_jobs > 1


@pytest.mark.parametrize("score", [pacc_score, cen_score, iba_score, average_accuracy_score])
def test_label_scores_pass_labels_and_zero_division(score):
    y_true, y_pred = ["a", "a", "b"], ["a", "a", "a"]  # b never predicted
    cm = confusion_matrix(y_true, y_pred, labels=["b", "a", "z"])
    for zd in ("nan", 0.0, 1.0):
        expected = float(measures.REGISTRY[score.__name__[:-6]](cm, zero_division=zd))
        got = score(y_true, y_pred, labels=["b", "a", "z"], zero_division=zd)
        assert got == expected or (np.isnan(got) and np.isnan(expected))


@pytest.mark.parametrize("score", [pacc_score, cen_score, iba_score, average_accuracy_score])
def test_label_score_docstrings_are_complete(score):
    doc = score.__doc__
    for section in (
        ".. math::",
        "Parameters\n    ----------",
        "sample_weight",
        "Returns\n    -------",
        "Raises\n    ------",
        "References\n    ----------",
    ):
        assert section.lower() in doc.lower(), (score.__name__, section)


def test_rk_is_sklearns_matthews_corrcoef(random_labels):
    """R_k (paper 001) = Gorodkin's MCC = registry mcc = sklearn's matthews_corrcoef, so the
    scorers add no r_k_score (sklearn returns 0 for 0/0, pdmeasure's zero_division=0.0)."""
    y_true, y_pred, weights = random_labels
    cm = confusion_matrix(y_true, y_pred, sample_weight=weights)
    assert float(measures.mcc(cm)) == pytest.approx(
        matthews_corrcoef(y_true, y_pred, sample_weight=weights), abs=1e-14
    )
    constant = ["a", "b", "a"], ["a", "a", "a"]
    cm = confusion_matrix(*constant)
    assert float(measures.mcc(cm, zero_division=0.0)) == matthews_corrcoef(*constant) == 0.0
    assert not hasattr(scoring, "r_k_score")


def test_import_pdmeasure_stays_cheap_and_exports_scorers():
    code = (
        "import sys, pdmeasure; heavy = [m for m in ('numpy', 'sklearn', 'pandas') "
        "if m in sys.modules]; assert not heavy, heavy; "
        "assert pdmeasure.preference_driven_score.__module__ == 'pdmeasure.scoring'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    for name in (
        "preference_driven_score",
        "pacc_score",
        "cen_score",
        "iba_score",
        "average_accuracy_score",
    ):
        assert getattr(pdmeasure, name) is getattr(scoring, name)
        assert name in dir(pdmeasure)
    with pytest.raises(AttributeError):
        pdmeasure.no_such_score  # noqa: B018


IRIS_KAPPA = {0: 0.3, 1: 0.1, 2: 0.9}


def manual_cv(estimator, X, y, cv, score, **kwargs):
    """Per-fold scores computed by hand: fit, predict, score."""
    values = []
    for train, test in cv.split(X, y):
        model = clone(estimator).fit(X[train], y[train])
        values.append(score(y[test], model.predict(X[test]), **kwargs))
    return np.array(values)


def test_grid_search_selects_a_model_with_the_pd_scorer():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    scorer = make_scorer(preference_driven_score, kappa=IRIS_KAPPA, zero_division=0.0)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 5]}, scoring=scorer, cv=cv
    ).fit(X, y)
    means = search.cv_results_["mean_test_score"]
    assert np.all(np.isfinite(means)) and len(set(means)) > 1  # the depths score differently
    assert search.best_params_["max_depth"] != 1  # a stump never predicts the third class
    best = DecisionTreeClassifier(random_state=0, **search.best_params_)
    manual = manual_cv(best, X, y, cv, preference_driven_score, kappa=IRIS_KAPPA, zero_division=0.0)
    assert search.best_score_ == pytest.approx(manual.mean(), rel=1e-12)
    assert search.best_score_ == pytest.approx(means.max(), rel=1e-12)
    # the kappa matters: macro recall (kappa = 0) gives other fold scores than this kappa
    recall = manual_cv(best, X, y, cv, preference_driven_score, kappa=[0, 0, 0])
    assert not np.allclose(recall, manual)


def test_cross_val_score_with_label_scores():
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(n_splits=4, shuffle=True, random_state=1)
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    got = cross_val_score(tree, X, y, cv=cv, scoring=make_scorer(pacc_score))
    np.testing.assert_allclose(got, manual_cv(tree, X, y, cv, pacc_score), rtol=1e-12)
    # CEN is lower-is-better: make_scorer negates it
    got = cross_val_score(
        tree, X, y, cv=cv, scoring=make_scorer(cen_score, greater_is_better=False)
    )
    np.testing.assert_allclose(got, -manual_cv(tree, X, y, cv, cen_score), rtol=1e-12)
    got = cross_val_score(
        tree, X, y, cv=cv, scoring=make_scorer(preference_driven_score, kappa=[1, 1, 1])
    )
    np.testing.assert_allclose(
        got, manual_cv(tree, X, y, cv, preference_driven_score, kappa=[1, 1, 1]), rtol=1e-12
    )
