"""What the workflow's jobs are given from the resolved config: the dataset and CV specs of the
engines, a classifier's parameters, and the list of CV jobs."""

from __future__ import annotations

from collections.abc import Mapping

from pdmeasure.pipeline.engines.base import CVSpec, DatasetSpec
from pdmeasure.pipeline.errors import ConfigError


def dataset_spec(config: Mapping, name: str, engine: str | None = None) -> DatasetSpec:
    """The :class:`DatasetSpec` of dataset ``name``; ``options`` = its ``<engine>`` block."""
    try:
        ds = config["datasets"][name]
    except KeyError:
        raise ConfigError(f"config key `datasets.{name}`: no such dataset") from None
    options = dict(ds.get(engine) or {}) if engine else {}
    return DatasetSpec(
        name=name,
        target=ds["target"],
        classes=tuple(ds["classes"]),
        numeric_features=tuple(ds["numeric_features"]),
        missing=ds.get("missing"),
        options=options,
    )


def dataset_spec_from_dict(values: Mapping) -> DatasetSpec:
    """Rebuild a :class:`DatasetSpec` from ``dataclasses.asdict`` output (rule params)."""
    return DatasetSpec(
        name=values["name"],
        target=values["target"],
        classes=tuple(values["classes"]),
        numeric_features=tuple(values.get("numeric_features", ())),
        missing=values.get("missing"),
        options=dict(values.get("options") or {}),
    )


def cv_spec(config: Mapping) -> CVSpec:
    """The :class:`CVSpec` of the ``cv`` block."""
    cv = config["cv"]  # validated: the schema fills folds, seed and repeats
    return CVSpec(folds=int(cv["folds"]), seed=int(cv["seed"]), repeats=int(cv["repeats"]))


def classifier_params(config: Mapping, engine: str, classifier: str) -> dict:
    """Parameters of ``classifiers.<engine>.<classifier>``.

    Raises
    ------
    ConfigError
        If the engine or classifier is not configured.
    """
    try:
        return dict(config["classifiers"][engine][classifier])
    except KeyError:
        raise ConfigError(
            f"config key `classifiers.{engine}.{classifier}`: not configured"
        ) from None


def cv_jobs(config: Mapping) -> list[tuple[str, str, str]]:
    """Every (engine, dataset, classifier) to cross-validate, in configured order."""
    return [
        (engine, dataset, classifier)
        for engine in config["engines"]
        for dataset in config["datasets"]
        for classifier in config["classifiers"][engine]
    ]
