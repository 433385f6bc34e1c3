"""Column schemas of the uncertainty step's tables, its verdict rule, and reading them back.

Kept apart from ``pdmeasure.tables.uncertainty`` (which draws and computes, with
``pdmeasure.uncertainty``) so that what only formats the tables (the Markdown and figures
of :mod:`pdmeasure.render`, the statistics report) needs neither the draws nor the library,
as :mod:`pdmeasure.tables.stats` does for the statistics.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from pdmeasure.tables.io import read_csv
from pdmeasure.tables.measures import MEASURE_COLUMNS

#: The key columns of a row about one pair of classifiers on one measure row.
_PAIR = ("measure", "kappa", "classifier_a", "classifier_b")
#: A Bayesian comparison's three probabilities and its region of practical equivalence.
_BAYES = ("p_a_better", "p_equivalent", "p_b_better", "rope")

#: The rows of ``measures.csv`` with their interval.
INTERVAL_COLUMNS = (*MEASURE_COLUMNS, "lower", "upper", "level", "method")
PROBABILITY_COLUMNS = (
    "engine",
    "dataset",
    *_PAIR,
    "p_better",
    "p_equivalent",
    "p_worse",
    "rope",
    "method",
)
RANK_PROBABILITY_COLUMNS = (
    "engine",
    "dataset",
    "measure",
    "kappa",
    "classifier",
    "rank",
    "probability",
)
WITHIN_COLUMNS = ("engine", "dataset", *_PAIR, *_BAYES, "n_folds", "runs", "verdict")
ACROSS_COLUMNS = ("engine", *_PAIR, *_BAYES, "n_datasets", "verdict")
POSTERIOR_COLUMNS = (
    "engine",
    "dataset",
    *_PAIR,
    "bin_lower",
    "bin_upper",
    "probability",
    "p_better",
    "p_equivalent",
    "p_worse",
    "rope",
)
COMPANION_COLUMNS = (
    "engine",
    "dataset",
    "row",
    "classifier",
    "value",
    "lower",
    "upper",
    "rank",
    "p_first",
    "level",
    "method",
)

#: The kappa names of the preference-robust rows of :func:`pairwise_table`: kappa uniform on
#: [0, 1]^C, and uniform over the product grid of the dataset's ``kappa_grid``.
KAPPA_UNIFORM = "kappa_uniform"
KAPPA_GRID = "kappa_grid"

#: Probability a Bayesian verdict needs (Benavoli et al. 2017 read 0.95 as "sure enough").
VERDICT_THRESHOLD = 0.95


def verdict(p_a: float, p_equivalent: float, p_b: float, a: str, b: str) -> str:
    """What the posterior supports at :data:`VERDICT_THRESHOLD`: ``"<a> better"``,
    ``"<b> better"``, ``"equivalent"``, else ``"undecided"`` (``"no data"`` for NaN)."""
    if np.isnan([p_a, p_equivalent, p_b]).any():
        return "no data"
    if p_a >= VERDICT_THRESHOLD:
        return f"{a} better"
    if p_b >= VERDICT_THRESHOLD:
        return f"{b} better"
    if p_equivalent >= VERDICT_THRESHOLD:
        return "equivalent"
    return "undecided"


def read_signed_rank(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read back :func:`signed_rank_table`'s CSV: names and verdicts as text (``kappa`` ``""``
    kept), probabilities, ROPE and dataset counts as numbers (``NaN`` read as NaN)."""
    numbers = ("p_a_better", "p_equivalent", "p_b_better", "rope", "n_datasets")
    return read_csv(path, required=ACROSS_COLUMNS, numbers=numbers)


def read_intervals(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read back :func:`~pdmeasure.tables.uncertainty.interval_table`'s CSV: values, bounds
    and level as numbers (``NaN`` read as NaN), names, kappa and method as text."""
    return read_csv(path, required=INTERVAL_COLUMNS, numbers=("value", "lower", "upper", "level"))


def read_posterior(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read back :func:`~pdmeasure.tables.uncertainty.posterior_table`'s CSV."""
    numbers = ("bin_lower", "bin_upper", "probability", "p_better", "p_equivalent", "p_worse")
    return read_csv(path, required=POSTERIOR_COLUMNS, numbers=(*numbers, "rope"))


def read_companion(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read back :func:`~pdmeasure.tables.uncertainty.companion_table`'s CSV (a missing rank
    as NaN)."""
    numbers = ("value", "lower", "upper", "rank", "p_first", "level")
    return read_csv(path, required=COMPANION_COLUMNS, numbers=numbers)
