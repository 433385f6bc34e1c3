"""Shared core of the measures: per-class counts, reductions, the measure decorator.

A measure is written once, as a *kernel* ``kernel(stack) -> ndarray`` that reads what it
needs from a :class:`Stack` (the validated matrices and their per-class quantities, each
computed on first use and cached). :func:`measure` turns a kernel into the public function
``f(cm, *, zero_division="nan")`` (validate, build a :class:`Stack`, run the kernel) and
completes its numpydoc docstring with the sections every measure shares. ``evaluate`` builds
one :class:`Stack` and runs several kernels on it, so the matrices are validated and reduced
once, and a per-class precision or recall is computed once for all the measures that use it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

import numpy as np

from pdmeasure._validation import ZeroDivision, check_confusion, check_zero_division, safe_divide

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

# Up to this many classes the row and column totals come from a product with a 0/1 selector,
# which beats np.einsum over the short class axes; the selector grows as C**3, so from 7
# classes on np.einsum is faster (both compared in benchmarks/bench_measures.py).
_SELECTOR_MAX_CLASSES = 6
# Row block of the small products: OpenBLAS runs a product with M*N*K <= 4 * 65536 on one
# thread. A threaded product with a tiny inner dimension costs more in thread start-up than
# in arithmetic (benchmarks/bench_measures.py), so large stacks are cut into blocks.
_SINGLE_THREAD_MNK = 4 * 65536


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


def per_class_counts(cm: ArrayLike) -> PerClassCounts:
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
    s = Stack(check_confusion(cm), math.nan)
    return PerClassCounts(s.tp, s.fp, s.fn, s.tn, s.support, s.predicted, s.n)


class Stack:
    """Validated confusion matrices and the per-class quantities measures share.

    Each attribute is computed on first use and cached, so several measures evaluated on one
    :class:`Stack` (see ``evaluate``) reduce the matrices and divide only once.

    Parameters
    ----------
    arr : numpy.ndarray, shape (..., C, C)
        Float64 counts already checked by ``check_confusion`` (:func:`prepare` rescales
        them by powers of two when a total is extreme).
    zd : float
        The value of ``0/0`` (already checked by ``check_zero_division``).
    """

    def __init__(self, arr: np.ndarray, zd: float) -> None:
        self.arr = arr
        self.zd = zd
        self.n_classes = arr.shape[-1]

    @functools.cached_property
    def tp(self) -> np.ndarray:
        """``TP_i = C_ii``."""
        return np.einsum("...ii->...i", self.arr).copy()

    @functools.cached_property
    def support(self) -> np.ndarray:
        """Row totals ``TP_i + FN_i`` (actual class sizes)."""
        return _margin(self.arr, "rows")

    @functools.cached_property
    def predicted(self) -> np.ndarray:
        """Column totals ``TP_i + FP_i``."""
        return _margin(self.arr, "columns")

    @functools.cached_property
    def n(self) -> np.ndarray:
        """Number of samples of each matrix, shape ``(...)``."""
        return total(self.support)

    @functools.cached_property
    def fn(self) -> np.ndarray:
        """``FN_i = support_i - TP_i``."""
        return self.support - self.tp

    @functools.cached_property
    def fp(self) -> np.ndarray:
        """``FP_i = predicted_i - TP_i``."""
        return self.predicted - self.tp

    @functools.cached_property
    def tn(self) -> np.ndarray:
        # With integer counts (below 2**53) every value is exact. With non-integer counts a
        # total whose cells are all zero is still exactly zero (adding exact zeros is exact),
        # so FN and FP are exactly 0 when they should be; TN, obtained by subtraction, is
        # clipped at 0 against round-off.
        tn = self.n[..., None] - self.tp  # in place from here: one temporary, not four
        tn -= self.fp
        tn -= self.fn
        return np.maximum(tn, 0.0, out=tn)

    @functools.cached_property
    def cell_buffer(self) -> np.ndarray:
        """Scratch array shaped like the matrices, for a kernel's cell-wise temporary.

        Shared by the kernels of one ``evaluate`` call (one large allocation instead of one
        per kernel); a kernel may overwrite it and must not keep it.
        """
        return np.empty(self.arr.shape)

    @functools.cached_property
    def both(self) -> np.ndarray:
        """``support_i + predicted_i`` (a sample both in and predicted as i counts twice)."""
        return self.support + self.predicted

    @functools.cached_property
    def correct(self) -> np.ndarray:
        """``sum_i TP_i``, shape ``(...)``."""
        return total(self.tp)

    @functools.cached_property
    def precision(self) -> np.ndarray:
        """Per-class precision ``TP_i / (TP_i + FP_i)`` (paper 000, eq. 28)."""
        return safe_divide(self.tp, self.predicted, self.zd)

    @functools.cached_property
    def recall(self) -> np.ndarray:
        """Per-class recall ``TP_i / (TP_i + FN_i)`` (paper 000, eq. 29)."""
        return safe_divide(self.tp, self.support, self.zd)

    @functools.cached_property
    def specificity(self) -> np.ndarray:
        """Per-class ``TN_i / (TN_i + FP_i)``.

        ``TN_i + FP_i`` is the number of samples outside class i; summed from the other
        classes' supports it is exactly 0 when every sample is in class i.
        """
        return safe_divide(self.tn, sum_of_others(self.support), self.zd)

    @functools.cached_property
    def precision_macro(self) -> np.ndarray:
        """Mean of the per-class precisions (paper 000, eq. 17)."""
        return mean(self.precision)

    @functools.cached_property
    def recall_macro(self) -> np.ndarray:
        """Mean of the per-class recalls (paper 000, eq. 18)."""
        return mean(self.recall)

    @functools.cached_property
    def accuracy(self) -> np.ndarray:
        """``sum_i TP_i / n`` (paper 000, eq. 16); also micro precision, recall and F-beta.

        Pooled ``TP + FP`` (eq. 19) and pooled ``TP + FN`` (eq. 20) are both ``n``: each
        sample is in one actual and one predicted class. ``n > 0`` in a validated matrix, so
        this ratio is never ``0/0``.
        """
        return safe_divide(self.correct, self.n, self.zd)


# --------------------------------------------------------------------------------------
# Reductions over the class axis
# --------------------------------------------------------------------------------------
@functools.cache
def _selector(n_classes: int, margin: str) -> np.ndarray:
    """0/1 matrix mapping a flattened ``C x C`` matrix to its row or column totals."""
    eye = np.eye(n_classes)
    ones = np.ones((n_classes, 1))
    # flattened cell (i, j) sits at row i*C + j; rows: cell (i, j) -> i, columns: -> j
    sel = np.kron(eye, ones) if margin == "rows" else np.kron(ones, eye)
    sel.setflags(write=False)
    return sel


def _margin(arr: np.ndarray, margin: str) -> np.ndarray:
    """Row (``margin="rows"``) or column totals of (..., C, C), shape (..., C), contiguous.

    Products with a 0/1 selector add exact zeros to the selected cells, so the totals of
    integer counts (below 2**53) are exact and a total whose cells are all zero is exactly
    zero also for non-integer counts. A previous profile found numpy reductions over the
    tiny class axes several times slower than this product.
    """
    C = arr.shape[-1]
    if C <= _SELECTOR_MAX_CLASSES:
        return small_matmul(arr.reshape(arr.shape[:-2] + (C * C,)), _selector(C, margin))
    return np.einsum("...ij->...i" if margin == "rows" else "...ij->...j", arr)


def small_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for ``a`` of shape (..., K) and a small ``b`` (K, N), in single-thread blocks.

    (See ``_SINGLE_THREAD_MNK``: BLAS threading of such thin products costs far more than it
    saves.)
    """
    k, n = b.shape
    flat = a.reshape(-1, k)
    rows = flat.shape[0]
    step = max(1, _SINGLE_THREAD_MNK // max(1, k * n))
    if rows <= step:
        return (flat @ b).reshape(a.shape[:-1] + (n,))
    out = np.empty((rows, n))
    for start in range(0, rows, step):
        np.matmul(flat[start : start + step], b, out=out[start : start + step])
    return out.reshape(a.shape[:-1] + (n,))


def total(x: np.ndarray) -> np.ndarray:
    """Sum over the last axis.

    ``np.einsum`` adds the terms of every row in the same order whatever the batch, so a
    matrix gets bit-identical values alone and inside a stack; a product with a column of
    ones (BLAS) is faster but its order of addition depends on the shape of the batch.
    """
    return np.einsum("...i->...", x)


def mean(x: np.ndarray) -> np.ndarray:
    """Mean over the last (class) axis."""
    return total(x) / x.shape[-1]


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot product over the last axis with broadcasting of the leading axes."""
    return np.einsum("...i,...i->...", a, b)


@functools.cache
def _others(n_classes: int) -> np.ndarray:
    matrix = 1.0 - np.eye(n_classes)
    matrix.setflags(write=False)
    return matrix


def sum_of_others(totals: np.ndarray) -> np.ndarray:
    """``sum_{l != k} totals_l`` for every k: a sum of non-negative terms, so it is exactly 0
    when it should be (no cancellation as in ``n - totals_k``)."""
    return small_matmul(totals, _others(totals.shape[-1]))


def scalar(result: np.ndarray) -> Any:
    """Return NumPy scalars instead of 0-d arrays."""
    # Any: a NumPy scalar for a 0-d array, else the array itself (numpy types ``a[()]`` as Any).
    return result[()] if isinstance(result, np.ndarray) else result


def nan_or_zero(zd: float) -> float:
    """The value of a ``0/0`` that is NaN under ``"nan"`` and 0 under both numeric policies.

    For the ``0/0`` whose only sensible number is 0 (F of P = R = 0, MCC of a constant
    labelling), where 1.0 would be absurd.
    """
    return zd if math.isnan(zd) else 0.0


# --------------------------------------------------------------------------------------
# F scores
# --------------------------------------------------------------------------------------
def fbeta(precision: np.ndarray, recall: np.ndarray, beta: float, zd: float) -> np.ndarray:
    """``(1 + b^2) P R / (b^2 P + R)`` with the policy of the measures' module docstring."""
    # P = R = 0 makes F a 0/0: NaN under "nan" (paper 001's FMEAS convention), otherwise its
    # limit 0 (F <= 2 min(P, R)), also under 1.0: an F of 1 for zero precision and zero
    # recall would be absurd (scikit-learn also returns 0 there whatever zero_division).
    b2 = beta * beta
    return safe_divide((1.0 + b2) * precision * recall, b2 * precision + recall, nan_or_zero(zd))


def check_beta(beta: float) -> float:
    """``beta`` as a float, or ValueError unless it is a non-negative finite number."""
    try:
        value = float(beta)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"beta must be a non-negative finite number, got {beta!r}") from exc
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"beta must be a non-negative finite number, got {beta!r}")
    return value


# Every measure is unchanged when all counts of a matrix are multiplied by one factor, but
# the products of totals in MCC and kappa (up to n**2) overflow from n ~ 1e154 and underflow
# below n ~ 1e-162, and totals of counts near the float64 maximum overflow. Matrices whose
# total n lies outside this range are rescaled first; inside it the counts are used as given.
_SAFE_TOTALS = (2.0**-64, 2.0**64)


def normalise_scale(arr: np.ndarray) -> np.ndarray:
    """Each matrix of ``arr`` times the power of two that brings its largest count into [0.5, 1).

    A power of two changes only exponents, so the scaling is exact: integer counts keep
    exact sums and products, and a measure gives the value it has on the unscaled counts
    wherever those do not overflow or underflow. Totals then lie in [0.5, C**2) and the
    products of MCC and kappa below C**4. (Only counts under 2**-1074 times the largest
    count of their matrix are lost, to zero.)
    """
    largest = arr.reshape(arr.shape[:-2] + (-1,)).max(axis=-1)
    exponent = np.frexp(largest)[1]
    return np.ldexp(arr, -exponent[..., None, None])


def prepare(cm: ArrayLike, zero_division: ZeroDivision) -> Stack:
    """Validate the policy and the matrices once; return the :class:`Stack`.

    If a matrix total lies outside ``_SAFE_TOTALS`` the matrices are rescaled by
    :func:`normalise_scale` (the measures are scale invariant), so every finite matrix gives
    finite values; the totals computed for this check are kept when no rescaling is needed.
    """
    zd = check_zero_division(zero_division)
    stack = Stack(check_confusion(cm), zd)
    if stack.arr.size:
        with np.errstate(over="ignore"):  # a total that overflows is caught by the test below
            n = stack.n
        if not (_SAFE_TOTALS[0] <= n.min() and n.max() <= _SAFE_TOTALS[1]):
            stack = Stack(normalise_scale(stack.arr), zd)
    return stack


# --------------------------------------------------------------------------------------
# The measure decorator
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
    _function: Callable | None = field(default=None, repr=False, compare=False)

    @property
    def function(self) -> Callable:
        """The measure function, ``REGISTRY[name]``."""
        if self._function is None:
            raise AttributeError(f"measure {self.name!r} has no function attached")
        return self._function


_SHARED_SECTIONS = """
    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Confusion matrices, rows = actual, columns = predicted; int or float counts.
    zero_division : {{"nan", 0.0, 1.0}}, default "nan"
        Value of every ``0/0`` (see the module docstring).

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. Range {range_text}; {direction} is better.

    Raises
    ------
    ValueError
        If ``cm`` is not a valid stack of confusion matrices or ``zero_division`` is not
        one of the accepted values.
    """


def _number(value: float) -> str:
    return f"{value:g}"


class Measure(Protocol):
    """A registry measure: a function of ``(..., C, C)`` counts with its kernel and facts.

    ``kernel`` computes the measure from a :class:`Stack` (shared by :func:`evaluate`), and
    ``info`` holds its :class:`MeasureInfo`.
    """

    __name__: str
    kernel: Callable[..., np.ndarray]
    info: MeasureInfo

    def __call__(self, cm: Any, *args: Any, **kwargs: Any) -> Any: ...


def measure(
    *,
    lower: float = 0.0,
    upper: float = 1.0,
    higher_is_better: bool = True,
    source: str,
    range_text: str | None = None,
    row_scale_invariant: bool = False,
    column_scale_invariant: bool = False,
) -> Callable[[Callable[[Stack], np.ndarray]], Measure]:
    """Turn a kernel ``kernel(stack) -> ndarray`` into a registry measure.

    The public function ``name(cm, *, zero_division="nan")`` validates ``zero_division``
    and ``cm`` once, runs the kernel and returns a NumPy scalar for a single matrix. Its
    docstring is the kernel's (summary with paper and equation, formula, notes) followed by
    the Parameters, Returns (range and direction) and Raises sections all measures share.
    The kernel stays reachable as ``function.kernel`` and the facts as ``function.info``
    (a :class:`MeasureInfo`).

    Parameters
    ----------
    lower, upper : float
        Bounds valid for every number of classes.
    higher_is_better : bool
        Direction.
    source : str
        Paper and equation(s), for the registry's summary table.
    range_text : str, optional
        The range as the Returns section prints it, when it is tighter than
        ``[lower, upper]`` (e.g. depends on C).
    row_scale_invariant, column_scale_invariant : bool
        See :class:`MeasureInfo`.
    """

    def decorate(kernel: Callable[[Stack], np.ndarray]) -> Measure:
        name = kernel.__name__

        def function(cm: ArrayLike, *, zero_division: ZeroDivision = "nan") -> Any:
            return scalar(kernel(prepare(cm, zero_division)))

        text = range_text or f"[{_number(lower)}, {_number(upper)}]"
        direction = "higher" if higher_is_better else "lower"
        function.__name__ = name
        function.__qualname__ = name
        function.__module__ = kernel.__module__
        function.__doc__ = (
            (kernel.__doc__ or "").rstrip()
            + "\n"
            + _SHARED_SECTIONS.format(range_text=text, direction=direction)
        )
        registered = cast(Measure, function)
        registered.kernel = kernel
        registered.info = MeasureInfo(
            name,
            lower,
            upper,
            higher_is_better,
            source,
            row_scale_invariant,
            column_scale_invariant,
            function,
        )
        return registered

    return decorate
