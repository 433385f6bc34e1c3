"""Paired tests of every classifier pair within one dataset, and the significance table.

Input: the per-fold measure values of :mod:`~pdmeasure.pipeline.stats_folds` (the pipeline's
repeated CV, and optionally 5 x 2-fold CV) and the CV's per-sample predictions. Each test of
:mod:`~pdmeasure.stats.paired` runs on every pair; p-values are Holm-adjusted over the pairs
of one (measure, kappa, test).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import pandas as pd

from pdmeasure.pipeline.stats_folds import check_paired_folds
from pdmeasure.pipeline.stats_tables import (
    MCNEMAR_MEASURES,
    PAIRWISE_COLUMNS,
    WITHIN_TESTS,
    drop_nan_rows,
    warning_label,
)
from pdmeasure.stats.paired import (
    PairedResult,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    mcnemar,
    paired_ttest_5x2cv,
)
from pdmeasure.stats.posthoc import holm
from pdmeasure.stats.ranks import better_classifier, lower_is_better


def _fold_matrix(values: pd.DataFrame, what: str) -> pd.DataFrame:
    """(repeat, fold) x classifier table of one measure, folds with a NaN dropped (warned)."""
    table = values.pivot_table(
        index=["repeat", "fold"],
        columns="classifier",
        values="value",
        aggfunc="first",
        dropna=False,
    )
    return drop_nan_rows(
        table,
        lambda fold, classifiers: (
            f"{what}: repeat {fold[0]} fold {fold[1]} excluded, NaN for {classifiers}"
        ),
        stacklevel=3,
    )[0]


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
        :func:`~pdmeasure.pipeline.stats_folds.fold_measure_values` of the pipeline's (repeated)
        CV: the corrected resampled t-test (``corrected_t``) uses all ``folds x repeats``
        differences and the mean ``n_test / n_train``.
    alpha : float
    cv_predictions : DataFrame, optional
        The same CV's predictions: McNemar's test (``mcnemar``) on repeat 1's out-of-fold
        predictions, reported for accuracy and error rate.
    cv5x2_values : DataFrame, optional
        :func:`~pdmeasure.pipeline.stats_folds.fold_measure_values` of 5 repetitions of 2-fold CV:
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
    correct = None
    if cv_predictions is not None:
        check_paired_folds(cv_predictions)
        first = cv_predictions[cv_predictions["repeat"] == cv_predictions["repeat"].min()]
        correct = first.assign(ok=first["actual"] == first["predicted"]).pivot(
            index="row", columns="classifier", values="ok"
        )
    rows = []
    for (measure, kappa), group in cv_values.groupby(["measure", "kappa"], sort=False):
        keys = {"engine": engine, "dataset": dataset, "measure": measure, "kappa": kappa}
        lower = lower_is_better(measure)
        what = f"{engine}/{dataset}: {warning_label(measure, kappa)}"
        table = _fold_matrix(group, what)
        ratio = float((group["n_test"] / group["n_train"]).mean())
        five = None
        if cv5x2_values is not None:
            sub = cv5x2_values[
                (cv5x2_values["measure"] == measure) & (cv5x2_values["kappa"] == kappa)
            ]
            five = _fold_matrix(sub, what + " (5x2cv)")
        for a, b in combinations(names, 2):
            d = (table[a] - table[b]).to_numpy()
            rows.append(
                _pair_row(
                    keys,
                    "corrected_t",
                    a,
                    b,
                    float(d.mean()) if d.size else math.nan,
                    lower,
                    corrected_resampled_ttest(d, ratio),
                )
            )
            if five is not None:
                d5 = (five[a] - five[b]).to_numpy()
                for test, func in (
                    ("cv5x2_t", paired_ttest_5x2cv),
                    ("cv5x2_f", combined_ftest_5x2cv),
                ):
                    if d5.size == 10:
                        result = func(d5.reshape(5, 2))
                    else:  # a fold was dropped for a NaN value (warned by _fold_matrix)
                        result = PairedResult(
                            math.nan,
                            math.nan,
                            math.nan,
                            math.nan,
                            d5.size,
                            f"needs all 10 folds, {d5.size} without NaN",
                        )
                    rows.append(
                        _pair_row(
                            keys,
                            test,
                            a,
                            b,
                            float(d5.mean()) if d5.size else math.nan,
                            lower,
                            result,
                        )
                    )
            if correct is not None and measure in MCNEMAR_MEASURES:
                ca, cb = correct[a].to_numpy(bool), correct[b].to_numpy(bool)
                diff = float(ca.mean() - cb.mean()) * (-1.0 if measure == "error_rate" else 1.0)
                rows.append(
                    _pair_row(
                        keys,
                        "mcnemar",
                        a,
                        b,
                        diff,
                        lower,
                        mcnemar(ca, cb, exact_below=mcnemar_exact_below),
                    )
                )
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
