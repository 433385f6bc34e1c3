"""The papers' printed numbers and the errata found in them.

Two package files, transcribed from the papers in ``../shared/papers/``:

``data/published.csv`` -- one row per printed number::

    paper, table, row, column, value, decimals

* ``paper`` is ``preference-driven`` (paper 000, Kozak et al.) or ``pacc`` (paper 001,
  Sigdel and Aygun).
* ``table`` is the table number as a string (``"3"``, ``"9"``) or ``"section 4.2"`` for the
  values quoted in the text of paper 000's Section 4.2.
* Paper 000 Tables 6-9 (car, nursery, dermatology, krkopt): ``row`` is one of
  ``accuracy, precision, recall, F1, MCC, pd default, pd <name>`` where ``<name>`` is the
  config key of the kappa vector (``p1``..``p5``; ``fn2``..``fn6`` for Table 9's footnotes);
  ``column`` is the paper's classifier name (``Bagging, BayesNet, DecisionTable, J48,
  RandomForest``) for the value and ``<name> rank`` for the rank printed in brackets.
* Paper 000 Table 3: rows ``cm1``..``cm9``; columns ``pd [0.3, 0.6]``, ``pd [0.9, 0.4]``,
  ``pd [0.5, 0.5]``, ``precision``, ``recall``, ``F1``. Table 4: row ``all``, column
  ``preference_driven`` (0.656). Section 4.2: row ``cm4``, columns ``pd [k1, k2]``, ``pd min``,
  ``pd max`` (over the 121-vector grid), ``precision`` and ``recall`` (as quoted in the text).
* Pacc Tables 2, 4 and 6: rows are the matrix letters, columns ``ACC, KAPPA, R_k, 1-CEN,
  FMEAS, PACC``; printed ``NAN`` is NaN. Table 5: rows ``ACC, KAPPA, R_k, CEN, FMEAS, PACC``,
  columns ``NUM DISTINCT VALUES`` and ``AVG(ABS DIFF WITH ACC)`` (ACC's ``-`` is NaN).
* ``value`` is the number as printed (float); ``decimals`` its printed precision (0 for ranks
  and counts).

``data/errata.csv`` -- one row per printed number that does not reproduce::

    paper, table, row, column, published, correct, evidence, anchor

``correct`` is the value the paper's own formulas give from the paper's own inputs, rounded to
the printed precision (NaN where the correct value is not a single number); ``anchor`` is the
entry's heading anchor in ``docs/errata.md``, the human-readable twin with the full evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from pdmeasure.paper.facts import PAPERS

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

PUBLISHED_COLUMNS = ("paper", "table", "row", "column", "value", "decimals")
ERRATA_COLUMNS = ("paper", "table", "row", "column", "published", "correct", "evidence", "anchor")
#: Paper 000's data tables: dataset -> table.
#: Paper 000's classifier columns, in the printed order.

_KEYS = ("paper", "table", "row", "column")


def _number(text: str, name: str, column: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{name}: column {column!r} holds {text!r}, not a number") from None


def _read(name: str, columns: tuple[str, ...], numeric: tuple[str, ...]) -> pd.DataFrame:
    return _read_cached(name, columns, numeric).copy()


@cache
def _read_cached(name: str, columns: tuple[str, ...], numeric: tuple[str, ...]) -> pd.DataFrame:
    with (
        resources.files("pdmeasure.paper").joinpath("data", name).open("r", encoding="utf-8") as fh
    ):
        frame = pd.read_csv(fh, dtype=str, keep_default_na=False)
    if tuple(frame.columns) != columns:
        raise ValueError(f"{name}: expected columns {columns}, found {tuple(frame.columns)}")
    for col in numeric:
        # "nan" spells a printed NaN ("NAN", "-"); anything else must parse as a number.
        frame[col] = [_number(x, name, col) for x in frame[col]]
    duplicated = frame.duplicated(list(_KEYS))
    if duplicated.any():
        first = frame.loc[duplicated, list(_KEYS)].iloc[0].tolist()
        raise ValueError(f"{name}: cell {first} appears more than once")
    return frame


def load(paper: str | None = None, table: str | None = None) -> pd.DataFrame:
    """Every number printed in the papers' tables (see the module docstring for the layout).

    Parameters
    ----------
    paper : {"preference-driven", "pacc"}, optional
        Keep only this paper's numbers.
    table : str, optional
        Keep only this table (``"9"``, ``"section 4.2"``); compared as a string.

    Returns
    -------
    DataFrame
        Columns ``paper, table, row, column, value, decimals``; ``value`` float (NaN where the
        paper prints NaN or ``-``), ``decimals`` int.
    """
    frame = _read("published.csv", PUBLISHED_COLUMNS, ("value", "decimals"))
    frame["decimals"] = frame["decimals"].astype(int)
    if paper is not None:
        if paper not in PAPERS:
            raise ValueError(f"unknown paper {paper!r}; expected one of {PAPERS}")
        frame = frame[frame["paper"] == paper]
    if table is not None:
        frame = frame[frame["table"] == str(table)]
        if frame.empty:
            raise ValueError(f"no published numbers for table {table!r} (paper {paper!r})")
    return frame.reset_index(drop=True)


def errata() -> pd.DataFrame:
    """The printed numbers that do not reproduce from the papers' own inputs and formulas.

    Returns
    -------
    DataFrame
        Columns ``paper, table, row, column, published, correct, evidence, anchor``. Every
        ``(paper, table, row, column)`` is a cell of :func:`load`; ``anchor`` is the entry's
        anchor in ``docs/errata.md``.
    """
    return _read("errata.csv", ERRATA_COLUMNS, ("published", "correct")).reset_index(drop=True)


def value(paper: str, table: str, row: str, column: str) -> float:
    """The single printed number at ``(paper, table, row, column)``; KeyError if absent."""
    frame = load(paper, table)
    hit = frame[(frame["row"] == row) & (frame["column"] == column)]
    if hit.empty:
        raise KeyError(f"no published number at {(paper, table, row, column)}")
    return float(hit["value"].iloc[0])


def table_matrix(
    paper: str,
    table: str,
    rows: Sequence[str] | None = None,
    columns: Sequence[str] | None = None,
) -> pd.DataFrame:
    """One printed table as a wide frame (rows x columns, in the printed order)."""
    frame = load(paper, table)
    wide = frame.pivot(index="row", columns="column", values="value")
    rows = list(dict.fromkeys(frame["row"])) if rows is None else list(rows)
    columns = list(dict.fromkeys(frame["column"])) if columns is None else list(columns)
    return wide.loc[rows, columns]


def reproduces(computed: ArrayLike, printed: ArrayLike, decimals: ArrayLike) -> np.ndarray:
    """Whether ``printed`` is ``computed`` rounded to ``decimals`` places (elementwise).

    True when ``|computed - printed| <= 0.5 * 10**-decimals`` (with a 1e-9 relative slack for
    binary floating point), so an exact tie at the half (0.375 printed 0.37 or 0.38) accepts
    either rounding. NaN reproduces NaN and nothing else.

    Parameters
    ----------
    computed, printed : array_like
        Broadcast against each other.
    decimals : int or array_like of int
        Printed precision.

    Returns
    -------
    numpy.ndarray of bool
    """
    computed = np.asarray(computed, dtype=float)
    printed = np.asarray(printed, dtype=float)
    half = 0.5 * 10.0 ** -np.asarray(decimals, dtype=float)
    with np.errstate(invalid="ignore"):
        close = np.abs(computed - printed) <= half * (1 + 1e-9)
    both_nan = np.isnan(computed) & np.isnan(printed)
    return np.where(np.isnan(computed) | np.isnan(printed), both_nan, close)


def paper_ranks(values: ArrayLike, decimals: int = 4) -> np.ndarray:
    """Ranks as printed in paper 000 Tables 6-9: 1 = largest; ties share the best rank.

    Values are compared at their printed precision, so two classifiers shown with the same
    number share a rank and the next rank is skipped (Table 6: ``0.8600 (1) ... 0.8600 (1)``,
    then ``(3)``): competition ranking, ``scipy.stats.rankdata(..., method="min")``.

    Parameters
    ----------
    values : array_like, shape (n,)
    decimals : int
        Printed precision used to decide ties.

    Returns
    -------
    numpy.ndarray of int, shape (n,)
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or np.isnan(values).any():
        raise ValueError("paper_ranks needs a 1-D array of numbers without NaN")
    # Imported here: scipy.stats takes about 0.5 s to import, most of a table job's time.
    from scipy.stats import rankdata

    return rankdata(-np.round(values, decimals), method="min").astype(int)
