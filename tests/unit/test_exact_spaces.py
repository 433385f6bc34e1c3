"""DatasetAnalysis(spaces=...): one space's tables, equal to that space's rows of all spaces."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import need_module

need_module("pandas")

from pdmeasure.exact import ExactSettings  # noqa: E402
from pdmeasure.tables.exact import DatasetAnalysis  # noqa: E402

MATRICES = {
    "A": np.array([[30, 5, 5], [4, 20, 6], [2, 3, 25]]),
    "B": np.array([[25, 10, 5], [6, 18, 6], [1, 4, 25]]),
    "C": np.array([[20, 10, 10], [2, 26, 2], [5, 5, 20]]),
}


def analysis(spaces=None):
    settings = ExactSettings(monte_carlo_samples=2000, seed=1)
    return DatasetAnalysis(MATRICES, [0, 0.5, 1], settings, engine="e", dataset="d", spaces=spaces)


@pytest.mark.parametrize("space", ["grid", "uniform"])
def test_one_space_equals_its_rows_of_all_spaces(space):
    every, one = analysis(), analysis([space])
    for table in ("summary", "win_probabilities", "shares"):
        full = getattr(every, table)()
        alone = getattr(one, table)()
        assert set(alone["space"]) == {space}
        expected = full[full["space"] == space].reset_index(drop=True)
        assert alone.equals(expected), table


def test_unknown_space_is_named():
    with pytest.raises(ValueError, match="unknown kappa space"):
        analysis(["nowhere"])
