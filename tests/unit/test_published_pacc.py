"""Paper 001 (Pacc, Sigdel and Aygun): Tables 2, 4, 5 and 6 from the paper's own matrices.

Undefined R_k and FMEAS are NaN (printed ``NAN``). A cell listed in the errata must give the
erratum's correct value and not the printed one; every other cell must give the printed value
at its printed precision (2 decimals; a tie at the half accepts either rounding).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from pdmeasure import measures as M
from pdmeasure.paper import examples, facts
from pdmeasure.paper import published as P
from published_cells import ERRATA, check

PAPER = facts.PACC_PAPER
#: Printed column -> REGISTRY key (1-CEN is printed, CEN in Table 5).
COLUMNS = {
    "ACC": "accuracy",
    "KAPPA": "kappa",
    "R_k": "mcc",
    "1-CEN": "cen",
    "CEN": "cen",
    "FMEAS": "f1_macro_mean",
    "PACC": "pacc",
}
MATRICES = {"2": examples.PACC_TABLE1, "4": examples.PACC_TABLE3, "6": examples.PACC_TABLE6}
DISTINCT = "NUM DISTINCT VALUES"
AVGDIFF = "AVG(ABS DIFF WITH ACC)"


def _cell_id(cell):
    column = re.sub(r"[^0-9a-z]+", "-", cell.column.lower().replace("_", "")).strip("-")
    return f"pacc-table{cell.table}-{cell.row}-{column}"


def _cells(*tables):
    return [c for t in tables for c in P.load(PAPER, t).itertuples(index=False)]


def measure(column: str, cms):
    values = M.REGISTRY[COLUMNS[column]](cms, zero_division="nan")
    return 1.0 - values if column == "1-CEN" else values


# ----------------------------------------------------------------- matrices (layout)
#: Printed rows of Tables 1 and 3: (table, the matrices side by side, class C_k, the row).
PRINTED_ROWS = [
    ("1", "ABCDE", 0, [50, 0, 25, 25, 50, 0, 10, 40, 0, 50]),
    ("1", "ABCDE", 1, [0, 50, 25, 25, 50, 0, 40, 10, 50, 0]),
    ("1", "FGHIJ", 0, [80, 0, 70, 10, 80, 0, 40, 40, 0, 80]),
    ("1", "FGHIJ", 1, [0, 20, 10, 10, 20, 0, 10, 10, 20, 0]),
    ("3", "ABCD", 0, [60, 0, 0, 40, 0, 20, 30, 30, 0, 30, 15, 15]),
    ("3", "ABCD", 1, [0, 60, 0, 0, 60, 0, 0, 60, 0, 0, 60, 0]),
    ("3", "ABCD", 2, [0, 0, 60, 0, 0, 60, 0, 0, 60, 0, 0, 60]),
    ("3", "EFGH", 0, [40, 10, 10, 0, 30, 30, 20, 20, 20, 0, 0, 60]),
    ("3", "EFGH", 1, [10, 40, 10, 0, 60, 0, 20, 20, 20, 0, 60, 0]),
    ("3", "EFGH", 2, [10, 10, 40, 0, 0, 60, 20, 20, 20, 60, 0, 0]),
]


@pytest.mark.parametrize(
    ("table", "names", "k", "printed"),
    PRINTED_ROWS,
    ids=[f"pacc-table{t}-{names}-C{k}" for t, names, k, _ in PRINTED_ROWS],
)
def test_printed_row_of_matrices_side_by_side(table, names, k, printed):
    """Row C_k of the matrices ``names`` (Table 1: five 2x2, Table 3: four 3x3) side by side
    reads as printed."""
    matrices = {"1": examples.PACC_TABLE1, "3": examples.PACC_TABLE3}[table]
    np.testing.assert_array_equal(np.concatenate([matrices[n][k] for n in names]), printed)


def test_table3_every_class_has_60_samples():
    for cm in examples.PACC_TABLE3.values():
        np.testing.assert_array_equal(cm.sum(axis=1), [60, 60, 60])


def test_table6_matrices_are_table3_with_rows_scaled_1_2_5():
    for name, cm in examples.PACC_TABLE3.items():
        scaled = examples.PACC_TABLE6[name]
        np.testing.assert_array_equal(scaled[0], cm[0])
        np.testing.assert_array_equal(scaled[1], 2 * cm[1])
        np.testing.assert_array_equal(scaled[2], 5 * cm[2])


# ----------------------------------------------------------------- Tables 2, 4, 6
@pytest.mark.parametrize("cell", _cells("2", "4", "6"), ids=_cell_id)
def test_measure_tables(cell):
    cm = np.asarray(MATRICES[cell.table][cell.row], dtype=float)
    check(cell, float(measure(cell.column, cm)))


def test_tables_cover_every_matrix_and_column():
    for table, matrices in MATRICES.items():
        wide = P.table_matrix(PAPER, table)
        assert list(wide.index) == list(matrices)
        assert list(wide.columns) == ["ACC", "KAPPA", "R_k", "1-CEN", "FMEAS", "PACC"]


def test_table2_g_kappa_is_a_tie_not_an_erratum():
    # KAPPA and R_k of G are both exactly 3/8; printed 0.37 and 0.38 (docs/errata.md).
    g = examples.PACC_TABLE1["G"]
    assert float(M.kappa(g)) == pytest.approx(0.375, abs=1e-12)
    assert float(M.mcc(g)) == pytest.approx(0.375, abs=1e-12)
    assert P.value(PAPER, "2", "G", "KAPPA") == 0.37 and P.value(PAPER, "2", "G", "R_k") == 0.38
    assert (PAPER, "2", "G", "KAPPA") not in ERRATA


def test_table4_d_errata_repeat_matrix_c():
    for column in ("R_k", "FMEAS"):
        entry = ERRATA[(PAPER, "4", "D", column)]
        c_value = float(measure(column, examples.PACC_TABLE3["C"]))
        assert P.reproduces(c_value, entry.published, 2)


# ----------------------------------------------------------------------------- Table 5
def _truncate(x: float, decimals: int) -> float:
    """Truncation toward zero at ``decimals`` places, the printed convention of Table 5."""
    scale = 10**decimals
    return math.floor(x * scale + 1e-9) / scale


@pytest.fixture(scope="module")
def table5():
    """Per measure: (distinct values, average |measure - ACC|) by the convention of errata.md."""
    cms = examples.pacc_table5_matrices().astype(float)
    acc = M.accuracy(cms)
    out = {}
    for name in ("ACC", "KAPPA", "R_k", "CEN", "FMEAS", "PACC"):
        values = measure(name, cms)
        defined = ~np.isnan(values)
        distinct = np.unique(np.round(values[defined], 6)).size
        avg = np.abs(np.where(defined, values, 0.0) - acc).mean()  # NaN counts as 0
        if name in ("KAPPA", "R_k"):
            avg /= 2  # "divided by 2 since its original range is from -1 to +1"
        out[name] = (
            distinct,
            np.nan if name == "ACC" else _truncate(avg, 3),
            int((~defined).sum()),
        )
    return out


def test_table5_matrices():
    cms = examples.pacc_table5_matrices()
    assert cms.shape == (9261, 3, 3)
    assert (cms.sum(axis=2) == 5).all() and (cms >= 0).all()
    assert len({m.tobytes() for m in cms}) == 9261


@pytest.mark.parametrize("cell", _cells("5"), ids=_cell_id)
def test_table5(cell, table5):
    distinct, avg, _ = table5[cell.row]
    check(cell, float(distinct if cell.column == DISTINCT else avg))


def test_table5_nan_counts(table5):
    # "F-measure is NaN for almost 63%" (it is 63.6%); R_k is NaN when all items fall in one
    # column (3 of the 9261 matrices); the other measures are always defined.
    assert table5["FMEAS"][2] == 5886
    assert table5["R_k"][2] == 3
    assert all(table5[m][2] == 0 for m in ("ACC", "KAPPA", "CEN", "PACC"))


def test_table5_averages_are_truncated_not_rounded(table5):
    cms = examples.pacc_table5_matrices().astype(float)
    acc = M.accuracy(cms)
    cen_avg = np.abs(M.cen(cms, zero_division="nan") - acc).mean()
    assert round(cen_avg, 3) == 0.360 and _truncate(cen_avg, 3) == 0.359 == table5["CEN"][1]
