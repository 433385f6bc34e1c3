"""Names and schemas of the statistics tables, and reading them back from CSV.

Every tidy table the statistics step writes has its column order here (``*_COLUMNS``), every
test its name in the ``test`` column (``*_TESTS``). The naming helpers turn a
``(measure, kappa)`` into a kappa name shared across datasets (:func:`kappa_name`), a file
stem (:func:`file_stem`) and a label (:func:`measure_label`).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from .. import measures
from ..io import text_to_float
from ..measure_table import DEFAULT_KAPPA, NO_KAPPA, PD, parse_kappa

#: Test names, as written in the ``test`` column of the output tables.
OMNIBUS_TESTS = ("friedman", "iman_davenport", "friedman_aligned_ranks", "quade")
POSTHOC_TESTS = ("nemenyi", "holm_control", "wilcoxon_holm")
WITHIN_TESTS = ("corrected_t", "cv5x2_t", "cv5x2_f", "mcnemar")

#: Measures on which McNemar's test (a test of error rates) is reported.
MCNEMAR_MEASURES = ("accuracy", "error_rate")

RANK_COLUMNS = ("engine", "measure", "kappa", "classifier", "average_rank", "n_datasets",
                "datasets", "lower_is_better")
OMNIBUS_COLUMNS = ("engine", "measure", "kappa", "test", "statistic", "df1", "df2", "p_value",
                   "significant", "n_datasets", "n_classifiers", "min_p", "note")
POSTHOC_COLUMNS = ("engine", "measure", "kappa", "test", "classifier_a", "classifier_b",
                   "statistic", "p_value", "p_adjusted", "significant", "better", "min_p",
                   "note")
CD_COLUMNS = ("engine", "measure", "kappa", "classifier", "average_rank", "cd", "n_datasets",
              "n_classifiers", "alpha", "lower_is_better")
FOLD_COLUMNS = ("engine", "dataset", "classifier", "scheme", "repeat", "fold", "n_test",
                "n_train", "measure", "kappa", "value")
PAIRWISE_COLUMNS = ("engine", "dataset", "measure", "kappa", "test", "classifier_a",
                    "classifier_b", "mean_difference", "better", "statistic", "df1", "df2",
                    "p_value", "p_adjusted", "significant", "n", "note")

_BOOL_COLUMNS = ("significant", "lower_is_better")
_TEXT_COLUMNS = ("engine", "dataset", "classifier", "measure", "kappa", "test", "classifier_a",
                 "classifier_b", "better", "note", "datasets", "scheme", "significant_by")


class NaNExcludedWarning(UserWarning):
    """A NaN measure value was left out of a test (the message names it)."""


def drop_nan_rows(table: pd.DataFrame, message: Callable[[Hashable, str], str], *,
                  stacklevel: int) -> tuple[pd.DataFrame, list[tuple[Hashable, str]]]:
    """Drop the rows of ``table`` holding a NaN, with one :class:`NaNExcludedWarning` each.

    Parameters
    ----------
    table : DataFrame
        Blocks (datasets, or CV folds) x classifiers.
    message : callable
        ``message(row_label, classifiers)`` -> warning text; ``classifiers`` lists the
        columns that are NaN on that row, ``", "``-separated.
    stacklevel : int
        Passed to :func:`warnings.warn`, counted from the caller of this function.

    Returns
    -------
    (DataFrame, list of (label, str))
        The rows without NaN, and the (label, classifiers) of each dropped row.
    """
    bad = table.isna()
    dropped = []
    for label in table.index[bad.any(axis=1)]:
        classifiers = ", ".join(map(str, table.columns[bad.loc[label]]))
        warnings.warn(message(label, classifiers), NaNExcludedWarning, stacklevel=stacklevel + 1)
        dropped.append((label, classifiers))
    return table.loc[~bad.any(axis=1)], dropped


def describe(measure: str, kappa: str) -> str:
    """``accuracy`` or ``preference_driven [kappa p1]``: the measure in warning texts."""
    return measure + (f" [kappa {kappa}]" if kappa else "")


def measure_label(measure: str, kappa: str) -> str:
    """``accuracy``, ``preference_driven [default]``, ``preference_driven [p1]``."""
    return f"{measure} [{kappa}]" if kappa else measure


def file_stem(measure: str, kappa: str) -> str:
    """File name of a (measure, kappa): ``accuracy``, ``preference_driven_default``."""
    return f"{measure}_{kappa}" if kappa else measure


def kappa_name(dataset: str, kappa: str, vectors: Mapping[str, Sequence[float]]) -> str:
    """Name of a ``measures.csv`` kappa cell: ``""``, ``"default"`` or the vector's config name.

    A vector written ``0;0.8;0.6;1`` becomes its name in ``datasets.<dataset>.kappa_vectors``
    (compared numerically), so that pd at "p1" can be compared across datasets whose p1
    vectors differ. A vector that matches no configured name keeps its written form.
    """
    if kappa in (NO_KAPPA, DEFAULT_KAPPA):
        return kappa
    values = parse_kappa(kappa)
    for name, vector in vectors.items():
        vector = np.asarray(vector, dtype=float)
        if vector.shape == values.shape and np.allclose(vector, values, rtol=0, atol=1e-12):
            return str(name)
    return kappa


def name_kappas(frame: pd.DataFrame,
                kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]]) -> pd.DataFrame:
    """Copy of a measures table with every ``kappa`` cell replaced by :func:`kappa_name`."""
    out = frame.copy()
    out["kappa"] = [kappa_name(d, str(k), kappa_vectors.get(d, {}))
                    for d, k in zip(out["dataset"], out["kappa"])]
    return out


def comparison_keys(kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]],
                    *, min_datasets: int = 2) -> list[tuple[str, str]]:
    """Every (measure, kappa) compared across datasets, in registry order.

    Registry measures (kappa ``""``), pd at ``"default"``, then each kappa-vector name
    configured on at least ``min_datasets`` datasets (names on fewer allow no test across
    datasets). Used to list the CD diagrams before the data exist.
    """
    keys = [(name, NO_KAPPA) for name in measures.REGISTRY if name != PD]
    keys.append((PD, DEFAULT_KAPPA))
    counts: dict[str, int] = {}
    for vectors in kappa_vectors.values():
        for name in vectors:
            counts[str(name)] = counts.get(str(name), 0) + 1
    keys += [(PD, name) for name, count in counts.items() if count >= min_datasets]
    return keys


def read_stats_table(path) -> pd.DataFrame:
    """Read back any table of this package: text stays text (``kappa`` ``""`` included),
    numbers become floats (empty -> NaN, ``inf`` kept), ``True``/``False`` become booleans."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in frame.columns:
        if column in _BOOL_COLUMNS:
            unknown = set(frame[column]) - {"True", "False"}
            if unknown:
                raise ValueError(f"{path}: column {column} has non-boolean values {unknown}")
            frame[column] = frame[column] == "True"
        elif column not in _TEXT_COLUMNS:
            frame[column] = text_to_float(frame[column])
    return frame
