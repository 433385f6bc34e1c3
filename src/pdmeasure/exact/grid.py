"""Exact distribution of a linear form over a product grid, by meet in the middle.

Over a product grid the value ``const + sum_i s_i kappa_i`` is a sum of independent per-class
terms ``t_i = s_i kappa_i``. Its distribution is the convolution of the per-class
distributions; we never build it explicitly. The classes are split into two groups A and B
(classes with zero slope only multiply the counts). All ``|A|`` and ``|B|`` partial sums are
enumerated and B is sorted. The number of vectors with value ``< y`` is then
``sum_a #{b : a + b < y}``, that is ``|A|`` binary searches per query:
``O(|A| log |B|)`` instead of ``|A| |B|`` evaluations. For krkopt's 2**18 grid that is
512 searches among 512 sums.

Exactness: the sums are floats, with a rigorous rounding bound ``tol`` (summation error of at
most ``n + 2`` roundings of the largest magnitudes, times a safety factor of 8). A pair whose
float sum lies within ``tol`` of the query is decided in exact rational arithmetic from its
kappa indices. Every count returned is therefore exact, ties (``== y``) included.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .forms import LinearForm, ProductGrid

#: Largest group of partial sums (floats kept in memory and sorted), about 32 MiB.
DEFAULT_MAX_HALF = 2**22
#: Queries x sums searched per batch (bounds the memory of the vectorised search).
_BATCH = 2**21
_EPS = float(np.finfo(float).eps)


def _as_threshold(x) -> Fraction:
    """A query point as an exact fraction; a float is taken at its exact binary value."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    value = float(x)
    if not math.isfinite(value):
        raise ValueError(f"query point {x!r} is not finite")
    return Fraction(value)


def largest_half(sizes) -> int:
    """Partial sums in the larger group of a grid with these per-class sizes (before pruning)."""
    sizes = [s for s in sizes if s > 1]
    if not sizes:
        return 1
    first, second = _split(sizes)
    return max(math.prod(sizes[i] for i in first), math.prod(sizes[i] for i in second))


def _split(sizes: list[int]) -> tuple[list[int], list[int]]:
    """Positions of two groups with products as equal as possible (greedy on log size)."""
    order = sorted(range(len(sizes)), key=lambda i: -sizes[i])
    groups: tuple[list[int], list[int]] = ([], [])
    logs = [0.0, 0.0]
    for i in order:
        g = 0 if logs[0] <= logs[1] else 1
        groups[g].append(i)
        logs[g] += math.log(sizes[i])
    return sorted(groups[0]), sorted(groups[1])


class _Group:
    """All partial sums of a group of classes: float values plus exact look-up by index."""

    def __init__(self, terms: list[list[Fraction]]):
        self.terms = terms
        self.sizes = tuple(len(t) for t in terms)
        sums = np.zeros(1)
        for t in terms:
            sums = np.add.outer(sums, np.array([float(v) for v in t])).ravel()
        self.sums = sums
        self._exact: dict[int, Fraction] = {}

    def exact(self, index: int) -> Fraction:
        if index not in self._exact:
            digits = np.unravel_index(index, self.sizes) if self.sizes else ()
            self._exact[index] = sum(
                (t[int(d)] for t, d in zip(self.terms, digits)), Fraction(0)
            )
        return self._exact[index]


class GridDistribution:
    """Exact distribution of ``form`` over ``grid`` (every vector counted once).

    Parameters
    ----------
    form : LinearForm
    grid : ProductGrid
        Same number of classes as ``form``.
    max_half : int
        Largest number of partial sums per group; a larger grid raises ``ValueError`` (use
        :func:`pdmeasure.exact.lattice.grid_lattice`, which bounds its error, instead).

    Attributes
    ----------
    total : int
        Number of kappa vectors.
    method : str
        ``"exact"``.
    """

    method = "exact"
    error_bound = 0.0

    def __init__(self, form: LinearForm, grid: ProductGrid, *, max_half: int = DEFAULT_MAX_HALF):
        if form.n_classes != grid.n_classes:
            raise ValueError(
                f"form has {form.n_classes} classes, the grid {grid.n_classes}"
            )
        self.form, self.grid = form, grid
        self.total = grid.n_vectors
        const = form.const
        active, terms = [], []
        for i, (s, vals) in enumerate(zip(form.slopes, grid.values)):
            if s == 0:
                continue
            if len(vals) == 1:
                const += s * vals[0]
                continue
            active.append(i)
            terms.append([s * v for v in vals])
        self.const = const
        self.multiplicity = self.total // math.prod(len(t) for t in terms) if terms else self.total
        first, second = _split([len(t) for t in terms]) if terms else ([], [])
        half = max(math.prod(len(terms[i]) for i in g) for g in (first, second))
        if half > max_half:  # checked before any partial sum is built
            raise ValueError(
                f"grid of {self.total} vectors needs {half} partial sums per half, "
                f"more than max_half={max_half}; use the lattice method"
            )
        groups = [_Group([terms[i] for i in first]), _Group([terms[i] for i in second])]
        groups.sort(key=lambda g: len(g.sums))
        self._a, self._b = groups
        self._order = np.argsort(self._b.sums, kind="stable")
        self._sorted_b = self._b.sums[self._order]
        self._scale = sum(max(abs(float(v)) for v in t) for t in terms) if terms else 0.0
        self._n_terms = len(terms)
        self._range = (self._a.sums.min() + self._sorted_b[0], self._a.sums.max() + self._sorted_b[-1])

    def _tolerance(self, y: np.ndarray) -> np.ndarray:
        return 8.0 * (self._n_terms + 2) * _EPS * (self._scale + np.abs(y) + 1.0)

    def counts(self, xs) -> tuple[list[int], list[int]]:
        """Exact numbers of kappa vectors with value ``< x`` and ``== x``, for each ``x``.

        Parameters
        ----------
        xs : sequence of numbers
            Query points; floats are taken at their exact binary value, fractions as they are.

        Returns
        -------
        less, equal : list of int
        """
        exact_y = [_as_threshold(x) - self.const for x in xs]
        y = np.array([float(v) for v in exact_y])
        tol = self._tolerance(y)
        a_sums, sb = self._a.sums, self._sorted_b
        # Queries clearly outside the range of values need no search.
        above = y > self._range[1] + tol
        less = [self.total if up else 0 for up in above]
        equal = [0] * len(y)
        inside = np.flatnonzero((y >= self._range[0] - tol) & ~above)
        step = max(1, _BATCH // max(1, len(a_sums)))
        for first in range(0, len(inside), step):
            block = inside[first : first + step]
            yq, tq = y[block, None], tol[block, None]
            target = yq - a_sums[None, :]
            lo = np.searchsorted(sb, target - tq, side="left")
            hi = np.searchsorted(sb, target + tq, side="right")
            definite = lo.sum(axis=1)
            for q in range(len(yq)):
                n_less, n_equal = int(definite[q]), 0
                for ia in np.flatnonzero(hi[q] > lo[q]):
                    a_exact = self._a.exact(int(ia))
                    for k in range(lo[q, ia], hi[q, ia]):
                        value = a_exact + self._b.exact(int(self._order[k]))
                        goal = exact_y[block[q]]
                        n_less += value < goal
                        n_equal += value == goal
                less[block[q]] = n_less * self.multiplicity
                equal[block[q]] = n_equal * self.multiplicity
        return less, equal

    def bounds(self, xs) -> dict[str, np.ndarray]:
        """Counts ``< x`` and ``<= x`` as (lower, upper) pairs; exact here, so lower == upper.

        Returns a dict with keys ``less_lo, less_hi, le_lo, le_hi`` (object arrays of int).
        """
        less, equal = self.counts(xs)
        less_arr = np.array(less, dtype=object)
        le_arr = np.array([a + b for a, b in zip(less, equal)], dtype=object)
        return {"less_lo": less_arr, "less_hi": less_arr, "le_lo": le_arr, "le_hi": le_arr}

    def histogram(self, edges) -> np.ndarray:
        """Exact counts per bin, ``numpy.histogram`` semantics (last bin closed).

        Bins are ``[e_k, e_{k+1})`` with the float edges taken exactly; vectors outside
        ``[e_0, e_K]`` are not counted, as in :func:`numpy.histogram`.
        """
        edges = np.asarray(edges, dtype=float)
        less, equal = self.counts(edges)
        below = np.array(less, dtype=object)
        below[-1] += equal[-1]
        return np.diff(below).astype(np.int64) if self.total < 2**63 else np.diff(below)

    def histogram_bounds(self, edges) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`histogram` twice: the interface of the lattice distributions (exact here)."""
        counts = self.histogram(edges)
        return counts, counts

    def cdf(self, xs) -> np.ndarray:
        """``P(X <= x)`` as floats (from exact counts)."""
        less, equal = self.counts(xs)
        return np.array([float(Fraction(a + b, self.total)) for a, b in zip(less, equal)])
