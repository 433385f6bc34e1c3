"""Figures of the exact kappa-space analysis, rendered from its tidy CSVs only (headless).

- :func:`win_heatmap`: P(row classifier beats column classifier), one panel per kappa space;
- :func:`cdf_figure`: cumulative distribution of pd per classifier, one panel per space
  (the band between the lower and upper bounds is drawn, invisible when exact);
- :func:`share_bars`: share of each space in which each classifier ranks first, with the
  confidence interval of Monte Carlo estimates;
- :func:`fine_figure7`: paper 000's Figure 7 over the fine grid (11 values per class; 11**18
  vectors on krkopt), from the exact or bounded histogram.

:func:`read_exact_table` reads any of the exact-analysis CSVs back (text columns as text,
every other column through :func:`~pdmeasure.tables.io.text_to_float`).

A table may be empty (header only): under ``zero_division="nan"`` a classifier whose pd is
undefined somewhere in kappa space is left out of the exact analysis (see
:class:`pdmeasure.tables.exact.DatasetAnalysis`), and win probabilities need two
classifiers, so an engine with a single classifier has none. An empty table renders a
placeholder figure that says why, instead of failing the job.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from pdmeasure.render.figures import figure7, new_figure
from pdmeasure.tables.io import read_csv, require_columns, text_to_float

#: Columns of the exact-analysis tables that hold text (names, kappa vectors written
#: ``0;0.8;0.6;1``, methods, and ``n_vectors``, empty for the uniform space); every other
#: column holds numbers.
EXACT_TEXT_COLUMNS = (
    "engine",
    "dataset",
    "classifier",
    "classifier_a",
    "classifier_b",
    "space",
    "method",
    "norm",
    "winner",
    "challenger",
    "new_winner",
    "status",
    "kappa_values",
    "default_kappa_values",
    "argmin",
    "argmax",
    "n_vectors",
)

_SPACE_TITLES = {
    "grid": "paper's kappa grid",
    "fine": "fine kappa grid",
    "uniform": "uniform kappa",
}


def read_exact_table(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read an exact-analysis CSV (win, cdf, share, histogram, summary, robustness, ...).

    Columns in :data:`EXACT_TEXT_COLUMNS` stay text (empty cells as ``""``); every other
    column goes through :func:`~pdmeasure.tables.io.text_to_float`, so ``NaN`` cells (e.g. the pd
    of a classifier that is never first) read back as NaN and ``inf`` as infinity.
    """
    frame = read_csv(path)
    for column in frame.columns:
        if column not in EXACT_TEXT_COLUMNS:
            try:
                frame[column] = text_to_float(frame[column])
            except ValueError as err:
                raise ValueError(f"{path}: column {column!r}: {err}") from None
    return frame


def _require(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    """Raise if ``frame`` lacks any of ``columns`` (an empty table with them is accepted)."""
    require_columns(frame.columns, columns, f"{what} table")


#: Why a figure has nothing to show, per figure (placeholder text).
NO_WIN = "fewer than two classifiers with a defined pd: no win probabilities"
NO_CDF = "no classifier with a defined pd: no distribution of pd over kappa"
NO_SHARE = "no classifier with a defined pd: no share of kappa space ranked first"
NO_FINE_HISTOGRAM = "no classifier with a defined pd: no histogram over the fine kappa grid"
#: Text of a Figure 7 panel whose classifier was left out of the exact analysis.
LEFT_OUT = "left out of the\nexact analysis\n(pd undefined)"
#: Where the reason is spelt out (a classifier left out is named in the analysis log).
_SEE_LOG = (
    "under zero_division 'nan', classifiers that never predict a class are left out;\n"
    "the exact_analysis log names them"
)


def placeholder_figure(
    reason: str, *, title: str | None = None, hint: str | None = _SEE_LOG
) -> Figure:
    """A figure with no data that states ``reason`` (rendered instead of an empty plot).

    Parameters
    ----------
    reason : str
        Why there is nothing to plot; drawn in the middle of the figure, followed by
        ``hint``.
    title : str, optional
        Figure title, as the full figure would have had.
    hint : str, optional
        Smaller text below ``reason``; by default where classifiers left out of the exact
        analysis are named. None: none.
    """
    fig, axes = new_figure(1, 1, panel_size=(6.0, 2.0))
    ax = axes[0, 0]
    ax.set_axis_off()
    ax.text(0.5, 0.6, reason, ha="center", va="center", fontsize=9, transform=ax.transAxes)
    if hint is None:
        return _titled(fig, title)
    ax.text(
        0.5,
        0.25,
        hint,
        ha="center",
        va="center",
        fontsize=7,
        color="0.35",
        transform=ax.transAxes,
    )
    return _titled(fig, title)


def _placeholder_if_empty(
    frame: pd.DataFrame, columns: Sequence[str], what: str, reason: str, title: str | None
) -> Figure | None:
    """A :func:`placeholder_figure` if ``frame`` has no rows, else None; columns checked first."""
    _require(frame, columns, what)
    return placeholder_figure(reason, title=title) if frame.empty else None


def _titled(fig: Figure, title: str | None) -> Figure:
    """``fig`` with ``title`` as its suptitle when one is given."""
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def _spaces(frame: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(frame["space"]))


def win_heatmap(win: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Heatmaps of ``p_greater`` (row beats column) per space, ties annotated when non-zero.

    An empty ``win`` table (fewer than two classifiers analysed) gives a
    :func:`placeholder_figure` saying so (:data:`NO_WIN`).
    """
    if (
        empty := _placeholder_if_empty(
            win,
            ["space", "classifier_a", "classifier_b", "p_greater", "p_tie"],
            "win",
            NO_WIN,
            title,
        )
    ) is not None:
        return empty
    spaces = _spaces(win)
    names = list(dict.fromkeys(list(win["classifier_a"]) + list(win["classifier_b"])))
    size = 0.55 * len(names) + 1.6
    fig, axes = new_figure(1, len(spaces), panel_size=(size + 0.6, size))
    for ax, space in zip(axes[0], spaces):
        part = win[win["space"] == space]
        mat = np.full((len(names), len(names)), np.nan)
        tie = np.zeros_like(mat)
        for row in part.itertuples():
            i, j = names.index(row.classifier_a), names.index(row.classifier_b)
            mat[i, j], tie[i, j] = row.p_greater, row.p_tie
        image = ax.imshow(mat, vmin=0.0, vmax=1.0, cmap="RdBu")
        for i in range(len(names)):
            for j in range(len(names)):
                if i != j and np.isfinite(mat[i, j]):
                    text = f"{mat[i, j]:.3f}" + (
                        f"\n(tie {tie[i, j]:.3f})" if tie[i, j] >= 5e-4 else ""
                    )
                    ax.text(
                        j,
                        i,
                        text,
                        ha="center",
                        va="center",
                        fontsize=6,
                        color="white" if abs(mat[i, j] - 0.5) > 0.35 else "black",
                    )
        ax.set_xticks(range(len(names)), names, rotation=45, ha="right", fontsize=7)
        ax.set_yticks(range(len(names)), names, fontsize=7)
        ax.set_title(f"P(row > column): {_SPACE_TITLES.get(space, space)}", fontsize=8)
    fig.colorbar(image, ax=axes[0, -1], shrink=0.8)
    return _titled(fig, title)


def cdf_figure(cdf: pd.DataFrame, *, title: str | None = None) -> Figure:
    """CDF of pd per classifier; one panel per space.

    An empty ``cdf`` table (no classifier analysed) gives a :func:`placeholder_figure`
    (:data:`NO_CDF`).
    """
    if (
        empty := _placeholder_if_empty(
            cdf, ["space", "classifier", "x", "cdf_lower", "cdf_upper"], "cdf", NO_CDF, title
        )
    ) is not None:
        return empty
    spaces = _spaces(cdf)
    fig, axes = new_figure(1, len(spaces), panel_size=(3.4, 2.6))
    for ax, space in zip(axes[0], spaces):
        part = cdf[cdf["space"] == space]
        for name, curve in part.groupby("classifier", sort=False):
            curve = curve.sort_values("x")
            x = curve["x"].to_numpy(dtype=float)
            lo, hi = (
                curve["cdf_lower"].to_numpy(dtype=float),
                curve["cdf_upper"].to_numpy(dtype=float),
            )
            (line,) = ax.step(x, (lo + hi) / 2, where="post", label=name, linewidth=1)
            ax.fill_between(x, lo, hi, step="post", color=line.get_color(), alpha=0.3, linewidth=0)
        ax.set_title(_SPACE_TITLES.get(space, space), fontsize=8)
        ax.set_xlabel("preference-driven", fontsize=7)
        ax.set_ylabel("P(pd <= x)", fontsize=7)
        ax.tick_params(labelsize=6)
    axes[0, 0].legend(fontsize=6)
    return _titled(fig, title)


def share_bars(share: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Grouped bars: share of first places per classifier and space, with CI error bars.

    An empty ``share`` table (no classifier analysed) gives a :func:`placeholder_figure`
    (:data:`NO_SHARE`).
    """
    if (
        empty := _placeholder_if_empty(
            share, ["space", "classifier", "p_first", "ci_low", "ci_high"], "share", NO_SHARE, title
        )
    ) is not None:
        return empty
    spaces = _spaces(share)
    names = list(dict.fromkeys(share["classifier"]))
    fig, axes = new_figure(1, 1, panel_size=(1.2 + 0.9 * len(names), 2.8))
    ax = axes[0, 0]
    width = 0.8 / len(spaces)
    for k, space in enumerate(spaces):
        part = share[share["space"] == space].set_index("classifier").reindex(names)
        p = part["p_first"].to_numpy(dtype=float)
        err = np.vstack(
            [p - part["ci_low"].to_numpy(dtype=float), part["ci_high"].to_numpy(dtype=float) - p]
        )
        ax.bar(
            np.arange(len(names)) + (k - (len(spaces) - 1) / 2) * width,
            p,
            width=width,
            yerr=np.clip(err, 0, None),
            capsize=2,
            label=_SPACE_TITLES.get(space, space),
        )
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=7)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("share ranked first", fontsize=7)
    ax.legend(fontsize=6)
    return _titled(fig, title)


def fine_figure7(
    histogram: pd.DataFrame,
    *,
    classifiers: Sequence[str] | None = None,
    title: str | None = None,
    panel_notes: Mapping[tuple[str, str], str] | None = None,
) -> Figure:
    """Figure 7 over the fine grid: rows of ``histogram.csv`` with ``space == "fine"``.

    Bars are the midpoints of the exact or bounded counts (the bounds differ by a negligible
    fraction; see the ``count_lower``/``count_upper`` columns). An empty ``histogram`` (no
    classifier analysed on any dataset) gives a :func:`placeholder_figure`
    (:data:`NO_FINE_HISTOGRAM`). A classifier without rows for a dataset (left out of its
    exact analysis) gets an empty panel that says so, or ``panel_notes``' text for that
    (dataset, classifier) (:func:`~pdmeasure.render.figures.figure7`); a dataset without rows
    is not drawn.

    Raises
    ------
    ValueError
        If a column is missing, or a non-empty table has no rows for the fine grid.
    """
    _require(
        histogram,
        ["space", "dataset", "classifier", "bin_left", "bin_right", "count_lower", "count_upper"],
        "histogram",
    )
    if histogram.empty:
        return placeholder_figure(NO_FINE_HISTOGRAM, title=title)
    fine = histogram[histogram["space"] == "fine"]
    if fine.empty:
        raise ValueError("histogram table has no rows for the fine grid")
    counts = (fine["count_lower"].astype(float) + fine["count_upper"].astype(float)) / 2
    frame = fine.assign(count=counts)[
        ["engine", "dataset", "classifier", "bin_left", "bin_right", "count"]
    ]
    return figure7(
        frame, classifiers=classifiers, title=title, empty_text=LEFT_OUT, panel_notes=panel_notes
    )
