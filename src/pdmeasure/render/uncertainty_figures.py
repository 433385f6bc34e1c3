"""Figures of the uncertainty step, rendered from its tidy CSV files.

- :func:`forest_figure` -- the interval (forest) plot of one engine and dataset: per
  ranking-table row (accuracy, macro precision and recall, F1, MCC, pd at default and at each
  kappa vector), each classifier's value with its interval (``intervals.csv``);
- :func:`posterior_figure` -- the posterior of each pairwise comparison: the histogram of the
  drawn differences ``a - b`` of pd at the default kappa, one ridge per pair, with the ROPE
  shaded and the three probabilities beside it (``posterior.csv``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from pdmeasure.tables.io import require_columns
from pdmeasure.tables.rankings import table_rows
from pdmeasure.tables.uncertainty_schema import INTERVAL_COLUMNS, POSTERIOR_COLUMNS


def forest_figure(
    intervals: pd.DataFrame,
    *,
    classifiers: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]],
    title: str,
) -> Figure:
    """Each ranking-table row's classifiers, one line each: value (dot) and interval (bar).

    One axes for all rows (a grid of panels costs several times the rendering time): the
    rows of the ranking table top to bottom, its classifiers within each, in table order.
    """
    require_columns(intervals.columns, INTERVAL_COLUMNS, "intervals table")
    rows = table_rows(kappa_vectors)
    n = len(classifiers)
    height = 0.16 * len(rows) * (n + 1) + 0.8
    fig = Figure(figsize=(6.5, height))
    ax = fig.add_axes((0.3, 0.6 / height, 0.66, 1 - 1.0 / height))
    table = intervals.set_index(["measure", "kappa", "classifier"])
    ticks, labels = [], []
    for i, (label, measure, kappa) in enumerate(rows):
        cells = table.loc[[(measure, kappa, c) for c in classifiers]]
        y = -(i * (n + 1) + np.arange(n))
        color = f"C{i % 10}"
        # The interval as a segment and the value as a point: with the posterior method a
        # value at 0 or 1 can lie just outside its interval, which error bars cannot draw.
        ax.hlines(
            y, cells["lower"].to_numpy(float), cells["upper"].to_numpy(float), color=color, lw=1
        )
        ax.plot(cells["value"].to_numpy(float), y, "o", ms=2.5, color=color)
        ticks += list(y)
        labels += [f"{label}: {name}" for name in classifiers]
    ax.set_yticks(ticks, labels, fontsize=6)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", color="0.9")
    level = float(intervals["level"].iloc[0])
    ax.set_title(f"{title}: values with {level:g} intervals", fontsize=8)
    return fig


def posterior_figure(posterior: pd.DataFrame, *, title: str) -> Figure:
    """The posterior histogram of each pair's ``a - b``, one ridge per pair, the ROPE shaded,
    P(a better), P(equivalent) and P(b better) beside each ridge."""
    require_columns(posterior.columns, POSTERIOR_COLUMNS, "posterior table")
    pairs = list(dict.fromkeys(zip(posterior["classifier_a"], posterior["classifier_b"])))
    height = 0.45 * max(1, len(pairs)) + 0.8
    fig = Figure(figsize=(8.0, height))
    ax = fig.add_axes((0.04, 0.35 / height, 0.46, 1 - 0.7 / height))
    rope = float(posterior["rope"].iloc[0]) if len(posterior) else 0.0
    if rope > 0:
        ax.axvspan(-rope, rope, color="0.88", zorder=0)
    ax.axvline(0.0, color="0.4", lw=0.6)
    for i, (a, b) in enumerate(pairs):
        part = posterior[(posterior["classifier_a"] == a) & (posterior["classifier_b"] == b)]
        edges = np.append(part["bin_lower"].to_numpy(float), part["bin_upper"].iloc[-1])
        heights = part["probability"].to_numpy(float)
        base = -i
        ax.stairs(
            base + 0.9 * heights / max(heights.max(), 1e-12),
            edges,
            baseline=base,
            fill=True,
            alpha=0.7,
            color=f"C{i % 10}",
        )
        first = part.iloc[0]
        ax.annotate(
            f"{a} - {b}: P(a) {first['p_better']:.3f}, P(=) {first['p_equivalent']:.3f}, "
            f"P(b) {first['p_worse']:.3f}",
            (1.02, base + 0.3),
            xycoords=("axes fraction", "data"),
            fontsize=6,
        )
    ax.set_yticks([])
    ax.set_ylim(-max(1, len(pairs)) + 0.9, 1.0)
    ax.tick_params(axis="x", labelsize=7)
    if not pairs:
        ax.text(0.5, 0.5, "one classifier: no pair", ha="center", va="center")
    ax.set_title(title, fontsize=8, loc="left")
    return fig
