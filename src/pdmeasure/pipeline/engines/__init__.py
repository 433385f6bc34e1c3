"""Classifier engines behind one interface (see :mod:`pdmeasure.pipeline.engines.base`).

Engines are imported lazily so that a missing optional dependency (Java, JPype) only
matters when that engine is selected.
"""

from __future__ import annotations

import importlib

from pdmeasure.pipeline.engines.base import CVSpec, DatasetSpec, Engine, EngineUnavailable

# engine name -> "module:Class"; adding an engine is one line here plus one class.
ENGINES: dict[str, str] = {
    "sklearn": "pdmeasure.pipeline.engines.sklearn_engine:SklearnEngine",
    "weka": "pdmeasure.pipeline.engines.weka_engine:WekaEngine",
}


def get_engine(name: str) -> Engine:
    """Return an instance of the engine registered as ``name``.

    Raises
    ------
    ValueError
        If no engine of that name is registered.
    """
    try:
        target = ENGINES[name]
    except KeyError:
        raise ValueError(
            f"unknown engine {name!r}; known engines: {', '.join(sorted(ENGINES))}"
        ) from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)()


__all__ = ["CVSpec", "DatasetSpec", "Engine", "EngineUnavailable", "ENGINES", "get_engine"]
