"""Names and schemas of the statistics tables, and reading them back from CSV.

Every tidy table the statistics step writes has its column order here (``*_COLUMNS``), every
test its name in the ``test`` column (``*_TESTS``). The naming helpers turn a
``(measure, kappa name)`` into a file stem (:func:`file_stem`) and a label
(:func:`measure_label`).

Kappa vectors are positional (one weight per class of the dataset), so a name such as ``p1``
means a different vector on each dataset that configures its own ``p1``. pd at a named vector
is therefore compared across datasets only where the vector itself (its values) is the same
on every dataset that configures the name (:func:`differing_kappa_vectors`,
:func:`comparison_keys`); pd at ``default`` (the class-share rule, paper 000 eq. 31) has one
definition on every dataset and is always compared.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from pdmeasure import measures
from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD
from pdmeasure.tables.io import text_to_float
from pdmeasure.tables.measures import MEASURE_COLUMNS


class AcrossTables(NamedTuple):
    """The four tidy tables of the comparison across datasets (columns ``*_COLUMNS``), as
    :func:`pdmeasure.tables.stats_across.compare_across_datasets` returns them and the report
    reads them back. Defined here, beside their schemas, so that a reader imports no scipy.
    """

    ranks: pd.DataFrame
    omnibus: pd.DataFrame
    posthoc: pd.DataFrame
    cd: pd.DataFrame


#: Test names, as written in the ``test`` column of the output tables.
OMNIBUS_TESTS = ("friedman", "iman_davenport", "friedman_aligned_ranks", "quade")
POSTHOC_TESTS = ("nemenyi", "holm_control", "wilcoxon_holm")
WITHIN_TESTS = ("corrected_t", "cv5x2_t", "cv5x2_f", "mcnemar")

#: Measures on which McNemar's test (a test of error rates) is reported.
MCNEMAR_MEASURES = ("accuracy", "error_rate")

RANK_COLUMNS = (
    "engine",
    "measure",
    "kappa",
    "classifier",
    "average_rank",
    "n_datasets",
    "datasets",
    "lower_is_better",
)
OMNIBUS_COLUMNS = (
    "engine",
    "measure",
    "kappa",
    "test",
    "statistic",
    "df1",
    "df2",
    "p_value",
    "significant",
    "n_datasets",
    "n_classifiers",
    "min_p",
    "can_reach_alpha",
    "note",
)
POSTHOC_COLUMNS = (
    "engine",
    "measure",
    "kappa",
    "test",
    "classifier_a",
    "classifier_b",
    "statistic",
    "p_value",
    "p_adjusted",
    "significant",
    "better",
    "min_p",
    "can_reach_alpha",
    "note",
)
CD_COLUMNS = (
    "engine",
    "measure",
    "kappa",
    "classifier",
    "average_rank",
    "cd",
    "n_datasets",
    "n_classifiers",
    "alpha",
    "lower_is_better",
)
FOLD_COLUMNS = (
    "engine",
    "dataset",
    "classifier",
    "scheme",
    "repeat",
    "fold",
    "n_test",
    "n_train",
    "measure",
    "kappa",
    "kappa_values",
    "value",
)
PAIRWISE_COLUMNS = (
    "engine",
    "dataset",
    "measure",
    "kappa",
    "test",
    "classifier_a",
    "classifier_b",
    "mean_difference",
    "better",
    "statistic",
    "df1",
    "df2",
    "p_value",
    "p_adjusted",
    "significant",
    "n",
    "note",
)

_BOOL_COLUMNS = ("significant", "lower_is_better")
#: Booleans that may be unknown (empty in the CSV, ``pd.NA`` when read back): whether a test
#: can reach alpha at all is unknown where its ``min_p`` is.
_NULLABLE_BOOL_COLUMNS = ("can_reach_alpha",)
_TEXT_COLUMNS = (
    *MEASURE_COLUMNS[:-1],  # the keys of a measures.csv row (all but its value)
    "test",
    "classifier_a",
    "classifier_b",
    "better",
    "note",
    "datasets",
    "scheme",
    "significant_by",
)


class NaNExcludedWarning(UserWarning):
    """A NaN measure value was left out of a test (the message names it)."""


def drop_nan_rows(
    table: pd.DataFrame, message: Callable[[Hashable, str], str], *, stacklevel: int
) -> tuple[pd.DataFrame, list[tuple[Hashable, str]]]:
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
    if not bad.to_numpy().any():
        return table, []
    dropped = []
    for label in table.index[bad.any(axis=1)]:
        classifiers = ", ".join(map(str, table.columns[bad.loc[label]]))
        warnings.warn(message(label, classifiers), NaNExcludedWarning, stacklevel=stacklevel + 1)
        dropped.append((label, classifiers))
    return table.loc[~bad.any(axis=1)], dropped


def warning_label(measure: str, kappa: str) -> str:
    """``accuracy`` or ``preference_driven [kappa p1]``: the measure in warning texts."""
    return measure + (f" [kappa {kappa}]" if kappa else "")


def measure_label(measure: str, kappa: str) -> str:
    """``accuracy``, ``preference_driven [default]``, ``preference_driven [p1]``."""
    return f"{measure} [{kappa}]" if kappa else measure


def file_stem(measure: str, kappa: str) -> str:
    """File name of a (measure, kappa): ``accuracy``, ``preference_driven_default``."""
    return f"{measure}_{kappa}" if kappa else measure


def same_vector(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two kappa vectors hold the same values (same length, equal within 1e-12)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return x.shape == y.shape and bool(np.allclose(x, y, rtol=0, atol=1e-12))


def format_vector(vector: Sequence[float]) -> str:
    """A kappa vector as ``[0, 0.8, 0.6, 1]`` (shortest round-tripping decimals), for messages."""
    values = np.asarray(vector, dtype=float).ravel()
    return "[" + ", ".join(np.format_float_positional(v, trim="-") for v in values) + "]"


def differing_kappa_vectors(
    kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]],
) -> dict[str, dict[str, tuple[float, ...]]]:
    """Kappa-vector names whose vectors are not the same on every dataset that configures them.

    Parameters
    ----------
    kappa_vectors : mapping
        Dataset -> {name -> vector} (config ``kappa_vectors``).

    Returns
    -------
    dict
        Name -> {dataset -> vector}, in config order, for every name configured on two or
        more datasets with different values (or lengths) somewhere. pd at such a name is not
        pooled across datasets (see :func:`not_pooled_note`).
    """
    by_name: dict[str, dict[str, tuple[float, ...]]] = {}
    for dataset, vectors in kappa_vectors.items():
        for name, vector in vectors.items():
            by_name.setdefault(str(name), {})[str(dataset)] = tuple(
                float(v) for v in np.asarray(vector, dtype=float).ravel()
            )
    return {
        name: per_dataset
        for name, per_dataset in by_name.items()
        if any(not same_vector(v, next(iter(per_dataset.values()))) for v in per_dataset.values())
    }


def not_pooled_note(name: str, vectors: Mapping[str, Sequence[float]]) -> str:
    """``p1 differs across datasets (car: [0, 0.8, 0.6, 1], nursery: [...]); not pooled``."""
    listed = ", ".join(f"{dataset}: {format_vector(v)}" for dataset, v in vectors.items())
    return f"{name} differs across datasets ({listed}); not pooled"


def comparison_keys(
    kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]], *, min_datasets: int = 2
) -> list[tuple[str, str]]:
    """Every (measure, kappa) compared across datasets, in registry order.

    Registry measures (kappa ``""``), pd at ``"default"``, then each kappa-vector name
    configured on at least ``min_datasets`` datasets *with the same values on all of them*.
    Names on fewer datasets allow no test across datasets; names whose vectors differ between
    datasets (:func:`differing_kappa_vectors`) are not pooled. These are exactly the keys of
    :func:`~pdmeasure.tables.stats_across.compare_across_datasets` that get average ranks and CD
    rows when every configured dataset is in the measures table; used to list the CD diagrams
    before the data exist.
    """
    keys = [(name, NO_KAPPA) for name in measures.REGISTRY if name != PD]
    keys.append((PD, DEFAULT_KAPPA))
    differing = differing_kappa_vectors(kappa_vectors)
    counts: dict[str, int] = {}
    for vectors in kappa_vectors.values():
        for name in vectors:
            counts[str(name)] = counts.get(str(name), 0) + 1
    keys += [
        (PD, name)
        for name, count in counts.items()
        if count >= min_datasets and name not in differing
    ]
    return keys


def _booleans(column: pd.Series, where: str, *, nullable: bool) -> pd.Series:
    """``True``/``False`` text as booleans; with ``nullable``, empty text too, as ``pd.NA``
    of a nullable boolean column."""
    allowed = {"True", "False", ""} if nullable else {"True", "False"}
    unknown = set(column) - allowed
    if unknown:
        raise ValueError(f"{where} has non-boolean values {unknown}")
    if not nullable:
        return column == "True"
    return column.map({"True": True, "False": False, "": pd.NA}).astype("boolean")


def read_stats_table(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read back any table of this package: text stays text (``kappa`` ``""`` included),
    numbers become floats (empty -> NaN, ``inf`` kept), ``True``/``False`` become booleans
    (``can_reach_alpha``: nullable, empty -> ``pd.NA``)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in frame.columns:
        if column in _BOOL_COLUMNS or column in _NULLABLE_BOOL_COLUMNS:
            frame[column] = _booleans(
                frame[column],
                f"{path}: column {column}",
                nullable=column in _NULLABLE_BOOL_COLUMNS,
            )
        elif column not in _TEXT_COLUMNS:
            frame[column] = text_to_float(frame[column])
    return frame
