"""The result matrix of Weka's Experimenter: running statistics, the corrected t-test's rules,
Weka's rounding, markers and counts, the tidy table and its Markdown, LaTeX and plain text.

The plain text is compared character for character with the result matrices that Weka's
``PairedCorrectedTTester -V`` printed for a recorded experiment (tests/data/weka_experimenter,
its README says how they were made); tests/system/test_weka_experimenter.py runs Weka live.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import TEST_DATA
from pdmeasure.render.result_matrix import (
    latex_escape,
    result_matrix_grid,
    result_matrix_latex,
    result_matrix_markdown,
    result_matrix_plain,
    weka_number,
)
from pdmeasure.stats.experimenter import paired_corrected_comparison, running_stats
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.result_matrix import (
    COUNT_COLUMNS,
    RESULT_MATRIX_COLUMNS,
    read_result_matrix,
    result_counts,
    result_matrix,
)

RECORDED = TEST_DATA / "weka_experimenter"
#: The classifiers of the recorded experiment in its order, and how Weka names them.
WEKA_LABELS = {
    "J48": "trees.J48 '-C 0.25 -M 2' -217733168393644444",
    "BayesNet": "bayes.BayesNet '-Q bayes.net.search.local.K2 -- -P 1 -S BAYES -E "
    "bayes.net.estimate.SimpleEstimator -- -A 0.5' 746037443258775954",
    "RandomForest": "trees.RandomForest '-P 100 -I 100 -num-slots 1 -K 0 -M 1.0 -V 0.001 "
    "-S 1' 1116839470751428698",
}
EDGE_LABELS = {"A": "A '' 1", "B": "B '' 1"}


def experimenter_folds(path: Path, column: str) -> pd.DataFrame:
    """An Experimenter results file as fold values (``measure`` = the result column)."""
    raw = pd.read_csv(path, na_values=["?"], keep_default_na=False)
    return pd.DataFrame(
        {
            "engine": "weka",
            "dataset": raw["Key_Dataset"],
            "classifier": raw["Key_Scheme"],
            "scheme": "cv",
            "repeat": raw["Key_Run"],
            "fold": raw["Key_Fold"],
            "n_test": raw["Number_of_testing_instances"],
            "n_train": raw["Number_of_training_instances"],
            "measure": column,
            "kappa": "",
            "kappa_values": "",
            "value": raw[column].astype(float),
        }
    )


def fold_frame(values: dict[str, dict[str, list[float]]], measure: str = "accuracy"):
    """Fold values of datasets -> classifier -> per-fold values (1 repeat, n_test 10 of 100)."""
    rows = []
    for dataset, by_classifier in values.items():
        for classifier, folds in by_classifier.items():
            for fold, value in enumerate(folds, 1):
                rows.append(
                    {
                        "engine": "sklearn",
                        "dataset": dataset,
                        "classifier": classifier,
                        "scheme": "cv",
                        "repeat": 1,
                        "fold": fold,
                        "n_test": 10,
                        "n_train": 90,
                        "measure": measure,
                        "kappa": "",
                        "kappa_values": "",
                        "value": value,
                    }
                )
    return pd.DataFrame(rows)


# --- Weka's running statistics and rounding ---------------------------------------------


def test_running_stats_is_welfords_update():
    stats = running_stats([1.0, 2.0, 3.0, 4.0])
    assert (stats.n, stats.mean, stats.sum_sq) == (4, 2.5, 30.0)
    assert stats.std == pytest.approx(math.sqrt(5.0 / 3.0), rel=1e-15)
    one = running_stats([0.3])
    assert one.n == 1 and one.mean == 0.3 and math.isnan(one.std)
    none = running_stats([])
    assert none.n == 0 and math.isnan(none.mean) and math.isnan(none.std)


def test_running_stats_refuses_missing_and_infinite_values():
    with pytest.raises(ValueError, match="drop missing"):
        running_stats([1.0, math.nan])
    with pytest.raises(ValueError, match="finite"):
        running_stats([math.inf])


def test_running_mean_is_not_numpys_mean_in_the_last_bits():
    """Why the running update is kept: on recorded folds numpy's pairwise sum lands on a
    neighbouring double, and a cell rounded half up can then print differently."""
    folds = experimenter_folds(RECORDED / "experimenter_results.csv", "Percent_correct")
    differ = 0
    for _, group in folds.groupby(["dataset", "classifier"]):
        values = group.sort_values(["repeat", "fold"])["value"].to_numpy()
        ours, theirs = running_stats(values.tolist()), float(np.mean(values))
        assert ours.mean == pytest.approx(theirs, rel=1e-13)
        differ += ours.mean != theirs
    assert differ > 0


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        (0.125, 2, "0.13"),  # exactly representable: half up, where round() gives 0.12
        (0.5, 0, "1"),
        (2.5, 0, "3"),
        (1.005, 2, "1.00"),  # stored as 1.00499999...: the exact value decides
        (67.0, 2, "67.00"),
        (-0.001, 2, "-0.00"),  # Java keeps the sign of a negative value rounding to 0
        (9.304755, 2, "9.30"),
        (math.nan, 2, "NaN"),
        (math.inf, 2, "Infinity"),
    ],
)
def test_numbers_print_as_java_rounds_half_up(value, decimals, text):
    assert weka_number(value, decimals) == text


# --- the corrected t-test's rules ------------------------------------------------------


def test_pairs_with_a_missing_value_are_skipped():
    result = paired_corrected_comparison(
        [1.0, 2.0, math.nan, 4.0], [math.nan, 3.0, 5.0, 6.0], test_train_ratio=0.1
    )
    assert result.n == 2
    assert (result.mean, result.baseline_mean, result.difference) == (4.5, 3.0, -1.5)


def test_constant_difference_is_significant_and_no_difference_is_not():
    ones = np.arange(10) / 16 + 0.25  # dyadic: every difference exactly 0.25
    higher = paired_corrected_comparison(ones, ones + 0.25, test_train_ratio=1 / 9)
    assert (higher.p_value, higher.marker) == (0.0, "v") and math.isnan(higher.t)
    lower = paired_corrected_comparison(ones, ones - 0.25, test_train_ratio=1 / 9)
    assert (lower.p_value, lower.marker) == (0.0, "*")
    same = paired_corrected_comparison(ones, ones, test_train_ratio=1 / 9)
    assert (same.p_value, same.marker) == (1.0, "")


def test_one_pair_with_a_difference_is_significant_as_in_weka():
    """Weka's rule for an undefined standard deviation: p = 0 unless every difference is 0."""
    assert paired_corrected_comparison([0.5], [0.7], test_train_ratio=0.1).p_value == 0.0
    assert paired_corrected_comparison([0.5], [0.5], test_train_ratio=0.1).p_value == 1.0
    empty = paired_corrected_comparison([math.nan], [0.5], test_train_ratio=0.1)
    assert (empty.n, empty.p_value, empty.marker) == (0, 1.0, "")


def test_statistic_is_the_corrected_t_with_n_minus_1_df():
    rng = np.random.default_rng(4)
    base = rng.uniform(0.6, 0.8, 30)
    column = base + rng.normal(0.01, 0.02, 30)
    result = paired_corrected_comparison(base, column, test_train_ratio=0.25, alpha=0.5)
    d = base - column
    t = d.mean() / math.sqrt((1 / 30 + 0.25) * d.var(ddof=1))
    assert result.t == pytest.approx(t, rel=1e-12)
    from scipy import stats

    assert result.p_value == pytest.approx(2 * stats.t.sf(abs(t), 29), rel=1e-10)


def test_v_marks_the_better_column_of_a_measure_better_low():
    base = np.linspace(0.2, 0.3, 10)
    lower = base - np.linspace(0.05, 0.06, 10)
    assert paired_corrected_comparison(base, lower, test_train_ratio=0.1).marker == "*"
    flipped = paired_corrected_comparison(base, lower, test_train_ratio=0.1, higher_is_better=False)
    assert flipped.marker == "v"


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="same folds"):
        paired_corrected_comparison([1.0, 2.0], [1.0], test_train_ratio=0.1)
    with pytest.raises(ValueError, match="alpha"):
        paired_corrected_comparison([1.0], [1.0], test_train_ratio=0.1, alpha=0)
    with pytest.raises(ValueError, match="test_train_ratio"):
        paired_corrected_comparison([1.0], [1.0], test_train_ratio=-1)


values = st.lists(st.integers(0, 100), min_size=2, max_size=30)


@settings(max_examples=60, deadline=None)
@given(values, st.data())
def test_swapping_the_baseline_swaps_the_markers(a, data):
    b = data.draw(st.lists(st.integers(0, 100), min_size=len(a), max_size=len(a)))
    a_, b_ = np.array(a) / 100, np.array(b) / 100
    one = paired_corrected_comparison(a_, b_, test_train_ratio=0.1)
    two = paired_corrected_comparison(b_, a_, test_train_ratio=0.1)
    assert one.p_value == two.p_value
    assert {one.marker, two.marker} in ({""}, {"v", "*"})


@settings(max_examples=40, deadline=None)
@given(values, st.integers(2, 4))
def test_identical_classifiers_have_no_marker(a, k):
    folds = fold_frame({"d": {f"c{i}": [v / 100 for v in a] for i in range(k)}})
    matrix = result_matrix(folds, measure="accuracy")
    assert set(matrix["marker"]) == {""}
    assert (matrix["p_value"].dropna() == 1.0).all()
    counts = result_counts(matrix)
    assert (counts["ties"] == 1).all() and (counts[["wins", "losses"]] == 0).all().all()


# --- the table, against Weka's tester -------------------------------------------------


def _tester(name: str) -> str:
    return (RECORDED / f"tester_{name}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("column", "baseline", "alpha"),
    [
        ("Percent_correct", 1, 0.05),
        ("Percent_correct", 1, 0.01),
        ("Percent_correct", 2, 0.05),
        ("Percent_correct", 2, 0.01),
        ("Percent_correct", 3, 0.05),
        ("Percent_correct", 3, 0.01),
        ("Kappa_statistic", 1, 0.05),
        ("Mean_absolute_error", 2, 0.01),
        ("Weighted_avg_area_under_ROC", 3, 0.05),
    ],
)
def test_plain_text_is_wekas_result_matrix(column, baseline, alpha):
    folds = experimenter_folds(RECORDED / "experimenter_results.csv", column)
    names = list(WEKA_LABELS)
    matrix = result_matrix(folds, measure=column, baseline=names[baseline - 1], alpha=alpha)
    text = result_matrix_plain(matrix, labels=WEKA_LABELS)
    assert text == _tester(f"{column}_b{baseline}_S{alpha}_V")


@pytest.mark.parametrize("baseline", [1, 2])
def test_plain_text_is_wekas_on_its_edge_cases(baseline):
    """Constant differences, equal values, a single run and missing baseline results."""
    folds = experimenter_folds(RECORDED / "edge_results.csv", "Percent_correct")
    matrix = result_matrix(folds, measure="Percent_correct", baseline="AB"[baseline - 1])
    text = result_matrix_plain(matrix, labels=EDGE_LABELS)
    assert text == _tester(f"edge_Percent_correct_b{baseline}_S0.05_V")


def test_table_columns_and_counts():
    folds = fold_frame(
        {
            "d1": {"A": [0.5, 0.6, 0.7], "B": [0.6, 0.7, 0.8], "C": [0.5, 0.6, 0.7]},
            "d2": {"A": [0.5, 0.6, 0.7], "B": [0.4, 0.5, 0.6], "C": [0.55, 0.6, 0.7]},
        }
    )
    matrix = result_matrix(folds, measure="accuracy")
    assert tuple(matrix.columns) == RESULT_MATRIX_COLUMNS
    assert list(matrix["outcome"]) == ["baseline", "better", "tie", "baseline", "worse", "tie"]
    assert list(matrix["marker"]) == ["", "v", "", "", "*", ""]
    counts = result_counts(matrix)
    assert tuple(counts.columns) == COUNT_COLUMNS
    assert counts[["classifier", "wins", "ties", "losses", "n_datasets"]].values.tolist() == [
        ["B", 1, 0, 1, 2],
        ["C", 0, 2, 0, 2],
    ]


def test_error_rate_marks_the_lower_mean_better():
    folds = fold_frame({"d": {"A": [0.3, 0.4, 0.5], "B": [0.2, 0.3, 0.4]}}, "error_rate")
    matrix = result_matrix(folds, measure="error_rate")
    assert list(matrix["marker"]) == ["", "v"]
    assert bool(matrix["lower_is_better"].iloc[0])


def test_a_classifier_without_results_gets_an_empty_cell():
    folds = fold_frame(
        {"d1": {"A": [0.5, 0.6], "B": [0.6, 0.7]}, "d2": {"A": [0.5, 0.6], "B": [0.6, 0.8]}}
    )
    folds = folds[~((folds["dataset"] == "d2") & (folds["classifier"] == "B"))]
    matrix = result_matrix(folds, measure="accuracy", classifiers=["A", "B", "C"])
    cell = matrix[(matrix["dataset"] == "d2") & (matrix["classifier"] == "B")].iloc[0]
    assert cell["n"] == 0 and math.isnan(cell["mean"]) and cell["outcome"] == ""
    assert (matrix[matrix["classifier"] == "C"]["n"] == 0).all()
    counts = result_counts(matrix).set_index("classifier")
    assert counts.loc["B", "n_datasets"] == 1 and counts.loc["C", "n_datasets"] == 0
    grid = result_matrix_grid(matrix)
    assert grid.loc["d2 (2)", "(2) B"] == ""


def test_without_the_baseline_on_a_dataset_cells_show_their_own_statistics():
    folds = fold_frame({"d": {"B": [0.6, 0.7], "C": [0.5, 0.7]}})
    matrix = result_matrix(folds, measure="accuracy", classifiers=["A", "B", "C"])
    assert list(matrix["n"]) == [0, 2, 2]
    assert matrix["note"].iloc[1] == "no result of the baseline A"
    assert set(matrix["outcome"]) == {""}


def test_errors_name_the_fix():
    folds = fold_frame({"d": {"A": [0.5, 0.6], "B": [0.6, 0.7]}})
    with pytest.raises(
        ValueError, match=r"no fold values of measure 'kappa'.*accuracy \[\] \(cv\)"
    ):
        result_matrix(folds, measure="kappa")
    with pytest.raises(ValueError, match="baseline 'Z' is not one of"):
        result_matrix(folds, measure="accuracy", baseline="Z")
    both = pd.concat([folds, folds.assign(engine="weka")])
    with pytest.raises(ValueError, match="pass engine="):
        result_matrix(both, measure="accuracy")
    assert len(result_matrix(both, measure="accuracy", engine="weka")) == 2
    with pytest.raises(ValueError, match="has two values"):
        result_matrix(pd.concat([folds, folds]), measure="accuracy")


def test_pd_defaults_to_the_default_kappa():
    folds = fold_frame({"d": {"A": [0.5, 0.6], "B": [0.6, 0.7]}}, "preference_driven")
    folds["kappa"] = np.where(folds.index % 2 == 0, "default", "default")
    assert set(result_matrix(folds, measure="preference_driven")["kappa"]) == {"default"}


def test_csv_round_trip(tmp_path):
    folds = fold_frame({"d": {"A": [0.5, 0.6, 0.4], "B": [0.6, 0.7, 0.8]}})
    matrix = result_matrix(folds, measure="accuracy")
    write_csv(matrix, tmp_path / "m.csv")
    back = read_result_matrix(tmp_path / "m.csv")
    pd.testing.assert_frame_equal(back, matrix, check_dtype=False)


# --- Markdown and LaTeX -----------------------------------------------------------------


def _small() -> pd.DataFrame:
    folds = fold_frame(
        {
            "d_1": {"A": [0.5, 0.6, 0.7], "B&C": [0.6, 0.7, 0.8]},
            "d|2": {"A": [0.5, 0.6, 0.7], "B&C": [0.4, 0.5, 0.61]},
        }
    )
    return result_matrix(folds, measure="accuracy", scale=100)


def test_markdown_format():
    text = result_matrix_markdown(_small())
    table = text.split("\n\n")[0].splitlines()
    assert table == [
        "| Dataset | (1) A | (2) B&C |",
        "|:---|---:|---:|",
        "| d_1 (3) | 60.00 (10.00) | 70.00 (10.00) v |",
        "| d\\|2 (3) | 60.00 (10.00) | 50.33 (10.50) * |",
        "| (v/ /*) |  | (1/0/1) |",
    ]
    assert "baseline (1) A" in text and "alpha = 0.05" in text and "accuracy (x 100)" in text


def test_latex_format_escapes_names():
    text = result_matrix_latex(_small())
    assert text.splitlines()[:4] == [
        r"\begin{tabular}{lrrl}",
        r"\toprule",
        r"Dataset & (1) A & \multicolumn{2}{c}{(2) B\&C} \\",
        r"\midrule",
    ]
    assert r"d\_1 (3) & 60.00 $\pm$ 10.00 & 70.00 $\pm$ 10.00 & $\circ$ \\" in text
    assert r"50.33 $\pm$ 10.50 & $\bullet$ \\" in text
    assert r"\bottomrule" in text and text.rstrip().endswith(r"\end{tabular}")
    assert latex_escape(r"a_b&c%d$e#f{g}h~i^j\k") == (
        r"a\_b\&c\%d\$e\#f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}k"
    )


def test_render_refuses_two_matrices_at_once():
    both = pd.concat([_small(), _small().assign(alpha=0.01)])
    with pytest.raises(ValueError, match="one engine, measure"):
        result_matrix_markdown(both)
