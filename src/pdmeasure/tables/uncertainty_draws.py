"""The matrices that the uncertainty tables are computed from, and their random streams.

- :func:`stream_seed` -- each job's seed, from ``uncertainty.seed`` and the job's names alone;
- :func:`draw_matrices` -- draws of the pooled confusion matrices (``method: posterior`` or
  ``bootstrap``), with :func:`prediction_arrays` for the paired bootstrap;
- :func:`value_draws` -- every registry measure and pd row of ``measures.csv`` on the draws;
- :func:`fold_matrices` -- the per-fold matrices of the cross-validation;
- :func:`explorer_draws` -- per-class precision and recall of the first draws, for the
  explorer page;
- :class:`Scope` -- what the tables of one engine and dataset share.

The tables themselves are in :mod:`pdmeasure.tables.uncertainty` and
:mod:`pdmeasure.tables.uncertainty_comparisons`.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from pdmeasure import uncertainty as unc
from pdmeasure._validation import ZERO_DIVISION_DEFAULT
from pdmeasure.measures.preference import class_precision_recall
from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD
from pdmeasure.tables.confusion import POOLED, grouped_from_long

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
        stacks.append(grouped_from_long(part, groups.ngroup().to_numpy(), groups.ngroups, classes))
    return np.stack(stacks), int(folds["repeat"].nunique())


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
