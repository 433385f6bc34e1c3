"""The kappa explorer stays usable at 50 classifiers: the page at most 5 MB, and a class-weight
change redrawn within 200 ms in headless chromium.

Two pages of the same 50 classifiers (5 classes, one dataset's actual-class counts): the one
``pdmeasure explore FILE -o page.html`` writes, and the one the pipeline writes when the
uncertainty module ran (:data:`~pdmeasure.tables.uncertainty.EXPLORER_DRAWS` draws
per classifier embedded; the largest page). The figures are in docs/performance.md; to print
them: ``pytest tests/system/test_explorer_scale.py -s``.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np
import pytest

from helpers import pd_value
from pdmeasure import uncertainty as unc
from pdmeasure.cli.app import main
from pdmeasure.render.explorer import write_explorer
from pdmeasure.tables.explorer import explorer_data
from pdmeasure.tables.uncertainty import EXPLORER_DRAWS, explorer_draws

pytestmark = pytest.mark.browser

N_CLASSIFIERS = 50
LABELS = ["a", "b", "c", "d", "e"]
#: The issue's bounds of a usable page.
MAX_BYTES = 5 * 1024 * 1024
MAX_REDRAW_MS = 200.0
#: (class, kappa) of the weight moves timed, one after another.
MOVES = ((0, 0.9), (1, 0.05), (2, 0.7), (3, 0.3), (4, 1.0), (0, 0.0), (2, 0.45), (1, 0.8))

#: Moves one slider from script (as tests/system/test_explorer_browser.py does), timed with
#: the page's own clock: ``script`` is the change event's dispatch, which runs the whole
#: synchronous redraw; ``frame`` ends in a task queued from the next animation frame's
#: callback, so it also holds the style, layout and paint of the frame that shows the result.
TIME_MOVE = """
const [id, value, done] = arguments;
const slider = document.getElementById(id);
const start = performance.now();
slider.value = value;
slider.dispatchEvent(new Event("change", {bubbles: true}));
const script = performance.now() - start;
requestAnimationFrame(() => setTimeout(() => done({script: script,
                                                   frame: performance.now() - start}), 0));
"""


@pytest.fixture(scope="module")
def matrices() -> dict[str, np.ndarray]:
    """50 classifiers of one dataset: the same actual-class counts, accuracy 0.5 to 0.95."""
    rng = np.random.default_rng(50)
    actual = np.array([400, 250, 120, 60, 20])
    result = {}
    for k in range(N_CLASSIFIERS):
        right = rng.uniform(0.5, 0.95)
        rows = []
        for i, n in enumerate(actual):
            p = rng.dirichlet(np.ones(len(LABELS))) * (1 - right)
            p[i] += right
            rows.append(rng.multinomial(n, p / p.sum()))
        result[f"classifier {k:02d}"] = np.array(rows)
    return result


def cli_page(matrices, directory: Path) -> Path:
    """The page of ``pdmeasure explore FILE -o page.html``."""
    source = directory / "matrices.json"
    source.write_text(
        json.dumps({"labels": LABELS, "matrices": {n: m.tolist() for n, m in matrices.items()}})
    )
    page = directory / "page.html"
    assert main(["explore", str(source), "-o", str(page), "--dataset", "fifty"]) == 0
    return page


def uncertainty_page(matrices, directory: Path) -> Path:
    """The pipeline's page with the uncertainty module's draws (workflow/scripts/explorer.py)."""
    stack = np.stack(list(matrices.values()))
    drawn = unc.posterior_draws(stack, EXPLORER_DRAWS, prior=0.5, seed=7)
    payload = explorer_draws(
        drawn,
        classifiers=list(matrices),
        settings={"method": "posterior", "level": 0.95},
        zero_division=0.0,
    )
    page = directory / "page.html"
    write_explorer(explorer_data(matrices, LABELS, dataset="fifty", uncertainty=payload), page)
    return page


def shown(driver) -> dict[str, str]:
    """Classifier -> the pd text of its ranking row."""
    from selenium.webdriver.common.by import By

    return {
        cell.get_attribute("data-classifier"): cell.text
        for cell in driver.find_elements(By.CSS_SELECTOR, "#ranking td.pd")
    }


@pytest.mark.parametrize("build", [cli_page, uncertainty_page], ids=["cli", "uncertainty"])
def test_page_of_50_classifiers_is_small_and_redraws_quickly(
    build, matrices, browser, tmp_path, record_property
):
    from selenium.webdriver.common.by import By

    page = build(matrices, tmp_path)
    size = page.stat().st_size
    record_property("page_bytes", size)
    assert size <= MAX_BYTES, f"the page of {N_CLASSIFIERS} classifiers has {size:,} bytes"

    browser.get_log("browser")
    browser.get(page.as_uri())
    browser.set_script_timeout(30)
    assert browser.execute_script("return window.__errors") == []  # the probe is in place
    actual = next(iter(matrices.values())).sum(axis=1)
    kappa = list(actual / actual.sum())
    times = []
    for index, value in MOVES:
        times.append(browser.execute_async_script(TIME_MOVE, f"kappa-{index}", str(value)))
        kappa[index] = value
    # The moves were redrawn: every classifier's pd is the library's at the last kappa.
    assert shown(browser) == {name: f"{pd_value(cm, kappa):.4f}" for name, cm in matrices.items()}
    if build is uncertainty_page:
        rows = browser.find_elements(By.CSS_SELECTOR, "#intervals tbody tr")
        assert len(rows) == N_CLASSIFIERS
    assert browser.execute_script("return window.__errors") == []
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []

    # A timed assertion, unlike the rest of the suite: the 200 ms bound is the issue's
    # usability requirement. The times are the page's own performance.now(), so they hold
    # the redraw and the frame that shows it, not the test's round trips to chromium. The
    # median of the moves keeps one move slowed by the shared machine from deciding.
    script = [round(t["script"], 1) for t in times]
    frame = [round(t["frame"], 1) for t in times]
    median = statistics.median(frame)
    record_property("redraw_ms", median)
    print(
        f"\n{build.__name__}: {size:,} bytes; weight change to the next frame: median "
        f"{median:.1f} ms, each {frame}; the synchronous redraw alone {script} ms"
    )
    assert median <= MAX_REDRAW_MS, (
        f"a weight change took {median:.1f} ms (median; each move: {frame} ms to the next "
        f"frame, {script} ms of script) to redraw the page of {N_CLASSIFIERS} classifiers, "
        f"over {MAX_REDRAW_MS:.0f} ms"
    )
