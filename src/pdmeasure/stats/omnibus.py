"""Omnibus tests across datasets: Friedman (with Iman-Davenport's F), aligned ranks, Quade.

N datasets are the blocks, K classifiers the treatments (Stapor 2017, Sec. IV; Demsar 2006;
Garcia et al. 2010). scipy has no aligned-ranks or Quade statistic, so both are written out
here on top of :func:`scipy.stats.rankdata` and the ``chi2`` / ``f`` distributions.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure.stats.ranks import check_scores, rank_scores

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Demsar (2006, Sec. 3.2.2): the chi-square approximation of Friedman's statistic needs
#: "N > 10 and k > 5"; below that the table says so.
FRIEDMAN_MIN_N = 11
FRIEDMAN_MIN_K = 6


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
        """The fields as a dict: one row of the omnibus table."""
        return asdict(self)


def _friedman_note(n: int, k: int) -> str:
    if n >= FRIEDMAN_MIN_N and k >= FRIEDMAN_MIN_K:
        return ""
    return (
        f"N={n} datasets, K={k} classifiers: below the N > 10, K > 5 that the "
        f"chi-square approximation needs (Demsar 2006), so the p-value is approximate"
    )


def friedman(
    scores: ArrayLike, *, lower_is_better: bool = False, tie_correction: bool = False
) -> tuple[TestResult, TestResult]:
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
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    ranks = rank_scores(scores, lower_is_better=lower_is_better)
    n, k = ranks.shape
    r = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4.0)
    if tie_correction:
        ties = sum(
            float(np.sum(c**3 - c))
            for c in (np.unique(row, return_counts=True)[1] for row in ranks)
        )
        denominator = 1.0 - ties / (n * k * (k * k - 1))
        chi2 = chi2 / denominator if denominator > 0 else math.nan
    chi2 = max(float(chi2), 0.0)  # rounding can give -1e-15 when all ranks are equal
    p_chi2 = float(ss.chi2.sf(chi2, k - 1))
    chi2_max = n * (k - 1.0)
    note = _friedman_note(n, k)
    first = TestResult(
        "friedman", chi2, k - 1.0, math.nan, p_chi2, n, k, float(ss.chi2.sf(chi2_max, k - 1)), note
    )
    df2 = (k - 1.0) * (n - 1.0)
    gap = chi2_max - chi2
    if n < 2:
        ff, p_ff = math.nan, math.nan
    elif gap <= 1e-12 * chi2_max:
        ff, p_ff = math.inf, 0.0
    else:
        ff = (n - 1.0) * chi2 / gap
        p_ff = float(ss.f.sf(ff, k - 1.0, df2))
    second = TestResult(
        "iman_davenport",
        float(ff),
        k - 1.0,
        df2,
        p_ff,
        n,
        k,
        0.0,
        "F approximation (Iman and Davenport 1980); less conservative than "
        "the chi-square" + (f"; {note}" if note else ""),
    )
    return first, second


def friedman_aligned_ranks(scores: ArrayLike, *, lower_is_better: bool = False) -> TestResult:
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
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    arr = check_scores(scores)
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
        note = (
            f"chi-square approximation; with N={n} datasets treat the p-value as indicative"
            if n < FRIEDMAN_MIN_N
            else ""
        )
    return TestResult("friedman_aligned_ranks", stat, k - 1.0, math.nan, p, n, k, math.nan, note)


def quade(scores: ArrayLike, *, lower_is_better: bool = False) -> TestResult:
    r"""Quade's test (Quade 1979; Conover 1999, p. 373; Garcia et al. 2010, Sec. 3.2).

    Within-dataset ranks ``r_ij`` (ties averaged) are weighted by the rank ``Q_i`` of the
    dataset's range ``max_j x_ij - min_j x_ij`` among the N datasets:
    ``S_ij = Q_i (r_ij - (K+1)/2)``, ``A = sum S_ij^2``, ``B = (1/N) sum_j S_j^2`` and

    .. math:: F = \frac{(N-1) B}{A - B} \sim F(K-1, (K-1)(N-1)).

    This is R's ``quade.test`` (its ``A`` keeps the tie correction); the test does not depend
    on the direction of the measure. When ``A = B`` (every dataset ranks the classifiers
    identically) F is infinite and p = 0.
    """
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    arr = check_scores(scores)
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
