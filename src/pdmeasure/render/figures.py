"""Headless figures: shared helpers and paper 000's Figure 7 (histograms of pd over kappa grids).

Figures are built on :class:`matplotlib.figure.Figure` directly, never through ``pyplot``, so
nothing depends on the backend or on global state and rendering works without a display.
Every figure is rendered from a tidy CSV written by a compute step, never from raw data.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

from pdmeasure.tables.histograms import GRID_HISTOGRAM_COLUMNS
from pdmeasure.tables.io import atomic_path, require_columns

PANEL_SIZE = (2.6, 1.9)  # inches per panel (width, height)
#: Figure 7's fixed spacing, in inches: the left margin (y tick labels and label), the right
#: one, the gap between columns (the next panel's y tick labels), the space above the first
#: row (its titles), the gap between rows (x tick labels, then the next row's titles), the
#: space below the last row (x tick labels and label) and the figure's title.
FIGURE7_SPACING = {
    "left": 0.6,
    "right": 0.15,
    "wspace": 0.45,
    "above": 0.3,
    "hspace": 0.55,
    "below": 0.5,
    "title": 0.35,
}


def new_figure(
    nrows: int, ncols: int, *, panel_size: tuple[float, float] = PANEL_SIZE, **subplot_kw: Any
) -> tuple[Figure, np.ndarray]:
    """A figure with an ``(nrows, ncols)`` array of axes sized ``panel_size`` each."""
    fig = Figure(figsize=(panel_size[0] * ncols, panel_size[1] * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **subplot_kw)
    return fig, axes


def save_figure(fig: Figure, path: str | os.PathLike[str], *, dpi: int = 150) -> Path:
    """Save ``fig`` atomically (see :func:`pdmeasure.tables.io.atomic_path`); format from the suffix."""
    path = Path(path)
    fmt = path.suffix.lstrip(".") or "png"
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=dpi)
    return path


def figure7(
    histogram: pd.DataFrame,
    *,
    datasets: Sequence[str] | None = None,
    classifiers: Sequence[str] | None = None,
    title: str | None = None,
    empty_text: str | None = None,
    panel_notes: Mapping[tuple[str, str], str] | None = None,
) -> Figure:
    """Paper 000 Figure 7: one histogram panel per dataset (row) and classifier (column).

    Parameters
    ----------
    histogram : DataFrame
        Rows of ``grids/{engine}/{dataset}/histogram.csv`` (columns
        :data:`pdmeasure.tables.histograms.GRID_HISTOGRAM_COLUMNS`), one or more datasets of ONE engine.
    datasets, classifiers : sequence of str, optional
        Row and column order; default: order of first appearance in ``histogram``.
    title : str, optional
        Figure title.
    empty_text : str, optional
        Text written, under the usual panel title, in a panel whose (dataset, classifier) has
        no rows (such a panel has no axes); by default that panel is left blank.
    panel_notes : mapping, optional
        (dataset, classifier) -> the text of that panel when it has no rows, instead of
        ``empty_text`` (e.g. why the classifier has no results there: its fit failed).

    Returns
    -------
    Figure
        Every panel uses the bins of the CSV (one binning rule for all). Each panel's x range
        is its occupied bins padded by two bins, at least 0.1 wide, within [0, 1]: the
        distributions are narrow and far apart, and the panels show their shapes. y is the
        number of kappa vectors per bin. The counts cover the kappa vectors where pd is
        defined (see :mod:`pdmeasure.tables.histograms`); a panel whose counts are all zero (pd undefined
        at every vector, possible under ``zero_division="nan"``) says so.
    """
    require_columns(histogram.columns, GRID_HISTOGRAM_COLUMNS, "histogram table")
    if histogram.empty:
        raise ValueError("histogram table is empty")
    datasets = list(datasets or dict.fromkeys(histogram["dataset"]))
    if classifiers is None:
        classifiers = list(dict.fromkeys(histogram["classifier"]))
    fig, axes = _figure7_grid(len(datasets), max(1, len(classifiers)), bool(title))
    for r, dataset in enumerate(datasets):
        for c, classifier in enumerate(classifiers):
            ax = axes[r, c]
            panel = histogram[
                (histogram["dataset"] == dataset) & (histogram["classifier"] == classifier)
            ]
            panel_title = f"({panel_letter(r)}) {dataset}: {classifier}"
            if panel.empty:
                note = (panel_notes or {}).get((dataset, classifier), empty_text)
                _empty_panel(ax, panel_title, note)
                continue
            _histogram_panel(ax, panel, panel_title)
            if c == 0:
                ax.set_ylabel("number of kappa vectors", fontsize=7)
            if r == len(datasets) - 1:
                ax.set_xlabel("preference-driven", fontsize=7)
    if title:
        # In the middle of the space reserved for it (no layout engine places it).
        middle = 1 - FIGURE7_SPACING["title"] / 2 / fig.get_figheight()
        fig.suptitle(title, fontsize=10, y=middle, va="center")
    return fig


def panel_letter(row: int) -> str:
    """The letter of a row of panels: a, ..., z, then aa, ab, ... (as spreadsheet columns).

    >>> [panel_letter(r) for r in (0, 25, 26, 27, 52)]
    ['a', 'z', 'aa', 'ab', 'ba']
    """
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def _figure7_grid(nrows: int, ncols: int, titled: bool) -> tuple[Figure, np.ndarray]:
    """Figure 7's axes with fixed spacing (:data:`FIGURE7_SPACING`), not a layout engine:
    constrained layout measures every tick label of every panel, which took most of the
    drawing time of a study's Figure 7 (40 datasets x 5 classifiers)."""
    space = FIGURE7_SPACING
    width = PANEL_SIZE[0] * ncols
    height = PANEL_SIZE[1] * nrows + (space["title"] if titled else 0.0)
    top = space["above"] + (space["title"] if titled else 0.0)
    axis_width = (width - space["left"] - space["right"] - (ncols - 1) * space["wspace"]) / ncols
    axis_height = (height - top - space["below"] - (nrows - 1) * space["hspace"]) / nrows
    fig = Figure(figsize=(width, height))
    fig.subplots_adjust(
        left=space["left"] / width,
        right=1 - space["right"] / width,
        bottom=space["below"] / height,
        top=1 - top / height,
        wspace=space["wspace"] / axis_width,
        hspace=space["hspace"] / axis_height,
    )
    return fig, fig.subplots(nrows, ncols, squeeze=False)


def _panel_note(ax, text: str) -> None:
    """``text`` in the middle of a panel."""
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=7, transform=ax.transAxes)


def _empty_panel(ax, panel_title: str, empty_text: str | None) -> None:
    """A panel with no rows: no axes; named, with ``empty_text``, when one is given."""
    ax.set_axis_off()
    if empty_text:
        ax.set_title(panel_title, fontsize=8)
        _panel_note(ax, empty_text)


def _histogram_panel(ax, panel: pd.DataFrame, panel_title: str) -> None:
    """One (dataset, classifier) histogram, its x range the occupied bins padded."""
    # Only non-empty bins become bars: a fine grid has hundreds of bins per panel,
    # mostly empty, and each bar is an artist that costs time to draw.
    drawn = panel[panel["count"] > 0]
    left = drawn["bin_left"].to_numpy(dtype=float)
    right = drawn["bin_right"].to_numpy(dtype=float)
    count = drawn["count"].to_numpy(dtype=float)
    # The bars as one collection of rectangles: one artist per panel, not one per bar.
    ax.add_collection(
        PolyCollection(
            [[(a, 0.0), (a, h), (b, h), (b, 0.0)] for a, b, h in zip(left, right, count)],
            facecolors="#3b6ea8",
            edgecolors="white",
            linewidths=0.3,
        )
    )
    ax.set_ylim(0.0, 1.05 * float(count.max()) if len(count) else 1.0)
    ax.set_xlim(*_occupied_range(panel))
    if drawn.empty:
        # every kappa vector was left unbinned: pd is undefined there
        _panel_note(ax, "pd undefined at\nevery kappa vector")
    ax.set_title(panel_title, fontsize=8)
    ax.tick_params(labelsize=6)


def _occupied_range(rows: pd.DataFrame, pad_bins: int = 2, min_span: float = 0.1):
    """x limits around the non-empty bins of ``rows``, padded, at least ``min_span`` wide."""
    used = rows[rows["count"] > 0]
    if used.empty:
        return 0.0, 1.0
    width = float((rows["bin_right"] - rows["bin_left"]).max())
    low = float(used["bin_left"].min()) - pad_bins * width
    high = float(used["bin_right"].max()) + pad_bins * width
    if high - low < min_span:
        middle = (low + high) / 2
        low, high = middle - min_span / 2, middle + min_span / 2
    shift = max(0.0, low * -1) - max(0.0, high - 1.0)  # slide the window back into [0, 1]
    return max(0.0, low + shift), min(1.0, high + shift)
