"""Figures of the uncertainty step, rendered from its tidy CSV files.

- :func:`forest_figure` -- the interval (forest) plot of one engine and dataset: one panel per
  ranking-table row (accuracy, macro precision and recall, F1, MCC, pd at default and at each
  kappa vector), each classifier's value with its interval (``intervals.csv``);
- :func:`posterior_figure` -- the posterior of each pairwise comparison: the histogram of the
  drawn differences ``a - b`` of pd at the default kappa, with the ROPE shaded and the three
  probabilities in the title (``posterior.csv``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from pdmeasure.pipeline.io import require_columns
from pdmeasure.pipeline.ranking_tables import table_rows
from pdmeasure.pipeline.uncertainty_tables import INTERVAL_COLUMNS, POSTERIOR_COLUMNS
from pdmeasure.render.figures import new_figure


def forest_figure(
    intervals: pd.DataFrame, *, classifiers: Sequence[str], kappa_vectors, title: str
) -> Figure:
    """One panel per ranking-table row: each classifier's value (dot) and interval (bar)."""
    require_columns(intervals.columns, INTERVAL_COLUMNS, "intervals table")
    rows = table_rows(kappa_vectors)
    ncols = min(3, len(rows))
    nrows = -(-len(rows) // ncols)
    fig, axes = new_figure(nrows, ncols, panel_size=(3.0, 0.45 * len(classifiers) + 1.0))
    table = intervals.set_index(["measure", "kappa", "classifier"])
    positions = np.arange(len(classifiers))[::-1]
    for ax, (label, measure, kappa) in zip(axes.flat, rows):
        cells = table.loc[[(measure, kappa, c) for c in classifiers]]
        value = cells["value"].to_numpy(dtype=float)
        below = value - cells["lower"].to_numpy(dtype=float)
        above = cells["upper"].to_numpy(dtype=float) - value
        ax.errorbar(value, positions, xerr=[below, above], fmt="o", ms=3, capsize=2)
        ax.set_yticks(positions, list(classifiers), fontsize=7)
        ax.set_title(label, fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        ax.xaxis.set_major_locator(MaxNLocator(4))
    for ax in list(axes.flat)[len(rows) :]:
        ax.set_axis_off()
    level = float(intervals["level"].iloc[0])
    fig.suptitle(f"{title}: values with {level:g} intervals", fontsize=9)
    return fig


def posterior_figure(posterior: pd.DataFrame, *, title: str) -> Figure:
    """One panel per pair: the posterior histogram of ``a - b`` with the ROPE shaded."""
    require_columns(posterior.columns, POSTERIOR_COLUMNS, "posterior table")
    pairs = list(dict.fromkeys(zip(posterior["classifier_a"], posterior["classifier_b"])))
    ncols = min(3, max(1, len(pairs)))
    nrows = max(1, -(-len(pairs) // ncols))
    fig, axes = new_figure(nrows, ncols, panel_size=(3.0, 2.0))
    for ax, (a, b) in zip(axes.flat, pairs):
        part = posterior[(posterior["classifier_a"] == a) & (posterior["classifier_b"] == b)]
        lower = part["bin_lower"].to_numpy(dtype=float)
        width = part["bin_upper"].to_numpy(dtype=float) - lower
        ax.bar(lower, part["probability"].to_numpy(dtype=float), width=width, align="edge")
        rope = float(part["rope"].iloc[0])
        if rope > 0:
            ax.axvspan(-rope, rope, color="0.85", zorder=0)
        ax.axvline(0.0, color="0.4", lw=0.6)
        first = part.iloc[0]
        ax.set_title(
            f"{a} - {b}\nP(a)={first['p_better']:.3f} P(=)={first['p_equivalent']:.3f} "
            f"P(b)={first['p_worse']:.3f}",
            fontsize=7,
        )
        ax.tick_params(labelsize=6)
    for ax in list(axes.flat)[len(pairs) :]:
        ax.set_axis_off()
    if not pairs:
        axes.flat[0].text(0.5, 0.5, "one classifier: no pair", ha="center", va="center")
    fig.suptitle(title, fontsize=9)
    return fig
