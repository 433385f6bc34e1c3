"""Summaries of draws: every measure per draw, intervals, pairwise and rank probabilities."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure import measures as M
from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Nominal level of an interval when none is given.
DEFAULT_LEVEL = 0.95


def pd_key(kappa_name: str) -> str:
    """Key of pd at a named kappa vector in :func:`measure_draws`: ``preference_driven[p1]``."""
    return f"preference_driven[{kappa_name}]"


def measure_draws(
    matrix_draws: ArrayLike,
    *,
    measures: Iterable[str] | None = None,
    kappas: Mapping[str, ArrayLike] | None = None,
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT,
) -> dict[str, np.ndarray]:
    """Every registry measure, and pd at each named kappa vector, of every drawn matrix.

    Parameters
    ----------
    matrix_draws : array_like, shape (draws, ..., C, C)
        From :func:`posterior_draws` or :func:`bootstrap_draws`.
    measures : iterable of str, optional
        Registry names (:data:`pdmeasure.measures.REGISTRY`); all by default. pd at its
        default kappa (paper 000, eq. 31) is ``"preference_driven"``.
    kappas : mapping of str to sequence of float, optional
        Named kappa vectors in class order; pd at each is the key :func:`pd_key` (name).
    zero_division : {"nan", 0.0, 1.0}, default "nan"
        Value of every ``0/0``: the papers' 0, so that a draw in which a rare class is never
        predicted still has a value.

    Returns
    -------
    dict of str to numpy.ndarray
        Each of shape ``matrix_draws.shape[:-2]``.
    """
    out = M.evaluate(matrix_draws, measures, zero_division=zero_division)
    for name, vector in (kappas or {}).items():
        out[pd_key(name)] = np.asarray(
            M.preference_driven(matrix_draws, vector, zero_division=zero_division)
        )
    return out


def check_level(level: float) -> float:
    """``level`` as a float strictly between 0 and 1, else a ValueError naming it."""
    if not 0.0 < float(level) < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1 (e.g. 0.95), got {level!r}")
    return float(level)


def interval(
    values: ArrayLike, level: float = DEFAULT_LEVEL, *, axis: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Equal-tailed interval of the draws: the ``(1 - level)/2`` and ``(1 + level)/2`` quantiles.

    A credible interval for posterior draws, a percentile interval for bootstrap draws
    (Efron and Tibshirani 1993, ch. 13). Undefined (NaN) draws are left out.

    Parameters
    ----------
    values : array_like
        Draws along ``axis``.
    level : float, default 0.95
        Nominal coverage, in (0, 1).
    axis : int, default 0

    Returns
    -------
    lower, upper : numpy.ndarray
        The shape of ``values`` without ``axis``; NaN where every draw is NaN.
    """
    level = check_level(level)
    arr = np.asarray(values, dtype=float)
    if arr.shape[axis] < 2:
        raise ValueError(f"an interval needs at least 2 draws, got {arr.shape[axis]}")
    tails = [(1.0 - level) / 2.0, (1.0 + level) / 2.0]
    with np.errstate(all="ignore"), _quiet_all_nan():
        lower, upper = np.nanquantile(arr, tails, axis=axis)
    return lower, upper


class _quiet_all_nan:
    """Silence NumPy's "All-NaN slice" warning: such a slice gives NaN, as documented."""

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


def _oriented(values, higher_is_better: bool) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"values must have shape (draws, K), got {arr.shape}")
    return arr if higher_is_better else -arr


def pairwise_probabilities(
    values: ArrayLike, *, rope: float = 0.0, higher_is_better: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Posterior (or bootstrap) probabilities that each classifier beats each other one.

    With :math:`d = v_a - v_b` per draw (sign flipped for a lower-is-better measure):
    :math:`P(d > r)`, :math:`P(|d| \\le r)` and :math:`P(d < -r)` for the region of practical
    equivalence (ROPE) of half-width :math:`r` (Benavoli et al. 2017, "Time for a change",
    JMLR 18(77)). Draws where either value is NaN are left out.

    Parameters
    ----------
    values : array_like, shape (draws, K)
    rope : float, default 0
        Half-width of the ROPE, in the measure's units (>= 0).
    higher_is_better : bool, default True

    Returns
    -------
    better, equivalent, worse : numpy.ndarray
        Each (K, K); ``better[a, b] = worse[b, a]``; they sum to 1 where a draw is defined.
    """
    if not np.isfinite(rope) or rope < 0:
        raise ValueError(f"rope must be >= 0, got {rope!r}")
    arr = _oriented(values, higher_is_better)
    diff = arr[:, :, None] - arr[:, None, :]
    defined = np.isfinite(diff)
    n = np.maximum(defined.sum(axis=0), 1)
    with np.errstate(invalid="ignore"):
        better = ((diff > rope) & defined).sum(axis=0) / n
        worse = ((diff < -rope) & defined).sum(axis=0) / n
        equivalent = ((np.abs(diff) <= rope) & defined).sum(axis=0) / n
    return better, equivalent, worse


def rank_probabilities(values: ArrayLike, *, higher_is_better: bool = True) -> np.ndarray:
    """Each classifier's probability of every rank (rank 1 = best).

    In each draw the classifiers are ranked; classifiers tied on a value share the ranks they
    span evenly (two tied for first each get 1/2 of rank 1 and 1/2 of rank 2). A NaN value
    ranks last.

    Parameters
    ----------
    values : array_like, shape (draws, K)
    higher_is_better : bool, default True

    Returns
    -------
    numpy.ndarray
        Shape (K, K): ``[k, r]`` = P(classifier k has rank r + 1); every row sums to 1.
    """
    arr = _oriented(values, higher_is_better)
    arr = np.where(np.isnan(arr), -np.inf, arr)
    draws, k = arr.shape
    ahead = (arr[:, None, :] > arr[:, :, None]).sum(axis=2)  # others strictly better
    tied = (arr[:, None, :] == arr[:, :, None]).sum(axis=2)  # itself included
    out = np.zeros((k, k))
    model = np.broadcast_to(np.arange(k), (draws, k))
    for offset in range(int(tied.max())):
        take = offset < tied
        np.add.at(out, (model[take], (ahead + offset)[take]), 1.0 / tied[take])
    return out / draws
