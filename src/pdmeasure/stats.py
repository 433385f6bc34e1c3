r"""Statistical comparison of classifiers: omnibus, post-hoc and paired tests.

The procedure is the one reviewed by Stapor (2017, ``stapor-classifier-evaluation.md``),
itself after Demsar (2006, JMLR 7:1-30) and Garcia et al. (2010, Inf. Sci. 180:2044-2064):

* **Across datasets** (N datasets = blocks, K classifiers = treatments): average ranks,
  the Friedman chi-square with the Iman-Davenport F, Friedman aligned ranks and the Quade
  test; post-hoc Nemenyi (critical difference), Holm against the best-ranked classifier and
  pairwise Wilcoxon signed-rank tests with Holm's correction.
* **Within one dataset** (repeated cross-validation): the corrected resampled t-test of
  Nadeau and Bengio (2003), the 5x2cv paired t-test (Dietterich 1998) and its combined F
  version (Alpaydin 1999), and McNemar's test on per-sample predictions.

Every test returns its p-value *and* the smallest p-value it could possibly produce with the
given N and K (``min_p``), so that a table says plainly when N is too small for a test to
ever reach significance instead of silently reporting "not significant".

Distributions come from :mod:`scipy.stats` (``chi2``, ``f``, ``t``, ``norm``,
``studentized_range``, ``binomtest``, ``wilcoxon``, ``rankdata``). Two pieces are written out
because scipy has no function for them: the rank statistics of the aligned-ranks and Quade
tests, and Holm's step-down adjustment (scipy only offers Benjamini-Hochberg/Yekutieli in
``false_discovery_control``; statsmodels has Holm but is not a runtime dependency).

Ranks: rank 1 is the best classifier; ties get average ranks. Whether a measure is better
high or low comes from :func:`lower_is_better`.

Pipeline layer (tidy tables, written by ``workflow/rules/stats.smk``):
:func:`compare_across_datasets` (``measures.csv`` -> ranks, omnibus, post-hoc and CD tables),
:func:`cross_validate_5x2` (the extra 5 x 2-fold CV through the engine interface),
:func:`fold_measure_values` and :func:`compare_within_dataset` (predictions -> per-fold
measures -> paired tests), :func:`significance_table`, :func:`significance_markdown` and
:func:`stats_report` (Markdown).
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats as ss

from . import measures
from .confusion import confusion_matrix
from .io import text_to_float
from .measure_table import DEFAULT_KAPPA, NO_KAPPA, PD, parse_kappa

#: Measures that are better when lower, used only if the measures registry does not say.
LOWER_IS_BETTER_FALLBACK = frozenset({"error_rate", "cen"})

#: Test names, as written in the ``test`` column of the output tables.
OMNIBUS_TESTS = ("friedman", "iman_davenport", "friedman_aligned_ranks", "quade")
POSTHOC_TESTS = ("nemenyi", "holm_control", "wilcoxon_holm")
WITHIN_TESTS = ("corrected_t", "cv5x2_t", "cv5x2_f", "mcnemar")

#: Measures on which McNemar's test (a test of error rates) is reported.
MCNEMAR_MEASURES = ("accuracy", "error_rate")

#: Demsar (2006, Sec. 3.2.2): the chi-square approximation of Friedman's statistic needs
#: "N > 10 and k > 5"; below that the table says so.
FRIEDMAN_MIN_N = 11
FRIEDMAN_MIN_K = 6

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


class NaNExcludedWarning(UserWarning):
    """A NaN measure value was left out of a test (the message names it)."""


# --------------------------------------------------------------------------------------
# Direction and ranks
# --------------------------------------------------------------------------------------


def lower_is_better(measure: str) -> bool:
    """Whether smaller values of ``measure`` are better.

    Read from the registry's ``pdmeasure.measures.INFO[measure].higher_is_better``; a
    measure the registry does not describe falls back to :data:`LOWER_IS_BETTER_FALLBACK`
    (error rate and CEN; every other measure of the papers is better when higher).
    """
    info = getattr(measures, "INFO", {}).get(measure)
    if info is not None:
        return not bool(info.higher_is_better)
    return measure in LOWER_IS_BETTER_FALLBACK


def _scores(scores, name: str = "scores") -> np.ndarray:
    arr = np.asarray(scores, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array (datasets x classifiers), got {arr.shape}")
    if arr.shape[1] < 2:
        raise ValueError(f"{name} needs at least 2 classifiers (columns), got {arr.shape[1]}")
    if arr.shape[0] < 1:
        raise ValueError(f"{name} needs at least 1 dataset (row)")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contain NaN; drop or impute those datasets first")
    return arr


def rank_scores(scores, *, lower_is_better: bool = False) -> np.ndarray:
    """Rank the classifiers within each dataset: 1 = best, ties get the average rank.

    Parameters
    ----------
    scores : array_like, shape (N, K)
        Measure value of classifier j on dataset i.
    lower_is_better : bool
        Direction of the measure.

    Returns
    -------
    numpy.ndarray, shape (N, K)
        Ranks ``r_ij`` of Demsar (2006), via :func:`scipy.stats.rankdata`.
    """
    arr = _scores(scores)
    return ss.rankdata(arr if lower_is_better else -arr, method="average", axis=1)


def average_ranks(scores, *, lower_is_better: bool = False) -> np.ndarray:
    """``R_j = (1/N) sum_i r_ij`` (Stapor, Sec. IV), shape (K,)."""
    return rank_scores(scores, lower_is_better=lower_is_better).mean(axis=0)


# --------------------------------------------------------------------------------------
# Omnibus tests
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TestResult:
    """One test: its statistic, degrees of freedom, p-value and what N allows.

    ``min_p`` is the smallest p-value the test can give with this N and K (NaN when it has
    no simple closed form); ``note`` explains in words when N is below what the test needs.
    """

    test: str
    statistic: float
    df1: float
    df2: float
    p_value: float
    n_datasets: int
    n_classifiers: int
    min_p: float = math.nan
    note: str = ""

    __test__ = False  # not a pytest test class

    def as_row(self) -> dict:
        return asdict(self)


def _friedman_note(n: int, k: int) -> str:
    if n >= FRIEDMAN_MIN_N and k >= FRIEDMAN_MIN_K:
        return ""
    return (f"N={n} datasets, K={k} classifiers: below the N > 10, K > 5 that the "
            f"chi-square approximation needs (Demsar 2006), so the p-value is approximate")


def friedman(scores, *, lower_is_better: bool = False,
             tie_correction: bool = False) -> tuple[TestResult, TestResult]:
    r"""Friedman's chi-square and the Iman-Davenport F (Stapor Sec. IV; Demsar eq. 2-3).

    .. math::

        \chi^2_F = \frac{12N}{K(K+1)}\Big[\sum_j R_j^2 - \frac{K(K+1)^2}{4}\Big],\qquad
        F_F = \frac{(N-1)\chi^2_F}{N(K-1) - \chi^2_F}

    with ``K - 1`` degrees of freedom for the chi-square and ``(K-1, (K-1)(N-1))`` for F.

    Parameters
    ----------
    scores : array_like, shape (N, K)
    lower_is_better : bool
    tie_correction : bool, default False
        Divide chi-square by ``1 - sum(t^3 - t) / (N K (K^2 - 1))`` (t = size of each group of
        tied values within a dataset), as :func:`scipy.stats.friedmanchisquare` does. The
        default follows Demsar and Stapor, who do not correct (Demsar's 9.28).

    Returns
    -------
    (TestResult, TestResult)
        ``friedman`` and ``iman_davenport``. When every dataset ranks the classifiers
        identically, ``chi2 = N(K-1)`` and ``F_F`` is infinite (p = 0).
    """
    ranks = rank_scores(scores, lower_is_better=lower_is_better)
    n, k = ranks.shape
    r = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4.0)
    if tie_correction:
        ties = sum(float(np.sum(c**3 - c)) for c in
                   (np.unique(row, return_counts=True)[1] for row in ranks))
        denominator = 1.0 - ties / (n * k * (k * k - 1))
        chi2 = chi2 / denominator if denominator > 0 else math.nan
    chi2 = max(float(chi2), 0.0)  # rounding can give -1e-15 when all ranks are equal
    p_chi2 = float(ss.chi2.sf(chi2, k - 1))
    chi2_max = n * (k - 1.0)
    note = _friedman_note(n, k)
    first = TestResult("friedman", chi2, k - 1.0, math.nan, p_chi2, n, k,
                       float(ss.chi2.sf(chi2_max, k - 1)), note)
    df2 = (k - 1.0) * (n - 1.0)
    gap = chi2_max - chi2
    if n < 2:
        ff, p_ff = math.nan, math.nan
    elif gap <= 1e-12 * chi2_max:
        ff, p_ff = math.inf, 0.0
    else:
        ff = (n - 1.0) * chi2 / gap
        p_ff = float(ss.f.sf(ff, k - 1.0, df2))
    second = TestResult("iman_davenport", float(ff), k - 1.0, df2, p_ff, n, k, 0.0,
                        "F approximation (Iman and Davenport 1980); less conservative than "
                        "the chi-square" + (f"; {note}" if note else ""))
    return first, second


def friedman_aligned_ranks(scores, *, lower_is_better: bool = False) -> TestResult:
    r"""Friedman aligned ranks test (Hodges and Lehmann 1962; Garcia et al. 2010, Sec. 3.1).

    Each value minus its dataset's mean is an aligned observation; all ``KN`` of them are
    ranked together (rank 1 = best, ties averaged). With ``\hat R_j`` the rank total of
    classifier j and ``\hat R_i`` that of dataset i,

    .. math::

        T = \frac{(K-1)\big[\sum_j \hat R_j^2 - (KN^2/4)(KN+1)^2\big]}
                 {KN(KN+1)(2KN+1)/6 - (1/K)\sum_i \hat R_i^2}

    compared with a chi-square with ``K - 1`` degrees of freedom. ``T`` does not depend on
    the direction of the measure (reversing all ranks leaves both sums of squares unchanged).
    Stapor recommends it over Friedman for five or fewer classifiers.
    """
    arr = _scores(scores)
    n, k = arr.shape
    aligned = arr - arr.mean(axis=1, keepdims=True)
    ranks = ss.rankdata(aligned if lower_is_better else -aligned, method="average").reshape(n, k)
    kn = k * n
    numerator = (k - 1) * (np.sum(ranks.sum(axis=0) ** 2) - (kn * n / 4.0) * (kn + 1) ** 2)
    denominator = kn * (kn + 1) * (2 * kn + 1) / 6.0 - np.sum(ranks.sum(axis=1) ** 2) / k
    if denominator <= 0:
        stat, p = math.nan, math.nan
        note = "every aligned observation is tied; the statistic is undefined"
    else:
        stat = max(float(numerator / denominator), 0.0)
        p = float(ss.chi2.sf(stat, k - 1))
        note = (f"chi-square approximation; with N={n} datasets treat the p-value as indicative"
                if n < FRIEDMAN_MIN_N else "")
    return TestResult("friedman_aligned_ranks", stat, k - 1.0, math.nan, p, n, k, math.nan,
                      note)


def quade(scores, *, lower_is_better: bool = False) -> TestResult:
    r"""Quade's test (Quade 1979; Conover 1999, p. 373; Garcia et al. 2010, Sec. 3.2).

    Within-dataset ranks ``r_ij`` (ties averaged) are weighted by the rank ``Q_i`` of the
    dataset's range ``max_j x_ij - min_j x_ij`` among the N datasets:
    ``S_ij = Q_i (r_ij - (K+1)/2)``, ``A = sum S_ij^2``, ``B = (1/N) sum_j S_j^2`` and

    .. math:: F = \frac{(N-1) B}{A - B} \sim F(K-1, (K-1)(N-1)).

    This is R's ``quade.test`` (its ``A`` keeps the tie correction); the test does not depend
    on the direction of the measure. When ``A = B`` (every dataset ranks the classifiers
    identically) F is infinite and p = 0.
    """
    arr = _scores(scores)
    n, k = arr.shape
    ranks = ss.rankdata(arr if lower_is_better else -arr, method="average", axis=1)
    q = ss.rankdata(arr.max(axis=1) - arr.min(axis=1), method="average")
    s = q[:, None] * (ranks - (k + 1) / 2.0)
    a = float(np.sum(s**2))
    b = float(np.sum(s.sum(axis=0) ** 2) / n)
    df1, df2 = k - 1.0, (k - 1.0) * (n - 1.0)
    if a == 0.0:
        stat, p, note = math.nan, math.nan, "no classifier differs on any dataset"
    elif n < 2:
        stat, p, note = math.nan, math.nan, "needs at least 2 datasets"
    elif a - b <= 1e-12 * a:
        stat, p, note = math.inf, 0.0, ""
    else:
        stat = (n - 1.0) * b / (a - b)
        p = float(ss.f.sf(stat, df1, df2))
        note = ""
    if not note and n < FRIEDMAN_MIN_N:
        note = f"F approximation; with N={n} datasets treat the p-value as indicative"
    return TestResult("quade", float(stat), df1, df2, p, n, k, 0.0, note)


# --------------------------------------------------------------------------------------
# Multiple comparisons
# --------------------------------------------------------------------------------------


def holm(p_values) -> np.ndarray:
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
    q_alpha = ss.studentized_range.ppf(1.0 - alpha, k, np.inf) / math.sqrt(2.0)
    return float(q_alpha * math.sqrt(k * (k + 1) / (6.0 * n)))


def _rank_se(k: int, n: int) -> float:
    """Standard error of a difference of average ranks, ``sqrt(K(K+1)/(6N))`` (Stapor)."""
    return math.sqrt(k * (k + 1) / (6.0 * n))


def _better(a: str, b: str, difference: float, lower: bool) -> str:
    if not np.isfinite(difference) or difference == 0:
        return ""
    return a if (difference < 0) == lower else b


def nemenyi(scores, names: Sequence[str], *, alpha: float,
            lower_is_better: bool = False) -> pd.DataFrame:
    r"""All-pairs Nemenyi test on average ranks (Demsar 2006, Sec. 3.2.2).

    The p-value of a pair is ``P(q > |R_a - R_b| sqrt(2) / SE)`` under the studentized range
    with K groups and infinite degrees of freedom (as in scikit-posthocs'
    ``posthoc_nemenyi_friedman``); it already controls the family-wise error, so
    ``p_adjusted = p_value``. A pair differs iff ``|R_a - R_b| >= CD``.

    Returns
    -------
    DataFrame
        One row per pair (``classifier_a`` before ``classifier_b`` in ``names`` order):
        ``statistic`` = |R_a - R_b|, ``p_value``, ``p_adjusted``, ``significant``,
        ``better``, ``min_p``, ``note`` (which carries the CD).
    """
    arr = _scores(scores)
    n, k = arr.shape
    _check_names(names, k)
    r = average_ranks(arr, lower_is_better=lower_is_better)
    se = _rank_se(k, n)
    cd = nemenyi_critical_difference(k, n, alpha)
    min_p = float(ss.studentized_range.sf((k - 1) / se * math.sqrt(2.0), k, np.inf))
    note = f"CD = {cd:.3f} at alpha = {alpha:g}; largest possible rank difference {k - 1}"
    if cd > k - 1:
        note += f": no pair can differ with N = {n}"
    rows = []
    for i, j in combinations(range(k), 2):
        diff = abs(r[i] - r[j])
        p = float(ss.studentized_range.sf(diff / se * math.sqrt(2.0), k, np.inf))
        rows.append({"test": "nemenyi", "classifier_a": names[i], "classifier_b": names[j],
                     "statistic": float(diff), "p_value": p, "p_adjusted": p,
                     "significant": bool(p <= alpha),
                     # ranks: lower average rank is better whatever the measure's direction
                     "better": _better(names[i], names[j], r[i] - r[j], True),
                     "min_p": min_p, "note": note})
    return pd.DataFrame(rows)


def holm_control(scores, names: Sequence[str], *, alpha: float,
                 lower_is_better: bool = False) -> pd.DataFrame:
    r"""The best-ranked classifier against every other, z-test with Holm (Stapor Sec. IV).

    ``z = (R_j - R_control) / sqrt(K(K+1)/(6N))``, two-sided normal p-value, Holm's
    step-down adjustment over the K - 1 comparisons. The control is the classifier with
    the lowest average rank (the first in ``names`` order on a tie).
    """
    arr = _scores(scores)
    n, k = arr.shape
    _check_names(names, k)
    r = average_ranks(arr, lower_is_better=lower_is_better)
    se = _rank_se(k, n)
    control = int(np.argmin(r))
    others = [j for j in range(k) if j != control]
    z = np.array([(r[j] - r[control]) / se for j in others])
    p = 2.0 * ss.norm.sf(np.abs(z))
    adjusted = holm(p)
    min_p = float(min(1.0, (k - 1) * 2.0 * ss.norm.sf((k - 1) / se)))
    note = f"control = {names[control]} (best average rank {r[control]:.3f})"
    if min_p > alpha:
        note += f"; with N = {n} no comparison can reach alpha = {alpha:g}"
    return pd.DataFrame([
        {"test": "holm_control", "classifier_a": names[control], "classifier_b": names[j],
         "statistic": float(z[i]), "p_value": float(p[i]), "p_adjusted": float(adjusted[i]),
         "significant": bool(adjusted[i] <= alpha),
         "better": _better(names[control], names[j], r[control] - r[j], True),
         "min_p": min_p, "note": note}
        for i, j in enumerate(others)
    ])


def wilcoxon_signed_rank(x, y) -> tuple[float, float]:
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
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size == 0:
        raise ValueError(f"x and y must be 1-d of the same non-zero length, got {x.shape}, "
                         f"{y.shape}")
    d = x - y
    if not np.any(d):
        return float(d.size * (d.size + 1) / 4.0), 1.0
    result = ss.wilcoxon(d, zero_method="zsplit", alternative="two-sided")
    return float(result.statistic), float(result.pvalue)


def wilcoxon_min_p(n: int) -> float:
    """Smallest two-sided exact Wilcoxon p-value with n pairs and no ties: ``2 / 2**n``."""
    return min(1.0, 2.0 ** (1 - n))


def wilcoxon_pairwise(scores, names: Sequence[str], *, alpha: float,
                      lower_is_better: bool = False) -> pd.DataFrame:
    """Wilcoxon signed-rank test of every pair over the datasets, Holm-corrected.

    Stapor recommends it as the post-hoc test whose outcome depends only on the two
    classifiers compared. ``better`` is the classifier with the better median measure value
    difference (the sign of the median of ``a - b``, oriented by the measure's direction).
    """
    arr = _scores(scores)
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
        note = (f"N = {n}: the exact two-sided test cannot reach p <= {alpha:g} (smallest "
                f"p = {wilcoxon_min_p(n):.4g}); it needs N >= {need}")
    elif min_p > alpha:
        note = (f"N = {n}: after Holm over {n_pairs} pairs no pair can reach {alpha:g} "
                f"(smallest adjusted p = {min_p:.4g})")
    rows = []
    for (i, j), (t, p), p_adj in zip(pairs, results, adjusted):
        median = float(np.median(arr[:, i] - arr[:, j]))
        rows.append({"test": "wilcoxon_holm", "classifier_a": names[i],
                     "classifier_b": names[j], "statistic": t, "p_value": p,
                     "p_adjusted": float(p_adj), "significant": bool(p_adj <= alpha),
                     "better": _better(names[i], names[j], median, lower_is_better),
                     "min_p": min_p, "note": note})
    return pd.DataFrame(rows)


def _check_names(names: Sequence[str], k: int) -> None:
    if len(names) != k or len(set(names)) != k:
        raise ValueError(f"need {k} distinct classifier names, got {list(names)}")


# --------------------------------------------------------------------------------------
# Tests within one dataset
# --------------------------------------------------------------------------------------


class PairedResult(NamedTuple):
    """Result of a two-classifier test on one dataset."""

    statistic: float
    df1: float
    df2: float
    p_value: float
    n: int
    note: str = ""


def corrected_resampled_ttest(differences, test_train_ratio: float) -> PairedResult:
    r"""Corrected resampled t-test (Nadeau and Bengio 2003; Stapor Sec. IV).

    .. math::

        t = \frac{\bar A}{\sqrt{\big(\frac1m + \frac{N_{test}}{N_{train}}\big)
             \sum_i \frac{(A^{(i)} - \bar A)^2}{m - 1}}}

    on the m per-fold differences ``A^(i)`` (m = folds x repeats, Bouckaert and Frank 2004),
    two-sided, ``m - 1`` degrees of freedom. With ``test_train_ratio = 0`` this is the
    ordinary paired t-test.
    """
    d = np.asarray(differences, dtype=float).ravel()
    if np.isnan(d).any():
        raise ValueError("differences contain NaN; drop those folds first")
    if not test_train_ratio >= 0:
        raise ValueError(f"test_train_ratio must be >= 0, got {test_train_ratio}")
    m = d.size
    if m < 2:
        return PairedResult(math.nan, math.nan, math.nan, math.nan, m, "needs at least 2 folds")
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    if var == 0.0:
        t, p = (0.0, 1.0) if mean == 0.0 else (math.copysign(math.inf, mean), 0.0)
        return PairedResult(t, m - 1.0, math.nan, p, m, "identical difference on every fold")
    t = mean / math.sqrt((1.0 / m + test_train_ratio) * var)
    return PairedResult(t, m - 1.0, math.nan, float(2.0 * ss.t.sf(abs(t), m - 1)), m)


def _check_5x2(differences) -> np.ndarray:
    d = np.asarray(differences, dtype=float)
    if d.shape != (5, 2):
        raise ValueError(f"the 5x2cv tests need a (5 repetitions, 2 folds) array, got {d.shape}")
    if np.isnan(d).any():
        raise ValueError("the 5x2cv differences contain NaN")
    return d


def paired_ttest_5x2cv(differences) -> PairedResult:
    r"""Dietterich's (1998) 5x2cv paired t-test.

    ``differences[i, j]`` = measure of A minus measure of B on fold j of repetition i. With
    ``s_i^2 = sum_j (p_ij - \bar p_i)^2``,

    .. math:: t = p_{11} / \sqrt{\tfrac15 \sum_i s_i^2} \sim t_5 .
    """
    d = _check_5x2(differences)
    s2 = np.sum((d - d.mean(axis=1, keepdims=True)) ** 2, axis=1)
    denominator = math.sqrt(s2.mean())
    if denominator == 0.0:
        t, p = (0.0, 1.0) if d[0, 0] == 0 else (math.copysign(math.inf, d[0, 0]), 0.0)
        return PairedResult(t, 5.0, math.nan, p, 10, "no variance within any repetition")
    t = float(d[0, 0] / denominator)
    return PairedResult(t, 5.0, math.nan, float(2.0 * ss.t.sf(abs(t), 5)), 10)


def combined_ftest_5x2cv(differences) -> PairedResult:
    r"""Alpaydin's (1999) combined 5x2cv F test, more robust than the 5x2cv t-test.

    .. math:: F = \frac{\sum_i \sum_j p_{ij}^2}{2 \sum_i s_i^2} \sim F(10, 5).
    """
    d = _check_5x2(differences)
    s2 = np.sum((d - d.mean(axis=1, keepdims=True)) ** 2, axis=1)
    numerator = float(np.sum(d**2))
    if s2.sum() == 0.0:
        f, p = (0.0, 1.0) if numerator == 0 else (math.inf, 0.0)
        return PairedResult(f, 10.0, 5.0, p, 10, "no variance within any repetition")
    f = numerator / (2.0 * float(s2.sum()))
    return PairedResult(f, 10.0, 5.0, float(ss.f.sf(f, 10, 5)), 10)


def mcnemar(correct_a, correct_b, *, exact_below: int = 25) -> PairedResult:
    r"""McNemar's test on paired per-sample correctness (Dietterich 1998, Sec. 3.1).

    ``b`` = samples A gets right and B wrong, ``c`` = the reverse. If ``b + c < exact_below``
    the exact two-sided binomial test of ``b ~ Bin(b + c, 1/2)``
    (:func:`scipy.stats.binomtest`) is used and ``statistic = b``; otherwise the chi-square
    with continuity correction ``(|b - c| - 1)^2 / (b + c)`` with 1 degree of freedom.
    ``n = b + c``.
    """
    a = np.asarray(correct_a, dtype=bool)
    b_ = np.asarray(correct_b, dtype=bool)
    if a.shape != b_.shape or a.ndim != 1:
        raise ValueError(f"correct_a and correct_b must be 1-d of equal length, got {a.shape}, "
                         f"{b_.shape}")
    b = int(np.sum(a & ~b_))
    c = int(np.sum(~a & b_))
    n = b + c
    counts = f"b = {b} (only A right), c = {c} (only B right)"
    if n == 0:
        return PairedResult(0.0, math.nan, math.nan, 1.0, 0, f"{counts}: no discordant sample")
    if n < exact_below:
        p = float(ss.binomtest(b, n, 0.5).pvalue)
        return PairedResult(float(b), math.nan, math.nan, p, n, f"{counts}; exact binomial")
    stat = (abs(b - c) - 1.0) ** 2 / n
    return PairedResult(float(stat), 1.0, math.nan, float(ss.chi2.sf(stat, 1)), n,
                        f"{counts}; chi-square with continuity correction")


# --------------------------------------------------------------------------------------
# Tables across datasets (input: measures.csv)
# --------------------------------------------------------------------------------------


class AcrossTables(NamedTuple):
    """The four tidy tables of the comparison across datasets (columns ``*_COLUMNS``)."""

    ranks: pd.DataFrame
    omnibus: pd.DataFrame
    posthoc: pd.DataFrame
    cd: pd.DataFrame


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


def _drop_nan_blocks(table: pd.DataFrame, what: str) -> tuple[pd.DataFrame, list[str]]:
    """Drop datasets (rows) with a NaN value, warning with the measure, dataset, classifier."""
    bad = table.isna()
    excluded = []
    for dataset in table.index[bad.any(axis=1)]:
        classifiers = ", ".join(map(str, table.columns[bad.loc[dataset]]))
        warnings.warn(f"{what}: dataset {dataset!r} excluded, NaN value for {classifiers}",
                      NaNExcludedWarning, stacklevel=3)
        excluded.append(f"{dataset} (NaN: {classifiers})")
    return table.loc[~bad.any(axis=1)], excluded


def _compare_one(table: pd.DataFrame, *, keys: dict, alpha: float) -> AcrossTables:
    measure = keys["measure"]
    lower = lower_is_better(measure)
    what = f"{measure}" + (f" [kappa {keys['kappa']}]" if keys["kappa"] else "")
    table, excluded = _drop_nan_blocks(table, f"{keys['engine']}: {what}")
    names = [str(c) for c in table.columns]
    n, k = table.shape
    scores = table.to_numpy(dtype=float)
    extra = f"excluded: {'; '.join(excluded)}" if excluded else ""
    ranks = average_ranks(scores, lower_is_better=lower) if n else np.full(k, np.nan)
    rank_rows = pd.DataFrame({**keys, "classifier": names, "average_rank": ranks,
                              "n_datasets": n, "datasets": ";".join(map(str, table.index)),
                              "lower_is_better": lower})
    cd = nemenyi_critical_difference(k, n, alpha) if n >= 2 else math.nan
    cd_rows = pd.DataFrame({**keys, "classifier": names, "average_rank": ranks, "cd": cd,
                            "n_datasets": n, "n_classifiers": k, "alpha": alpha,
                            "lower_is_better": lower})
    if n < 2:
        results = [TestResult(t, math.nan, math.nan, math.nan, math.nan, n, k, math.nan,
                              f"N = {n} dataset(s): a comparison across datasets needs N >= 2")
                   for t in OMNIBUS_TESTS]
        posthoc = pd.DataFrame(columns=POSTHOC_COLUMNS)
    else:
        results = [*friedman(scores, lower_is_better=lower),
                   friedman_aligned_ranks(scores, lower_is_better=lower),
                   quade(scores, lower_is_better=lower)]
        posthoc = pd.concat([
            nemenyi(scores, names, alpha=alpha, lower_is_better=lower),
            holm_control(scores, names, alpha=alpha, lower_is_better=lower),
            wilcoxon_pairwise(scores, names, alpha=alpha, lower_is_better=lower),
        ], ignore_index=True)
        for key, value in reversed(keys.items()):
            posthoc.insert(0, key, value)
        if extra:
            posthoc["note"] = [f"{x}; {extra}" if x else extra for x in posthoc["note"]]
    omnibus = pd.DataFrame([{**keys, **r.as_row()} for r in results])
    omnibus["significant"] = omnibus["p_value"] <= alpha
    if extra:
        omnibus["note"] = [f"{x}; {extra}" if x else extra for x in omnibus["note"]]
    return AcrossTables(rank_rows, omnibus, posthoc, cd_rows)


def compare_across_datasets(
    frame: pd.DataFrame,
    *,
    alpha: float,
    kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]] | None = None,
    classifiers: Mapping[str, Sequence[str]] | None = None,
) -> AcrossTables:
    """Every test across datasets, for every engine and every (measure, kappa) of ``frame``.

    Parameters
    ----------
    frame : DataFrame
        ``measures.csv`` rows: ``engine, dataset, classifier, measure, kappa, value``.
    alpha : float
        Significance level.
    kappa_vectors : mapping, optional
        Dataset -> {name -> vector} (config ``kappa_vectors``): pd rows are grouped across
        datasets by vector *name* (see :func:`kappa_name`). The output ``kappa`` column holds
        ``""``, ``"default"`` or that name.
    classifiers : mapping, optional
        Engine -> classifier order (config ``classifiers``); default: order of appearance.

    Returns
    -------
    AcrossTables
        A dataset whose value is NaN for some classifier is excluded from that measure's
        tests with a :class:`NaNExcludedWarning` naming measure, dataset and classifier;
        the exclusion is also written in the ``note`` column. A (measure, kappa) present on
        a single dataset gets average ranks and omnibus rows saying that N = 1 allows no test.
    """
    missing = {"engine", "dataset", "classifier", "measure", "kappa", "value"} - set(frame)
    if missing:
        raise ValueError(f"measures table lacks columns {sorted(missing)}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    named = name_kappas(frame, kappa_vectors or {})
    named["value"] = named["value"].astype("float64")
    parts: list[AcrossTables] = []
    for engine, by_engine in named.groupby("engine", sort=False):
        order = list((classifiers or {}).get(engine) or pd.unique(by_engine["classifier"]))
        unknown = set(by_engine["classifier"]) - set(order)
        if unknown:
            raise ValueError(f"engine {engine}: classifiers {sorted(unknown)} not configured")
        for (measure, kappa), group in by_engine.groupby(["measure", "kappa"], sort=False):
            if group.duplicated(["dataset", "classifier"]).any():
                raise ValueError(f"{engine}/{measure}/{kappa}: duplicate dataset-classifier rows")
            table = group.pivot(index="dataset", columns="classifier", values="value")
            table = table.reindex(index=pd.unique(group["dataset"]), columns=order)
            keys = {"engine": engine, "measure": measure, "kappa": kappa}
            parts.append(_compare_one(table, keys=keys, alpha=alpha))
    if not parts:
        raise ValueError("the measures table is empty")
    columns = (RANK_COLUMNS, OMNIBUS_COLUMNS, POSTHOC_COLUMNS, CD_COLUMNS)
    tables = []
    for i, cols in enumerate(columns):
        frames = [p[i] for p in parts if len(p[i])]
        tables.append(pd.concat(frames, ignore_index=True).reindex(columns=list(cols))
                      if frames else pd.DataFrame(columns=list(cols)))
    return AcrossTables(*tables)


# --------------------------------------------------------------------------------------
# Per-fold measure values and tests within a dataset (input: predictions.csv)
# --------------------------------------------------------------------------------------

PREDICTION_KEYS = ("engine", "dataset", "classifier", "repeat", "fold", "row", "actual",
                   "predicted")


#: Dietterich's (1998) design: 5 repetitions of 2-fold cross-validation.
CV5X2_REPEATS = 5
CV5X2_FOLDS = 2


def cross_validate_5x2(engine: str, data: pd.DataFrame, dataset, classifier: str,
                       params: Mapping, *, seed: int) -> pd.DataFrame:
    """Run 5 x 2-fold CV of one classifier through the engine interface (5x2cv tests).

    Calls ``get_engine(engine).cross_validate(data, dataset, classifier, params,
    CVSpec(folds=2, seed=seed, repeats=5))``: every classifier of a dataset gets the same
    folds (repeat r shuffles with ``seed + r - 1``), which :func:`check_paired_folds`
    verifies before any paired test.

    Returns
    -------
    DataFrame
        Columns :data:`PREDICTION_KEYS` (engine, dataset, classifier, repeat, fold, row,
        actual, predicted).
    """
    from .engines import CVSpec, get_engine

    runner = get_engine(engine)
    runner.check_available()
    spec = CVSpec(folds=CV5X2_FOLDS, seed=int(seed), repeats=CV5X2_REPEATS)
    pred = runner.cross_validate(data, dataset, classifier, params, spec)
    pred = pred.assign(engine=engine, dataset=dataset.name, classifier=classifier)
    return pred[list(PREDICTION_KEYS)]


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


def file_stem(measure: str, kappa: str) -> str:
    """File name of a (measure, kappa): ``accuracy``, ``preference_driven_default``."""
    return f"{measure}_{kappa}" if kappa else measure


def read_predictions(path) -> pd.DataFrame:
    """Read a ``predictions.csv`` keeping labels as text; repeat, fold and row as integers."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = set(PREDICTION_KEYS) - set(frame.columns)
    if missing:
        raise ValueError(f"{path}: missing columns {sorted(missing)}")
    for column in ("repeat", "fold", "row"):
        frame[column] = frame[column].astype(np.int64)
    return frame


def check_paired_folds(pred: pd.DataFrame) -> None:
    """Raise unless every classifier was tested on exactly the same folds.

    The paired tests compare two classifiers fold by fold; that is only valid when sample
    ``row`` of repeat r lies in the same fold for every classifier.
    """
    assignment = None
    for classifier, group in pred.groupby("classifier", sort=False):
        folds = group.set_index(["repeat", "row"])["fold"].sort_index()
        if folds.index.duplicated().any():
            raise ValueError(f"classifier {classifier}: a sample appears twice in one repeat")
        if assignment is None:
            first, assignment = classifier, folds
        elif not folds.index.equals(assignment.index) or not np.array_equal(folds, assignment):
            raise ValueError(f"classifiers {first} and {classifier} were not cross-validated on "
                             "the same folds; the paired tests need identical folds")


def fold_measure_values(
    pred: pd.DataFrame,
    *,
    classes: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]] | None = None,
    zero_division: float | str = 0.0,
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
    groups = list(pred.groupby(keys, sort=True))
    if not groups:
        raise ValueError("no predictions")
    repeat_size = pred.groupby(["engine", "dataset", "classifier", "repeat"]).size()
    cms = np.stack([confusion_matrix(g["actual"], g["predicted"], classes) for _, g in groups])
    columns: list[tuple[str, str, np.ndarray]] = [
        (name, NO_KAPPA, func(cms, zero_division=zero_division))
        for name, func in measures.REGISTRY.items() if name != PD
    ]
    columns.append((PD, DEFAULT_KAPPA, measures.preference_driven(
        cms, None, zero_division=zero_division)))
    for name, vector in (kappa_vectors or {}).items():
        columns.append((PD, str(name), measures.preference_driven(
            cms, np.asarray(vector, dtype=float), zero_division=zero_division)))
    index = pd.DataFrame([key for key, _ in groups], columns=keys)
    index["scheme"] = scheme
    index["n_test"] = [len(g) for _, g in groups]
    index["n_train"] = [repeat_size[key[:4]] - len(g) for key, g in groups]
    out = pd.concat([index.assign(measure=name, kappa=kappa, value=np.asarray(values, float))
                     for name, kappa, values in columns], ignore_index=True)
    return out[list(FOLD_COLUMNS)]


def _fold_matrix(values: pd.DataFrame, what: str) -> pd.DataFrame:
    """(repeat, fold) x classifier table of one measure, folds with a NaN dropped (warned)."""
    table = values.pivot_table(index=["repeat", "fold"], columns="classifier", values="value",
                               aggfunc="first", dropna=False)
    bad = table.isna().any(axis=1)
    for (repeat, fold) in table.index[bad]:
        nan_for = ", ".join(map(str, table.columns[table.loc[(repeat, fold)].isna()]))
        warnings.warn(f"{what}: repeat {repeat} fold {fold} excluded, NaN for {nan_for}",
                      NaNExcludedWarning, stacklevel=3)
    return table.loc[~bad]


def _pair_row(keys, test, a, b, diff, lower, result: PairedResult) -> dict:
    return {**keys, "test": test, "classifier_a": a, "classifier_b": b,
            "mean_difference": diff, "better": _better(a, b, diff, lower),
            "statistic": result.statistic, "df1": result.df1, "df2": result.df2,
            "p_value": result.p_value, "n": result.n, "note": result.note}


def compare_within_dataset(
    cv_values: pd.DataFrame,
    *,
    alpha: float,
    cv_predictions: pd.DataFrame | None = None,
    cv5x2_values: pd.DataFrame | None = None,
    classifiers: Sequence[str] | None = None,
    mcnemar_exact_below: int = 25,
) -> pd.DataFrame:
    """Paired tests of every classifier pair, per measure, on one (engine, dataset).

    Parameters
    ----------
    cv_values : DataFrame
        :func:`fold_measure_values` of the pipeline's (repeated) CV: the corrected resampled
        t-test (``corrected_t``) uses all ``folds x repeats`` differences and the mean
        ``n_test / n_train``.
    alpha : float
    cv_predictions : DataFrame, optional
        The same CV's predictions: McNemar's test (``mcnemar``) on repeat 1's out-of-fold
        predictions, reported for accuracy and error rate.
    cv5x2_values : DataFrame, optional
        :func:`fold_measure_values` of 5 repetitions of 2-fold CV: ``cv5x2_t`` and
        ``cv5x2_f``.
    classifiers : sequence of str, optional
        Pair order (default: order of appearance).
    mcnemar_exact_below : int
        See :func:`mcnemar`.

    Returns
    -------
    DataFrame
        Columns :data:`PAIRWISE_COLUMNS`. ``mean_difference`` is a - b in measure units;
        ``p_adjusted`` is Holm's over the pairs of one (measure, kappa, test);
        ``significant`` is ``p_adjusted <= alpha``.
    """
    for frame, name in ((cv_values, "cv_values"), (cv5x2_values, "cv5x2_values")):
        if frame is not None and frame[["engine", "dataset"]].drop_duplicates().shape[0] != 1:
            raise ValueError(f"{name} must hold exactly one engine and dataset")
    engine, dataset = cv_values["engine"].iloc[0], cv_values["dataset"].iloc[0]
    names = list(classifiers or pd.unique(cv_values["classifier"]))
    correct = None
    if cv_predictions is not None:
        check_paired_folds(cv_predictions)
        first = cv_predictions[cv_predictions["repeat"] == cv_predictions["repeat"].min()]
        correct = (first.assign(ok=first["actual"] == first["predicted"])
                   .pivot(index="row", columns="classifier", values="ok"))
    rows = []
    for (measure, kappa), group in cv_values.groupby(["measure", "kappa"], sort=False):
        keys = {"engine": engine, "dataset": dataset, "measure": measure, "kappa": kappa}
        lower = lower_is_better(measure)
        what = f"{engine}/{dataset}: {measure}" + (f" [kappa {kappa}]" if kappa else "")
        table = _fold_matrix(group, what)
        ratio = float((group["n_test"] / group["n_train"]).mean())
        five = None
        if cv5x2_values is not None:
            sub = cv5x2_values[(cv5x2_values["measure"] == measure)
                               & (cv5x2_values["kappa"] == kappa)]
            five = _fold_matrix(sub, what + " (5x2cv)")
        for a, b in combinations(names, 2):
            d = (table[a] - table[b]).to_numpy()
            rows.append(_pair_row(keys, "corrected_t", a, b, float(d.mean()) if d.size else
                                  math.nan, lower, corrected_resampled_ttest(d, ratio)))
            if five is not None:
                d5 = (five[a] - five[b]).to_numpy()
                for test, func in (("cv5x2_t", paired_ttest_5x2cv),
                                   ("cv5x2_f", combined_ftest_5x2cv)):
                    if d5.size == 10:
                        result = func(d5.reshape(5, 2))
                    else:  # a fold was dropped for a NaN value (warned by _fold_matrix)
                        result = PairedResult(math.nan, math.nan, math.nan, math.nan, d5.size,
                                              f"needs all 10 folds, {d5.size} without NaN")
                    rows.append(_pair_row(keys, test, a, b, float(d5.mean()) if d5.size
                                          else math.nan, lower, result))
            if correct is not None and measure in MCNEMAR_MEASURES:
                ca, cb = correct[a].to_numpy(bool), correct[b].to_numpy(bool)
                diff = float(ca.mean() - cb.mean()) * (-1.0 if measure == "error_rate" else 1.0)
                rows.append(_pair_row(keys, "mcnemar", a, b, diff, lower,
                                      mcnemar(ca, cb, exact_below=mcnemar_exact_below)))
    out = pd.DataFrame(rows)
    out["p_adjusted"] = out.groupby(["measure", "kappa", "test"], sort=False)["p_value"] \
        .transform(lambda p: holm(p.to_numpy()))
    out["significant"] = out["p_adjusted"] <= alpha
    return out[list(PAIRWISE_COLUMNS)]


def significance_table(pairwise: pd.DataFrame) -> pd.DataFrame:
    """One row per (engine, dataset, measure, kappa, pair): Holm-adjusted p of every test.

    Columns: keys, ``better`` (by the CV's mean difference), ``p_<test>`` for each test of
    :data:`WITHIN_TESTS` present, and ``significant_by`` listing the tests whose adjusted
    p-value is at most alpha (``;``-separated, empty if none).
    """
    keys = ["engine", "dataset", "measure", "kappa", "classifier_a", "classifier_b"]
    wide = pairwise.pivot_table(index=keys, columns="test", values="p_adjusted",
                                aggfunc="first", sort=False)
    tests = [t for t in WITHIN_TESTS if t in wide.columns]
    wide = wide[tests].add_prefix("p_").reset_index()
    main = pairwise.drop_duplicates(keys).set_index(keys)["better"]
    wide.insert(len(keys), "better", main.reindex(pd.MultiIndex.from_frame(wide[keys])).values)
    sig = pairwise[pairwise["significant"]].groupby(keys, sort=False)["test"] \
        .agg(lambda t: ";".join(t))
    wide["significant_by"] = sig.reindex(pd.MultiIndex.from_frame(wide[keys])).fillna("").values
    return wide


_BOOL_COLUMNS = ("significant", "lower_is_better")
_TEXT_COLUMNS = ("engine", "dataset", "classifier", "measure", "kappa", "test", "classifier_a",
                 "classifier_b", "better", "note", "datasets", "scheme", "significant_by")


def read_stats_table(path) -> pd.DataFrame:
    """Read back any table of this module: text stays text (``kappa`` ``""`` included),
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


# --------------------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------------------

TEST_TITLES = {
    "friedman": "Friedman chi-square",
    "iman_davenport": "Iman-Davenport F",
    "friedman_aligned_ranks": "Friedman aligned ranks",
    "quade": "Quade",
    "nemenyi": "Nemenyi",
    "holm_control": "Holm vs best-ranked",
    "wilcoxon_holm": "Wilcoxon (Holm)",
    "corrected_t": "corrected resampled t",
    "cv5x2_t": "5x2cv t",
    "cv5x2_f": "5x2cv F",
    "mcnemar": "McNemar",
}
#: The measures of the closing summary: accuracy and pd at the default kappa.
HEADLINE = (("accuracy", NO_KAPPA), (PD, DEFAULT_KAPPA))


def measure_label(measure: str, kappa: str) -> str:
    """``accuracy``, ``preference_driven [default]``, ``preference_driven [p1]``."""
    return f"{measure} [{kappa}]" if kappa else measure


def _fmt_p(value: float) -> str:
    if value is None or not np.isfinite(value):
        return "n/a"
    if value == 0.0:
        return "0"
    return f"{value:.2e}" if value < 1e-4 else f"{value:.4f}"


def _p(value: float, alpha: float) -> str:
    """A p-value as text, bold when significant at ``alpha``."""
    text = _fmt_p(value)
    return f"**{text}**" if text != "n/a" and value <= alpha else text


def _pairs(rows: pd.DataFrame) -> str:
    """Significant pairs as ``A > B`` (``A != B`` when the direction is undecided)."""
    out = []
    for a, b, better in rows[["classifier_a", "classifier_b", "better"]].itertuples(False):
        if better == b:
            a, b = b, a
        out.append(f"{a} > {b}" if better else f"{a} != {b}")
    return ", ".join(out) if out else "none"


def _table(frame: pd.DataFrame) -> str:
    # disable_numparse: cells are pre-formatted text ("0.9320" must not become "0.932")
    return frame.to_markdown(index=False, disable_numparse=True) if len(frame) else "_(no rows)_"


def significance_markdown(table: pd.DataFrame, *, alpha: float) -> str:
    """Markdown of one dataset's :func:`significance_table`: one table per measure."""
    engine, dataset = table["engine"].iloc[0], table["dataset"].iloc[0]
    p_columns = [c for c in table.columns if c.startswith("p_")]
    lines = [f"# Significance of classifier differences: {engine} / {dataset}", "",
             f"Holm-adjusted p-values over the pairs of each measure and test; bold = "
             f"significant at alpha = {alpha:g}. corrected t = Nadeau-Bengio corrected "
             "resampled t-test on the configured CV folds; 5x2cv t / F = Dietterich's paired "
             "t-test / Alpaydin's combined F on 5 x 2-fold CV; McNemar = on the per-sample "
             "predictions of the first CV repeat (accuracy and error rate only).", ""]
    for (measure, kappa), group in table.groupby(["measure", "kappa"], sort=False):
        shown = pd.DataFrame({
            "pair": group["classifier_a"] + " vs " + group["classifier_b"],
            "better": group["better"].fillna(""),
            **{TEST_TITLES[c[2:]]: [_p(v, alpha) for v in group[c]] for c in p_columns},
            "significant by": group["significant_by"].replace("", "-"),
        })
        lines += [f"## {measure_label(measure, kappa)}", "", _table(shown), ""]
    return "\n".join(lines)


def _omnibus_cells(omnibus: pd.DataFrame, alpha: float) -> dict:
    return {TEST_TITLES[t]: _p(p, alpha) for t, p in zip(omnibus["test"], omnibus["p_value"])}


def _across_summary(across: AcrossTables, engine: str, alpha: float) -> pd.DataFrame:
    rows = []
    ranks = across.ranks[across.ranks["engine"] == engine]
    for (measure, kappa), group in ranks.groupby(["measure", "kappa"], sort=False):
        sel = {"engine": engine, "measure": measure, "kappa": kappa}
        omni = _select(across.omnibus, sel)
        post = _select(across.posthoc, sel)
        best = group.loc[group["average_rank"].idxmin()] if group["average_rank"].notna().any() \
            else None
        rows.append({
            "measure": measure_label(measure, kappa),
            "N": int(group["n_datasets"].iloc[0]),
            "best (avg rank)": "" if best is None else
            f"{best['classifier']} ({best['average_rank']:.2f})",
            **_omnibus_cells(omni, alpha),
            **{TEST_TITLES[t]: _posthoc_cell(post, t) for t in POSTHOC_TESTS},
        })
    return pd.DataFrame(rows)


def _posthoc_cell(post: pd.DataFrame, test: str) -> str:
    """Significant pairs of one post-hoc test, or n/a when the test was not run (N < 2)."""
    rows = post[post["test"] == test]
    return _pairs(rows[rows["significant"].astype(bool)]) if len(rows) else "n/a"


def _select(frame: pd.DataFrame, keys: Mapping[str, str]) -> pd.DataFrame:
    mask = np.ones(len(frame), dtype=bool)
    for column, value in keys.items():
        mask &= (frame[column] == value).to_numpy()
    return frame[mask]


def _within_summary(sig: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (measure, kappa), group in sig.groupby(["measure", "kappa"], sort=False):
        row = {"measure": measure_label(measure, kappa)}
        for column in [c for c in sig.columns if c.startswith("p_")]:
            test = column[2:]
            hits = group[group["significant_by"].str.split(";").apply(lambda t, x=test: x in t)]
            row[TEST_TITLES[test]] = _pairs(hits) if group[column].notna().any() else "n/a"
        rows.append(row)
    return pd.DataFrame(rows)


def power_table(across: AcrossTables, engine: str, alpha: float) -> pd.DataFrame:
    """What each test can show with the available N: one row per (N, test).

    ``smallest p`` is the ``min_p`` column (the smallest p-value the test can produce with N
    datasets and K classifiers, after the multiple-comparison adjustment for post-hoc tests);
    ``can reach alpha`` is ``no`` when even a perfectly consistent ranking could not be
    significant.
    """
    omnibus = _select(across.omnibus, {"engine": engine})
    posthoc = _select(across.posthoc, {"engine": engine})
    size = omnibus.drop_duplicates(["measure", "kappa"]).set_index(["measure", "kappa"])[
        ["n_datasets", "n_classifiers"]]
    posthoc = posthoc.join(size, on=["measure", "kappa"])
    rows = pd.concat([omnibus, posthoc], ignore_index=True)
    rows = rows[rows["n_datasets"] >= 2].drop_duplicates(["n_datasets", "test"]) \
        .sort_values(["n_datasets", "test"], kind="stable")
    verdict = np.where(rows["min_p"].isna(), "unknown",
                       np.where(rows["min_p"] <= alpha, "yes", "no"))
    return pd.DataFrame({
        "N": rows["n_datasets"].astype(int).astype(str),
        "K": rows["n_classifiers"].astype(int).astype(str),
        "test": [TEST_TITLES[t] for t in rows["test"]],
        "smallest p": [_fmt_p(v) for v in rows["min_p"]],
        "can reach alpha": verdict,
        # the control's name is not a power note
        "note": [n if t != "holm_control" else "" for t, n in zip(rows["test"], rows["note"])],
    })


def headline_text(across: AcrossTables, significance: pd.DataFrame, *, alpha: float) -> str:
    """Plain-language summary of the significant differences for accuracy and pd default."""
    lines = []
    for engine in pd.unique(across.ranks["engine"]):
        for measure, kappa in HEADLINE:
            sel = {"engine": engine, "measure": measure, "kappa": kappa}
            omni, post = _select(across.omnibus, sel), _select(across.posthoc, sel)
            if omni.empty:
                continue
            name = measure_label(measure, kappa)
            omnibus = ", ".join(f"{TEST_TITLES[t]} p = {_p(p, alpha)}"
                                for t, p in zip(omni["test"], omni["p_value"]))
            post_sig = {TEST_TITLES[t]: _posthoc_cell(post, t) for t in POSTHOC_TESTS}
            lines.append(f"- **{engine}, {name}, across datasets** ({omnibus}); significant "
                         "pairs: " + "; ".join(f"{t}: {v}" for t, v in post_sig.items()))
            sub = _select(significance, sel) if len(significance) else significance
            for dataset, group in sub.groupby("dataset", sort=False):
                hits = group[group["significant_by"] != ""]
                text = ", ".join(
                    f"{_pairs(hits.iloc[[i]])} ({hits['significant_by'].iloc[i]})"
                    for i in range(len(hits))) or "none"
                lines.append(f"  - {dataset}: {text}")
    return "\n".join(lines)


def stats_report(
    across: AcrossTables,
    significance: pd.DataFrame,
    *,
    alpha: float,
    figures: Mapping[tuple[str, str, str], str] | None = None,
) -> str:
    """The statistics report: headline, every measure across datasets, every dataset within.

    Parameters
    ----------
    across : AcrossTables
        From :func:`compare_across_datasets` (or read back from its CSV files).
    significance : DataFrame
        :func:`significance_table` of every (engine, dataset), concatenated.
    alpha : float
    figures : mapping, optional
        (engine, measure, kappa) -> path of the CD diagram, relative to the report.
    """
    figures = figures or {}
    engines = list(pd.unique(across.ranks["engine"]))
    lines = [
        "# Statistical comparison of classifiers", "",
        f"Significance level alpha = {alpha:g}. Procedure of Stapor (2017) after Demsar (2006) "
        "and Garcia et al. (2010). Across datasets, each dataset is one block: ranks 1 = best, "
        "ties averaged. Post-hoc results are listed whatever the omnibus outcome; read them "
        "as confirmatory only where the omnibus test rejects.", "",
        "**Power.** With only a handful of datasets these tests have little power. A "
        "non-significant result is not evidence that classifiers perform alike. The "
        "`min_p` column of the CSV tables gives the smallest p-value a test can reach with "
        "the available N, and the notes below say where N is below what a test needs.", "",
        "## Accuracy and pd at the default kappa", "",
        headline_text(across, significance, alpha=alpha), "",
    ]
    for engine in engines:
        lines += [f"## Across datasets: {engine}", "",
                  "Omnibus p-values (bold = significant) and the pairs each post-hoc test finds "
                  "significant.", "", _table(_across_summary(across, engine, alpha)), ""]
        shown = [(key, path) for key, path in figures.items() if key[0] == engine]
        if shown:
            lines += ["Critical-difference diagrams: " + ", ".join(
                f"[{measure_label(m, k)}]({path})" for (_, m, k), path in shown), ""]
        ranks = across.ranks[(across.ranks["engine"] == engine) & (across.ranks["n_datasets"] < 2)]
        single = [measure_label(m, k) for m, k in
                  ranks[["measure", "kappa"]].drop_duplicates().itertuples(index=False)]
        lines += ["What N allows (smallest attainable p-value per test):", "",
                  _table(power_table(across, engine, alpha)), ""]
        if single:
            lines += [f"On a single dataset, so not tested across datasets: {', '.join(single)}.",
                      ""]
        sub = significance[significance["engine"] == engine] if len(significance) else significance
        for dataset, group in sub.groupby("dataset", sort=False):
            lines += [f"### Within {dataset} ({engine})", "",
                      "Pairs significant after Holm's correction, per test.", "",
                      _table(_within_summary(group)), ""]
    return "\n".join(lines)
