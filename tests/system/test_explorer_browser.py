"""The kappa explorer's page in a real headless browser.

The tests drive Debian's ``chromium`` through ``chromedriver`` with selenium (the ``browser``
fixture): they read the pd values the page shows, move class weights, and check the values and
the ranking against :func:`pdmeasure.measures.preference_driven`; a hostile label must show as
text and run nothing. The page's data and markup without a browser: tests/unit/test_explorer.py.

The docs' picture (docs/cli.md, docs/figures.md), docs/explorer.png, is refreshed by
``PDMEASURE_SCREENSHOT=1 .venv/bin/python -m pytest tests/system/test_explorer_browser.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from helpers import EXPLORER_AUTHORS as AUTHORS
from helpers import EXPLORER_LABELS as LABELS
from helpers import EXPLORER_MATRICES as MATRICES
from helpers import HOSTILE, REPO_ROOT, pd_value
from pdmeasure.render.explorer import write_explorer
from pdmeasure.tables.explorer import explorer_data

DEFAULT_KAPPA = list(AUTHORS.sum(1) / AUTHORS.sum())
SCREENSHOT = REPO_ROOT / "docs" / "explorer.png"


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
    write_explorer(
        explorer_data(MATRICES, LABELS, dataset="worked example", grid_values=None), path
    )
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
    write_explorer(
        explorer_data(matrices, [HOSTILE, "b", "c"], dataset=HOSTILE, grid_values=[0, 1]), path
    )
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
    write_explorer(explorer_data(matrices, LABELS, zero_division="nan", grid_values=[0, 1]), path)
    load(browser, path)
    assert shown(browser)["never"] == "NaN"
    assert ranking(browser) == [("1", "A"), ("", "never")]  # undefined: last, without a rank
    type_weight(browser, 1, 0)  # the never-predicted class's precision drops out of pd
    kappa = list(DEFAULT_KAPPA)
    kappa[1] = 0
    assert shown(browser) == expected(kappa, matrices, zero_division="nan")
    assert shown(browser)["never"] != "NaN"
    assert_clean(browser)
