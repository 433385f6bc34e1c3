"""Pooled confusion matrices -> the tidy ``measures.csv`` table (pipeline step 4).

One row per (engine, dataset, classifier, measure, kappa)::

    engine, dataset, classifier, measure, kappa, kappa_values, value

``measure`` is a key of :data:`pdmeasure.measures.REGISTRY`. For measures without a preference
vector ``kappa`` and ``kappa_values`` are empty. For ``preference_driven``, ``kappa`` is the
vector's name -- ``default`` (actual-class shares, paper 000 eq. 31) or a configured name such
as ``p1`` -- so that results group by name without parsing, and ``kappa_values`` holds its
values in class order, written ``0;0.8;0.6;1`` (:func:`format_kappa`; for ``default``, the
shares of that row's matrix).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure import measures
from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision, check_kappa_length
from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD, format_kappa, parse_kappa
from pdmeasure.tables.io import read_csv

MEASURE_COLUMNS = ("engine", "dataset", "classifier", "measure", "kappa", "kappa_values", "value")

MatrixKey = tuple[str, str, str]


def _check_vectors(dataset: str, n_classes: int, vectors: Mapping[str, Sequence[float]]) -> None:
    for name, vector in vectors.items():
        try:
            check_kappa_length(len(vector), n_classes)
        except ValueError as exc:
            raise ValueError(f"datasets.{dataset}.kappa_vectors.{name}: {exc}") from None


def measures_table(
    pooled: Mapping[MatrixKey, np.ndarray],
    kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]],
    *,
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT,
) -> pd.DataFrame:
    """Every registry measure, and pd at ``default`` and at each kappa vector, per matrix.

    Parameters
    ----------
    pooled : mapping
        ``(engine, dataset, classifier) -> (C, C)`` pooled confusion matrix (rows actual,
        columns predicted, configured class order), e.g. from
        :func:`pdmeasure.tables.confusion.pooled_matrices`.
    kappa_vectors : mapping
        Dataset -> {vector name -> kappa vector}; the config's ``kappa_vectors``. A dataset
        missing here gets only the default pd. Each name gets its own rows.
    zero_division : {"nan", 0.0, 1.0}
        Value of 0/0 in every measure; the pipeline uses the papers' convention 0.0.

    Returns
    -------
    DataFrame
        Columns :data:`MEASURE_COLUMNS`, rows grouped by matrix in the order of ``pooled``,
        measures in registry order, then pd default, then one row per configured vector
        name, in configured order (two names of equal vectors get a row each).
    """
    blocks: dict[MatrixKey, pd.DataFrame] = {}
    # Stack the matrices of one dataset (same C) so each measure is one batched call.
    by_dataset: dict[str, list[MatrixKey]] = {}
    for key in pooled:
        by_dataset.setdefault(key[1], []).append(key)
    for dataset, keys in by_dataset.items():
        cms = np.stack([np.asarray(pooled[k]) for k in keys])
        vectors = dict(kappa_vectors.get(dataset, {}))
        _check_vectors(dataset, cms.shape[-1], vectors)
        rows = pd_rows(cms, vectors, zero_division=zero_division)
        for i, key in enumerate(keys):
            blocks[key] = pd.DataFrame(
                {
                    "engine": key[0],
                    "dataset": key[1],
                    "classifier": key[2],
                    "measure": [r[0] for r in rows],
                    "kappa": [r[1] for r in rows],
                    "kappa_values": [r[2][i] for r in rows],
                    "value": [float(np.asarray(r[3])[i]) for r in rows],
                }
            )
    if not blocks:
        raise ValueError("no pooled confusion matrices (fold 'all') to compute measures on")
    return pd.concat([blocks[key] for key in pooled], ignore_index=True)


def pd_rows(
    cms: np.ndarray, vectors: Mapping[str, Sequence[float]], *, zero_division: float | str
) -> list[tuple[str, str, list[str], np.ndarray]]:
    """``(measure, kappa name, kappa values per matrix, value per matrix)`` of every row.

    Registry measures (empty name and values), pd at ``default`` (the values are each
    matrix's actual-class shares, eq. 31), then pd at each named vector. Each distinct vector
    is evaluated once, whatever the number of names it goes by.
    """
    n = len(cms)
    rows: list[tuple[str, str, list[str], np.ndarray]] = [
        (name, NO_KAPPA, [""] * n, func(cms, zero_division=zero_division))
        for name, func in measures.REGISTRY.items()
        if name != PD
    ]
    shares = cms.sum(axis=-1) / cms.sum(axis=(-2, -1))[..., None]
    rows.append(
        (
            PD,
            DEFAULT_KAPPA,
            [format_kappa(v) for v in shares],
            measures.preference_driven(cms, None, zero_division=zero_division),
        )
    )
    values: dict[str, np.ndarray] = {}
    for name, vector in vectors.items():
        written = format_kappa(vector)
        if written not in values:
            kappa = parse_kappa(written)
            values[written] = measures.preference_driven(cms, kappa, zero_division=zero_division)
        rows.append((PD, str(name), [written] * n, values[written]))
    return rows


def read_measures(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read ``measures.csv`` keeping ``kappa`` and ``kappa_values`` as text (empty stays
    ``""``) and value as float.

    ``value`` goes through :func:`~pdmeasure.tables.io.text_to_float`, so a ``NaN`` cell (a measure
    undefined under ``zero_division: nan``) reads back as NaN.
    """
    return read_csv(path, required=MEASURE_COLUMNS, numbers=["value"])


def paired_blocks(
    frame: pd.DataFrame, keys: Sequence[tuple[str, str]], names: Sequence[str]
) -> Iterator[tuple[str, str, str, str, np.ndarray, np.ndarray]]:
    """Every pair of classifiers of one engine's measures table, per (measure, kappa) block:
    ``(measure, kappa, a, b, a's values, b's values)`` on the datasets where both have a
    value, in dataset order (the comparisons across datasets: effect sizes, signed-rank
    tests).

    ``frame`` holds one engine's rows (``measure``, ``kappa`` as text, ``dataset``,
    ``classifier``, ``value``); ``keys`` picks and orders the blocks (a block without rows
    gives empty arrays); ``names`` orders the classifiers, pairs ``(names[i], names[j])``
    with ``i < j``.
    """
    # Every block's datasets x classifiers at once, each block's rows in dataset order, as a
    # pivot of the block alone gives them.
    grids = frame.pivot_table(
        index=["measure", "kappa", "dataset"], columns="classifier", values="value", aggfunc="first"
    )
    blocks = set(grids.index.droplevel("dataset"))
    for measure, kappa in keys:
        if (measure, kappa) in blocks:
            grid = grids.xs((measure, kappa), level=("measure", "kappa"))
            values = grid.reindex(columns=list(names)).to_numpy(dtype=float)
        else:
            values = np.full((0, len(names)), np.nan)
        for i, a in enumerate(names):
            for j in range(i + 1, len(names)):
                both = ~np.isnan(values[:, i]) & ~np.isnan(values[:, j])
                yield measure, kappa, a, names[j], values[both, i], values[both, j]
