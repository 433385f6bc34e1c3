"""Every test across datasets, from ``measures.csv``, as four tidy tables.

For each engine and (measure, kappa): average ranks, the omnibus tests of
:mod:`~pdmeasure.stats.omnibus`, the post-hoc tests of :mod:`~pdmeasure.stats.posthoc` and
the Nemenyi critical difference for the CD diagram.

pd rows are grouped across datasets by the kappa vector itself: pd at ``default`` (the
class-share rule, one definition on every dataset) is always pooled; pd at a named vector is
pooled under that name only when the vector has the same values on every dataset that
configures the name. Kappa vectors are positional, so ``p1`` on a 4-class dataset and ``p1``
on a 5-class one are different preferences: such a comparison is not run, and the omnibus
table says why (:func:`~pdmeasure.tables.stats.not_pooled_note`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure.measures.weights import PD
from pdmeasure.stats.omnibus import TestResult, friedman, friedman_aligned_ranks, quade
from pdmeasure.stats.posthoc import (
    holm_control,
    nemenyi,
    nemenyi_critical_difference,
    wilcoxon_pairwise,
)
from pdmeasure.stats.ranks import average_ranks, lower_is_better
from pdmeasure.tables.io import require_columns
from pdmeasure.tables.measures import MEASURE_COLUMNS
from pdmeasure.tables.stats import (
    CD_COLUMNS,
    OMNIBUS_COLUMNS,
    OMNIBUS_TESTS,
    POSTHOC_COLUMNS,
    RANK_COLUMNS,
    AcrossTables,
    differing_kappa_vectors,
    drop_nan_rows,
    not_pooled_note,
    warning_label,
)

_log = logging.getLogger(__name__)


def _drop_nan_blocks(table: pd.DataFrame, what: str) -> tuple[pd.DataFrame, list[str]]:
    """Drop datasets (rows) with a NaN value, warning with the measure, dataset, classifier."""
    table, dropped = drop_nan_rows(
        table,
        lambda dataset, classifiers: (
            f"{what}: dataset {dataset!r} excluded, NaN value for {classifiers}"
        ),
        stacklevel=3,
    )
    return table, [f"{dataset} (NaN: {classifiers})" for dataset, classifiers in dropped]


def _append_note(notes, extra: str) -> list[str]:
    """Each note followed by ``extra`` (``"; "``-separated)."""
    return [f"{x}; {extra}" if x else extra for x in notes]


def _rank_tables(keys: dict, table: pd.DataFrame, *, lower: bool, alpha: float):
    """The average-rank rows and the critical-difference rows of one comparison."""
    names = [str(c) for c in table.columns]
    n, k = table.shape
    scores = table.to_numpy(dtype=float)
    ranks = average_ranks(scores, lower_is_better=lower) if n else np.full(k, np.nan)
    common = {**keys, "classifier": names, "average_rank": ranks}
    rank_rows = pd.DataFrame(
        {
            **common,
            "n_datasets": n,
            "datasets": ";".join(map(str, table.index)),
            "lower_is_better": lower,
        }
    )
    cd = nemenyi_critical_difference(k, n, alpha) if n >= 2 else math.nan
    cd_rows = pd.DataFrame(
        {
            **common,
            "cd": cd,
            "n_datasets": n,
            "n_classifiers": k,
            "alpha": alpha,
            "lower_is_better": lower,
        }
    )
    return rank_rows, cd_rows


def _tests(keys: dict, table: pd.DataFrame, *, lower: bool, alpha: float):
    """Omnibus results and the post-hoc rows; with N < 2 datasets, NaN results that say so."""
    n, k = table.shape
    if n < 2:
        note = f"N = {n} dataset(s): a comparison across datasets needs N >= 2"
        nan = math.nan
        results = [TestResult(t, nan, nan, nan, nan, n, k, nan, note) for t in OMNIBUS_TESTS]
        return results, pd.DataFrame(columns=POSTHOC_COLUMNS)
    names = [str(c) for c in table.columns]
    scores = table.to_numpy(dtype=float)
    results = [
        *friedman(scores, lower_is_better=lower),
        friedman_aligned_ranks(scores, lower_is_better=lower),
        quade(scores, lower_is_better=lower),
    ]
    posthoc = pd.DataFrame(
        [
            *nemenyi(scores, names, alpha=alpha, lower_is_better=lower),
            *holm_control(scores, names, alpha=alpha, lower_is_better=lower),
            *wilcoxon_pairwise(scores, names, alpha=alpha, lower_is_better=lower),
        ]
    )
    for key, value in reversed(keys.items()):
        posthoc.insert(0, key, value)
    return results, posthoc


def _drop_unfitted(
    table: pd.DataFrame, unfitted: Mapping[str, Sequence[str]]
) -> tuple[pd.DataFrame, list[str]]:
    """Drop the datasets (rows) where a compared classifier has no value because its fit
    failed (``unfitted``: dataset -> those classifiers)."""
    gone = [dataset for dataset in table.index if unfitted.get(dataset)]
    notes = [f"{dataset} (no fit: {', '.join(unfitted[dataset])})" for dataset in gone]
    return table.drop(index=gone), notes


def _compare_one(
    table: pd.DataFrame,
    *,
    keys: dict,
    alpha: float,
    unfitted: Mapping[str, Sequence[str]] | None = None,
    left_out: str = "",
) -> AcrossTables:
    measure = keys["measure"]
    lower = lower_is_better(measure)
    table, no_fit = _drop_unfitted(table, unfitted or {})
    table, excluded = _drop_nan_blocks(
        table, f"{keys['engine']}: {warning_label(measure, keys['kappa'])}"
    )
    excluded = no_fit + excluded
    extra = "; ".join(
        note for note in (left_out, f"excluded: {'; '.join(excluded)}" if excluded else "") if note
    )
    rank_rows, cd_rows = _rank_tables(keys, table, lower=lower, alpha=alpha)
    results, posthoc = _tests(keys, table, lower=lower, alpha=alpha)
    if extra and table.shape[0] >= 2:  # (N < 2: no post-hoc rows to annotate)
        posthoc["note"] = _append_note(posthoc["note"], extra)
    omnibus = pd.DataFrame([{**keys, **r.as_row()} for r in results])
    omnibus["significant"] = omnibus["p_value"] <= alpha
    if extra:
        omnibus["note"] = _append_note(omnibus["note"], extra)
    return AcrossTables(rank_rows, omnibus, posthoc, cd_rows)


def _not_pooled(keys: dict, note: str, n_classifiers: int) -> AcrossTables:
    """Omnibus rows of a comparison that is not run, with the reason as their note.

    No ranks, post-hoc or CD rows: average ranks over different vectors would be the very
    pooling that is refused. ``n_datasets`` is 0 (no dataset was pooled), which also keeps
    these rows out of :func:`~pdmeasure.render.stats_report.power_table`.
    """
    omnibus = pd.DataFrame(
        [
            {
                **keys,
                **TestResult(
                    t, math.nan, math.nan, math.nan, math.nan, 0, n_classifiers, math.nan, note
                ).as_row(),
            }
            for t in OMNIBUS_TESTS
        ]
    )
    omnibus["significant"] = False
    return AcrossTables(
        pd.DataFrame(columns=RANK_COLUMNS),
        omnibus,
        pd.DataFrame(columns=POSTHOC_COLUMNS),
        pd.DataFrame(columns=CD_COLUMNS),
    )


def compare_across_datasets(
    frame: pd.DataFrame,
    *,
    alpha: float,
    kappa_vectors: Mapping[str, Mapping[str, Sequence[float]]] | None = None,
    classifiers: Mapping[str, Sequence[str]] | None = None,
) -> AcrossTables:
    """Every test across datasets, for every engine and every (measure, kappa) of ``frame``.

    Parameters
    ----------
    frame : DataFrame
        ``measures.csv`` rows (:data:`~pdmeasure.tables.measures.MEASURE_COLUMNS`).
    alpha : float
        Significance level.
    kappa_vectors : mapping, optional
        Dataset -> {name -> vector} (config ``kappa_vectors``). pd rows are grouped by the
        ``kappa`` name of ``measures.csv``. A name is compared across datasets only if its
        vector has the same values on every dataset configuring it; otherwise
        (:func:`~pdmeasure.tables.stats.differing_kappa_vectors`) its comparison is
        not run: it gets only omnibus rows with NaN results, ``n_datasets`` 0 and a ``note``
        such as ``p1 differs across datasets (car: [0, 0.8, 0.6, 1], nursery: [0, 0, 0, 1,
        0]); not pooled``, and a logging warning names the vector and the datasets. The
        output ``kappa`` column holds ``""``, ``"default"`` or a name.
    classifiers : mapping, optional
        Engine -> classifier order (config ``classifiers``); default: order of appearance.

    Returns
    -------
    AcrossTables
        A dataset whose value is NaN for some classifier is excluded from that measure's
        tests with a :class:`~pdmeasure.tables.stats.NaNExcludedWarning` naming measure,
        dataset and classifier; the exclusion is also written in the ``note`` column. A
        classifier without rows on a dataset (its fit failed there, rule cross_validate's
        fits.csv) excludes that dataset in the same way (``note``: ``excluded: car (no fit:
        RandomForest)``), so each comparison uses the datasets where all its classifiers
        finished; a classifier without rows on any dataset is left out of its engine's
        comparisons (``note``: ``left out, no fit on any dataset: ...``), and an engine with
        fewer than two classifiers left gets omnibus rows that say so, and no others. A
        (measure, kappa) present on a single dataset gets average ranks and omnibus rows
        saying that N = 1 allows no test. The (measure, kappa) keys that get ranks and CD
        rows are those of :func:`~pdmeasure.tables.stats.comparison_keys` (for the datasets
        present), plus names on a single dataset and unnamed vectors.
    """
    require_columns(frame.columns, MEASURE_COLUMNS, "measures table")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    named = frame.copy()
    named["value"] = named["value"].astype("float64")
    notes = _refused_names(named, kappa_vectors or {})
    parts: list[AcrossTables] = []
    for engine, by_engine in named.groupby("engine", sort=False):
        order = _classifier_order(engine, by_engine, classifiers or {})
        if order:
            parts += _compare_engine(engine, by_engine, order, notes, alpha)
    if named.empty:
        raise ValueError("the measures table is empty")
    return _assembled(parts, alpha)


def _refused_names(named: pd.DataFrame, kappa_vectors: Mapping) -> dict[str, str]:
    """Kappa names whose vectors differ across datasets -> the note saying so; a warning
    for each such name that the table has pd rows of."""
    notes = {
        name: not_pooled_note(name, vectors)
        for name, vectors in differing_kappa_vectors(kappa_vectors).items()
    }
    present = set(named.loc[named["measure"] == PD, "kappa"])
    for name, note in notes.items():
        if name in present:
            _log.warning("preference_driven at kappa vector %r: %s", name, note)
    return notes


def _classifier_order(engine: str, rows: pd.DataFrame, classifiers: Mapping) -> list[str]:
    """The engine's configured classifier order (else order of appearance); empty, with a
    warning, when it has a single classifier, so nothing to compare."""
    order = list(classifiers.get(engine) or pd.unique(rows["classifier"]))
    unknown = set(rows["classifier"]) - set(order)
    if unknown:
        raise ValueError(f"engine {engine}: classifiers {sorted(unknown)} not configured")
    if len(order) < 2:  # nothing to compare: no ranks, tests or CD rows for this engine
        _log.warning(
            "engine %s has a single classifier (%s): no comparison across datasets",
            engine,
            ", ".join(order),
        )
        return []
    return order


def _compare_engine(
    engine: str, rows: pd.DataFrame, order: list[str], notes: dict[str, str], alpha: float
) -> list[AcrossTables]:
    """The tables of every (measure, kappa) of one engine's rows."""
    present = set(rows["classifier"])
    never = [name for name in order if name not in present]
    order = [name for name in order if name in present]
    left_out = f"left out, no fit on any dataset: {', '.join(never)}" if never else ""
    if never:
        _log.warning("engine %s: %s (their fits failed)", engine, left_out)
    unfitted = _unfitted(rows, order)
    if unfitted:
        _log.warning(
            "engine %s: left out of every comparison across datasets, a fit failed there: %s",
            engine,
            "; ".join(f"{d} (no fit: {', '.join(c)})" for d, c in unfitted.items()),
        )
    parts = []
    for (measure, kappa), group in rows.groupby(["measure", "kappa"], sort=False):
        if group.duplicated(["dataset", "classifier"]).any():
            raise ValueError(f"{engine}/{measure}/{kappa}: duplicate dataset-classifier rows")
        keys = {"engine": engine, "measure": measure, "kappa": kappa}
        if measure == PD and kappa in notes:
            parts.append(_not_pooled(keys, notes[kappa], len(order)))
            continue
        if len(order) < 2:
            note = f"fewer than two classifiers with a finished fit; {left_out}"
            parts.append(_not_pooled(keys, note, len(order)))
            continue
        table = group.pivot(index="dataset", columns="classifier", values="value")
        table = table.reindex(index=pd.unique(group["dataset"]), columns=order)
        parts.append(
            _compare_one(table, keys=keys, alpha=alpha, unfitted=unfitted, left_out=left_out)
        )
    return parts


def _unfitted(rows: pd.DataFrame, order: Sequence[str]) -> dict[str, list[str]]:
    """Dataset -> the classifiers of ``order`` without a row there (their fits failed), for
    the datasets of ``rows`` that lack some."""
    fitted = rows.groupby("dataset", sort=False)["classifier"].agg(set)
    out = {}
    for dataset, names in fitted.items():
        missing = [name for name in order if name not in names]
        if missing:
            out[str(dataset)] = missing
    return out


def _assembled(parts: list[AcrossTables], alpha: float) -> AcrossTables:
    """The parts' tables concatenated in their schemas' column order, with
    ``can_reach_alpha`` on the omnibus and post-hoc tables."""
    columns = (RANK_COLUMNS, OMNIBUS_COLUMNS, POSTHOC_COLUMNS, CD_COLUMNS)
    tables = []
    for i, cols in enumerate(columns):
        frames = [p[i] for p in parts if len(p[i])]
        table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(cols))
        if "can_reach_alpha" in cols:
            table["can_reach_alpha"] = _can_reach(table["min_p"], alpha)
        tables.append(table.reindex(columns=list(cols)))
    return AcrossTables(*tables)


def _can_reach(min_p: pd.Series, alpha: float) -> pd.Series:
    """Whether a test can be significant at all with its N and K (``min_p <= alpha``): a
    perfectly consistent ranking would still not reach alpha where it is False; ``pd.NA``
    where ``min_p`` is unknown."""
    values = pd.to_numeric(min_p, errors="coerce")
    return (values <= alpha).astype("boolean").mask(values.isna())
