"""Uncertainty of the pipeline's numbers: tidy tables from :mod:`pdmeasure.uncertainty`.

Per engine and dataset (rule ``uncertainty``), from draws of the pooled confusion matrices
(``method: posterior``: each actual-class row from its Dirichlet posterior; ``method:
bootstrap``: the pooled CV predictions resampled within each actual class, the same indices for
every classifier):

- :func:`interval_table` -- every registry measure and pd at ``default`` and at each configured
  kappa vector, with its point value (the same as ``measures.csv``) and an equal-tailed
  interval (columns :data:`INTERVAL_COLUMNS`);
- :func:`pairwise_table` -- per measure and ordered pair, P(a better by more than the ROPE),
  P(equivalent within it), P(a worse); and the preference-robust P(pd_a > pd_b) over the kappa
  space (kappa uniform on [0, 1]^C, and uniform over the dataset's kappa grid) (columns
  :data:`PROBABILITY_COLUMNS`);
- :func:`rank_table` -- each classifier's probability of every rank (:data:`RANK_PROBABILITY_COLUMNS`);
- :func:`within_table` -- the correlated Bayesian t-test (Corani & Benavoli 2015) on the
  per-fold scores of every pair (:data:`WITHIN_COLUMNS`);
- :func:`companion_table` -- the ranking table's rows with ``value [lower, upper] (rank)`` and
  each classifier's probability of ranking first (:data:`COMPANION_COLUMNS`).

Across datasets (rule ``uncertainty_across``): :func:`signed_rank_table`, the Bayesian
signed-rank test (Benavoli et al. 2017) per engine, measure and pair, with a :func:`verdict`.

Seeds: :func:`stream_seed` derives each job's seed from ``uncertainty.seed`` and the job's names
alone, so a result does not depend on the cores, the job order or the other datasets of a run.

The draws and the seeds are in :mod:`pdmeasure.tables.uncertainty_draws`, the pairwise,
rank and Bayesian-test tables in :mod:`pdmeasure.tables.uncertainty_comparisons`; this module
re-exports them and builds the tables of one engine and dataset (:func:`dataset_tables`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure import uncertainty as unc
from pdmeasure._validation import ZeroDivision
from pdmeasure.measures.weights import DEFAULT_KAPPA, PD
from pdmeasure.tables.confusion import pooled_matrices
from pdmeasure.tables.frames import frame_from_parts
from pdmeasure.tables.measures import pd_rows
from pdmeasure.tables.rankings import TABLE_DECIMALS, competition_ranks, table_rows
from pdmeasure.tables.uncertainty_comparisons import (
    POSTERIOR_BINS,
    SIGNED_RANK_DRAWS,
    pairwise_table,
    posterior_table,
    rank_table,
    signed_rank_table,
    within_table,
)
from pdmeasure.tables.uncertainty_draws import (
    EXPLORER_DRAWS,
    Scope,
    draw_matrices,
    explorer_draws,
    fold_matrices,
    prediction_arrays,
    stream_seed,
    value_draws,
)
from pdmeasure.tables.uncertainty_schema import (
    ACROSS_COLUMNS,
    COMPANION_COLUMNS,
    INTERVAL_COLUMNS,
    KAPPA_GRID,
    KAPPA_UNIFORM,
    POSTERIOR_COLUMNS,
    PROBABILITY_COLUMNS,
    RANK_PROBABILITY_COLUMNS,
    VERDICT_THRESHOLD,
    WITHIN_COLUMNS,
    read_signed_rank,
    verdict,
)


def interval_table(
    pooled: np.ndarray,
    draws: Mapping[tuple[str, str], np.ndarray],
    scope: Scope,
    *,
    settings: Mapping,
) -> pd.DataFrame:
    """Point value and interval of every measure row of every classifier.

    The point value is computed as in ``measures.csv`` (:func:`pd_rows` on the pooled
    matrices); the interval is :func:`pdmeasure.uncertainty.interval` of the draws at
    ``uncertainty.level``.
    """
    keys, classifiers = scope.keys, scope.classifiers
    level = float(settings["level"])
    parts = []
    for measure, kappa, written, values in pd_rows(
        pooled, dict(scope.kappa_vectors), zero_division=scope.zero_division
    ):
        lower, upper = unc.interval(draws[(measure, kappa)], level, axis=0)
        part = {
            **keys,
            "classifier": list(classifiers),
            "measure": measure,
            "kappa": kappa,
            "kappa_values": written,
            "value": np.asarray(values, dtype=float),
            "lower": np.asarray(lower, dtype=float),
            "upper": np.asarray(upper, dtype=float),
            "level": level,
            "method": settings["method"],
        }
        parts.append((len(classifiers), part))
    table = frame_from_parts(parts, list(parts[0][1]))
    order = {name: i for i, name in enumerate(classifiers)}
    table = table.sort_values(
        "classifier", key=lambda c: c.map(order), kind="stable", ignore_index=True
    )
    return table[list(INTERVAL_COLUMNS)]


def companion_table(
    intervals: pd.DataFrame,
    ranks: pd.DataFrame,
    *,
    classifiers: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]],
    decimals: int = TABLE_DECIMALS,
) -> pd.DataFrame:
    """The ranking table's rows (:func:`table_rows`) with interval and P(rank 1).

    ``rank`` is the ranking table's (competition ranks of the values printed at ``decimals``);
    ``p_first`` the probability of rank 1 from ``ranks`` (:func:`rank_table`).
    """
    # Row positions by (measure, kappa, classifier): one lookup per cell instead of a
    # selection from an indexed frame per table row.
    at = {
        key: i
        for i, key in enumerate(
            intervals[["measure", "kappa", "classifier"]].itertuples(False, None)
        )
    }
    first = ranks[ranks["rank"] == 1]
    p_first = dict(
        zip(first[["measure", "kappa", "classifier"]].itertuples(False, None), first["probability"])
    )
    columns = {
        name: intervals[name].to_numpy()
        for name in ("engine", "dataset", "value", "lower", "upper", "level", "method")
    }
    parts = []
    for label, measure, kappa in table_rows(kappa_vectors):
        rows = [at[(measure, kappa, c)] for c in classifiers]
        cells = {name: values[rows] for name, values in columns.items()}
        part = {
            "engine": cells["engine"],
            "dataset": cells["dataset"],
            "row": label,
            "classifier": list(classifiers),
            "value": cells["value"],
            "lower": cells["lower"],
            "upper": cells["upper"],
            "rank": competition_ranks(cells["value"], decimals),
            "p_first": [p_first[(measure, kappa, c)] for c in classifiers],
            "level": cells["level"],
            "method": cells["method"],
        }
        parts.append((len(classifiers), part))
    table = frame_from_parts(parts, list(parts[0][1]))
    table["rank"] = table["rank"].astype("Int64")
    return table[list(COMPANION_COLUMNS)]


def dataset_tables(
    confusion: pd.DataFrame,
    predictions: pd.DataFrame | None,
    *,
    engine: str,
    dataset: str,
    classes: Sequence[str],
    classifiers: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]],
    kappa_grid: Sequence[float] | None,
    settings: Mapping,
    zero_division: ZeroDivision,
) -> tuple[dict[str, pd.DataFrame], np.ndarray]:
    """Every uncertainty table of one engine and dataset (rule ``uncertainty``), and the
    matrix draws they come from.

    Parameters
    ----------
    confusion : DataFrame
        The long confusion table of the engine and dataset (every repeat and fold).
    predictions : DataFrame or None
        The per-sample predictions (``settings["method"] == "bootstrap"`` only).
    engine, dataset : str
    classes, classifiers : sequence of str
        The configured class order and the classifiers, in table order.
    kappa_vectors : mapping
        The dataset's named kappa vectors.
    kappa_grid : sequence of float or None
        The dataset's kappa grid (the ``kappa_grid`` rows of the pairwise table).
    settings : mapping
        The config block ``uncertainty`` (method, draws, prior, level, rope, seed).
    zero_division : {"nan", 0.0, 1.0}

    Returns
    -------
    tables : dict of DataFrame
        ``intervals``, ``ranks``, ``pairwise``, ``within``, ``posterior`` and ``table_csv``
        (the companion of the ranking table).
    matrices : ndarray, shape (D, K, C, C)
        The drawn matrices.
    """
    scope = Scope({"engine": engine, "dataset": dataset}, classifiers, kappa_vectors, zero_division)
    pooled, matrices, seed = _drawn(confusion, predictions, scope, classes, settings)
    draws = value_draws(matrices, kappa_vectors, zero_division=zero_division)
    folds = fold_matrices(confusion, classifiers, classes)
    tables = {
        "intervals": interval_table(pooled, draws, scope, settings=settings),
        "ranks": rank_table(draws, scope),
        "pairwise": pairwise_table(
            matrices, draws, scope, kappa_grid=kappa_grid, settings=settings, seed=seed
        ),
        "within": within_table(*folds, scope, rope=settings["rope"]),
        "posterior": posterior_table(draws[(PD, DEFAULT_KAPPA)], scope, rope=settings["rope"]),
    }
    tables["table_csv"] = companion_table(
        tables["intervals"], tables["ranks"], classifiers=classifiers, kappa_vectors=kappa_vectors
    )
    return tables, matrices


def _drawn(
    confusion: pd.DataFrame,
    predictions: pd.DataFrame | None,
    scope: Scope,
    classes: Sequence[str],
    settings: Mapping,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The pooled matrices (K, C, C) of :func:`dataset_tables`, their draws (D, K, C, C) and
    the seed of the engine and dataset's random stream."""
    engine, dataset = scope.keys["engine"], scope.keys["dataset"]
    by_key = pooled_matrices(confusion, {dataset: classes})
    pooled = np.stack([by_key[(engine, dataset, c)] for c in scope.classifiers])
    seed = stream_seed(settings["seed"], engine, dataset)
    matrices = draw_matrices(
        settings,
        pooled=pooled,
        predictions=predictions,
        classifiers=scope.classifiers,
        classes=classes,
        seed=seed,
    )
    return pooled, matrices, seed


__all__ = [
    "EXPLORER_DRAWS",
    "KAPPA_GRID",
    "KAPPA_UNIFORM",
    "VERDICT_THRESHOLD",
    "DEFAULT_KAPPA",
    "PD",
    "ACROSS_COLUMNS",
    "COMPANION_COLUMNS",
    "INTERVAL_COLUMNS",
    "PROBABILITY_COLUMNS",
    "POSTERIOR_COLUMNS",
    "RANK_PROBABILITY_COLUMNS",
    "WITHIN_COLUMNS",
    "POSTERIOR_BINS",
    "SIGNED_RANK_DRAWS",
    "Scope",
    "companion_table",
    "dataset_tables",
    "draw_matrices",
    "explorer_draws",
    "fold_matrices",
    "interval_table",
    "pairwise_table",
    "read_signed_rank",
    "posterior_table",
    "prediction_arrays",
    "rank_table",
    "signed_rank_table",
    "stream_seed",
    "value_draws",
    "verdict",
    "within_table",
]
