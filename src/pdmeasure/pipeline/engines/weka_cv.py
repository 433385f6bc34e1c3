"""Weka's own cross-validation, with the fold and the row of every prediction.

Cross-validation is Weka's own ``Evaluation.crossValidateModel(classifier, data, folds,
new Random(seed))`` (= the command line's ``-x 10 -s 1``), so the classifiers see exactly what
they see in Weka. Weka does not report which instance each prediction belongs to; the engine
recovers it by replaying the two steps of that method that decide the fold order, with Weka's
own code: ``randomize(new Random(seed))`` (the first use of the random generator) then
``stratify(folds)``. Both move instances by the random draws and the class values alone, so
the engine replays them on a copy that holds each row's number and class
(:func:`row_tagged`), and reads every position's row back in one call; fold ``i`` is the
block of positions ``testCV(folds, i)`` takes. :func:`cross_validate_instances` checks the recovered
rows against Weka's predictions (the actual class of every prediction) and against Weka's
confusion matrix, and raises if anything disagrees.

Rows without a class (Weka's missing class value) stay in the data, as in Weka: they take
their places in the randomized order, ``stratify`` keeps them together as a group of their
own, they count in every fold's size and are shuffled with each training set, each classifier
drops them as it builds (``deleteWithMissingClass``), and ``Evaluation`` counts them as
"Ignored Class Unknown Instances" instead of in its matrix. Their
predictions (actual class NaN) are left out of the result.

The functions that take Weka objects need a running JVM
(:func:`pdmeasure.pipeline.engines.weka_jvm.ensure_jvm`). Weka objects (Instances,
classifiers, Evaluation) are JPype proxies of Java objects: typed as Any.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pdmeasure.pipeline.engines.weka_encoding import AttributeSpec, instances_from_array


@dataclass(frozen=True)
class CVResult:
    """Per-instance outcome of one Weka cross-validation (see :func:`cross_validate_instances`).

    Attributes
    ----------
    fold : ndarray of int, shape (n,)
        1-based fold of each prediction, in Weka's evaluation order.
    row : ndarray of int, shape (n,)
        0-based position in the input data of each prediction.
    actual, predicted : ndarray of int, shape (n,)
        Class indices (declared order = configured class order).
    confusion : ndarray of int, shape (C, C)
        Weka's own pooled matrix ``Evaluation.confusionMatrix()``; equal to the matrix of
        ``actual``/``predicted`` (checked).
    ignored : int
        The evaluated rows without a class, which have no prediction here: Weka's
        its "Ignored Class Unknown Instances" (checked: Weka scored the others).
    """

    fold: np.ndarray
    row: np.ndarray
    actual: np.ndarray
    predicted: np.ndarray
    confusion: np.ndarray
    ignored: int = 0


def fold_sizes(n: int, folds: int) -> np.ndarray:
    """Sizes of Weka's ``Instances.testCV(folds, i)`` blocks: the first ``n % folds`` get one more."""
    sizes = np.full(folds, n // folds)
    sizes[: n % folds] += 1
    return sizes


def row_tagged(instances: Any) -> Any:
    """Each row's number and class, as ``weka.core.Instances`` (row, class) in file order.

    ``randomize`` and ``stratify`` move instances by the random draws, the number of instances
    and their class values alone, so they lay out this pair exactly as they lay out
    ``instances``. Built once per dataset, it lets :func:`replay_fold_order` read the layout
    in one call instead of mapping every instance back to its row from Python.

    Returns
    -------
    weka.core.Instances
        Attribute 0 numeric (the 0-based row), attribute 1 the class (``numClasses()``
        values, missing where the class is missing), set as the class.
    """
    classes = np.asarray(instances.attributeToDoubleArray(int(instances.classIndex())))
    attributes = [
        AttributeSpec("row", None),
        AttributeSpec("class", tuple(str(v) for v in range(int(instances.numClasses())))),
    ]
    rows = np.column_stack([np.arange(classes.size, dtype=np.float64), classes])
    return instances_from_array("rows", attributes, rows)


def replay_fold_order(instances: Any, folds: int, seed: int, *, tagged: Any = None) -> np.ndarray:
    """File rows in the order ``Evaluation.crossValidateModel`` lays them out before the folds.

    Replays ``randomize(new Random(seed))`` and ``stratify(folds)`` with Weka's own code on a
    copy of the rows' numbers and classes (:func:`row_tagged`), and reads the rows back.

    Parameters
    ----------
    instances : weka.core.Instances
    folds, seed : int
    tagged : weka.core.Instances, optional
        ``row_tagged(instances)``, when the caller replays several layouts of one dataset.

    Returns
    -------
    ndarray of int, shape (n,)
        ``order[k]`` is the 0-based row of ``instances`` at position ``k``.
    """
    from jpype import JClass

    copy = JClass("weka.core.Instances")(row_tagged(instances) if tagged is None else tagged)
    copy.randomize(JClass("java.util.Random")(seed))
    if instances.classAttribute().isNominal():
        copy.stratify(folds)
    return np.asarray(copy.attributeToDoubleArray(0)).astype(np.int64)


def evaluate_one_fold(instances: Any, classifier: Any, folds: int, seed: int, fold: int) -> Any:
    """The ``Evaluation`` of fold ``fold`` (1-based) alone, exactly as inside
    ``crossValidateModel(classifier, instances, folds, new Random(seed))``.

    ``crossValidateModel`` copies the data, calls ``randomize(random)`` and ``stratify``,
    then for each fold i draws ``trainCV(folds, i, random)`` -- which shuffles the training
    set with the same ``random`` -- builds a copy of the classifier on it and evaluates it on
    ``testCV(folds, i)``. Here the same draws are replayed: ``randomize``, ``stratify`` and the
    ``trainCV`` of every earlier fold (a copy of the data, no model), so fold ``fold`` gets the
    training set, in the same order, that it gets inside the whole cross-validation.

    Returns
    -------
    weka.classifiers.Evaluation
        With the fold's predictions, in the order of ``testCV(folds, fold - 1)``.
    """
    from jpype import JClass

    random = JClass("java.util.Random")(seed)
    data = JClass("weka.core.Instances")(instances)
    data.randomize(random)
    if data.classAttribute().isNominal():
        data.stratify(folds)
    for earlier in range(fold - 1):
        data.trainCV(folds, earlier, random)
    train = data.trainCV(folds, fold - 1, random)
    evaluation = JClass("weka.classifiers.Evaluation")(data)
    evaluation.setPriors(train)
    model = JClass("weka.classifiers.AbstractClassifier").makeCopy(classifier)
    model.buildClassifier(train)
    evaluation.evaluateModel(model, data.testCV(folds, fold - 1))
    return evaluation


def cross_validate_instances(
    instances: Any,
    classifier: Any,
    folds: int,
    seed: int,
    *,
    only_fold: int | None = None,
    tagged: Any = None,
) -> CVResult:
    """Weka's ``Evaluation.crossValidateModel(classifier, instances, folds, new Random(seed))``
    with each prediction's fold and row.

    Parameters
    ----------
    instances : weka.core.Instances
        Class attribute set and nominal.
    classifier : weka.classifiers.Classifier
        Copied by Weka for every fold; not modified.
    folds, seed : int
    only_fold : int, optional
        Evaluate this fold (1-based) alone (:func:`evaluate_one_fold`); the result holds
        its predictions only, identical to that fold's part of the whole run.
    tagged : weka.core.Instances, optional
        ``row_tagged(instances)``, built once for many cross-validations of one dataset.

    Returns
    -------
    CVResult
        The predictions of the instances with a class, in Weka's evaluation order, with
        Weka's confusion matrix and its count of instances without one.

    Raises
    ------
    ValueError
        ``folds`` is not between 2 and the number of instances, or ``only_fold`` not a fold.
    RuntimeError
        If Weka left an instance with a class unclassified (no predicted label) or the
        recovered rows disagree with Weka's predictions, confusion matrix or count of
        instances without a class.
    """
    from jpype import JClass

    n = int(instances.numInstances())
    if folds < 2 or folds > n:
        raise ValueError(f"folds must be between 2 and the number of instances ({n}), got {folds}")
    order = replay_fold_order(instances, folds, seed, tagged=tagged)
    fold = np.repeat(np.arange(1, folds + 1), fold_sizes(n, folds))
    if only_fold is None:
        evaluation = JClass("weka.classifiers.Evaluation")(instances)
        evaluation.crossValidateModel(
            classifier, instances, folds, JClass("java.util.Random")(seed)
        )
    else:
        if not 1 <= only_fold <= folds:
            raise ValueError(f"fold must be between 1 and {folds}, got {only_fold}")
        evaluation = evaluate_one_fold(instances, classifier, folds, seed, only_fold)
        order, fold = order[fold == only_fold], fold[fold == only_fold]
    actual, predicted = _predicted_classes(evaluation, len(order))
    known = _checked_rows(instances, evaluation, order, actual)
    actual, predicted = actual[known].astype(np.int64), predicted[known].astype(np.int64)
    confusion = _checked_confusion(instances, evaluation, actual, predicted)
    return CVResult(
        fold=fold[known],
        row=order[known],
        actual=actual,
        predicted=predicted,
        confusion=confusion,
        ignored=int(np.count_nonzero(~known)),
    )


def _predicted_classes(evaluation: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(actual, predicted)`` class indices of the ``n`` predictions of ``evaluation``, as
    floats: the actual class of an instance without one is NaN.

    Raises
    ------
    RuntimeError
        Weka returned another number of predictions, or left an instance with a class
        unclassified.
    """
    predictions = evaluation.predictions()
    if predictions.size() != n:
        raise RuntimeError(f"Weka returned {predictions.size()} predictions for {n} instances")
    actual = np.empty(n)
    predicted = np.empty(n)
    for k, prediction in enumerate(predictions):
        actual[k] = prediction.actual()
        predicted[k] = prediction.predicted()
    # An instance without a class is scored by nobody: its prediction may be anything.
    unclassified = np.isnan(predicted) & ~np.isnan(actual)
    if unclassified.any():
        raise RuntimeError(
            f"Weka left {int(unclassified.sum())} instance(s) unclassified "
            "(all-zero class distribution); the predictions table needs a label for every row"
        )
    return actual, predicted


def _checked_rows(
    instances: Any, evaluation: Any, order: np.ndarray, actual: np.ndarray
) -> np.ndarray:
    """Which predictions have a class, once the recovered rows are checked against Weka's.

    The class of each row ``order[k]`` must be the actual class of prediction ``k`` (missing
    for both, or the same index), and Weka's count of the instances it scored (those with a
    class) must be the number of predictions with one.

    Returns
    -------
    ndarray of bool, shape (len(order),)
        True where prediction ``k`` has a class.
    """
    classes = np.asarray(instances.attributeToDoubleArray(int(instances.classIndex())))
    expected = classes[order]
    known = ~np.isnan(actual)
    if not (
        np.array_equal(np.isnan(expected), ~known)
        and np.array_equal(expected[known], actual[known])
    ):
        raise RuntimeError(
            "recovered rows disagree with Weka's predictions: the fold replay does not match "
            "this Weka version's Evaluation.crossValidateModel"
        )
    # Weka counts each evaluated instance (weight 1) either with a class (numInstances(), its
    # "Total Number of Instances") or as ignored, without one ("Ignored Class Unknown
    # Instances"; the wrapper weka.classifiers.Evaluation does not expose that count).
    with_class = float(evaluation.numInstances())
    if with_class != float(np.count_nonzero(known)):
        raise RuntimeError(
            f"Weka scored {with_class:g} instance(s) with a class, but {np.count_nonzero(known)} "
            f"of its {known.size} predictions have one"
        )
    return known


def _checked_confusion(
    instances: Any, evaluation: Any, actual: np.ndarray, predicted: np.ndarray
) -> np.ndarray:
    """Weka's confusion matrix, once the matrix of ``actual``/``predicted`` (the predictions
    with a class) is checked to be Weka's own."""
    n_classes = int(instances.numClasses())
    confusion = np.rint(np.array([list(r) for r in evaluation.confusionMatrix()])).astype(np.int64)
    mine = np.bincount(actual * n_classes + predicted, minlength=n_classes**2).reshape(
        n_classes, n_classes
    )
    if not np.array_equal(mine, confusion):
        raise RuntimeError("per-instance predictions disagree with Weka's confusion matrix")
    return confusion
