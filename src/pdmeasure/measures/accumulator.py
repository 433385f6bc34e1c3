"""Confusion matrices of label streams: a mergeable accumulator (numpy only).

A confusion matrix is a sum over samples, so predictions of any length can be counted in
batches with memory that depends on the number of classes and groups, never on the number
of rows. :class:`ConfusionAccumulator` counts batches of ``(actual, predicted)`` labels,
optionally one matrix per group (a classifier column), and merges with accumulators filled
elsewhere (other files, processes or machines), like torchmetrics' ``update``/``compute``
and PyCM's ``combine``.

Class order
-----------
Given ``labels`` fix the order. Otherwise the labels are learned as they come and reported
in the order of :func:`sorted_labels`: numerically when every label is a number (or text
that reads as one), else as text; the convention of scikit-learn's ``unique_labels`` and of
``pdmeasure score --predictions``. The order therefore depends only on the set of labels
seen, not on the order of the rows, the batches or the merges; a label that first appears
late grows every matrix by one row and column. Groups keep the order of their first
appearance (given ``groups`` fix it).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def _number(label) -> float | None:
    """``label`` as a float when it is a number or text that reads as one, else None."""
    if isinstance(label, (bool, np.bool_)):
        return None
    try:
        return float(label)
    except (TypeError, ValueError):
        return None


def sorted_labels(labels: Iterable[Hashable]) -> list:
    """Distinct labels sorted numerically when every one is a number, else as text.

    Parameters
    ----------
    labels : iterable of hashable
        Class labels, repeats allowed.

    Returns
    -------
    list
        The distinct labels. When every label is a number (or text such as ``"10"`` that
        reads as one) they are sorted by value, so ``"2"`` comes before ``"10"``; otherwise by
        ``str(label)``. Equal keys (``"1"`` and ``"1.0"``) are ordered by their text, so the
        result depends on the set of labels only.
    """
    distinct = list(dict.fromkeys(labels))
    numbers = [_number(label) for label in distinct]
    if all(value is not None for value in numbers):
        pairs = sorted(zip(numbers, distinct, strict=True), key=lambda p: (p[0], str(p[1])))
        return [label for _, label in pairs]
    return sorted(distinct, key=str)


@dataclass(frozen=True)
class AccumulatedMatrices:
    """The counts of a :class:`ConfusionAccumulator`.

    Attributes
    ----------
    counts : numpy.ndarray
        ``(K, C, C)`` int64 counts, one matrix per group; rows actual, columns predicted.
    labels : list
        The ``C`` classes in row (and column) order.
    groups : list
        The ``K`` group names in matrix order (``[None]`` when no update named groups).
    """

    counts: np.ndarray
    labels: list
    groups: list

    def as_dict(self) -> dict:
        """``{group: (C, C) counts}`` in group order."""
        return dict(zip(self.groups, self.counts, strict=True))


class _CodeMap:
    """Values -> consecutive integer codes, in order of first appearance (or fixed)."""

    def __init__(self, values: Sequence | None, what: str):
        self.fixed = values is not None
        self.values: list = list(values) if values is not None else []
        self.index: dict = {value: i for i, value in enumerate(self.values)}
        self.what = what
        if len(self.index) != len(self.values):
            raise ValueError(f"the {what}s {self.values!r} repeat a value; give each once")

    def codes(self, values: Sequence) -> np.ndarray:
        """The codes of distinct ``values``; new ones are appended unless the map is fixed."""
        unknown = list(dict.fromkeys(value for value in values if value not in self.index))
        if unknown and self.fixed:
            raise ValueError(
                f"{self.what} {unknown[0]!r} is not one of the given {self.what}s "
                f"{self.values!r}; add it to them, or leave them out to learn them"
            )
        for value in unknown:
            self.index[value] = len(self.values)
            self.values.append(value)
        return np.fromiter((self.index[v] for v in values), dtype=np.intp, count=len(values))


def _encode(values, what: str) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct, inverse)`` of a 1-D batch, ``values == distinct[inverse]``, with
    ``distinct`` in order of first appearance (``np.unique``, then reordered)."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional, got shape {arr.shape}")
    try:
        distinct, first, inverse = np.unique(arr, return_index=True, return_inverse=True)
    except TypeError:
        raise ValueError(
            f"{what} mixes labels that cannot be compared (e.g. numbers and text); "
            "convert them to one type first"
        ) from None
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return distinct[order], rank[inverse.reshape(-1)]


def _python_values(values) -> list:
    """Distinct values as Python objects (NumPy scalars such as ``np.str_`` converted)."""
    return values.tolist() if isinstance(values, np.ndarray) else list(values)


def _check_codes(*codes) -> None:
    """Reject negative codes (``pandas.factorize`` and Arrow's missing values)."""
    for array in codes:
        if array is not None and len(array) and np.min(array) < 0:
            position = int(np.argmax(np.asarray(array) < 0))
            raise ValueError(f"sample {position} of the batch has no label (a missing value)")


def _check_counts(counts, n: int) -> np.ndarray:
    """``counts`` as int64, one per entry of a pre-tallied batch; negative or fractional
    counts are rejected."""
    array = np.asarray(counts)
    if array.shape != (n,):
        raise ValueError(f"counts has shape {array.shape} but the batch has {n} entries")
    if n and (not np.all(np.isfinite(array)) or np.any(array < 0) or np.any(array % 1)):
        raise ValueError("counts must be non-negative whole numbers (samples per entry)")
    return array.astype(np.int64)


class ConfusionAccumulator:
    """Confusion matrices counted from batches of labels, mergeable across accumulators.

    Each :meth:`~pdmeasure.measures.ConfusionAccumulator.update` adds ``n_ij`` (the
    number of samples of actual class ``i`` predicted as ``j``, the confusion matrix of
    paper 000, section 2) for a batch;
    the matrix of the whole stream is the sum over batches. Batches are encoded with
    ``np.unique`` (or given pre-encoded to
    :meth:`~pdmeasure.measures.ConfusionAccumulator.update_codes`, optionally already
    tallied) and counted with one ``np.bincount`` (``np.add.at`` of tallies) over the
    combined code ``(group * C + actual) * C + predicted``; there is no Python loop over
    rows.

    Parameters
    ----------
    labels : sequence, optional
        The classes in matrix order. A label outside them raises ``ValueError``. Without
        them the classes are learned and ordered by :func:`sorted_labels`.
    groups : sequence, optional
        The group names in matrix order; without them groups are learned in order of first
        appearance.

    Examples
    --------
    >>> acc = ConfusionAccumulator()
    >>> acc.update(["b", "a"], ["b", "b"])
    >>> acc.update(["c"], ["a"])
    >>> acc.labels
    ['a', 'b', 'c']
    >>> acc.result().counts[0].tolist()
    [[0, 1, 0], [0, 1, 0], [1, 0, 0]]
    """

    def __init__(self, labels: Sequence | None = None, groups: Sequence | None = None):
        self._labels = _CodeMap(labels, "label")
        self._groups = _CodeMap(groups, "group")
        k, c = len(self._groups.values), len(self._labels.values)
        self._counts: np.ndarray = np.zeros((k, c, c), dtype=np.int64)
        self.n_samples = 0

    @property
    def labels(self) -> list:
        """The classes in matrix order (given, or learned and sorted)."""
        return self._labels.values if self._labels.fixed else sorted_labels(self._labels.values)

    @property
    def groups(self) -> list:
        """The group names in matrix order."""
        return list(self._groups.values)

    def update(self, y_true: ArrayLike, y_pred: ArrayLike, by: ArrayLike | None = None) -> None:
        """Count one batch of samples.

        Parameters
        ----------
        y_true, y_pred : array_like, shape (n,)
            Actual and predicted labels of ``n`` samples.
        by : array_like, shape (n,), optional
            The group (e.g. classifier) of each sample; one matrix per group. Without it
            the samples count into the group ``None``.

        Raises
        ------
        ValueError
            If the arrays differ in length, or a label (group) is not one of the given ones.
        """
        distinct, inverse = _encode(np.concatenate([np.asarray(y_true), np.asarray(y_pred)]), "y")
        n = len(np.asarray(y_true))
        if len(inverse) != 2 * n:
            raise ValueError(f"y_true has {n} labels but y_pred has {len(inverse) - n}")
        by_categories, by_codes = (None, None) if by is None else _encode(by, "by")
        if by_codes is not None and len(by_codes) != n:
            raise ValueError(f"by has {len(by_codes)} values but y_true has {n}")
        self.update_codes(inverse[:n], inverse[n:], distinct, by_codes, by_categories)

    def update_codes(
        self,
        true_codes: ArrayLike,
        pred_codes: ArrayLike,
        categories: Sequence[Hashable] | np.ndarray,
        by_codes: ArrayLike | None = None,
        by_categories: Sequence[Hashable] | np.ndarray | None = None,
        counts: ArrayLike | None = None,
    ) -> None:
        """Count one batch given as codes into ``categories`` (already dictionary-encoded).

        For readers that encode while parsing (``pandas.factorize``, Arrow dictionary
        arrays): only the distinct ``categories`` are looked up, the codes are counted
        as they are. With ``counts`` the batch is already tallied (one entry per distinct
        ``(actual, predicted, group)``, e.g. Arrow's ``group_by(...).aggregate`` with
        ``count_all``) and entry ``i`` adds ``counts[i]`` samples to its cell ``n_ij``.

        Parameters
        ----------
        true_codes, pred_codes : array_like of int, shape (n,)
            Positions into ``categories`` of each sample's actual and predicted label.
        categories : sequence
            The batch's distinct labels.
        by_codes : array_like of int, shape (n,), optional
            Positions into ``by_categories`` of each sample's group.
        by_categories : sequence, optional
            The batch's distinct groups.
        counts : array_like of int, shape (n,), optional
            The number of samples each entry stands for (non-negative); without it, one
            each.

        Raises
        ------
        ValueError
            If the arrays differ in length, a code is negative (a missing value), a count is
            negative or not a whole number, or a label (group) is not one of the given ones.
        """
        true_codes, pred_codes = np.asarray(true_codes), np.asarray(pred_codes)
        if len(true_codes) != len(pred_codes):
            raise ValueError(f"{len(true_codes)} actual but {len(pred_codes)} predicted codes")
        _check_codes(true_codes, pred_codes, by_codes)
        weights = None if counts is None else _check_counts(counts, len(true_codes))
        lut = self._labels.codes(_python_values(categories))
        if by_codes is None:
            gcodes: np.ndarray | int = self._groups.codes([None])[0]
        else:
            gcodes = self._groups.codes(_python_values(by_categories))[np.asarray(by_codes)]
        self._grow()
        c = len(self._labels.values)
        combined = (gcodes * c + lut[true_codes]) * c + lut[pred_codes]
        k = len(self._groups.values)
        if weights is None:
            self._counts += np.bincount(combined, minlength=k * c * c).reshape(k, c, c)
            self.n_samples += len(true_codes)
        else:
            # np.add.at, not bincount(weights=...): integer sums, exact at any count.
            tally = np.zeros(k * c * c, dtype=np.int64)
            np.add.at(tally, combined, weights)
            self._counts += tally.reshape(k, c, c)
            self.n_samples += int(weights.sum())

    def _grow(self) -> None:
        """Zero rows and columns for labels, and matrices for groups, seen for the first time."""
        k, c = len(self._groups.values), len(self._labels.values)
        if self._counts.shape != (k, c, c):
            grown = np.zeros((k, c, c), dtype=np.int64)
            old_k, old_c = self._counts.shape[:2]
            grown[:old_k, :old_c, :old_c] = self._counts
            self._counts = grown

    def merge(self, other: ConfusionAccumulator) -> ConfusionAccumulator:
        """Add the counts of ``other`` (filled elsewhere) to this accumulator; return it.

        Labels and groups of ``other`` that are new here are added (``ValueError`` if this
        accumulator's labels or groups are fixed and do not include them). The result
        equals one accumulator fed every batch of both, in any order of merging.
        """
        lut = self._labels.codes(other._labels.values)
        gut = self._groups.codes(other._groups.values)
        self._grow()
        self._counts[np.ix_(gut, lut, lut)] += other._counts
        self.n_samples += other.n_samples
        return self

    def result(self) -> AccumulatedMatrices:
        """The ``(K, C, C)`` counts in :attr:`labels` and :attr:`groups` order (a copy)."""
        self._grow()
        labels = self.labels
        order = [self._labels.index[label] for label in labels]
        counts = self._counts[:, order][:, :, order]
        return AccumulatedMatrices(counts, list(labels), self.groups)
