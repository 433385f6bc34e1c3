"""Paper 000 Figures 2-6, rendered from the tidy CSVs of :mod:`pdmeasure.paper.example_tables` only.

* Figure 2: pd over the 121-vector grid for cm4, with the five kappa points Section 4.2 marks
  (green, black, red, light blue, orange) and the grid's minimum and maximum; a surface and a
  heatmap of the same data.
* Figure 3: the surfaces of cm4 and its "opposite" cm8 in one plot.
* Figure 4: (a) cm1, (b) cm9, (c) cm4, (d) cm8.
* Figure 5: the solution spaces of all matrices but cm9.
* Figure 6: pd at Table 3's kappa vectors against macro precision, recall and F1, per matrix;
  lines join the values of one measure across the matrices (the paper's "diagonal lines").

Figures are built on :class:`matplotlib.figure.Figure` directly (no ``pyplot``), so they
render headless with any backend.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from pdmeasure.tables.io import read_csv

SURFACE_COLUMNS = ("panel", "matrix", "kappa1", "kappa2", "value")
POINT_COLUMNS = ("label", "kappa1", "kappa2", "value")
FIGURE6_COLUMNS = ("matrix", "measure", "value")
#: Dot colours of Figure 2 (Section 4.2 names them); extremes drawn as white-edged stars.
POINT_COLOURS = {
    "green": "tab:green",
    "black": "black",
    "red": "tab:red",
    "light blue": "deepskyblue",
    "orange": "darkorange",
    "minimum": "white",
    "maximum": "white",
}
PANEL_LETTERS = "abcdefghijklmnopqrstuvwxyz"
CMAP = "viridis"


def read_surface(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A figure's surface CSV (``panel, matrix, kappa1, kappa2, value``).

    ``panel`` is read as int, kappas and ``value`` by :func:`~pdmeasure.tables.io.text_to_float`
    (``NaN`` cells, e.g. under ``zero_division: nan``, become NaN), ``matrix`` stays text.
    """
    return read_csv(
        path, required=SURFACE_COLUMNS, integers=["panel"], numbers=["kappa1", "kappa2", "value"]
    )


def read_points(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Figure 2's points CSV (``label, kappa1, kappa2, value``); numbers as in
    :func:`read_surface`."""
    return read_csv(path, required=POINT_COLUMNS, numbers=["kappa1", "kappa2", "value"])


def read_figure6(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Figure 6's CSV (``matrix, measure, value``); ``value`` as in :func:`read_surface`."""
    return read_csv(path, required=FIGURE6_COLUMNS, numbers=["value"])


def _grid(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(K1, K2, Z) meshes of one matrix's surface; K1 along rows, K2 along columns.

    Every kappa vector keeps its cell: a NaN value (pd undefined under
    ``zero_division: nan``) stays NaN in Z instead of dropping its row or column.
    """
    z = rows.pivot(index="kappa1", columns="kappa2", values="value").sort_index().sort_index(axis=1)
    k1, k2 = np.meshgrid(z.index.to_numpy(float), z.columns.to_numpy(float), indexing="ij")
    return k1, k2, z.to_numpy(float)


def _undefined_note(rows: pd.DataFrame) -> str:
    """``" (pd undefined at 110/121)"`` when some kappa vectors give NaN, else ``""``."""
    missing = int(rows["value"].isna().sum())
    return f" (pd undefined at {missing}/{len(rows)})" if missing else ""


def _surface(ax, rows: pd.DataFrame, cmap: str = CMAP, **kwargs) -> None:
    k1, k2, z = _grid(rows)
    ax.plot_surface(
        k1,
        k2,
        z,
        cmap=cmap,
        vmin=0.0,
        vmax=1.0,
        linewidth=0.2,
        edgecolor="0.3",
        antialiased=True,
        **kwargs,
    )
    defined = np.isfinite(z)
    if not defined.all():
        # A surface cell needs four defined corners, so values next to NaN (e.g. a single
        # defined line of the grid) would not show: draw the defined values as points too.
        ax.scatter(
            k1[defined],
            k2[defined],
            z[defined],
            c=z[defined],
            cmap=cmap,
            vmin=0.0,
            vmax=1.0,
            s=8,
            depthshade=False,
        )
    ax.set_xlabel(r"$\kappa_1$")
    ax.set_ylabel(r"$\kappa_2$")
    ax.set_zlabel("pd")
    ax.set_zlim(0.0, 1.0)
    ax.view_init(elev=25, azim=-130)


def _panels(surface: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    if surface.empty:
        raise ValueError("the surface CSV holds no rows")
    return [(str(rows["matrix"].iloc[0]), rows) for _, rows in surface.groupby("panel", sort=True)]


def figure2(surface: pd.DataFrame, points: pd.DataFrame) -> Figure:
    """Figure 2: pd of cm4 over the grid, with Section 4.2's marked points (surface + heatmap)."""
    ((name, rows),) = _panels(surface)[:1]
    fig = Figure(figsize=(11, 5.4), layout="constrained")
    ax3 = fig.add_subplot(1, 2, 1, projection="3d")
    _surface(ax3, rows, alpha=0.8)
    for p in points.itertuples(index=False):
        ax3.scatter(
            [p.kappa1],
            [p.kappa2],
            [p.value],
            color=POINT_COLOURS.get(p.label, "k"),
            edgecolor="black",
            s=40,
            depthshade=False,
        )
    ax3.set_title(f"pd over the 121-vector grid, {name}{_undefined_note(rows)}")
    ax = fig.add_subplot(1, 2, 2)
    k1, k2, z = _grid(rows)
    step1, step2 = np.diff(k1[:, 0]).mean(), np.diff(k2[0]).mean()
    image = ax.imshow(
        z.T,
        origin="lower",
        cmap=CMAP,
        vmin=0.0,
        vmax=1.0,
        aspect="auto",
        extent=(
            k1.min() - step1 / 2,
            k1.max() + step1 / 2,
            k2.min() - step2 / 2,
            k2.max() + step2 / 2,
        ),
    )
    fig.colorbar(image, ax=ax, label="pd")
    contours = ax.contour(
        k1, k2, z, levels=np.arange(0.05, 1.0, 0.05), colors="white", linewidths=0.6, alpha=0.7
    )
    ax.clabel(contours, fontsize=6, fmt="%.2f")
    for p in points.itertuples(index=False):
        extreme = p.label in ("minimum", "maximum")
        ax.scatter(
            [p.kappa1],
            [p.kappa2],
            color=POINT_COLOURS.get(p.label, "k"),
            edgecolor="black",
            s=90 if extreme else 60,
            marker="*" if extreme else "o",
            label=f"{p.label} [{p.kappa1:g}, {p.kappa2:g}]: {p.value:.4f}",
            zorder=3,
        )
    ax.set_xlabel(r"$\kappa_1$ (weight of class 1 precision)")
    ax.set_ylabel(r"$\kappa_2$ (weight of class 2 precision)")
    ax.set_title(f"{name}: marked points of Section 4.2")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=3, frameon=False)
    fig.suptitle("Figure 2: all values of the preference-driven measure for cm4")
    return fig


def figure3(surface: pd.DataFrame) -> Figure:
    """Figure 3: the surfaces of cm4 and cm8 in one plot."""
    panels = _panels(surface)
    fig = Figure(figsize=(6.5, 5.5), layout="constrained")
    ax = fig.add_subplot(1, 1, 1, projection="3d")
    cmaps = ("Blues", "Oranges", "Greens", "Purples")
    handles = []
    for (name, rows), cmap in zip(panels, cmaps):
        _surface(ax, rows, cmap=cmap, alpha=0.7)
        handles.append(Patch(facecolor=colormaps[cmap](0.65), label=name))
    ax.legend(handles=handles, loc="upper left")
    names = " and ".join(name for name, _ in panels)
    fig.suptitle(f"Figure 3: all values of the preference-driven measure for {names}")
    return fig


def _surface_grid(surface: pd.DataFrame, ncols: int, title: str) -> Figure:
    panels = _panels(surface)
    nrows = -(-len(panels) // ncols)
    fig = Figure(figsize=(3.6 * ncols, 3.3 * nrows), layout="constrained")
    for i, (name, rows) in enumerate(panels):
        ax = fig.add_subplot(nrows, ncols, i + 1, projection="3d")
        _surface(ax, rows)
        ax.set_title(f"({PANEL_LETTERS[i]}) {name}{_undefined_note(rows)}")
    fig.suptitle(title)
    return fig


def figure4(surface: pd.DataFrame) -> Figure:
    """Figure 4: (a) cm1, (b) cm9, (c) cm4, (d) cm8 (panel order of the CSV)."""
    return _surface_grid(surface, 2, "Figure 4: example distributions of pd values")


def figure5(surface: pd.DataFrame) -> Figure:
    """Figure 5: the solution spaces of every matrix but cm9."""
    return _surface_grid(surface, 4, "Figure 5: solution spaces of pd for cm1..cm8")


def figure6(values: pd.DataFrame) -> Figure:
    """Figure 6: each measure's value per matrix, joined by lines across the matrices."""
    if values.empty:
        raise ValueError("the Figure 6 CSV holds no rows")
    matrices = list(dict.fromkeys(values["matrix"]))
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    x = np.arange(len(matrices))
    markers = "osD^vP*X"
    for i, (measure, rows) in enumerate(values.groupby("measure", sort=False)):
        y = rows.set_index("matrix")["value"].reindex(matrices).to_numpy(float)
        pd_measure = str(measure).startswith("pd")
        ax.plot(
            x,
            y,
            marker=markers[i % len(markers)],
            linestyle="-" if pd_measure else "--",
            linewidth=1.2,
            label=str(measure),
        )
    ax.set_xticks(x, matrices)
    ax.set_ylim(0.0, 1.05)
    ax.set_xlabel("confusion matrix (Figure 1)")
    ax.set_ylabel("value")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncols=2, loc="lower left")
    fig.suptitle("Figure 6: pd at three kappa vectors against precision, recall and F1")
    return fig
