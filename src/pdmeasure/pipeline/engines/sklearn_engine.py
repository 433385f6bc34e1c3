"""The scikit-learn engine: any estimator class that follows the scikit-learn API.

A classifier is a config entry ``{class: <import path>, params: {...}, encoding: ...}``
(``classifiers.sklearn.<name>``); the paper's four are ``sklearn.ensemble.BaggingClassifier``,
``sklearn.naive_bayes.CategoricalNB``, ``sklearn.tree.DecisionTreeClassifier`` and
``sklearn.ensemble.RandomForestClassifier``.

Encoding per feature type
-------------------------
Every categorical feature (every feature not listed in ``numeric_features``) is first mapped to
integer codes with :class:`~sklearn.preprocessing.OrdinalEncoder`, values in sorted order. The
encoder is fitted on the whole table on purpose: an attribute's domain is known up front (Weka
declares it in the ARFF header, too) and the mapping uses no labels, so nothing leaks between
folds; it also guarantees that a value absent from a training fold still has a code. A missing
marker in a categorical feature is kept as a value of its own. Numeric features become floats
with the missing marker as NaN. What the model then sees depends on the entry's ``encoding``
(:data:`ENCODINGS`); every step fitted on data is fitted inside each training fold:

- ``ordinal`` (default; trees and ensembles): the codes; numbers with NaN imputed by the median
  (:class:`~sklearn.impute.SimpleImputer`).
- ``onehot`` (linear models, SVMs, neighbours): one indicator column per category
  (:class:`~sklearn.preprocessing.OneHotEncoder` over the whole domain); numbers median-imputed
  and standardised (:class:`~sklearn.preprocessing.StandardScaler`).
- ``categorical`` (:class:`~sklearn.naive_bayes.CategoricalNB`): numbers median-imputed and cut
  into :data:`NUMERIC_BINS` quantile bins (:class:`~sklearn.preprocessing.KBinsDiscretizer`),
  like the discretisation Weka's BayesNet (the paper's counterpart) applies to numbers; an
  estimator with a ``min_categories`` parameter gets the domain sizes, so a value unseen in
  training gets the smoothed probability instead of an error.

Cross-validation
----------------
:class:`~sklearn.model_selection.StratifiedKFold` with ``shuffle=True`` and
``random_state = seed + repeat - 1`` for repeat ``1..repeats``; every sample is predicted
exactly once per repeat. Rows without a class
(:func:`~pdmeasure.pipeline.engines.base.missing_class_rows`) are left out before the folds
are drawn: a model cannot train on them, and there is nothing to score them against. Models get the same ``random_state`` when they have that parameter,
so the predictions are identical across runs and across ``snakemake --cores``; ``n_jobs`` is the
job's ``threads`` (:meth:`SklearnEngine.configure`, default 1). scikit-learn's ensembles draw
every member's seed before they spread the members over workers, so their predictions do not
depend on ``n_jobs`` (tested for the papers' classifiers); check the same of your own estimator
before you give the CV jobs more than one thread.
"""

from __future__ import annotations

import importlib
import importlib.util
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd

from pdmeasure.pipeline.engines.base import (
    CVJob,
    DatasetSpec,
    Engine,
    EngineUnavailable,
    FoldPredictions,
    folds_to_run,
    missing_class_rows,
)

#: Quantile bins of a numeric feature under the ``categorical`` encoding.
NUMERIC_BINS = 5

#: Feature encodings of a classifier entry (see the module docstring).
ENCODINGS = ("ordinal", "onehot", "categorical")

#: Keys of a classifier entry (``classifiers.sklearn.<name>``).
ENTRY_KEYS = frozenset({"class", "params", "encoding"})

#: Parameters the engine sets itself (determinism, one core per Snakemake job).
_RESERVED = ("n_jobs", "random_state", "min_categories")

#: ``n_jobs`` of the models of this process: the Snakemake job's ``threads``
#: (:meth:`SklearnEngine.configure`).
_THREADS = {"n_jobs": 1}


def estimator_class(path: str) -> type:
    """The class named by an import path, ``module.Class`` or ``module:Class``.

    Raises
    ------
    ValueError
        The path is malformed, its module cannot be imported, the module has no such
        attribute, or the attribute is not a class with ``fit`` and ``predict``.
    """
    module, sep, name = path.rpartition(":") if ":" in path else path.rpartition(".")
    if not sep or not module or not name:
        raise ValueError(
            f"class {path!r} is not an import path such as sklearn.svm.SVC or "
            "sklearn.ensemble:HistGradientBoostingClassifier"
        )
    try:
        loaded = importlib.import_module(module)
    except ImportError as exc:
        raise ValueError(
            f"class {path!r}: module {module!r} cannot be imported ({exc}); check the spelling "
            "or install the package that provides it"
        ) from None
    cls = getattr(loaded, name, None)
    if cls is None:
        raise ValueError(f"class {path!r}: module {module!r} has no attribute {name!r}")
    if not isinstance(cls, type) or not all(hasattr(cls, m) for m in ("fit", "predict")):
        raise ValueError(
            f"class {path!r} is not an estimator class with fit and predict (scikit-learn API)"
        )
    return cls


def entry_parts(entry: Mapping[str, Any]) -> tuple[str, dict, str]:
    """``(class path, params, encoding)`` of a classifier entry, checked.

    Raises
    ------
    ValueError
        An unknown key, no ``class``, ``params`` that is not a mapping, or an unknown
        ``encoding``.
    """
    unknown = sorted(set(entry) - ENTRY_KEYS)
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}; an entry has {sorted(ENTRY_KEYS)}")
    path = entry.get("class")
    if not isinstance(path, str):
        raise ValueError(f"`class` must be an import path such as sklearn.svm.SVC, got {path!r}")
    params = entry.get("params") or {}
    if not isinstance(params, Mapping):
        raise ValueError(f"`params` must be a mapping of keyword arguments, got {params!r}")
    encoding = entry.get("encoding") or "ordinal"
    if encoding not in ENCODINGS:
        raise ValueError(f"`encoding` must be one of {list(ENCODINGS)}, got {encoding!r}")
    return path, dict(params), encoding


def make_estimator(
    entry: Mapping[str, Any],
    *,
    random_state: int = 0,
    n_categories: list[int] | None = None,
    n_numeric: int = 0,
) -> Any:  # a scikit-learn estimator (scikit-learn ships no type information)
    """Build the (unfitted) model of a classifier entry on encoded features.

    Parameters
    ----------
    entry : mapping
        ``{class, params, encoding}`` from ``classifiers.sklearn.<name>``.
    random_state : int
        Seed of the model, set when the class has a ``random_state`` parameter.
    n_categories : list of int, optional
        Domain size of each categorical feature, in column order (the first columns).
    n_numeric : int
        Number of numeric features (the last columns).

    Returns
    -------
    estimator
        The estimator, or a pipeline of the encoding's steps and the estimator.

    Raises
    ------
    ValueError
        A bad entry (see :func:`entry_parts`, :func:`estimator_class`), a reserved parameter
        (``n_jobs``, ``random_state``, ``min_categories``), a parameter the class does not
        accept, or a constructor that rejects the parameters.
    """
    path, params, encoding = entry_parts(entry)
    n_categories = list(n_categories or [])
    estimator = _configured(path, params, encoding, random_state, n_categories, n_numeric)
    return _with_encoding(estimator, encoding, n_categories, n_numeric, random_state)


def _configured(path, params, encoding, random_state, n_categories, n_numeric):
    """The estimator of ``path`` with ``params`` and the engine's own parameters set."""
    cls = estimator_class(path)
    reserved = [p for p in _RESERVED if p in params]
    if reserved:
        raise ValueError(
            f"parameters {reserved} are set by the engine (n_jobs from the job's threads, "
            "random_state from cv.seed for reproducibility, min_categories from the data); "
            "remove them"
        )
    try:
        accepted = cls().get_params()
    except Exception as exc:  # a third-party class: say which one failed, whatever it raised
        raise ValueError(
            f"{path}() without arguments fails ({type(exc).__name__}: {exc})"
        ) from None
    unknown = [p for p in params if p not in accepted]
    if unknown:
        raise ValueError(f"{cls.__name__} has no parameters {unknown}; it has {sorted(accepted)}")
    if "n_jobs" in accepted:
        params["n_jobs"] = _THREADS["n_jobs"]
    if "random_state" in accepted:
        params["random_state"] = random_state
    if encoding == "categorical" and "min_categories" in accepted:
        params["min_categories"] = n_categories + [NUMERIC_BINS] * n_numeric
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{cls.__name__}: {exc}") from None


def _with_encoding(estimator, encoding: str, n_categories: list[int], n_numeric: int, seed: int):
    """``estimator`` behind the encoding's column steps (fitted in each training fold)."""
    # scikit-learn (the pipeline extra) is imported when a model is built.
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import KBinsDiscretizer, OneHotEncoder, StandardScaler

    n_cat = len(n_categories)
    if encoding == "categorical":
        bins = KBinsDiscretizer(
            n_bins=NUMERIC_BINS, encode="ordinal", strategy="quantile", random_state=seed
        )
        numeric = make_pipeline(SimpleImputer(strategy="median"), bins)
    elif encoding == "onehot":
        numeric = make_pipeline(SimpleImputer(strategy="median"), StandardScaler())
    else:
        numeric = SimpleImputer(strategy="median")
    if encoding == "onehot" and n_cat:
        categorical: Any = OneHotEncoder(
            categories=[np.arange(n, dtype=np.float64) for n in n_categories],
            handle_unknown="ignore",
        )
    elif n_numeric == 0:
        return estimator
    else:
        categorical = "passthrough"
    columns = ColumnTransformer(
        [
            ("categorical", categorical, list(range(n_cat))),
            ("numeric", numeric, list(range(n_cat, n_cat + n_numeric))),
        ]
    )
    return make_pipeline(columns, estimator)


def encode_features(data: pd.DataFrame, dataset: DatasetSpec) -> tuple[np.ndarray, list[int], int]:
    """Feature matrix: categorical codes first, then numeric features as floats (NaN = missing).

    Returns
    -------
    X : ndarray of float, shape (n_samples, n_features)
    n_categories : list of int
        Domain size of each categorical column.
    n_numeric : int
        Number of numeric columns (the last ones).

    Raises
    ------
    ValueError
        A numeric feature holds text other than a number or the missing marker.
    """
    from sklearn.preprocessing import OrdinalEncoder

    features = [c for c in data.columns if c != dataset.target]
    numeric = [c for c in features if c in dataset.numeric_features]
    categorical = [c for c in features if c not in dataset.numeric_features]
    parts, n_categories = [], []
    if categorical:
        values = np.column_stack([data[c].to_numpy(dtype=object) for c in categorical])
        encoder = OrdinalEncoder(dtype=np.float64)
        parts.append(encoder.fit_transform(values))
        n_categories = [len(c) for c in encoder.categories_]
    for column in numeric:
        parts.append(_to_float(data[column].to_numpy(dtype=object), column, dataset)[:, None])
    if not parts:
        raise ValueError(f"dataset {dataset.name!r} has no feature columns besides the target")
    return np.hstack(parts), n_categories, len(numeric)


def _to_float(values: np.ndarray, column: str, dataset: DatasetSpec) -> np.ndarray:
    out = np.empty(len(values), dtype=np.float64)
    for i, value in enumerate(values):
        if dataset.missing is not None and value == dataset.missing:
            out[i] = np.nan
            continue
        try:
            out[i] = float(value)
        except ValueError:
            raise ValueError(
                f"dataset {dataset.name!r}: numeric feature {column!r} has the value {value!r} "
                f"(row {i}), which is neither a number nor the missing marker "
                f"{dataset.missing!r}; check `datasets.{dataset.name}.numeric_features` and "
                f"`datasets.{dataset.name}.missing`"
            ) from None
    return out


def encode_labels(data: pd.DataFrame, dataset: DatasetSpec) -> np.ndarray:
    """Class codes: the position of each label in the configured class order.

    Raises
    ------
    ValueError
        A label that is not one of ``datasets.<name>.classes``.
    """
    index = {c: i for i, c in enumerate(dataset.classes)}
    labels = data[dataset.target].to_numpy(dtype=object)
    unknown = sorted({str(v) for v in labels if v not in index})
    if unknown:
        raise ValueError(
            f"dataset {dataset.name!r}: labels {unknown} are not in "
            f"`datasets.{dataset.name}.classes` {list(dataset.classes)}"
        )
    return np.fromiter((index[v] for v in labels), dtype=np.intp, count=len(labels))


def warn_small_classes(y: np.ndarray, dataset: DatasetSpec, folds: int) -> list[str]:
    """Warn about every class with fewer samples than folds; return their labels.

    Such a class is kept: it is simply absent from some test folds (nursery's ``recommend``
    has 2 samples, so 8 of 10 folds test none).
    """
    counts = np.bincount(y, minlength=len(dataset.classes))
    small = [(dataset.classes[i], int(n)) for i, n in enumerate(counts) if 0 < n < folds]
    for label, n in small:
        warnings.warn(
            f"dataset {dataset.name!r}: class {label!r} has only {n} samples, fewer than the "
            f"{folds} folds; it is kept, and {folds - n} folds have no test sample of it",
            UserWarning,
            stacklevel=2,
        )
    return [label for label, _ in small]


class SklearnEngine(Engine):
    """scikit-learn counterparts of the paper's Weka classifiers (see the module docstring)."""

    name = "sklearn"

    def check_available(self) -> None:
        """Raise :class:`EngineUnavailable` if scikit-learn is not installed.

        Looked up, not imported: the import takes about 2 s, at the start of every
        ``snakemake`` command. A package that is found but fails to import is reported by the
        check of each classifier entry (:meth:`check_classifier`), which imports it.
        """
        if importlib.util.find_spec("sklearn") is None:
            raise EngineUnavailable(
                "scikit-learn is not installed (no module named 'sklearn'); "
                "pip install scikit-learn"
            )

    def configure(
        self, *, threads: int, mem_mb: int | None = None, cells: int | None = None
    ) -> None:
        """Give every model of this process ``n_jobs = threads`` (the job's cores)."""
        _THREADS["n_jobs"] = max(1, int(threads))

    def prepare(self, params: Mapping[str, Any]) -> None:
        """Import the entry's estimator class and build it once (scikit-learn's imports)."""
        make_estimator(params)

    def check_classifier(self, classifier: str, params: Mapping[str, Any]) -> None:
        """Raise ValueError for a class that cannot be imported, a parameter it does not accept,
        or a value outside the parameter's domain.

        The domain check is scikit-learn's own parameter validation (``_validate_params``, what
        ``fit`` calls first), run on the bare estimator so that the config check needs no data;
        a third-party class without it is checked by its constructor alone.
        """
        estimator = make_estimator(params)
        validate = getattr(estimator, "_validate_params", None)
        if validate is None:
            return
        try:
            validate()
        except (TypeError, ValueError) as exc:
            raise ValueError(str(exc)) from None

    def predict_folds(self, job: CVJob) -> Iterator[FoldPredictions]:
        """Stratified k-fold predictions, fold by fold (see the module docstring).

        Raises
        ------
        ValueError
            A bad classifier entry or parameter, a label outside the configured classes, a
            non-numeric value in a numeric feature, or fewer samples with a class than folds.
        """
        data, dataset, cv, only = job.data, job.dataset, job.cv, job.only
        # Features are encoded over every row (an attribute's domain is the whole file's);
        # rows without a class are then left out, before the folds are drawn.
        X, n_categories, n_numeric = encode_features(data, dataset)
        rows = np.flatnonzero(~missing_class_rows(data, dataset))
        if len(rows) < len(data):
            X, data = X[rows], data.iloc[rows]
        y = encode_labels(data, dataset)
        if len(y) < cv.folds:
            raise ValueError(
                f"dataset {dataset.name!r} has {len(y)} samples with a class, fewer than "
                f"cv.folds={cv.folds}; to fix: lower `cv.folds` or give more samples"
            )
        make_estimator(job.params)  # fail on bad parameters before any fitting
        warn_small_classes(y, dataset, cv.folds)
        for repeat, wanted in folds_to_run(cv, only):
            state = cv.seed + repeat - 1
            for fold, (train, test) in enumerate(_stratified_splits(X, y, cv.folds, state), 1):
                if wanted is not None and fold not in wanted:
                    continue  # the splits are drawn whole, so fold i is the same alone
                model = make_estimator(
                    job.params,
                    random_state=state,
                    n_categories=n_categories,
                    n_numeric=n_numeric,
                )
                model.fit(X[train], y[train])
                predicted = np.asarray(model.predict(X[test]), dtype=np.intp)
                yield FoldPredictions(repeat, fold, rows[test], y[test], predicted)


def _stratified_splits(X: np.ndarray, y: np.ndarray, folds: int, state: int) -> list:
    """The ``(train, test)`` rows of every fold of one repeat (shuffled with seed ``state``)."""
    from sklearn.model_selection import StratifiedKFold

    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=state)
    with warnings.catch_warnings():
        # Replaced by warn_small_classes, which names the class.
        warnings.filterwarnings("ignore", message="The least populated class in y")
        return list(splitter.split(X, y))
