"""Published numbers against reproduced ones (pipeline step 8).

One row per published number (:func:`pdmeasure.paper.published.load`) and engine::

    paper, table, row, column, engine, published, reproduced, abs_diff, status, reason

``status`` is

* ``match``: the published number is a correct rounding of the reproduced value at the printed
  precision, ``|reproduced - published| <= 0.5 * 10**-decimals`` (the same as
  ``round(reproduced, decimals) == published`` except that an exact tie at the half accepts
  either rounding); NaN matches a printed NaN;
* ``erratum``: the printed number is wrong; the value the formulas give equals the erratum's
  ``correct`` value (:func:`pdmeasure.paper.published.errata`), and ``reason`` points to its entry in
  ``docs/errata.md``. A printed kappa vector that reproduces no classifier (paper 000 Table 9,
  footnote 3) is searched for in the dataset's configured grid with
  :mod:`pdmeasure.paper.kappa_search`; when a grid vector reproduces the printed row, the row's cells
  are errata and ``reason`` names that vector;
* ``differs``: this run computed the number and it differs, for a known cause named in
  ``reason`` (see :data:`REASONS`);
* ``not_run``: this run did not compute the number -- its engine or its dataset is not in the
  config, the engine has no counterpart of the paper's classifier, the table row's kappa
  vector is not configured, or the results lack the value. ``reproduced`` is empty and
  ``reason`` starts ``not run`` and says which.

Engines: tables that need no data (paper 000 Tables 3 and 4, the Pacc tables) are reproduced
once, with engine :data:`NO_DATA_ENGINE` (``"none"``). The data tables (paper 000 Tables 6-9)
get one row per published number and engine: the configured engines, then every other
registered engine (:data:`pdmeasure.pipeline.engines.ENGINES`) with ``not_run`` rows. Nothing is
skipped, so every run reports every published number, and ``differs`` counts only numbers
that were computed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pdmeasure import measures as M
from pdmeasure.measures.weights import DEFAULT_CHUNK_SIZE
from pdmeasure.paper.facts import PD_CLASSIFIERS, PD_DATASET_TABLES, PD_PAPER, RANK_SUFFIX
from pdmeasure.paper.kappa_search import search_kappa_grid
from pdmeasure.paper.published import reproduces
from pdmeasure.pipeline.engines import ENGINES
from pdmeasure.pipeline.measure_table import MEASURE_COLUMNS
from pdmeasure.pipeline.ranking_tables import competition_ranks, table_rows

REPRODUCTION_COLUMNS = (
    "paper",
    "table",
    "row",
    "column",
    "engine",
    "published",
    "reproduced",
    "abs_diff",
    "status",
    "reason",
)
#: Statuses of a reproduction row; ``not_run`` marks numbers this run did not compute.
STATUSES = ("match", "erratum", "differs", "not_run")
NOT_RUN = "not_run"
#: Engine name of the rows of tables that need no data.
NO_DATA_ENGINE = "none"
#: The document the erratum reasons point into.
ERRATA_DOC = "docs/errata.md"
#: Engine classifier -> paper column, per engine. An engine not listed here (``weka``) maps
#: every configured classifier whose name is a paper column to itself.
COUNTERPARTS: dict[str, dict[str, str]] = {
    "sklearn": {
        "Bagging": "Bagging",
        "NaiveBayes": "BayesNet",
        "DecisionTree": "J48",
        "RandomForest": "RandomForest",
    },
}
#: Engines whose classifiers are the paper's own: errata found with the authors' matrices
#: apply to them, and a row no classifier reproduces triggers the kappa-vector search.
PAPER_EXACT_ENGINES = frozenset({"weka"})
#: Rows whose matching marks a classifier as reproduced exactly (kappa search candidates).
EXACT_EVIDENCE_ROWS = ("accuracy", "precision", "recall")


@dataclass(frozen=True)
class Reason:
    """Why a cell of a data table differs: the first rule matching (engine, column) wins.

    ``engine`` and ``column`` (a paper classifier) are exact names or ``"*"``.
    """

    engine: str
    column: str
    text: str

    def applies(self, engine: str, column: str) -> bool:
        return self.engine in ("*", engine) and self.column in ("*", column)


#: Known causes of differences in paper 000 Tables 6-9, per engine and paper classifier.
#: Findings about another engine slot in as new rows, before the catch-all ones.
REASONS: tuple[Reason, ...] = (
    Reason(
        "sklearn",
        "Bagging",
        "scikit-learn's BaggingClassifier (bagged CART trees) stands in for Weka's Bagging "
        "of REPTrees; base learner, bootstrap samples and CV folds differ",
    ),
    Reason(
        "sklearn",
        "BayesNet",
        "scikit-learn's CategoricalNB stands in for Weka's BayesNet (K2-learned network "
        "structure); naive Bayes assumes independent attributes and CV folds differ",
    ),
    Reason(
        "sklearn", "DecisionTable", "not run: Weka's DecisionTable has no scikit-learn counterpart"
    ),
    Reason(
        "sklearn",
        "J48",
        "scikit-learn's DecisionTreeClassifier (CART with binary splits on ordinal codes, "
        "no pruning) stands in for Weka's J48 (C4.5, multiway nominal splits, pruned); "
        "CV folds differ",
    ),
    Reason(
        "sklearn",
        "RandomForest",
        "scikit-learn's RandomForestClassifier stands in for Weka's RandomForest; trees, "
        "random streams and CV folds differ",
    ),
    Reason(
        "weka",
        "RandomForest",
        "Weka RandomForest seeds each RandomTree from the text of a training instance, so "
        "results depend on the authors' exact files",
    ),
    Reason(
        "weka",
        "*",
        "unexplained: the Weka engine should reproduce this cell (check Weka >= 3.7.11 and "
        "the dataset's weka encoding options)",
    ),
    Reason("*", "*", "unexplained: no known cause recorded for this engine"),
)


def known_cause(engine: str, column: str, rules: Sequence[Reason] = REASONS) -> str:
    """The reason text of the first rule in ``rules`` matching ``engine`` and ``column``."""
    for rule in rules:
        if rule.applies(engine, column):
            return rule.text
    raise ValueError(f"no reason rule matches engine {engine!r}, column {column!r}")


def paper_columns(engine: str, classifiers: Iterable[str]) -> dict[str, str]:
    """Paper column -> this engine's classifier, for the engine's configured ``classifiers``."""
    mapping = COUNTERPARTS.get(engine, {name: name for name in PD_CLASSIFIERS})
    return {mapping[c]: c for c in classifiers if c in mapping}


#: Cells the paper prints truncated, not rounded: (paper, table, column). The Pacc paper's
#: Table 5 averages (0.16667 is printed 0.166, 0.35996 is printed 0.359).
TRUNCATED: frozenset[tuple[str, str, str]] = frozenset({("pacc", "5", "AVG(ABS DIFF WITH ACC)")})


def is_match(
    published: float, reproduced: float, decimals: int, *, truncated: bool = False
) -> bool:
    """True when ``published`` is ``reproduced`` printed to ``decimals`` (NaN matches NaN).

    Rounded printing is :func:`pdmeasure.paper.published.reproduces`; with ``truncated`` the
    printed number must be ``reproduced`` cut (towards minus infinity) to ``decimals``.
    """
    if truncated and np.isfinite(reproduced):
        scale = 10.0**decimals
        reproduced = np.floor(reproduced * scale + 1e-9) / scale
        return bool(reproduces(reproduced, published, decimals + 2))
    return bool(reproduces(reproduced, published, decimals))


def _errata_index(errata: pd.DataFrame) -> dict[tuple[str, str, str, str], pd.Series]:
    return {
        (str(e.paper), str(e.table), str(e.row), str(e.column)): e
        for e in errata.itertuples(index=False)
    }


def _erratum_reason(entry) -> str:
    anchor = str(getattr(entry, "anchor", "") or "").lstrip("#")
    where = f"{ERRATA_DOC}#{anchor}" if anchor else ERRATA_DOC
    return f"{where}: printed {entry.published}, the formulas give {entry.correct}"


def _judge(
    published: float,
    reproduced: float,
    decimals: int,
    entry,
    cause: str,
    *,
    truncated: bool = False,
):
    """(status, reason) of one cell; ``entry`` is its erratum row or None."""
    if is_match(published, reproduced, decimals, truncated=truncated):
        return "match", ""
    if entry is not None and is_match(
        float(entry.correct), reproduced, decimals, truncated=truncated
    ):
        return "erratum", _erratum_reason(entry)
    return "differs", cause


def _row(pub, engine: str, reproduced: float, status: str, reason: str) -> dict:
    published = float(pub.value)
    diff = abs(reproduced - published)
    return {
        "paper": pub.paper,
        "table": str(pub.table),
        "row": pub.row,
        "column": pub.column,
        "engine": engine,
        "published": published,
        "reproduced": reproduced,
        "abs_diff": diff if np.isfinite(diff) else np.nan,
        "status": status,
        "reason": reason,
    }


def compare_no_data(
    published: pd.DataFrame, computed: pd.DataFrame, errata: pd.DataFrame
) -> pd.DataFrame:
    """Reproduction rows of the tables that need no data (engine :data:`NO_DATA_ENGINE`).

    Parameters
    ----------
    published : DataFrame
        The published numbers of these tables (``paper, table, row, column, value, decimals``).
    computed : DataFrame
        The reproduced tables (:mod:`pdmeasure.paper.example_tables` format: ``paper, table, row, column,
        value``).
    errata : DataFrame
        :func:`pdmeasure.paper.published.errata`.
    """
    lookup = {
        (str(r.paper), str(r.table), str(r.row), str(r.column)): float(r.value)
        for r in computed.itertuples(index=False)
    }
    index = _errata_index(errata)
    rows = []
    for pub in published.itertuples(index=False):
        key = (str(pub.paper), str(pub.table), str(pub.row), str(pub.column))
        reproduced = lookup.get(key)
        if reproduced is None:
            rows.append(
                _row(
                    pub,
                    NO_DATA_ENGINE,
                    np.nan,
                    NOT_RUN,
                    "not run: no reproduced value for this cell",
                )
            )
            continue
        truncated = (key[0], key[1], key[3]) in TRUNCATED
        cause = (
            f"no erratum recorded: the paper's formulas give {reproduced:.6g} from the "
            "paper's own inputs"
        )
        status, reason = _judge(
            float(pub.value),
            reproduced,
            int(pub.decimals),
            index.get(key),
            cause,
            truncated=truncated,
        )
        rows.append(_row(pub, NO_DATA_ENGINE, reproduced, status, reason))
    return pd.DataFrame(rows, columns=list(REPRODUCTION_COLUMNS))


# --------------------------------------------------------------------------- data tables
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

    pub: object
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
        return _row(self.pub, self.engine, self.reproduced, self.status, self.reason)


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
        ``measures.csv`` (:func:`pdmeasure.pipeline.measure_table.read_measures`): reproduced values.
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
    errata = (
        errata
        if errata is not None
        else pd.DataFrame(
            columns=[
                "paper",
                "table",
                "row",
                "column",
                "published",
                "correct",
                "evidence",
                "anchor",
            ]
        )
    )
    index = _errata_index(errata)
    value_of = measures.set_index(["engine", "dataset", "classifier", "measure", "kappa"])["value"]
    value_of = value_of[~value_of.index.duplicated()]
    rank_of = rankings.set_index(["engine", "dataset", "row", "classifier"])["rank"]
    rank_of = rank_of[~rank_of.index.duplicated()]
    datasets = config.get("datasets", {})
    cv_note = _cv_note(config.get("cv"))
    zero_division = config.get("zero_division", 0.0)
    chunk_size = int(config.get("histogram", {}).get("chunk_size", DEFAULT_CHUNK_SIZE))
    out: list[dict] = []
    for engine in config.get("engines", []):
        columns = paper_columns(engine, config.get("classifiers", {}).get(engine, {}))
        for table, pub_table in published.groupby(published["table"].astype(str), sort=False):
            dataset = table_dataset.get(table)
            cells = []
            block = datasets.get(dataset) if dataset is not None else None
            rows = (
                {}
                if block is None
                else {
                    label: (measure, kappa)
                    for label, measure, kappa in table_rows(block.get("kappa_vectors", {}))
                }
            )
            for pub in pub_table.itertuples(index=False):
                base, is_rank = _base_column(str(pub.column))
                cell = _Cell(pub, engine, columns.get(base), base, is_rank)
                _fill_cell(cell, dataset, block, rows, value_of, rank_of)
                cells.append(cell)
            _log_not_run(cells, engine, table)
            _judge_table(cells, index if engine in PAPER_EXACT_ENGINES else {}, cv_note)
            if engine in PAPER_EXACT_ENGINES and block is not None and pooled is not None:
                _kappa_vector_errata(
                    cells,
                    engine,
                    dataset,
                    block,
                    pooled,
                    index,
                    zero_division=zero_division,
                    chunk_size=chunk_size,
                )
            out += [c.as_row() for c in cells]
    return pd.DataFrame(out, columns=list(REPRODUCTION_COLUMNS))


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
        cell.status, cell.reason = _judge(
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
        cell.status, cell.reason = _judge(
            float(cell.pub.value), cell.reproduced, 0, index.get(_key(cell)), cause
        )


def _key(cell: _Cell) -> tuple[str, str, str, str]:
    return (str(cell.pub.paper), str(cell.pub.table), str(cell.pub.row), str(cell.pub.column))


def _kappa_vector_errata(
    cells: list[_Cell],
    engine: str,
    dataset: str,
    block: Mapping,
    pooled: Mapping,
    index: Mapping,
    *,
    zero_division,
    chunk_size: int,
) -> None:
    """Rows whose printed kappa vector reproduces none of the exactly reproduced classifiers.

    A classifier counts as exactly reproduced when its value cells of
    :data:`EXACT_EVIDENCE_ROWS` match. For a ``pd <name>`` row in which none of them matches,
    the dataset's configured grid (``kappa_grid``) is searched for vectors that reproduce the
    printed values of all of them at once; if some exist, their cells become errata naming the
    vector(s), and the row's rank cells are judged at the first vector found.
    """
    values = {(c.pub.row, c.column): c for c in cells if not c.is_rank}
    exact = sorted(
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
    grid = block.get("kappa_grid")
    if not exact or not grid:
        return
    for row in dict.fromkeys(c.pub.row for c in cells):
        if not str(row).startswith("pd ") or row == "pd default":
            continue
        row_cells = [values[(row, col)] for col in exact if (row, col) in values]
        if len(row_cells) != len(exact) or any(c.status == "match" for c in row_cells):
            continue
        cms = np.stack([np.asarray(pooled[(engine, dataset, c.classifier)]) for c in row_cells])
        targets = np.array([float(c.pub.value) for c in row_cells])
        decimals = int(row_cells[0].pub.decimals)
        found = search_kappa_grid(
            cms,
            targets,
            grid,
            decimals=decimals,
            chunk_size=chunk_size,
            zero_division=zero_division,
        ).vectors
        if len(found) == 0:
            continue
        anchor = next(
            (
                str(e.anchor).lstrip("#")
                for k, e in index.items()
                if k[:3] == (str(row_cells[0].pub.paper), str(row_cells[0].pub.table), row)
                and str(getattr(e, "anchor", "") or "")
            ),
            "",
        )
        where = f"{ERRATA_DOC}#{anchor}" if anchor else ERRATA_DOC
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
                cell.reason = (
                    f"{cell.reason}; the printed kappa vector of this row is wrong ({where})"
                )
        _rank_at_vector(cells, row, engine, dataset, found[0], pooled, note, zero_division)


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


# --------------------------------------------------------------------------- whole table
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
        _row(
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


def read_reproduction(path) -> pd.DataFrame:
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


def summary_markdown(table: pd.DataFrame, *, largest: int = 5) -> str:
    """The short Markdown summary of ``reproduction.csv``.

    Sections: overall counts per engine; counts per paper, table and engine; counts per
    engine and paper classifier for paper 000 Tables 6-9; the errata cells; and, per engine,
    the ``largest`` value cells that differ most from the printed number.
    """
    if table.empty:
        raise ValueError("reproduction table is empty: nothing to summarise")
    md = lambda frame: frame.to_markdown(index=False, disable_numparse=True)  # noqa: E731
    total = status_counts(table, ["engine"])
    overall = table["status"].value_counts()
    counts = ", ".join(f"{int(overall.get(status, 0))} {status}" for status in STATUSES)
    lines = [
        "# Reproduction of the papers' published numbers",
        "",
        f"{len(table)} rows: one per published number and engine (engine `{NO_DATA_ENGINE}`: "
        "tables that need no data). `match`: equal at the printed precision; `erratum`: the "
        f"printed number is wrong (see `{ERRATA_DOC}`); `differs`: computed by this run and "
        "different, for a known cause named in `reason` of `reproduction.csv`; `not_run`: not "
        "computed by this run (engine, dataset, classifier or kappa vector not in the config; "
        "`reason` says which).",
        "",
        f"Overall: {counts}.",
        "",
        "## Per engine",
        "",
        md(total),
        "",
        "## Per table and engine",
        "",
        md(status_counts(table, ["paper", "table", "engine"])),
    ]
    data = table[
        (table["paper"] == PD_PAPER)
        & table["table"].astype(str).isin(set(PD_DATASET_TABLES.values()))
    ]
    if not data.empty:
        data = data.assign(classifier=data["column"].str.replace(RANK_SUFFIX, "", regex=False))
        lines += [
            "",
            "## Paper 000 Tables 6-9 per engine and paper classifier (values and ranks)",
            "",
            md(status_counts(data, ["engine", "classifier"])),
        ]
    errata_rows = table[table["status"] == "erratum"]
    if not errata_rows.empty:
        shown = errata_rows[
            ["paper", "table", "row", "column", "engine", "published", "reproduced"]
        ].copy()
        shown["reproduced"] = shown["reproduced"].map(lambda v: f"{v:.4f}")
        shown["published"] = shown["published"].map(lambda v: f"{v:g}")
        lines += ["", "## Errata", "", md(shown)]
    values = table[
        (table["status"] == "differs")
        & table["abs_diff"].notna()
        & ~table["column"].str.endswith(RANK_SUFFIX)
    ]
    if not values.empty:
        lines += ["", f"## Largest differences per engine (values, top {largest})", ""]
        for engine, rows in values.groupby("engine", sort=False):
            top = rows.nlargest(largest, "abs_diff")[
                ["table", "row", "column", "published", "reproduced", "abs_diff", "reason"]
            ].copy()
            for col in ("published", "reproduced", "abs_diff"):
                top[col] = top[col].map(lambda v: f"{v:.4f}")
            lines += [f"### {engine}", "", md(top), ""]
    return "\n".join(lines).rstrip() + "\n"
