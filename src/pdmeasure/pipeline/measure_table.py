"""Pooled confusion matrices -> the tidy ``measures.csv`` table (pipeline step 4).

One row per (engine, dataset, classifier, measure, kappa)::

    engine, dataset, classifier, measure, kappa, value

``measure`` is a key of :data:`pdmeasure.measures.REGISTRY`. ``kappa`` is empty for measures
without a preference vector; for ``preference_driven`` it is ``default`` (actual-class shares,
paper 000 eq. 31) or the configured vector written ``0;0.8;0.6;1`` (see :func:`format_kappa`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure import measures
from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD, format_kappa, parse_kappa
from pdmeasure.pipeline.io import read_csv

MEASURE_COLUMNS = ("engine", "dataset", "classifier", "measure", "kappa", "value")

MatrixKey = tuple[str, str, str]


def _check_vectors(dataset: str, n_classes: int, vectors: Mapping[str, Sequence[float]]) -> None:
    for name, vector in vectors.items():
        if len(vector) != n_classes:
            raise ValueError(
                f"datasets.{dataset}.kappa_vectors.{name} has {len(vector)} values but the "
                f"dataset has {n_classes} classes"
            )


def measures_table(
    pooled: Mapping[MatrixKey, np.ndarray],
    kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]],
    *,
    zero_division: float | str = 0.0,
) -> pd.DataFrame:
    """Every registry measure, and pd at ``default`` and at each kappa vector, per matrix.

    Parameters
    ----------
    pooled : mapping
        ``(engine, dataset, classifier) -> (C, C)`` pooled confusion matrix (rows actual,
        columns predicted, configured class order), e.g. from
        :func:`pdmeasure.pipeline.confusion.pooled_matrices`.
    kappa_vectors : mapping
        Dataset -> {vector name -> kappa vector}; the config's ``kappa_vectors``. A dataset
        missing here gets only the default pd. Vectors with equal values share one row.
    zero_division : {"nan", 0.0, 1.0}
        Value of 0/0 in every measure; the pipeline uses the papers' convention 0.0.

    Returns
    -------
    DataFrame
        Columns :data:`MEASURE_COLUMNS`, rows grouped by matrix in the order of ``pooled``,
        measures in registry order, then pd default, then the vectors in configured order.
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
        columns: list[tuple[str, str, np.ndarray]] = []
        for name, func in measures.REGISTRY.items():
            if name != PD:
                columns.append((name, NO_KAPPA, func(cms, zero_division=zero_division)))
        columns.append(
            (PD, DEFAULT_KAPPA, measures.preference_driven(cms, None, zero_division=zero_division))
        )
        # Two names for the same vector give one row: the row is keyed by the vector itself.
        for written in dict.fromkeys(format_kappa(v) for v in vectors.values()):
            kappa = parse_kappa(written)
            value = measures.preference_driven(cms, kappa, zero_division=zero_division)
            columns.append((PD, written, value))
        for i, key in enumerate(keys):
            blocks[key] = pd.DataFrame(
                {
                    "engine": key[0],
                    "dataset": key[1],
                    "classifier": key[2],
                    "measure": [c[0] for c in columns],
                    "kappa": [c[1] for c in columns],
                    "value": [float(np.asarray(c[2])[i]) for c in columns],
                }
            )
    if not blocks:
        raise ValueError("no pooled confusion matrices (fold 'all') to compute measures on")
    return pd.concat([blocks[key] for key in pooled], ignore_index=True)


def read_measures(path) -> pd.DataFrame:
    """Read ``measures.csv`` keeping ``kappa`` as text (empty stays ``""``) and value as float.

    ``value`` goes through :func:`~pdmeasure.pipeline.io.text_to_float`, so a ``NaN`` cell (a measure
    undefined under ``zero_division: nan``) reads back as NaN.
    """
    return read_csv(path, required=MEASURE_COLUMNS, numbers=["value"])
