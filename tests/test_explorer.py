"""The interactive kappa explorer: the HTML itself, and the page in a real headless browser.

The browser tests drive Debian's ``chromium`` through ``chromedriver`` with selenium: they read
the pd values the page shows, move class weights, and check the values and the ranking against
:func:`pdmeasure.measures.preference_driven`; a hostile label must show as text and run
nothing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from pdmeasure import measures
from pdmeasure.explorer import explorer_data, explorer_html, script_json, write_explorer

HOSTILE = "</script><img src=x onerror=alert(1)>"
AUTHORS = np.array([[100, 10, 10], [10, 80, 30], [1, 10, 30]])
MATRICES = {
    "A": AUTHORS,
    "B": np.array([[90, 20, 10], [5, 100, 15], [5, 5, 31]]),
    "C": np.array([[110, 5, 5], [20, 90, 10], [10, 10, 21]]),
}
LABELS = ["a", "b", "c"]
SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "explorer.png"


def embedded(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert match, "no data block"
    return json.loads(match.group(1))


def test_script_json_cannot_close_its_script_tag():
    text = script_json({"label": HOSTILE, "x": "a&b\u2028c", "nan": float("nan")})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"label": HOSTILE, "x": "a&b\u2028c", "nan": None}


def test_page_holds_the_data_and_no_external_resource():
    page = explorer_html(MATRICES, LABELS, dataset="toy", grid_values=[0, 0.5, 1])
    data = embedded(page)
    assert data["labels"] == LABELS and data["classifiers"] == list(MATRICES)
    assert data["matrices"]["A"] == AUTHORS.tolist()
    np.testing.assert_allclose(data["default_kappa"], AUTHORS.sum(1) / AUTHORS.sum())
    assert data["grid"] == [0, 0.5, 1]
    for name in MATRICES:  # histogram probabilities of the 3**3 grid sum to 1
        assert sum(data["histograms"][name]["p"]) == pytest.approx(1.0)
    pairs = {(w["a"], w["b"], w["space"]) for w in data["wins"]}
    assert pairs == {(a, b, s) for a, b in (("A", "B"), ("A", "C"), ("B", "C"))
                     for s in ("grid", "uniform")}
    for w in data["wins"]:
        assert w["greater"] + w["tie"] + w["less"] == pytest.approx(1.0, abs=1e-6)
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "innerHTML" not in page


def test_hostile_names_appear_only_escaped():
    page = explorer_html({HOSTILE: AUTHORS, "B": MATRICES["B"]}, [HOSTILE, "b", "c"],
                         dataset=HOSTILE, grid_values=[0, 1])
    assert page.count("</script>") == 2  # the two script elements' own end tags
    assert "<img" not in page
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in page  # the <title>
    data = embedded(page)
    assert data["labels"][0] == HOSTILE and data["dataset"] == HOSTILE


def test_a_matrix_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="matrix of 'A' has shape \\(3, 3\\), expected \\(2, 2\\)"):
        explorer_data(MATRICES, ["a", "b"])


def test_zero_division_nan_reaches_the_page():
    never = np.array([[110, 0, 10], [60, 0, 60], [20, 0, 21]])  # class b never predicted
    data = explorer_data({"A": AUTHORS, "never": never}, LABELS, zero_division="nan",
                         grid_values=[0, 1])
    assert data["zero_division"] == "nan"
    assert data["excluded"] == ["never"]


# --- real headless browser ------------------------------------------------------------------

def _driver():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not browser or not driver_path:
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_window_size(1100, 1000)
    return driver


@pytest.fixture(scope="module")
def browser():
    driver = _driver()
    yield driver
    driver.quit()


def shown(driver) -> dict[str, str]:
    from selenium.webdriver.common.by import By

    return {cell.get_attribute("data-classifier"): cell.text
            for cell in driver.find_elements(By.CSS_SELECTOR, "td.pd")}


def ranking(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [row.get_attribute("data-classifier")
            for row in driver.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")]


def set_weight(driver, index: int, value: float) -> None:
    """Type a weight into a class's number input, as a user does (fires input events)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element(By.ID, f"kappa-number-{index}")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(str(value))


def expected(kappa, matrices=MATRICES, zero_division=0.0) -> dict[str, str]:
    return {name: f"{float(measures.preference_driven(cm, kappa, zero_division=zero_division)):.4f}"
            for name, cm in matrices.items()}


def errors(driver) -> list:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.mark.browser
def test_browser_shows_pd_and_follows_the_weights(browser, tmp_path):
    path = tmp_path / "explorer.html"
    write_explorer(MATRICES, LABELS, path, dataset="worked example", grid_values=None)
    browser.get(path.as_uri())
    assert shown(browser) == expected(None)
    kappa = list(AUTHORS.sum(1) / AUTHORS.sum())
    for index, value in ((0, 0.3), (1, 0.1), (2, 0.9)):
        set_weight(browser, index, value)
        kappa[index] = value
        assert shown(browser) == expected(kappa), kappa
    assert shown(browser)["A"] == "0.6642"  # the authors' worked example
    values = {name: measures.preference_driven(cm, kappa, zero_division=0.0)
              for name, cm in MATRICES.items()}
    assert ranking(browser) == sorted(values, key=lambda name: -values[name])
    from selenium.webdriver.common.by import By

    slider = browser.find_element(By.ID, "kappa-1")
    browser.execute_script(
        "arguments[0].value = '0.75'; arguments[0].dispatchEvent(new Event('input'));", slider)
    kappa[1] = 0.75
    assert shown(browser) == expected(kappa)
    assert browser.find_element(By.ID, "kappa-number-1").get_attribute("value") == "0.75"
    browser.find_element(By.ID, "reset").click()
    assert shown(browser) == expected(None)
    markers = browser.find_elements(By.CSS_SELECTOR, "line.marker")
    assert len(markers) == 3 and all(float(m.get_attribute("x1")) > 0 for m in markers)
    assert errors(browser) == []
    # The README's picture: `PDMEASURE_SCREENSHOT=1 pytest tests/test_explorer.py` refreshes it.
    if os.environ.get("PDMEASURE_SCREENSHOT"):
        browser.save_screenshot(str(SCREENSHOT))


@pytest.mark.browser
def test_browser_shows_hostile_names_as_text_and_runs_nothing(browser, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    matrices = {HOSTILE: MATRICES["A"], "B": MATRICES["B"]}
    path = tmp_path / "hostile.html"
    write_explorer(matrices, [HOSTILE, "b", "c"], path, dataset=HOSTILE, grid_values=[0, 1])
    browser.get(path.as_uri())
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert HOSTILE in browser.find_element(By.ID, "title").text
    assert browser.title == f"pd kappa explorer: {HOSTILE}"
    assert browser.find_element(By.CSS_SELECTOR, "label[for='kappa-0']").text == HOSTILE
    assert shown(browser) == expected(None, matrices)
    set_weight(browser, 0, 1)
    kappa = [1, *(AUTHORS.sum(1) / AUTHORS.sum())[1:]]
    assert shown(browser)[HOSTILE] == expected(kappa, matrices)[HOSTILE]
    assert errors(browser) == []


@pytest.mark.browser
def test_browser_shows_nan_where_pd_is_undefined(browser, tmp_path):
    never = np.array([[110, 0, 10], [60, 0, 60], [20, 0, 21]])  # class b never predicted
    matrices = {"A": AUTHORS, "never": never}
    path = tmp_path / "nan.html"
    write_explorer(matrices, LABELS, path, zero_division="nan", grid_values=[0, 1])
    browser.get(path.as_uri())
    assert shown(browser)["never"] == "NaN"
    assert ranking(browser) == ["A", "never"]  # an undefined pd ranks last, without a rank
    set_weight(browser, 1, 0)  # the never-predicted class's precision drops out of pd
    kappa = list(AUTHORS.sum(1) / AUTHORS.sum())
    kappa[1] = 0
    assert shown(browser) == expected(kappa, matrices, zero_division="nan")
    assert shown(browser)["never"] != "NaN"
    assert errors(browser) == []
