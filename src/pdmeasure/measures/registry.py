"""The registry of measures (``REGISTRY``, ``INFO``) and :func:`evaluate`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

import numpy as np

from pdmeasure._validation import ZeroDivision
from pdmeasure.measures import averaged, chance, entropy
from pdmeasure.measures._core import Measure, MeasureInfo, prepare, scalar
from pdmeasure.measures.preference import preference_driven

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Measure name -> function ``f(cm, *, zero_division="nan")`` returning shape ``(...)``.
REGISTRY: dict[str, Measure] = {
    f.__name__: cast(Measure, f)
    for f in (
        averaged.accuracy,
        averaged.error_rate,
        averaged.average_accuracy,
        averaged.precision_macro,
        averaged.recall_macro,
        averaged.f1_macro,
        averaged.f1_macro_mean,
        averaged.precision_micro,
        averaged.recall_micro,
        averaged.f1_micro,
        averaged.specificity_macro,
        averaged.balanced_accuracy,
        chance.mcc,
        chance.kappa,
        entropy.cen,
        entropy.pacc,
        averaged.g_mean,
        averaged.iba,
        preference_driven,
    )
}

#: Measure name -> :class:`MeasureInfo` (range, direction, source, invariances).
INFO: dict[str, MeasureInfo] = {name: f.info for name, f in REGISTRY.items()}


def evaluate(
    cm: ArrayLike, measures: Iterable[str] | None = None, *, zero_division: ZeroDivision = "nan"
) -> dict[str, np.ndarray]:
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
    stack = prepare(cm, zero_division)  # shared by every kernel: counts and rates computed once
    return {name: scalar(REGISTRY[name].kernel(stack)) for name in names}
