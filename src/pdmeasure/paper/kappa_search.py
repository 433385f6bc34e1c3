"""Which kappa vectors of a grid reproduce a printed row of preference-driven values?

Paper 000 prints, for each kappa vector it uses, one pd value per classifier (Tables 6-9).
When a printed vector does not give the printed values (Table 9, footnote 3), the vector that
was really used can be looked for in the grid the authors searched (Section 5.1, e.g.
``{0.33, 0.66}**18`` for krkopt): a vector *reproduces* the row when, for every classifier at
once, the printed number is the pd value (eq. 30) rounded to the printed precision.

The grid is walked lazily, one chunk of :func:`pdmeasure.measures.kappa_grid` at a time, and
pd is evaluated for all classifiers against a whole chunk in one call
(``preference_driven(cms[:, None], chunk)``, shape ``(M, chunk)``), so memory is bounded by
the chunk size whatever the size of the grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure import measures as M
from pdmeasure._validation import ZeroDivision
from pdmeasure.measures.weights import DEFAULT_CHUNK_SIZE
from pdmeasure.paper.published import reproduces

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


@dataclass(frozen=True)
class KappaSearchResult:
    """Result of :func:`search_kappa_grid`.

    Attributes
    ----------
    vectors : numpy.ndarray, shape (n_found, C)
        The grid vectors reproducing every target, in grid order.
    values : numpy.ndarray, shape (n_found, M)
        Their pd values, one column per matrix (also for matrices whose target was NaN).
    matches_per_target : numpy.ndarray of int, shape (M,)
        How many grid vectors reproduce each target on its own (0 for a NaN target).
    n_searched : int
        Number of grid vectors examined.
    truncated : bool
        True when the search stopped at ``max_results`` before the end of the grid.
    """

    vectors: np.ndarray
    values: np.ndarray
    matches_per_target: np.ndarray
    n_searched: int
    truncated: bool


def _checked(
    cms: ArrayLike, printed: ArrayLike, max_results: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """``cms`` (M, C, C) and ``printed`` (M,) as float arrays, checked (see
    :func:`search_kappa_grid`'s Raises)."""
    cms = np.asarray(cms, dtype=float)
    if cms.ndim != 3 or cms.shape[1] != cms.shape[2]:
        raise ValueError(f"cms must be a stack of square matrices (M, C, C), got {cms.shape}")
    printed = np.asarray(printed, dtype=float)
    if printed.shape != (cms.shape[0],):
        raise ValueError(
            f"printed must have one value per matrix ({cms.shape[0]}), got shape {printed.shape}"
        )
    if np.isnan(printed).all():
        raise ValueError("printed holds no number: nothing to reproduce")
    if max_results is not None and max_results < 1:
        raise ValueError(f"max_results must be positive, got {max_results}")
    return cms, printed


def _scan(grid, cms, printed, decimals, zero_division, max_results) -> tuple:
    """The grid's reproducing vectors and their pd values (lists of chunks), the matches per
    matrix, the vectors searched and whether ``max_results`` stopped the search early."""
    targets = ~np.isnan(printed)
    found_vectors, found_values = [], []
    matches = np.zeros(cms.shape[0], dtype=np.int64)
    n_found = n_searched = 0
    for chunk in grid:
        pd_values = M.preference_driven(cms[:, None], chunk, zero_division=zero_division)
        ok = reproduces(pd_values, printed[:, None], decimals) & targets[:, None]  # (M, K)
        matches += ok.sum(axis=1)
        n_searched += len(chunk)
        hit = ok[targets].all(axis=0)
        if hit.any():
            found_vectors.append(chunk[hit])
            found_values.append(pd_values[:, hit].T)
            n_found += int(hit.sum())
        if max_results is not None and n_found >= max_results:
            return found_vectors, found_values, matches, n_searched, n_searched < len(grid)
    return found_vectors, found_values, matches, n_searched, False


def search_kappa_grid(
    cms: ArrayLike,
    printed: ArrayLike,
    values: Sequence[float],
    *,
    decimals: int = 4,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    zero_division: ZeroDivision = 0.0,
    max_results: int | None = None,
) -> KappaSearchResult:
    """Find the kappa vectors of the grid ``values ** C`` that reproduce printed pd values.

    A vector ``kappa`` reproduces the row when, for every matrix ``m`` with a printed value,
    ``|pd(cms[m], kappa) - printed[m]| <= 0.5 * 10**-decimals``
    (:func:`pdmeasure.paper.published.reproduces`), pd being paper 000 eq. 30 with kappa weighting
    precision.

    Parameters
    ----------
    cms : array_like, shape (M, C, C)
        One confusion matrix per classifier (rows = actual), classes in the order the kappa
        entries refer to.
    printed : array_like, shape (M,)
        The printed value of each matrix; NaN leaves that matrix out of the condition (e.g. to
        search a row for four of five classifiers).
    values : sequence of float
        The weights each class may take (the grid is their product over the C classes, in
        :func:`itertools.product` order).
    decimals : int, default 4
        Printed precision.
    chunk_size : int, default 65536
        Grid vectors evaluated per step; bounds the memory (about ``chunk_size * (C + 2 M)``
        floats).
    zero_division : {"nan", 0.0, 1.0}, default 0.0
        Paper 000 takes 0/0 = 0.
    max_results : int, optional
        Stop after this many reproducing vectors (``matches_per_target`` then counts only
        the chunks searched).

    Returns
    -------
    KappaSearchResult

    Raises
    ------
    ValueError
        If ``cms`` is not an ``(M, C, C)`` stack, ``printed`` does not have length M or has no
        number, or ``max_results`` is not positive.
    """
    cms, printed = _checked(cms, printed, max_results)
    grid = M.kappa_grid(values, cms.shape[1], chunk_size=chunk_size)
    found_vectors, found_values, matches, n_searched, truncated = _scan(
        grid, cms, printed, decimals, zero_division, max_results
    )
    vectors = np.concatenate(found_vectors) if found_vectors else np.empty((0, cms.shape[1]))
    pd_found = np.concatenate(found_values) if found_values else np.empty((0, cms.shape[0]))
    if max_results is not None:
        vectors, pd_found = vectors[:max_results], pd_found[:max_results]
    return KappaSearchResult(vectors, pd_found, matches, n_searched, truncated)
