"""Uncertainty of the pipeline's numbers: tidy tables from :mod:`pdmeasure.uncertainty`.

Per engine and dataset (rule ``uncertainty``), from draws of the pooled confusion matrices
(``method: posterior``: each actual-class row from its Dirichlet posterior; ``method:
bootstrap``: the pooled CV predictions resampled within each actual class, the same indices for
every classifier):

- :func:`interval_table` -- every registry measure and pd at ``default`` and at each configured
  kappa vector, with its point value (the same as ``measures.csv``) and an equal-tailed
  interval (columns :data:`INTERVAL_COLUMNS`);
- :func:`pairwise_table` -- per measure and ordered pair, P(a better by more than the ROPE),
  P(equivalent within it), P(a worse); and the preference-robust P(pd_a > pd_b) over the kappa
  space (kappa uniform on [0, 1]^C, and uniform over the dataset's kappa grid) (columns
  :data:`PROBABILITY_COLUMNS`);
- :func:`rank_table` -- each classifier's probability of every rank (:data:`RANK_PROBABILITY_COLUMNS`);
- :func:`within_table` -- the correlated Bayesian t-test (Corani & Benavoli 2015) on the
  per-fold scores of every pair (:data:`WITHIN_COLUMNS`);
- :func:`companion_table` -- the ranking table's rows with ``value [lower, upper] (rank)`` and
  each classifier's probability of ranking first (:data:`COMPANION_COLUMNS`).

Across datasets (rule ``uncertainty_across``): :func:`signed_rank_table`, the Bayesian
signed-rank test (Benavoli et al. 2017) per engine, measure and pair, with a :func:`verdict`.

Seeds: :func:`stream_seed` derives each job's seed from ``uncertainty.seed`` and the job's names
alone, so a result does not depend on the cores, the job order or the other datasets of a run.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

import numpy as np
import pandas as pd

from pdmeasure import uncertainty as unc
from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision
from pdmeasure.measures.preference import class_precision_recall
from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD
from pdmeasure.stats import lower_is_better
from pdmeasure.tables.confusion import POOLED, from_long, pooled_matrices
from pdmeasure.tables.measures import pd_rows
from pdmeasure.tables.rankings import TABLE_DECIMALS, competition_ranks, table_rows
from pdmeasure.tables.uncertainty_schema import (
    ACROSS_COLUMNS,
    COMPANION_COLUMNS,
    INTERVAL_COLUMNS,
    KAPPA_GRID,
    KAPPA_UNIFORM,
    POSTERIOR_COLUMNS,
    PROBABILITY_COLUMNS,
    RANK_PROBABILITY_COLUMNS,
    VERDICT_THRESHOLD,
    WITHIN_COLUMNS,
    read_signed_rank,
    verdict,
)

#: Draws of the Bayesian signed-rank test's Dirichlet process per pair (the library default
#: is 50,000; 20,000 keep its Monte Carlo error below 0.004 at a fifth of the cost).
SIGNED_RANK_DRAWS = 20000

#: Bins of each pairwise posterior histogram (:func:`posterior_table`).
POSTERIOR_BINS = 40

#: Draws of per-class precision and recall embedded in each explorer page (its JavaScript
#: recomputes pd's interval at the kappa the reader sets from these).
EXPLORER_DRAWS = 400


def stream_seed(seed: int, *names: str) -> int:
    """The seed of one job's random stream: ``uncertainty.seed`` and the job's names.

    ``numpy.random.SeedSequence`` of the seed and the CRC-32 of each name (stable across
    Python runs, unlike ``hash``); the first 32-bit word of its state. Two jobs never share a
    stream by accident, and a job's draws depend on nothing but these values.
    """
    entropy = [int(seed), *(zlib.crc32(str(name).encode("utf-8")) for name in names)]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


def draw_matrices(
    settings: Mapping,
    *,
    pooled: np.ndarray,
    predictions: pd.DataFrame | None,
    classifiers: Sequence[str],
    classes: Sequence[str],
    seed: int,
) -> np.ndarray:
    """Draws of the pooled matrices of every classifier: ``(draws, K, C, C)``.

    ``posterior``: :func:`pdmeasure.uncertainty.posterior_draws` of ``pooled`` (K, C, C).
    ``bootstrap``: :func:`pdmeasure.uncertainty.bootstrap_draws` of the predictions. Each
    resampled sample brings its prediction of every repeat and classifier (the pooled matrix
    sums the repeats), so the draws are paired across classifiers and repeats alike.
    """
    draws = int(settings["draws"])
    if settings["method"] == "posterior":
        return unc.posterior_draws(pooled, draws, prior=settings.get("prior"), seed=seed)
    if predictions is None:
        raise ValueError("method bootstrap needs the CV predictions")
    y_true, y_pred, repeats = prediction_arrays(predictions, classifiers)
    drawn = unc.bootstrap_draws(y_true, y_pred, labels=list(classes), draws=draws, seed=seed)
    n_classes = len(classes)
    shape = (draws, len(classifiers), repeats, n_classes, n_classes)
    return drawn.reshape(shape).sum(axis=2)


def prediction_arrays(
    predictions: pd.DataFrame, classifiers: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(y_true (n,), y_pred (K * R, n), R)`` of the pooled predictions, aligned by sample.

    Rows of ``y_pred`` run over classifiers, then repeats; column j is sample ``row`` j.

    Raises
    ------
    ValueError
        If a classifier misses a sample of a repeat, or two disagree on a sample's class.
    """
    frame = predictions.sort_values(["classifier", "repeat", "row"], kind="stable")
    repeats = sorted(frame["repeat"].unique())
    rows = np.sort(frame["row"].unique())
    y_true = None
    y_pred = []
    for classifier in classifiers:
        for repeat in repeats:
            part = frame[(frame["classifier"] == classifier) & (frame["repeat"] == repeat)]
            if not np.array_equal(part["row"].to_numpy(), rows):
                raise ValueError(
                    f"predictions of {classifier}, repeat {repeat}: not every sample once; "
                    "the paired bootstrap needs one prediction per sample and repeat"
                )
            actual = part["actual"].to_numpy(dtype=object)
            if y_true is None:
                y_true = actual
            elif not np.array_equal(actual, y_true):
                raise ValueError(f"predictions of {classifier}: actual classes differ")
            y_pred.append(part["predicted"].to_numpy(dtype=object))
    return np.asarray(y_true), np.stack(y_pred), len(repeats)


def _draw_key(measure: str, kappa: str) -> str:
    """The key of :func:`pdmeasure.uncertainty.measure_draws` for a row of ``measures.csv``."""
    if measure != PD or kappa == DEFAULT_KAPPA:
        return measure
    return f"{PD}[{kappa}]"


def value_draws(
    matrices: np.ndarray,
    kappa_vectors: Mapping[str, Sequence[float]],
    *,
    zero_division: float | str,
) -> dict[tuple[str, str], np.ndarray]:
    """``(measure, kappa name) -> (draws, K)`` for every row of ``measures.csv``."""
    vectors = {str(name): np.asarray(v, dtype=float) for name, v in kappa_vectors.items()}
    drawn = unc.measure_draws(matrices, kappas=vectors, zero_division=zero_division)
    keys = [(name, NO_KAPPA) for name in drawn if name != PD and "[" not in name]
    keys += [(PD, DEFAULT_KAPPA), *((PD, name) for name in vectors)]
    return {key: np.asarray(drawn[_draw_key(*key)], dtype=float) for key in keys}


@dataclass(frozen=True)
class Scope:
    """What the tables of one engine and dataset share.

    Attributes
    ----------
    keys : mapping of str to str
        The ``engine`` and ``dataset`` cells of every row.
    classifiers : sequence of str
        The classifiers, in table order (the order of the draws' last axis).
    kappa_vectors : mapping of str to sequence of float
        The dataset's named kappa vectors (the pd rows besides the default).
    zero_division : {"nan", 0.0, 1.0}
        The measures' zero-division policy.
    """

    keys: Mapping[str, str]
    classifiers: Sequence[str]
    kappa_vectors: Mapping[str, Sequence[float]] = field(default_factory=dict)
    zero_division: float | str = ZERO_DIVISION_DEFAULT


def interval_table(
    pooled: np.ndarray,
    draws: Mapping[tuple[str, str], np.ndarray],
    scope: Scope,
    *,
    settings: Mapping,
) -> pd.DataFrame:
    """Point value and interval of every measure row of every classifier.

    The point value is computed as in ``measures.csv`` (:func:`pd_rows` on the pooled
    matrices); the interval is :func:`pdmeasure.uncertainty.interval` of the draws at
    ``uncertainty.level``.
    """
    keys, classifiers = scope.keys, scope.classifiers
    level = float(settings["level"])
    parts = []
    for measure, kappa, written, values in pd_rows(
        pooled, dict(scope.kappa_vectors), zero_division=scope.zero_division
    ):
        lower, upper = unc.interval(draws[(measure, kappa)], level, axis=0)
        parts.append(
            pd.DataFrame(
                {
                    **keys,
                    "classifier": list(classifiers),
                    "measure": measure,
                    "kappa": kappa,
                    "kappa_values": written,
                    "value": np.asarray(values, dtype=float),
                    "lower": np.asarray(lower, dtype=float),
                    "upper": np.asarray(upper, dtype=float),
                    "level": level,
                    "method": settings["method"],
                }
            )
        )
    table = pd.concat(parts, ignore_index=True)
    order = {name: i for i, name in enumerate(classifiers)}
    table = table.sort_values(
        "classifier", key=lambda c: c.map(order), kind="stable", ignore_index=True
    )
    return table[list(INTERVAL_COLUMNS)]


def _pair_rows(keys, measure, kappa, classifiers, better, equivalent, worse, rope, method):
    return [
        {
            **keys,
            "measure": measure,
            "kappa": kappa,
            "classifier_a": classifiers[a],
            "classifier_b": classifiers[b],
            "p_better": float(better[a, b]),
            "p_equivalent": float(equivalent[a, b]),
            "p_worse": float(worse[a, b]),
            "rope": rope,
            "method": method,
        }
        for a, b in permutations(range(len(classifiers)), 2)
    ]


def pairwise_table(
    matrices: np.ndarray,
    draws: Mapping[tuple[str, str], np.ndarray],
    scope: Scope,
    *,
    kappa_grid: Sequence[float] | None,
    settings: Mapping,
    seed: int,
) -> pd.DataFrame:
    """Pairwise probabilities of every measure row, then the preference-robust rows.

    Per (measure, kappa) and ordered pair (a, b): ``p_better`` = P(a better than b by more
    than ``rope``), ``p_equivalent`` = P(|a - b| <= rope), ``p_worse`` = P(b better by more
    than ``rope``), the direction of "better" from :func:`pdmeasure.stats.lower_is_better`.
    The rows with ``measure`` pd and ``kappa`` :data:`KAPPA_UNIFORM` (and :data:`KAPPA_GRID`
    when the dataset has a grid) hold P(pd_a > pd_b) jointly over the matrix draws and kappa
    (:func:`pdmeasure.uncertainty.preference_robust`), with ``rope`` 0 and ``p_equivalent`` the
    probability of a tie.
    """
    keys, classifiers = scope.keys, scope.classifiers
    rope, method = float(settings["rope"]), settings["method"]
    rows = []
    for (measure, kappa), values in draws.items():
        better, equivalent, worse = unc.pairwise_probabilities(
            values, rope=rope, higher_is_better=not lower_is_better(measure)
        )
        rows += _pair_rows(
            keys, measure, kappa, classifiers, better, equivalent, worse, rope, method
        )
    regions: list[tuple[str, str, list[float] | None]] = [(KAPPA_UNIFORM, "uniform", None)]
    if kappa_grid is not None:
        regions.append((KAPPA_GRID, "grid", list(kappa_grid)))
    for name, region, grid in regions:
        wins = np.asarray(
            unc.preference_robust(
                matrices, region=region, grid=grid, seed=seed, zero_division=scope.zero_division
            ),
            dtype=float,
        )
        ties = 1.0 - wins - wins.T
        ties = np.where(ties < 1e-12, 0.0, ties)  # rounding of 1 - p - q, not ties
        rows += _pair_rows(keys, PD, name, classifiers, wins, ties, wins.T, 0.0, method)
    return pd.DataFrame(rows, columns=list(PROBABILITY_COLUMNS))


def posterior_table(
    values: np.ndarray,
    scope: Scope,
    *,
    rope: float,
    measure: str = PD,
    kappa: str = DEFAULT_KAPPA,
) -> pd.DataFrame:
    """The posterior of each pairwise difference ``a - b`` (a before b in order) as a
    histogram of :data:`POSTERIOR_BINS` bins (probability per bin), with the pair's
    P(a better), P(equivalent) and P(b better) of :func:`pairwise_table` repeated on its rows.

    ``values`` are the draws ``(draws, K)`` of ``measure`` at ``kappa`` (pd at the default
    kappa, the figure's measure, by default).
    """
    keys, classifiers = scope.keys, scope.classifiers
    better, equivalent, worse = unc.pairwise_probabilities(
        values, rope=rope, higher_is_better=not lower_is_better(measure)
    )
    parts = []
    for a, b in combinations(range(len(classifiers)), 2):
        diff = values[:, a] - values[:, b]
        diff = diff[np.isfinite(diff)]
        counts, edges = np.histogram(diff, bins=POSTERIOR_BINS)
        parts.append(
            pd.DataFrame(
                {
                    **keys,
                    "measure": measure,
                    "kappa": kappa,
                    "classifier_a": classifiers[a],
                    "classifier_b": classifiers[b],
                    "bin_lower": edges[:-1],
                    "bin_upper": edges[1:],
                    "probability": counts / max(len(diff), 1),
                    "p_better": float(better[a, b]),
                    "p_equivalent": float(equivalent[a, b]),
                    "p_worse": float(worse[a, b]),
                    "rope": rope,
                }
            )
        )
    if not parts:
        return pd.DataFrame(columns=list(POSTERIOR_COLUMNS))
    return pd.concat(parts, ignore_index=True)[list(POSTERIOR_COLUMNS)]


def rank_table(draws: Mapping[tuple[str, str], np.ndarray], scope: Scope) -> pd.DataFrame:
    """P(classifier k has rank r), r = 1 (best) .. K, per measure row; ties share ranks."""
    keys, classifiers = scope.keys, scope.classifiers
    parts = []
    n = len(classifiers)
    for (measure, kappa), values in draws.items():
        probs = np.asarray(
            unc.rank_probabilities(values, higher_is_better=not lower_is_better(measure)),
            dtype=float,
        )
        parts.append(
            pd.DataFrame(
                {
                    **keys,
                    "measure": measure,
                    "kappa": kappa,
                    "classifier": np.repeat(list(classifiers), n),
                    "rank": np.tile(np.arange(1, n + 1), n),
                    "probability": probs.ravel(),
                }
            )
        )
    return pd.concat(parts, ignore_index=True)[list(RANK_PROBABILITY_COLUMNS)]


def _oriented(probs: Sequence[float], measure: str) -> tuple[float, float, float]:
    """baycomp's (p_left, p_rope, p_right) of ``y - x`` as (P(x better), P(equal), P(y better)).

    The library follows baycomp: "right" is ``y - x > rope``, y's score the larger.
    """
    left, rope, right = (float(p) for p in probs)
    return (right, rope, left) if lower_is_better(measure) else (left, rope, right)


def fold_matrices(
    confusion: pd.DataFrame, classifiers: Sequence[str], classes: Sequence[str]
) -> tuple[np.ndarray, int]:
    """Per-fold matrices ``(K, F, C, C)`` of the CV (every repeat's folds in order), and R."""
    folds = confusion[confusion["fold"].astype(str) != POOLED].copy()
    folds["fold_number"] = folds["fold"].astype(int)
    stacks = []
    for classifier in classifiers:
        part = folds[folds["classifier"] == classifier]
        groups = part.groupby(["repeat", "fold_number"], sort=True)
        stacks.append(np.stack([from_long(group, classes) for _, group in groups]))
    return np.stack(stacks), int(folds["repeat"].nunique())


def within_table(folds: np.ndarray, runs: int, scope: Scope, *, rope: float) -> pd.DataFrame:
    """The correlated Bayesian t-test on the per-fold scores of every pair (a < b in order).

    ``folds`` is (K, F, C, C) from :func:`fold_matrices`; the scores are every registry
    measure and pd row, computed per fold (pd's default kappa is each fold's class shares).
    ``runs`` is the number of CV repeats (the test's correlation is 1 / folds per repeat).
    A pair with a NaN fold score (``zero_division: nan``) gets NaN probabilities.
    """
    keys, classifiers = scope.keys, scope.classifiers
    n_classifiers, n_folds = folds.shape[:2]
    flat = folds.reshape(n_classifiers * n_folds, *folds.shape[2:])
    rows = []
    for measure, kappa, _, values in pd_rows(
        flat, dict(scope.kappa_vectors), zero_division=scope.zero_division
    ):
        scores = np.asarray(values, dtype=float).reshape(n_classifiers, n_folds)
        for a, b in combinations(range(n_classifiers), 2):
            x, y = scores[a], scores[b]
            if np.isnan(x).any() or np.isnan(y).any():
                probs = (np.nan, np.nan, np.nan)
            else:
                probs = _oriented(unc.correlated_ttest(x, y, rope=rope, runs=runs), measure)
            rows.append(
                {
                    **keys,
                    "measure": measure,
                    "kappa": kappa,
                    "classifier_a": classifiers[a],
                    "classifier_b": classifiers[b],
                    "p_a_better": probs[0],
                    "p_equivalent": probs[1],
                    "p_b_better": probs[2],
                    "rope": rope,
                    "n_folds": n_folds,
                    "runs": runs,
                    "verdict": verdict(*probs, classifiers[a], classifiers[b]),
                }
            )
    return pd.DataFrame(rows, columns=list(WITHIN_COLUMNS))


def companion_table(
    intervals: pd.DataFrame,
    ranks: pd.DataFrame,
    *,
    classifiers: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]],
    decimals: int = TABLE_DECIMALS,
) -> pd.DataFrame:
    """The ranking table's rows (:func:`table_rows`) with interval and P(rank 1).

    ``rank`` is the ranking table's (competition ranks of the values printed at ``decimals``);
    ``p_first`` the probability of rank 1 from ``ranks`` (:func:`rank_table`).
    """
    value = intervals.set_index(["measure", "kappa", "classifier"])
    first = ranks[ranks["rank"] == 1].set_index(["measure", "kappa", "classifier"])["probability"]
    parts = []
    for label, measure, kappa in table_rows(kappa_vectors):
        cells = value.loc[[(measure, kappa, c) for c in classifiers]]
        parts.append(
            pd.DataFrame(
                {
                    "engine": cells["engine"].to_numpy(),
                    "dataset": cells["dataset"].to_numpy(),
                    "row": label,
                    "classifier": list(classifiers),
                    "value": cells["value"].to_numpy(),
                    "lower": cells["lower"].to_numpy(),
                    "upper": cells["upper"].to_numpy(),
                    "rank": competition_ranks(cells["value"].to_numpy(), decimals),
                    "p_first": first.loc[[(measure, kappa, c) for c in classifiers]].to_numpy(),
                    "level": cells["level"].to_numpy(),
                    "method": cells["method"].to_numpy(),
                }
            )
        )
    table = pd.concat(parts, ignore_index=True)
    table["rank"] = table["rank"].astype("Int64")
    return table[list(COMPANION_COLUMNS)]


def dataset_tables(
    confusion: pd.DataFrame,
    predictions: pd.DataFrame | None,
    *,
    engine: str,
    dataset: str,
    classes: Sequence[str],
    classifiers: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]],
    kappa_grid: Sequence[float] | None,
    settings: Mapping,
    zero_division: ZeroDivision,
) -> tuple[dict[str, pd.DataFrame], np.ndarray]:
    """Every uncertainty table of one engine and dataset (rule ``uncertainty``), and the
    matrix draws they come from.

    Parameters
    ----------
    confusion : DataFrame
        The long confusion table of the engine and dataset (every repeat and fold).
    predictions : DataFrame or None
        The per-sample predictions (``settings["method"] == "bootstrap"`` only).
    engine, dataset : str
    classes, classifiers : sequence of str
        The configured class order and the classifiers, in table order.
    kappa_vectors : mapping
        The dataset's named kappa vectors.
    kappa_grid : sequence of float or None
        The dataset's kappa grid (the ``kappa_grid`` rows of the pairwise table).
    settings : mapping
        The config block ``uncertainty`` (method, draws, prior, level, rope, seed).
    zero_division : {"nan", 0.0, 1.0}

    Returns
    -------
    tables : dict of DataFrame
        ``intervals``, ``ranks``, ``pairwise``, ``within``, ``posterior`` and ``table_csv``
        (the companion of the ranking table).
    matrices : ndarray, shape (D, K, C, C)
        The drawn matrices.
    """
    scope = Scope({"engine": engine, "dataset": dataset}, classifiers, kappa_vectors, zero_division)
    pooled, matrices, seed = _drawn(confusion, predictions, scope, classes, settings)
    draws = value_draws(matrices, kappa_vectors, zero_division=zero_division)
    folds = fold_matrices(confusion, classifiers, classes)
    tables = {
        "intervals": interval_table(pooled, draws, scope, settings=settings),
        "ranks": rank_table(draws, scope),
        "pairwise": pairwise_table(
            matrices, draws, scope, kappa_grid=kappa_grid, settings=settings, seed=seed
        ),
        "within": within_table(*folds, scope, rope=settings["rope"]),
        "posterior": posterior_table(draws[(PD, DEFAULT_KAPPA)], scope, rope=settings["rope"]),
    }
    tables["table_csv"] = companion_table(
        tables["intervals"], tables["ranks"], classifiers=classifiers, kappa_vectors=kappa_vectors
    )
    return tables, matrices


def _drawn(
    confusion: pd.DataFrame,
    predictions: pd.DataFrame | None,
    scope: Scope,
    classes: Sequence[str],
    settings: Mapping,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The pooled matrices (K, C, C) of :func:`dataset_tables`, their draws (D, K, C, C) and
    the seed of the engine and dataset's random stream."""
    engine, dataset = scope.keys["engine"], scope.keys["dataset"]
    by_key = pooled_matrices(confusion, {dataset: classes})
    pooled = np.stack([by_key[(engine, dataset, c)] for c in scope.classifiers])
    seed = stream_seed(settings["seed"], engine, dataset)
    matrices = draw_matrices(
        settings,
        pooled=pooled,
        predictions=predictions,
        classifiers=scope.classifiers,
        classes=classes,
        seed=seed,
    )
    return pooled, matrices, seed


def explorer_draws(
    matrices: np.ndarray,
    *,
    classifiers: Sequence[str],
    settings: Mapping,
    zero_division: float | str,
) -> dict:
    """Per-class precision and recall of the first :data:`EXPLORER_DRAWS` draws, for the
    explorer page: ``{"classifiers": [...], "level", "method", "draws", "precision":
    [K][D][C], "recall": [K][D][C]}``.

    pd is linear in them (paper 000, eq. 30), so the page computes pd's draws, interval and
    probability of ranking first at any kappa. Values keep full float64 precision.
    """
    sub = np.asarray(matrices[:EXPLORER_DRAWS], dtype=float)
    zd = 0.0 if zero_division == "nan" else zero_division
    precision, recall = class_precision_recall(sub, zero_division=zd)
    return {
        "classifiers": list(classifiers),
        "level": float(settings["level"]),
        "method": str(settings["method"]),
        "draws": int(sub.shape[0]),
        "precision": np.moveaxis(precision, 1, 0).tolist(),
        "recall": np.moveaxis(recall, 1, 0).tolist(),
    }


def signed_rank_table(
    measures_frame: pd.DataFrame,
    *,
    comparisons: Sequence[tuple[str, str]],
    classifiers: Mapping[str, Sequence[str]],
    rope: float,
    seed: int,
) -> pd.DataFrame:
    """The Bayesian signed-rank test per engine, compared (measure, kappa) and pair (a < b).

    One pair's scores are its two classifiers' values on every dataset where both are
    defined (``measures.csv``); ``comparisons`` are the (measure, kappa) keys compared across
    datasets (:func:`pdmeasure.tables.stats.comparison_keys`). Fewer than two datasets
    give NaN probabilities and the verdict ``no data``. Each test's seed is
    :func:`stream_seed` of ``seed`` and its engine, measure, kappa and pair.
    """
    rows = []
    for engine, names in classifiers.items():
        sub = measures_frame[measures_frame["engine"] == engine]
        # Every (measure, kappa) block's datasets x classifiers at once, each block's rows in
        # dataset order, as a pivot of the block alone gives them.
        grids = sub.pivot_table(
            index=["measure", "kappa", "dataset"],
            columns="classifier",
            values="value",
            aggfunc="first",
        )
        blocks = set(grids.index.droplevel("dataset"))
        for measure, kappa in comparisons:
            if (measure, kappa) in blocks:
                grid = grids.xs((measure, kappa), level=("measure", "kappa"))
                values = grid.reindex(columns=list(names)).to_numpy(dtype=float)
            else:
                values = np.full((0, len(names)), np.nan)
            for i, a in enumerate(names):
                for j in range(i + 1, len(names)):
                    both = ~np.isnan(values[:, i]) & ~np.isnan(values[:, j])
                    pair = (values[both, i], values[both, j])
                    rows.append(
                        _signed_rank_row(pair, engine, measure, kappa, a, names[j], rope, seed)
                    )
    return pd.DataFrame(rows, columns=list(ACROSS_COLUMNS))


def _signed_rank_row(pair, engine, measure, kappa, a, b, rope, seed) -> dict:
    """One test's row: ``pair`` holds a's and b's scores on the datasets where both have one."""
    x, y = pair
    probs: tuple[float, float, float] = (np.nan, np.nan, np.nan)
    if len(x) >= 2:
        own = stream_seed(seed, engine, measure, kappa, a, b)
        probs = _oriented(
            unc.signed_rank(x, y, rope=rope, draws=SIGNED_RANK_DRAWS, seed=own), measure
        )
    return {
        "engine": engine,
        "measure": measure,
        "kappa": kappa,
        "classifier_a": a,
        "classifier_b": b,
        "p_a_better": probs[0],
        "p_equivalent": probs[1],
        "p_b_better": probs[2],
        "rope": rope,
        "n_datasets": len(x),
        "verdict": verdict(*probs, a, b),
    }


__all__ = [
    "KAPPA_GRID",
    "KAPPA_UNIFORM",
    "VERDICT_THRESHOLD",
    "DEFAULT_KAPPA",
    "PD",
    "ACROSS_COLUMNS",
    "COMPANION_COLUMNS",
    "INTERVAL_COLUMNS",
    "PROBABILITY_COLUMNS",
    "POSTERIOR_COLUMNS",
    "RANK_PROBABILITY_COLUMNS",
    "WITHIN_COLUMNS",
    "companion_table",
    "draw_matrices",
    "explorer_draws",
    "fold_matrices",
    "interval_table",
    "pairwise_table",
    "read_signed_rank",
    "posterior_table",
    "rank_table",
    "signed_rank_table",
    "stream_seed",
    "value_draws",
    "verdict",
    "within_table",
]
