"""Exact distribution of a linear form over a product grid, by meet in the middle.

Over a product grid the value ``const + sum_i s_i kappa_i`` is a sum of independent per-class
terms ``t_i = s_i kappa_i``. Its distribution is the convolution of the per-class
distributions; we never build it explicitly. The classes are split into two groups A and B
(classes with zero slope only multiply the counts). All ``|A|`` and ``|B|`` partial sums are
enumerated; A and B are sorted. The number of vectors with value ``< y`` is then
``sum_a #{b : a + b < y}``. All query points are answered in one sweep: the queries are
sorted and, for each ``a`` in A, the increasing keys ``y_1 - a < y_2 - a < ...`` are searched
in B at once, so the search runs along B instead of restarting for each query. That is
``Q |A|`` searches of cost ``log |B|`` for ``Q`` queries, plus sorting B. For krkopt's 2**18
grid that is 512 sums on each side.

Which classes go into A and which into B is chosen from a cost model
(:func:`~pdmeasure.exact.grid.mitm_plan`): a small A makes the searches cheap, a large B makes
the sort expensive, and with many queries the best A is about ``sqrt(N / Q)``. The same model lets callers
(:func:`pdmeasure.exact.analysis.distribution`) pick the lattice method when meet in the
middle would take too long.

Exactness: the sums are floats, with a rigorous rounding bound ``tol`` (summation error of at
most ``n + 2`` roundings of the largest magnitudes, times a safety factor of 8). Only a pair
whose float sum lies within ``tol`` of the query can tie with it, and only such a pair is
decided in exact rational arithmetic from its kappa indices. Every count returned is
therefore exact, ties (``== y``) included; counts are Python ints, also past 2**63.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure.exact.forms import LinearForm, ProductGrid

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

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


def largest_half(sizes: Sequence[int]) -> int:
    """Partial sums in the larger group of a grid with these per-class sizes (before pruning)."""
    sizes = [s for s in sizes if s > 1]
    if not sizes:
        return 1
    first, second = _split(sizes)
    return max(math.prod(sizes[i] for i in first), math.prod(sizes[i] for i in second))


@functools.lru_cache(maxsize=64)
def _one_hot(sizes: tuple[int, ...]) -> np.ndarray:
    """0/1 matrix (prod(sizes), sum(sizes)): row r picks one value per class (C order).

    ``terms @ _one_hot(sizes).T`` gives every partial sum of a group in one product (each row
    adds exactly len(sizes) terms, so the float error is that of a plain sum).
    """
    digits = np.indices(sizes).reshape(len(sizes), -1).T
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    out = np.zeros((len(digits), sum(sizes)))
    np.put_along_axis(out, digits + offsets, 1.0, axis=1)
    return out


def _split_for(sizes: list[int], target: float) -> tuple[list[int], list[int]]:
    """Positions of a group A with product close to ``target`` (at least 1) and the rest."""
    order = sorted(range(len(sizes)), key=lambda i: -sizes[i])
    group_a, product = [], 1
    for i in order:
        if product * sizes[i] <= max(target, 1.0):
            group_a.append(i)
            product *= sizes[i]
    rest = [i for i in range(len(sizes)) if i not in set(group_a)]
    return sorted(group_a), rest


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


#: Cost model of meet in the middle, in nanoseconds (deterministic: never measured at run
#: time, so the choice of method, and with it every result, is the same on every machine).
#: Building and sorting B costs about ``_SORT_NS * log2 |B|`` per sum; one search costs
#: ``_SEARCH_NS`` per level of the binary search plus ``_MISS_NS`` per level beyond the
#: ``2**_CACHED_LEVELS`` sums that stay in cache.
_SORT_NS = 10.0
_SEARCH_NS = 4.0
_MISS_NS = 30.0
_CACHED_LEVELS = 15


def _cost_seconds(size_a: int, size_b: int, n_queries: int) -> float:
    """Estimated seconds of one distribution: sort B, then ``n_queries * |A|`` searches in B."""
    depth = math.log2(max(size_b, 2))
    search = _SEARCH_NS * depth + _MISS_NS * max(0.0, depth - _CACHED_LEVELS)
    return 1e-9 * (_SORT_NS * depth * size_b + search * n_queries * size_a)


@functools.lru_cache(maxsize=256)
def mitm_plan(
    sizes: tuple[int, ...], n_queries: int, max_half: int
) -> tuple[tuple[int, ...], tuple[int, ...], float] | None:
    """The cheapest split of a grid into the searched group A and the sorted group B.

    Parameters
    ----------
    sizes : tuple of int
        Values per class of the classes that vary (slope not zero, more than one value).
    n_queries : int
        Query points the distribution will answer (more queries favour a smaller A).
    max_half : int
        Largest number of partial sums allowed in either group.

    Returns
    -------
    (group_a, group_b, seconds) or None
        Positions in ``sizes`` of each group and the estimated time (:func:`_cost_seconds`);
        None when no split keeps both groups within ``max_half``.
    """
    total = math.prod(sizes)
    queries = max(1, int(n_queries))
    candidates = {tuple(_split(list(sizes))[0])}
    if sizes:
        # Products of A from 1 to the whole grid, around the optimum sqrt(N / Q).
        for k in range(-40, 41):
            target = math.sqrt(total / queries) * 2.0 ** (k / 2)
            candidates.add(tuple(_split_for(list(sizes), target)[0]))
    best = None
    for group_a in candidates:
        group_b = tuple(i for i in range(len(sizes)) if i not in group_a)
        size_a = math.prod(sizes[i] for i in group_a)
        size_b = math.prod(sizes[i] for i in group_b)
        if max(size_a, size_b) > max_half:
            continue
        seconds = _cost_seconds(size_a, size_b, queries)
        if best is None or (seconds, size_b) < (best[2], math.prod(sizes[i] for i in best[1])):
            best = (tuple(sorted(group_a)), group_b, seconds)
    return best


def mitm_seconds(sizes: Sequence[int], n_queries: int, max_half: int = DEFAULT_MAX_HALF) -> float:
    """Estimated seconds of :class:`GridDistribution` on a grid with these per-class sizes.

    ``inf`` when no split fits ``max_half`` (the grid needs the lattice method).
    """
    plan = mitm_plan(tuple(s for s in sizes if s > 1), max(1, int(n_queries)), max_half)
    return math.inf if plan is None else plan[2]


class _Group:
    """All partial sums of a group of classes: float values, exact values on demand by index."""

    def __init__(self, float_terms: list[np.ndarray], exact_terms):
        self._exact_terms = exact_terms  # callable: position in group -> list of Fraction
        self.sizes = tuple(len(t) for t in float_terms)
        sums = np.zeros(1)
        for t in float_terms:
            sums = np.add.outer(sums, t).ravel()
        self.sums = sums
        self._exact: dict[int, Fraction] = {}

    def exact(self, index: int) -> Fraction:
        if index not in self._exact:
            digits = np.unravel_index(index, self.sizes) if self.sizes else ()
            self._exact[index] = sum(
                (self._exact_terms(k)[int(d)] for k, d in enumerate(digits)), Fraction(0)
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
        Largest number of partial sums per group; a larger grid raises ``ValueError`` before
        anything is built (use :func:`pdmeasure.exact.lattice.grid_lattice`, which bounds its
        error, instead).
    n_queries : int
        About how many points each call of :meth:`~pdmeasure.exact.GridDistribution.counts`
        will ask for; only the split into groups (:func:`~pdmeasure.exact.grid.mitm_plan`),
        and so the speed, depends on it, never a result.

    Attributes
    ----------
    total : int
        Number of kappa vectors.
    method : str
        ``"exact"``.
    """

    method = "exact"
    error_bound = 0.0

    def __init__(
        self,
        form: LinearForm,
        grid: ProductGrid,
        *,
        max_half: int = DEFAULT_MAX_HALF,
        n_queries: int = 1,
    ):
        if form.n_classes != grid.n_classes:
            raise ValueError(f"form has {form.n_classes} classes, the grid {grid.n_classes}")
        self.form, self.grid = form, grid
        self.total = grid.n_vectors
        slopes, floats = form.slopes_float, grid.float_values()
        # Classes with a zero slope, or one value, add a constant (exact: see _exact_const).
        active = [i for i in range(grid.n_classes) if slopes[i] != 0.0 and len(floats[i]) > 1]
        self._active = active
        self._const_float = form.const_float + sum(
            slopes[i] * floats[i][0] for i in range(grid.n_classes) if i not in set(active)
        )
        sizes = tuple(len(floats[i]) for i in active)
        self.multiplicity = self.total // math.prod(sizes)
        plan = mitm_plan(sizes, max(1, int(n_queries)), max_half)
        if plan is None:  # checked before any partial sum is built
            half = largest_half(sizes)
            raise ValueError(
                f"grid of {self.total} vectors needs {half} partial sums per half, "
                f"more than max_half={max_half}; use the lattice method"
            )
        float_terms = [slopes[i] * floats[i] for i in active]
        self._a, self._b = (
            _Group([float_terms[k] for k in g], lambda pos, g=g: self._exact_terms(active[g[pos]]))
            for g in plan[:2]
        )
        # Both groups sorted: A ascending gives, per query, decreasing targets y - a; B
        # ascending is searched. ``_order_*`` map sorted positions back to partial-sum indices.
        self._order_a = np.argsort(self._a.sums, kind="stable")
        self._sorted_a = self._a.sums[self._order_a]
        self._order = np.argsort(self._b.sums, kind="stable")
        self._sorted_b = self._b.sums[self._order]
        self._scale = float(sum(np.abs(t).max() for t in float_terms)) if active else 0.0
        self._n_terms = len(active)
        self._range = (
            self._sorted_a[0] + self._sorted_b[0],
            self._sorted_a[-1] + self._sorted_b[-1],
        )
        self._term_cache: dict[int, list[Fraction]] = {}
        self._const_exact: Fraction | None = None

    def _exact_terms(self, i: int) -> list[Fraction]:
        if i not in self._term_cache:
            s = self.form.slopes[i]
            self._term_cache[i] = [s * v for v in self.grid.values[i]]
        return self._term_cache[i]

    def _exact_const(self) -> Fraction:
        if self._const_exact is None:
            active = set(self._active)
            self._const_exact = self.form.const + sum(
                (
                    s * vals[0]
                    for i, (s, vals) in enumerate(zip(self.form.slopes, self.grid.values))
                    if i not in active
                ),
                Fraction(0),
            )
        return self._const_exact

    def _tolerance(self, x: np.ndarray) -> np.ndarray:
        # Rigorous bound on the float error of (a + b) - (x - const): every coefficient and
        # term is within a few roundings of its exact value, all of magnitude <= scale + 1.
        return (
            8.0
            * (self._n_terms + 4)
            * _EPS
            * (self._scale + np.abs(x) + abs(self._const_float) + 1.0)
        )

    def counts(self, xs: Sequence[float | Fraction] | np.ndarray) -> tuple[list[int], list[int]]:
        """Exact numbers of kappa vectors with value ``< x`` and ``== x``, for each ``x``.

        All points are answered in one sweep (see the module docstring): the points are
        sorted, and for each partial sum ``a`` of group A the increasing targets
        ``x_q - const - a`` are located in the sorted group B by one vectorised search. A
        pair closer to a target than the rounding bound is settled in exact arithmetic.

        Parameters
        ----------
        xs : sequence of numbers
            Query points; floats are taken at their exact binary value, fractions as they are.

        Returns
        -------
        less, equal : list of int
            Exact Python ints (any size).
        """
        xs = list(xs) if not isinstance(xs, np.ndarray) else xs
        x = np.array([float(v) for v in xs]) if not isinstance(xs, np.ndarray) else xs.astype(float)
        y = x - self._const_float
        tol = self._tolerance(x)
        sa, sb = self._sorted_a, self._sorted_b
        n_b = len(sb)
        # Queries clearly outside the range of values need no search.
        above = y > self._range[1] + tol
        inside = np.flatnonzero((y >= self._range[0] - tol) & ~above)
        inside = inside[np.argsort(y[inside], kind="stable")]
        below = np.zeros(len(y), dtype=object)
        ties = np.zeros(len(y), dtype=object)
        near: list[tuple[int, int]] = []  # (query, sorted position in A) to settle exactly
        if len(inside):
            yq, tq = y[inside], tol[inside]
            definite = np.zeros(len(inside), dtype=np.int64)
            # Rows: partial sums of A; columns: the sorted queries (increasing keys per row).
            step = max(1, _BATCH // len(inside))
            for first in range(0, len(sa), step):
                rows = sa[first : first + step, None]
                target = yq[None, :] - rows
                lo = np.searchsorted(sb, target - tq[None, :], side="left")
                definite += lo.sum(axis=0)
                # A pair within tol of the target exists iff the next sum is <= target + tol.
                window = (lo < n_b) & (sb[np.minimum(lo, n_b - 1)] <= target + tq[None, :])
                for r, c in zip(*np.nonzero(window)):
                    near.append((int(c), first + int(r)))
            for c, n_less in enumerate(definite.tolist()):
                below[inside[c]] = n_less
        for c, ia_sorted in near:
            q = int(inside[c])
            goal = _as_threshold(xs[q]) - self._exact_const()
            a_exact = self._a.exact(int(self._order_a[ia_sorted]))
            target = y[q] - sa[ia_sorted]
            lo = int(np.searchsorted(sb, target - tol[q], side="left"))
            hi = int(np.searchsorted(sb, target + tol[q], side="right"))
            for k in range(lo, hi):
                value = a_exact + self._b.exact(int(self._order[k]))
                below[q] += value < goal
                ties[q] += value == goal
        less = [
            int(v) * self.multiplicity if not above[i] else self.total for i, v in enumerate(below)
        ]
        equal = [int(v) * self.multiplicity for v in ties]
        return less, equal

    def bounds(self, xs: Sequence[float | Fraction] | np.ndarray) -> dict[str, np.ndarray]:
        """Counts ``< x`` and ``<= x`` as (lower, upper) pairs; exact here, so lower == upper.

        Returns a dict with keys ``less_lo, less_hi, le_lo, le_hi`` (object arrays of int).
        """
        less, equal = self.counts(xs)
        less_arr = np.array(less, dtype=object)
        le_arr = np.array([a + b for a, b in zip(less, equal)], dtype=object)
        return {"less_lo": less_arr, "less_hi": less_arr, "le_lo": le_arr, "le_hi": le_arr}

    def histogram(self, edges: ArrayLike) -> np.ndarray:
        """Exact counts per bin, ``numpy.histogram`` semantics (last bin closed).

        Bins are ``[e_k, e_{k+1})`` with the float edges taken exactly; vectors outside
        ``[e_0, e_K]`` are not counted, as in :func:`numpy.histogram`.
        """
        edges = np.asarray(edges, dtype=float)
        less, equal = self.counts(edges)
        below = np.array(less, dtype=object)
        below[-1] += equal[-1]
        counts = np.diff(below)
        return counts.astype(np.int64) if self.total < 2**63 else counts

    def histogram_bounds(self, edges: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`histogram` twice: the interface of the lattice distributions (exact here)."""
        counts = self.histogram(edges)
        return counts, counts

    def cdf(self, xs: Sequence[float | Fraction] | np.ndarray) -> np.ndarray:
        """``P(X <= x)`` as floats (from exact counts)."""
        less, equal = self.counts(xs)
        return np.array([float(Fraction(a + b, self.total)) for a, b in zip(less, equal)])


def grid_histograms(
    forms: Iterable[LinearForm],
    grid: ProductGrid,
    edges: ArrayLike,
    *,
    max_half: int = DEFAULT_MAX_HALF,
) -> np.ndarray:
    """Exact histograms of several forms over one grid: the batched fast path.

    Same result as ``GridDistribution(form, grid).histogram(edges)`` for each form (numpy
    histogram semantics), with the meet-in-the-middle search of all forms done in one batch.
    A form whose float search meets a possible tie with an edge (a pair within the rounding
    bound) is recomputed by :class:`GridDistribution`, which settles it exactly.

    Returns
    -------
    array (M, len(edges) - 1) of int64
    """
    forms = list(forms)
    edges = np.asarray(edges, dtype=float)
    if edges.ndim != 1 or len(edges) < 2 or np.any(np.diff(edges) <= 0):
        raise ValueError("edges must be an increasing 1-d array of at least 2 values")
    if not forms:
        raise ValueError("no forms to histogram")
    slopes = np.stack([f.slopes_float for f in forms])
    sizes_all = grid.sizes
    active = tuple(i for i in range(grid.n_classes) if sizes_all[i] > 1)
    value_span, value_max = grid.value_stats
    abs_sum = np.abs(slopes).sum(axis=1)
    # Cost ~ |B| (build and sort) + 2 Q |A| (searches) for Q edges inside the range of values.
    inside = min(
        len(edges), 1 + int(abs_sum.max() * value_span / max(float(edges[1] - edges[0]), 1e-300))
    )
    first, second = _plan(tuple(sizes_all[i] for i in active), inside, max_half)
    const = np.array([f.const_float for f in forms])
    floats = grid.float_values()
    for i in range(grid.n_classes):
        if sizes_all[i] == 1:  # a class with one value adds a constant
            const = const + slopes[:, i] * floats[i][0]
    a_sums = _group_sums(slopes, grid, [active[k] for k in first])
    b_sums = np.sort(_group_sums(slopes, grid, [active[k] for k in second]), axis=1)
    scale = abs_sum * value_max + np.abs(const) + 1.0
    less, unsure = _values_below(a_sums, b_sums, edges, const, scale, len(active), grid)
    counts = np.diff(less, axis=1)
    for r in unsure:  # a value may sit on an edge: settle it in exact arithmetic
        counts[r] = GridDistribution(forms[r], grid, max_half=max_half).histogram(edges)
    return counts


def _group_sums(slopes: np.ndarray, grid: ProductGrid, classes: Sequence[int]) -> np.ndarray:
    """(M, prod of the classes' sizes): every form's partial sum over one group of classes."""
    m = len(slopes)
    if not classes:
        return np.zeros((m, 1))
    matrix = grid.float_matrix
    if matrix is not None:  # same number of values in every class: one broadcast
        terms = (slopes[:, classes, None] * matrix[classes]).reshape(m, -1)
    else:
        floats = grid.float_values()
        terms = np.concatenate([slopes[:, i, None] * floats[i] for i in classes], axis=1)
    return terms @ _one_hot(tuple(grid.sizes[i] for i in classes)).T


def _values_below(
    a_sums: np.ndarray,
    b_sums: np.ndarray,
    edges: np.ndarray,
    const: np.ndarray,
    scale: np.ndarray,
    n_active: int,
    grid: ProductGrid,
) -> tuple[np.ndarray, set[int]]:
    """Per form and edge, the number of grid values below the edge (meet in the middle), and
    the forms whose float search met a possible tie with an edge (to settle exactly)."""
    m, n_b = len(a_sums), b_sums.shape[1]
    # Rows side by side in one sorted array: row r shifted by r * width (> the span of any row);
    # local counts are clipped to the row, so a target outside its row cannot leak.
    width = 2.0 * float(np.abs(b_sums).max()) + 1.0
    flat = (b_sums + width * np.arange(m)[:, None]).ravel()
    y = edges[None, :] - const[:, None]
    tol = 8.0 * (n_active + 4) * _EPS * ((scale + width * m)[:, None] + np.abs(edges)[None, :])
    low = (a_sums.min(axis=1) + b_sums[:, 0])[:, None] - tol
    high = (a_sums.max(axis=1) + b_sums[:, -1])[:, None] + tol
    less = np.where(y > high, grid.n_vectors, 0)
    rows, cols = np.nonzero((y >= low) & (y <= high))
    unsure: set[int] = set()
    if len(rows):
        t = tol[rows, cols][:, None]
        target = (y[rows, cols] + width * rows)[:, None] - a_sums[rows]
        lo = np.searchsorted(flat, target - t, side="left")
        local = np.clip(lo - (rows * n_b)[:, None], 0, n_b)
        less[rows, cols] = local.sum(axis=1)
        # A pair within tol of the edge exists iff the next sum is <= target + tol (a pair
        # from a neighbouring row can only cause a needless exact check).
        window = (lo < len(flat)) & (flat[np.minimum(lo, len(flat) - 1)] <= target + t)
        unsure = set(rows[window.any(axis=1)].tolist())
    return less, unsure


@functools.lru_cache(maxsize=256)
def _plan(sizes: tuple[int, ...], inside: int, max_half: int) -> tuple[list[int], list[int]]:
    """Split for :func:`grid_histograms`: group A of product ~ sqrt(N / 2Q), B the rest."""
    first, second = _split_for(list(sizes), 2 * math.sqrt(math.prod(sizes) / (2 * inside)))
    half = math.prod(sizes[k] for k in second)
    if half > max_half:
        raise ValueError(f"grid needs {half} partial sums per half, more than max_half={max_half}")
    return first, second
