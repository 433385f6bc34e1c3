"""Paper artefacts that need no data: the numbers behind the papers' worked examples.

Everything here is *compute*: it turns the papers' example matrices (:mod:`pdmeasure.paper.examples`)
into tidy tables. Figures are drawn from those tables by :mod:`pdmeasure.render.paper_figures`, and
Markdown is rendered from the CSV files by :func:`pdmeasure.render.markdown.paper_table_markdown`.

Paper 000 (preference-driven measure, Kozak et al.):

* Table 3: pd at three kappa vectors, macro precision, macro recall and macro F1 (eq. 17, 18,
  23) for cm1..cm9 of Figure 1.
* Table 4: the worked example of Section 4.3 -- the default kappa (eq. 31) of the 3-class
  matrix and the pd value 0.656 it gives (eq. 30).
* Figures 2-6: pd over the 121-vector grid {0, 0.1, ..., 1}^2 of Section 4.2 (Figures 2-5) and
  the Table 3 measures per matrix (Figure 6).

Paper 001 (Pacc, Sigdel and Aygun): Tables 2, 4 and 6 (ACC, KAPPA, R_k, 1-CEN, FMEAS, PACC for
the matrices of Tables 1, 3 and 3-scaled) and Table 5 (distinct values and mean absolute
difference from accuracy over the 9261 3-class matrices with 5 items per class).

Tidy table format (every ``*_table*.csv``): ``paper, table, row, column, value, decimals``; the
``paper``/``table``/``row``/``column`` keys use the spellings of :func:`pdmeasure.paper.published.load`,
so a reproduced cell joins its published number directly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure import measures as M
from pdmeasure.paper import examples
from pdmeasure.paper.facts import PACC_PAPER, PD_PAPER
from pdmeasure.tables.io import read_csv

TABLE_COLUMNS = ("paper", "table", "row", "column", "value", "decimals")

#: Table 3's three pd columns: column name -> kappa vector (kappa weights precision).
TABLE3_KAPPAS: dict[str, tuple[float, float]] = {
    "pd [0.3, 0.6]": (0.3, 0.6),
    "pd [0.9, 0.4]": (0.9, 0.4),
    "pd [0.5, 0.5]": (0.5, 0.5),
}
#: Table 3's classical columns: column name -> REGISTRY key (eq. 17, 18, 23).
TABLE3_MEASURES: dict[str, str] = {
    "precision": "precision_macro",
    "recall": "recall_macro",
    "F1": "f1_macro",
}

#: The kappa points marked in Figure 2 (Section 4.2), label -> (kappa1, kappa2).
FIGURE2_POINTS: dict[str, tuple[float, float]] = {
    "green": (0.1, 0.3),
    "black": (0.1, 0.8),
    "red": (0.4, 0.4),
    "light blue": (0.9, 0.1),
    "orange": (0.9, 0.8),
}
#: Matrices shown by each surface figure, in panel order.
FIGURE_MATRICES: dict[int, tuple[str, ...]] = {
    2: ("cm4",),
    3: ("cm4", "cm8"),
    4: ("cm1", "cm9", "cm4", "cm8"),
    5: ("cm1", "cm2", "cm3", "cm4", "cm5", "cm6", "cm7", "cm8"),
}

#: Pacc paper columns: column name -> (REGISTRY key, transform). 1-CEN is printed, not CEN.
PACC_COLUMNS: dict[str, str] = {
    "ACC": "accuracy",
    "KAPPA": "kappa",
    "R_k": "mcc",
    "1-CEN": "cen",
    "FMEAS": "f1_macro_mean",
    "PACC": "pacc",
}
#: Table 5's measures (CEN itself, not 1-CEN), in the printed order.
PACC_TABLE5_MEASURES: dict[str, str] = {
    "ACC": "accuracy",
    "KAPPA": "kappa",
    "R_k": "mcc",
    "CEN": "cen",
    "FMEAS": "f1_macro_mean",
    "PACC": "pacc",
}
#: Table 5 columns.
PACC_TABLE5_DISTINCT = "NUM DISTINCT VALUES"
PACC_TABLE5_AVGDIFF = "AVG(ABS DIFF WITH ACC)"


def _stack(matrices: Mapping[str, np.ndarray]) -> tuple[list[str], np.ndarray]:
    names = list(matrices)
    if not names:
        raise ValueError("no matrices given")
    return names, np.stack([np.asarray(matrices[n], dtype=float) for n in names])


def _tidy(
    paper: str,
    table: str,
    rows: Sequence[str],
    columns: Sequence[str],
    values: np.ndarray,
    decimals: int,
) -> pd.DataFrame:
    """Long-format rows of a ``(len(rows), len(columns))`` value block, row-major."""
    values = np.asarray(values, dtype=float)
    if values.shape != (len(rows), len(columns)):
        raise ValueError(f"value block {values.shape} does not match {len(rows)}x{len(columns)}")
    return pd.DataFrame(
        {
            "paper": paper,
            "table": table,
            "row": np.repeat(np.asarray(rows, dtype=object), len(columns)),
            "column": np.tile(np.asarray(columns, dtype=object), len(rows)),
            "value": values.ravel(),
            "decimals": decimals,
        }
    )[list(TABLE_COLUMNS)]


def pd_table3(
    matrices: Mapping[str, np.ndarray] | None = None, *, zero_division: float | str = 0.0
) -> pd.DataFrame:
    """Paper 000 Table 3: pd at [0.3,0.6], [0.9,0.4], [0.5,0.5], precision, recall, F1.

    pd is eq. 30, ``(1/C) sum_i kappa_i precision_i + (1 - kappa_i) recall_i``; precision and
    recall are the macro averages of eq. 17 and 18 (pd at kappa = [1, 1] and [0, 0]); F1 is
    eq. 23, the harmonic mean of macro precision and macro recall. The paper takes 0/0 = 0
    (cm9's precision 0.25 needs it).

    Parameters
    ----------
    matrices : mapping, optional
        Name -> 2x2 matrix; default :data:`pdmeasure.paper.examples.PD_FIGURE1` (cm1..cm9).
    zero_division : {"nan", 0.0, 1.0}

    Returns
    -------
    DataFrame
        Tidy table (:data:`TABLE_COLUMNS`), rows = matrix names, 4 decimals.
    """
    names, cms = _stack(examples.PD_FIGURE1 if matrices is None else matrices)
    kappas = np.array(list(TABLE3_KAPPAS.values()))
    pd_values = M.preference_driven(cms[:, None], kappas, zero_division=zero_division)
    classical = np.stack(
        [M.REGISTRY[key](cms, zero_division=zero_division) for key in TABLE3_MEASURES.values()],
        axis=1,
    )
    block = np.concatenate([pd_values, classical], axis=1)
    return _tidy(PD_PAPER, "3", names, [*TABLE3_KAPPAS, *TABLE3_MEASURES], block, 4)


def pd_table4(cm: np.ndarray | None = None, *, zero_division: float | str = 0.0) -> pd.DataFrame:
    """Paper 000 Table 4 and the worked example of Section 4.3.

    The default kappa (eq. 31) is each actual class's share ``(TP_i + FN_i) / s``; pd (eq. 30)
    is the mean over classes of ``kappa_i * precision_i + (1 - kappa_i) * recall_i``. For the
    printed matrix this is kappa = [0.5, 0.2, 0.3] and pd = 0.656.

    Returns
    -------
    DataFrame
        Tidy table: rows ``class 1 .. class C`` with columns ``support, kappa, precision,
        recall, kappa*precision, (1-kappa)*recall``, and row ``all`` with column
        ``preference_driven`` (3 decimals, as printed).
    """
    cm = np.asarray(examples.PD_TABLE4 if cm is None else cm, dtype=float)
    precision, recall = M.class_precision_recall(cm, zero_division=zero_division)
    support = cm.sum(axis=1)
    kappa = support / support.sum()
    per_class = np.stack(
        [support, kappa, precision, recall, kappa * precision, (1 - kappa) * recall], axis=1
    )
    rows = [f"class {i + 1}" for i in range(cm.shape[0])]
    columns = ["support", "kappa", "precision", "recall", "kappa*precision", "(1-kappa)*recall"]
    value = float(M.preference_driven(cm, zero_division=zero_division))
    tidy = _tidy(PD_PAPER, "4", rows, columns, per_class, 3)
    tidy.loc[tidy["column"] == "support", "decimals"] = 0
    return pd.concat(
        [
            tidy,
            _tidy(PD_PAPER, "4", ["all"], ["preference_driven"], np.array([[value]]), 3),
        ],
        ignore_index=True,
    )


def kappa_surface(
    matrices: Mapping[str, np.ndarray] | None = None,
    values: Sequence[float] = examples.PD_SECTION42_VALUES,
    *,
    zero_division: float | str = 0.0,
) -> pd.DataFrame:
    """pd of each 2-class matrix over the product grid ``values x values`` (Section 4.2).

    Parameters
    ----------
    matrices : mapping, optional
        Name -> 2x2 matrix; default cm1..cm9 of Figure 1.
    values : sequence of float
        Grid values per class; default {0, 0.1, ..., 1} (121 vectors).

    Returns
    -------
    DataFrame
        Columns ``matrix, kappa1, kappa2, value``; one row per matrix and kappa vector, vectors
        in :func:`pdmeasure.measures.kappa_grid` order (kappa2 fastest).
    """
    names, cms = _stack(examples.PD_FIGURE1 if matrices is None else matrices)
    if cms.shape[1:] != (2, 2):
        raise ValueError(f"kappa surfaces need 2-class matrices, got shape {cms.shape[1:]}")
    grid = np.concatenate(list(M.kappa_grid(values, 2)))
    surface = M.preference_driven(cms[:, None], grid, zero_division=zero_division)
    return pd.DataFrame(
        {
            "matrix": np.repeat(np.asarray(names, dtype=object), len(grid)),
            "kappa1": np.tile(grid[:, 0], len(names)),
            "kappa2": np.tile(grid[:, 1], len(names)),
            "value": surface.ravel(),
        }
    )


def figure_surface(surface: pd.DataFrame, figure: int) -> pd.DataFrame:
    """The rows of :func:`kappa_surface` shown by Figure ``figure`` (2-5), with a panel index."""
    try:
        shown = FIGURE_MATRICES[figure]
    except KeyError:
        raise ValueError(f"figure {figure} is not a surface figure (2-5)") from None
    missing = sorted(set(shown) - set(surface["matrix"]))
    if missing:
        raise ValueError(f"figure {figure} needs matrices {missing}, absent from the surface")
    parts = [surface[surface["matrix"] == name].assign(panel=i) for i, name in enumerate(shown)]
    return pd.concat(parts, ignore_index=True)[["panel", "matrix", "kappa1", "kappa2", "value"]]


def _surface_of(surface: pd.DataFrame, matrix: str) -> pd.DataFrame:
    rows = surface[surface["matrix"] == matrix]
    if rows.empty:
        raise ValueError(f"matrix {matrix!r} is absent from the kappa surface")
    return rows


def figure2_points(
    surface: pd.DataFrame, matrix: str = "cm4", *, zero_division: float | str = 0.0
) -> pd.DataFrame:
    """The points marked in Figure 2: Section 4.2's five kappas, and the grid's extremes.

    The paper quotes, for cm4, pd[0.1,0.3] = 0.8083 (green), pd[0.1,0.8] = 0.9333 (black),
    pd[0.4,0.4] = 0.7833 (red), pd[0.9,0.1] = 0.6250 (light blue), pd[0.9,0.8] = 0.8000
    (orange), and the range 0.5833 (at [1, 0]) to 1.0000 (at [0, 1]) over the 121 vectors.

    Parameters
    ----------
    surface : DataFrame
        :func:`kappa_surface` output; the extremes are located on its grid.
    matrix : str
        The matrix of Figure 2 (cm4).

    Returns
    -------
    DataFrame
        Columns ``label, kappa1, kappa2, value``; labels are the dot colours, ``minimum`` and
        ``maximum`` (the first grid vector attaining each).
    """
    rows = _surface_of(surface, matrix)
    cm = examples.PD_FIGURE1[matrix]
    kappas = np.array(list(FIGURE2_POINTS.values()))
    marked = pd.DataFrame(
        {
            "label": list(FIGURE2_POINTS),
            "kappa1": kappas[:, 0],
            "kappa2": kappas[:, 1],
            "value": M.preference_driven(cm, kappas, zero_division=zero_division),
        }
    )
    extremes = rows.loc[
        [rows["value"].idxmin(), rows["value"].idxmax()], ["kappa1", "kappa2", "value"]
    ]
    extremes.insert(0, "label", ["minimum", "maximum"])
    return pd.concat([marked, extremes], ignore_index=True)


def pd_section42(
    surface: pd.DataFrame, matrix: str = "cm4", *, zero_division: float | str = 0.0
) -> pd.DataFrame:
    """The cm4 numbers quoted in the text of Section 4.2, as a tidy table.

    Columns ``pd [k1, k2]`` for the quoted kappas (the extremes [1.0, 0.0] and [0.0, 1.0] and
    the five marked points of Figure 2), ``pd min`` and ``pd max`` over the 121-vector grid,
    and macro ``precision`` and ``recall`` (eq. 17, 18). Table name ``section 4.2``.
    """
    rows = _surface_of(surface, matrix)
    cm = examples.PD_FIGURE1[matrix]
    kappas = [(1.0, 0.0), (0.0, 1.0), *FIGURE2_POINTS.values()]
    values = list(M.preference_driven(cm, np.array(kappas), zero_division=zero_division))
    columns = [f"pd [{k1:.1f}, {k2:.1f}]" for k1, k2 in kappas]
    columns += ["pd min", "pd max", "precision", "recall"]
    values += [
        rows["value"].min(),
        rows["value"].max(),
        M.precision_macro(cm, zero_division=zero_division),
        M.recall_macro(cm, zero_division=zero_division),
    ]
    return _tidy(PD_PAPER, "section 4.2", [matrix], columns, np.array([values]), 4)


def figure6_values(table3: pd.DataFrame) -> pd.DataFrame:
    """Figure 6's data: the Table 3 measures per matrix, as ``matrix, measure, value``."""
    if not {"row", "column", "value"} <= set(table3.columns):
        raise ValueError("figure 6 needs a Table 3 frame with columns row, column, value")
    return table3.rename(columns={"row": "matrix", "column": "measure"})[
        ["matrix", "measure", "value"]
    ].reset_index(drop=True)


def pacc_measures_table(matrices: Mapping[str, np.ndarray], table: str) -> pd.DataFrame:
    """Pacc paper Tables 2, 4 and 6: ACC, KAPPA, R_k, 1-CEN, FMEAS, PACC per matrix.

    R_k is Gorodkin's K-category correlation coefficient (Pacc eq. 6-9 = paper 000 eq. 25),
    CEN the confusion entropy (eq. 1-5; the table prints 1 - CEN), FMEAS the mean of the
    per-class F1 (eq. 11-12), PACC eq. 15-19. Undefined values (0/0) are NaN, as printed
    ("NAN").

    Returns
    -------
    DataFrame
        Tidy table, rows = matrix names, 2 decimals.
    """
    names, cms = _stack(matrices)
    columns = []
    for key in PACC_COLUMNS.values():
        values = M.REGISTRY[key](cms, zero_division="nan")
        columns.append(1.0 - values if key == "cen" else values)
    return _tidy(PACC_PAPER, table, names, list(PACC_COLUMNS), np.stack(columns, axis=1), 2)


def pacc_table2() -> pd.DataFrame:
    """Pacc Table 2: the measures of Table 1's 2-class matrices A..J."""
    return pacc_measures_table(examples.PACC_TABLE1, "2")


def pacc_table4() -> pd.DataFrame:
    """Pacc Table 4: the measures of Table 3's 3-class matrices A..H."""
    return pacc_measures_table(examples.PACC_TABLE3, "4")


def pacc_table6() -> pd.DataFrame:
    """Pacc Table 6: Table 4's measures on Table 3's matrices scaled row-wise by (1, 2, 5)."""
    return pacc_measures_table(examples.PACC_TABLE6, "6")


#: Pacc Table 5: values are counted as distinct after rounding to this many decimals, which
#: merges floating-point noise (CEN's logarithms differ in the 1e-10s for equal values).
PACC_TABLE5_DISTINCT_DECIMALS = 6
#: Pacc Table 5: measures ranging over [-1, 1] whose mean difference is halved (Section 5.3:
#: "the final average value is divided by 2 since its original range is from -1 to +1").
PACC_TABLE5_HALVED = frozenset({"KAPPA", "R_k"})
PACC_TABLE5_NAN = "NUM NAN VALUES"


def pacc_table5(
    cms: np.ndarray | None = None, *, distinct_decimals: int = PACC_TABLE5_DISTINCT_DECIMALS
) -> pd.DataFrame:
    """Pacc Table 5: distinct values and mean absolute difference from accuracy.

    Over every 3-class matrix with 5 items per actual class (9261 matrices,
    :func:`pdmeasure.paper.examples.pacc_table5_matrices`), per measure: the number of distinct
    values (NaN excluded, values rounded to ``distinct_decimals``), the mean of
    ``|measure - ACC|`` over all matrices with an undefined measure taken as 0 (Section 5.3's
    patch: "take the measure to be equal to 0"; this gives FMEAS's printed 0.169, while
    leaving NaN out would give 0.016), halved for KAPPA and R_k, whose range is [-1, 1];
    CEN itself, not 1 - CEN; undefined for ACC, printed "-". Also the number of matrices where
    the measure is NaN (not printed; FMEAS is NaN for "almost 63%"). The paper prints the
    averages truncated to 3 decimals (0.16667 as 0.166); the values here are exact.

    Returns
    -------
    DataFrame
        Tidy table; the counts have 0 decimals, the mean differences 3.
    """
    cms = np.asarray(examples.pacc_table5_matrices() if cms is None else cms, dtype=float)
    acc = M.accuracy(cms)
    parts = []
    for name, key in PACC_TABLE5_MEASURES.items():
        values = np.asarray(M.REGISTRY[key](cms, zero_division="nan"), dtype=float)
        defined = ~np.isnan(values)
        distinct = np.unique(np.round(values[defined], distinct_decimals)).size
        if name == "ACC":
            avg = np.nan
        else:
            # Section 5.3's patch for undefined values: "take the measure to be equal to 0".
            avg = np.abs(np.where(defined, values, 0.0) - acc).mean()
            avg = avg / 2 if name in PACC_TABLE5_HALVED else avg
        parts.append(
            pd.DataFrame(
                {
                    "paper": PACC_PAPER,
                    "table": "5",
                    "row": name,
                    "column": [PACC_TABLE5_DISTINCT, PACC_TABLE5_AVGDIFF, PACC_TABLE5_NAN],
                    "value": [float(distinct), float(avg), float((~defined).sum())],
                    "decimals": [0, 3, 0],
                }
            )
        )
    return pd.concat(parts, ignore_index=True)[list(TABLE_COLUMNS)]


# --------------------------------------------------------------------------- rendering
#: Titles of the rendered tables, by (paper, table).
TITLES: dict[tuple[str, str], str] = {
    (PD_PAPER, "3"): "Paper 000, Table 3: pd at three kappa vectors against macro precision, "
    "recall and F1 for cm1..cm9 (Figure 1)",
    (PD_PAPER, "4"): "Paper 000, Table 4 and Section 4.3: default kappa (eq. 31) and pd (eq. 30) "
    "of the 3-class example",
    (PD_PAPER, "section 4.2"): "Paper 000, Section 4.2: pd of cm4 at the quoted kappa vectors "
    "and over the 121-vector grid",
    (PACC_PAPER, "2"): "Pacc paper, Table 2: measures of the 2-class matrices A..J (Table 1)",
    (PACC_PAPER, "4"): "Pacc paper, Table 4: measures of the 3-class matrices A..H (Table 3)",
    (PACC_PAPER, "5"): "Pacc paper, Table 5: distinct values and mean |measure - ACC| over the "
    "9261 3-class matrices with 5 items per class",
    (PACC_PAPER, "6"): "Pacc paper, Table 6: Table 3's matrices with row 2 doubled and row 3 "
    "times 5",
}


def read_table(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a tidy paper table CSV (keys as text, ``value`` float, ``decimals`` int).

    ``value`` goes through :func:`~pdmeasure.tables.io.text_to_float`: a ``NaN`` cell (a measure
    undefined under ``zero_division: nan``) reads back as NaN.
    """
    return read_csv(path, required=TABLE_COLUMNS, numbers=["value"], integers=["decimals"])
