"""The interactive kappa explorer: the HTML itself, and the page in a real headless browser.

The browser tests drive Debian's ``chromium`` through ``chromedriver`` with selenium: they read
the pd values the page shows, move class weights, and check the values and the ranking against
:func:`pdmeasure.measures.preference_driven`; a hostile label must show as text and run
nothing. They are skipped only when chromium, chromedriver or selenium is not installed.

The docs' picture (docs/cli.md, docs/figures.md), docs/explorer.png, is refreshed by
``PDMEASURE_SCREENSHOT=1 .venv/bin/python -m pytest tests/test_explorer.py -m browser``.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from pdmeasure import measures
from pdmeasure.render.explorer import (
    DEFAULT_GRID_MAX_VECTORS,
    HISTOGRAM_BIN_WIDTH,
    default_grid,
    explorer_data,
    explorer_html,
    script_json,
    write_explorer,
)

HOSTILE = "</script><img src=x onerror=alert(1)>"
#: The authors' worked example (paper 000): pd = 0.6642 at kappa (0.3, 0.1, 0.9).
AUTHORS = np.array([[100, 10, 10], [10, 80, 30], [1, 10, 30]])
MATRICES = {
    "A": AUTHORS,
    "B": np.array([[90, 20, 10], [5, 100, 15], [5, 5, 31]]),
    "C": np.array([[110, 5, 5], [20, 90, 10], [10, 10, 21]]),
}
LABELS = ["a", "b", "c"]
DEFAULT_KAPPA = list(AUTHORS.sum(1) / AUTHORS.sum())
SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "explorer.png"


def embedded(page: str) -> dict:
    blocks = re.findall(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert len(blocks) == 1, "expected exactly one data block"
    return json.loads(blocks[0])


def pd_value(cm, kappa, zero_division=0.0) -> float:
    return float(measures.preference_driven(cm, kappa, zero_division=zero_division))


# --- the HTML ---------------------------------------------------------------------------------


def test_script_json_cannot_close_its_script_tag():
    data = {"label": HOSTILE, "x": "a&b\u2028c\u2029d", "<!--": "-->", "nan": float("nan")}
    text = script_json(data)
    for char in "<>&\u2028\u2029":
        assert char not in text
    assert "\\u003c/script\\u003e" in text
    assert json.loads(text) == {**data, "nan": None}


def test_page_holds_the_data_and_no_external_resource():
    page = explorer_html(MATRICES, LABELS, dataset="toy", grid_values=[0, 0.5, 1])
    data = embedded(page)
    assert data["labels"] == LABELS and data["classifiers"] == list(MATRICES)
    assert data["dataset"] == "toy" and data["zero_division"] == 0.0
    for name, cm in MATRICES.items():
        assert data["matrices"][name] == cm.tolist()
    np.testing.assert_allclose(data["default_kappa"], DEFAULT_KAPPA)
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
        {HOSTILE: AUTHORS, "B": MATRICES["B"]},
        [HOSTILE, "b", "c"],
        dataset=HOSTILE,
        grid_values=[0, 1],
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
    write_explorer(MATRICES, LABELS, path, dataset="toy", grid_values=[0, 1])
    assert path.read_text(encoding="utf-8") == explorer_html(
        MATRICES, LABELS, dataset="toy", grid_values=[0, 1]
    )


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


# --- real headless browser ------------------------------------------------------------------

#: Runs before any script of every page: records uncaught errors and alert() calls (the real
#: alert still opens, so selenium sees the dialog too).
PROBE = """
window.__errors = [];
window.__alerts = [];
window.onerror = function (message) { window.__errors.push(String(message)); };
const nativeAlert = window.alert.bind(window);
window.alert = function (message) { window.__alerts.push(String(message)); return nativeAlert(message); };
"""


def _driver():
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed (pip install selenium)"
    )
    from selenium.webdriver.chrome.service import Service

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not browser or not driver_path:
        pytest.skip(
            "Debian's chromium and chromium-driver are not installed "
            "(apt-get install chromium chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_window_size(1100, 1000)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE})
    return driver


@pytest.fixture(scope="module")
def browser():
    driver = _driver()
    yield driver
    driver.quit()


def load(driver, path: Path) -> None:
    """Open a file, after draining the browser log of earlier pages."""
    driver.get_log("browser")
    driver.get(path.as_uri())


def shown(driver) -> dict[str, str]:
    """Classifier -> the pd text of its ranking row."""
    from selenium.webdriver.common.by import By

    return {
        cell.get_attribute("data-classifier"): cell.text
        for cell in driver.find_elements(By.CSS_SELECTOR, "#ranking td.pd")
    }


def ranking(driver) -> list[tuple[str, str]]:
    """(rank, classifier) of the ranking rows, top to bottom."""
    from selenium.webdriver.common.by import By

    return [
        (row.find_element(By.CSS_SELECTOR, "td.rank").text, row.get_attribute("data-classifier"))
        for row in driver.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")
    ]


def type_weight(driver, index: int, value: float) -> None:
    """Type a weight into a class's number box, as a user does (input events per key)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element(By.ID, f"kappa-number-{index}")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(str(value))


def set_weight(driver, element_id: str, value: float, event: str) -> None:
    """Set an input's value from script and dispatch one event (input or change)."""
    driver.execute_script(
        "const box = document.getElementById(arguments[0]); box.value = arguments[1];"
        "box.dispatchEvent(new Event(arguments[2], {bubbles: true}));",
        element_id,
        str(value),
        event,
    )


def expected(kappa, matrices=MATRICES, zero_division=0.0) -> dict[str, str]:
    return {name: f"{pd_value(cm, kappa, zero_division):.4f}" for name, cm in matrices.items()}


def expected_ranking(kappa, matrices=MATRICES) -> list[tuple[str, str]]:
    values = {name: pd_value(cm, kappa) for name, cm in matrices.items()}
    order = sorted(values, key=lambda name: -values[name])
    return [(str(1 + sum(v > values[name] for v in values.values())), name) for name in order]


def assert_clean(driver) -> None:
    """No dialog open, no uncaught error, no alert() call, no SEVERE browser log entry."""
    from selenium.common.exceptions import NoAlertPresentException

    with pytest.raises(NoAlertPresentException):
        _ = driver.switch_to.alert.text
    assert driver.execute_script("return window.__errors") == []
    assert driver.execute_script("return window.__alerts") == []
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.browser
def test_browser_shows_pd_and_follows_the_weights(browser, tmp_path):
    from selenium.webdriver.common.by import By

    path = tmp_path / "explorer.html"
    write_explorer(MATRICES, LABELS, path, dataset="worked example", grid_values=None)
    load(browser, path)
    assert browser.execute_script("return window.__errors") == []  # the probe is in place
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#weights label")]
    assert labels == LABELS
    for i, share in enumerate(DEFAULT_KAPPA):
        assert float(
            browser.find_element(By.ID, f"kappa-number-{i}").get_attribute("value")
        ) == pytest.approx(share, abs=5e-5)
    assert shown(browser) == expected(None)
    assert ranking(browser) == expected_ranking(DEFAULT_KAPPA)

    kappa = list(DEFAULT_KAPPA)
    for index, value in ((0, 0.3), (1, 0.1), (2, 0.9)):
        type_weight(browser, index, value)
        kappa[index] = value
        assert shown(browser) == expected(kappa), kappa
    assert shown(browser)["A"] == "0.6642"  # the authors' worked example
    assert ranking(browser) == expected_ranking(kappa)

    # The slider moves pd and its number box; the number box moves its slider.
    set_weight(browser, "kappa-1", 0.75, "input")
    kappa[1] = 0.75
    assert shown(browser) == expected(kappa)
    assert browser.find_element(By.ID, "kappa-number-1").get_attribute("value") == "0.75"
    set_weight(browser, "kappa-number-2", 0.2, "change")
    kappa[2] = 0.2
    assert shown(browser) == expected(kappa)
    assert browser.find_element(By.ID, "kappa-2").get_attribute("value") == "0.2"
    assert ranking(browser) == expected_ranking(kappa)
    for k in ([0, 0, 0], [1, 1, 1], [1, 0, 0.5]):  # macro recall, macro precision, a mix
        for i, v in enumerate(k):
            set_weight(browser, f"kappa-{i}", v, "input")
        assert shown(browser) == expected(k), k
        assert ranking(browser) == expected_ranking(k)

    # Each histogram's red marker sits at the classifier's current pd.
    markers = browser.find_elements(By.CSS_SELECTOR, "line.marker")
    assert len(markers) == 3
    width = float(markers[0].find_element(By.XPATH, "..").get_attribute("width"))
    for name, marker in zip(MATRICES, markers):
        assert float(marker.get_attribute("x1")) / width == pytest.approx(
            pd_value(MATRICES[name], [1, 0, 0.5]), abs=1e-9
        )
    assert len(browser.find_elements(By.CSS_SELECTOR, "#wins tbody tr")) == 6

    browser.find_element(By.ID, "reset").click()
    assert shown(browser) == expected(None)
    assert_clean(browser)
    if os.environ.get("PDMEASURE_SCREENSHOT"):
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1100, height + 140)  # the whole page, window chrome included
        browser.save_screenshot(str(SCREENSHOT))


@pytest.mark.browser
def test_browser_shows_hostile_names_as_text_and_runs_nothing(browser, tmp_path):
    from selenium.webdriver.common.by import By

    matrices = {HOSTILE: MATRICES["A"], "B": MATRICES["B"]}
    path = tmp_path / "hostile.html"
    write_explorer(matrices, [HOSTILE, "b", "c"], path, dataset=HOSTILE, grid_values=[0, 1])
    load(browser, path)
    assert_clean(browser)
    assert browser.execute_script("return document.images.length") == 0
    assert browser.find_elements(By.TAG_NAME, "img") == []
    # The text shows literally wherever a name is used.
    assert browser.title == f"pd kappa explorer: {HOSTILE}"
    assert browser.find_element(By.ID, "title").text == f"pd kappa explorer: {HOSTILE}"
    assert browser.find_element(By.CSS_SELECTOR, "label[for='kappa-number-0']").text == HOSTILE
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#ranking td.name")]
    assert HOSTILE in names
    assert browser.find_element(By.CSS_SELECTOR, ".hist .name").text == HOSTILE
    assert {e.text for e in browser.find_elements(By.CSS_SELECTOR, "#wins td.a")} == {HOSTILE}
    assert shown(browser) == expected(None, matrices)
    type_weight(browser, 0, 1)
    kappa = [1, *DEFAULT_KAPPA[1:]]
    assert shown(browser) == expected(kappa, matrices)
    assert_clean(browser)


@pytest.mark.browser
def test_browser_probe_catches_an_injection(browser, tmp_path):
    """Control: the same label put into a page with innerHTML does run, and is caught."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    path = tmp_path / "unsafe.html"
    path.write_text(
        "<!doctype html><div id=x></div><script>document.getElementById('x')"
        f".innerHTML = {json.dumps(HOSTILE[len('</script>') :])};</script>",
        encoding="utf-8",
    )
    load(browser, path)
    alert = WebDriverWait(browser, 5).until(expected_conditions.alert_is_present())
    assert alert.text == "1"
    alert.accept()
    assert browser.execute_script("return window.__alerts") == ["1"]
    assert browser.execute_script("return document.images.length") == 1


@pytest.mark.browser
def test_browser_shows_nan_where_pd_is_undefined(browser, tmp_path):
    never = np.array([[110, 0, 10], [60, 0, 60], [20, 0, 21]])  # class b never predicted
    matrices = {"A": AUTHORS, "never": never}
    path = tmp_path / "nan.html"
    write_explorer(matrices, LABELS, path, zero_division="nan", grid_values=[0, 1])
    load(browser, path)
    assert shown(browser)["never"] == "NaN"
    assert ranking(browser) == [("1", "A"), ("", "never")]  # undefined: last, without a rank
    type_weight(browser, 1, 0)  # the never-predicted class's precision drops out of pd
    kappa = list(DEFAULT_KAPPA)
    kappa[1] = 0
    assert shown(browser) == expected(kappa, matrices, zero_division="nan")
    assert shown(browser)["never"] != "NaN"
    assert_clean(browser)
