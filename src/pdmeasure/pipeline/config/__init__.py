"""The pipeline configuration: schema validation, resolution, checks across keys, and spec builders.

One module per step: :mod:`~pdmeasure.pipeline.config.schema` (the JSON schema),
:mod:`~pdmeasure.pipeline.config.files` (the datasets of ``dataset_files``, one per file),
:mod:`~pdmeasure.pipeline.config.resolve` (the run and its datasets resolved),
:mod:`~pdmeasure.pipeline.config.checks` (rules across keys, the class order against the data)
and :mod:`~pdmeasure.pipeline.config.specs` (what the jobs are given). This package joins them
(:func:`load_config`, :func:`prepare_config`) and re-exports their public names.

``config.yaml`` is validated in three layers, all before any Snakemake job runs:

1. :func:`validate_schema` -- ``snakemake.utils.validate`` against
   ``pdmeasure/pipeline/config/config.schema.yaml`` (types, misspelt keys, defaults);
2. :func:`resolve_run` -- each file of a ``dataset_files`` entry made a dataset named after
   the file (:func:`expand_dataset_files`), the run's selection (``run.datasets``,
   ``run.engines``, ``run.classifiers``) checked against the definitions, and every
   selected dataset resolved:
   its source, target column, class order, numeric features, kappa vectors (a mapping by class
   label becomes a positional list) and kappa grid (``auto`` becomes values). What the config
   leaves out is read from the data's description (:func:`pdmeasure.pipeline.data.fetch.describe`);
   the rule that gave it is kept in the block (``class_order``, ``kappa_grid_rule``);
3. :func:`check_config` -- rules that span keys of the resolved config (kappa vector length =
   number of classes, known engines with a classifier block, grid sizes);
4. :func:`check_data` -- the class order against the data, where the data (a local file, the
   mirror's ``MANIFEST.json`` or an already fetched canonical table) can be read without a
   job; the fetch step repeats the check on the data it fetched.

The workflow runs on the resolved config only, so every value a job uses reaches it as a rule
parameter that Snakemake sees.

Every error is a :class:`ConfigError` whose message starts with the offending key, written
as a dotted path (``datasets.car.kappa_vectors.p1``).
"""

from __future__ import annotations

import os

import yaml

from pdmeasure.pipeline.config.checks import (
    MAX_COUNTABLE_VECTORS,
    MIN_TAIL_DRAWS,
    MIN_UNCERTAINTY_DRAWS,
    check_config,
    check_data,
    check_engines,
    check_sizes,
    check_uncertainty,
    dataset_problems,
)
from pdmeasure.pipeline.config.files import (
    ALL_FILES,
    DatasetFile,
    dataset_name,
    expand_dataset_files,
)
from pdmeasure.pipeline.config.problems import settle_problems
from pdmeasure.pipeline.config.resolve import (
    AUTO_GRID_MAX_VALUES,
    FORMATS,
    MIRROR_ENV,
    SOURCE_KEYS,
    auto_kappa_grid,
    data_locations,
    declared_parts,
    kappa_by_label,
    largest_base,
    mirror_path,
    normalise_classifier,
    resolve_dataset,
    resolve_run,
    results_dir,
)
from pdmeasure.pipeline.config.schema import (
    SCHEMA_PATH,
    describe_validation_error,
    schema_error,
    validate_schema,
)
from pdmeasure.pipeline.config.specs import (
    classifier_params,
    cv_jobs,
    cv_spec,
    dataset_spec,
    dataset_spec_from_dict,
)
from pdmeasure.pipeline.engines import ENGINES
from pdmeasure.pipeline.errors import ConfigError

__all__ = [
    "ALL_FILES",
    "AUTO_GRID_MAX_VALUES",
    "ConfigError",
    "DatasetFile",
    "ENGINES",
    "FORMATS",
    "MAX_COUNTABLE_VECTORS",
    "MIN_TAIL_DRAWS",
    "MIN_UNCERTAINTY_DRAWS",
    "MIRROR_ENV",
    "SCHEMA_PATH",
    "SOURCE_KEYS",
    "auto_kappa_grid",
    "check_config",
    "check_data",
    "check_engines",
    "check_sizes",
    "check_uncertainty",
    "dataset_problems",
    "settle_problems",
    "classifier_params",
    "cv_jobs",
    "cv_spec",
    "data_locations",
    "dataset_name",
    "dataset_spec",
    "dataset_spec_from_dict",
    "describe_validation_error",
    "expand_dataset_files",
    "kappa_by_label",
    "largest_base",
    "load_config",
    "mirror_path",
    "normalise_classifier",
    "declared_parts",
    "prepare_config",
    "resolve_dataset",
    "resolve_run",
    "results_dir",
    "schema_error",
    "validate_schema",
]


def load_config(path: str | os.PathLike, *, schema: str | os.PathLike | None = None) -> dict:
    """Read a YAML config, validate it against the schema (filling defaults), check it.

    Parameters
    ----------
    path : path-like
        The ``config.yaml`` to read.
    schema : path-like, optional
        The JSON schema; defaults to :data:`SCHEMA_PATH`.

    Returns
    -------
    dict
        The resolved config of the run (:func:`resolve_run`), every default filled in.

    Raises
    ------
    ConfigError
        If the file is not a YAML mapping, or any check of :func:`validate_schema`,
        :func:`resolve_run` or :func:`check_config` fails.
    """
    with open(path, encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    if not isinstance(config, dict):
        raise ConfigError(f"{path}: the config must be a YAML mapping, got {type(config).__name__}")
    return prepare_config(config, schema=schema)


def prepare_config(config: dict, *, schema: str | os.PathLike | None = None) -> dict:
    """:func:`validate_schema` (in place), :func:`resolve_run`, then :func:`check_config`'s
    checks, every dataset checked alone and the problems settled together
    (:func:`settle_problems`).

    Returns
    -------
    dict
        The resolved config of the run.

    Raises
    ------
    ConfigError
        Naming the first offending key.
    """
    validate_schema(config, schema)
    resolved = resolve_run(config, collect=True)
    problems = {**resolved["problems"], **dataset_problems(resolved, read_data=False)}
    return settle_problems(resolved, problems)
