"""Paper 000 Tables 6-9 against this run's measures, rankings and pooled matrices."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdmeasure import measures as M
from pdmeasure.measures.weights import DEFAULT_CHUNK_SIZE
from pdmeasure.paper.facts import PD_DATASET_TABLES, PD_PAPER, RANK_SUFFIX
from pdmeasure.paper.kappa_search import search_kappa_grid
from pdmeasure.paper.reproduction.verdicts import (
    ERRATA_DOC,
    EXACT_EVIDENCE_ROWS,
    NOT_RUN,
    PAPER_EXACT_ENGINES,
    REPRODUCTION_COLUMNS,
    cell_row,
    errata_index,
    is_match,
    judge,
    known_cause,
    paper_columns,
)
from pdmeasure.tables.rankings import competition_ranks, table_rows

PAPER_CV_FOLDS = 10


def _cv_note(cv: Mapping | None) -> str:
    """A prefix naming CV settings that differ from the paper's single 10-fold CV."""
    cv = dict(cv or {})
    folds, repeats = int(cv.get("folds", PAPER_CV_FOLDS)), int(cv.get("repeats", 1))
    if folds == PAPER_CV_FOLDS and repeats == 1:
        return ""
    return f"this run uses {folds}-fold CV with {repeats} repeat(s), the paper one 10-fold CV; "


def _base_column(column: str) -> tuple[str, bool]:
    if column.endswith(RANK_SUFFIX):
        return column[: -len(RANK_SUFFIX)], True
    return column, False


_LOG = logging.getLogger(__name__)


@dataclass
class _Cell:
    """One published cell of a data table for one engine; ``status`` is empty until judged."""

    pub: Any  # a row of the published table (a pandas itertuples record)
    engine: str
    classifier: str | None
    column: str
    is_rank: bool
    reproduced: float = np.nan
    status: str = ""
    reason: str = ""

    def not_run(self, reason: str) -> None:
        """Mark the cell as not computed by this run (``reason`` starts ``not run``)."""
        self.status, self.reason = NOT_RUN, reason

    def as_row(self) -> dict:
        return cell_row(self.pub, self.engine, self.reproduced, self.status, self.reason)


def _format_vector(vector) -> str:
    return "[" + ", ".join(np.format_float_positional(float(v), trim="-") for v in vector) + "]"


def compare_data_tables(
    published: pd.DataFrame,
    *,
    config: Mapping,
    measures: pd.DataFrame,
    rankings: pd.DataFrame,
    pooled: Mapping[tuple[str, str, str], np.ndarray] | None = None,
    errata: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Reproduction rows of paper 000's ranking tables (6-9), one per published cell and
    configured engine.

    A cell this run did not compute (dataset not configured, no counterpart classifier, row
    not configured, value missing from the results) is ``not_run``; the others are judged.

    Parameters
    ----------
    published : DataFrame
        Published numbers; only paper 000's ranking tables are used (rows ``accuracy,
        precision, recall, F1, MCC, pd default, pd <vector name>``; columns a paper classifier
        or ``<classifier> rank``).
    config : mapping
        The validated pipeline config (``engines``, ``classifiers``, ``datasets``, ``cv``).
    measures : DataFrame
        ``measures.csv`` (:func:`pdmeasure.tables.measures.read_measures`): reproduced values.
    rankings : DataFrame
        The tidy ranking tables (``engine, dataset, row, classifier, value, rank``): ranks.
    pooled : mapping, optional
        ``(engine, dataset, classifier) -> matrix``, needed for the kappa-vector search of the
        engines in :data:`PAPER_EXACT_ENGINES`.
    errata : DataFrame, optional
        :func:`pdmeasure.paper.published.errata`; applied to the paper-exact engines only, because
        the errata were established with the authors' own (Weka) matrices.
    """
    table_dataset = {number: name for name, number in PD_DATASET_TABLES.items()}
    published = published[
        (published["paper"] == PD_PAPER) & published["table"].astype(str).isin(list(table_dataset))
    ]
    run = _Run(
        config=config,
        index=errata_index(errata if errata is not None else pd.DataFrame(columns=ERRATA_COLUMNS)),
        value_of=_unique(
            measures, ["engine", "dataset", "classifier", "measure", "kappa"], "value"
        ),
        rank_of=_unique(rankings, ["engine", "dataset", "row", "classifier"], "rank"),
        pooled=pooled,
    )
    out: list[dict] = []
    for engine in config.get("engines", []):
        for table, pub_table in published.groupby(published["table"].astype(str), sort=False):
            cells = _table_cells(run, engine, table_dataset.get(table), pub_table)
            out += [c.as_row() for c in cells]
    return pd.DataFrame(out, columns=list(REPRODUCTION_COLUMNS))


#: Columns of an empty errata table (:func:`pdmeasure.paper.published.errata`).
ERRATA_COLUMNS = ["paper", "table", "row", "column", "published", "correct", "evidence", "anchor"]


def _unique(frame: pd.DataFrame, keys: list[str], column: str) -> pd.Series:
    """``frame[column]`` indexed by ``keys``, the first of duplicated keys kept."""
    series = frame.set_index(keys)[column]
    return series[~series.index.duplicated()]


@dataclass
class _Run:
    """What every table of one reproduction reads: the config, errata and the run's results."""

    config: Mapping
    index: Mapping
    value_of: pd.Series
    rank_of: pd.Series
    pooled: Mapping[tuple[str, str, str], np.ndarray] | None

    @property
    def zero_division(self):
        return self.config.get("zero_division", 0.0)

    @property
    def chunk_size(self) -> int:
        return int(self.config.get("histogram", {}).get("chunk_size", DEFAULT_CHUNK_SIZE))


def _table_cells(run: _Run, engine: str, dataset: str | None, pub_table) -> list[_Cell]:
    """The judged cells of one published table for one engine."""
    config = run.config
    columns = paper_columns(engine, config.get("classifiers", {}).get(engine, {}))
    block = config.get("datasets", {}).get(dataset) if dataset is not None else None
    rows = {}
    if block is not None:
        vectors = block.get("kappa_vectors", {})
        rows = {label: (measure, kappa) for label, measure, kappa in table_rows(vectors)}
    cells = []
    for pub in pub_table.itertuples(index=False):
        base, is_rank = _base_column(str(pub.column))
        cell = _Cell(pub, engine, columns.get(base), base, is_rank)
        _fill_cell(cell, dataset, block, rows, run.value_of, run.rank_of)
        cells.append(cell)
    _log_not_run(cells, engine, str(pub_table["table"].iloc[0]))
    exact_engine = engine in PAPER_EXACT_ENGINES
    _judge_table(cells, run.index if exact_engine else {}, _cv_note(config.get("cv")))
    if exact_engine and dataset is not None and block is not None and run.pooled is not None:
        _kappa_vector_errata(cells, engine, dataset, block, run)
    return cells


def _fill_cell(
    cell: _Cell,
    dataset: str | None,
    block: Mapping | None,
    rows: Mapping[str, tuple[str, str]],
    value_of: pd.Series,
    rank_of: pd.Series,
) -> None:
    """Set the reproduced value (or rank) of one published cell, or mark it ``not_run``."""
    engine, pub = cell.engine, cell.pub
    if block is None:
        cell.not_run(f"not run: dataset {dataset!r} is not in this run's config")
        return
    if cell.classifier is None:
        cause = known_cause(engine, cell.column)
        if not cause.startswith("not run"):
            cause = f"not run: engine {engine!r} has no classifier for the paper's {cell.column}"
        cell.not_run(cause)
        return
    if pub.row not in rows:
        cell.not_run(
            f"not run: row {pub.row!r} is not configured for dataset "
            f"{dataset!r} (datasets.{dataset}.kappa_vectors)"
        )
        return
    measure, kappa = rows[pub.row]
    try:
        cell.reproduced = float(
            rank_of.loc[(engine, dataset, pub.row, cell.classifier)]
            if cell.is_rank
            else value_of.loc[(engine, dataset, cell.classifier, measure, kappa)]
        )
    except KeyError:
        kind = "rank" if cell.is_rank else "value"
        cell.not_run(f"not run: no {kind} for {engine}/{dataset}/{cell.classifier} in the results")


def _log_not_run(cells: list[_Cell], engine: str, table: str) -> None:
    """Log, per reason, how many cells of one table this engine's run did not compute."""
    reasons: dict[str, int] = {}
    for cell in cells:
        if cell.status == NOT_RUN:
            reasons[cell.reason] = reasons.get(cell.reason, 0) + 1
    for reason, count in reasons.items():
        _LOG.info("engine %s, table %s: %d cell(s) skipped -- %s", engine, table, count, reason)


def _judge_table(cells: list[_Cell], index: Mapping, cv_note: str) -> None:
    """Statuses of one table's computed cells for one engine: values first, then ranks."""
    for cell in cells:
        if cell.is_rank or cell.status == NOT_RUN:
            continue
        cause = cv_note + known_cause(cell.engine, cell.column)
        cell.status, cell.reason = judge(
            float(cell.pub.value),
            cell.reproduced,
            int(cell.pub.decimals),
            index.get(_key(cell)),
            cause,
        )
    for cell in cells:
        if not cell.is_rank or cell.status == NOT_RUN:
            continue
        row_values = [c for c in cells if not c.is_rank and c.pub.row == cell.pub.row]
        ranked = sorted(c.column for c in row_values if c.classifier is not None)
        absent = sorted(c.column for c in row_values if c.classifier is None)
        differing = sorted(
            c.column
            for c in row_values
            if c.classifier is not None and c.status not in ("match", NOT_RUN)
        )
        parts = [f"rank among {len(ranked)} {cell.engine} classifiers ({', '.join(ranked)})"]
        if absent:
            parts.append(f"no counterpart for {', '.join(absent)}")
        if differing:
            parts.append(f"values differ for {', '.join(differing)}")
        cause = cv_note + "; ".join(parts)
        cell.status, cell.reason = judge(
            float(cell.pub.value), cell.reproduced, 0, index.get(_key(cell)), cause
        )


def _key(cell: _Cell) -> tuple[str, str, str, str]:
    return (str(cell.pub.paper), str(cell.pub.table), str(cell.pub.row), str(cell.pub.column))


def _exactly_reproduced(values: Mapping) -> list[str]:
    """Paper classifiers whose value cells of :data:`EXACT_EVIDENCE_ROWS` all match."""
    return sorted(
        {
            c.column
            for c in values.values()
            if c.classifier is not None
            and all(
                values.get((r, c.column)) is not None and values[(r, c.column)].status == "match"
                for r in EXACT_EVIDENCE_ROWS
            )
        }
    )


def _errata_link(index: Mapping, pub, row: str) -> str:
    """``docs/errata.md#anchor`` of the erratum entry of a table row, or the document."""
    anchor = next(
        (
            str(e.anchor).lstrip("#")
            for k, e in index.items()
            if k[:3] == (str(pub.paper), str(pub.table), row)
            and str(getattr(e, "anchor", "") or "")
        ),
        "",
    )
    return f"{ERRATA_DOC}#{anchor}" if anchor else ERRATA_DOC


def _kappa_vector_errata(
    cells: list[_Cell], engine: str, dataset: str, block: Mapping, run: _Run
) -> None:
    """Rows whose printed kappa vector reproduces none of the exactly reproduced classifiers.

    A classifier counts as exactly reproduced when its value cells of
    :data:`EXACT_EVIDENCE_ROWS` match. For a ``pd <name>`` row in which none of them matches,
    the dataset's configured grid (``kappa_grid``) is searched for vectors that reproduce the
    printed values of all of them at once; if some exist, their cells become errata naming the
    vector(s), and the row's rank cells are judged at the first vector found.
    """
    values = {(c.pub.row, c.column): c for c in cells if not c.is_rank}
    exact = _exactly_reproduced(values)
    if not exact or not block.get("kappa_grid"):
        return
    for row in dict.fromkeys(c.pub.row for c in cells):
        if not str(row).startswith("pd ") or row == "pd default":
            continue
        row_cells = [values[(row, col)] for col in exact if (row, col) in values]
        if len(row_cells) != len(exact) or any(c.status == "match" for c in row_cells):
            continue
        _search_row(cells, values, row, row_cells, exact, engine, dataset, block, run)


def _search_row(cells, values, row, row_cells, exact, engine, dataset, block, run: _Run) -> None:
    """Search the grid for the vector of one row; mark its cells as errata if one is found."""
    assert run.pooled is not None  # checked by the caller
    cms = np.stack([np.asarray(run.pooled[(engine, dataset, c.classifier)]) for c in row_cells])
    targets = np.array([float(c.pub.value) for c in row_cells])
    found = search_kappa_grid(
        cms,
        targets,
        block["kappa_grid"],
        decimals=int(row_cells[0].pub.decimals),
        chunk_size=run.chunk_size,
        zero_division=run.zero_division,
    ).vectors
    if len(found) == 0:
        return
    where = _errata_link(run.index, row_cells[0].pub, row)
    shown = "; ".join(_format_vector(v) for v in found[:3])
    more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
    note = (
        f"{where}: the printed kappa vector reproduces no classifier; kappa_search "
        f"finds {len(found)} vector(s) of the configured grid "
        f"(datasets.{dataset}.kappa_grid) reproducing the printed row for "
        f"{', '.join(exact)}: {shown}{more}"
    )
    for cell in row_cells:
        cell.status, cell.reason = "erratum", note
    for cell in (c for c in values.values() if c.pub.row == row and c.column not in exact):
        if cell.status == "differs":
            cell.reason = f"{cell.reason}; the printed kappa vector of this row is wrong ({where})"
    _rank_at_vector(cells, row, engine, dataset, found[0], run.pooled, note, run.zero_division)


def _rank_at_vector(
    cells: list[_Cell],
    row: str,
    engine: str,
    dataset: str,
    vector: np.ndarray,
    pooled: Mapping,
    note: str,
    zero_division,
) -> None:
    """Judge a row's rank cells by the ranks pd gives at ``vector`` (ties at 4 decimals)."""
    ranked = [c for c in cells if c.pub.row == row and not c.is_rank and c.classifier is not None]
    if not ranked:
        return
    cms = np.stack([np.asarray(pooled[(engine, dataset, c.classifier)]) for c in ranked])
    ranks = dict(
        zip(
            (c.column for c in ranked),
            competition_ranks(M.preference_driven(cms, vector, zero_division=zero_division)),
        )
    )
    for cell in (c for c in cells if c.pub.row == row and c.is_rank):
        if cell.status == "match" or cell.column not in ranks:
            continue
        if is_match(float(cell.pub.value), float(ranks[cell.column]), 0):
            cell.status = "erratum"
            cell.reason = f"{note}; rank {int(ranks[cell.column])} at that vector"
