"""One unit's model fitting (engine x dataset x classifier), as the job of rule
cross_validate runs it for each classifier of its engine and dataset: its k-fold CV and, when
asked, its 5 x 2-fold CV, each fitted here or assembled from the unit's part files (rule
cross_validate_part, :mod:`pdmeasure.pipeline.parts`); both give the same files, byte for
byte.

A classifier whose fit fails does not fail the job (:func:`fit_or_record`, config
``cv.on_failure: record``): the failure and its reason are its row of the job's status table
(:mod:`pdmeasure.tables.fits`), and it leaves no files. With ``cv.time_limit`` a scheme is
fitted fold by fold, each fold exactly as within the whole scheme, and stopped between folds
once its fitting has taken longer (:class:`~pdmeasure.pipeline.failures.FitTimeLimit`).
A part job (:func:`fit_part_or_record`) follows the same policy for its own folds: a failure
is written to its part file instead of predictions, and the dataset's job records the
classifier as failed with that reason (:class:`~pdmeasure.pipeline.failures.PartFailed`).
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pdmeasure.pipeline.cv5x2 import cross_validate_5x2
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, Engine
from pdmeasure.pipeline.engines.base import Only
from pdmeasure.pipeline.failures import FitTimeLimit, PartFailed, failure_reason
from pdmeasure.pipeline.parts import Part, fit_log_line
from pdmeasure.pipeline.run import process_cpu_seconds
from pdmeasure.tables.confusion import cv_tables, with_keys
from pdmeasure.tables.fits import FAILED, OK
from pdmeasure.tables.folds import CV5X2_FOLDS, CV5X2_REPEATS, read_predictions
from pdmeasure.tables.io import write_csv

#: The values of config ``cv.on_failure``: record a failed fit and go on, or fail the job.
ON_FAILURE = ("record", "stop")


@dataclass(frozen=True)
class UnitFiles:
    """Where a unit's job writes its files: ``cv5x2`` is None when the run has no 5 x 2-fold
    CV (``stats.cv5x2: false``)."""

    predictions: str
    confusion: str
    cv5x2: str | None = None


@dataclass(frozen=True)
class FitPolicy:
    """What a fitting job does with a fit that fails or runs long (config ``cv.time_limit``
    and ``cv.on_failure``).

    Attributes
    ----------
    time_limit : float or None
        Seconds (wall clock) of fitting per classifier and scheme, checked between folds;
        None: no limit.
    on_failure : {"record", "stop"}
        ``record``: the failure is a row of the job's status table and the job goes on;
        ``stop``: the job fails.
    """

    time_limit: float | None = None
    on_failure: str = "record"

    def __post_init__(self) -> None:
        if self.on_failure not in ON_FAILURE:
            raise ValueError(
                f"cv.on_failure is {self.on_failure!r}; set it to one of {list(ON_FAILURE)}"
            )
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(
                f"cv.time_limit is {self.time_limit!r}; set it to a number of seconds above "
                "0, or null for no limit"
            )


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


#: How the time limit's message names each scheme.
_SCHEME_NAMES = {"cv": "k-fold CV", "cv5x2": "5 x 2-fold CV"}


def fit_scheme(
    fit: Callable[[Only], pd.DataFrame],
    scheme: str,
    repeats: int,
    folds: int,
    time_limit: float | None = None,
    only: Only = None,
) -> pd.DataFrame:
    """The predictions of one scheme, or of its folds ``only`` (a part job's): ``fit(only)``
    (those folds at once), or with ``time_limit`` ``fit(((repeat, fold),))`` fold by fold,
    concatenated in order.

    The engines compute any fold alone exactly as within the whole cross-validation (the
    part jobs rely on it), so both give the same table.

    Raises
    ------
    FitTimeLimit
        The folds fitted so far took more than ``time_limit`` seconds (wall clock) and folds
        remain; checked after each fold, so the fold running when the limit passes is
        finished first. A scheme whose last fold ends past the limit is complete and kept.
    """
    if time_limit is None:
        return fit(only)
    if only is None:
        pairs = [(r, f) for r in range(1, repeats + 1) for f in range(1, folds + 1)]
        of = f"{len(pairs)}"
    else:
        pairs = list(only)
        of = f"{len(pairs)} of this part"
    started = time.monotonic()
    frames = []
    for done, pair in enumerate(pairs, start=1):
        frames.append(fit((pair,)))
        elapsed = time.monotonic() - started
        if elapsed > time_limit and done < len(pairs):
            raise FitTimeLimit(
                f"time limit: the {_SCHEME_NAMES.get(scheme, scheme)} stopped after fold "
                f"{done} of {of}, its fitting having taken {elapsed:.1f} s, more than "
                f"`cv.time_limit` = {time_limit:g} s (checked between folds). Raise "
                "`cv.time_limit` in config.yaml, or set it to null for no limit"
            )
    return pd.concat(frames, ignore_index=True)


def scheme_predictions(
    engine: Engine,
    data: pd.DataFrame,
    spec: DatasetSpec,
    keys: Mapping[str, str],
    params: Mapping[str, Any],
    scheme: str,
    cv: CVSpec,
    seed: int | None,
    time_limit: float | None = None,
    only: Only = None,
) -> pd.DataFrame:
    """:func:`fit_scheme` of one unit's ``scheme``: ``"cv"``, the k-fold CV ``cv``;
    ``"cv5x2"``, the 5 x 2-fold CV seeded with ``seed``; all its folds, or ``only`` those."""
    classifier = keys["classifier"]
    if scheme == "cv5x2":
        if seed is None:
            raise ValueError(f"{classifier}: the 5 x 2-fold CV needs a seed (`cv.seed`)")
        cv5x2_seed: int = seed  # narrowed here: the lambda would see int | None
        return fit_scheme(
            lambda pairs: cross_validate_5x2(
                keys["engine"], data, spec, classifier, params, seed=cv5x2_seed, only=pairs
            ),
            scheme,
            CV5X2_REPEATS,
            CV5X2_FOLDS,
            time_limit,
            only,
        )
    return fit_scheme(
        lambda pairs: engine.cross_validate(data, spec, classifier, params, cv, only=pairs),
        scheme,
        cv.repeats,
        cv.folds,
        time_limit,
        only,
    )


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
    time_limit: float | None = None,
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
    time_limit : float, optional
        Seconds of fitting per scheme that this job fits (config ``cv.time_limit``): each
        such scheme is fitted fold by fold (:func:`fit_scheme`); None: no limit.

    Raises
    ------
    FitTimeLimit
        A scheme passed ``time_limit``.
    PartFailed
        A part file of ``parts`` records a failed fit (:func:`part_failure`).
    """
    classifier = keys["classifier"]
    for path in parts:
        reason = part_failure(path)
        if reason is not None:
            raise PartFailed(f"part {Part.parse(path).name}: {reason}")
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
        predictions = scheme_predictions(
            engine, data, spec, keys, params, "cv", cv, None, time_limit
        )
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
        pred = scheme_predictions(
            engine, data, spec, keys, params, "cv5x2", cv, cv5x2_seed, time_limit
        )
        log.info(fit_log_line("cv5x2", process_cpu_seconds() - started, 10, 10))
    write_csv(pred, files.cv5x2)
    log.info("cv5x2: %d predictions -> %s", len(pred), files.cv5x2)


def fit_or_record(
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
    *,
    policy: FitPolicy,
    mem_mb: int | None = None,
    log_path: str | None = None,
) -> dict[str, object]:
    """:func:`fit_unit` with ``policy``'s time limit; a failure recorded or raised.

    A fit that raises (any exception: Python's, or Java's through JPype, an
    ``OutOfMemoryError`` included; :class:`FitTimeLimit`; or :class:`PartFailed`) leaves none
    of the unit's files: its classifier folders are deleted. With ``policy.on_failure == "record"`` the failure is
    logged with its traceback and returned as the unit's status row; with ``"stop"`` the
    exception is raised again and fails the job.

    Parameters
    ----------
    engine, data, spec, keys, params, cv, cv5x2_seed, parts, files, log
        As :func:`fit_unit`.
    policy : FitPolicy
    mem_mb : int, optional
        The job's memory, quoted in the reason of an out-of-memory failure.
    log_path : str, optional
        The job's log file, where the reason of any other failure points to its traceback.

    Returns
    -------
    dict
        The unit's row of the status table (:data:`pdmeasure.tables.fits.FITS_COLUMNS`):
        ``status`` ``ok`` or ``failed`` and the ``reason`` of a failure, which names the
        setting that fixes it (the fitting CPU time is in the job's log and benchmark file:
        the table holds no timing, so that identical runs give identical files).
    """
    status, reason = OK, ""
    try:
        fit_unit(
            engine,
            data,
            spec,
            keys,
            params,
            cv,
            cv5x2_seed,
            parts,
            files,
            log,
            time_limit=policy.time_limit,
        )
    except Exception as exc:
        _remove_unit_files(files, keys["classifier"])
        if policy.on_failure == "stop":
            raise
        log.exception("%s: the fit failed; the other classifiers go on", dict(keys))
        status = FAILED
        reason = failure_reason(
            exc, keys, mem_mb=mem_mb, log_path=log_path, folder=_fitting_folder(files)
        )
        log.error("%s: %s", keys["classifier"], reason)
    return {
        **{key: keys[key] for key in ("engine", "dataset", "classifier")},
        "status": status,
        "reason": reason,
    }


#: The header of a part file that records a failed fit instead of predictions.
PART_FAILURE_HEADER = "status,reason"


def write_part_failure(reason: str, path: str | Path) -> None:
    """Write a part file that records a failed fit and its ``reason`` (header
    :data:`PART_FAILURE_HEADER`, one ``failed`` row) instead of predictions."""
    write_csv(pd.DataFrame({"status": [FAILED], "reason": [reason]}), path)


def part_failure(path: str | Path) -> str | None:
    """The reason that the part file ``path`` records (:func:`write_part_failure`); None
    for a part file of predictions."""
    with open(path, encoding="utf-8") as file:
        if file.readline().rstrip("\r\n") != PART_FAILURE_HEADER:
            return None
    return str(pd.read_csv(path, dtype=str, keep_default_na=False)["reason"].iloc[0])


@dataclass(frozen=True)
class PartFit:
    """What one part job fits: the folds of ``part`` of ``scheme`` (``name``, ``folds``,
    ``repeats``, ``seed``: rule cross_validate_part's params) of one unit.

    Attributes
    ----------
    engine : Engine
        Configured for the job (:func:`configure_engine`).
    data : DataFrame
        The dataset's canonical table.
    spec : DatasetSpec
    keys : mapping
        ``engine``, ``dataset`` and ``classifier`` of the unit.
    params : mapping
        The classifier's configured parameters.
    scheme : mapping
    part : Part
    """

    engine: Engine
    data: pd.DataFrame
    spec: DatasetSpec
    keys: Mapping[str, str]
    params: Mapping[str, Any]
    scheme: Mapping[str, Any]
    part: Part


def fit_part(job: PartFit, log: logging.Logger, time_limit: float | None = None) -> pd.DataFrame:
    """The predictions of one part job, exactly those folds' rows of the whole scheme; with
    ``time_limit`` fitted fold by fold (:func:`fit_scheme`), the limit counting this part's
    folds.

    Raises
    ------
    FitTimeLimit
        The part's folds passed ``time_limit``.
    """
    keys, scheme = job.keys, job.scheme
    cv = CVSpec(folds=scheme["folds"], seed=scheme["seed"], repeats=scheme["repeats"])
    job.engine.prepare(job.params)
    started = process_cpu_seconds()
    pred = scheme_predictions(
        job.engine,
        job.data,
        job.spec,
        keys,
        job.params,
        scheme["name"],
        cv,
        scheme["seed"],
        time_limit,
        job.part.pairs(scheme["folds"]),
    )
    if scheme["name"] == "cv":
        pred = with_keys(pred, **{key: keys[key] for key in ("engine", "dataset", "classifier")})
    total = scheme["folds"] * scheme["repeats"]
    log.info(fit_log_line(scheme["name"], process_cpu_seconds() - started, job.part.size, total))
    return pred


def fit_part_or_record(
    job: PartFit,
    path: str | Path,
    log: logging.Logger,
    *,
    policy: FitPolicy,
    mem_mb: int | None = None,
    log_path: str | None = None,
    folder: str | None = None,
) -> bool:
    """:func:`fit_part` with ``policy``, its predictions written to the part file ``path``.

    A fit that raises is, with ``policy.on_failure == "record"``, logged with its traceback
    and written to ``path`` as a failure with its reason (:func:`write_part_failure`,
    :func:`~pdmeasure.pipeline.failures.failure_reason`), so that the part job succeeds and
    the dataset's job records the classifier as failed (:class:`PartFailed`) while its other
    classifiers go on; with ``"stop"`` the exception is raised again and fails the job.

    Parameters
    ----------
    job : PartFit
    path : str or Path
        The part file.
    log : logging.Logger
        The job's log.
    policy : FitPolicy
    mem_mb, log_path
        As :func:`fit_or_record`.
    folder : str, optional
        The dataset's fitting folder, which to delete to fit the part again (quoted when the
        memory ran out).

    Returns
    -------
    bool
        Whether the fit finished (False: ``path`` records its failure).
    """
    name = job.part.name
    try:
        pred = fit_part(job, log, time_limit=policy.time_limit)
    except Exception as exc:
        if policy.on_failure == "stop":
            raise
        log.exception("%s %s: the fit failed; the dataset's job records it", dict(job.keys), name)
        reason = failure_reason(exc, job.keys, mem_mb=mem_mb, log_path=log_path, folder=folder)
        log.error("%s %s: %s", job.keys["classifier"], name, reason)
        write_part_failure(reason, path)
        return False
    write_csv(pred, path)
    log.info("%s %s: %d predictions", "/".join(job.keys.values()), name, len(pred))
    return True


def _fitting_folder(files: UnitFiles) -> str:
    """The fitting job's output folder: the parent of the unit's classifier folder."""
    return str(Path(files.predictions).parent.parent)


def _remove_unit_files(files: UnitFiles, classifier: str) -> None:
    """Delete the unit's classifier folders (k-fold and 5 x 2-fold CV): a failed fit leaves
    no file that a reader could take for a finished one."""
    for path in (files.predictions, files.confusion, files.cv5x2):
        if path is None:
            continue
        folder = Path(path).parent
        if folder.name != classifier:
            raise ValueError(f"{path}: not inside the folder of classifier {classifier!r}")
        shutil.rmtree(folder, ignore_errors=True)
