"""Post-hoc tests across datasets: Nemenyi, Holm against a control, pairwise Wilcoxon.

After Demsar (2006, Sec. 3.2.2) and Stapor (2017, Sec. IV). Holm's step-down adjustment is
written out because scipy has none (it offers Benjamini-Hochberg/Yekutieli in
``false_discovery_control``; statsmodels has Holm but is not a runtime dependency).
Distributions: :mod:`scipy.stats` ``studentized_range``, ``norm`` and ``wilcoxon``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure.stats.ranks import average_ranks, better_classifier, check_scores

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def holm(p_values: ArrayLike) -> np.ndarray:
    r"""Holm's step-down adjusted p-values (Holm 1979; Demsar 2006, Sec. 3.2.2).

    With the m p-values sorted increasingly, ``p_adj(i) = max_{j <= i} min(1, (m-j+1) p(j))``;
    hypothesis i is rejected at level alpha iff ``p_adj(i) <= alpha``. NaN p-values are left
    NaN and do not count in m. (scipy has no Holm adjustment; see the module docstring.)
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    m = valid.size
    if m == 0:
        return out
    order = valid[np.argsort(p[valid], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(scaled)
    return out


def nemenyi_critical_difference(n_classifiers: int, n_datasets: int, alpha: float) -> float:
    r"""Nemenyi's critical difference (Demsar 2006, eq. 5).

    ``CD = q_alpha sqrt(K(K+1) / (6N))`` with ``q_alpha`` the studentized range quantile
    ``q(1 - alpha; K, inf) / sqrt(2)`` (Demsar's Table 5a: 2.569 for K = 4 at 0.05).
    """
    k, n = int(n_classifiers), int(n_datasets)
    if k < 2 or n < 1:
        raise ValueError(f"need K >= 2 classifiers and N >= 1 datasets, got K={k}, N={n}")
    return float(_studentized_range_quantile(1.0 - alpha, k) * math.sqrt(k * (k + 1) / (6.0 * n)))


@functools.lru_cache(maxsize=64)
def _studentized_range_quantile(level: float, k: int) -> float:
    """``q(level; K, inf) / sqrt(2)``. Cached: a run asks for the same few (level, K) for
    every measure, and each quantile is a numerical integration of about 10 ms."""
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    return float(ss.studentized_range.ppf(level, k, np.inf) / math.sqrt(2.0))


def _check_names(names: Sequence[str], k: int) -> None:
    if len(names) != k or len(set(names)) != k:
        raise ValueError(f"need {k} distinct classifier names, got {list(names)}")


def _ranked(
    scores, names: Sequence[str], lower_is_better: bool
) -> tuple[int, int, np.ndarray, float]:
    """N, K, the average ranks and the standard error ``sqrt(K(K+1)/(6N))`` of a difference
    of two average ranks (Stapor), after checking scores and names."""
    arr = check_scores(scores)
    n, k = arr.shape
    _check_names(names, k)
    r = average_ranks(arr, lower_is_better=lower_is_better)
    return n, k, r, math.sqrt(k * (k + 1) / (6.0 * n))


def nemenyi(
    scores: ArrayLike, names: Sequence[str], *, alpha: float, lower_is_better: bool = False
) -> list[dict]:
    r"""All-pairs Nemenyi test on average ranks (Demsar 2006, Sec. 3.2.2).

    The p-value of a pair is ``P(q > |R_a - R_b| sqrt(2) / SE)`` under the studentized range
    with K groups and infinite degrees of freedom (as in scikit-posthocs'
    ``posthoc_nemenyi_friedman``); it already controls the family-wise error, so
    ``p_adjusted = p_value``. A pair differs iff ``|R_a - R_b| >= CD``.

    Returns
    -------
    list of dict
        One record per pair (``pandas.DataFrame(records)`` makes the table) (``classifier_a`` before ``classifier_b`` in ``names`` order):
        ``statistic`` = ``|R_a - R_b|``, ``p_value``, ``p_adjusted``, ``significant``,
        ``better``, ``min_p``, ``note`` (which carries the CD).
    """
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    n, k, r, se = _ranked(scores, names, lower_is_better)
    cd = nemenyi_critical_difference(k, n, alpha)
    min_p = float(ss.studentized_range.sf((k - 1) / se * math.sqrt(2.0), k, np.inf))
    note = f"CD = {cd:.3f} at alpha = {alpha:g}; largest possible rank difference {k - 1}"
    if cd > k - 1:
        note += f": no pair can differ with N = {n}"
    rows = []
    for i, j in combinations(range(k), 2):
        diff = abs(r[i] - r[j])
        p = float(ss.studentized_range.sf(diff / se * math.sqrt(2.0), k, np.inf))
        rows.append(
            {
                "test": "nemenyi",
                "classifier_a": names[i],
                "classifier_b": names[j],
                "statistic": float(diff),
                "p_value": p,
                "p_adjusted": p,
                "significant": bool(p <= alpha),
                # ranks: lower average rank is better whatever the measure's direction
                "better": better_classifier(names[i], names[j], r[i] - r[j], True),
                "min_p": min_p,
                "note": note,
            }
        )
    return rows


def holm_control(
    scores: ArrayLike, names: Sequence[str], *, alpha: float, lower_is_better: bool = False
) -> list[dict]:
    r"""The best-ranked classifier against every other, z-test with Holm (Stapor Sec. IV).

    ``z = (R_j - R_control) / sqrt(K(K+1)/(6N))``, two-sided normal p-value, Holm's
    step-down adjustment over the K - 1 comparisons. The control is the classifier with
    the lowest average rank (the first in ``names`` order on a tie).
    """
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    n, k, r, se = _ranked(scores, names, lower_is_better)
    control = int(np.argmin(r))
    others = [j for j in range(k) if j != control]
    z = np.array([(r[j] - r[control]) / se for j in others])
    p = 2.0 * ss.norm.sf(np.abs(z))
    adjusted = holm(p)
    min_p = float(min(1.0, (k - 1) * 2.0 * ss.norm.sf((k - 1) / se)))
    note = f"control = {names[control]} (best average rank {r[control]:.3f})"
    if min_p > alpha:
        note += f"; with N = {n} no comparison can reach alpha = {alpha:g}"
    return [
        {
            "test": "holm_control",
            "classifier_a": names[control],
            "classifier_b": names[j],
            "statistic": float(z[i]),
            "p_value": float(p[i]),
            "p_adjusted": float(adjusted[i]),
            "significant": bool(adjusted[i] <= alpha),
            "better": better_classifier(names[control], names[j], r[control] - r[j], True),
            "min_p": min_p,
            "note": note,
        }
        for i, j in enumerate(others)
    ]


def wilcoxon_signed_rank(x: ArrayLike, y: ArrayLike) -> tuple[float, float]:
    r"""Two-sided Wilcoxon signed-rank test of paired samples (Stapor Sec. IV; Demsar 3.1.3).

    ``T = min(R+, R-)`` where zero differences are ranked and their ranks split evenly
    between ``R+`` and ``R-`` (``zero_method="zsplit"``). The p-value is
    :func:`scipy.stats.wilcoxon`'s: exact for N <= 50 without ties or zeros, an exhaustive
    permutation for N <= 13 otherwise, the normal approximation above. All-zero differences
    give ``(T, 1.0)``.

    Returns
    -------
    (float, float)
        ``T`` and the p-value.
    """
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size == 0:
        raise ValueError(
            f"x and y must be 1-d of the same non-zero length, got {x.shape}, {y.shape}"
        )
    d = x - y
    if not np.any(d):
        return float(d.size * (d.size + 1) / 4.0), 1.0
    result = ss.wilcoxon(d, zero_method="zsplit", alternative="two-sided")
    return float(result.statistic), float(result.pvalue)


def wilcoxon_min_p(n: int) -> float:
    """Smallest two-sided exact Wilcoxon p-value with n pairs and no ties: ``2 / 2**n``."""
    return min(1.0, 2.0 ** (1 - n))


def wilcoxon_pairwise(
    scores: ArrayLike, names: Sequence[str], *, alpha: float, lower_is_better: bool = False
) -> list[dict]:
    """Wilcoxon signed-rank test of every pair over the datasets, Holm-corrected.

    Stapor recommends it as the post-hoc test whose outcome depends only on the two
    classifiers compared. ``better`` is the classifier with the better median measure value
    difference (the sign of the median of ``a - b``, oriented by the measure's direction).
    """
    arr = check_scores(scores)
    n, k = arr.shape
    _check_names(names, k)
    pairs = list(combinations(range(k), 2))
    results = [wilcoxon_signed_rank(arr[:, i], arr[:, j]) for i, j in pairs]
    adjusted = holm([p for _, p in results])
    n_pairs = len(pairs)
    min_p = min(1.0, n_pairs * wilcoxon_min_p(n))
    note = ""
    if wilcoxon_min_p(n) > alpha:
        need = int(math.ceil(1.0 - math.log2(alpha)))
        note = (
            f"N = {n}: the exact two-sided test cannot reach p <= {alpha:g} (smallest "
            f"p = {wilcoxon_min_p(n):.4g}); it needs N >= {need}"
        )
    elif min_p > alpha:
        note = (
            f"N = {n}: after Holm over {n_pairs} pairs no pair can reach {alpha:g} "
            f"(smallest adjusted p = {min_p:.4g})"
        )
    rows = []
    for (i, j), (t, p), p_adj in zip(pairs, results, adjusted):
        median = float(np.median(arr[:, i] - arr[:, j]))
        rows.append(
            {
                "test": "wilcoxon_holm",
                "classifier_a": names[i],
                "classifier_b": names[j],
                "statistic": t,
                "p_value": p,
                "p_adjusted": float(p_adj),
                "significant": bool(p_adj <= alpha),
                "better": better_classifier(names[i], names[j], median, lower_is_better),
                "min_p": min_p,
                "note": note,
            }
        )
    return rows
