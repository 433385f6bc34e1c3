"""Predictions <-> confusion matrices, always in the configured class order.

The long format (one row per cell) is the on-disk format of every confusion matrix:

``engine, dataset, classifier, repeat, fold, actual, predicted, count``

``fold`` is a fold number as a string, or ``"all"`` for the matrix pooled over the folds of
one repeat. Rows are actual classes, columns predicted classes. The kappa vector of the
preference-driven measure is positional, so the class order is carried as data (the
configured ``classes`` list) and never re-derived by sorting labels.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure.measures.labels import confusion_matrix

LONG_COLUMNS = ("engine", "dataset", "classifier", "repeat", "fold", "actual", "predicted", "count")
POOLED = "all"


def to_long(cm: np.ndarray, classes: Sequence[str], **keys: object) -> pd.DataFrame:
    """One matrix as long-format rows; ``keys`` fill the key columns (engine, dataset, ...)."""
    cm = np.asarray(cm)
    n = len(classes)
    if cm.shape != (n, n):
        raise ValueError(f"matrix shape {cm.shape} does not match {n} classes")
    actual = np.repeat(np.asarray(classes, dtype=object), n)
    predicted = np.tile(np.asarray(classes, dtype=object), n)
    frame = pd.DataFrame({"actual": actual, "predicted": predicted, "count": cm.ravel()})
    for name, value in keys.items():
        frame.insert(len(frame.columns) - 3, name, value)
    return frame


def cv_tables(
    predictions: pd.DataFrame, classes: Sequence[str], **keys: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two files of a cross-validation: predictions with their keys, and the matrices.

    Parameters
    ----------
    predictions : DataFrame
        An engine's predictions (:data:`pdmeasure.pipeline.engines.base.PREDICTION_COLUMNS`),
        every fold of every repeat in order.
    classes : sequence of str
        The dataset's class order.
    **keys : str
        ``engine``, ``dataset`` and ``classifier``, written as the first columns of both.

    Returns
    -------
    predictions, confusion : DataFrame
        ``predictions.csv`` and ``confusion.csv`` of the job (:func:`predictions_to_long`).
    """
    return with_keys(predictions, **keys), predictions_to_long(predictions, classes, **keys)


def with_keys(predictions: pd.DataFrame, **keys: str) -> pd.DataFrame:
    """A copy of ``predictions`` with ``keys`` (engine, dataset, classifier) as first columns."""
    out = predictions.copy()
    for position, (key, value) in enumerate(keys.items()):
        out.insert(position, key, value)
    return out


def predictions_to_long(pred: pd.DataFrame, classes: Sequence[str], **keys: str) -> pd.DataFrame:
    """Per-fold and pooled (``fold == "all"``) matrices of every repeat, in long format.

    ``pred`` has the columns ``repeat, fold, actual, predicted`` (see
    :data:`pdmeasure.pipeline.engines.base.PREDICTION_COLUMNS`).
    """
    parts = []
    for repeat, by_repeat in pred.groupby("repeat", sort=True):
        for fold, by_fold in by_repeat.groupby("fold", sort=True):
            cm = confusion_matrix(by_fold["actual"], by_fold["predicted"], classes)
            parts.append(to_long(cm, classes, **keys, repeat=int(repeat), fold=str(fold)))
        cm = confusion_matrix(by_repeat["actual"], by_repeat["predicted"], classes)
        parts.append(to_long(cm, classes, **keys, repeat=int(repeat), fold=POOLED))
    return pd.concat(parts, ignore_index=True)[list(LONG_COLUMNS)]


def from_long(frame: pd.DataFrame, classes: Sequence[str]) -> np.ndarray:
    """The matrix held by the long-format rows of ONE (engine, dataset, classifier, repeat, fold).

    Cells are placed by label, so the row order of ``frame`` does not matter.
    """
    return grouped_from_long(frame, np.zeros(len(frame), dtype=np.intp), 1, classes)[0]


def grouped_from_long(
    frame: pd.DataFrame, group: np.ndarray, n_groups: int, classes: Sequence[str]
) -> np.ndarray:
    """The matrices of ``n_groups`` groups of long-format rows, in one pass.

    Parameters
    ----------
    frame : DataFrame
        Long-format rows (``actual``, ``predicted``, ``count``).
    group : ndarray of int, shape (len(frame),)
        Each row's matrix, ``0 <= group < n_groups`` (e.g. ``groupby(...).ngroup()``).
    n_groups : int
    classes : sequence of str
        Row and column order of the matrices.

    Returns
    -------
    ndarray of int64, shape (n_groups, C, C)
        What :func:`from_long` gives on each group's rows, the labels coded once for the
        whole frame (:func:`label_codes`) rather than group by group.

    Raises
    ------
    ValueError
        If a label is not one of ``classes``.
    """
    rows, cols = label_codes(frame["actual"], classes), label_codes(frame["predicted"], classes)
    if (rows < 0).any() or (cols < 0).any():
        unknown = sorted(set(frame["actual"]).union(frame["predicted"]) - set(classes))
        raise ValueError(f"labels {unknown} are not among the classes {list(classes)}")
    return count_matrices(rows, cols, group, n_groups, len(classes), frame["count"])


def label_codes(labels: pd.Series, classes: Sequence[str]) -> np.ndarray:
    """Each label's position in ``classes``, -1 for a label that is not one of them (a hash
    lookup in pandas for the whole column)."""
    return pd.Index(list(classes)).get_indexer(labels).astype(np.intp)


def count_matrices(
    rows: np.ndarray,
    cols: np.ndarray,
    group: np.ndarray,
    n_groups: int,
    n_classes: int,
    counts: pd.Series | np.ndarray | None = None,
) -> np.ndarray:
    """``(n_groups, C, C)`` int64 matrices: cell ``(group, row, col)`` of each entry
    incremented by its count (1 without ``counts``), the codes from :func:`label_codes`."""
    flat = (np.asarray(group, dtype=np.intp) * n_classes + rows) * n_classes + cols
    size = n_groups * n_classes * n_classes
    if counts is None:
        cells = np.bincount(flat, minlength=size).astype(np.int64, copy=False)
    else:
        cells = np.zeros(size, dtype=np.int64)
        np.add.at(cells, flat, np.asarray(counts, dtype=np.int64))
    return cells.reshape(n_groups, n_classes, n_classes)


def pooled_matrices(
    frame: pd.DataFrame, classes_by_dataset: dict[str, Sequence[str]]
) -> dict[tuple[str, str, str], np.ndarray]:
    """Pooled matrix per (engine, dataset, classifier), summed over repeats.

    Parameters
    ----------
    frame : DataFrame
        Long format, e.g. ``results/confusion_matrices.csv``.
    classes_by_dataset : dict
        Dataset name -> configured class order.
    """
    pooled = frame[frame["fold"].astype(str) == POOLED]
    out = {}
    for (engine, dataset, classifier), group in pooled.groupby(
        ["engine", "dataset", "classifier"], sort=False
    ):
        out[(engine, dataset, classifier)] = from_long(group, classes_by_dataset[dataset])
    return out


def read_long(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a long-format CSV with labels kept as strings (``"?"``, ``"1"``, ``"None"`` stay text).

    ``path`` may also be a list of such files (per-job outputs), read in order and stacked.
    """
    if isinstance(path, (list, tuple)):
        return pd.concat([read_long(p) for p in path], ignore_index=True)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame["count"] = frame["count"].astype(np.int64)
    frame["repeat"] = frame["repeat"].astype(np.int64)
    return frame


def _checked_matrix(key, cm, classes: Mapping[str, Sequence[str]]) -> tuple[list[str], np.ndarray]:
    """The class names of ``key``'s dataset and its matrix, checked (see
    :func:`undefined_precision`'s Raises)."""
    if not (isinstance(key, tuple) and len(key) == 3):
        raise ValueError(f"key {key!r} is not an (engine, dataset, classifier) triple")
    engine, dataset, classifier = key
    if dataset not in classes:
        raise ValueError(f"{engine}/{dataset}/{classifier}: no class list for dataset {dataset!r}")
    names = list(classes[dataset])
    cm = np.asarray(cm)
    if cm.shape != (len(names), len(names)):
        raise ValueError(
            f"{engine}/{dataset}/{classifier}: matrix shape {cm.shape} does "
            f"not match the {len(names)} classes {names}"
        )
    return names, cm


def _undefined_cases(cm: np.ndarray, names: list[str], *, recall: bool) -> list[tuple]:
    """``(class, measure, reason)`` of each 0/0 precision (and recall) of one matrix."""
    predicted = cm.sum(axis=0)  # TP + FP per class
    actual = cm.sum(axis=1)  # TP + FN per class
    total = int(cm.sum())
    cases = []
    for i, name in enumerate(names):
        if predicted[i] == 0:
            reason = f"never predicted (0 of {total} predictions; {int(actual[i])} actual)"
            cases.append((name, "precision", f"{reason}: TP + FP = 0, precision is 0/0"))
        if recall and actual[i] == 0:
            reason = f"never an actual class (0 of {total} samples; {int(predicted[i])} predicted)"
            cases.append((name, "recall", f"{reason}: TP + FN = 0, recall is 0/0"))
    return cases


#: Columns of :func:`undefined_precision`, in order.
UNDEFINED_COLUMNS = ("engine", "dataset", "classifier", "class", "measure", "reason")


def undefined_precision(
    pooled: Mapping[tuple[str, str, str], np.ndarray],
    classes: Mapping[str, Sequence[str]],
    *,
    recall: bool = True,
) -> pd.DataFrame:
    """Classes whose precision (and recall) is 0/0 in a pooled matrix, one row per case.

    A class that a classifier never predicts has ``TP + FP = 0`` (its column of the matrix
    sums to 0), so its precision is undefined; every measure built on per-class precision
    then uses the configured ``zero_division`` value for it, which users need to know. A
    class that never occurs as actual class has ``TP + FN = 0`` (its row sums to 0), so its
    recall is undefined too.

    Parameters
    ----------
    pooled : mapping
        (engine, dataset, classifier) -> confusion matrix (rows actual, columns predicted,
        in the order of ``classes[dataset]``), as returned by :func:`pooled_matrices`.
    classes : mapping
        Dataset name -> configured class order.
    recall : bool, default True
        Also list the classes that never occur as actual class (recall undefined).

    Returns
    -------
    DataFrame
        Columns :data:`UNDEFINED_COLUMNS`: ``engine, dataset, classifier, class, measure,
        reason``; ``measure`` is ``"precision"`` or ``"recall"`` and ``reason`` says which
        sum is 0 and the counts behind it. Rows follow the order of ``pooled``, then the
        class order, precision before recall; empty (with these columns) when every
        precision and recall is defined.

    Raises
    ------
    ValueError
        If a key is not an (engine, dataset, classifier) triple, its dataset has no class
        list in ``classes``, or a matrix is not square with one row per class.
    """
    rows = []
    for key, cm in pooled.items():
        names, cm = _checked_matrix(key, cm, classes)
        rows += [(*key, *case) for case in _undefined_cases(cm, names, recall=recall)]
    return pd.DataFrame(rows, columns=list(UNDEFINED_COLUMNS), dtype=object)


#: The ``classifier`` and ``measure`` of :func:`missing_class_warning`'s row: it concerns
#: every classifier and every measure of its engine and dataset.
EVERY = "*"


def missing_class_warning(
    engine: str, dataset: str, *, count: int, rows: int, marker: str | None
) -> pd.DataFrame:
    """The warnings-table row for a dataset's rows without a class (none when there are none).

    Such rows (the class cell is the missing marker) stay in the dataset's table, but no
    classifier is trained or scored on them, as in Weka ("Ignored Class Unknown Instances"):
    every matrix counts the other rows only.

    Parameters
    ----------
    engine, dataset : str
    count : int
        Rows without a class.
    rows : int
        Rows of the dataset's table.
    marker : str or None
        The class cell of those rows.

    Returns
    -------
    DataFrame
        Columns :data:`UNDEFINED_COLUMNS`: one row with ``classifier`` and ``measure``
        :data:`EVERY` and ``class`` the marker when ``count > 0``; else empty.
    """
    if count <= 0:
        return pd.DataFrame([], columns=list(UNDEFINED_COLUMNS), dtype=object)
    reason = (
        f"{count} of the {rows} rows have no class (class cell {marker!r}): left out of every "
        f"classifier's training and of every matrix, as Weka leaves them out (its 'Ignored "
        f"Class Unknown Instances'); the matrices count the other {rows - count} rows"
    )
    row = (engine, dataset, EVERY, str(marker), EVERY, reason)
    return pd.DataFrame([row], columns=list(UNDEFINED_COLUMNS), dtype=object)
