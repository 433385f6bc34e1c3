"""The whole reproduction table, reading it back, and its summary counts."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure.paper.facts import PD_DATASET_TABLES, PD_PAPER, RANK_SUFFIX
from pdmeasure.paper.reproduction.data_tables import compare_data_tables
from pdmeasure.paper.reproduction.no_data import compare_no_data
from pdmeasure.paper.reproduction.verdicts import NOT_RUN, REPRODUCTION_COLUMNS, STATUSES, cell_row
from pdmeasure.pipeline.engines import ENGINES
from pdmeasure.tables.measures import MEASURE_COLUMNS


def reproduction_table(
    published: pd.DataFrame,
    errata: pd.DataFrame,
    *,
    computed: pd.DataFrame,
    config: Mapping,
    measures: pd.DataFrame | None = None,
    rankings: pd.DataFrame | None = None,
    pooled: Mapping[tuple[str, str, str], np.ndarray] | None = None,
) -> pd.DataFrame:
    """``reproduction.csv``: every published number against its reproduction, per engine.

    Parameters
    ----------
    published : DataFrame
        :func:`pdmeasure.paper.published.load`.
    errata : DataFrame
        :func:`pdmeasure.paper.published.errata`.
    computed : DataFrame
        The tables that need no data (:mod:`pdmeasure.paper.example_tables` format), concatenated.
    config : mapping
        The validated pipeline config.
    measures, rankings : DataFrame, optional
        ``measures.csv`` and the tidy ranking tables; absent means no data table was run.
    pooled : mapping, optional
        Pooled matrices per (engine, dataset, classifier) for the kappa-vector search.

    Returns
    -------
    DataFrame
        Columns :data:`REPRODUCTION_COLUMNS`: the no-data tables first (engine ``none``),
        then the data tables per configured engine, then per registered engine that is not
        configured (all ``not_run``), each in published order.
    """
    data_tables = set(PD_DATASET_TABLES.values())
    is_data = (published["paper"] == PD_PAPER) & published["table"].astype(str).isin(data_tables)
    if measures is None:
        measures = pd.DataFrame(columns=list(MEASURE_COLUMNS))
    if rankings is None:
        rankings = pd.DataFrame(columns=["engine", "dataset", "row", "classifier", "value", "rank"])
    parts = [
        compare_no_data(published[~is_data], computed, errata),
        compare_data_tables(
            published[is_data],
            config=config,
            measures=measures,
            rankings=rankings,
            pooled=pooled,
            errata=errata,
        ),
    ]
    parts.append(engines_not_run(published[is_data], config))
    table = pd.concat([p for p in parts if not p.empty], ignore_index=True)
    bad = set(table["status"]) - set(STATUSES)
    if bad:
        raise ValueError(f"unknown status {sorted(bad)}")
    return table[list(REPRODUCTION_COLUMNS)]


def engines_not_run(published: pd.DataFrame, config: Mapping) -> pd.DataFrame:
    """``not_run`` rows of the data tables for every registered engine the config leaves out.

    Parameters
    ----------
    published : DataFrame
        The published numbers of paper 000's data tables (Tables 6-9).
    config : mapping
        The pipeline config; its ``engines`` are the engines that ran.

    Returns
    -------
    DataFrame
        Columns :data:`REPRODUCTION_COLUMNS`; one row per published number and engine of
        :data:`pdmeasure.pipeline.engines.ENGINES` not in ``engines``, in registry order.
    """
    configured = set(config.get("engines", []))
    rows = [
        cell_row(
            pub,
            engine,
            np.nan,
            NOT_RUN,
            f"not run: engine {engine!r} is not in this run's config (`engines`)",
        )
        for engine in ENGINES
        if engine not in configured
        for pub in published.itertuples(index=False)
    ]
    return pd.DataFrame(rows, columns=list(REPRODUCTION_COLUMNS))


def read_reproduction(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read ``reproduction.csv`` (text keys, numeric published/reproduced/abs_diff)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if tuple(frame.columns) != REPRODUCTION_COLUMNS:
        raise ValueError(
            f"{path}: expected columns {REPRODUCTION_COLUMNS}, found {tuple(frame.columns)}"
        )
    for col in ("published", "reproduced", "abs_diff"):
        frame[col] = [float(x) if x else np.nan for x in frame[col]]
    return frame


def status_counts(table: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Counts of each status (columns :data:`STATUSES` and ``total``) grouped by ``by``."""
    counts = (
        table.groupby([*by, "status"], sort=False)
        .size()
        .unstack("status", fill_value=0)
        .reindex(columns=list(STATUSES), fill_value=0)
    )
    counts["total"] = counts.sum(axis=1)
    return counts.reset_index()


def summary_tables(table: pd.DataFrame, *, largest: int = 5) -> dict:
    """The tables of the reproduction summary, computed from ``reproduction.csv``.

    Parameters
    ----------
    table : DataFrame
        :func:`reproduction_table` (or :func:`read_reproduction`).
    largest : int
        How many of the value cells that differ most to keep per engine.

    Returns
    -------
    dict
        ``overall`` (status -> count over all rows), ``per_engine`` and ``per_table``
        (:func:`status_counts` by engine, and by paper, table and engine), ``per_classifier``
        (by engine and paper classifier over paper 000 Tables 6-9; empty when no such row),
        ``errata`` (the erratum cells) and ``largest`` (engine -> its ``largest`` value cells
        of status ``differs`` with the largest ``abs_diff``), and ``top`` (``largest``). Rendered by
        :func:`pdmeasure.render.reproduction_markdown.summary_markdown`.

    Raises
    ------
    ValueError
        If the table is empty.
    """
    if table.empty:
        raise ValueError("reproduction table is empty: nothing to summarise")
    overall = table["status"].value_counts()
    data = table[
        (table["paper"] == PD_PAPER)
        & table["table"].astype(str).isin(set(PD_DATASET_TABLES.values()))
    ]
    data = data.assign(classifier=data["column"].str.replace(RANK_SUFFIX, "", regex=False))
    errata = table[table["status"] == "erratum"]
    values = table[
        (table["status"] == "differs")
        & table["abs_diff"].notna()
        & ~table["column"].str.endswith(RANK_SUFFIX)
    ]
    return {
        "overall": {status: int(overall.get(status, 0)) for status in STATUSES},
        "per_engine": status_counts(table, ["engine"]),
        "per_table": status_counts(table, ["paper", "table", "engine"]),
        "per_classifier": status_counts(data, ["engine", "classifier"]) if not data.empty else data,
        "errata": errata[["paper", "table", "row", "column", "engine", "published", "reproduced"]],
        "top": largest,
        "largest": {
            engine: rows.nlargest(largest, "abs_diff")[
                ["table", "row", "column", "published", "reproduced", "abs_diff", "reason"]
            ]
            for engine, rows in values.groupby("engine", sort=False)
        },
    }
