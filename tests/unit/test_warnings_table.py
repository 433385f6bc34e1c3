"""The table of undefined per-class precision and recall (never-predicted, never-actual classes)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pdmeasure.tables.confusion import (
    EVERY,
    UNDEFINED_COLUMNS,
    confusion_matrix,
    missing_class_warning,
    pooled_matrices,
    predictions_to_long,
    undefined_precision,
)

CLASSES = {"car": ["unacc", "acc", "vgood", "good"], "toy": ["x", "y"]}


def _pooled() -> dict[tuple[str, str, str], np.ndarray]:
    """Long-format matrices of three classifiers, pooled as the pipeline pools them."""
    actual = ["unacc"] * 6 + ["acc"] * 3 + ["vgood"] * 2 + ["good"] * 1
    predictions = {
        # never predicts vgood nor good
        "NaiveBayes": ["unacc"] * 6 + ["acc"] * 3 + ["acc"] * 2 + ["unacc"],
        # predicts every class
        "J48": actual,
    }
    parts = []
    for classifier, predicted in predictions.items():
        pred = pd.DataFrame(
            {"repeat": 1, "fold": [1, 2] * 6, "actual": actual, "predicted": predicted}
        )
        parts.append(
            predictions_to_long(
                pred, CLASSES["car"], engine="weka", dataset="car", classifier=classifier
            )
        )
    # toy: class y never occurs as actual class, and is predicted once
    pred = pd.DataFrame(
        {"repeat": 1, "fold": 1, "actual": ["x", "x", "x"], "predicted": ["x", "y", "x"]}
    )
    parts.append(
        predictions_to_long(
            pred, CLASSES["toy"], engine="sklearn", dataset="toy", classifier="Tree"
        )
    )
    return pooled_matrices(pd.concat(parts, ignore_index=True), CLASSES)


def test_one_row_per_never_predicted_class_and_never_actual_class():
    pooled = _pooled()
    table = undefined_precision(pooled, CLASSES)
    assert list(table.columns) == list(UNDEFINED_COLUMNS)
    keys = list(
        table[["engine", "dataset", "classifier", "class", "measure"]].itertuples(
            index=False, name=None
        )
    )
    assert keys == [
        ("weka", "car", "NaiveBayes", "vgood", "precision"),
        ("weka", "car", "NaiveBayes", "good", "precision"),
        ("sklearn", "toy", "Tree", "y", "recall"),
    ]
    vgood = table.iloc[0]["reason"]
    assert "never predicted" in vgood and "2 actual" in vgood and "precision is 0/0" in vgood
    assert "never an actual class" in table.iloc[2]["reason"]
    assert "1 predicted" in table.iloc[2]["reason"]


def test_recall_rows_can_be_left_out():
    table = undefined_precision(_pooled(), CLASSES, recall=False)
    assert set(table["measure"]) == {"precision"}
    assert len(table) == 2


def test_a_class_absent_from_both_sides_gets_both_rows():
    cm = confusion_matrix(["a", "a", "c"], ["a", "c", "c"], ["a", "b", "c"])
    table = undefined_precision({("e", "d", "k"): cm}, {"d": ["a", "b", "c"]})
    assert list(zip(table["class"], table["measure"])) == [("b", "precision"), ("b", "recall")]


def test_every_class_defined_gives_an_empty_table_with_the_columns():
    cm = np.array([[3, 1], [1, 3]])
    table = undefined_precision({("e", "d", "k"): cm}, {"d": ["p", "q"]})
    assert table.empty and list(table.columns) == list(UNDEFINED_COLUMNS)
    empty = undefined_precision({}, {})
    assert empty.empty and list(empty.columns) == list(UNDEFINED_COLUMNS)


def test_the_table_round_trips_through_csv(tmp_path):
    path = tmp_path / "warnings.csv"
    undefined_precision(_pooled(), CLASSES).to_csv(path, index=False)
    back = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert list(back.columns) == list(UNDEFINED_COLUMNS)
    assert len(back) == 3


def test_mismatched_matrices_and_unknown_datasets_are_rejected():
    with pytest.raises(ValueError, match="matrix shape"):
        undefined_precision({("e", "d", "k"): np.eye(3)}, {"d": ["p", "q"]})
    with pytest.raises(ValueError, match="no class list"):
        undefined_precision({("e", "other", "k"): np.eye(2)}, {"d": ["p", "q"]})
    with pytest.raises(ValueError, match="triple"):
        undefined_precision({("e", "d"): np.eye(2)}, {"d": ["p", "q"]})


def test_rows_without_a_class_get_one_row_for_every_classifier_and_measure(tmp_path):
    row = missing_class_warning("weka", "bridges", count=2, rows=107, marker="?")
    assert list(row.columns) == list(UNDEFINED_COLUMNS)
    assert row.iloc[0][["engine", "dataset", "classifier", "class", "measure"]].tolist() == [
        "weka",
        "bridges",
        EVERY,
        "?",
        EVERY,
    ]
    reason = row.iloc[0]["reason"]
    assert "2 of the 107 rows have no class" in reason and "the other 105 rows" in reason
    path = tmp_path / "warnings.csv"
    pd.concat([row, undefined_precision(_pooled(), CLASSES)]).to_csv(path, index=False)
    back = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert back["class"].tolist()[0] == "?" and len(back) == 4
    none = missing_class_warning("weka", "car", count=0, rows=1728, marker=None)
    assert none.empty and list(none.columns) == list(UNDEFINED_COLUMNS)
