"""``rule all`` under ``zero_division: nan`` and ``1``: the real pipeline writes NaN one way and
reads it back everywhere.

Two runs of the small config: one under ``nan`` with a depth-1 decision tree that never predicts
some classes (so measures, grids, statistics and the exact analysis all meet 0/0), and one under
``1``. The convention itself, without Snakemake: tests/unit/test_zero_division_nan.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import PNG_MAGIC, raw_csv, run_snakemake, small_config, write_config
from pdmeasure.paper import example_tables as paper
from pdmeasure.paper import reproduction
from pdmeasure.render import paper_figures as F
from pdmeasure.render.exact_figures import read_exact_table
from pdmeasure.tables.confusion import POOLED, read_long
from pdmeasure.tables.effect_sizes import read_effect_sizes
from pdmeasure.tables.histograms import read_histogram
from pdmeasure.tables.io import NAN_TEXT, read_csv
from pdmeasure.tables.measures import read_measures
from pdmeasure.tables.result_matrix import read_result_matrix
from pdmeasure.tables.stats import read_stats_table


def _nan_spellings(raw: pd.DataFrame) -> set[str]:
    """Cells that spell a missing number some other way than ``NaN``."""
    cells = set(raw.to_numpy().ravel().tolist()) if len(raw) else set()
    return {
        c for c in cells if c.strip().lower() in {"nan", "<na>", "nat", "null"} and c != NAN_TEXT
    }


def _readers(results) -> dict:
    """Pipeline CSV -> the package reader that reads it (every table with numbers)."""
    readers = {results / "measures.csv": read_measures}
    readers.update({path: paper.read_table for path in (results / "paper").glob("p*_t*.csv")})
    readers.update({path: paper.read_table for path in (results / "paper").glob("pd_s*42.csv")})
    readers[results / "paper" / "pd_surfaces.csv"] = lambda path: read_csv(
        path, numbers=["kappa1", "kappa2", "value"]
    )
    for n in (2, 3, 4, 5):
        readers[results / "paper" / f"pd_figure{n}.csv"] = F.read_surface
    readers[results / "paper" / "pd_figure2_points.csv"] = F.read_points
    readers[results / "paper" / "pd_figure6.csv"] = F.read_figure6
    readers.update({path: read_stats_table for path in (results / "stats").glob("*.csv")})
    readers.update({path: read_stats_table for path in (results / "stats").glob("*/*/*.csv")})
    readers[results / "stats" / "effect_sizes.csv"] = read_effect_sizes
    readers.update(
        {path: read_result_matrix for path in (results / "stats").glob("*/result_matrix.csv")}
    )
    readers.update({path: read_exact_table for path in (results / "exact").rglob("*.csv")})
    readers.update({path: read_histogram for path in (results / "grids").glob("*/*/histogram.csv")})
    readers[results / "reproduction.csv"] = reproduction.read_reproduction
    return {path: reader for path, reader in readers.items() if path.exists()}


def _check_nan_convention(results) -> int:
    """Every CSV writes NaN one way, and its reader returns NaN exactly there.

    Returns the number of ``NaN`` cells found in files that have a reader.
    """
    for path in sorted(results.rglob("*.csv")):
        raw = raw_csv(path)
        assert not _nan_spellings(raw), path
        for column in raw.columns:
            # a column holding NaN numbers never also holds empty cells
            assert not ((raw[column] == NAN_TEXT).any() and (raw[column] == "").any()), (
                path,
                column,
            )
    found = 0
    for path, reader in _readers(results).items():
        raw, back = raw_csv(path), reader(path)
        for column in back.columns:
            if back[column].dtype == np.float64:
                written = (raw[column] == NAN_TEXT).to_numpy()
                # an empty cell in a number column is a producer's "not applicable" text
                # (e.g. exact counts of the uniform space), which readers also take as NaN
                missing = written | (raw[column] == "").to_numpy()
                assert (back[column].isna().to_numpy() == missing).all(), (path, column)
                found += int(written.sum())
    return found


def _run(workdir, config, *args):
    write_config(workdir, config)
    done = run_snakemake(workdir, "--cores", "2", *args)
    assert done.returncode == 0, (
        f"snakemake failed (exit {done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-8000:]}"
    )
    return workdir / "results"


@pytest.fixture(scope="module")
def nan_run(tmp_path_factory, uci_mirror):
    """``rule all`` under ``zero_division: nan``, with a depth-1 decision tree.

    The stump never predicts some of car's four classes, so their precision is 0/0, NaN under
    ``nan``: the run must still complete (the grid histograms count the vectors where pd is
    undefined, the exact analysis leaves the tree out with a warning).
    """
    config = small_config(uci_mirror)
    config["zero_division"] = "nan"
    config["classifiers"]["sklearn"]["DecisionTree"]["params"]["max_depth"] = 1
    return _run(tmp_path_factory.mktemp("nan_run"), config)


@pytest.fixture(scope="module")
def one_run(tmp_path_factory, uci_mirror):
    """``rule all`` on the small config under ``zero_division: 1``."""
    config = small_config(uci_mirror)
    config["zero_division"] = 1.0
    return _run(tmp_path_factory.mktemp("one_run"), config)


@pytest.mark.parametrize(("zero_division", "run"), [("nan", "nan_run"), (1.0, "one_run")], ids=str)
def test_rule_all_runs_with_zero_division(zero_division, run, request):
    results = request.getfixturevalue(run)
    for n in (2, 3, 4, 5, 6):
        assert (results / "paper" / f"pd_figure{n}.png").read_bytes()[:8] == PNG_MAGIC, n
    found = _check_nan_convention(results)
    # statistics across one dataset are undefined (NaN) under every setting
    assert found > 0
    measures_csv = results / "measures.csv"
    raw = raw_csv(measures_csv)
    assert not (raw["value"] == "").any()
    assert (
        read_measures(measures_csv)["value"].isna().tolist() == (raw["value"] == NAN_TEXT).tolist()
    )
    for name in ("pd_figure4.csv", "pd_table3.csv"):
        # cm9 has a 0/0 precision: NaN under "nan", written as the text NaN
        nan_cells = raw_csv(results / "paper" / name)["value"] == NAN_TEXT
        assert nan_cells.any() == (zero_division == "nan"), name


def test_nan_measures_are_written_and_read_back_by_the_pipeline(nan_run):
    """NaN measure values travel through measures.csv, rankings, statistics and reproduction,
    and the warning table names the stump's never-predicted classes."""
    results = nan_run
    for name in (
        "stats/report.md",
        "reproduction.md",
        "tables/table_car_sklearn.csv",
        "exact/summary.csv",
        "grids/sklearn/car/summary.csv",
    ):
        assert (results / name).is_file(), name
    warnings = read_csv(results / "warnings.csv")
    never = warnings[warnings["measure"] == "precision"]
    pooled = read_long(results / "confusion_matrices.csv")
    pooled = pooled[(pooled["fold"] == POOLED) & (pooled["classifier"] == "DecisionTree")]
    predicted = pooled.groupby("predicted")["count"].sum()
    assert set(never["classifier"]) == {"DecisionTree"}
    assert sorted(never["class"]) == sorted(predicted[predicted == 0].index) != []
    measures_csv = results / "measures.csv"
    raw = raw_csv(measures_csv)
    measures = read_measures(measures_csv)
    nan_cells = raw["value"] == NAN_TEXT
    assert nan_cells.any() and not (raw["value"] == "").any()
    assert measures["value"].isna().tolist() == nan_cells.tolist()
    stump = measures["classifier"] == "DecisionTree"
    assert measures.loc[stump & (measures["measure"] == "precision_macro"), "value"].isna().all()
    assert not measures.loc[~stump, "value"].isna().any()
    assert _check_nan_convention(results) > int(nan_cells.sum())
