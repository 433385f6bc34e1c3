"""pd as an exact linear form in kappa, and kappa spaces (product grids, the unit cube).

Paper 000, eq. 30: ``pd(kappa) = (1/C) sum_i [kappa_i p_i + (1 - kappa_i) r_i]`` with per-class
precision ``p_i = TP_i / (TP_i + FP_i)`` (eq. 28) and recall ``r_i = TP_i / (TP_i + FN_i)``
(eq. 29). It is affine in kappa::

    pd(kappa) = mean_i r_i + sum_i kappa_i (p_i - r_i) / C

so pd, and the difference ``pd_A - pd_B`` of two classifiers evaluated at the same kappa, are
both :class:`LinearForm` objects ``const + sum_i slope_i kappa_i``. Everything in
:mod:`pdmeasure.exact` works on such forms. Coefficients are :class:`fractions.Fraction`
computed from the integer counts, so they are exact.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure._validation import (
    ZERO_DIVISION_DEFAULT,
    ZeroDivision,
    check_kappa_length,
    check_zero_division,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def to_fraction(value: float | Fraction | np.integer | np.floating) -> Fraction:
    """A number as an exact fraction, reading a float as the decimal it prints as.

    Config values such as ``0.166`` mean the decimal 166/1000, not the nearest binary double,
    so floats go through their shortest ``repr``. Integers and fractions are kept as they are.

    Raises
    ------
    ValueError
        For NaN or infinite values.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return Fraction(int(value))
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"cannot use the non-finite number {value!r} in exact arithmetic")
    return Fraction(repr(number))


class LinearForm:
    """``const + sum_i slopes[i] * kappa[i]`` with exact rational coefficients.

    The exact coefficients (:class:`~fractions.Fraction`) may be computed on first use: the fast
    paths work on the float copies (:attr:`~pdmeasure.exact.LinearForm.const_float`, :attr:`~pdmeasure.exact.LinearForm.slopes_float`) and call for the
    exact values only to settle near-ties, so building a form from a confusion matrix costs a
    few numpy operations.

    Parameters
    ----------
    const : number
    slopes : sequence of numbers
        One slope per class (the length of kappa). Numbers are read with :func:`to_fraction`.
    """

    __slots__ = ("_exact", "_make_exact", "_floats")

    def __init__(self, const, slopes):
        exact = (to_fraction(const), tuple(to_fraction(s) for s in slopes))
        # Exact coefficients, or None until a deferred form (:meth:`deferred`) needs them.
        self._exact: tuple[Fraction, tuple[Fraction, ...]] | None = exact
        self._make_exact: Callable[[], tuple[Fraction, tuple[Fraction, ...]]] | None = None
        self._floats = (float(exact[0]), np.array([float(v) for v in exact[1]]))

    @classmethod
    def deferred(
        cls,
        const_float: float,
        slopes_float: np.ndarray,
        make_exact: Callable[[], tuple[Fraction, tuple[Fraction, ...]]],
    ) -> LinearForm:
        """A form from float coefficients and a function returning the exact ``(const, slopes)``.

        The floats must be the exact values rounded by at most a few float operations on
        numbers of magnitude <= 1 (as pd's coefficients are); the rounding bound of
        :class:`pdmeasure.exact.grid.GridDistribution` relies on it.
        """
        form = cls.__new__(cls)
        form._exact = None
        form._make_exact = make_exact
        form._floats = (float(const_float), np.asarray(slopes_float, dtype=float))
        return form

    def _exact_values(self) -> tuple[Fraction, tuple[Fraction, ...]]:
        if self._exact is None:
            assert self._make_exact is not None  # set by deferred() whenever _exact is None
            self._exact = self._make_exact()
            self._make_exact = None
        return self._exact

    @property
    def const(self) -> Fraction:
        return self._exact_values()[0]

    @property
    def slopes(self) -> tuple[Fraction, ...]:
        return self._exact_values()[1]

    @property
    def const_float(self) -> float:
        return self._floats[0]

    @property
    def slopes_float(self) -> np.ndarray:
        return self._floats[1]

    @property
    def n_classes(self) -> int:
        return len(self._floats[1])

    def __repr__(self) -> str:
        return f"LinearForm(const={self.const!r}, slopes={self.slopes!r})"

    def __sub__(self, other: LinearForm) -> LinearForm:
        if other.n_classes != self.n_classes:
            raise ValueError(
                f"forms over {self.n_classes} and {other.n_classes} classes cannot be combined"
            )

        def exact():
            return (
                self.const - other.const,
                tuple(a - b for a, b in zip(self.slopes, other.slopes)),
            )

        return LinearForm.deferred(
            self.const_float - other.const_float, self.slopes_float - other.slopes_float, exact
        )

    def value(self, kappa: Sequence) -> Fraction:
        """Exact value at one kappa vector (entries read with :func:`to_fraction`)."""
        check_kappa_length(len(kappa), self.n_classes)
        return self.const + sum(
            (s * to_fraction(k) for s, k in zip(self.slopes, kappa)), Fraction(0)
        )

    def evaluate(self, kappa: np.ndarray) -> np.ndarray:
        """Float values at kappa vectors ``(..., C)`` -> ``(...)``."""
        return self.const_float + np.asarray(kappa, dtype=float) @ self.slopes_float


def class_rates_exact(
    cm: ArrayLike, zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT
) -> tuple[list[Fraction], list[Fraction]]:
    """Exact per-class precision and recall of one count matrix (paper 000, eq. 28-29).

    Parameters
    ----------
    cm : array (C, C) of non-negative integers
        Rows actual, columns predicted.
    zero_division : {0.0, 1.0, "nan"}
        Value of a 0/0 ratio. ``"nan"`` is accepted only if no ratio is 0/0, since a NaN has no
        place in an exact distribution.

    Returns
    -------
    precision, recall : list of Fraction
    """
    counts = np.asarray(cm)
    if counts.ndim != 2 or counts.shape[0] != counts.shape[1]:
        raise ValueError(f"expected one square confusion matrix, got shape {counts.shape}")
    if not np.issubdtype(counts.dtype, np.integer):
        if not np.all(np.isfinite(counts)) or np.any(counts != np.round(counts)):
            raise ValueError("exact analysis needs integer counts in the confusion matrix")
        counts = counts.astype(np.int64)
    if np.any(counts < 0):
        raise ValueError("confusion matrix has negative counts")
    fill = check_zero_division(zero_division)
    tp = np.diag(counts)
    predicted, actual = counts.sum(axis=0), counts.sum(axis=1)

    def ratio(num: int, den: int, what: str, i: int) -> Fraction:
        if den:
            return Fraction(int(num), int(den))
        if math.isnan(fill):
            raise ValueError(
                f"{what} of class {i} is 0/0 and zero_division='nan': no exact distribution; "
                "use zero_division=0.0 (the papers' convention)"
            )
        return Fraction(int(fill))

    precision = [ratio(tp[i], predicted[i], "precision", i) for i in range(len(tp))]
    recall = [ratio(tp[i], actual[i], "recall", i) for i in range(len(tp))]
    return precision, recall


def pd_form(cm: ArrayLike, zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT) -> LinearForm:
    """pd of one confusion matrix as an exact linear form in kappa (paper 000, eq. 30).

    ``const = (1/C) sum_i r_i`` and ``slope_i = (p_i - r_i) / C``: kappa weights precision.
    """
    counts = np.asarray(cm)
    if counts.ndim != 2 or counts.shape[0] != counts.shape[1]:
        raise ValueError(f"expected one square confusion matrix, got shape {counts.shape}")
    c = counts.shape[0]

    def exact():
        precision, recall = class_rates_exact(counts, zero_division)
        return (
            sum(recall, Fraction(0)) / c,
            tuple((p - r) / c for p, r in zip(precision, recall)),
        )

    fill = check_zero_division(zero_division)
    tp = np.diag(counts).astype(float)
    predicted, actual = counts.sum(axis=0), counts.sum(axis=1)
    if math.isnan(fill) and (np.any(predicted == 0) or np.any(actual == 0)):
        exact()  # raises the explanatory error
    if not np.issubdtype(counts.dtype, np.integer) or np.any(counts < 0):
        exact()  # validates the counts (raises for non-integers or negatives)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(predicted > 0, tp / np.maximum(predicted, 1), fill)
        recall = np.where(actual > 0, tp / np.maximum(actual, 1), fill)
    return LinearForm.deferred(recall.sum() / c, (precision - recall) / c, exact)


def pd_forms(
    cms: ArrayLike, zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT
) -> list[LinearForm]:
    """:func:`pd_form` of a stack of matrices ``(M, C, C)``, with the float work batched."""
    stack = np.asarray(cms)
    if stack.ndim != 3 or stack.shape[1] != stack.shape[2]:
        raise ValueError(f"expected matrices of shape (M, C, C), got {stack.shape}")
    fill = check_zero_division(zero_division)
    if not np.issubdtype(stack.dtype, np.integer) or math.isnan(fill) or np.any(stack < 0):
        return [pd_form(cm, zero_division) for cm in stack]  # the checked path
    c = stack.shape[1]
    tp = np.diagonal(stack, axis1=1, axis2=2).astype(float)
    predicted, actual = stack.sum(axis=1), stack.sum(axis=2)
    precision = np.where(predicted > 0, tp / np.maximum(predicted, 1), fill)
    recall = np.where(actual > 0, tp / np.maximum(actual, 1), fill)
    consts, slopes = recall.sum(axis=1) / c, (precision - recall) / c

    def exact(cm):
        def make():
            p, r = class_rates_exact(cm, zero_division)
            return sum(r, Fraction(0)) / c, tuple((a - b) / c for a, b in zip(p, r))

        return make

    return [LinearForm.deferred(consts[k], slopes[k], exact(stack[k])) for k in range(len(stack))]


def class_shares(cm: ArrayLike) -> list[Fraction]:
    """Default kappa (paper 000, eq. 31): actual-class shares ``n_i / N`` as fractions."""
    actual = np.asarray(cm).sum(axis=1)
    total = int(actual.sum())
    if total <= 0:
        raise ValueError("confusion matrix is empty: no class shares")
    return [Fraction(int(a), total) for a in actual]


@dataclass(frozen=True)
class ProductGrid:
    """A product grid of kappa vectors: the product of ``values[0]``, ..., ``values[C-1]``.

    Attributes
    ----------
    values : tuple of tuple of Fraction
        The kappa values allowed for each class (exact; distinct within a class).
    """

    values: tuple[tuple[Fraction, ...], ...]

    @classmethod
    def regular(cls, values: Sequence, n_classes: int) -> ProductGrid:
        """The same values for every class (the papers' grids, e.g. ``[0, 0.1, ..., 1]**C``)."""
        if n_classes < 1:
            raise ValueError(f"a grid needs at least one class, got {n_classes}")
        exact = tuple(to_fraction(v) for v in values)
        if not exact:
            raise ValueError("a kappa grid needs at least one value")
        if len(set(exact)) != len(exact):
            raise ValueError(f"kappa grid values repeat: {list(values)}")
        return cls((exact,) * n_classes)

    @classmethod
    def evenly_spaced(cls, n_values: int, n_classes: int) -> ProductGrid:
        """``{0, 1/(n-1), ..., 1}**C`` (the fine grid of config ``exact.fine_grid_values``)."""
        if n_values < 2:
            raise ValueError(f"an evenly spaced grid needs at least 2 values, got {n_values}")
        return cls.regular([Fraction(k, n_values - 1) for k in range(n_values)], n_classes)

    @property
    def n_classes(self) -> int:
        return len(self.values)

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(v) for v in self.values)

    @property
    def n_vectors(self) -> int:
        """Number of kappa vectors (an exact Python int; 11**18 does not fit a C long)."""
        return math.prod(self.sizes)

    @functools.cached_property
    def _floats(self) -> list[np.ndarray]:
        return [np.array([float(v) for v in vals]) for vals in self.values]

    @functools.cached_property
    def float_matrix(self) -> np.ndarray | None:
        """The values as a (C, V) float array if every class has V values, else None."""
        return np.stack(self._floats) if len(set(self.sizes)) == 1 else None

    @functools.cached_property
    def value_stats(self) -> tuple[float, float]:
        """Largest per-class spread (max - min) and largest magnitude of the values."""
        return (
            max(float(np.ptp(v)) for v in self._floats),
            max(float(np.abs(v).max()) for v in self._floats),
        )

    def float_values(self) -> list[np.ndarray]:
        """The kappa values of each class as float arrays (cached)."""
        return self._floats

    def vectors(self, flat_indices: np.ndarray) -> np.ndarray:
        """Float kappa vectors at flat indices in itertools.product order (last class fastest)."""
        digits = np.unravel_index(np.asarray(flat_indices, dtype=np.int64), self.sizes)
        return np.stack([vals[d] for vals, d in zip(self.float_values(), digits)], axis=-1)
