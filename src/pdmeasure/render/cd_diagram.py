"""Critical-difference diagrams (Demsar 2006, Sec. 3.2.4, Fig. 1-2), drawn headless.

A CD diagram puts the classifiers on an axis of average ranks (rank 1 = best, on the left),
shows the Nemenyi critical difference as a bar, and joins with a thick line every group of
classifiers whose ranks differ by less than the CD (no significant difference). The
figures are rendered from the tidy ``cd.csv`` written by the statistics step
(:data:`pdmeasure.tables.stats.CD_COLUMNS`), never recomputed here.

Only :class:`matplotlib.figure.Figure` is used (no pyplot state), so rendering works
without a display and in parallel jobs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from pdmeasure.tables.io import atomic_path
from pdmeasure.tables.stats import measure_label, read_stats_table

#: Vertical spacing (data units) between two classifier labels on one side.
_STEP = 0.35


def _blank_figure(width: float, height: float):
    """A pyplot-free figure of ``width`` x ``height`` inches with one axes, axis lines off."""
    fig = Figure(figsize=(width, height))
    ax = fig.add_subplot()
    ax.set_axis_off()
    return fig, ax


def cliques(ranks: Sequence[float] | np.ndarray, cd: float) -> list[tuple[int, ...]]:
    """Maximal groups of classifiers not significantly different from each other.

    Classifiers are taken in increasing rank; a group is a run whose highest and lowest
    average ranks differ by less than ``cd`` (Nemenyi: a pair differs iff its rank difference
    is at least the CD). Runs contained in a longer run and single classifiers are omitted.

    Parameters
    ----------
    ranks : sequence of float
        Average rank of each classifier.
    cd : float
        Critical difference; NaN gives no groups.

    Returns
    -------
    list of tuple of int
        Indices into ``ranks``, each tuple in increasing rank, groups left to right.
    """
    r = np.asarray(ranks, dtype=float)
    if not np.isfinite(cd) or r.size < 2:
        return []
    order = np.argsort(r, kind="stable")
    groups: list[tuple[int, ...]] = []
    last_end = -1
    for start in range(r.size):
        end = start
        while end + 1 < r.size and r[order[end + 1]] - r[order[start]] < cd:
            end += 1
        if end > start and end > last_end:
            groups.append(tuple(int(i) for i in order[start : end + 1]))
            last_end = end
    return groups


def plot_cd_diagram(
    names: Sequence[str],
    ranks: Sequence[float],
    cd: float,
    *,
    title: str | None = None,
) -> Figure:
    """Draw a CD diagram and return the (pyplot-free) figure.

    Parameters
    ----------
    names : sequence of str
        Classifier names.
    ranks : sequence of float
        Their average ranks (1 = best).
    cd : float
        Nemenyi critical difference (NaN: the diagram shows ranks only).
    title : str, optional

    Raises
    ------
    ValueError
        If names and ranks differ in length, a rank is not finite, or there are fewer than 2
        classifiers.
    """
    r = np.asarray(ranks, dtype=float)
    if len(names) != r.size or r.size < 2:
        raise ValueError(
            f"need >= 2 classifiers with one rank each, got {len(names)} names and {r.size} ranks"
        )
    if not np.all(np.isfinite(r)):
        raise ValueError(f"average ranks must be finite, got {r.tolist()}")
    k = r.size
    order = np.argsort(r, kind="stable")
    left = order[: math.ceil(k / 2)]
    right = order[math.ceil(k / 2) :][::-1]  # worst first: outermost label at the top
    groups = cliques(r, cd)
    depth = _STEP * (max(len(left), len(right)) + 1) + 0.1 * len(groups)

    fig, ax = _blank_figure(7.0, 1.6 + 0.45 * depth / _STEP)
    lo, hi = 1, max(k, int(math.ceil(r.max())))
    _draw_axis(ax, lo, hi, cd)
    base = -0.25 - 0.1 * len(groups)
    _draw_labels(ax, names, r, ((left, lo - 0.25, "right"), (right, hi + 0.25, "left")), base)
    for g, members in enumerate(groups):
        y = -0.15 - 0.1 * g
        ax.hlines(y, r[members[0]] - 0.03, r[members[-1]] + 0.03, color="black", lw=3.5)
    ax.set_xlim(lo - 0.3, hi + 0.3)
    ax.set_ylim(base - _STEP * max(len(left), len(right)), 0.9)
    if title:
        ax.set_title(title, fontsize=10)
    return fig


def _draw_axis(ax, lo: int, hi: int, cd: float) -> None:
    """The rank axis from ``lo`` to ``hi`` with its ticks, and the CD bar when ``cd`` is known."""
    ax.hlines(0, lo, hi, color="black", lw=1)
    for tick in range(lo, hi + 1):
        ax.vlines(tick, 0, 0.08, color="black", lw=1)
        ax.text(tick, 0.12, str(tick), ha="center", va="bottom", fontsize=9)
    if np.isfinite(cd):
        ax.hlines(0.55, lo, lo + cd, color="black", lw=1.5)
        ax.vlines([lo, lo + cd], 0.5, 0.6, color="black", lw=1.5)
        ax.text(lo + cd / 2, 0.62, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)


def _draw_labels(ax, names: Sequence[str], r: np.ndarray, sides, base: float) -> None:
    """Each classifier's name and rank, joined to its rank on the axis; ``sides`` gives the
    classifiers of each side (left, then right), the x of their text and its alignment."""
    for side, (labelled, x_text, align) in enumerate(sides):
        for level, i in enumerate(labelled):
            y = base - _STEP * level
            ax.plot([r[i], r[i], x_text], [0, y, y], color="black", lw=0.8)
            ax.text(
                x_text + (-0.05 if side == 0 else 0.05),
                y,
                f"{names[i]} ({r[i]:.2f})",
                ha=align,
                va="center",
                fontsize=9,
            )


def cd_figure_from_table(
    frame: pd.DataFrame, *, engine: str, measure: str, kappa: str = ""
) -> Figure:
    """The CD diagram of one (engine, measure, kappa) of a ``cd.csv`` table.

    Raises
    ------
    ValueError
        If the table has no rows for that key.
    """
    kappa = "" if kappa is None else str(kappa)
    rows = frame[
        (frame["engine"] == engine)
        & (frame["measure"] == measure)
        & (frame["kappa"].fillna("").astype(str) == kappa)
    ]
    if rows.empty:
        raise ValueError(f"no CD data for engine={engine!r}, measure={measure!r}, kappa={kappa!r}")
    first = rows.iloc[0]
    title = (
        f"{measure_label(measure, kappa)}, {engine}: N = {int(first['n_datasets'])} "
        f"datasets, Nemenyi alpha = {float(first['alpha']):g}"
    )
    if not np.all(np.isfinite(rows["average_rank"].to_numpy(float))):
        # every dataset was excluded for NaN values: say so instead of failing the job
        return _note_figure(title, "no average ranks: every dataset has a NaN value")
    return plot_cd_diagram(
        list(rows["classifier"]),
        rows["average_rank"].to_numpy(float),
        float(first["cd"]),
        title=title,
    )


def read_cd_table(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read ``cd.csv`` keeping ``kappa`` as text (empty stays ``""``).

    Read by :func:`~pdmeasure.tables.stats.read_stats_table`: numbers through
    :func:`~pdmeasure.tables.io.text_to_float` (a ``NaN`` cell, e.g. the ``cd`` of a comparison
    with too few datasets, reads as NaN), ``lower_is_better`` as bool.
    """
    return read_stats_table(path)


def _note_figure(title: str, note: str) -> Figure:
    """A figure without a diagram: ``title`` and, in its middle, why (``note``)."""
    fig, ax = _blank_figure(7.0, 1.5)
    ax.text(0.5, 0.5, note, ha="center", va="center")
    ax.set_title(title, fontsize=10)
    return fig


#: The text of a CD diagram of an engine not compared across datasets, left with fewer than
#: two classifiers whose fits finished (the report's "Not compared" list says why).
NOT_COMPARED = "not compared across datasets: stats/report.md says why"


def render_cd_diagrams(
    frame: pd.DataFrame, outputs: Mapping[tuple[str, str, str], str | os.PathLike]
) -> None:
    """Save one figure per ``(engine, measure, kappa) -> path`` (format from the suffix).

    An engine without any rows in ``frame`` (not compared across datasets: the fits of fewer
    than two of its classifiers finished) gets figures that say so (:data:`NOT_COMPARED`);
    a key of an engine that has rows must have rows of its own
    (:func:`cd_figure_from_table` raises otherwise).
    """
    compared = set(frame["engine"])
    for (engine, measure, kappa), path in outputs.items():
        if engine not in compared:
            fig = _note_figure(f"{measure_label(measure, kappa)}, {engine}", NOT_COMPARED)
        else:
            fig = cd_figure_from_table(frame, engine=engine, measure=measure, kappa=kappa)
        suffix = os.path.splitext(str(path))[1].lstrip(".") or "png"
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=suffix, bbox_inches="tight", dpi=150)
