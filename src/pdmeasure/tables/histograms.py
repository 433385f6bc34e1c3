"""pd over a dataset's full kappa product grid: histograms and summary statistics (step 5).

Paper 000, Section 5.1 evaluates the preference-driven measure (eq. 30) at every vector of a
product grid (car 11**4, nursery 7**5, dermatology 5**6, krkopt 2**18) and shows histograms
(Figure 7). Grids are streamed in chunks from :func:`pdmeasure.measures.kappa_grid`: per chunk
the pd values of all matrices, shape ``(M, chunk)``, are computed, binned and folded into
running statistics, so no ``(M, K, C, C)`` array is ever built. Exact quantiles keep the values
(``M * K`` floats, 10 MB for krkopt) up to :data:`EXACT_QUANTILE_LIMIT` values per matrix;
beyond that they are read off the histogram and the summary says so.

Binning rule (one for every panel): bins of width ``bin_width`` with edges at the multiples of
the width over [0, 1], the last bin closed (``numpy.histogram`` semantics). The paper says it
rounded pd to two decimals, i.e. bins centred on the multiples of 0.01; ours are the same bins
shifted by half a width, so that every bin lies inside [0, 1].

Undefined pd (``zero_division="nan"``)
--------------------------------------
Under ``zero_division="nan"`` pd is undefined (NaN) at every kappa vector that gives a 0/0
ratio a non-zero weight: ``kappa_i != 0`` for a class that is never predicted (precision 0/0),
``kappa_i != 1`` for a class that never occurs (recall 0/0); see
:func:`pdmeasure.measures.preference_driven`. Such vectors are counted, not binned:

* the histogram counts the vectors with a defined pd only, so a row sums to ``n - n_undefined``
  (0 for a matrix whose pd is undefined everywhere);
* the summary's ``n`` is the number of grid vectors, ``n_undefined`` the number of them where
  pd is undefined; ``min, max, mean, std`` and the quantiles are taken over the defined values
  only, and are NaN when no value is defined.

Under ``zero_division`` 0 or 1 pd is defined everywhere, ``n_undefined`` is 0 and every other
number is what it would be without this rule.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure import measures
from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision
from pdmeasure.measures.weights import format_kappa
from pdmeasure.tables.io import read_csv

#: Quantile levels reported in the summary (columns ``q05 ... q95``).
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
#: Largest grid (vectors per matrix) whose values are kept for exact quantiles (32 MiB each).
EXACT_QUANTILE_LIMIT = 2**22
#: Tolerance for pd values a rounding error outside [0, 1] (clipped back in).
_RANGE_TOL = 1e-9

GRID_HISTOGRAM_COLUMNS = ("engine", "dataset", "classifier", "bin_left", "bin_right", "count")
GRID_SUMMARY_COLUMNS = (
    "engine",
    "dataset",
    "classifier",
    "kappa_grid",
    "n_classes",
    "n",
    "n_undefined",
    "min",
    "max",
    "mean",
    "std",
    *(f"q{round(q * 100):02d}" for q in QUANTILES),
    "quantile_method",
)


def histogram_edges(bin_width: float) -> np.ndarray:
    """Bin edges at the multiples of ``bin_width`` over [0, 1].

    Raises
    ------
    ValueError
        If ``bin_width`` is not in (0, 1] or does not divide 1 (e.g. 0.03).
    """
    width = float(bin_width)
    if not 0.0 < width <= 1.0:
        raise ValueError(f"histogram.bin_width must be in (0, 1], got {bin_width!r}")
    n_bins = round(1.0 / width)
    if abs(n_bins * width - 1.0) > 1e-9:
        raise ValueError(
            f"histogram.bin_width={bin_width!r} does not divide [0, 1] into whole bins; "
            "use e.g. 0.01, 0.02, 0.05 or 0.1"
        )
    return np.linspace(0.0, 1.0, n_bins + 1)


def _checked(values: np.ndarray) -> np.ndarray:
    """pd values as they enter the histogram: in [0, 1] (rounding errors clipped), or NaN.

    NaN marks a kappa vector where pd is undefined (``zero_division="nan"``) and is kept;
    infinities and values clearly outside [0, 1] would be a bug in the measure and raise.
    """
    defined = ~np.isnan(values)
    if np.isinf(values).any():
        raise ValueError("pd is infinite for some kappa vectors")
    if not defined.any():
        return values
    low, high = values[defined].min(), values[defined].max()
    if low < -_RANGE_TOL or high > 1.0 + _RANGE_TOL:
        raise ValueError(f"pd values outside [0, 1]: min {low!r}, max {high!r}")
    # np.clip keeps NaN as NaN
    return np.clip(values, 0.0, 1.0)


class _Running:
    """Per-row count, min, max, mean and sum of squared deviations of the defined values.

    Chunks are merged with Chan, Golub and LeVeque's pairwise update, numerically stable
    unlike a sum of squares. NaN entries (undefined pd) are skipped, so rows may have
    different counts: the update is applied per row with that row's count. A row with no
    defined value so far keeps count 0, mean 0, m2 0, min +inf and max -inf.
    """

    def __init__(self, m: int):
        self.n = np.zeros(m, dtype=np.int64)
        self.min = np.full(m, np.inf)
        self.max = np.full(m, -np.inf)
        self.mean = np.zeros(m)
        self.m2 = np.zeros(m)

    def add(self, x: np.ndarray) -> None:
        """Fold in a chunk ``x`` of shape (M, k); NaN entries are not counted."""
        defined = ~np.isnan(x)
        if defined.all():
            # Every value defined: the plain chunk statistics (same numbers as always).
            k = np.full(x.shape[0], x.shape[1], dtype=np.int64)
            mean_b = x.mean(axis=1)
            m2_b = ((x - mean_b[:, None]) ** 2).sum(axis=1)
            low, high = x.min(axis=1), x.max(axis=1)
        else:
            k = defined.sum(axis=1)
            zeroed = np.where(defined, x, 0.0)
            # A row without defined values contributes nothing (k = 0, mean 0, m2 0).
            mean_b = zeroed.sum(axis=1) / np.maximum(k, 1)
            m2_b = np.where(defined, (zeroed - mean_b[:, None]) ** 2, 0.0).sum(axis=1)
            low = np.where(defined, x, np.inf).min(axis=1)
            high = np.where(defined, x, -np.inf).max(axis=1)
        n = self.n + k
        # Rows still without any defined value keep their zeros (and avoid 0/0).
        safe_n = np.maximum(n, 1)
        delta = mean_b - self.mean
        self.mean = self.mean + delta * (k / safe_n)
        self.m2 = self.m2 + m2_b + delta**2 * (self.n * k / safe_n)
        self.n = n
        self.min = np.minimum(self.min, low)
        self.max = np.maximum(self.max, high)


def _histogram_quantiles(counts: np.ndarray, edges: np.ndarray, levels) -> np.ndarray:
    """Quantiles read off binned counts (CDF linear within a bin): (M, B) -> (M, len(levels)).

    A row without counts (pd undefined at every vector) has NaN quantiles.
    """
    out = np.full((counts.shape[0], len(levels)), np.nan)
    for i, row in enumerate(counts):
        cdf = np.concatenate([[0], np.cumsum(row)])
        if cdf[-1] > 0:
            out[i] = np.interp(np.asarray(levels) * cdf[-1], cdf, edges)
    return out


def grid_distribution(
    cms: np.ndarray,
    values: Sequence[float],
    *,
    bin_width: float,
    chunk_size: int = 65536,
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT,
    quantiles: Sequence[float] = QUANTILES,
    exact_quantile_limit: int = EXACT_QUANTILE_LIMIT,
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Histogram and statistics of pd over the product grid ``values ** C``, per matrix.

    Parameters
    ----------
    cms : array (M, C, C)
        Confusion matrices of one dataset (rows actual, columns predicted).
    values : sequence of float
        Kappa values per class; the grid is their C-fold Cartesian product (paper 000, 5.1).
    bin_width : float
        Histogram bin width (config ``histogram.bin_width``); see :func:`histogram_edges`.
    chunk_size : int
        Kappa vectors per chunk (config ``histogram.chunk_size``).
    zero_division : {"nan", 0.0, 1.0}
        Passed to :func:`pdmeasure.measures.preference_driven`.
    quantiles : sequence of float
        Quantile levels in [0, 1].
    exact_quantile_limit : int
        Keep the values for exact quantiles (``numpy.quantile``, linear) when the grid has at
        most this many vectors; otherwise interpolate them from the histogram.

    Returns
    -------
    counts : array (M, B) of int64
        Histogram counts of the kappa vectors where pd is defined; each row sums to the grid
        size ``len(values) ** C`` minus that row's ``n_undefined``.
    edges : array (B + 1,)
    stats : dict of arrays (M,)
        ``n`` (the grid size), ``n_undefined`` (vectors where pd is NaN, possible only under
        ``zero_division="nan"``; see the module docstring), ``min, max, mean, std``
        (population std, ddof=0) and ``q05 ...`` over the defined values (NaN when none is
        defined), and ``quantile_method`` (``"exact"`` or ``"histogram"``).
    """
    cms = np.asarray(cms)
    if cms.ndim != 3 or cms.shape[1] != cms.shape[2]:
        raise ValueError(f"expected matrices of shape (M, C, C), got {cms.shape}")
    edges = histogram_edges(bin_width)
    grid = measures.kappa_grid(
        [float(v) for v in np.asarray(values, dtype=float)], cms.shape[1], chunk_size=chunk_size
    )
    exact = len(grid) <= exact_quantile_limit
    kept = np.empty((cms.shape[0], len(grid))) if exact else None
    counts, running = _binned(cms, grid, edges, zero_division, kept)
    q = (
        _histogram_quantiles(counts, edges, quantiles)
        if kept is None
        else _quantiles(kept, quantiles)
    )
    stats = _grid_stats(running, len(grid), q, quantiles)
    stats["quantile_method"] = np.full(cms.shape[0], "exact" if exact else "histogram")
    return counts, edges, stats


def _binned(cms, grid, edges, zero_division, kept) -> tuple[np.ndarray, _Running]:
    """Histogram counts (M, B) and running statistics of pd over every chunk of ``grid``;
    the values themselves are copied into ``kept`` (M, len(grid)) unless it is None."""
    counts = np.zeros((cms.shape[0], len(edges) - 1), dtype=np.int64)
    running = _Running(cms.shape[0])
    start = 0
    for chunk in grid:
        # (M, 1, C, C) against (k, C) -> (M, k): pd's own broadcasting, per-class terms only.
        pd_values = _checked(
            np.asarray(measures.preference_driven(cms[:, None], chunk, zero_division=zero_division))
        )
        for i, row in enumerate(pd_values):
            # Undefined pd (NaN) is counted in n_undefined, not binned.
            counts[i] += np.histogram(row[~np.isnan(row)], bins=edges)[0]
        running.add(pd_values)
        if kept is not None:
            kept[:, start : start + pd_values.shape[1]] = pd_values
        start += pd_values.shape[1]
    if start != len(grid):
        raise RuntimeError(f"kappa grid yielded {start} vectors, expected {len(grid)}")
    return counts, running


def _quantiles(kept: np.ndarray, quantiles: Sequence[float]) -> np.ndarray:
    """Exact (linear) quantiles (M, Q) of each row of the kept values, skipping NaN."""
    if not np.isnan(kept).any():
        return np.quantile(kept, list(quantiles), axis=1).T
    # nanquantile skips the undefined values; a row of NaN only gives NaN (and a
    # RuntimeWarning that says just that, silenced).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanquantile(kept, list(quantiles), axis=1).T


def _grid_stats(
    running: _Running, total: int, q: np.ndarray, quantiles: Sequence[float]
) -> dict[str, np.ndarray]:
    """The ``stats`` of :func:`grid_distribution` but its ``quantile_method``."""
    none_defined = running.n == 0
    stats: dict[str, np.ndarray] = {
        "n": np.full(len(running.n), total),
        "n_undefined": total - running.n,
        "min": np.where(none_defined, np.nan, running.min),
        "max": np.where(none_defined, np.nan, running.max),
        "mean": np.where(none_defined, np.nan, running.mean),
        "std": np.where(none_defined, np.nan, np.sqrt(running.m2 / np.maximum(running.n, 1))),
    }
    for j, level in enumerate(quantiles):
        stats[f"q{round(level * 100):02d}"] = q[:, j]
    return stats


def grid_tables(
    pooled: Mapping[tuple[str, str, str], np.ndarray],
    values: Sequence[float],
    *,
    bin_width: float,
    chunk_size: int = 65536,
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy histogram and summary tables for the matrices of ONE dataset.

    Parameters
    ----------
    pooled : mapping
        ``(engine, dataset, classifier) -> (C, C)`` matrix; all of the same dataset.
    values, bin_width, chunk_size, zero_division
        See :func:`grid_distribution`.

    Returns
    -------
    histogram : DataFrame
        Columns :data:`GRID_HISTOGRAM_COLUMNS`; every bin of every matrix, zeros included (a matrix
        whose pd is undefined at every vector has a row of zeros).
    summary : DataFrame
        Columns :data:`GRID_SUMMARY_COLUMNS`, one row per matrix; ``n`` counts all grid vectors,
        ``n_undefined`` those where pd is undefined, the statistics cover the defined values
        (see the module docstring).
    """
    keys = list(pooled)
    if not keys:
        raise ValueError("no confusion matrices to evaluate over the kappa grid")
    datasets = {k[1] for k in keys}
    if len(datasets) != 1:
        raise ValueError(f"grid_tables takes one dataset at a time, got {sorted(datasets)}")
    cms = np.stack([np.asarray(pooled[k]) for k in keys])
    counts, edges, stats = grid_distribution(
        cms, values, bin_width=bin_width, chunk_size=chunk_size, zero_division=zero_division
    )
    n_bins = len(edges) - 1
    left, right = np.round(edges[:-1], 12), np.round(edges[1:], 12)
    histogram = pd.DataFrame(
        {
            "engine": np.repeat([k[0] for k in keys], n_bins),
            "dataset": np.repeat([k[1] for k in keys], n_bins),
            "classifier": np.repeat([k[2] for k in keys], n_bins),
            "bin_left": np.tile(left, len(keys)),
            "bin_right": np.tile(right, len(keys)),
            "count": counts.ravel(),
        }
    )
    summary = pd.DataFrame(
        {
            "engine": [k[0] for k in keys],
            "dataset": [k[1] for k in keys],
            "classifier": [k[2] for k in keys],
            "kappa_grid": format_kappa(values),
            "n_classes": cms.shape[1],
            **stats,
        }
    )
    return histogram, summary[list(GRID_SUMMARY_COLUMNS)]


def read_histogram(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a ``histogram.csv``: names as text, bin edges as float, ``count`` as int.

    The edges go through :func:`~pdmeasure.tables.io.text_to_float` (a ``NaN`` cell reads as NaN).
    """
    return read_csv(
        path, required=GRID_HISTOGRAM_COLUMNS, numbers=["bin_left", "bin_right"], integers=["count"]
    )
