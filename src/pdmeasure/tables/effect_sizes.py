"""Effect sizes of every classifier pair across datasets, from ``measures.csv``.

Per engine, (measure, kappa) and pair (a before b in classifier order): Cliff's delta of a's
values over b's on the datasets where both have a value
(:func:`pdmeasure.stats.effect_size.cliffs_delta`), oriented so that a positive value says
*a is better* (negated for the measures that are better low), and its magnitude (Romano et
al. 2006). The verdicts of :mod:`pdmeasure.render.verdict` read it beside the ranks, the
omnibus and post-hoc tests of :mod:`~pdmeasure.tables.stats_across` and the Bayesian
signed-rank table of :mod:`~pdmeasure.tables.uncertainty_comparisons`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence

import pandas as pd

from pdmeasure.stats.effect_size import cliffs_delta, cliffs_delta_magnitude
from pdmeasure.stats.ranks import lower_is_better
from pdmeasure.tables.io import read_csv, require_columns
from pdmeasure.tables.measures import MEASURE_COLUMNS, paired_blocks

#: The name of the effect size in the ``effect`` column.
CLIFFS_DELTA = "cliffs_delta"

EFFECT_COLUMNS = (
    "engine",
    "measure",
    "kappa",
    "classifier_a",
    "classifier_b",
    "effect",
    "value",
    "magnitude",
    "n_datasets",
)


def effect_size_table(
    measures_frame: pd.DataFrame,
    *,
    classifiers: Mapping[str, Sequence[str]] | None = None,
    comparisons: Sequence[tuple[str, str]] | None = None,
) -> pd.DataFrame:
    r"""Cliff's delta of every pair of classifiers over the datasets, per engine and measure.

    Parameters
    ----------
    measures_frame : DataFrame
        ``measures.csv`` rows (:data:`~pdmeasure.tables.measures.MEASURE_COLUMNS`).
    classifiers : mapping, optional
        Engine -> classifier order (default: order of appearance); pairs are (a, b) with a
        before b.
    comparisons : sequence of (measure, kappa), optional
        The keys compared across datasets (:func:`pdmeasure.tables.stats.comparison_keys`);
        default: every (measure, kappa) of the frame.

    Returns
    -------
    DataFrame
        Columns :data:`EFFECT_COLUMNS`. ``value`` is
        :math:`\delta = \frac{1}{n^2}\sum_{i,j}\operatorname{sign}(a_i - b_j)` over the
        :math:`n` datasets where both have a value (``n_datasets``), negated where lower is
        better, so positive means a is better; NaN, with an empty ``magnitude``, when no
        dataset has both.
    """
    require_columns(measures_frame.columns, MEASURE_COLUMNS, "measures table")
    frame = measures_frame.assign(kappa=measures_frame["kappa"].fillna("").astype(str))
    rows = []
    for engine, sub in frame.groupby("engine", sort=False):
        names = list((classifiers or {}).get(str(engine)) or pd.unique(sub["classifier"]))
        keys = comparisons
        if keys is None:
            keys = list(dict.fromkeys(zip(sub["measure"], sub["kappa"])))
        for measure, kappa, a, b, x, y in paired_blocks(sub, keys, names):
            sign = -1.0 if lower_is_better(measure) else 1.0
            delta = sign * cliffs_delta(x, y) + 0.0 if len(x) else math.nan
            rows.append(
                {
                    "engine": engine,
                    "measure": measure,
                    "kappa": kappa,
                    "classifier_a": a,
                    "classifier_b": b,
                    "effect": CLIFFS_DELTA,
                    "value": delta,
                    "magnitude": cliffs_delta_magnitude(delta),
                    "n_datasets": len(x),
                }
            )
    return pd.DataFrame(rows, columns=list(EFFECT_COLUMNS))


def read_effect_sizes(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read back :func:`effect_size_table`'s CSV (``kappa`` ``""`` kept, ``NaN`` as NaN)."""
    return read_csv(path, numbers=("value",), integers=("n_datasets",), required=EFFECT_COLUMNS)
