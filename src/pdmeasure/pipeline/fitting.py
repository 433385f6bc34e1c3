"""One unit's model fitting (engine x dataset x classifier), as the job of rule
cross_validate runs it for each classifier of its engine and dataset: its k-fold CV and, when
asked, its 5 x 2-fold CV, each fitted here or assembled from the unit's part files (rule
cross_validate_part, :mod:`pdmeasure.pipeline.parts`); both give the same files, byte for
byte.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from pdmeasure.pipeline.cv5x2 import cross_validate_5x2
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, Engine
from pdmeasure.pipeline.parts import Part, fit_log_line
from pdmeasure.pipeline.run import process_cpu_seconds
from pdmeasure.tables.confusion import cv_tables
from pdmeasure.tables.folds import read_predictions
from pdmeasure.tables.io import write_csv


@dataclass(frozen=True)
class UnitFiles:
    """Where a unit's job writes its files: ``cv5x2`` is None when the run has no 5 x 2-fold
    CV (``stats.cv5x2: false``)."""

    predictions: str
    confusion: str
    cv5x2: str | None = None


def configure_engine(
    engine: Engine, data: pd.DataFrame, spec: DatasetSpec, *, threads: int, mem_mb: int | None
) -> None:
    """Size ``engine``'s runtime for a fitting job (:meth:`Engine.configure`): the job's
    ``threads`` and ``mem_mb``, and the size of its data, rows x classes, which the Weka engine
    chooses its compilers from. Call before the engine starts (``prepare``, the first fit)."""
    engine.configure(threads=threads, mem_mb=mem_mb, cells=len(data) * len(spec.classes))


def assembled(paths: Sequence[str], scheme: str) -> pd.DataFrame:
    """The predictions of ``scheme``'s part files among ``paths``, concatenated in fold order."""
    own = [path for path in paths if Part.parse(path).scheme == scheme]
    return pd.concat([read_predictions(path) for path in own], ignore_index=True)


def fit_unit(
    engine: Engine,
    data: pd.DataFrame | None,
    spec: DatasetSpec,
    keys: Mapping[str, str],
    params: Mapping[str, Any],
    cv: CVSpec,
    cv5x2_seed: int | None,
    parts: Sequence[str],
    files: UnitFiles,
    log: logging.Logger,
) -> None:
    """Fit (or assemble) one unit's cross-validations and write its files.

    Parameters
    ----------
    engine : Engine
        The unit's engine, configured for the job (:meth:`Engine.configure`).
    data : DataFrame or None
        The dataset's canonical table; None only when every scheme comes from ``parts``.
    spec : DatasetSpec
    keys : mapping
        ``engine``, ``dataset`` and ``classifier`` of the unit.
    params : mapping
        The classifier's configured parameters.
    cv : CVSpec
        The k-fold CV.
    cv5x2_seed : int or None
        Seed of the 5 x 2-fold CV; None when the run has none.
    parts : sequence of str
        The unit's part files, in scheme and fold order; empty when it runs whole.
    files : UnitFiles
    log : logging.Logger
        The job's log: what is fitted, and each scheme's fitting CPU time
        (:func:`~pdmeasure.pipeline.parts.fit_log_line`).
    """
    classifier = keys["classifier"]
    split = {Part.parse(path).scheme for path in parts}
    if "cv" not in split or (cv5x2_seed is not None and "cv5x2" not in split):
        if data is None:
            raise ValueError(f"{classifier}: the data are needed to fit a scheme")
        log.info("%s: %d rows, %s, params %s", dict(keys), len(data), cv, dict(params))
        engine.prepare(params)

    if "cv" in split:
        folds = assembled(parts, "cv")
        predictions, confusion = cv_tables(folds.drop(columns=list(keys)), spec.classes, **keys)
        log.info("cv: %d predictions from %d parts", len(predictions), len(parts))
    else:
        started = process_cpu_seconds()
        predictions = engine.cross_validate(data, spec, classifier, params, cv)
        total = cv.folds * cv.repeats
        log.info(fit_log_line("cv", process_cpu_seconds() - started, total, total))
        predictions, confusion = cv_tables(predictions, spec.classes, **keys)
    write_csv(predictions, files.predictions)
    write_csv(confusion, files.confusion)
    log.info("accuracy %.4f", (predictions["actual"] == predictions["predicted"]).mean())

    if cv5x2_seed is None or files.cv5x2 is None:
        return
    if "cv5x2" in split:
        pred = assembled(parts, "cv5x2")
    else:
        started = process_cpu_seconds()
        pred = cross_validate_5x2(keys["engine"], data, spec, classifier, params, seed=cv5x2_seed)
        log.info(fit_log_line("cv5x2", process_cpu_seconds() - started, 10, 10))
    write_csv(pred, files.cv5x2)
    log.info("cv5x2: %d predictions -> %s", len(pred), files.cv5x2)
