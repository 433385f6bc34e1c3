"""The result matrix of Weka's Experimenter, for any measure: datasets x classifiers.

From the per-fold values of :mod:`~pdmeasure.tables.folds` (``fold_measures.csv``), each cell
holds a classifier's mean and standard deviation over the ``repeats x folds`` results on one
dataset, and a marker where the classifier is significantly better (``v``) or worse (``*``)
than the baseline classifier by the corrected resampled t-test at ``alpha``, computed as
Weka's ``PairedCorrectedTTester`` computes it
(:func:`pdmeasure.stats.experimenter.paired_corrected_comparison`): running means in
(repeat, fold) order, pairs with a NaN skipped, the test-to-training size ratio of the
baseline's folds. :func:`result_counts` gives the ``(v/ /*)`` row: per classifier, the
datasets where it wins, ties and loses against the baseline.

``v`` means *better* on every measure: a higher mean for the measures that are better high
(Weka's ``v``), a lower mean for those better low (error rate, CEN), the direction of
:func:`pdmeasure.stats.lower_is_better`.

The tables are tidy and CSV-ready (:data:`RESULT_MATRIX_COLUMNS`, :data:`COUNT_COLUMNS`);
:mod:`pdmeasure.render.result_matrix` prints them as Markdown, LaTeX and Weka's plain text.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np
import pandas as pd

from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD
from pdmeasure.stats.experimenter import (
    BETTER,
    TIE,
    WORSE,
    paired_corrected_comparison,
    running_stats,
)
from pdmeasure.stats.ranks import lower_is_better
from pdmeasure.tables.io import read_csv, require_columns

#: The columns of ``fold_measures.csv`` that a result matrix reads.
NEEDED_COLUMNS = (
    "engine",
    "dataset",
    "classifier",
    "scheme",
    "repeat",
    "fold",
    "n_test",
    "n_train",
    "measure",
    "kappa",
    "value",
)

#: One row per (dataset, classifier) cell. ``column`` is the classifier's 1-based position
#: (Weka's ``(1)``, ``(2)``, ...); ``n`` the pairs without a missing value; ``mean`` and
#: ``std`` the classifier's over those pairs (times ``scale``); ``difference`` the mean of
#: ``baseline - classifier`` (Weka's sign); ``t`` and ``p_value`` the corrected t-test's;
#: ``marker`` ``v`` / ``*`` / empty; ``outcome`` ``baseline``, ``better``, ``worse``,
#: ``tie`` or ``""`` (no result to compare); ``note`` says why a cell has no test.
RESULT_MATRIX_COLUMNS = (
    "engine",
    "measure",
    "kappa",
    "scheme",
    "baseline",
    "alpha",
    "dataset",
    "classifier",
    "column",
    "n",
    "mean",
    "std",
    "baseline_mean",
    "difference",
    "t",
    "p_value",
    "marker",
    "outcome",
    "lower_is_better",
    "test_train_ratio",
    "scale",
    "note",
)

#: The ``(v/ /*)`` row: per classifier other than the baseline, the datasets where it is
#: significantly better (``wins``), not significantly different (``ties``) and significantly
#: worse (``losses``), and the datasets it was compared on (``n_datasets``).
COUNT_COLUMNS = (
    "engine",
    "measure",
    "kappa",
    "scheme",
    "baseline",
    "alpha",
    "classifier",
    "column",
    "wins",
    "ties",
    "losses",
    "n_datasets",
)

_OUTCOME = {BETTER: "better", WORSE: "worse", TIE: "tie"}
_NUMBERS = (
    "alpha",
    "mean",
    "std",
    "baseline_mean",
    "difference",
    "t",
    "p_value",
    "test_train_ratio",
    "scale",
)


def default_kappa(measure: str, kappa: str | None) -> str:
    """The ``kappa`` of ``measure``'s rows: as given, else ``default`` for pd and ``""`` for
    every other measure."""
    if kappa is not None:
        return kappa
    return DEFAULT_KAPPA if measure == PD else NO_KAPPA


def _selected(
    fold_values: pd.DataFrame, measure: str, kappa: str, scheme: str, engine: str | None
) -> tuple[pd.DataFrame, str]:
    """The rows of one (engine, measure, kappa, scheme), and the engine."""
    require_columns(fold_values.columns, NEEDED_COLUMNS, "fold values")
    kappas = fold_values["kappa"].fillna(NO_KAPPA).astype(str)
    rows = fold_values[
        (fold_values["measure"] == measure) & (kappas == kappa) & (fold_values["scheme"] == scheme)
    ]
    engines = list(pd.unique(rows["engine"]))
    if engine is not None:
        rows, engines = rows[rows["engine"] == engine], [engine]
    if rows.empty:
        present = sorted(
            {
                f"{m} [{k}] ({s})"
                for m, k, s in zip(fold_values["measure"], kappas, fold_values["scheme"])
            }
        )
        raise ValueError(
            f"no fold values of measure {measure!r} at kappa {kappa!r}, scheme {scheme!r}"
            f"{'' if engine is None else f', engine {engine!r}'}; the table holds: "
            f"{', '.join(present[:12])}{' ...' if len(present) > 12 else ''}"
        )
    if len(engines) > 1:
        raise ValueError(
            f"the fold values hold several engines {engines}: pass engine= to pick one"
        )
    if rows.duplicated(["dataset", "classifier", "repeat", "fold"]).any():
        raise ValueError(
            f"{measure} [{kappa}] ({scheme}): a (dataset, classifier, repeat, fold) has two "
            "values; concatenate each dataset's fold_measures.csv once"
        )
    return rows, str(engines[0])


def _order(given: Sequence[str] | None, present: pd.Series, what: str) -> list[str]:
    """The order of ``given`` (default: order of appearance); duplicates are an error."""
    order = [str(x) for x in (pd.unique(present) if given is None else given)]
    if len(set(order)) != len(order):
        raise ValueError(f"{what} lists a name twice: {order}")
    return order


def _dataset_cells(
    rows: pd.DataFrame,
    names: list[str],
    baseline: str,
    *,
    alpha: float,
    higher: bool,
    scale: float,
) -> list[dict]:
    """The cells of one dataset: every classifier of ``names`` against ``baseline``."""
    table = rows.pivot(index=["repeat", "fold"], columns="classifier", values="value")
    table = table.sort_index().reindex(columns=names) * scale  # Weka's order: run, then fold
    base_rows = rows[rows["classifier"] == baseline]
    cells = []
    if base_rows.empty:
        for name in names:
            own = table[name].to_numpy(dtype=float)
            stats = running_stats(own[~np.isnan(own)].tolist())
            cells.append(
                _cell(
                    name,
                    stats.n,
                    stats.mean,
                    stats.std,
                    note=f"no result of the baseline {baseline}",
                )
            )
        return cells
    ratio = float(base_rows["n_test"].sum() / base_rows["n_train"].sum())
    base = table[baseline].to_numpy(dtype=float)
    for name in names:
        result = paired_corrected_comparison(
            base,
            table[name].to_numpy(dtype=float),
            test_train_ratio=ratio,
            alpha=alpha,
            higher_is_better=higher,
        )
        if name == baseline:
            outcome, marker, note = "baseline", TIE, ""
        elif result.n == 0:
            outcome, marker, note = "", TIE, "no fold with a result of both"
        else:
            outcome, marker, note = _OUTCOME[result.marker], result.marker, ""
        cells.append(
            {
                **_cell(name, result.n, result.mean, result.std, note=note),
                "baseline_mean": result.baseline_mean,
                "difference": result.difference,
                "t": result.t,
                "p_value": result.p_value if name != baseline else math.nan,
                "marker": marker,
                "outcome": outcome,
                "test_train_ratio": ratio,
            }
        )
    return cells


def _cell(name: str, n: int, mean: float, std: float, *, note: str) -> dict:
    """A cell without a test (its test's columns NaN or empty)."""
    return {
        "classifier": name,
        "n": n,
        "mean": mean,
        "std": std,
        "baseline_mean": math.nan,
        "difference": math.nan,
        "t": math.nan,
        "p_value": math.nan,
        "marker": TIE,
        "outcome": "",
        "test_train_ratio": math.nan,
        "note": note,
    }


def result_matrix(
    fold_values: pd.DataFrame,
    *,
    measure: str,
    kappa: str | None = None,
    baseline: str | None = None,
    alpha: float = 0.05,
    scheme: str = "cv",
    classifiers: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    engine: str | None = None,
    scale: float = 1.0,
) -> pd.DataFrame:
    r"""Weka's result matrix of one measure: every (dataset, classifier) cell, tidy.

    Parameters
    ----------
    fold_values : DataFrame
        Per-fold values (:data:`~pdmeasure.tables.stats.FOLD_COLUMNS`, the workflow's
        ``results/stats/<engine>/<dataset>/fold_measures.csv``), of one or more datasets.
    measure : str
        A registry measure (``accuracy``, ``preference_driven``, ...).
    kappa : str, optional
        The ``kappa`` of pd's rows: ``default`` (the default for pd) or a kappa-vector
        name; ``""`` for every other measure (its default).
    baseline : str, optional
        The classifier every other one is tested against (default: the first classifier).
    alpha : float
        Two-sided significance level of the corrected resampled t-test.
    scheme : str
        ``cv`` (the configured repeats x folds) or ``cv5x2``.
    classifiers, datasets : sequence of str, optional
        Column and row order (default: order of appearance). A classifier listed without a
        value on a dataset (its fit failed) gets a cell without a result there.
    engine : str, optional
        Needed when ``fold_values`` holds several engines.
    scale : float
        Factor applied to every value before the statistics (100: percentages, as Weka's
        ``Percent_correct``).

    Returns
    -------
    DataFrame
        Columns :data:`RESULT_MATRIX_COLUMNS`, one row per dataset and classifier in the
        given orders. For each classifier :math:`c` and the baseline :math:`b`, over the
        :math:`n` (repeat, fold) pairs where both have a value,

        .. math::

            t = \frac{\bar d}{\sqrt{(1/n + n_{test}/n_{train})\, s_d^2}},\quad
            d_i = b_i - c_i,

        two-sided with :math:`n - 1` degrees of freedom (Nadeau and Bengio 2003), with
        :math:`n_{test}/n_{train}` the sums over the baseline's folds. Where the baseline has
        no value on a dataset, the cells show each classifier's own statistics, no test, and
        a ``note``.

    Raises
    ------
    ValueError
        No rows of the measure, kappa and scheme (the message lists those present); several
        engines without ``engine``; a duplicated fold; a baseline that is not a classifier;
        ``alpha`` outside (0, 1).

    References
    ----------
    Nadeau and Bengio (2003), Machine Learning 52(3):239-281; Bouckaert and Frank (2004),
    PAKDD, LNAI 3056:3-12; Weka 3.9 ``weka.experiment.PairedCorrectedTTester``.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    kappa = default_kappa(measure, kappa)
    rows, engine = _selected(fold_values, measure, kappa, scheme, engine)
    names = _order(classifiers, rows["classifier"], "classifiers")
    order = _order(datasets, rows["dataset"], "datasets")
    base = names[0] if baseline is None else str(baseline)
    if base not in names:
        raise ValueError(f"baseline {base!r} is not one of the classifiers {names}")
    higher = not lower_is_better(measure)
    by_dataset = dict(tuple(rows.groupby("dataset", sort=False)))
    out = []
    for dataset in order:
        part = by_dataset.get(dataset)
        part = rows.iloc[:0] if part is None else part[part["classifier"].isin(names)]
        if part.empty:
            cells = [
                _cell(n, 0, math.nan, math.nan, note="no result on this dataset") for n in names
            ]
        else:
            cells = _dataset_cells(part, names, base, alpha=alpha, higher=higher, scale=scale)
        for cell in cells:
            cell.setdefault("note", "")
            out.append(
                {
                    "engine": engine,
                    "measure": measure,
                    "kappa": kappa,
                    "scheme": scheme,
                    "baseline": base,
                    "alpha": alpha,
                    "dataset": dataset,
                    "column": names.index(cell["classifier"]) + 1,
                    "lower_is_better": not higher,
                    "scale": scale,
                    **cell,
                }
            )
    frame = pd.DataFrame(out, columns=list(RESULT_MATRIX_COLUMNS))
    frame["n"] = frame["n"].astype(int)
    return frame


def result_counts(matrix: pd.DataFrame) -> pd.DataFrame:
    """The ``(v/ /*)`` row of a :func:`result_matrix`: wins, ties and losses against the
    baseline per classifier (columns :data:`COUNT_COLUMNS`, the baseline left out).

    A dataset counts for a classifier when the two were compared there (an outcome of
    ``better``, ``tie`` or ``worse``); ``n_datasets`` is their number.
    """
    require_columns(matrix.columns, RESULT_MATRIX_COLUMNS, "result matrix")
    keys = ["engine", "measure", "kappa", "scheme", "baseline", "alpha"]
    rows = []
    for key, group in matrix.groupby(keys, sort=False):
        for (name, column), cells in group.groupby(["classifier", "column"], sort=False):
            if name == key[4]:
                continue
            outcome = cells["outcome"]
            rows.append(
                {
                    **dict(zip(keys, key)),
                    "classifier": name,
                    "column": column,
                    "wins": int((outcome == "better").sum()),
                    "ties": int((outcome == "tie").sum()),
                    "losses": int((outcome == "worse").sum()),
                    "n_datasets": int(outcome.isin(["better", "tie", "worse"]).sum()),
                }
            )
    return pd.DataFrame(rows, columns=list(COUNT_COLUMNS))


def read_result_matrix(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read back a :func:`result_matrix` written by
    :func:`~pdmeasure.tables.io.write_csv`: names, markers and notes as text (an empty
    marker as ``""``), ``n`` and ``column`` as integers, the statistics as numbers (``NaN``
    as NaN), ``lower_is_better`` as a boolean."""
    frame = read_csv(
        path, numbers=_NUMBERS, integers=("n", "column"), required=RESULT_MATRIX_COLUMNS
    )
    frame["lower_is_better"] = frame["lower_is_better"] == "True"
    return frame[list(RESULT_MATRIX_COLUMNS)]
