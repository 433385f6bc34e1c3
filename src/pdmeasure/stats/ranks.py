"""Direction of a measure and ranks of classifiers within each dataset.

Rank 1 is the best classifier; ties get average ranks (Demsar 2006, Sec. 3.2.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pdmeasure import measures

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Measures that are better when lower, used only if the measures registry does not say.
LOWER_IS_BETTER_FALLBACK = frozenset({"error_rate", "cen"})


def lower_is_better(measure: str) -> bool:
    """Whether smaller values of ``measure`` are better.

    Read from the registry's ``pdmeasure.measures.INFO[measure].higher_is_better``; a
    measure the registry does not describe falls back to :data:`LOWER_IS_BETTER_FALLBACK`
    (error rate and CEN; every other measure of the papers is better when higher).
    """
    info = getattr(measures, "INFO", {}).get(measure)
    if info is not None:
        return not bool(info.higher_is_better)
    return measure in LOWER_IS_BETTER_FALLBACK


def check_scores(scores: ArrayLike, name: str = "scores") -> np.ndarray:
    """``scores`` as a float array of shape (N datasets, K classifiers), validated.

    Raises
    ------
    ValueError
        If the array is not 2-d, has fewer than 2 columns or no row, or holds a NaN.
    """
    arr = np.asarray(scores, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array (datasets x classifiers), got {arr.shape}")
    if arr.shape[1] < 2:
        raise ValueError(f"{name} needs at least 2 classifiers (columns), got {arr.shape[1]}")
    if arr.shape[0] < 1:
        raise ValueError(f"{name} needs at least 1 dataset (row)")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contain NaN; drop or impute those datasets first")
    return arr


def rank_scores(scores: ArrayLike, *, lower_is_better: bool = False) -> np.ndarray:
    """Rank the classifiers within each dataset: 1 = best, ties get the average rank.

    Parameters
    ----------
    scores : array_like, shape (N, K)
        Measure value of classifier j on dataset i.
    lower_is_better : bool
        Direction of the measure.

    Returns
    -------
    numpy.ndarray, shape (N, K)
        Ranks ``r_ij`` of Demsar (2006), via :func:`scipy.stats.rankdata`.
    """
    from scipy import stats as ss  # imported here: see pdmeasure.stats

    arr = check_scores(scores)
    return ss.rankdata(arr if lower_is_better else -arr, method="average", axis=1)


def average_ranks(scores: ArrayLike, *, lower_is_better: bool = False) -> np.ndarray:
    """``R_j = (1/N) sum_i r_ij`` (Stapor, Sec. IV), shape (K,)."""
    return rank_scores(scores, lower_is_better=lower_is_better).mean(axis=0)


def better_classifier(a: str, b: str, difference: float, lower: bool) -> str:
    """The better of ``a`` and ``b`` given ``difference`` = value(a) - value(b).

    ``lower`` says whether smaller values are better; ``""`` when the difference is zero or
    not finite.
    """
    if not np.isfinite(difference) or difference == 0:
        return ""
    return a if (difference < 0) == lower else b
