"""Verdicts on one published number: the statuses, known causes of differences, errata."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdmeasure.paper.facts import PD_CLASSIFIERS
from pdmeasure.paper.published import reproduces

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


def errata_index(errata: pd.DataFrame) -> dict[tuple[str, str, str, str], pd.Series]:
    return {
        (str(e.paper), str(e.table), str(e.row), str(e.column)): e
        for e in errata.itertuples(index=False)
    }


def erratum_reason(entry: pd.Series) -> str:
    anchor = str(getattr(entry, "anchor", "") or "").lstrip("#")
    where = f"{ERRATA_DOC}#{anchor}" if anchor else ERRATA_DOC
    return f"{where}: printed {entry.published}, the formulas give {entry.correct}"


def judge(
    published: float,
    reproduced: float,
    decimals: int,
    entry: pd.Series | None,
    cause: str,
    *,
    truncated: bool = False,
) -> tuple[str, str]:
    """(status, reason) of one cell; ``entry`` is its erratum row or None."""
    if is_match(published, reproduced, decimals, truncated=truncated):
        return "match", ""
    if entry is not None and is_match(
        float(entry.correct), reproduced, decimals, truncated=truncated
    ):
        return "erratum", erratum_reason(entry)
    return "differs", cause


# ``pub`` is a row of the published table's ``itertuples()``, a named tuple built at run time.
def cell_row(pub: Any, engine: str, reproduced: float, status: str, reason: str) -> dict:
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
