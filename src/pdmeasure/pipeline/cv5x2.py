"""Dietterich's 5 x 2-fold cross-validation of one classifier, the input of the 5x2cv tests.

The folds are the engine's (:mod:`pdmeasure.pipeline.engines`); the predictions it returns
become per-fold measure values in :mod:`pdmeasure.tables.folds`.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, get_engine
from pdmeasure.pipeline.engines.base import Only
from pdmeasure.tables.folds import CV5X2_FOLDS, CV5X2_REPEATS, PREDICTION_KEYS


def cross_validate_5x2(
    engine: str,
    data: pd.DataFrame,
    dataset: DatasetSpec,
    classifier: str,
    params: Mapping,
    *,
    seed: int,
    only: Only = None,
) -> pd.DataFrame:
    """Run 5 x 2-fold CV of one classifier through the engine interface (5x2cv tests).

    Calls ``get_engine(engine).cross_validate(data, dataset, classifier, params,
    CVSpec(folds=2, seed=seed, repeats=5))``: every classifier of a dataset gets the same
    folds (repeat r shuffles with ``seed + r - 1``), which :func:`check_paired_folds`
    verifies before any paired test.

    Parameters
    ----------
    engine : str
        Engine name (see :func:`pdmeasure.pipeline.engines.get_engine`).
    data : DataFrame
        The canonical data table of the dataset.
    dataset : DatasetSpec
        Target column and configured class order.
    classifier : str
        Classifier name, as configured for the engine.
    params : mapping
        The classifier's configured parameters.
    seed : int
        CV seed of the pipeline (config ``cv.seed``).
    only : tuple of (int, int), optional
        ``(repeat, fold)`` pairs: those folds alone, exactly their rows of the whole run (see
        :meth:`pdmeasure.pipeline.engines.base.Engine.cross_validate`).

    Returns
    -------
    DataFrame
        Columns :data:`PREDICTION_KEYS` (engine, dataset, classifier, repeat, fold, row,
        actual, predicted).
    """
    runner = get_engine(engine)
    runner.check_available()
    spec = CVSpec(folds=CV5X2_FOLDS, seed=int(seed), repeats=CV5X2_REPEATS)
    pred = runner.cross_validate(data, dataset, classifier, params, spec, only=only)
    pred = pred.assign(engine=engine, dataset=dataset.name, classifier=classifier)
    return pred[list(PREDICTION_KEYS)]
