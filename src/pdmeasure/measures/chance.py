"""Chance-corrected and correlation measures: multi-class MCC (Gorodkin's R_K) and Cohen's kappa.

Both are written as one ratio of sums of count products, multiplied through by ``s**2`` so
that integer counts stay exact, with the zero-variance denominators as sums of non-negative
terms (exactly zero exactly when the papers' NaN occurs). The products grow as ``s**2``;
``prepare`` rescales matrices whose total would make them overflow or underflow.
"""

from __future__ import annotations

import numpy as np

from pdmeasure._validation import safe_divide
from pdmeasure.measures._core import Stack, dot, measure, nan_or_zero, sum_of_others


@measure(lower=-1.0, source="paper 000, eq. 25 (Gorodkin R_K); paper 001, eqs. 6-9")
def mcc(s: Stack) -> np.ndarray:
    r"""Multi-class Matthews correlation coefficient, Gorodkin's R_K (paper 000, eq. 25).

    .. math::

        \mathrm{MCC} = \frac{s \sum_i TP_i - \sum_i p_i t_i}
                            {\sqrt{s^2 - \sum_i p_i^2}\,\sqrt{s^2 - \sum_i t_i^2}}

    with ``s`` the number of samples, ``t_i`` the actual and ``p_i`` the predicted total of
    class i. This is also R_k of paper 001 (eqs. 6-9): its eq. 7 sums to
    ``s sum_k C_kk - sum_k t_k p_k`` and eqs. 8-9 to ``s^2 - sum_k p_k^2`` and
    ``s^2 - sum_k t_k^2`` (paper 001 prints an extra square root inside eqs. 8-9, which
    its own tables contradict, e.g. R_k = -0.60 for matrix D of Table 1).

    The ratio is ``0/0`` exactly when the actual or the predicted labelling is constant (all
    samples in one actual class, or all predictions in one class; paper 001 prints NaN).
    Then MCC is NaN under ``zero_division="nan"`` and **0 under both 0.0 and 1.0**: a
    constant labelling carries no information about the other, so it has no correlation
    with it, and 1.0 would rate a classifier that always predicts one class as perfect.
    scikit-learn's ``matthews_corrcoef`` (which has no ``zero_division`` parameter) returns
    0.0 whenever this denominator is 0, so the numeric policies give its values, including
    0 for a perfect classification of samples that all belong to one class.
    """
    # s^2 - sum_k p_k^2 = sum_k p_k * sum_{l != k} p_l (Gorodkin's cov(X, X), paper 001 eq. 8):
    # a sum of non-negative products, exactly 0 iff at most one class is ever predicted.
    cov_xy = s.n * s.correct - dot(s.predicted, s.support)
    cov_xx = dot(s.predicted, sum_of_others(s.predicted))
    cov_yy = dot(s.support, sum_of_others(s.support))
    # 0/0 (a constant labelling): NaN or 0, never 1.0 (see the docstring)
    return safe_divide(cov_xy, np.sqrt(cov_xx) * np.sqrt(cov_yy), nan_or_zero(s.zd))


@measure(lower=-1.0, source="paper 001, eq. 14 (Cohen 1960)")
def kappa(s: Stack) -> np.ndarray:
    r"""Cohen's kappa: agreement corrected for chance (paper 001, eq. 14).

    .. math:: K = \frac{P_o - P_e}{1 - P_e}, \quad P_o = \frac{\sum_i C_{ii}}{S},
              \quad P_e = \frac{\sum_i C_{i.} C_{.i}}{S^2}

    Computed as ``(S sum_i C_ii - sum_i C_i. C_.i) / (S^2 - sum_i C_i. C_.i)`` (the same
    ratio multiplied through by ``S^2``, exact for integer counts). ``0/0`` only when all
    samples are in one cell of the diagonal.
    """
    # (P_o - P_e) / (1 - P_e) multiplied through by s**2, which keeps integer counts exact;
    # s^2 - sum_i t_i p_i = sum_i t_i * sum_{j != i} p_j is exactly 0 iff every sample sits
    # in one diagonal cell.
    chance = dot(s.support, s.predicted)
    return safe_divide(s.n * s.correct - chance, dot(s.support, sum_of_others(s.predicted)), s.zd)
