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

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._validation import check_zero_division


def to_fraction(value) -> Fraction:
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


@dataclass(frozen=True)
class LinearForm:
    """``const + sum_i slopes[i] * kappa[i]`` with exact rational coefficients.

    Attributes
    ----------
    const : Fraction
    slopes : tuple of Fraction
        One slope per class (the length of kappa).
    """

    const: Fraction
    slopes: tuple[Fraction, ...]

    @property
    def n_classes(self) -> int:
        return len(self.slopes)

    def __sub__(self, other: "LinearForm") -> "LinearForm":
        if other.n_classes != self.n_classes:
            raise ValueError(
                f"forms over {self.n_classes} and {other.n_classes} classes cannot be combined"
            )
        return LinearForm(
            self.const - other.const, tuple(a - b for a, b in zip(self.slopes, other.slopes))
        )

    def value(self, kappa: Sequence) -> Fraction:
        """Exact value at one kappa vector (entries read with :func:`to_fraction`)."""
        if len(kappa) != self.n_classes:
            raise ValueError(f"kappa has {len(kappa)} entries, the form {self.n_classes}")
        return self.const + sum(
            (s * to_fraction(k) for s, k in zip(self.slopes, kappa)), Fraction(0)
        )

    def evaluate(self, kappa: np.ndarray) -> np.ndarray:
        """Float values at kappa vectors ``(..., C)`` -> ``(...)``."""
        kappa = np.asarray(kappa, dtype=float)
        return float(self.const) + kappa @ np.array([float(s) for s in self.slopes])


def class_rates_exact(cm, zero_division=0.0) -> tuple[list[Fraction], list[Fraction]]:
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


def pd_form(cm, zero_division=0.0) -> LinearForm:
    """pd of one confusion matrix as an exact linear form in kappa (paper 000, eq. 30).

    ``const = (1/C) sum_i r_i`` and ``slope_i = (p_i - r_i) / C``: kappa weights precision.
    """
    precision, recall = class_rates_exact(cm, zero_division)
    c = len(recall)
    return LinearForm(sum(recall, Fraction(0)) / c, tuple((p - r) / c for p, r in zip(precision, recall)))


def class_shares(cm) -> list[Fraction]:
    """Default kappa (paper 000, eq. 31): actual-class shares ``n_i / N`` as fractions."""
    actual = np.asarray(cm).sum(axis=1)
    total = int(actual.sum())
    if total <= 0:
        raise ValueError("confusion matrix is empty: no class shares")
    return [Fraction(int(a), total) for a in actual]


@dataclass(frozen=True)
class ProductGrid:
    """A product grid of kappa vectors: ``values[0] x values[1] x ... x values[C-1]``.

    Attributes
    ----------
    values : tuple of tuple of Fraction
        The kappa values allowed for each class (exact; distinct within a class).
    """

    values: tuple[tuple[Fraction, ...], ...]

    @classmethod
    def regular(cls, values: Sequence, n_classes: int) -> "ProductGrid":
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
    def evenly_spaced(cls, n_values: int, n_classes: int) -> "ProductGrid":
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

    def float_values(self) -> list[np.ndarray]:
        return [np.array([float(v) for v in vals]) for vals in self.values]

    def vectors(self, flat_indices: np.ndarray) -> np.ndarray:
        """Float kappa vectors at flat indices in itertools.product order (last class fastest)."""
        digits = np.unravel_index(np.asarray(flat_indices, dtype=np.int64), self.sizes)
        return np.stack([vals[d] for vals, d in zip(self.float_values(), digits)], axis=-1)
