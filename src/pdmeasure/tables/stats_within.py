"""Paired tests of every classifier pair within one dataset, and the significance table.

Input: the per-fold measure values of :mod:`~pdmeasure.tables.folds` (the pipeline's
repeated CV, and optionally 5 x 2-fold CV) and the CV's per-sample predictions. Each test of
:mod:`~pdmeasure.stats.paired` runs on every pair; p-values are Holm-adjusted over the pairs
of one (measure, kappa, test).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from pdmeasure.stats.paired import (
    PairedResult,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    mcnemar,
    paired_ttest_5x2cv,
)
from pdmeasure.stats.posthoc import holm
from pdmeasure.stats.ranks import better_classifier, lower_is_better
from pdmeasure.tables.folds import check_paired_folds
from pdmeasure.tables.stats import (
    MCNEMAR_MEASURES,
    PAIRWISE_COLUMNS,
    WITHIN_TESTS,
    drop_nan_rows,
    warning_label,
)


def _fold_tables(values: pd.DataFrame) -> dict[tuple[str, str], pd.DataFrame]:
    """(measure, kappa) -> its (repeat, fold) x classifier table of values.

    Each table is what a ``pivot_table`` of that (measure, kappa)'s rows gives: the first
    non-NaN value of each cell, the rows' own folds and classifiers, both sorted. All tables
    come from one grouping of every row: on krkopt's 5 x 2-fold CV values one grouping took
    34 ms, a pivot per (measure, kappa) 7.6 ms each, 24 of them per scheme.
    """
    keys = ["measure", "kappa", "repeat", "fold", "classifier"]
    cells = values.groupby(keys, sort=True, dropna=False)["value"].first()
    wide = cells.unstack("classifier")
    present = cells.index.droplevel(["repeat", "fold"]).unique()
    tables = {}
    for measure, kappa in present.droplevel("classifier").unique():
        columns = [c for c in wide.columns if (measure, kappa, c) in present]
        tables[measure, kappa] = wide.loc[(measure, kappa), columns]
    return tables


def _fold_matrix(table: pd.DataFrame, what: str) -> pd.DataFrame:
    """A table of :func:`_fold_tables` without its folds that hold a NaN (warned)."""

    def message(fold: Any, classifiers) -> str:  # fold: the (repeat, fold) index tuple
        return f"{what}: repeat {fold[0]} fold {fold[1]} excluded, NaN for {classifiers}"

    return drop_nan_rows(table, message, stacklevel=3)[0]


def _pair_row(keys, test, a, b, diff, lower, result: PairedResult) -> dict:
    return {
        **keys,
        "test": test,
        "classifier_a": a,
        "classifier_b": b,
        "mean_difference": diff,
        "better": better_classifier(a, b, diff, lower),
        "statistic": result.statistic,
        "df1": result.df1,
        "df2": result.df2,
        "p_value": result.p_value,
        "n": result.n,
        "note": result.note,
    }


def _columns(table: pd.DataFrame, dtype=float) -> dict[str, np.ndarray]:
    """Column name -> its values: each pair's tests read two columns, and selecting them from
    the frame anew for every pair cost more than the tests."""
    return {name: table[name].to_numpy(dtype) for name in table.columns}


def _correct_predictions(cv_predictions: pd.DataFrame | None) -> dict[str, np.ndarray] | None:
    """Classifier -> repeat 1's out-of-fold hits, by row (McNemar's input), or None."""
    if cv_predictions is None:
        return None
    check_paired_folds(cv_predictions)
    first = cv_predictions[cv_predictions["repeat"] == cv_predictions["repeat"].min()]
    hits = first.assign(ok=first["actual"] == first["predicted"]).pivot(
        index="row", columns="classifier", values="ok"
    )
    return _columns(hits, bool)


def _mean(d) -> float:
    return float(d.mean()) if d.size else math.nan


def _cv5x2_result(test: str, d5) -> PairedResult:
    """``cv5x2_t`` or ``cv5x2_f`` on the 10 differences; NaN when a fold was dropped."""
    if d5.size == 10:
        func = paired_ttest_5x2cv if test == "cv5x2_t" else combined_ftest_5x2cv
        return func(d5.reshape(5, 2))
    # a fold was dropped for a NaN value (warned by _fold_matrix)
    note = f"needs all 10 folds, {d5.size} without NaN"
    return PairedResult(math.nan, math.nan, math.nan, math.nan, d5.size, note)


@dataclass
class _MeasureFolds:
    """The inputs of every pair's tests for one (measure, kappa)."""

    keys: dict
    lower: bool
    table: dict[str, np.ndarray]  # classifier -> its values on the CV's (repeat, fold)s
    ratio: float  # mean n_test / n_train
    five: dict[str, np.ndarray] | None  # the same of 5 x 2-fold CV
    correct: dict[str, np.ndarray] | None  # McNemar's hits, for the measures it applies to


def _pair_rows(m: _MeasureFolds, a: str, b: str, exact_below: int) -> list[dict]:
    """Every test of the pair (a, b) for one measure: corrected t, 5x2cv t and F, McNemar."""
    d = m.table[a] - m.table[b]
    rows = [
        _pair_row(
            m.keys, "corrected_t", a, b, _mean(d), m.lower, corrected_resampled_ttest(d, m.ratio)
        )
    ]
    if m.five is not None:
        d5 = m.five[a] - m.five[b]
        for test in ("cv5x2_t", "cv5x2_f"):
            rows.append(_pair_row(m.keys, test, a, b, _mean(d5), m.lower, _cv5x2_result(test, d5)))
    if m.correct is not None:
        ca, cb = m.correct[a], m.correct[b]
        sign = -1.0 if m.keys["measure"] == "error_rate" else 1.0
        result = mcnemar(ca, cb, exact_below=exact_below)
        rows.append(
            _pair_row(m.keys, "mcnemar", a, b, float(ca.mean() - cb.mean()) * sign, m.lower, result)
        )
    return rows


def _measure_folds(keys: dict, group: pd.DataFrame, tables, five_tables, correct) -> _MeasureFolds:
    """The fold tables of one (measure, kappa) of the CV and of 5 x 2-fold CV (the
    :func:`_fold_tables` of each, or None without 5 x 2-fold CV)."""
    measure, kappa = keys["measure"], keys["kappa"]
    what = f"{keys['engine']}/{keys['dataset']}: {warning_label(measure, kappa)}"
    five = None
    if five_tables is not None:
        empty = pd.DataFrame(index=pd.MultiIndex.from_tuples([], names=["repeat", "fold"]))
        five = _columns(_fold_matrix(five_tables.get((measure, kappa), empty), what + " (5x2cv)"))
    return _MeasureFolds(
        keys=keys,
        lower=lower_is_better(measure),
        table=_columns(_fold_matrix(tables[measure, kappa], what)),
        ratio=float((group["n_test"] / group["n_train"]).mean()),
        five=five,
        correct=correct if measure in MCNEMAR_MEASURES else None,
    )


def compare_within_dataset(
    cv_values: pd.DataFrame,
    *,
    alpha: float,
    cv_predictions: pd.DataFrame | None = None,
    cv5x2_values: pd.DataFrame | None = None,
    classifiers: Sequence[str] | None = None,
    mcnemar_exact_below: int = 25,
) -> pd.DataFrame:
    """Paired tests of every classifier pair, per measure, on one (engine, dataset).

    Parameters
    ----------
    cv_values : DataFrame
        :func:`~pdmeasure.tables.folds.fold_measure_values` of the pipeline's (repeated)
        CV: the corrected resampled t-test (``corrected_t``) uses all ``folds x repeats``
        differences and the mean ``n_test / n_train``.
    alpha : float
    cv_predictions : DataFrame, optional
        The same CV's predictions: McNemar's test (``mcnemar``) on repeat 1's out-of-fold
        predictions, reported for accuracy and error rate.
    cv5x2_values : DataFrame, optional
        :func:`~pdmeasure.tables.folds.fold_measure_values` of 5 repetitions of 2-fold CV:
        ``cv5x2_t`` and ``cv5x2_f``.
    classifiers : sequence of str, optional
        Pair order (default: order of appearance).
    mcnemar_exact_below : int
        See :func:`mcnemar`.

    Returns
    -------
    DataFrame
        Columns :data:`PAIRWISE_COLUMNS`. ``mean_difference`` is a - b in measure units;
        ``p_adjusted`` is Holm's over the pairs of one (measure, kappa, test);
        ``significant`` is ``p_adjusted <= alpha``.
    """
    for frame, name in ((cv_values, "cv_values"), (cv5x2_values, "cv5x2_values")):
        if frame is not None and frame[["engine", "dataset"]].drop_duplicates().shape[0] != 1:
            raise ValueError(f"{name} must hold exactly one engine and dataset")
    engine, dataset = cv_values["engine"].iloc[0], cv_values["dataset"].iloc[0]
    names = list(classifiers or pd.unique(cv_values["classifier"]))
    correct = _correct_predictions(cv_predictions)
    tables = _fold_tables(cv_values)
    five_tables = None if cv5x2_values is None else _fold_tables(cv5x2_values)
    rows = []
    for (measure, kappa), group in cv_values.groupby(["measure", "kappa"], sort=False):
        keys = {"engine": engine, "dataset": dataset, "measure": measure, "kappa": kappa}
        folds = _measure_folds(keys, group, tables, five_tables, correct)
        for a, b in combinations(names, 2):
            rows += _pair_rows(folds, a, b, mcnemar_exact_below)
    if not rows:  # fewer than two classifiers: no pair to test
        return pd.DataFrame(columns=list(PAIRWISE_COLUMNS))
    out = pd.DataFrame(rows)
    out["p_adjusted"] = out.groupby(["measure", "kappa", "test"], sort=False)["p_value"].transform(
        lambda p: holm(p.to_numpy())
    )
    out["significant"] = out["p_adjusted"] <= alpha
    return out[list(PAIRWISE_COLUMNS)]


def significance_table(pairwise: pd.DataFrame) -> pd.DataFrame:
    """One row per (engine, dataset, measure, kappa, pair): Holm-adjusted p of every test.

    Columns: keys, ``better`` (by the CV's mean difference), ``p_<test>`` for each test of
    :data:`WITHIN_TESTS` present, and ``significant_by`` listing the tests whose adjusted
    p-value is at most alpha (``;``-separated, empty if none).
    """
    keys = ["engine", "dataset", "measure", "kappa", "classifier_a", "classifier_b"]
    if pairwise.empty:
        return pd.DataFrame(columns=keys + ["better", "significant_by"])
    wide = pairwise.pivot_table(
        index=keys, columns="test", values="p_adjusted", aggfunc="first", sort=False
    )
    tests = [t for t in WITHIN_TESTS if t in wide.columns]
    wide = wide[tests].add_prefix("p_").reset_index()
    main = pairwise.drop_duplicates(keys).set_index(keys)["better"]
    wide.insert(len(keys), "better", main.reindex(pd.MultiIndex.from_frame(wide[keys])).values)
    sig = (
        pairwise[pairwise["significant"]]
        .groupby(keys, sort=False)["test"]
        .agg(lambda t: ";".join(t))
    )
    wide["significant_by"] = sig.reindex(pd.MultiIndex.from_frame(wide[keys])).fillna("").values
    return wide
