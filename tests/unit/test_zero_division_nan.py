"""NaN in CSV files: written one way by ``io.write_csv`` and read back by every reader.

``zero_division: nan`` makes undefined ratios NaN, so the pipeline's CSV files hold NaN
numbers. :func:`pdmeasure.tables.io.write_csv` writes them as the text ``NaN`` (missing text as an
empty cell), and every reader parses number columns with :func:`pdmeasure.tables.io.text_to_float`.
The tests below write with ``write_csv`` and read with the package's readers: the paper
figures render from such files under every ``zero_division`` setting, NaN cells come back in
the same places. Real Snakemake runs under ``zero_division: nan`` and 1 are in
tests/system/test_zero_division_runs.py.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from helpers import PNG_MAGIC, raw_csv
from pdmeasure.paper import example_tables as paper
from pdmeasure.paper import reproduction
from pdmeasure.render import cd_diagram
from pdmeasure.render import paper_figures as F
from pdmeasure.render.exact_figures import read_exact_table
from pdmeasure.render.figures import save_figure
from pdmeasure.tables.histograms import read_histogram
from pdmeasure.tables.io import NAN_TEXT, read_csv, text_to_float, write_csv
from pdmeasure.tables.measures import MEASURE_COLUMNS, read_measures
from pdmeasure.tables.stats import read_stats_table

ZERO_DIVISIONS = [0.0, 1.0, "nan"]


# --- the convention itself ---------------------------------------------------------------


def test_write_csv_writes_nan_numbers_as_nan_and_missing_text_empty(tmp_path):
    frame = pd.DataFrame(
        {
            "name": ["a", None, "c"],
            "value": [0.5, np.nan, -np.inf],
            "mixed": pd.Series([1, np.nan, 2.5], dtype=object),
            "note": pd.Series(["x", np.nan, ""], dtype=object),
            "flag": [True, False, True],
            "count": pd.array([1, None, 3], dtype="Int64"),
        }
    )
    path = tmp_path / "t.csv"
    write_csv(frame, path)
    assert path.read_text().splitlines() == [
        "name,value,mixed,note,flag,count",
        "a,0.5,1,x,True,1",
        f",{NAN_TEXT},{NAN_TEXT},,False,{NAN_TEXT}",
        "c,-inf,2.5,,True,3",
    ]
    assert NAN_TEXT == "NaN"
    # the caller's frame is not changed
    assert frame["name"].isna().tolist() == [False, True, False]


def test_text_to_float_reads_nan_text_back():
    cells = pd.Series(["NaN", "nan", "", "inf", "-inf", "0.25", "1e-3"], dtype=str)
    out = text_to_float(cells)
    assert out.dtype == np.float64
    assert out.isna().tolist() == [True, True, True, False, False, False, False]
    assert out.iloc[3:].tolist() == [math.inf, -math.inf, 0.25, 0.001]
    with pytest.raises(ValueError):
        text_to_float(pd.Series(["NA"], dtype=str))


def test_read_csv_checks_columns_and_names_a_bad_cell(tmp_path):
    path = tmp_path / "t.csv"
    write_csv(pd.DataFrame({"a": ["x"], "v": ["oops"]}), path)
    with pytest.raises(ValueError, match="missing columns"):
        read_csv(path, required=["a", "b"])
    with pytest.raises(ValueError, match="column 'v'"):
        read_csv(path, numbers=["v"])


# --- every reader reads NaN back -----------------------------------------------------------


def _with_nan(frame: pd.DataFrame, column: str, rows=(1,)) -> pd.DataFrame:
    out = frame.reset_index(drop=True).copy()
    out[column] = out[column].astype(float)
    out.loc[list(rows), column] = np.nan
    return out


def _measures_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "engine": "sklearn",
            "dataset": "car",
            "classifier": ["A", "A", "B"],
            "measure": ["precision_macro", "preference_driven", "precision_macro"],
            "kappa": ["", "p1", ""],
            "kappa_values": ["", "0;1;0.5", ""],
            "value": [0.5, np.nan, np.nan],
        }
    )[list(MEASURE_COLUMNS)]


def _histogram_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "engine": "e",
            "dataset": "d",
            "classifier": "A",
            "bin_left": [0.0, np.nan, 0.5],
            "bin_right": [0.5, 1.0, 1.0],
            "count": [3, 0, 2],
        }
    )


def _stats_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "engine": "e",
            "measure": "accuracy",
            "kappa": ["", "default"],
            "test": "friedman",
            "statistic": [np.nan, 2.5],
            "df1": [np.nan, 3.0],
            "p_value": [np.nan, np.inf],
            "significant": [False, True],
            "note": [None, "one dataset"],
        }
    )


def _cd_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "engine": "e",
            "measure": "accuracy",
            "kappa": "",
            "classifier": ["A", "B"],
            "average_rank": [1.5, np.nan],
            "cd": [np.nan, np.nan],
            "n_datasets": [1, 1],
            "n_classifiers": [2, 2],
            "alpha": [0.05, 0.05],
            "lower_is_better": [False, False],
        }
    )


def _exact_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "engine": "e",
            "dataset": "d",
            "norm": "linf",
            "winner": "A",
            "challenger": ["B", "C"],
            "distance": [np.inf, 0.25],
            "kappa_values": [None, "0;1"],
            "pd_winner": [np.nan, 0.75],
            "pd_challenger": [np.nan, 0.5],
            "default_kappa_values": "0.5;0.5",
            "status": "optimal",
        }
    )


def _reproduction_frame() -> pd.DataFrame:
    # Rows of reproduction.csv, in its column order: paper, table, row, column, engine,
    # published, reproduced, abs_diff, status, reason.
    rows = [
        ("pacc", "2", "A", "R_k", "", 0.5, np.nan, np.nan, "differs", None),
        ("pacc", "2", "C", "R_k", "", np.nan, np.nan, 0.1, "differs", "undefined"),
    ]
    return pd.DataFrame(rows, columns=list(reproduction.REPRODUCTION_COLUMNS))


#: (reader, frame with NaN numbers, number columns) for every CSV reader of the package.
ROUND_TRIPS = {
    "paper.read_table": (paper.read_table, lambda: paper.pd_table3(zero_division="nan"), ["value"]),
    "paper_figures.read_surface": (
        F.read_surface,
        lambda: paper.figure_surface(paper.kappa_surface(zero_division="nan"), 4),
        ["kappa1", "kappa2", "value"],
    ),
    "paper_figures.read_points": (
        F.read_points,
        lambda: _with_nan(
            paper.figure2_points(paper.kappa_surface(), zero_division="nan"), "value"
        ),
        ["kappa1", "kappa2", "value"],
    ),
    "paper_figures.read_figure6": (
        F.read_figure6,
        lambda: paper.figure6_values(paper.pd_table3(zero_division="nan")),
        ["value"],
    ),
    "measure_table.read_measures": (read_measures, _measures_frame, ["value"]),
    "grids.read_histogram": (read_histogram, _histogram_frame, ["bin_left", "bin_right"]),
    "stats.read_stats_table": (read_stats_table, _stats_frame, ["statistic", "df1", "p_value"]),
    "cd_diagram.read_cd_table": (
        cd_diagram.read_cd_table,
        _cd_frame,
        ["average_rank", "cd", "alpha"],
    ),
    "exact_plots.read_exact_table": (
        read_exact_table,
        _exact_frame,
        ["distance", "pd_winner", "pd_challenger"],
    ),
    "reproduction.read_reproduction": (
        reproduction.read_reproduction,
        _reproduction_frame,
        ["published", "reproduced", "abs_diff"],
    ),
}


@pytest.mark.parametrize("name", list(ROUND_TRIPS))
def test_reader_returns_nan_in_the_same_cells(name, tmp_path):
    reader, make, numbers = ROUND_TRIPS[name]
    frame = make().reset_index(drop=True)
    nan_cells = frame[numbers].isna()
    assert nan_cells.to_numpy().any(), "the case must hold NaN"
    path = tmp_path / "t.csv"
    write_csv(frame, path)
    raw = raw_csv(path)
    # written one way: the text NaN, never an empty cell, in every number column
    for column in numbers:
        assert (raw[column] == NAN_TEXT).tolist() == nan_cells[column].tolist(), column
    back = reader(path)
    assert list(back.columns) == list(frame.columns)
    for column in numbers:
        assert back[column].dtype == np.float64, column
        assert back[column].isna().tolist() == nan_cells[column].tolist(), column
        np.testing.assert_array_equal(back[column].to_numpy(), frame[column].to_numpy(float))
    # text columns: a missing text reads back as "", every other text unchanged
    for column in frame.columns.difference(numbers):
        if frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column]):
            expected = frame[column].astype(object).where(frame[column].notna(), "")
            assert back[column].astype(str).tolist() == expected.astype(str).tolist(), column


# --- paper figures 2-6 render from written CSVs under every setting -----------------------


@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS, ids=str)
def test_paper_figures_render_from_written_csvs(zero_division, tmp_path):
    zd = zero_division
    surface = paper.kappa_surface(zero_division=zd)
    table3 = paper.pd_table3(zero_division=zd)
    data = {n: paper.figure_surface(surface, n) for n in paper.FIGURE_MATRICES}
    data[6] = paper.figure6_values(table3)
    points = paper.figure2_points(surface, zero_division=zd)
    files = {}
    for n, frame in data.items():
        files[n] = tmp_path / f"pd_figure{n}.csv"
        write_csv(frame, files[n])
    write_csv(points, tmp_path / "pd_figure2_points.csv")

    read = {n: (F.read_figure6 if n == 6 else F.read_surface)(path) for n, path in files.items()}
    for n, frame in data.items():
        assert read[n]["value"].isna().tolist() == frame["value"].isna().tolist(), n
    if zd == "nan":
        # cm9 (Figure 4) and Table 3 have 0/0 ratios: NaN under "nan", written as NaN
        for n in (4, 6):
            assert (raw_csv(files[n])["value"] == NAN_TEXT).any(), n
            assert read[n]["value"].isna().any(), n
    else:
        for n in data:
            assert not read[n]["value"].isna().any(), n

    figures = {
        2: F.figure2(read[2], F.read_points(tmp_path / "pd_figure2_points.csv")),
        3: F.figure3(read[3]),
        4: F.figure4(read[4]),
        5: F.figure5(read[5]),
        6: F.figure6(read[6]),
    }
    assert len(figures[4].axes) == 4 and len(figures[5].axes) == 8
    cm9 = read[4][read[4]["matrix"] == "cm9"]
    # the whole 11 x 11 grid is drawn, NaN cells included (none dropped by the pivot)
    assert F._grid(cm9)[2].shape == (11, 11)
    title = figures[4].axes[1].get_title()
    assert title.startswith("(b) cm9")
    assert ("undefined" in title) == (zd == "nan")
    for n, fig in figures.items():
        out = save_figure(fig, tmp_path / f"figure{n}.png")
        assert out.read_bytes()[:8] == PNG_MAGIC, n
