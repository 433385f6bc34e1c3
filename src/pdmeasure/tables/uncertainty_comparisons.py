"""The uncertainty step's comparisons of classifiers: probabilities, ranks and Bayesian tests.

Per engine and dataset, on the draws of :mod:`pdmeasure.tables.uncertainty_draws`:

- :func:`pairwise_table` -- per measure and ordered pair, P(a better by more than the ROPE),
  P(equivalent within it), P(a worse); and the preference-robust P(pd_a > pd_b) over the kappa
  space (columns :data:`~pdmeasure.tables.uncertainty_schema.PROBABILITY_COLUMNS`);
- :func:`posterior_table` -- the histogram of each pairwise difference of pd;
- :func:`rank_table` -- each classifier's probability of every rank;
- :func:`within_table` -- the correlated Bayesian t-test (Corani & Benavoli 2015) on the
  per-fold scores of every pair.

Across datasets: :func:`signed_rank_table`, the Bayesian signed-rank test (Benavoli et al.
2017) per engine, measure and pair.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, permutations

import numpy as np
import pandas as pd

from pdmeasure import uncertainty as unc
from pdmeasure.measures.weights import DEFAULT_KAPPA, PD
from pdmeasure.stats import lower_is_better
from pdmeasure.tables.frames import frame_from_parts
from pdmeasure.tables.measures import paired_blocks, pd_rows
from pdmeasure.tables.uncertainty_draws import Scope, stream_seed
from pdmeasure.tables.uncertainty_schema import (
    ACROSS_COLUMNS,
    KAPPA_GRID,
    KAPPA_UNIFORM,
    POSTERIOR_COLUMNS,
    PROBABILITY_COLUMNS,
    RANK_PROBABILITY_COLUMNS,
    WITHIN_COLUMNS,
    verdict,
)

#: Draws of the Bayesian signed-rank test's Dirichlet process per pair (the library default
#: is 50,000; 20,000 keep its Monte Carlo error below 0.004 at a fifth of the cost).
SIGNED_RANK_DRAWS = 20000

#: Bins of each pairwise posterior histogram (:func:`posterior_table`).
POSTERIOR_BINS = 40


def _pair_rows(keys, measure, kappa, classifiers, better, equivalent, worse, rope, method):
    return [
        {
            **keys,
            "measure": measure,
            "kappa": kappa,
            "classifier_a": classifiers[a],
            "classifier_b": classifiers[b],
            "p_better": float(better[a, b]),
            "p_equivalent": float(equivalent[a, b]),
            "p_worse": float(worse[a, b]),
            "rope": rope,
            "method": method,
        }
        for a, b in permutations(range(len(classifiers)), 2)
    ]


def pairwise_table(
    matrices: np.ndarray,
    draws: Mapping[tuple[str, str], np.ndarray],
    scope: Scope,
    *,
    kappa_grid: Sequence[float] | None,
    settings: Mapping,
    seed: int,
) -> pd.DataFrame:
    """Pairwise probabilities of every measure row, then the preference-robust rows.

    Per (measure, kappa) and ordered pair (a, b): ``p_better`` = P(a better than b by more
    than ``rope``), ``p_equivalent`` = P(|a - b| <= rope), ``p_worse`` = P(b better by more
    than ``rope``), the direction of "better" from :func:`pdmeasure.stats.lower_is_better`.
    The rows with ``measure`` pd and ``kappa`` :data:`KAPPA_UNIFORM` (and :data:`KAPPA_GRID`
    when the dataset has a grid) hold P(pd_a > pd_b) jointly over the matrix draws and kappa
    (:func:`pdmeasure.uncertainty.preference_robust`), with ``rope`` 0 and ``p_equivalent`` the
    probability of a tie.
    """
    keys, classifiers = scope.keys, scope.classifiers
    rope, method = float(settings["rope"]), settings["method"]
    rows = []
    for (measure, kappa), values in draws.items():
        better, equivalent, worse = unc.pairwise_probabilities(
            values, rope=rope, higher_is_better=not lower_is_better(measure)
        )
        rows += _pair_rows(
            keys, measure, kappa, classifiers, better, equivalent, worse, rope, method
        )
    regions: list[tuple[str, str, list[float] | None]] = [(KAPPA_UNIFORM, "uniform", None)]
    if kappa_grid is not None:
        regions.append((KAPPA_GRID, "grid", list(kappa_grid)))
    for name, region, grid in regions:
        wins = np.asarray(
            unc.preference_robust(
                matrices, region=region, grid=grid, seed=seed, zero_division=scope.zero_division
            ),
            dtype=float,
        )
        ties = 1.0 - wins - wins.T
        ties = np.where(ties < 1e-12, 0.0, ties)  # rounding of 1 - p - q, not ties
        rows += _pair_rows(keys, PD, name, classifiers, wins, ties, wins.T, 0.0, method)
    return pd.DataFrame(rows, columns=list(PROBABILITY_COLUMNS))


def posterior_table(
    values: np.ndarray,
    scope: Scope,
    *,
    rope: float,
    measure: str = PD,
    kappa: str = DEFAULT_KAPPA,
) -> pd.DataFrame:
    """The posterior of each pairwise difference ``a - b`` (a before b in order) as a
    histogram of :data:`POSTERIOR_BINS` bins (probability per bin), with the pair's
    P(a better), P(equivalent) and P(b better) of :func:`pairwise_table` repeated on its rows.

    ``values`` are the draws ``(draws, K)`` of ``measure`` at ``kappa`` (pd at the default
    kappa, the figure's measure, by default).
    """
    keys, classifiers = scope.keys, scope.classifiers
    better, equivalent, worse = unc.pairwise_probabilities(
        values, rope=rope, higher_is_better=not lower_is_better(measure)
    )
    parts = []
    for a, b in combinations(range(len(classifiers)), 2):
        diff = values[:, a] - values[:, b]
        diff = diff[np.isfinite(diff)]
        counts, edges = np.histogram(diff, bins=POSTERIOR_BINS)
        part = {
            **keys,
            "measure": measure,
            "kappa": kappa,
            "classifier_a": classifiers[a],
            "classifier_b": classifiers[b],
            "bin_lower": edges[:-1],
            "bin_upper": edges[1:],
            "probability": counts / max(len(diff), 1),
            "p_better": float(better[a, b]),
            "p_equivalent": float(equivalent[a, b]),
            "p_worse": float(worse[a, b]),
            "rope": rope,
        }
        parts.append((len(counts), part))
    return frame_from_parts(parts, POSTERIOR_COLUMNS)


def rank_table(draws: Mapping[tuple[str, str], np.ndarray], scope: Scope) -> pd.DataFrame:
    """P(classifier k has rank r), r = 1 (best) .. K, per measure row; ties share ranks."""
    keys, classifiers = scope.keys, scope.classifiers
    parts = []
    n = len(classifiers)
    for (measure, kappa), values in draws.items():
        probs = np.asarray(
            unc.rank_probabilities(values, higher_is_better=not lower_is_better(measure)),
            dtype=float,
        )
        part = {
            **keys,
            "measure": measure,
            "kappa": kappa,
            "classifier": [name for name in classifiers for _ in range(n)],
            "rank": np.tile(np.arange(1, n + 1), n),
            "probability": probs.ravel(),
        }
        parts.append((n * n, part))
    return frame_from_parts(parts, RANK_PROBABILITY_COLUMNS)


def _oriented(probs: Sequence[float], measure: str) -> tuple[float, float, float]:
    """baycomp's (p_left, p_rope, p_right) of ``y - x`` as (P(x better), P(equal), P(y better)).

    The library follows baycomp: "right" is ``y - x > rope``, y's score the larger.
    """
    left, rope, right = (float(p) for p in probs)
    return (right, rope, left) if lower_is_better(measure) else (left, rope, right)


def within_table(folds: np.ndarray, runs: int, scope: Scope, *, rope: float) -> pd.DataFrame:
    """The correlated Bayesian t-test on the per-fold scores of every pair (a < b in order).

    ``folds`` is (K, F, C, C) from
    :func:`~pdmeasure.tables.uncertainty_draws.fold_matrices`; the scores are every registry
    measure and pd row, computed per fold (pd's default kappa is each fold's class shares).
    ``runs`` is the number of CV repeats (the test's correlation is 1 / folds per repeat).
    A pair with a NaN fold score (``zero_division: nan``) gets NaN probabilities.
    """
    keys, classifiers = scope.keys, scope.classifiers
    n_classifiers, n_folds = folds.shape[:2]
    flat = folds.reshape(n_classifiers * n_folds, *folds.shape[2:])
    rows = []
    for measure, kappa, _, values in pd_rows(
        flat, dict(scope.kappa_vectors), zero_division=scope.zero_division
    ):
        scores = np.asarray(values, dtype=float).reshape(n_classifiers, n_folds)
        for a, b in combinations(range(n_classifiers), 2):
            x, y = scores[a], scores[b]
            if np.isnan(x).any() or np.isnan(y).any():
                probs = (np.nan, np.nan, np.nan)
            else:
                probs = _oriented(unc.correlated_ttest(x, y, rope=rope, runs=runs), measure)
            rows.append(
                {
                    **keys,
                    "measure": measure,
                    "kappa": kappa,
                    "classifier_a": classifiers[a],
                    "classifier_b": classifiers[b],
                    "p_a_better": probs[0],
                    "p_equivalent": probs[1],
                    "p_b_better": probs[2],
                    "rope": rope,
                    "n_folds": n_folds,
                    "runs": runs,
                    "verdict": verdict(*probs, classifiers[a], classifiers[b]),
                }
            )
    return pd.DataFrame(rows, columns=list(WITHIN_COLUMNS))


def signed_rank_table(
    measures_frame: pd.DataFrame,
    *,
    comparisons: Sequence[tuple[str, str]],
    classifiers: Mapping[str, Sequence[str]],
    rope: float,
    seed: int,
) -> pd.DataFrame:
    """The Bayesian signed-rank test per engine, compared (measure, kappa) and pair (a < b).

    One pair's scores are its two classifiers' values on every dataset where both are
    defined (``measures.csv``); ``comparisons`` are the (measure, kappa) keys compared across
    datasets (:func:`pdmeasure.tables.stats.comparison_keys`). Fewer than two datasets
    give NaN probabilities and the verdict ``no data``. Each test's seed is
    :func:`stream_seed` of ``seed`` and its engine, measure, kappa and pair.
    """
    rows = []
    for engine, names in classifiers.items():
        sub = measures_frame[measures_frame["engine"] == engine]
        for measure, kappa, a, b, x, y in paired_blocks(sub, comparisons, list(names)):
            rows.append(_signed_rank_row((x, y), engine, measure, kappa, a, b, rope, seed))
    return pd.DataFrame(rows, columns=list(ACROSS_COLUMNS))


def _signed_rank_row(pair, engine, measure, kappa, a, b, rope, seed) -> dict:
    """One test's row: ``pair`` holds a's and b's scores on the datasets where both have one."""
    x, y = pair
    probs: tuple[float, float, float] = (np.nan, np.nan, np.nan)
    if len(x) >= 2:
        own = stream_seed(seed, engine, measure, kappa, a, b)
        probs = _oriented(
            unc.signed_rank(x, y, rope=rope, draws=SIGNED_RANK_DRAWS, seed=own), measure
        )
    return {
        "engine": engine,
        "measure": measure,
        "kappa": kappa,
        "classifier_a": a,
        "classifier_b": b,
        "p_a_better": probs[0],
        "p_equivalent": probs[1],
        "p_b_better": probs[2],
        "rope": rope,
        "n_datasets": len(x),
        "verdict": verdict(*probs, a, b),
    }
