"""Per-fold measure values from cross-validation predictions (input of the paired tests).

``predictions.csv`` of the pipeline's CV, and of the extra 5 x 2-fold CV run for the 5x2cv
tests (:func:`pdmeasure.pipeline.cv5x2.cross_validate_5x2`), become one measure value per (classifier, repeat, fold):
every registry measure, pd at the default kappa and at each configured kappa vector.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision
from pdmeasure.tables.confusion import confusion_matrix, count_matrices, label_codes
from pdmeasure.tables.io import require_columns
from pdmeasure.tables.measures import pd_rows
from pdmeasure.tables.stats import FOLD_COLUMNS

PREDICTION_KEYS = (
    "engine",
    "dataset",
    "classifier",
    "repeat",
    "fold",
    "row",
    "actual",
    "predicted",
)

#: The columns of :data:`PREDICTION_KEYS` that hold integers.
_INTEGER_KEYS = ("repeat", "fold", "row")

#: Dietterich's (1998) design: 5 repetitions of 2-fold cross-validation.
CV5X2_REPEATS = 5
CV5X2_FOLDS = 2


def read_predictions(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a ``predictions.csv`` keeping labels as text; repeat, fold and row as integers."""
    # The parser reads the integer columns as integers (a defaultdict keeps every other column
    # text): converting them from text afterwards took 3 times as long on 700,000 rows.
    dtype: defaultdict[str, type] = defaultdict(lambda: str)
    dtype.update({column: np.int64 for column in _INTEGER_KEYS})
    frame = pd.read_csv(path, dtype=dtype, keep_default_na=False)
    require_columns(frame.columns, PREDICTION_KEYS, str(path))
    return frame


def check_paired_folds(pred: pd.DataFrame) -> None:
    """Raise unless every classifier was tested on exactly the same folds.

    The paired tests compare two classifiers fold by fold; that is only valid when sample
    ``row`` of repeat r lies in the same fold for every classifier.
    """
    if not _same_folds(pred):
        _raise_first_fault(pred)


def _raise_first_fault(pred: pd.DataFrame) -> None:
    """Raise for the first classifier, in order of appearance, whose samples or folds differ
    from the first classifier's, or that has a sample twice in one repeat."""
    assignment = None
    for classifier, group in pred.groupby("classifier", sort=False):
        folds = group.set_index(["repeat", "row"])["fold"].sort_index()
        if folds.index.duplicated().any():
            raise ValueError(f"classifier {classifier}: a sample appears twice in one repeat")
        if assignment is None:
            first, assignment = classifier, folds
        elif not folds.index.equals(assignment.index) or not np.array_equal(folds, assignment):
            raise ValueError(
                f"classifiers {first} and {classifier} were not cross-validated on "
                "the same folds; the paired tests need identical folds"
            )


def _same_folds(pred: pd.DataFrame) -> bool:
    """Whether every classifier has the same (repeat, row) samples, each once, in the same
    folds: the common case of :func:`check_paired_folds`, checked on arrays sorted once
    (grouping by classifier took longer than the paired tests on small datasets)."""
    codes, names = pd.factorize(pred["classifier"])
    sizes = np.bincount(codes)
    if len(names) == 0 or (sizes != sizes[0]).any():
        return False
    columns = [pred[name].to_numpy() for name in ("repeat", "row", "fold")]
    order = np.lexsort((columns[1], columns[0], codes))
    repeat, row, fold = (values[order].reshape(len(names), -1) for values in columns)
    once = (np.diff(repeat[0]) != 0) | (np.diff(row[0]) != 0)
    return bool(
        once.all()
        and (repeat == repeat[0]).all()
        and (row == row[0]).all()
        and (fold == fold[0]).all()
    )


def fold_matrices(
    pred: pd.DataFrame, group: np.ndarray, n_groups: int, classes: Sequence[str]
) -> np.ndarray:
    """The confusion matrix of every group of predictions, in one count.

    Parameters
    ----------
    pred : DataFrame
        Predictions with ``actual`` and ``predicted`` labels.
    group : ndarray of int, shape (len(pred),)
        Each row's group, ``0 <= group < n_groups`` (e.g. ``groupby(...).ngroup()``).
    n_groups : int
    classes : sequence of str
        Row and column order of the matrices.

    Returns
    -------
    ndarray of int, shape (n_groups, C, C)
        Rows actual, columns predicted: for each group what
        :func:`pdmeasure.measures.labels.confusion_matrix` gives on its rows, the labels
        coded once for the whole frame (:func:`~pdmeasure.tables.confusion.label_codes`).

    Raises
    ------
    ValueError
        If a label is not one of ``classes``.
    """
    codes = []
    for column in ("actual", "predicted"):
        coded = label_codes(pred[column], classes)
        if (coded < 0).any():
            bad = pred[column].to_numpy(dtype=object)[np.flatnonzero(coded < 0)[0]]
            # The message of confusion_matrix, which the per-group count raised.
            confusion_matrix([bad], [bad], classes)
        codes.append(coded)
    return count_matrices(codes[0], codes[1], group, n_groups, len(classes))


def fold_measure_values(
    pred: pd.DataFrame,
    *,
    classes: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]] | None = None,
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT,
    scheme: str = "cv",
) -> pd.DataFrame:
    """Every registry measure (pd at default and at each named vector) on every test fold.

    Parameters
    ----------
    pred : DataFrame
        Predictions of one or more classifiers (columns :data:`PREDICTION_KEYS`).
    classes : sequence of str
        The dataset's configured class order.
    kappa_vectors : mapping, optional
        Name -> kappa vector of this dataset.
    zero_division : {"nan", 0.0, 1.0}
        As in :mod:`pdmeasure.measures` (the pipeline uses 0.0).
    scheme : str
        Written in the ``scheme`` column (``cv`` or ``cv5x2``).

    Returns
    -------
    DataFrame
        Columns :data:`FOLD_COLUMNS`; ``n_test`` is the fold's size and ``n_train`` the rest
        of its repeat. pd's default kappa is each fold matrix's actual-class shares (eq. 31).
    """
    keys = ["engine", "dataset", "classifier", "repeat", "fold"]
    by_fold = pred.groupby(keys, sort=True)
    sizes = by_fold.size()
    if sizes.empty:
        raise ValueError("no predictions")
    repeat_size = pred.groupby(["engine", "dataset", "classifier", "repeat"]).size()
    cms = fold_matrices(pred, by_fold.ngroup().to_numpy(), len(sizes), classes)
    rows = pd_rows(cms, dict(kappa_vectors or {}), zero_division=zero_division)
    groups = sizes.index.tolist()
    index = pd.DataFrame(groups, columns=keys)
    index["scheme"] = scheme
    index["n_test"] = sizes.to_list()
    index["n_train"] = [repeat_size[key[:4]] - size for key, size in zip(groups, sizes)]
    # The fold columns repeated once per measure row, each measure row's cells (a value, or
    # one per fold) spread over the folds: one frame built from whole columns (a frame per
    # measure row, concatenated, took longer than the measures themselves).
    out = index.take(np.tile(np.arange(len(index)), len(rows))).reset_index(drop=True)
    for position, name in enumerate(("measure", "kappa", "kappa_values", "value")):
        cells = [
            np.broadcast_to(np.asarray(row[position], dtype=object), len(index)) for row in rows
        ]
        column = np.concatenate(cells)
        out[name] = column.astype(float) if name == "value" else pd.Series(column, dtype="str")
    return out[list(FOLD_COLUMNS)]
