"""The explorer's uncertainty table in headless chromium: pd's interval and each classifier's
probability of ranking first at the kappa currently set equal the library's
(:mod:`pdmeasure.uncertainty` on the same draws) to the printed precision, at the default kappa
and after moving a weight. Skipped only when chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

import numpy as np
import pytest

# The library package lands separately; until it is installed this test has nothing to test.
from pdmeasure import measures  # noqa: E402
from pdmeasure import uncertainty as unc  # noqa: E402
from pdmeasure.render.explorer import write_explorer
from pdmeasure.tables.explorer import explorer_data
from pdmeasure.tables.uncertainty import EXPLORER_DRAWS, explorer_draws

pytestmark = pytest.mark.browser

#: The authors' worked example (paper 000) and two rivals close to it, so that the
#: probabilities of ranking first are neither 0 nor 1.
MATRICES = {
    "A": np.array([[100, 10, 10], [10, 80, 30], [1, 10, 30]]),
    "B": np.array([[95, 15, 10], [8, 85, 27], [3, 8, 30]]),
    "C": np.array([[104, 8, 8], [14, 78, 28], [4, 9, 28]]),
}
LABELS = ["a", "b", "c"]
SETTINGS = {"method": "posterior", "level": 0.9, "prior": 0.5}


def drawn_matrices() -> np.ndarray:
    stack = np.stack(list(MATRICES.values()))
    return unc.posterior_draws(stack, EXPLORER_DRAWS, prior=SETTINGS["prior"], seed=11)


def library(matrices: np.ndarray, kappa) -> dict[str, tuple[str, str, str, str]]:
    """Classifier -> (pd, lower, upper, P(rank 1)) as the page prints them."""
    values = unc.measure_draws(matrices, kappas={"k": np.asarray(kappa)})
    drawn = np.asarray(values["preference_driven[k]"], dtype=float)
    lower, upper = unc.interval(drawn, SETTINGS["level"], axis=0)
    first = np.asarray(unc.rank_probabilities(drawn), dtype=float)[:, 0]
    return {
        name: (
            f"{float(measures.preference_driven(cm, kappa)):.4f}",
            f"{lower[k]:.4f}",
            f"{upper[k]:.4f}",
            f"{first[k]:.3f}",
        )
        for k, (name, cm) in enumerate(MATRICES.items())
    }


def shown(driver) -> dict[str, tuple[str, str, str, str]]:
    from selenium.webdriver.common.by import By

    rows = driver.find_elements(By.CSS_SELECTOR, "#intervals tbody tr")
    return {
        row.get_attribute("data-classifier"): tuple(
            row.find_element(By.CSS_SELECTOR, f"td.{name}").text
            for name in ("value", "lower", "upper", "first")
        )
        for row in rows
    }


def test_intervals_and_first_place_follow_the_weights(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    matrices = drawn_matrices()
    payload = explorer_draws(
        matrices, classifiers=list(MATRICES), settings=SETTINGS, zero_division=0.0
    )
    path = tmp_path / "explorer.html"
    write_explorer(
        explorer_data(MATRICES, LABELS, dataset="worked example", uncertainty=payload), path
    )
    browser.get(path.as_uri())
    assert browser.find_element(By.ID, "uncertainty").is_displayed()
    actual = MATRICES["A"].sum(axis=1)
    default = actual / actual.sum()
    assert shown(browser) == library(matrices, default)
    box = browser.find_element(By.ID, "kappa-number-1")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("0.9")
    moved = default.copy()
    moved[1] = 0.9
    after = shown(browser)
    assert after == library(matrices, moved)
    assert after != library(matrices, default)
    firsts = [float(cells[3]) for cells in after.values()]
    assert abs(sum(firsts) - 1.0) < 0.003 and max(firsts) < 1.0
