"""Rows without a class (class cell = the missing marker, ARFF's ``?``): the canonical table
keeps them, the class checks and the class order ignore them, the fetch step counts them, and
the scikit-learn engine leaves them out before it draws its folds. (The Weka engine against
Weka's own command line on such files: tests/system/test_weka_cli.py.)"""

from __future__ import annotations

import json
import logging
import runpy
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import pdmeasure.pipeline.config as pdconfig
from helpers import REPO_ROOT, sklearn_entry
from pdmeasure.pipeline.data.classes import class_is_missing, missing_class_label
from pdmeasure.pipeline.data.fetch import count_missing_class, describe, fetch_dataset
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.engines.base import missing_class_rows
from pdmeasure.pipeline.engines.weka_encoding import encode

#: 24 rows, classes declared ``{lo, hi}``, the class of rows 3, 10 and 17 missing; a feature
#: value (``blue``) only on a row without a class, and a missing feature value.
ARFF = """@relation tiny
@attribute size numeric
@attribute colour {red,green,blue}
@attribute grade {lo,hi}
@data
"""
UNCLASSED = (3, 10, 17)


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for i in range(24):
        colour = "red" if i % 3 else "green"
        grade = "lo" if i % 2 else "hi"
        if i in UNCLASSED:
            colour, grade = ("blue" if i == 3 else colour), "?"
        rows.append(("?" if i == 5 else str(i % 7), colour, grade))
    return rows


@pytest.fixture
def tiny(tmp_path, monkeypatch) -> dict:
    """The resolved run of data/tiny.arff (both engines) in a fresh working directory."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    body = "".join(f"{size},{colour},{grade}\n" for size, colour, grade in _rows())
    (tmp_path / "data" / "tiny.arff").write_text(ARFF + body)
    raw = {
        "run": {"datasets": ["tiny"], "engines": ["sklearn", "weka"]},
        "datasets": {"tiny": {"path": "data/tiny.arff"}},
        "classifiers": {"sklearn": {"Tree": sklearn_entry("sklearn.tree.DecisionTreeClassifier")}},
    }
    return pdconfig.prepare_config(raw)


def test_the_marker_is_no_class_unless_the_class_order_lists_it():
    assert missing_class_label(["lo", "hi"], "?") == "?"
    assert missing_class_label(["lo", "hi", "?"], "?") is None  # a class of its own
    assert missing_class_label(["lo", "hi"], None) is None
    assert missing_class_label(None, "?") == "?"  # while the class order is derived
    flags = class_is_missing(["lo", "?", "hi", "?"], ["lo", "hi"], "?")
    assert flags.tolist() == [False, True, False, True]
    assert not class_is_missing(["lo", "?"], ["lo", "?"], "?").any()


def test_the_class_order_and_checks_ignore_rows_without_a_class(tiny):
    block = tiny["datasets"]["tiny"]
    assert block["classes"] == ["lo", "hi"] and block["missing"] == "?"
    pdconfig.check_data(tiny)  # once an error that asked for `?` among the classes


def test_the_table_keeps_them_and_the_fetch_counts_them(tiny, caplog):
    block = tiny["datasets"]["tiny"]
    with caplog.at_level(logging.WARNING):
        frame, _ = fetch_dataset("tiny", block)
    assert len(frame) == 24
    assert frame["grade"].iloc[list(UNCLASSED)].tolist() == ["?"] * 3
    assert count_missing_class(frame, block) == 3
    assert "3 of the 24 rows have no class (class cell '?')" in caplog.text


def test_the_fetch_steps_description_counts_them(tiny, tmp_path):
    """``workflow/scripts/fetch_data.py`` writes the count into results/data/<name>.json."""
    script = runpy.run_path(str(REPO_ROOT / "workflow" / "scripts" / "fetch_data.py"))
    out = SimpleNamespace(table=str(tmp_path / "tiny.csv"), about=str(tmp_path / "tiny.json"))
    fetch = {"dataset": tiny["datasets"]["tiny"], "mirror": None}
    fetch.update(openml_cache=None, openml_mirror=None)
    smk = SimpleNamespace(
        wildcards=SimpleNamespace(dataset="tiny"), params=SimpleNamespace(fetch=fetch), output=out
    )
    script["main"](smk, logging.getLogger("fetch"))
    about = json.loads((tmp_path / "tiny.json").read_text())
    assert about["rows"] == 24 and about["missing_class_rows"] == 3
    assert len(pd.read_csv(out.table, dtype=str, keep_default_na=False)) == 24


def test_a_csv_class_order_of_first_appearance_leaves_the_marker_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "toy.csv").write_text("x,label\n1,?\n2,b\n3,a\n4,?\n5,b\n")
    block = {"path": "toy.csv", "target": "label", "missing": "?"}
    assert describe("toy", block).classes == ("b", "a")
    frame, _ = fetch_dataset("toy", {**block, "classes": ["b", "a"]})
    assert count_missing_class(frame, {**block, "classes": ["b", "a"]}) == 2
    # Listed among the classes, the marker stays a class, as before.
    assert count_missing_class(frame, {**block, "classes": ["?", "b", "a"]}) == 0


def test_sklearn_leaves_them_out_before_drawing_the_folds(tiny):
    """Predictions for the rows with a class only, and the same ones, fold for fold, as on
    the table without the other rows (the folds are drawn from the rows with a class)."""
    frame, _ = fetch_dataset("tiny", tiny["datasets"]["tiny"])
    spec = pdconfig.dataset_spec(tiny, "tiny", "sklearn")
    none = missing_class_rows(frame, spec)
    assert np.flatnonzero(none).tolist() == list(UNCLASSED)
    engine, entry = get_engine("sklearn"), tiny["classifiers"]["sklearn"]["Tree"]
    cv = CVSpec(folds=3, seed=1, repeats=2)
    mine = engine.cross_validate(frame, spec, "Tree", entry, cv)
    assert len(mine) == 2 * 21 and not set(mine["row"]) & set(UNCLASSED)
    kept = np.flatnonzero(~none)
    # `blue` occurs only on a row without a class, so colour's codes differ between the two
    # tables and a tree may break a tie otherwise: the folds and actual classes must agree.
    theirs = engine.cross_validate(frame.iloc[kept].reset_index(drop=True), spec, "Tree", entry, cv)
    np.testing.assert_array_equal(mine["row"], kept[theirs["row"]])
    np.testing.assert_array_equal(mine["fold"], theirs["fold"])
    np.testing.assert_array_equal(mine["actual"], theirs["actual"])


def test_weka_encoding_gives_a_row_without_a_class_a_missing_class(tiny):
    frame, _ = fetch_dataset("tiny", tiny["datasets"]["tiny"])
    spec = pdconfig.dataset_spec(tiny, "tiny", "weka")
    attributes, values = encode(frame, spec)
    assert attributes[-1].values == ("lo", "hi")
    assert np.flatnonzero(np.isnan(values[:, -1])).tolist() == list(UNCLASSED)


def test_rule_analyse_warns_with_the_count_of_the_description(tmp_path):
    """``workflow/scripts/analyse.py`` reads the count from its input ``about`` (the fetch
    step's results/data/<name>.json); without that input it has nothing to add."""
    script = runpy.run_path(str(REPO_ROOT / "workflow" / "scripts" / "analyse.py"))
    about = tmp_path / "tiny.json"
    about.write_text(json.dumps({"rows": 24, "missing": "?", "missing_class_rows": 3}))
    wildcards = SimpleNamespace(engine="weka", dataset="tiny")
    given = SimpleNamespace(wildcards=wildcards, input=SimpleNamespace(about=str(about)))
    row = script["missing_class_rows"](given)
    assert row[["engine", "dataset", "class"]].values.tolist() == [["weka", "tiny", "?"]]
    assert "3 of the 24 rows have no class" in row["reason"].iloc[0]
    without = SimpleNamespace(wildcards=wildcards, input=SimpleNamespace())
    assert script["missing_class_rows"](without).empty
