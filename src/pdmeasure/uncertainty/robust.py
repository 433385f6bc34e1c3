"""Preference-robust superiority: P(A beats B) jointly over the matrices and a kappa region."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision
from pdmeasure.measures.preference import class_precision_recall

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Kappa vectors drawn with each matrix draw.
DEFAULT_KAPPA_DRAWS = 16
REGIONS = ("uniform", "grid")


def _kappas(region: str, grid, n: int, n_classes: int, rng) -> np.ndarray:
    """``n`` kappa vectors, uniform on [0, 1]^C or on the product grid ``grid ** C``."""
    if region == "uniform":
        return rng.random((n, n_classes))
    if region != "grid":
        raise ValueError(f"region must be one of {REGIONS}, got {region!r}")
    values = np.asarray(grid, dtype=float).ravel()
    if values.size == 0 or np.any((values < 0) | (values > 1)) or not np.all(np.isfinite(values)):
        raise ValueError(f"region 'grid' needs grid values in [0, 1], got {grid!r}")
    return values[rng.integers(0, values.size, size=(n, n_classes))]


def preference_robust(
    matrix_draws: ArrayLike,
    *,
    region: str = "uniform",
    grid: Sequence[float] | None = None,
    kappa_draws: int = DEFAULT_KAPPA_DRAWS,
    seed: int | np.random.Generator | None = None,
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT,
) -> np.ndarray:
    r"""Probability that classifier a's pd exceeds b's, over matrix draws and kappa together.

    pd is affine in kappa (paper 000, eq. 30):

    .. math:: \mathrm{pd}_\kappa = \frac{1}{C} \sum_i r_i + \frac{1}{C} \sum_i \kappa_i (p_i - r_i),

    so the per-class precisions :math:`p_i` and recalls :math:`r_i` of each drawn matrix serve
    every kappa at once: each matrix draw is paired with ``kappa_draws`` vectors drawn from the
    region, and the probability is the share of (matrix, kappa) pairs in which a's pd is
    strictly larger.

    Parameters
    ----------
    matrix_draws : array_like, shape (draws, K, C, C)
        Draws of the K classifiers' matrices (:func:`posterior_draws`,
        :func:`bootstrap_draws`).
    region : {"uniform", "grid"}, default "uniform"
        Kappa uniform on [0, 1]^C, or uniform over the product grid ``grid ** C``.
    grid : sequence of float, optional
        The grid's values per class (region "grid").
    kappa_draws : int, default 16
        Kappa vectors per matrix draw.
    seed : int or numpy.random.Generator, optional
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        A NaN pd (under "nan") never wins.

    Returns
    -------
    numpy.ndarray
        Shape (K, K): ``[a, b]`` = P(pd_a > pd_b); ``1 - P[a, b] - P[b, a]`` is the chance of
        a tie.
    """
    cms = np.asarray(matrix_draws, dtype=float)
    if cms.ndim != 4 or cms.shape[-1] != cms.shape[-2]:
        raise ValueError(f"matrix_draws must have shape (draws, K, C, C), got {cms.shape}")
    if int(kappa_draws) < 1:
        raise ValueError(f"kappa_draws must be at least 1, got {kappa_draws!r}")
    draws, k, n_classes = cms.shape[0], cms.shape[1], cms.shape[-1]
    precision, recall = class_precision_recall(cms, zero_division=zero_division)  # (D, K, C)
    rng = np.random.default_rng(seed)
    kappa = _kappas(region, grid, draws * int(kappa_draws), n_classes, rng)
    kappa = kappa.reshape(draws, int(kappa_draws), n_classes)
    base = recall.mean(axis=-1)  # (D, K)
    slope = (precision - recall) / n_classes  # (D, K, C)
    values = base[:, :, None] + np.einsum("dkc,dsc->dks", slope, kappa)  # (D, K, S)
    wins = np.zeros((k, k))
    with np.errstate(invalid="ignore"):
        for a in range(k):
            wins[a] = (values[:, a : a + 1, :] > values).mean(axis=(0, 2))
    return wins
