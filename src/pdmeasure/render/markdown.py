"""Markdown tables rendered from the tidy CSV files: the papers' tables and the ranking tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure.measures.weights import format_kappa
from pdmeasure.paper.example_tables import TABLE_COLUMNS, TITLES
from pdmeasure.paper.facts import table_title
from pdmeasure.tables.io import require_columns
from pdmeasure.tables.rankings import TABLE_DECIMALS


def _format(value: float, decimals: int) -> str:
    return "NaN" if np.isnan(value) else f"{value:.{int(decimals)}f}"


def paper_table_markdown(table: pd.DataFrame) -> str:
    """Render one tidy paper table (:data:`TABLE_COLUMNS`) as a Markdown grid.

    Rows and columns keep their order of first appearance; each cell is printed with its own
    ``decimals``; NaN prints as ``NaN``.
    """
    require_columns(table.columns, TABLE_COLUMNS, "paper table")
    keys = table[["paper", "table"]].astype(str).drop_duplicates()
    if len(keys) != 1:
        raise ValueError(f"paper_table_markdown renders one table at a time, got {len(keys)}")
    paper, number = keys.iloc[0]
    cells = table.assign(
        cell=[_format(float(v), d) for v, d in zip(table["value"], table["decimals"])]
    )
    grid = cells.pivot(index="row", columns="column", values="cell")
    grid = grid.loc[list(dict.fromkeys(table["row"])), list(dict.fromkeys(table["column"]))]
    grid = grid.fillna("")
    grid.index.name = ""
    grid.columns.name = None
    title = TITLES.get((paper, number), f"{paper}, table {number}")
    return f"# {title}\n\n{grid.to_markdown(disable_numparse=True)}\n"


def ranking_grid(
    table: pd.DataFrame, cell: pd.Series, kappa_vectors: Mapping[str, Sequence[float]]
) -> pd.DataFrame:
    """The cells of a tidy ranking table laid out as printed: measures (rows, in table order,
    pd rows labelled with their kappa) by classifiers (columns, in table order)."""
    grid = table.assign(cell=cell).pivot(index="row", columns="classifier", values="cell")
    grid = grid.loc[list(dict.fromkeys(table["row"])), list(dict.fromkeys(table["classifier"]))]
    labels = {"pd default": "pd default (eq. 31)"}
    for name, vector in kappa_vectors.items():
        labels[f"pd {name}"] = f"pd {name} [{format_kappa(vector).replace(';', ', ')}]"
    grid.index = [labels.get(row, row) for row in grid.index]
    grid.index.name = "measure"
    grid.columns.name = None
    return grid


def ranking_table_markdown(
    table: pd.DataFrame,
    kappa_vectors: Mapping[str, Sequence[float]],
    *,
    decimals: int = TABLE_DECIMALS,
) -> str:
    """Render a tidy ranking table as the paper's grid of ``value (rank)`` cells.

    The pd rows are labelled with their vector, e.g. ``pd p1 [0, 0.8, 0.6, 1]``.
    """
    engines, datasets = table["engine"].unique(), table["dataset"].unique()
    if len(engines) != 1 or len(datasets) != 1:
        raise ValueError("ranking_table_markdown renders one engine and dataset at a time")
    cell = pd.Series(
        [
            f"{v:.{decimals}f} ({'-' if pd.isna(r) else int(r)})"
            for v, r in zip(table["value"], table["rank"])
        ],
        index=table.index,
    )
    grid = ranking_grid(table, cell, kappa_vectors)
    title = table_title(str(datasets[0]), str(engines[0]))
    note = (
        "Value of each measure with the classifier's rank in brackets; ties at "
        f"{decimals} decimals share the best rank."
    )
    return f"# {title}\n\n{note}\n\n{grid.to_markdown()}\n"
