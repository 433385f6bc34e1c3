"""The preference-driven measure (paper 000, eqs. 27-31), per-class precision and recall, and
the F-beta scores of eqs. 21-22."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from pdmeasure._validation import ZeroDivision, check_kappa, safe_divide
from pdmeasure.measures._core import (
    Measure,
    MeasureInfo,
    Stack,
    check_beta,
    dot,
    fbeta,
    prepare,
    scalar,
    total,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


# The measures here return Any, as registry measures do (Measure.__call__): a NumPy scalar
# for one matrix, an array for a stack. A union of the two would make every caller that
# indexes a stack's result cast it.
def class_precision_recall(
    cm: ArrayLike, *, zero_division: ZeroDivision = "nan"
) -> tuple[np.ndarray, np.ndarray]:
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
    s = prepare(cm, zero_division)
    return s.precision, s.recall


_FBETA_SECTIONS = """
    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Rows = actual, columns = predicted.
    beta : float
        Non-negative weight of recall relative to precision{beta_note}.
    zero_division : {{"nan", 0.0, 1.0}}, default "nan"
        Value of every ``0/0``.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; range [0, 1], higher is better.
    """


def _fbeta_sections(beta_note: str = ""):
    """Complete an F-beta docstring with the Parameters and Returns sections both share."""

    def decorate(func):
        func.__doc__ = func.__doc__.rstrip() + "\n" + _FBETA_SECTIONS.format(beta_note=beta_note)
        return func

    return decorate


@_fbeta_sections(" (``beta = 0`` gives macro\n        precision)")
def fbeta_macro(cm: ArrayLike, beta: float, *, zero_division: ZeroDivision = "nan") -> Any:
    r"""Macro F-beta from macro precision and macro recall (paper 000, eq. 21).

    .. math:: F_\beta = (1+\beta^2) \frac{P_M R_M}{\beta^2 P_M + R_M}

    with :math:`P_M`, :math:`R_M` the macro precision and recall (eqs. 17, 18).
    """
    beta = check_beta(beta)
    s = prepare(cm, zero_division)
    return scalar(fbeta(s.precision_macro, s.recall_macro, beta, s.zd))


@_fbeta_sections()
def fbeta_micro(cm: ArrayLike, beta: float, *, zero_division: ZeroDivision = "nan") -> Any:
    r"""Micro F-beta from micro precision and micro recall (paper 000, eq. 22).

    .. math:: F_\beta = (1+\beta^2) \frac{P_\mu R_\mu}{\beta^2 P_\mu + R_\mu}

    with :math:`P_\mu`, :math:`R_\mu` the micro precision and recall (eqs. 19, 20), both
    equal to accuracy ``a``; so ``F_beta = (1 + beta^2) a^2 / ((1 + beta^2) a) = a`` for
    every beta, and 0 when no prediction is correct under every ``zero_division`` (see
    ``f1_micro``).
    """
    check_beta(beta)
    return scalar(prepare(cm, zero_division).accuracy.copy())


def preference_driven(
    cm: ArrayLike, kappa: ArrayLike | None = None, *, zero_division: ZeroDivision = "nan"
) -> Any:
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

    >>> from pdmeasure.measures import kappa_grid
    >>> stack = np.array([[[10, 0], [5, 5]], [[5, 5], [0, 10]]])
    >>> grid = np.concatenate(list(kappa_grid(np.linspace(0, 1, 11), 2)))
    >>> preference_driven(stack[:, None], grid).shape
    (2, 121)
    """
    s = prepare(cm, zero_division)
    kappa_arr = None if kappa is None else check_kappa(kappa, s.n_classes)
    return scalar(pd_kernel(s, kappa_arr))


def pd_kernel(s: Stack, kappa_arr: np.ndarray | None = None) -> np.ndarray:
    """Eq. 30 on a :class:`Stack`; ``kappa_arr=None`` is the default of eq. 31."""
    precision = s.precision
    recall = s.recall
    if kappa_arr is None:
        kappa_arr = safe_divide(s.support, s.n[..., None], s.zd)  # eq. 31
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
        value = dot(precision - recall, kappa_arr)
        value += total(recall)  # shape cm.shape[:-2], broadcasts into value's shape
        value /= s.n_classes
        return value
    # An undefined (NaN) precision or recall only makes pd undefined if it has a non-zero
    # weight: a term with weight 0 is absent from eq. 30, so kappa = 0 gives macro recall
    # even when a class is never predicted. The indicator dot products are exact.
    weight_r = 1.0 - kappa_arr
    value = dot(np.where(nan_p, 0.0, precision), kappa_arr) + dot(
        np.where(nan_r, 0.0, recall), weight_r
    )
    undefined = (dot(nan_p.astype(np.float64), kappa_arr) > 0) | (
        dot(nan_r.astype(np.float64), weight_r) > 0
    )
    return np.where(undefined, np.nan, value) / s.n_classes


# Registry facts of preference_driven (the other measures get theirs from @measure, whose
# fixed (cm, *, zero_division) signature pd, with its kappa argument, does not have).
_registered = cast(Measure, preference_driven)
_registered.kernel = pd_kernel
_registered.info = MeasureInfo(
    "preference_driven",
    0.0,
    1.0,
    True,
    "paper 000, eqs. 27, 30 and 31",
    _function=preference_driven,
)
