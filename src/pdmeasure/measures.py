r"""Every confusion-matrix measure of the papers, batched over ``(..., C, C)``.

Conventions
-----------
* A confusion matrix has rows = actual class and columns = predicted class; counts may be
  integers or floats. Every measure takes an array-like of shape ``(..., C, C)`` and returns
  an array of shape ``(...)`` (a NumPy scalar for one matrix), broadcasting over the leading
  axes without a Python loop over matrices.
* "Paper 000" is Kozak et al., *Preference-driven classification measure* (2022); "paper
  001" is Sigdel & Aygun, *Pacc - a discriminative and accuracy correlated measure for
  assessment of classification results*. Each docstring cites the equation it implements.
* Per class i (paper 000, Section 3.2): ``TP_i = C_ii``, ``FN_i = row_i - TP_i``,
  ``FP_i = col_i - TP_i``, ``TN_i = n - TP_i - FP_i - FN_i`` where ``row_i`` (the support)
  and ``col_i`` are the actual and predicted totals and ``n`` the number of samples. They
  are computed once per call by :func:`per_class_counts`.

Zero-division policy
--------------------
Every ratio goes through one helper, :func:`safe_divide`, and every measure takes
``zero_division`` in ``{"nan", 0.0, 1.0}`` (default ``"nan"``), the value a ``0/0`` takes:

* ``"nan"``: an undefined quantity stays undefined and propagates (a class that is never
  predicted has NaN precision, so macro precision is NaN). This is the Pacc paper's
  convention for R_k and FMEAS (its Tables 2, 4 and 6 print NaN).
* ``0.0``: paper 000 and the authors' script take ``0/0 = 0`` (cm9 = [[10, 0], [10, 0]]
  has macro precision 0.25 only this way). The reproduction pipeline uses it (config key
  ``zero_division``).
* ``1.0``: the optimistic choice of some libraries.

The policy applies where the literature leaves a rate undefined: per-class precision,
recall and specificity, micro averages, MCC, Cohen's kappa, the per-class correctness
``P_ii`` of Pacc, and everything built from them (macro averages, F scores, G-mean, IBA, the
preference-driven measure). A denominator is zero only together with its numerator, so only
``0/0`` ever occurs; measures never raise on a row or a column of zeros. Some ``0/0`` are
limits rather than undefined rates and take their limit under the numeric policies:

* an F score with precision = recall = 0 is NaN under ``"nan"`` (paper 001's FMEAS is NaN
  there) and 0 under ``0.0`` **and** ``1.0`` (``F <= 2 min(P, R)``; scikit-learn agrees);
* the ``p log p`` terms of CEN with ``p = 0`` are 0 under every policy (Wei et al.:
  ``0 log 0 = 0``; such a term is also weighted by zero), so CEN is never NaN;
* the Pacc misclassification probability ``P_ij`` (i != j) of a pair whose count ``C_ij``
  is zero is 0 under every policy.

With non-integer counts, quantities that should be exactly zero (FP, FN, TN, the variance
terms of MCC and kappa) are computed as sums of non-negative cells, so they are exactly zero
and the policy still applies. A matrix with no samples at all is rejected with a
``ValueError``.

Registry
--------
``REGISTRY`` maps each measure name to its function; ``INFO`` holds the machine-readable
range, direction and source of each (used by the docs generator and the property tests).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np
from scipy.special import xlogy

from pdmeasure._validation import (
    ZeroDivision,
    check_confusion,
    check_kappa,
    check_zero_division,
    safe_divide,
)
from pdmeasure.kappa import DEFAULT_CHUNK_SIZE, KappaGrid, kappa_grid

__all__ = [
    "REGISTRY",
    "INFO",
    "MeasureInfo",
    "PerClassCounts",
    "per_class_counts",
    "safe_divide",
    "check_zero_division",
    "class_precision_recall",
    "kappa_grid",
    "KappaGrid",
    "DEFAULT_CHUNK_SIZE",
    "fbeta_macro",
    "fbeta_micro",
    "evaluate",
    "IBA_ALPHA",
    "accuracy",
    "error_rate",
    "average_accuracy",
    "precision_macro",
    "recall_macro",
    "f1_macro",
    "f1_macro_mean",
    "precision_micro",
    "recall_micro",
    "f1_micro",
    "specificity_macro",
    "balanced_accuracy",
    "mcc",
    "kappa",
    "cen",
    "pacc",
    "g_mean",
    "iba",
    "preference_driven",
]

#: Weight of the dominance term of the index of balanced accuracy (Garcia et al. 2009).
IBA_ALPHA = 0.1


class PerClassCounts(NamedTuple):
    """Per-class counts of a stack of confusion matrices (paper 000, Table 2).

    Every field but ``n`` has shape ``(..., C)``; ``n`` has shape ``(...)``. All float64.
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    support: np.ndarray
    predicted: np.ndarray
    n: np.ndarray


def per_class_counts(cm) -> PerClassCounts:
    """Reduce confusion matrices once to per-class TP, FP, FN, TN and totals.

    ``TP_i = C_ii``, ``support_i = sum_j C_ij`` (actual class size, ``TP_i + FN_i``),
    ``predicted_i = sum_j C_ji`` (``TP_i + FP_i``), ``n = sum_ij C_ij``,
    ``FN_i = support_i - TP_i``, ``FP_i = predicted_i - TP_i``,
    ``TN_i = n - TP_i - FP_i - FN_i`` (paper 000, Section 3.2).

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Rows = actual, columns = predicted.

    Returns
    -------
    PerClassCounts
        Named tuple ``(tp, fp, fn, tn, support, predicted, n)``.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices.
    """
    return _counts(check_confusion(cm))


def _counts(arr: np.ndarray) -> PerClassCounts:
    # Reductions use np.einsum, several times faster than ndarray.sum over the short class
    # axes of large stacks. With integer counts (below 2**53) every value is exact. With
    # non-integer counts a total whose cells are all zero is still exactly zero (adding
    # exact zeros is exact), so FN and FP are exactly 0 when they should be; TN, obtained
    # by subtraction, is clipped at 0 against round-off.
    tp = np.einsum("...ii->...i", arr).copy()
    support = _rows(arr)
    predicted = _columns(arr)
    n = _total(support)
    fn = support - tp
    fp = predicted - tp
    tn = np.maximum(n[..., None] - tp - fp - fn, 0.0)
    return PerClassCounts(tp, fp, fn, tn, support, predicted, n)


def _rows(arr: np.ndarray) -> np.ndarray:
    """Row totals of (..., C, C)."""
    return np.einsum("...ij->...i", arr)


def _columns(arr: np.ndarray) -> np.ndarray:
    """Column totals of (..., C, C)."""
    return np.einsum("...ij->...j", arr)


def _total(x: np.ndarray) -> np.ndarray:
    """Sum over the last axis."""
    return np.einsum("...i->...", x)


def _mean(x: np.ndarray) -> np.ndarray:
    """Mean over the last (class) axis."""
    return _total(x) / x.shape[-1]


def _sum_of_others(totals: np.ndarray) -> np.ndarray:
    """``sum_{l != k} totals_l`` for every k: a sum of non-negative terms, so it is exactly 0
    when it should be (no cancellation as in ``n - totals_k``)."""
    C = totals.shape[-1]
    return totals @ (1.0 - np.eye(C))


def _scalar(result: np.ndarray):
    """Return NumPy scalars instead of 0-d arrays."""
    return result[()] if isinstance(result, np.ndarray) else result


# --------------------------------------------------------------------------------------
# Per-class building blocks (operate on PerClassCounts, policy already validated).
# --------------------------------------------------------------------------------------
def _precision(c: PerClassCounts, zd) -> np.ndarray:
    return safe_divide(c.tp, c.predicted, zd)


def _recall(c: PerClassCounts, zd) -> np.ndarray:
    return safe_divide(c.tp, c.support, zd)


def _specificity(c: PerClassCounts, zd) -> np.ndarray:
    # TN_i + FP_i is the number of samples outside class i; summed from the other classes'
    # supports it is exactly 0 when every sample is in class i.
    return safe_divide(c.tn, _sum_of_others(c.support), zd)


def _fbeta(precision: np.ndarray, recall: np.ndarray, beta: float, zd) -> np.ndarray:
    # P = R = 0 makes F a 0/0: NaN under "nan" (paper 001's FMEAS convention), otherwise its
    # limit 0 (F <= 2 min(P, R)), also under 1.0: an F of 1 for zero precision and zero
    # recall would be absurd (scikit-learn also returns 0 there whatever zero_division).
    b2 = beta * beta
    f_zd = zd if math.isnan(zd) else 0.0
    return safe_divide((1.0 + b2) * precision * recall, b2 * precision + recall, f_zd)


def _check_beta(beta) -> float:
    try:
        value = float(beta)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"beta must be a non-negative finite number, got {beta!r}") from exc
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"beta must be a non-negative finite number, got {beta!r}")
    return value


def _prepare(cm, zero_division):
    zd = check_zero_division(zero_division)
    arr = check_confusion(cm)
    return arr, _counts(arr), zd


# --------------------------------------------------------------------------------------
# Public helpers
# --------------------------------------------------------------------------------------
def class_precision_recall(cm, *, zero_division: ZeroDivision = "nan"):
    """Per-class precision and recall (paper 000, eqs. 28 and 29).

    ``precision_i = TP_i / (TP_i + FP_i)``, ``recall_i = TP_i / (TP_i + FN_i)``.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Rows = actual, columns = predicted.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of ``0/0`` (a class never predicted, or with no samples).

    Returns
    -------
    precision, recall : numpy.ndarray
        Each of shape ``(..., C)``, in [0, 1].
    """
    _, c, zd = _prepare(cm, zero_division)
    return _precision(c, zd), _recall(c, zd)


def fbeta_macro(cm, beta: float, *, zero_division: ZeroDivision = "nan"):
    r"""Macro F-beta from macro precision and macro recall (paper 000, eq. 21).

    .. math:: F_\beta = (1+\beta^2) \frac{P_M R_M}{\beta^2 P_M + R_M}

    with :math:`P_M`, :math:`R_M` the macro precision and recall (eqs. 17, 18).

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Rows = actual, columns = predicted.
    beta : float
        Non-negative weight of recall relative to precision (``beta = 0`` gives macro
        precision).
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0``.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; range [0, 1], higher is better.
    """
    beta = _check_beta(beta)
    _, c, zd = _prepare(cm, zero_division)
    p = _mean(_precision(c, zd))
    r = _mean(_recall(c, zd))
    return _scalar(_fbeta(p, r, beta, zd))


def fbeta_micro(cm, beta: float, *, zero_division: ZeroDivision = "nan"):
    r"""Micro F-beta from micro precision and micro recall (paper 000, eq. 22).

    .. math:: F_\beta = (1+\beta^2) \frac{P_\mu R_\mu}{\beta^2 P_\mu + R_\mu}

    with :math:`P_\mu`, :math:`R_\mu` the micro precision and recall (eqs. 19, 20), both
    equal to accuracy for single-label multi-class data.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Rows = actual, columns = predicted.
    beta : float
        Non-negative weight of recall relative to precision.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0``.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; range [0, 1], higher is better.
    """
    beta = _check_beta(beta)
    _, c, zd = _prepare(cm, zero_division)
    p = _m_precision_micro(None, c, zd)
    r = _m_recall_micro(None, c, zd)
    return _scalar(_fbeta(p, r, beta, zd))


# --------------------------------------------------------------------------------------
# Measures (the registry). Each has an internal ``_m_<name>(arr, counts, zd)`` and a
# public wrapper that validates once.
# --------------------------------------------------------------------------------------
def _m_accuracy(arr, c, zd):
    return safe_divide(_total(c.tp), c.n, zd)


def _m_error_rate(arr, c, zd):
    return _mean(safe_divide(c.fp + c.fn, c.n[..., None], zd))


def _m_average_accuracy(arr, c, zd):
    return _mean(safe_divide(c.tp + c.tn, c.n[..., None], zd))


def _m_precision_macro(arr, c, zd):
    return _mean(_precision(c, zd))


def _m_recall_macro(arr, c, zd):
    return _mean(_recall(c, zd))


def _m_f1_macro(arr, c, zd):
    return _fbeta(_m_precision_macro(arr, c, zd), _m_recall_macro(arr, c, zd), 1.0, zd)


def _m_f1_macro_mean(arr, c, zd):
    return _mean(_fbeta(_precision(c, zd), _recall(c, zd), 1.0, zd))


def _m_precision_micro(arr, c, zd):
    return safe_divide(_total(c.tp), _total(c.tp + c.fp), zd)


def _m_recall_micro(arr, c, zd):
    return safe_divide(_total(c.tp), _total(c.tp + c.fn), zd)


def _m_f1_micro(arr, c, zd):
    return _fbeta(_m_precision_micro(arr, c, zd), _m_recall_micro(arr, c, zd), 1.0, zd)


def _m_specificity_macro(arr, c, zd):
    return _mean(_specificity(c, zd))


def _m_balanced_accuracy(arr, c, zd):
    return _mean(_recall(c, zd))


def _m_mcc(arr, c, zd):
    # s^2 - sum_k p_k^2 = sum_k p_k * sum_{l != k} p_l (Gorodkin's cov(X, X), paper 001 eq. 8):
    # a sum of non-negative products, exactly 0 iff at most one class is ever predicted.
    s = c.n
    cov_xy = s * _total(c.tp) - _dot(c.predicted, c.support)
    cov_xx = _dot(c.predicted, _sum_of_others(c.predicted))
    cov_yy = _dot(c.support, _sum_of_others(c.support))
    return safe_divide(cov_xy, np.sqrt(cov_xx) * np.sqrt(cov_yy), zd)


def _m_kappa(arr, c, zd):
    # (P_o - P_e) / (1 - P_e) multiplied through by s**2, which keeps integer counts exact;
    # s^2 - sum_i t_i p_i = sum_i t_i * sum_{j != i} p_j is exactly 0 iff every sample sits
    # in one diagonal cell.
    s = c.n
    chance = _dot(c.support, c.predicted)
    return safe_divide(s * _total(c.tp) - chance, _dot(c.support, _sum_of_others(c.predicted)), zd)


def _m_cen(arr, c, zd):
    # Eqs. 1-5 summed in closed form. With b = 2(C - 1), P_j P^j_jk = C_jk / (2S) and
    # P^j_jk = C_jk / both_j, where both_j = sum_k (C_jk + C_kj); so
    #   CEN = -1/(2S ln b) sum_{j != k} C_jk [ln(C_jk / both_j) + ln(C_jk / both_k)]
    #       = -1/(2S ln b) [2 sum_{j != k} C_jk ln C_jk - sum_j (FN_j + FP_j) ln both_j].
    # Cells with C_jk = 0 contribute 0 log 0 = 0 (a limit; xlogy(0, .) = 0), so CEN is
    # defined for every non-empty matrix and the zero-division policy never applies.
    # tests/oracle.py evaluates eqs. 1-5 term by term.
    C = arr.shape[-1]
    both = c.support + c.predicted
    cell_terms = np.einsum("...ij->...", xlogy(arr, arr)) - _total(xlogy(c.tp, c.tp))
    class_terms = _total(xlogy(c.fn + c.fp, both))
    value = -(2.0 * cell_terms - class_terms) / (2.0 * c.n * math.log(2 * (C - 1)))
    return np.maximum(value, 0.0)  # each bracket is <= 0; clip round-off below 0


def _m_pacc(arr, c, zd):
    C = arr.shape[-1]
    denom = c.support[..., :, None] + c.predicted[..., None, :]  # row_i + col_j
    # sum over all cells of 2 C_ij / (row_i + col_j), minus the diagonal, gives the error
    # sum of eqs. 15 and 17. A zero denominator has C_ij = 0: a pair with no mass that
    # contributes 0 under every policy.
    all_cells = np.einsum("...ij->...", safe_divide(arr, denom, 0.0))
    diagonal = _total(safe_divide(c.tp, c.support + c.predicted, 0.0))
    epsilon = 2.0 * (all_cells - diagonal) / C  # eq. 17
    p_diag = safe_divide(2.0 * c.tp, c.support + c.predicted, zd)  # eq. 16
    correct = _mean(p_diag)  # eq. 18
    return 0.5 + (correct - epsilon) / 2.0  # eq. 19


def _m_g_mean(arr, c, zd):
    C = arr.shape[-1]
    return np.prod(_recall(c, zd), axis=-1) ** (1.0 / C)


def _m_iba(arr, c, zd):
    r = _recall(c, zd)
    s = _specificity(c, zd)
    return _mean((1.0 + IBA_ALPHA * (r - s)) * r * s)


def _pd_from_counts(c: PerClassCounts, kappa_arr, zd):
    precision = _precision(c, zd)
    recall = _recall(c, zd)
    if kappa_arr is None:
        kappa_arr = safe_divide(c.support, c.n[..., None], zd)  # eq. 31
    C = precision.shape[-1]
    try:
        np.broadcast_shapes(precision.shape, np.shape(kappa_arr))
    except ValueError as exc:
        raise ValueError(
            f"kappa of shape {np.shape(kappa_arr)} does not broadcast against the leading "
            f"axes {precision.shape[:-1]} of the confusion matrices"
        ) from exc
    nan_p = np.isnan(precision)
    nan_r = np.isnan(recall)
    if not (nan_p.any() or nan_r.any()):
        # Eq. 30 as (sum_i R_i + sum_i k_i (P_i - R_i)) / C: ONE dot product over classes.
        # np.einsum broadcasts the leading axes of cm and kappa without building a
        # (..., K, C) or (..., K, C, C) array. (This grouping also reproduces the authors'
        # script to the last bit on their public example.)
        value = _dot(precision - recall, kappa_arr)
        value += _total(recall)  # shape cm.shape[:-2], broadcasts into value's shape
        value /= C
        return value
    # An undefined (NaN) precision or recall only makes pd undefined if it has a non-zero
    # weight: a term with weight 0 is absent from eq. 30, so kappa = 0 gives macro recall
    # even when a class is never predicted. The indicator dot products are exact.
    weight_r = 1.0 - kappa_arr
    value = _dot(np.where(nan_p, 0.0, precision), kappa_arr) + _dot(
        np.where(nan_r, 0.0, recall), weight_r
    )
    undefined = (_dot(nan_p.astype(np.float64), kappa_arr) > 0) | (
        _dot(nan_r.astype(np.float64), weight_r) > 0
    )
    return np.where(undefined, np.nan, value) / C


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot product over the last axis with broadcasting of the leading axes."""
    return np.einsum("...i,...i->...", a, b)


def _m_preference_driven(arr, c, zd):
    return _pd_from_counts(c, None, zd)


def accuracy(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Accuracy: the share of correctly classified samples (paper 000, eq. 16).

    .. math:: \mathrm{accuracy} = \frac{\sum_i TP_i}{s}

    with ``s`` the number of samples. Equal to micro precision, micro recall and micro F1
    (eqs. 14, 15, 19, 20, 24) and to ACC of paper 001.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_accuracy(arr, c, zd))


def error_rate(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Error rate: mean over classes of the one-vs-rest error (Sokolova & Lapalme 2009).

    .. math:: \mathrm{error\_rate} = \frac{1}{C} \sum_i \frac{FP_i + FN_i}{TP_i + FN_i + FP_i + TN_i}

    This is the multi-class "error rate" of Sokolova & Lapalme (2009, Table 3) and of the
    oneDAL quality metrics (``multiclass-quality-metrics.txt``). Since
    ``sum_i (FP_i + FN_i) = 2 (s - sum_i TP_i)`` it equals ``2 (1 - accuracy) / C`` and
    ``1 - average_accuracy``; it is **not** ``1 - accuracy`` for C > 2.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 2/C] (within [0, 1]); lower is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_error_rate(arr, c, zd))


def average_accuracy(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Average accuracy: mean over classes of the one-vs-rest accuracy (Sokolova & Lapalme 2009).

    .. math:: \mathrm{average\_accuracy} = \frac{1}{C} \sum_i \frac{TP_i + TN_i}{TP_i + FN_i + FP_i + TN_i}

    The "average accuracy" of Sokolova & Lapalme (2009, Table 3) and oneDAL
    (``multiclass-quality-metrics.txt``); equals ``1 - error_rate``.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [1 - 2/C, 1] (within [0, 1]); higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_average_accuracy(arr, c, zd))


def precision_macro(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Macro precision: mean of per-class precisions (paper 000, eq. 17).

    .. math:: \mathrm{macro\_precision} = \frac{1}{C} \sum_i \frac{TP_i}{TP_i + FP_i}

    A class that is never predicted has ``0/0`` precision (resolved by ``zero_division``).
    Equals ``preference_driven`` with every ``kappa_i = 1``.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_precision_macro(arr, c, zd))


def recall_macro(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Macro recall: mean of per-class recalls (paper 000, eq. 18).

    .. math:: \mathrm{macro\_recall} = \frac{1}{C} \sum_i \frac{TP_i}{TP_i + FN_i}

    A class with no samples has ``0/0`` recall (resolved by ``zero_division``). Equals
    ``balanced_accuracy`` (eq. 26) and ``preference_driven`` with every ``kappa_i = 0``.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_recall_macro(arr, c, zd))


def f1_macro(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Macro F1: harmonic mean of macro precision and macro recall (paper 000, eq. 23).

    .. math:: \mathrm{macro\_F1} = 2 \frac{P_M R_M}{P_M + R_M}

    with :math:`P_M`, :math:`R_M` from eqs. 17 and 18; ``fbeta_macro`` with beta = 1
    (eq. 21). This is the "F1" of paper 000's Tables 3 and 6-9. For the mean of per-class
    F1 scores see ``f1_macro_mean``.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_f1_macro(arr, c, zd))


def f1_macro_mean(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Mean of per-class F1 scores: FMEAS of paper 001 (eqs. 10-12).

    .. math:: F_i = \frac{2 P_i R_i}{P_i + R_i}, \qquad
              \mathrm{FMEAS} = \frac{1}{C} \sum_i F_i

    with per-class precision and recall ``P_i``, ``R_i`` (paper 001, eq. 10). ``F_i`` is
    ``0/0`` when ``P_i = R_i = 0`` (no correct prediction of class i): NaN under
    ``zero_division="nan"``, which gives the NaN cells of paper 001's Tables 2, 4 and 6, and
    0 (the limit) under the numeric policies. A ``P_i`` or ``R_i`` that is itself ``0/0``
    follows the policy. Also oneDAL's and scikit-learn's macro F1.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_f1_macro_mean(arr, c, zd))


def precision_micro(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Micro precision: pooled TP over pooled TP + FP (paper 000, eq. 19).

    .. math:: \mathrm{micro\_precision} = \frac{\sum_i TP_i}{\sum_i (TP_i + FP_i)}

    Equals accuracy for single-label data.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_precision_micro(arr, c, zd))


def recall_micro(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Micro recall: pooled TP over pooled TP + FN (paper 000, eq. 20).

    .. math:: \mathrm{micro\_recall} = \frac{\sum_i TP_i}{\sum_i (TP_i + FN_i)}

    Equals accuracy for single-label data.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_recall_micro(arr, c, zd))


def f1_micro(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Micro F1: harmonic mean of micro precision and micro recall (paper 000, eq. 24).

    .. math:: \mathrm{micro\_F1} = 2 \frac{P_\mu R_\mu}{P_\mu + R_\mu}

    Equals accuracy for single-label data (paper 000, Section 3.2).

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_f1_micro(arr, c, zd))


def specificity_macro(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Macro specificity: mean of per-class one-vs-rest specificities (paper 000, eq. 13 averaged).

    .. math:: \mathrm{macro\_specificity} = \frac{1}{C} \sum_i \frac{TN_i}{TN_i + FP_i}

    The binary specificity of paper 000 eq. 13 applied to each class against the rest and
    averaged like eqs. 17-18. ``0/0`` only when every sample belongs to class i.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_specificity_macro(arr, c, zd))


def balanced_accuracy(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Balanced accuracy: mean of per-class recalls (paper 000, eq. 26).

    .. math:: \mathrm{BalancedAccuracy} = \frac{1}{C} \sum_i \frac{TP_i}{TP_i + FN_i}

    Identical to macro recall (eq. 18) for multi-class data, as paper 000 notes; for two
    classes it equals (recall + specificity) / 2 (eqs. 11-12).

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_balanced_accuracy(arr, c, zd))


def mcc(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Multi-class Matthews correlation coefficient, Gorodkin's R_K (paper 000, eq. 25).

    .. math::

        \mathrm{MCC} = \frac{s \sum_i TP_i - \sum_i p_i t_i}
                            {\sqrt{s^2 - \sum_i p_i^2}\,\sqrt{s^2 - \sum_i t_i^2}}

    with ``s`` the number of samples, ``t_i`` the actual and ``p_i`` the predicted total of
    class i. This is also R_k of paper 001 (eqs. 6-9): its eq. 7 sums to
    ``s sum_k C_kk - sum_k t_k p_k`` and eqs. 8-9 to ``s^2 - sum_k p_k^2`` and
    ``s^2 - sum_k t_k^2`` (paper 001 prints an extra square root inside eqs. 8-9, which
    its own tables contradict, e.g. R_k = -0.60 for matrix D of Table 1). ``0/0`` when all
    samples are in one actual class or all predictions in one class (paper 001's NaN).

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [-1, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_mcc(arr, c, zd))


def kappa(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Cohen's kappa: agreement corrected for chance (paper 001, eq. 14).

    .. math:: K = \frac{P_o - P_e}{1 - P_e}, \quad P_o = \frac{\sum_i C_{ii}}{S},
              \quad P_e = \frac{\sum_i C_{i.} C_{.i}}{S^2}

    Computed as ``(S sum_i C_ii - sum_i C_i. C_.i) / (S^2 - sum_i C_i. C_.i)`` (the same
    ratio multiplied through by ``S^2``, exact for integer counts). ``0/0`` only when all
    samples are in one cell of the diagonal.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [-1, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_kappa(arr, c, zd))


def cen(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Confusion entropy CEN of Wei et al. (paper 001, eqs. 1-5), logarithm base 2(C-1).

    .. math::

        P^j_{ij} = \frac{C_{ij}}{\sum_k (C_{jk} + C_{kj})}, \quad
        P^i_{ij} = \frac{C_{ij}}{\sum_k (C_{ik} + C_{ki})}

        CEN_j = -\sum_{k \ne j} \big(P^j_{jk} \log_{2(C-1)} P^j_{jk}
                                     + P^j_{kj} \log_{2(C-1)} P^j_{kj}\big)

        CEN = \sum_j P_j\, CEN_j, \quad
        P_j = \frac{\sum_k (C_{jk} + C_{kj})}{2 \sum_{k,l} C_{kl}}

    ``0 log 0 = 0``; a class with neither samples nor predictions has weight ``P_j = 0``, so
    CEN is defined for every non-empty matrix and ``zero_division`` has no effect. Paper
    001 reports ``1 - CEN``. The bound is 1 for C >= 3; for C = 2 the base-2 entropy of the
    off-diagonal shares can reach ``2 / (e ln 2) = 1.0615`` (paper 001, Table 2, matrix D:
    1 - CEN = -0.06).

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1] for C >= 3, [0, 2/(e ln 2)] for C = 2; lower is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_cen(arr, c, zd))


def pacc(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Probabilistic accuracy Pacc (paper 001, eqs. 15-19).

    .. math::

        P_{ij} = \frac{2 C_{ij}}{\sum_k (C_{ik} + C_{kj})}, \quad
        \epsilon = \frac{1}{C} \sum_i \sum_{j \ne i} P_{ij}, \quad
        c = \frac{1}{C} \sum_i P_{ii}, \quad
        \mathrm{Pacc} = \frac{1}{2} + \frac{c - \epsilon}{2}

    The denominator of ``P_ij`` is row total i plus column total j. ``P_ii`` is ``0/0``
    only for a class with neither samples nor predictions (resolved by ``zero_division``);
    an off-diagonal ``P_ij`` with a zero denominator has ``C_ij = 0`` and is 0 under every
    policy. ``epsilon <= 1`` by Cauchy-Schwarz, so Pacc lies in [0, 1].

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_pacc(arr, c, zd))


def g_mean(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Geometric mean of per-class recalls (multi-class G-mean, Espindola & Ebecken 2005).

    .. math:: G = \Big(\prod_{i=1}^{C} \frac{TP_i}{TP_i + FN_i}\Big)^{1/C}

    The multi-class extension cited by paper 001 (its reference [2]) and used by
    imbalanced-learn's ``geometric_mean_score``; 0 as soon as one class is never
    recognised.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_g_mean(arr, c, zd))


def iba(cm, *, zero_division: ZeroDivision = "nan"):
    r"""Index of balanced accuracy (Garcia, Mollineda & Sanchez 2009), macro-averaged, alpha = 0.1.

    .. math:: \mathrm{IBA}_\alpha = \frac{1}{C} \sum_i \big(1 + \alpha (R_i - S_i)\big) R_i S_i

    with per-class recall ``R_i = TP_i / (TP_i + FN_i)`` and specificity
    ``S_i = TN_i / (TN_i + FP_i)``. The binary IBA is ``(1 + alpha * Dom) * G^2`` with
    dominance ``Dom = TPR - TNR`` and ``G^2 = TPR * TNR``; the multi-class form applies it to
    each class against the rest and averages, like eqs. 17-18. ``alpha = 0.1``
    (``IBA_ALPHA``) is the value Garcia et al. recommend and imbalanced-learn's default.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """
    arr, c, zd = _prepare(cm, zero_division)
    return _scalar(_m_iba(arr, c, zd))


def preference_driven(cm, kappa=None, *, zero_division: ZeroDivision = "nan"):
    r"""Preference-driven classification measure (paper 000, eqs. 27 and 30; default eq. 31).

    .. math::

        \mathrm{pd}_\kappa = \frac{1}{C} \sum_{i=1}^{C}
            \Big[\kappa_i \frac{TP_i}{TP_i + FP_i}
                 + (1 - \kappa_i) \frac{TP_i}{TP_i + FN_i}\Big]

    ``kappa_i`` is the weight of class i's precision (eq. 28) against its recall (eq. 29):
    ``kappa = 1`` everywhere gives macro precision (eq. 17), ``kappa = 0`` gives macro
    recall (eq. 18). ``kappa=None`` uses the default of eq. 31, the actual-class shares
    ``kappa_i = (TP_i + FN_i) / s`` of each matrix.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Rows = actual, columns = predicted.
    kappa : array_like, shape (..., C), optional
        Preference vector(s), each entry in [0, 1]. The leading axes broadcast against
        those of ``cm``: ``preference_driven(cm[:, None], grid)`` with ``cm`` of shape
        ``(M, C, C)`` and ``grid`` of shape ``(K, C)`` gives ``(M, K)`` without building
        an ``(M, K, C, C)`` array.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of ``0/0`` in a per-class precision or recall; paper 000 uses ``0.0``. Under
        ``"nan"`` an undefined precision (recall) makes the result NaN only if its weight
        ``kappa_i`` (``1 - kappa_i``) is non-zero: a term with weight 0 is absent from
        eq. 30, so ``kappa = 0`` still gives macro recall when a class is never predicted.

    Returns
    -------
    numpy.ndarray
        Shape ``broadcast(cm.shape[:-2], kappa.shape[:-1])``. Range [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``cm`` is invalid, or ``kappa`` has the wrong length, a value outside [0, 1] or
        NaN, or leading axes that do not broadcast.

    Examples
    --------
    The authors' public example:

    >>> float(preference_driven([[100, 10, 10], [10, 80, 30], [1, 10, 30]], [0.3, 0.1, 0.9]))
    0.6641628736750688

    Paper 000's cm9 needs ``0/0 = 0`` (class 2 is never predicted):

    >>> float(preference_driven([[10, 0], [10, 0]], [1.0, 1.0], zero_division=0.0))
    0.25

    Two matrices against the 121 vectors of Section 4.2:

    >>> stack = np.array([[[10, 0], [5, 5]], [[5, 5], [0, 10]]])
    >>> grid = np.concatenate(list(kappa_grid(np.linspace(0, 1, 11), 2)))
    >>> preference_driven(stack[:, None], grid).shape
    (2, 121)
    """
    arr, c, zd = _prepare(cm, zero_division)
    kappa_arr = None if kappa is None else check_kappa(kappa, arr.shape[-1])
    return _scalar(_pd_from_counts(c, kappa_arr, zd))


# --------------------------------------------------------------------------------------
# Registry and metadata
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MeasureInfo:
    """Machine-readable facts about one registry measure.

    Attributes
    ----------
    name : str
        Registry key.
    lower, upper : float
        Bounds valid for every number of classes (tighter bounds are in the docstring).
    higher_is_better : bool
        Direction of the measure.
    source : str
        Paper and equation(s).
    row_scale_invariant : bool
        Unchanged when one actual class (row) is multiplied by a positive factor.
    column_scale_invariant : bool
        Unchanged when one predicted class (column) is multiplied by a positive factor.
    """

    name: str
    lower: float
    upper: float
    higher_is_better: bool
    source: str
    row_scale_invariant: bool = False
    column_scale_invariant: bool = False

    @property
    def function(self) -> Callable:
        """The measure function, ``REGISTRY[name]``."""
        return REGISTRY[self.name]


_CEN_UPPER = 2.0 / (math.e * math.log(2.0))

_INFO_ROWS = [
    # name, lower, upper, higher_is_better, source, row-scale inv., column-scale inv.
    ("accuracy", 0.0, 1.0, True, "paper 000, eq. 16", False, False),
    ("error_rate", 0.0, 1.0, False, "Sokolova & Lapalme 2009, Table 3; oneDAL", False, False),
    ("average_accuracy", 0.0, 1.0, True, "Sokolova & Lapalme 2009, Table 3; oneDAL", False, False),
    ("precision_macro", 0.0, 1.0, True, "paper 000, eq. 17", False, True),
    ("recall_macro", 0.0, 1.0, True, "paper 000, eq. 18", True, False),
    ("f1_macro", 0.0, 1.0, True, "paper 000, eq. 23", False, False),
    ("f1_macro_mean", 0.0, 1.0, True, "paper 001, eqs. 10-12 (FMEAS)", False, False),
    ("precision_micro", 0.0, 1.0, True, "paper 000, eq. 19", False, False),
    ("recall_micro", 0.0, 1.0, True, "paper 000, eq. 20", False, False),
    ("f1_micro", 0.0, 1.0, True, "paper 000, eq. 24", False, False),
    ("specificity_macro", 0.0, 1.0, True, "paper 000, eq. 13, macro-averaged", False, False),
    ("balanced_accuracy", 0.0, 1.0, True, "paper 000, eq. 26", True, False),
    ("mcc", -1.0, 1.0, True, "paper 000, eq. 25 (Gorodkin R_K); paper 001, eqs. 6-9", False, False),
    ("kappa", -1.0, 1.0, True, "paper 001, eq. 14 (Cohen 1960)", False, False),
    ("cen", 0.0, _CEN_UPPER, False, "paper 001, eqs. 1-5 (Wei et al. 2010)", False, False),
    ("pacc", 0.0, 1.0, True, "paper 001, eqs. 15-19", False, False),
    ("g_mean", 0.0, 1.0, True, "Espindola & Ebecken 2005 (paper 001, ref. 2)", True, False),
    ("iba", 0.0, 1.0, True, "Garcia, Mollineda & Sanchez 2009", False, False),
    ("preference_driven", 0.0, 1.0, True, "paper 000, eqs. 27, 30 and 31", False, False),
]

#: Measure name -> function ``f(cm, *, zero_division="nan")`` returning shape ``(...)``.
REGISTRY: dict[str, Callable] = {
    "accuracy": accuracy,
    "error_rate": error_rate,
    "average_accuracy": average_accuracy,
    "precision_macro": precision_macro,
    "recall_macro": recall_macro,
    "f1_macro": f1_macro,
    "f1_macro_mean": f1_macro_mean,
    "precision_micro": precision_micro,
    "recall_micro": recall_micro,
    "f1_micro": f1_micro,
    "specificity_macro": specificity_macro,
    "balanced_accuracy": balanced_accuracy,
    "mcc": mcc,
    "kappa": kappa,
    "cen": cen,
    "pacc": pacc,
    "g_mean": g_mean,
    "iba": iba,
    "preference_driven": preference_driven,
}

#: Measure name -> :class:`MeasureInfo` (range, direction, source, invariances).
INFO: dict[str, MeasureInfo] = {row[0]: MeasureInfo(*row) for row in _INFO_ROWS}

_INTERNAL: dict[str, Callable] = {name: globals()[f"_m_{name}"] for name in REGISTRY}


def evaluate(cm, measures=None, *, zero_division: ZeroDivision = "nan") -> dict[str, np.ndarray]:
    """Several registry measures at once, validating and reducing the matrices only once.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Rows = actual, columns = predicted.
    measures : iterable of str, optional
        Registry keys; all of them, in registry order, by default. ``preference_driven`` is
        computed with its default kappa (eq. 31).
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0``.

    Returns
    -------
    dict of str to numpy.ndarray
        Each value has shape ``(...)``; identical to calling ``REGISTRY[name](cm)``.

    Raises
    ------
    ValueError
        For an unknown measure name or invalid input.
    """
    names = list(REGISTRY) if measures is None else list(measures)
    unknown = [name for name in names if name not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown measure(s) {unknown}; known: {list(REGISTRY)}")
    arr, c, zd = _prepare(cm, zero_division)
    return {name: _scalar(_INTERNAL[name](arr, c, zd)) for name in names}
