"""Input checks and the single zero-division helper of :mod:`pdmeasure.measures`.

Every ratio in the measures library goes through :func:`safe_divide`, so that ``0/0`` is
resolved in one place by one policy (see the module docstring of
:mod:`pdmeasure.measures`). The checks raise :class:`ValueError` with a message that names
the problem and, for a batch of matrices, the index of the first offending matrix.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Accepted spellings of the zero-division policy: ``"nan"`` or a number, 0.0 or 1.0.
ZeroDivision = str | float

#: The one default of ``zero_division`` in the library (measures, exact analysis,
#: uncertainty), the tidy tables and the ``pdmeasure`` command: a measure that meets a 0/0
#: ratio is undefined (NaN), and says so. The papers use 0 (config ``zero_division: 0.0``
#: of the pipeline, and :mod:`pdmeasure.paper`); the scikit-learn scorers follow
#: scikit-learn's ``"warn"`` (warn, then 0) so that model selection never sees NaN.
ZERO_DIVISION_DEFAULT = "nan"

_ALLOWED_NUMBERS = (0.0, 1.0)


def check_zero_division(zero_division: ZeroDivision) -> float:
    """Validate a zero-division policy and return the value that ``0/0`` takes.

    Parameters
    ----------
    zero_division : {"nan", 0.0, 1.0}
        ``"nan"`` (also ``float("nan")``) makes ``0/0`` NaN; ``0.0`` or ``1.0`` make it that
        number.

    Returns
    -------
    float
        ``nan``, ``0.0`` or ``1.0``.

    Raises
    ------
    ValueError
        For any other value.
    """
    if isinstance(zero_division, str):
        if zero_division.lower() == "nan":
            return math.nan
    elif isinstance(zero_division, (int, float, np.integer, np.floating)) and not isinstance(
        zero_division, bool
    ):
        value = float(zero_division)
        if math.isnan(value) or value in _ALLOWED_NUMBERS:
            return value
    raise ValueError(f"zero_division must be 'nan', 0.0 or 1.0, got {zero_division!r}")


def safe_divide(
    numerator: ArrayLike,
    denominator: ArrayLike,
    zero_division: ZeroDivision = "nan",
    *,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Element-wise ``numerator / denominator`` with ``0/0`` replaced by the policy value.

    This is the only place in :mod:`pdmeasure.measures` where a division can meet a zero
    denominator. Every division by zero takes the policy value: in each measure a zero
    denominator implies a zero numerator, so ``x/0`` with ``x != 0`` can only be round-off
    left in the numerator by non-integer counts, and is treated as the ``0/0`` it stands for.

    Parameters
    ----------
    numerator, denominator : array_like
        Broadcast against each other; the denominator must be non-negative.
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of ``0/0``.
    out : numpy.ndarray, optional
        Float64 array of the broadcast shape to write the quotient into; it may be the
        denominator itself (saves an allocation on large stacks).

    Returns
    -------
    numpy.ndarray
        Float64 quotient of the broadcast shape (``out`` if given).

    Examples
    --------
    >>> safe_divide([1.0, 0.0], [2.0, 0.0], 0.0)
    array([0.5, 0. ])
    """
    fill = check_zero_division(zero_division)
    num = np.asarray(numerator, dtype=np.float64)
    den = np.asarray(denominator, dtype=np.float64)
    undefined = den == 0  # before the division: ``out`` may be ``den``
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.divide(num, den, out=out)
    if np.any(undefined):
        if result.ndim == 0:
            # A 0-d result is returned as a NumPy scalar, as NumPy's own ufuncs do.
            return np.float64(fill)  # type: ignore[return-value]
        np.copyto(result, fill, where=undefined)
    return result


def check_confusion(cm: ArrayLike) -> np.ndarray:
    """Validate a stack of confusion matrices and return it as float64.

    Parameters
    ----------
    cm : array_like, shape (..., C, C)
        Counts (integers or floats), rows = actual class, columns = predicted class.

    Returns
    -------
    numpy.ndarray
        The input as a float64 array of the same shape.

    Raises
    ------
    ValueError
        If the input is not numeric or is complex, not square in its last two axes, smaller
        than 2x2, holds a negative, NaN or infinite count, or a matrix with no samples (the
        message gives the index of the first such matrix in the batch).
    """
    arr = _as_real_float64(cm, "confusion matrix", "numeric counts")
    if arr.ndim < 2:
        raise ValueError(f"confusion matrix must have shape (..., C, C), got shape {arr.shape}")
    rows, cols = arr.shape[-2:]
    if rows != cols:
        raise ValueError(
            f"confusion matrix must be square (..., C, C), got last two axes {rows}x{cols}"
        )
    if rows < 2:
        raise ValueError(f"confusion matrix must be at least 2x2, got {rows}x{cols}")
    if arr.size == 0:
        return arr
    # Two reductions without temporaries check the valid case (min and max propagate NaN;
    # min < 0 catches -inf, max == inf catches +inf); the error paths locate the cell.
    low, high = arr.min(), arr.max()
    if not (low >= 0 and high < math.inf):
        finite = np.isfinite(arr)
        if not finite.all():
            _raise_at(arr, ~finite, "a NaN or infinite count")
        _raise_at(arr, arr < 0, "a negative count")
    if low > 0:
        return arr  # no matrix can be empty
    totals = np.einsum("...ij->...", arr)
    empty = totals <= 0
    if np.any(empty):
        where = np.argwhere(np.atleast_1d(empty))[0]
        label = _batch_label(arr.shape[:-2], where)
        raise ValueError(f"confusion matrix{label} holds no samples (all counts are zero)")
    return arr


def _as_real_float64(values, name: str, expected: str) -> np.ndarray:
    """``values`` as a float64 array, or ValueError for non-numeric or complex input.

    Complex input is refused before the cast, which would drop the imaginary parts with only
    a warning.
    """
    try:
        arr = np.asarray(values)
        if arr.dtype.kind != "c":
            return arr.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be {expected}: {exc}") from exc
    raise ValueError(f"{name} must be real, got complex values (dtype {arr.dtype})")


def _batch_label(batch_shape: tuple, where) -> str:
    if not batch_shape:
        return ""
    return f" at batch index {tuple(int(i) for i in where)}"


def _raise_at(arr: np.ndarray, bad: np.ndarray, what: str) -> None:
    first = np.argwhere(bad)[0]
    batch = first[:-2]
    label = _batch_label(arr.shape[:-2], batch)
    cell = (int(first[-2]), int(first[-1]))
    value = float(arr[tuple(first)])
    raise ValueError(
        f"confusion matrix{label} has {what} ({value!r}) in cell (actual={cell[0]}, "
        f"predicted={cell[1]})"
    )


def check_kappa_length(length: int, n_classes: int, classes: str = "") -> None:
    """The one check that a kappa vector has one weight per class.

    Parameters
    ----------
    length : int
        The number of weights given.
    n_classes : int
        C, the number of classes.
    classes : str, optional
        The class labels as text, added to the message after the count.

    Raises
    ------
    ValueError
        ``"kappa has L value(s) but there are C classes ...; give one weight per class"``.
    """
    if length != n_classes:
        named = f" {classes}" if classes else ""
        raise ValueError(
            f"kappa has {length} value(s) but there are {n_classes} classes{named}; "
            "give one weight per class"
        )


def check_kappa(kappa: ArrayLike, n_classes: int) -> np.ndarray:
    """Validate a preference vector (or a stack of them) for the preference-driven measure.

    Parameters
    ----------
    kappa : array_like, shape (..., C)
        Weights of precision, one per class, each in [0, 1].
    n_classes : int
        C, the number of classes of the confusion matrices.

    Returns
    -------
    numpy.ndarray
        ``kappa`` as float64.

    Raises
    ------
    ValueError
        If kappa is not numeric or is complex, its last axis is not of length C, or a value
        is NaN or outside [0, 1].
    """
    arr = _as_real_float64(kappa, "kappa", "numeric")
    if arr.ndim == 0:
        raise ValueError(f"kappa must be a vector of {n_classes} weights, got a scalar")
    check_kappa_length(arr.shape[-1], n_classes)
    if arr.size == 0:
        return arr
    # min and max propagate NaN, so two reductions check everything without temporaries
    # (kappa grids can be large)
    low, high = arr.min(), arr.max()
    if np.isnan(low) or np.isnan(high):
        raise ValueError("kappa must not contain NaN")
    if low < 0 or high > 1:
        bad = float(low if low < 0 else high)
        raise ValueError(f"kappa values must lie in [0, 1], got {bad!r}")
    return arr
