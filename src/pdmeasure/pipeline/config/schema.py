"""The first check of ``config.yaml``: ``snakemake.utils.validate`` against the packaged JSON
schema (types, misspelt keys, defaults), its errors as one-line messages naming the key."""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdmeasure.pipeline.errors import ConfigError

if TYPE_CHECKING:
    from jsonschema import ValidationError

#: The JSON schema of ``config.yaml``: package data of :mod:`pdmeasure.pipeline.config`, so that an
#: installed wheel validates a config exactly as the workflow does.
SCHEMA_PATH = Path(str(resources.files("pdmeasure.pipeline.config").joinpath("config.schema.yaml")))


def dataset_defaults() -> dict[str, Any]:
    """The keys of a dataset block that the schema fills in, with their defaults: what a
    validated block holds where the user wrote nothing."""
    config: dict[str, Any] = {"datasets": {"_": {}}}
    validate_schema(config)
    return config["datasets"]["_"]


def _key(path: Sequence[Any]) -> str:
    return ".".join(str(p) for p in path) or "<top level>"


def validate_schema(config: dict, schema: str | os.PathLike | None = None) -> dict:
    """Validate ``config`` in place with ``snakemake.utils.validate(..., set_default=True)``.

    Parameters
    ----------
    config : dict
        The parsed config; defaults of the schema are filled in.
    schema : path-like, optional
        The JSON schema; defaults to :data:`SCHEMA_PATH`.

    Returns
    -------
    dict
        ``config`` itself.

    Raises
    ------
    ConfigError
        Naming the first offending key: an unknown (misspelt) key, a wrong type, a value out
        of range.
    """
    # Imported here: snakemake is heavy and only validation needs it.
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate

    schema_path = Path(schema) if schema is not None else SCHEMA_PATH
    if not schema_path.is_file():
        raise ConfigError(f"config schema not found at {schema_path}")
    try:
        validate(config, str(schema_path.resolve()), set_default=True)
    except WorkflowError as exc:
        raise schema_error(exc) from None
    return config


def schema_error(exc: Exception) -> ConfigError:
    """The :class:`ConfigError` for a failed ``snakemake.utils.validate`` call.

    Raises
    ------
    Exception
        ``exc`` itself if it does not wrap a :class:`jsonschema.ValidationError`.
    """
    from jsonschema import ValidationError

    # snakemake raises its WorkflowError while handling the jsonschema error (__context__).
    cause = exc.__cause__ or exc.__context__
    if not isinstance(cause, ValidationError):
        raise exc
    return ConfigError(describe_validation_error(cause))


def describe_validation_error(error: ValidationError) -> str:
    """One-line message for a :class:`jsonschema.ValidationError`, naming the key.

    An unknown key (``additionalProperties``) is named in full, e.g. ``cv.fold``, with the
    keys allowed at that place.
    """
    if error.validator in ("oneOf", "anyOf") and error.context:
        # Of the alternatives, the one that got furthest into the value names the real
        # problem (`kappa_grid.1` out of range, not "not null").
        deepest = max(error.context, key=lambda sub: len(sub.absolute_path))
        if len(deepest.absolute_path) > len(error.absolute_path):
            error = deepest
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        names = ", ".join(f"`{_key(path + [k])}`" for k in extra)
        hint = f"; allowed keys here: {', '.join(allowed)}" if allowed else ""
        return f"config: unknown key {names} (misspelt?){hint}"
    if error.validator == "required":
        return f"config key `{_key(path)}`: {error.message}"
    return f"config key `{_key(path)}`: {error.message} (got {error.instance!r})"
