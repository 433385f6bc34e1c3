"""Lattice (fine-bin) distributions with rigorous error bounds: huge grids and uniform kappa.

When the grid is too large for :class:`pdmeasure.exact.grid.GridDistribution` (11**18 vectors
on krkopt's fine grid) or kappa is continuous, each per-class term is shifted to start at 0 and
floored onto a lattice of step ``h``: ``t_i - min t_i = h (K_i + F_i)`` with an integer
``K_i`` and ``F_i`` in [0, 1). The lattice index ``K = sum K_i`` is the convolution of
small integer distributions (shift-and-add, classes in increasing order of range so the array
grows as late as possible). Counts are exact int64 when the grid has at most 2**63 - 1
vectors (every partial count is at most the grid size); on a larger grid (11**19 and up)
they are float64: every step adds non-negative numbers, so each count carries a relative
rounding error of at most ``(sum_i n_i) * eps`` (``n_i`` values in class ``i``; below 1e-12
for 50 classes of 11 values) and the cumulative sums behind :meth:`LatticeDistribution.bounds`
at most ``len(weights) * eps`` more (below 3e-10 for 2**20 cells), so the bounds then hold
up to that relative rounding. A vector with index ``K`` has its value in
``[base + K h, base + (K + n) h)`` where ``n`` counts the classes with a fractional part, so
every count or probability is bracketed by a lower and an upper bound whose gap comes only from
the mass within ``n h`` of a query point.

If all shifted terms are multiples of ``1/D`` for a ``D`` with ``D * range <= size``, the
lattice step is ``1/D``, ``n = 0`` and the result is exact (integer arithmetic after scaling).

Uniform kappa in [0, 1]^C: ``|s_i| U_i = h (K_i + F_i)``, where ``K_i = floor(|s_i| U_i / h)``
has an exactly known distribution (``floor(m)`` cells of probability ``1/m`` and one of
``frac(m)/m``, ``m = |s_i| / h``); the box convolution is a cumulative-sum difference, so a
class costs O(size) whatever its range. Probabilities are float64: the bounds hold up to
float rounding (relative 1e-12 or better).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure.exact.forms import LinearForm, ProductGrid
from pdmeasure.exact.grid import _as_threshold

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Default number of lattice cells over the range of the form.
DEFAULT_SIZE = 2**20
_INT64_MAX = 2**63 - 1


@dataclass
class LatticeDistribution:
    """Weights on the lattice ``base + K * step``, ``K = 0, 1, ..., len(weights) - 1``.

    Attributes
    ----------
    base, step : Fraction
    weights : numpy.ndarray
        int64 counts (grids of at most 2**63 - 1 vectors), float64 counts (larger grids,
        relative rounding error in the module docstring) or float64 probabilities (uniform
        kappa).
    spread : int
        Values of index ``K`` lie in ``[base + K step, base + (K + spread) step)``;
        ``spread == 0`` means they equal ``base + K step`` exactly.
    total : int or float
        Sum of the weights: the number of vectors (an exact int, also when the weights are
        floats), or 1.0.
    method : str
        ``"lattice-exact"`` (spread 0) or ``"lattice"``.
    """

    base: Fraction
    step: Fraction
    weights: np.ndarray
    spread: int
    total: int | float
    minimum: Fraction | None = None
    maximum: Fraction | None = None

    @property
    def method(self) -> str:
        return "lattice-exact" if self.spread == 0 else "lattice"

    @property
    def error_bound(self) -> float:
        """Largest distance between a value and the left end of its lattice cell."""
        return float(self.spread * self.step)

    def _cumulative(self) -> np.ndarray:
        if not hasattr(self, "_cum"):
            self._cum = np.concatenate([np.zeros(1, self.weights.dtype), np.cumsum(self.weights)])
        return self._cum

    def _mass_below_index(self, k: np.ndarray) -> np.ndarray:
        """Total weight of indices ``< k`` (k clipped to the lattice)."""
        cum = self._cumulative()
        return cum[np.clip(k, 0, len(self.weights))]

    def bounds(self, xs: Sequence[float | Fraction] | np.ndarray) -> dict[str, np.ndarray]:
        """Lower and upper bounds on the weight of ``X < x`` and of ``X <= x``.

        Returns
        -------
        dict
            ``less_lo, less_hi, le_lo, le_hi``, arrays aligned with ``xs``.
        """
        exact_x = [_as_threshold(x) for x in xs]
        # z = (x - base) / step, each query point in lattice units
        floor_z, ceil_z = _floor_ceil(exact_x, Fraction(self.base), Fraction(self.step))
        # index K has its value in [K, K + spread) (in lattice units, after subtracting base)
        less_hi = self._mass_below_index(ceil_z)  # K < z
        le_hi = self._mass_below_index(floor_z + 1)  # K <= z
        if self.spread == 0:
            return {"less_lo": less_hi, "less_hi": less_hi, "le_lo": le_hi, "le_hi": le_hi}
        # floor(z - spread) + 1, spread being a whole number
        less_lo = self._mass_below_index(floor_z - self.spread + 1)  # K + spread <= z -> X < x
        out = {"less_lo": less_lo, "less_hi": less_hi, "le_lo": less_lo.copy(), "le_hi": le_hi}
        # The exact extremes are known: nothing lies outside [minimum, maximum].
        for q, x in enumerate(exact_x):
            if self.maximum is not None and x >= self.maximum:
                out["le_lo"][q] = self.total
                if x > self.maximum:
                    out["less_lo"][q] = self.total
            if self.minimum is not None and x <= self.minimum:
                out["less_hi"][q] = 0
                if x < self.minimum:
                    out["le_hi"][q] = 0
        return out

    def histogram_bounds(self, edges: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper bounds per bin, ``numpy.histogram`` semantics (last bin closed)."""
        b = self.bounds(np.asarray(edges, dtype=float))
        lo_cdf, hi_cdf = b["less_lo"].copy(), b["less_hi"].copy()
        lo_cdf[-1], hi_cdf[-1] = b["le_lo"][-1], b["le_hi"][-1]
        lower = np.maximum(lo_cdf[1:] - hi_cdf[:-1], 0)
        upper = np.maximum(hi_cdf[1:] - lo_cdf[:-1], lower)  # float weights: rounding only
        return lower, upper


def _floor_ceil(
    xs: Sequence[Fraction], base: Fraction, step: Fraction
) -> tuple[np.ndarray, np.ndarray]:
    """Floor and ceiling of ``(x - base) / step`` for every ``x``, as int64 arrays.

    Integer arithmetic on numerators and denominators: as exact as the same with Fraction
    objects, which reduce every intermediate result by its gcd and cost ten times as much
    on the few hundred query points of each CDF. Python's ``//`` floors for either sign.
    """
    bn, bd = base.numerator, base.denominator
    sn, sd = step.numerator, step.denominator
    floors, ceilings = [], []
    for x in xs:
        # x = p / q:  (x - base) / step = (p bd - bn q) sd / (q bd sn)
        numerator = (x.numerator * bd - bn * x.denominator) * sd
        denominator = x.denominator * bd * sn
        floors.append(numerator // denominator)
        ceilings.append(-(-numerator // denominator))
    return np.array(floors, dtype=np.int64), np.array(ceilings, dtype=np.int64)


def _shifted_terms(form: LinearForm, grid: ProductGrid):
    """Per active class the exact offsets ``t_ij - min_j t_ij``; the base; the multiplicity."""
    base, offsets, inactive = form.const, [], 1
    for s, vals in zip(form.slopes, grid.values):
        if s == 0 or len(vals) == 1:
            base += s * vals[0]
            inactive *= len(vals)
            continue
        terms = [s * v for v in vals]
        low = min(terms)
        base += low
        offsets.append([t - low for t in terms])
    return base, offsets, inactive


def grid_lattice(
    form: LinearForm, grid: ProductGrid, *, size: int = DEFAULT_SIZE
) -> LatticeDistribution:
    """Distribution of ``form`` over ``grid`` on a lattice of about ``size`` cells.

    Parameters
    ----------
    form : LinearForm
    grid : ProductGrid
    size : int
        Cells over the range of the form; the value error is at most ``n * range / size``
        (:attr:`~pdmeasure.exact.LatticeDistribution.error_bound`), or zero when the lattice is exact.

    Returns
    -------
    LatticeDistribution
        int64 weights when the grid has at most 2**63 - 1 vectors, else float64 weights with
        the relative rounding error given in the module docstring.
    """
    if form.n_classes != grid.n_classes:
        raise ValueError(f"form has {form.n_classes} classes, the grid {grid.n_classes}")
    base, offsets, inactive = _shifted_terms(form, grid)
    span = sum((max(o) for o in offsets), Fraction(0))
    dtype = np.int64 if grid.n_vectors <= _INT64_MAX else np.float64
    if span == 0:
        weights0 = np.array([grid.n_vectors], dtype=dtype)
        return LatticeDistribution(base, Fraction(1), weights0, 0, grid.n_vectors)
    denominator = math.lcm(*(v.denominator for o in offsets for v in o))
    if span * denominator <= size:
        step = Fraction(1, denominator)
    else:
        step = span / size
    weights: np.ndarray = np.ones(1, dtype=dtype)
    spread = 0
    # Smallest range first: the array reaches its full length only at the last classes.
    for o in sorted(offsets, key=max):
        cells = [v / step for v in o]
        spread += any(c.denominator != 1 for c in cells)
        ks, mult = np.unique([math.floor(c) for c in cells], return_counts=True)
        new: np.ndarray = np.zeros(len(weights) + int(ks[-1]), dtype=dtype)
        for k, m in zip(ks.tolist(), mult.tolist()):
            new[k : k + len(weights)] += weights * m if m > 1 else weights
        weights = new
    weights = weights * (inactive if dtype is np.int64 else float(inactive))
    return LatticeDistribution(base, step, weights, spread, grid.n_vectors, base, base + span)


def uniform_lattice(form: LinearForm, *, size: int = DEFAULT_SIZE) -> LatticeDistribution:
    """Distribution of ``form`` for kappa uniform on [0, 1]^C, on a lattice of ``size`` cells.

    Each ``|s_i| U_i`` is floored onto the lattice exactly (see the module docstring), so the
    returned probabilities bound the true CDF with a value error at most ``n * range / size``.
    """
    base = form.const + sum((s for s in form.slopes if s < 0), Fraction(0))
    widths = [abs(s) for s in form.slopes if s != 0]
    span = sum(widths, Fraction(0))
    if span == 0:
        return LatticeDistribution(base, Fraction(1), np.array([1.0]), 0, 1.0)
    step = span / size
    weights = np.ones(1)
    for w in widths:
        m = w / step
        full = math.floor(m)
        part = float((m - full) / m)
        n = len(weights)
        new = np.zeros(n + full + 1)
        if full:
            # Box sum of ``full`` neighbours: cell k gets cum[min(k+1, n)] - cum[max(k+1-full,
            # 0)] (cum of the k+1 first weights), built in place with slices rather than index
            # gathers; cells k < full keep their upper end, since their lower end is 0.
            cum = np.cumsum(weights)
            box = new[: n + full]
            box[:n] = cum
            box[n:] = cum[-1]
            box[full:] -= cum
            box /= float(m)
        if part:
            new[full : full + n] += weights * part
        weights = new
    return LatticeDistribution(base, step, weights, len(widths), 1.0, base, base + span)
