"""The engine interface: what every classifier engine (scikit-learn, Weka, ...) implements.

An engine turns one canonical dataset table, one classifier name with its parameters and a
CV specification into per-sample predictions. Everything downstream (confusion matrices,
measures, tables, statistics) only sees that predictions table, so adding an engine is a new
class, not new branches in the rules.

A row without a class (its class cell the missing marker, :func:`missing_class_rows`) is
left out of that table: no classifier trains on it or is scored on it, as in Weka.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np
import pandas as pd

from pdmeasure.pipeline.data.classes import class_is_missing

#: Columns of the table returned by :meth:`Engine.cross_validate`.
PREDICTION_COLUMNS = ("repeat", "fold", "row", "actual", "predicted")


class EngineUnavailable(RuntimeError):
    """An engine's runtime requirements (a package, Java, ...) are missing.

    The message says exactly what to install.
    """


#: Configured parameters of one classifier (``classifiers.<engine>.<name>``).
Params = Mapping[str, Any]


@dataclass(frozen=True)
class DatasetSpec:
    """What an engine needs to know about a dataset besides its rows.

    Attributes
    ----------
    name : str
        Dataset key in ``config.yaml``.
    target : str
        Name of the class column in the canonical table.
    classes : tuple of str
        Class labels in the configured (positional) order.
    numeric_features : tuple of str
        Features to treat as numeric; every other feature is categorical.
    missing : str or None
        The marker of a missing value in the canonical table (for example ``"?"``).
    options : mapping
        Engine-specific encoding options from the dataset's config block
        (for example the ``weka`` block).
    """

    name: str
    target: str
    classes: tuple[str, ...]
    numeric_features: tuple[str, ...] = ()
    missing: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def missing_class_rows(data: pd.DataFrame, dataset: DatasetSpec) -> np.ndarray:
    """Whether each row of the canonical table ``data`` has no class.

    Its class cell is ``dataset.missing`` and the class order does not list that marker
    (:func:`pdmeasure.pipeline.data.classes.class_is_missing`). Such rows are in no
    predictions table: Weka leaves them out of training (``deleteWithMissingClass``) and of
    its scores ("Ignored Class Unknown Instances").

    Returns
    -------
    ndarray of bool, shape (len(data),)
    """
    labels = data[dataset.target].to_numpy(dtype=object)
    return class_is_missing(labels, dataset.classes, dataset.missing)


@dataclass(frozen=True)
class CVSpec:
    """Stratified k-fold cross-validation settings (``cv`` block of ``config.yaml``)."""

    folds: int = 10
    seed: int = 1
    repeats: int = 1


#: The ``(repeat, fold)`` pairs of a cross-validation to compute (both 1-based), in order;
#: ``None`` means every fold of every repeat.
Only = tuple[tuple[int, int], ...] | None


def folds_to_run(cv: CVSpec, only: Only) -> list[tuple[int, tuple[int, ...] | None]]:
    """The folds of a cross-validation to compute, repeat by repeat.

    Parameters
    ----------
    cv : CVSpec
    only : tuple of (int, int), optional
        ``(repeat, fold)`` pairs, both 1-based, in (repeat, fold) order; ``None``: all.

    Returns
    -------
    list of (int, tuple of int or None)
        Each repeat to run with its folds in order; ``None`` stands for every fold of it.

    Raises
    ------
    ValueError
        A pair outside the ``cv.repeats`` repeats of ``cv.folds`` folds, a pair given twice,
        or pairs out of (repeat, fold) order.
    """
    if only is None:
        return [(repeat, None) for repeat in range(1, cv.repeats + 1)]
    pairs = [(int(repeat), int(fold)) for repeat, fold in only]
    for repeat, fold in pairs:
        if not (1 <= repeat <= cv.repeats and 1 <= fold <= cv.folds):
            raise ValueError(
                f"(repeat, fold) = {(repeat, fold)} is outside the {cv.repeats} repeats of "
                f"{cv.folds} folds"
            )
    if pairs != sorted(set(pairs)):
        raise ValueError(f"folds {pairs} are not distinct pairs in (repeat, fold) order")
    runs: dict[int, list[int]] = {}
    for repeat, fold in pairs:
        runs.setdefault(repeat, []).append(fold)
    return [(repeat, tuple(folds)) for repeat, folds in runs.items()]


@dataclass(frozen=True)
class CVJob:
    """One cross-validation to compute: the arguments of :meth:`Engine.cross_validate`."""

    data: pd.DataFrame
    dataset: DatasetSpec
    classifier: str
    params: Params
    cv: CVSpec
    only: Only = None


class FoldPredictions(NamedTuple):
    """Predictions of one repeat's fold, or of all its folds, as positions in the class order.

    ``fold`` is the 1-based fold of every row, one number or one per row; ``row`` the 0-based
    positions in the data; ``actual`` and ``predicted`` indices into ``dataset.classes``.
    """

    repeat: int
    fold: int | np.ndarray
    row: np.ndarray
    actual: np.ndarray
    predicted: np.ndarray


def _labelled(part: FoldPredictions, classes: np.ndarray) -> pd.DataFrame:
    """``part`` as rows of the predictions table, class indices replaced by their labels."""
    return pd.DataFrame(
        {
            "repeat": part.repeat,
            "fold": part.fold,
            "row": part.row,
            "actual": classes[part.actual],
            "predicted": classes[part.predicted],
        }
    )


def _check_coverage(predictions: pd.DataFrame, expected: np.ndarray, repeats: int) -> None:
    """Every row of ``expected`` (sorted) exactly once per repeat, and no other (an internal
    invariant of an engine's folds)."""
    for repeat, group in predictions.groupby("repeat"):
        rows = np.sort(group["row"].to_numpy())
        if not np.array_equal(rows, expected):
            raise RuntimeError(
                f"repeat {repeat}: the folds do not cover every row with a class exactly once"
            )
    if predictions["repeat"].nunique() != repeats:
        raise RuntimeError("predictions are missing a repeat")


class Engine(ABC):
    """A classifier engine.

    Subclasses set :attr:`name` and implement :meth:`check_available` and
    :meth:`predict_folds`, which :meth:`cross_validate` turns into the predictions table.
    """

    name: ClassVar[str]

    @abstractmethod
    def check_available(self) -> None:
        """Raise :class:`EngineUnavailable`, naming what to install, if the engine cannot run."""

    def check_classifier(self, classifier: str, params: Mapping[str, Any]) -> None:  # noqa: B027 (a hook: the default accepts every entry)
        """Validate one configured classifier entry without running it.

        Called for every ``classifiers.<engine>.<name>`` entry before any job runs. The default
        accepts everything; engines override it to reject unknown names or parameters.

        Raises
        ------
        ValueError
            Naming what is wrong with the entry.
        """

    def configure(  # noqa: B027 (a hook)
        self, *, threads: int, mem_mb: int | None = None, cells: int | None = None
    ) -> None:
        """Fit the engine to the job's resources before :meth:`cross_validate`.

        ``threads`` cores and ``mem_mb`` megabytes are what the Snakemake job declared (and a
        cluster granted); ``cells`` is the size of the job's dataset, rows x classes. The
        default does nothing: a scikit-learn model runs single-threaded (``n_jobs=1``) within
        the Python process's memory. Engines with a runtime of their own (a JVM) size it from
        these.
        """

    def prepare(self, params: Params) -> None:  # noqa: B027 (a hook: nothing to load by default)
        """Load what fitting a classifier entry needs before any fit (its modules; a JVM).

        Fitting loads it anyway on first use; calling this first lets a job log the fits'
        own CPU time apart from what every job pays once.
        """

    def cross_validate(
        self,
        data: pd.DataFrame,
        dataset: DatasetSpec,
        classifier: str,
        params: Params,
        cv: CVSpec,
        *,
        only: Only = None,
    ) -> pd.DataFrame:
        """Cross-validate one classifier on one dataset.

        Parameters
        ----------
        data : DataFrame
            The canonical table: one row per sample in the original file order, every cell a
            string exactly as in the source file (missing values keep their marker).
        dataset : DatasetSpec
        classifier : str
            Classifier name, a key of ``config["classifiers"][engine]``.
        params : mapping
            That classifier's parameters from the config.
        cv : CVSpec
        only : tuple of (int, int), optional
            ``(repeat, fold)`` pairs, both 1-based, in that order: compute those folds alone.
            Their rows must be exactly those folds' rows of the whole cross-validation, so
            that parts of it, computed as separate jobs and concatenated in order, give the
            whole run's table (:func:`folds_to_run` checks the pairs).

        Returns
        -------
        DataFrame
            Columns :data:`PREDICTION_COLUMNS`: ``repeat`` (1-based), ``fold`` (1-based),
            ``row`` (0-based position in ``data``), ``actual`` and ``predicted`` (class labels
            as strings). Every row of ``data`` with a class appears exactly once per repeat;
            a row without one (:func:`missing_class_rows`) never does.

        Raises
        ------
        ValueError
            The engine's :meth:`predict_folds` rejects the classifier entry or the data.
        RuntimeError
            The engine's folds do not cover every row with a class exactly once per repeat.
        """
        if only is not None:
            only = tuple((int(repeat), int(fold)) for repeat, fold in only)
        job = CVJob(data, dataset, classifier, params, cv, only)
        classes = np.asarray(dataset.classes, dtype=object)
        frames = [_labelled(part, classes) for part in self.predict_folds(job)]
        out = pd.concat(frames, ignore_index=True)[list(PREDICTION_COLUMNS)]
        if only is None:
            _check_coverage(out, np.flatnonzero(~missing_class_rows(data, dataset)), cv.repeats)
        return out

    @abstractmethod
    def predict_folds(self, job: CVJob) -> Iterator[FoldPredictions]:
        """The predictions of :meth:`cross_validate`, in order of repeat and fold.

        The repeats and folds are :func:`folds_to_run`; with ``job.only`` set, only those
        folds are predicted, each exactly as within the whole cross-validation.
        """
