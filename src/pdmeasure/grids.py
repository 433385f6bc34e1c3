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
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from . import measures
from .io import read_csv
from .measure_table import format_kappa

#: Quantile levels reported in the summary (columns ``q05 ... q95``).
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
#: Largest grid (vectors per matrix) whose values are kept for exact quantiles (32 MiB each).
EXACT_QUANTILE_LIMIT = 2**22
#: Tolerance for pd values a rounding error outside [0, 1] (clipped back in).
_RANGE_TOL = 1e-9

HISTOGRAM_COLUMNS = ("engine", "dataset", "classifier", "bin_left", "bin_right", "count")
SUMMARY_COLUMNS = (
    "engine", "dataset", "classifier", "kappa_grid", "n_classes", "n", "min", "max", "mean",
    "std", *(f"q{round(q * 100):02d}" for q in QUANTILES), "quantile_method",
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
    """pd values as they enter the histogram: finite and in [0, 1] (rounding errors clipped)."""
    if not np.all(np.isfinite(values)):
        raise ValueError(
            "pd is not finite for some kappa vectors (a 0/0?); compute with zero_division=0.0"
        )
    low, high = values.min(), values.max()
    if low < -_RANGE_TOL or high > 1.0 + _RANGE_TOL:
        raise ValueError(f"pd values outside [0, 1]: min {low!r}, max {high!r}")
    return np.clip(values, 0.0, 1.0)


class _Running:
    """Count, min, max, mean and sum of squared deviations, merged chunk by chunk.

    Chan, Golub and LeVeque's pairwise update; numerically stable, unlike sum of squares.
    """

    def __init__(self, m: int):
        self.n = 0
        self.min = np.full(m, np.inf)
        self.max = np.full(m, -np.inf)
        self.mean = np.zeros(m)
        self.m2 = np.zeros(m)

    def add(self, x: np.ndarray) -> None:
        k = x.shape[1]
        mean_b = x.mean(axis=1)
        m2_b = ((x - mean_b[:, None]) ** 2).sum(axis=1)
        n = self.n + k
        delta = mean_b - self.mean
        self.mean = self.mean + delta * (k / n)
        self.m2 = self.m2 + m2_b + delta**2 * (self.n * k / n)
        self.n = n
        self.min = np.minimum(self.min, x.min(axis=1))
        self.max = np.maximum(self.max, x.max(axis=1))


def _histogram_quantiles(counts: np.ndarray, edges: np.ndarray, levels) -> np.ndarray:
    """Quantiles read off binned counts (CDF linear within a bin): (M, B) -> (M, len(levels))."""
    out = np.empty((counts.shape[0], len(levels)))
    for i, row in enumerate(counts):
        cdf = np.concatenate([[0], np.cumsum(row)])
        out[i] = np.interp(np.asarray(levels) * cdf[-1], cdf, edges)
    return out


def grid_distribution(
    cms: np.ndarray,
    values: Sequence[float],
    *,
    bin_width: float,
    chunk_size: int = 65536,
    zero_division: float | str = 0.0,
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
        Histogram counts; each row sums to the grid size ``len(values) ** C``.
    edges : array (B + 1,)
    stats : dict of arrays (M,)
        ``n, min, max, mean, std`` (population std over the grid, ddof=0), ``q05 ...`` and
        ``quantile_method`` (``"exact"`` or ``"histogram"``).
    """
    cms = np.asarray(cms)
    if cms.ndim != 3 or cms.shape[1] != cms.shape[2]:
        raise ValueError(f"expected matrices of shape (M, C, C), got {cms.shape}")
    m, n_classes = cms.shape[0], cms.shape[1]
    edges = histogram_edges(bin_width)
    grid = measures.kappa_grid(np.asarray(values, dtype=float), n_classes, chunk_size=chunk_size)
    total = len(grid)
    exact = total <= exact_quantile_limit
    kept = np.empty((m, total)) if exact else None
    counts = np.zeros((m, len(edges) - 1), dtype=np.int64)
    running = _Running(m)
    start = 0
    for chunk in grid:
        # (M, 1, C, C) against (k, C) -> (M, k): pd's own broadcasting, per-class terms only.
        pd_values = _checked(
            np.asarray(
                measures.preference_driven(cms[:, None], chunk, zero_division=zero_division)
            )
        )
        for i in range(m):
            counts[i] += np.histogram(pd_values[i], bins=edges)[0]
        running.add(pd_values)
        if kept is not None:
            kept[:, start : start + pd_values.shape[1]] = pd_values
        start += pd_values.shape[1]
    if start != total:
        raise RuntimeError(f"kappa grid yielded {start} vectors, expected {total}")
    if exact:
        q = np.quantile(kept, list(quantiles), axis=1).T
    else:
        q = _histogram_quantiles(counts, edges, quantiles)
    stats: dict[str, np.ndarray] = {
        "n": np.full(m, total),
        "min": running.min,
        "max": running.max,
        "mean": running.mean,
        "std": np.sqrt(running.m2 / total),
    }
    for j, level in enumerate(quantiles):
        stats[f"q{round(level * 100):02d}"] = q[:, j]
    stats["quantile_method"] = np.full(m, "exact" if exact else "histogram")
    return counts, edges, stats


def grid_tables(
    pooled: Mapping[tuple[str, str, str], np.ndarray],
    values: Sequence[float],
    *,
    bin_width: float,
    chunk_size: int = 65536,
    zero_division: float | str = 0.0,
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
        Columns :data:`HISTOGRAM_COLUMNS`; every bin of every matrix, zeros included.
    summary : DataFrame
        Columns :data:`SUMMARY_COLUMNS`, one row per matrix.
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
    return histogram, summary[list(SUMMARY_COLUMNS)]


def read_histogram(path) -> pd.DataFrame:
    """Read a ``histogram.csv``: names as text, bin edges as float, ``count`` as int.

    The edges go through :func:`~pdmeasure.io.text_to_float` (a ``NaN`` cell reads as NaN).
    """
    return read_csv(path, required=HISTOGRAM_COLUMNS, numbers=["bin_left", "bin_right"],
                    integers=["count"])
