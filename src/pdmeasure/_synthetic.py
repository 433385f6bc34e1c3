"""Random confusion matrices for the test suite and the benchmarks (not part of the API).

:func:`dominant_diagonal_matrices` draws the count matrices of several classifiers evaluated
on the same data: one set of actual-class counts, and per classifier and actual class a
multinomial draw whose probabilities favour the correct class.
"""

from __future__ import annotations

import numpy as np


def dominant_diagonal_matrices(
    n_classes: int,
    n_classifiers: int,
    seed: int | np.random.Generator,
    *,
    actual: tuple[int, int] = (5, 500),
    boost: tuple[float, float] = (1, 10),
    smallest: int | None = None,
    name: str = "clf{}",
) -> dict[str, np.ndarray]:
    """Count matrices of ``n_classifiers`` classifiers on one dataset, with a dominant diagonal.

    Every matrix has the same row sums (actual-class counts), drawn from ``actual`` (low
    inclusive, high exclusive); ``smallest`` sets class 0's count, for a tiny class. Each row
    spreads its count over the columns by a multinomial draw whose probabilities are a
    Dirichlet(1, ..., 1) draw with the diagonal raised by a uniform draw from ``boost``.

    ``seed`` is a seed of ``numpy.random.default_rng`` or a generator, which the draws then
    advance. The matrices are named ``name.format(k)`` for k = 0, 1, ... (``clf0``, ``clf1``,
    ... by default), in that order, as int64 arrays.
    """
    rng = np.random.default_rng(seed)
    counts = rng.integers(*actual, n_classes)
    if smallest is not None:
        counts[0] = smallest
    out = {}
    for k in range(n_classifiers):
        cm = np.zeros((n_classes, n_classes), dtype=np.int64)
        for i in range(n_classes):
            p = rng.dirichlet(np.ones(n_classes))
            p[i] += rng.uniform(*boost)
            cm[i] = rng.multinomial(counts[i], p / p.sum())
        out[name.format(k)] = cm
    return out
