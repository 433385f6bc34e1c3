"""From label vectors to the library's inputs: a count matrix, and a kappa vector by label.

The kappa vector of the preference-driven measure is positional, so both functions take the
class order as data (``classes`` / ``labels``) and never derive it by sorting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pdmeasure._validation import check_kappa_length

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def confusion_matrix(actual: Sequence, predicted: Sequence, classes: Sequence[str]) -> np.ndarray:
    """Count matrix with rows = actual and columns = predicted, in the order of ``classes``.

    Raises
    ------
    ValueError
        If a label is not one of ``classes``.
    """
    index = {c: i for i, c in enumerate(classes)}
    # As object arrays first: iterating a pandas column of Arrow strings (pandas 3's default)
    # item by item costs about 2 microseconds a label, an object array a tenth of that.
    rows, cols = np.asarray(actual, dtype=object), np.asarray(predicted, dtype=object)
    try:
        a = np.fromiter((index[x] for x in rows), dtype=np.intp, count=len(rows))
        p = np.fromiter((index[x] for x in cols), dtype=np.intp, count=len(cols))
    except KeyError as exc:
        raise ValueError(
            f"label {exc.args[0]!r} is not one of the configured classes {list(classes)}"
        ) from None
    n = len(classes)
    return np.bincount(a * n + p, minlength=n * n).reshape(n, n)


def kappa_vector(
    kappa: ArrayLike | Mapping[Any, float], labels: Sequence | np.ndarray
) -> np.ndarray:
    """A preference vector in ``labels`` order from a sequence or a ``{label: weight}`` mapping.

    Parameters
    ----------
    kappa : sequence of float or mapping
        One weight of precision per class, in ``labels`` order; or a mapping from every
        label to its weight.
    labels : sequence
        The classes, in confusion-matrix order.

    Returns
    -------
    numpy.ndarray
        Float64 vector of length ``len(labels)``; values are checked later, by the measure.

    Raises
    ------
    ValueError
        If a sequence has the wrong length, or a mapping misses a label or names a label
        that is not one of ``labels`` (the message names them).
    """
    labels = list(labels)
    if isinstance(kappa, Mapping):
        return _kappa_from_mapping(kappa, labels)
    values = np.asarray(kappa, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(
            f"kappa must be a vector of {len(labels)} weights, got shape {values.shape}"
        )
    check_kappa_length(values.size, len(labels), _label_text(labels))
    return values


def _kappa_from_mapping(kappa: Mapping, labels: list) -> np.ndarray:
    """Weights of a ``{label: weight}`` mapping in ``labels`` order."""
    unknown = [key for key in kappa if key not in labels]
    if unknown:
        raise ValueError(
            f"kappa names unknown label(s) {_label_text(unknown)}; the classes are "
            f"{_label_text(labels)}"
        )
    missing = [label for label in labels if label not in kappa]
    if missing:
        raise ValueError(f"kappa has no weight for label(s) {_label_text(missing)}")
    return np.array([float(kappa[label]) for label in labels])


def _label_text(labels) -> str:
    """Labels as ``'a', 'b'`` (NumPy scalars shown as plain Python values)."""
    return ", ".join(
        repr(label.item() if isinstance(label, np.generic) else label) for label in labels
    )
