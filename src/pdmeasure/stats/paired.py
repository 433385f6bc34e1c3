"""Tests of two classifiers within one dataset: corrected resampled t, 5x2cv t and F, McNemar.

Inputs are per-fold differences of a measure (classifier A minus B) from repeated
cross-validation, or per-sample correctness. The tails of the t, F and chi-square
distributions are the :mod:`scipy.special` functions that :mod:`scipy.stats`'s ``t.sf``,
``f.sf`` and ``chi2.sf`` evaluate (``stdtr``, ``fdtrc``, ``chdtrc``), called directly: the
same numbers, without the import of :mod:`scipy.stats` (about 0.65 CPU-s), which rule analyse
would otherwise pay for every dataset. Only McNemar's exact branch imports it, for
:func:`scipy.stats.binomtest`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from scipy import special

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class PairedResult(NamedTuple):
    """Result of a two-classifier test on one dataset."""

    statistic: float
    df1: float
    df2: float
    p_value: float
    n: int
    note: str = ""


def _two_sided_t(t: float, df: float) -> float:
    """Two-sided p-value of ``t`` with ``df`` degrees of freedom: ``2 t.sf(|t|, df)``."""
    return float(2.0 * special.stdtr(df, -abs(t)))


def corrected_resampled_ttest(differences: ArrayLike, test_train_ratio: float) -> PairedResult:
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
    return PairedResult(t, m - 1.0, math.nan, _two_sided_t(t, m - 1), m)


def _check_5x2(differences) -> tuple[np.ndarray, np.ndarray]:
    """The (5, 2) differences ``p_ij`` and the within-repetition sums of squares ``s_i^2``."""
    d = np.asarray(differences, dtype=float)
    if d.shape != (5, 2):
        raise ValueError(f"the 5x2cv tests need a (5 repetitions, 2 folds) array, got {d.shape}")
    if np.isnan(d).any():
        raise ValueError("the 5x2cv differences contain NaN")
    return d, np.sum((d - d.mean(axis=1, keepdims=True)) ** 2, axis=1)


def paired_ttest_5x2cv(differences: ArrayLike) -> PairedResult:
    r"""Dietterich's (1998) 5x2cv paired t-test.

    ``differences[i, j]`` = measure of A minus measure of B on fold j of repetition i. With
    ``s_i^2 = sum_j (p_ij - \bar p_i)^2``,

    .. math:: t = p_{11} / \sqrt{\tfrac15 \sum_i s_i^2} \sim t_5 .
    """
    d, s2 = _check_5x2(differences)
    denominator = math.sqrt(s2.mean())
    if denominator == 0.0:
        t, p = (0.0, 1.0) if d[0, 0] == 0 else (math.copysign(math.inf, d[0, 0]), 0.0)
        return PairedResult(t, 5.0, math.nan, p, 10, "no variance within any repetition")
    t = float(d[0, 0] / denominator)
    return PairedResult(t, 5.0, math.nan, _two_sided_t(t, 5), 10)


def combined_ftest_5x2cv(differences: ArrayLike) -> PairedResult:
    r"""Alpaydin's (1999) combined 5x2cv F test, more robust than the 5x2cv t-test.

    .. math:: F = \frac{\sum_i \sum_j p_{ij}^2}{2 \sum_i s_i^2} \sim F(10, 5).
    """
    d, s2 = _check_5x2(differences)
    numerator = float(np.sum(d**2))
    if s2.sum() == 0.0:
        f, p = (0.0, 1.0) if numerator == 0 else (math.inf, 0.0)
        return PairedResult(f, 10.0, 5.0, p, 10, "no variance within any repetition")
    f = numerator / (2.0 * float(s2.sum()))
    return PairedResult(f, 10.0, 5.0, float(special.fdtrc(10, 5, f)), 10)


def mcnemar(correct_a: ArrayLike, correct_b: ArrayLike, *, exact_below: int = 25) -> PairedResult:
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
        raise ValueError(
            f"correct_a and correct_b must be 1-d of equal length, got {a.shape}, {b_.shape}"
        )
    b = int(np.sum(a & ~b_))
    c = int(np.sum(~a & b_))
    n = b + c
    counts = f"b = {b} (only A right), c = {c} (only B right)"
    if n == 0:
        return PairedResult(0.0, math.nan, math.nan, 1.0, 0, f"{counts}: no discordant sample")
    if n < exact_below:
        from scipy.stats import binomtest  # here: see the module's docstring

        p = float(binomtest(b, n, 0.5).pvalue)
        return PairedResult(float(b), math.nan, math.nan, p, n, f"{counts}; exact binomial")
    stat = (abs(b - c) - 1.0) ** 2 / n
    return PairedResult(
        float(stat),
        1.0,
        math.nan,
        float(special.chdtrc(1, stat)),
        n,
        f"{counts}; chi-square with continuity correction",
    )
