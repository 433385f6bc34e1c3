"""The interactive kappa explorer's HTML: its embedded data, escaping, grids and input checks.

The page in a real headless browser is tested in tests/system/test_explorer_browser.py.
"""

from __future__ import annotations

import base64
import itertools
import json
import re

import numpy as np
import pytest

from helpers import EXPLORER_AUTHORS as AUTHORS
from helpers import EXPLORER_LABELS as LABELS
from helpers import EXPLORER_MATRICES as MATRICES
from helpers import HOSTILE, pd_value
from pdmeasure.render.explorer import explorer_html, script_json, write_explorer
from pdmeasure.tables.explorer import (
    DEFAULT_GRID_MAX_VECTORS,
    HISTOGRAM_BIN_WIDTH,
    default_grid,
    explorer_data,
    float64_base64,
    read_explorer_data,
    write_explorer_data,
)


def embedded(page: str) -> dict:
    blocks = re.findall(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert len(blocks) == 1, "expected exactly one data block"
    return json.loads(blocks[0])


# --- the HTML ---------------------------------------------------------------------------------


def test_script_json_cannot_close_its_script_tag():
    data = {"label": HOSTILE, "x": "a&b\u2028c\u2029d", "<!--": "-->", "nan": float("nan")}
    text = script_json(data)
    for char in "<>&\u2028\u2029":
        assert char not in text
    assert "\\u003c/script\\u003e" in text
    assert json.loads(text) == {**data, "nan": None}


def test_page_holds_the_data_and_no_external_resource():
    page = explorer_html(explorer_data(MATRICES, LABELS, dataset="toy", grid_values=[0, 0.5, 1]))
    data = embedded(page)
    assert data["labels"] == LABELS and data["classifiers"] == list(MATRICES)
    assert data["dataset"] == "toy" and data["zero_division"] == "nan"  # the one default
    for name, cm in MATRICES.items():
        assert data["matrices"][name] == cm.tolist()
    np.testing.assert_allclose(data["default_kappa"], AUTHORS.sum(1) / AUTHORS.sum())
    assert data["grid"] == [0, 0.5, 1] and data["n_vectors"] == 27
    assert data["bin_width"] == HISTOGRAM_BIN_WIDTH
    for name in MATRICES:  # every vector of the 3**3 grid is counted once, exactly
        hist = data["histograms"][name]
        assert hist["method"] == "exact" and hist["count_lower"] == hist["count_upper"]
        assert sum(hist["count_lower"]) == 27 and len(hist["left"]) == round(
            1 / HISTOGRAM_BIN_WIDTH
        )
    pairs = {(w["a"], w["b"], w["space"]) for w in data["wins"]}
    assert pairs == {
        (a, b, s) for a, b in (("A", "B"), ("A", "C"), ("B", "C")) for s in ("grid", "uniform")
    }
    for w in data["wins"]:
        assert w["greater"] + w["tie"] + w["less"] == pytest.approx(1.0, abs=1e-6)
    # Self-contained: no URL, no external script or style, and no innerHTML in the script.
    local = page.replace('"http://www.w3.org/2000/svg"', "")  # the SVG namespace name
    assert not re.search(r"(src|href)\s*=|https?:|//[a-z]|url\(|@import", local)
    assert "innerHTML" not in page and "outerHTML" not in page and "document.write" not in page
    assert page.count("<script") == 2


def test_histograms_and_grid_wins_match_enumeration():
    grid = [0, 0.5, 1]
    data = explorer_data(MATRICES, LABELS, grid_values=grid)
    vectors = np.array(list(itertools.product(grid, repeat=3)))
    values = {name: np.array([pd_value(cm, k) for k in vectors]) for name, cm in MATRICES.items()}
    edges = np.linspace(0, 1, round(1 / HISTOGRAM_BIN_WIDTH) + 1)
    for name in MATRICES:
        counts, _ = np.histogram(values[name], edges)
        assert data["histograms"][name]["count_lower"] == counts.tolist(), name
    for w in (w for w in data["wins"] if w["space"] == "grid"):
        a, b = values[w["a"]], values[w["b"]]
        assert w["greater"] == pytest.approx(np.mean(a > b + 1e-12))
        assert w["less"] == pytest.approx(np.mean(a < b - 1e-12))


def test_hostile_names_appear_only_escaped():
    page = explorer_html(
        explorer_data(
            {HOSTILE: AUTHORS, "B": MATRICES["B"]},
            [HOSTILE, "b", "c"],
            dataset=HOSTILE,
            grid_values=[0, 1],
        )
    )
    assert page.count("</script>") == 2  # the two script elements' own end tags
    assert "<img" not in page
    assert (
        "<title>pd kappa explorer: &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</title>"
        in page
    )
    data = embedded(page)
    assert data["labels"][0] == HOSTILE and data["dataset"] == HOSTILE
    assert data["classifiers"][0] == HOSTILE and HOSTILE in data["histograms"]
    assert {w["a"] for w in data["wins"]} == {HOSTILE}


def test_default_grid_has_11_values_while_small_and_fewer_after():
    for n_classes in range(1, 7):
        assert default_grid(n_classes) == [round(0.1 * k, 12) for k in range(11)]
    for n_classes in range(7, 40):
        grid = default_grid(n_classes)
        assert grid[0] == 0 and grid[-1] == 1 and len(grid) >= 2
        assert len(grid) == 2 or len(grid) ** n_classes <= DEFAULT_GRID_MAX_VECTORS
        assert len(grid) == 11 or (len(grid) + 1) ** n_classes > DEFAULT_GRID_MAX_VECTORS
    assert [len(default_grid(c)) for c in (7, 8, 10, 12, 15, 16)] == [10, 8, 5, 4, 3, 2]


def test_default_grid_is_used_without_grid_values():
    data = explorer_data(MATRICES, LABELS)
    assert data["grid"] == default_grid(3) and data["n_vectors"] == 11**3
    assert all(sum(h["count_lower"]) == 11**3 for h in data["histograms"].values())


def test_write_explorer_writes_the_page(tmp_path):
    path = tmp_path / "sub" / "explorer.html"
    path.parent.mkdir()
    write_explorer(explorer_data(MATRICES, LABELS, dataset="toy", grid_values=[0, 1]), path)
    assert path.read_text(encoding="utf-8") == explorer_html(
        explorer_data(MATRICES, LABELS, dataset="toy", grid_values=[0, 1])
    )


def test_the_pipeline_renders_the_same_page_from_the_written_data(tmp_path):
    """Compute, then render: the data written by rule analyse and read back by rule
    render make the page the dict makes, byte for byte, under zero_division nan too."""
    rows = np.asarray(next(iter(MATRICES.values()))).sum(axis=1)
    only_a = np.zeros((3, 3), dtype=np.int64)
    only_a[:, 0] = rows  # never predicts b or c: their precision is 0/0
    cms = {**MATRICES, "only a": only_a}
    data = explorer_data(cms, LABELS, grid_values=[0, 1], zero_division="nan")
    path = tmp_path / "toy.json"
    write_explorer_data(data, path)
    back = read_explorer_data(path)
    assert explorer_html(back) == explorer_html(data)
    assert back == data and back["excluded"] == ["only a"] and back["zero_division"] == "nan"


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="matrix of 'A' has shape \\(3, 3\\), expected \\(2, 2\\)"):
        explorer_data(MATRICES, ["a", "b"])
    with pytest.raises(ValueError, match="must lie in \\[0, 1\\]"):
        explorer_data(MATRICES, LABELS, grid_values=[0, 1.5])
    with pytest.raises(ValueError):
        explorer_data(MATRICES, LABELS, zero_division=0.5)


def test_zero_division_nan_reaches_the_page():
    never = np.array([[110, 0, 10], [60, 0, 60], [20, 0, 21]])  # class b never predicted
    data = explorer_data(
        {"A": AUTHORS, "never": never}, LABELS, zero_division="nan", grid_values=[0, 1]
    )
    assert data["zero_division"] == "nan"
    assert data["excluded"] == ["never"] and list(data["histograms"]) == ["A"]
    assert data["wins"] == []


def test_uncertainty_draws_are_embedded_bit_for_bit_as_base64_float64():
    rng = np.random.default_rng(3)
    precision = rng.uniform(size=(3, 4, 3))
    precision[0, 0] = [1 / 3, -0.0, 5e-324]  # a repeating binary fraction, -0, a subnormal
    recall = rng.uniform(size=(3, 4, 3))
    draws = {
        "classifiers": list(MATRICES),
        "level": 0.9,
        "method": "posterior",
        "draws": 4,
        "precision": precision.tolist(),
        "recall": recall.tolist(),
    }
    data = embedded(
        explorer_html(explorer_data(MATRICES, LABELS, grid_values=[0, 1], uncertainty=draws))
    )
    block = data["uncertainty"]
    assert {key: block[key] for key in ("level", "method", "draws")} == {
        "level": 0.9,
        "method": "posterior",
        "draws": 4,
    }
    for key, values in (("precision", precision), ("recall", recall)):
        decoded = np.frombuffer(base64.b64decode(block[key]), dtype="<f8").reshape(values.shape)
        assert decoded.tobytes() == values.astype("<f8").tobytes(), key
    assert block["precision"] == float64_base64(precision)
