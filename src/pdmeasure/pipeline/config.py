"""The pipeline configuration: schema validation, checks across keys, and spec builders.

``config.yaml`` is validated in three layers, all before any Snakemake job runs:

1. :func:`validate_schema` -- ``snakemake.utils.validate`` against
   ``pdmeasure/pipeline/config.schema.yaml`` (types, misspelt keys, defaults);
2. :func:`resolve_run` -- the run's selection (``run.datasets``, ``run.engines``,
   ``run.classifiers``) checked against the definitions, and every selected dataset resolved:
   its source, target column, class order, numeric features, kappa vectors (a mapping by class
   label becomes a positional list) and kappa grid (``auto`` becomes values). What the config
   leaves out is read from the data's description (:func:`pdmeasure.pipeline.fetch.describe`);
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

import copy
import math
import os
import shlex
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from pdmeasure.measures.labels import kappa_vector
from pdmeasure.pipeline.classes import check_class_order
from pdmeasure.pipeline.engines import ENGINES, get_engine
from pdmeasure.pipeline.engines.base import CVSpec, DatasetSpec, EngineUnavailable
from pdmeasure.pipeline.errors import ConfigError, DataFetchError
from pdmeasure.pipeline.fetch import check_table, describe, read_local_csv, read_source
from pdmeasure.pipeline.mirror import load_manifest, manifest_entry
from pdmeasure.pipeline.sources import DEFAULT_SEPARATORS

#: The JSON schema of ``config.yaml``: package data of :mod:`pdmeasure.pipeline`, so that an
#: installed wheel validates a config exactly as the workflow does.
SCHEMA_PATH = Path(str(resources.files("pdmeasure.pipeline").joinpath("config.schema.yaml")))

#: Environment variable naming the offline UCI mirror when config ``mirror`` is null.
MIRROR_ENV = "UCI_MIRROR"


def _key(path: Sequence[Any]) -> str:
    return ".".join(str(p) for p in path) or "<top level>"


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
    """:func:`validate_schema` (in place), :func:`resolve_run`, then :func:`check_config`.

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
    resolved = resolve_run(config)
    check_config(resolved)
    return resolved


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


def describe_validation_error(error) -> str:
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


#: The sources of a dataset block; exactly one is given.
SOURCE_KEYS = ("uci_id", "openml_id", "path")

#: File name extensions of a local data file -> its format.
FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".arff": "arff"}

#: Most values per class of a ``kappa_grid: auto`` (0, 0.1, ..., 1).
AUTO_GRID_MAX_VALUES = 11


def resolve_run(config: Mapping) -> dict:
    """The config of this run: the selection checked, every selected dataset resolved.

    ``config`` must have passed :func:`validate_schema`. The result is a new dict with the
    same settings, where

    - ``engines`` is ``run.engines``;
    - ``classifiers`` holds, per selected engine, the selected classifiers
      (``run.classifiers``, else every defined one), each entry normalised by
      :func:`normalise_classifier`;
    - ``datasets`` holds the selected datasets, in ``run.datasets`` order, each resolved by
      :func:`resolve_dataset`;
    - ``run`` is dropped (the three keys above replace it).

    Raises
    ------
    ConfigError
        A selected dataset, engine or classifier is not defined, or a dataset cannot be
        resolved (see :func:`resolve_dataset`).
    """
    run = config["run"]  # validated: the schema fills the defaults
    defined = config["datasets"]
    names = list(defined) if run["datasets"] is None else list(run["datasets"])
    _require_defined(
        "run.datasets", names, defined, "add a block `datasets: {{{}: {{path: ...}}}}`"
    )
    engines = list(run["engines"])
    for engine in engines:
        if engine not in ENGINES:
            raise ConfigError(
                f"config key `run.engines`: unknown engine {engine!r}; known engines: "
                f"{', '.join(sorted(ENGINES))}"
            )
        if not config["classifiers"].get(engine):
            raise ConfigError(
                f"config key `classifiers.{engine}`: engine {engine!r} is listed in `run.engines` "
                f"but has no classifiers; add a block `classifiers: {{{engine}: {{Name: ...}}}}`"
            )
    selection = run["classifiers"] or {}
    for engine in selection:
        if engine not in engines:
            raise ConfigError(
                f"config key `run.classifiers.{engine}`: engine {engine!r} is not in "
                f"`run.engines` {engines}; add it there or remove this key"
            )
    classifiers = {}
    for engine in engines:
        chosen = selection.get(engine) or list(config["classifiers"][engine])
        missing = [c for c in chosen if c not in config["classifiers"][engine]]
        if missing:
            raise ConfigError(
                f"config key `run.classifiers.{engine}`: {missing} are not defined under "
                f"`classifiers.{engine}` (defined: {', '.join(config['classifiers'][engine])})"
            )
        classifiers[engine] = {
            c: normalise_classifier(engine, c, config["classifiers"][engine][c]) for c in chosen
        }
    out = {k: copy.deepcopy(v) for k, v in config.items() if k not in ("run", "datasets")}
    out["engines"] = engines
    out["classifiers"] = classifiers
    out["datasets"] = {name: resolve_dataset(config, name) for name in names}
    out["cv"]["per_fold"] = per_fold_datasets(config["cv"].get("per_fold", False), defined, names)
    return out


def per_fold_datasets(per_fold: bool | Sequence[str], defined: Mapping, names: Sequence[str]):
    """The datasets of the run whose cross-validations run as one job per fold.

    ``cv.per_fold`` is ``true`` (every dataset), ``false`` (none) or a list of dataset names
    (only those: fold jobs pay off where a fold costs much more than a job's start-up, that
    is on large datasets). Names defined but not selected by ``run.datasets`` are skipped.

    Returns
    -------
    list of str
        In run order.

    Raises
    ------
    ConfigError
        A listed name is not defined under ``datasets``.
    """
    if per_fold is True or per_fold is False:
        return list(names) if per_fold else []
    _require_defined("cv.per_fold", per_fold, defined, "use true (every dataset) or false (none)")
    return [n for n in names if n in per_fold]


def _require_defined(key: str, names: Sequence[str], defined: Mapping, fix: str) -> None:
    """Raise a ConfigError naming ``key`` if it lists datasets not defined under ``datasets``;
    the fix offered is to correct the name or ``fix`` (``{}`` is the first unknown name)."""
    unknown = [n for n in names if n not in defined]
    if unknown:
        raise ConfigError(
            f"config key `{key}`: {unknown} are not defined under `datasets` (defined: "
            f"{', '.join(defined)}); to fix: correct the name, or {fix.format(unknown[0])}"
        )


def normalise_classifier(engine: str, name: str, entry: Mapping) -> dict:
    """A classifier entry with its defaults filled in.

    A Weka ``options`` string is split like a shell command line (``"-C 1.0"`` ->
    ``["-C", "1.0"]``); other entries are copied.

    Raises
    ------
    ConfigError
        Naming ``classifiers.<engine>.<name>.options`` when the string cannot be split.
    """
    out = copy.deepcopy(dict(entry))
    if engine == "weka" and isinstance(out.get("options"), str):
        try:
            out["options"] = shlex.split(out["options"])
        except ValueError as exc:
            raise ConfigError(
                f"config key `classifiers.weka.{name}.options`: {exc} in {out['options']!r}; "
                "to fix: close the quote, or give the options as a list"
            ) from None
    return out


def resolve_dataset(config: Mapping, name: str) -> dict:
    """One dataset block with its source, target, classes, features and kappa resolved.

    - exactly one of ``uci_id``, ``openml_id`` and ``path``; ``format`` of a ``path`` from
      its extension when not given;
    - ``target``, ``classes`` and ``numeric_features`` from the config when given, else from
      the data's description (:func:`pdmeasure.pipeline.fetch.describe`): the class column
      by name, keyword (``first``/``last``) or position; the class order declared by an ARFF
      header or OpenML, else the order of first appearance in the data; the numeric features
      declared by ARFF/OpenML, else inferred from the cells. ``class_order`` records which
      rule gave the classes;
    - ``kappa_vectors``: a mapping ``{label: value}`` becomes a list in class order;
    - ``kappa_grid``: ``auto`` becomes :func:`auto_kappa_grid` values (or None);
      ``kappa_grid_rule`` records which.

    Raises
    ------
    ConfigError
        Naming the key: no or several sources, an unknown file extension, data that cannot be
        described, a kappa mapping with a missing or unknown label.
    """
    block = copy.deepcopy(dict(config["datasets"][name]))
    key = f"datasets.{name}"
    _resolve_source(block, key)
    block["class_order"] = "configured"
    _resolve_from_data(block, config, name, key)
    if block["target"] in block["numeric_features"]:
        raise ConfigError(
            f"config key `{key}.numeric_features`: names the target {block['target']!r}"
        )
    block["kappa_vectors"] = {
        vname: kappa_by_label(vector, block["classes"], f"{key}.kappa_vectors.{vname}")
        for vname, vector in block["kappa_vectors"].items()
    }
    _resolve_grid(block, config)
    return block


def _resolve_source(block: dict, key: str) -> None:
    """Check there is one source; fill a file's ``format``, ``separator`` and ``missing``."""
    given = [k for k in SOURCE_KEYS if block.get(k) is not None]
    if len(given) != 1:
        raise ConfigError(
            f"config key `{key}`: give exactly one source among `uci_id` (a UCI dataset), "
            f"`openml_id` (an OpenML dataset) and `path` (a local CSV, TSV or ARFF file); "
            f"got {given or 'none'}"
        )
    if block["path"] is not None and block["format"] is None:
        suffix = Path(block["path"]).suffix.lower()
        if suffix not in FORMATS:
            raise ConfigError(
                f"config key `{key}.format`: cannot tell the format of {block['path']!r} from "
                f"its extension {suffix or '(none)'}; to fix: set `{key}.format` to csv, tsv "
                "or arff"
            )
        block["format"] = FORMATS[suffix]
    if block["path"] is not None and block["format"] in DEFAULT_SEPARATORS:
        block["separator"] = block["separator"] or DEFAULT_SEPARATORS[block["format"]]
    declares_types = block["openml_id"] is not None or block["format"] == "arff"
    if declares_types and block["missing"] is None:
        block["missing"] = "?"  # the missing marker of ARFF, which OpenML serves too


def _resolve_from_data(block: dict, config: Mapping, name: str, key: str) -> None:
    """``target``, ``classes`` and ``numeric_features`` the config leaves to the data."""
    target = block["target"]
    needs_data = (
        block["classes"] is None
        or block["numeric_features"] is None
        or target is None
        or isinstance(target, int)
        or target in ("first", "last")
    )
    if not needs_data:
        return
    try:
        fetched = results_dir(config) / "data" / f"{name}.csv"
        description = describe(name, block, fetched=fetched, **data_locations(config))
    except DataFetchError as exc:
        raise ConfigError(f"config key `{key}`: {exc}") from None
    block["target"] = description.target
    if block["classes"] is None:
        block["classes"] = list(description.classes)
        block["class_order"] = description.class_order
    if block["numeric_features"] is None:
        block["numeric_features"] = list(description.numeric)


def _resolve_grid(block: dict, config: Mapping) -> None:
    """``kappa_grid: auto`` as values (:func:`auto_kappa_grid`), and the rule that gave it."""
    block["kappa_grid_rule"] = "configured"
    if block["kappa_grid"] != "auto":
        return
    limit = int(config["histogram"]["auto_grid_vectors"])
    n_classes = len(block["classes"])
    block["kappa_grid"] = auto_kappa_grid(n_classes, limit)
    block["kappa_grid_rule"] = (
        f"auto: {len(block['kappa_grid'])} values per class, at most {limit} vectors"
        if block["kappa_grid"] is not None
        else f"auto: skipped, 2 values over {n_classes} classes exceed {limit}"
    )


def data_locations(config: Mapping) -> dict:
    """Where sources are read from: the UCI mirror, the OpenML cache and OpenML mirror."""
    openml = config["openml"]
    cache = openml["cache"] or str(results_dir(config) / "openml")
    mirror = mirror_path(config)
    return {
        "mirror": str(mirror) if mirror is not None else None,
        "openml_cache": cache,
        "openml_mirror": openml["mirror"],
    }


def kappa_by_label(vector, classes: Sequence[str], key: str) -> list[float]:
    """A kappa vector as a list in class order; a mapping ``{label: value}`` is reordered.

    The library's :func:`pdmeasure.measures.labels.kappa_vector` does the work (a list of the
    wrong length, a mapping that leaves out a class or names a label that is not a class are
    its errors); a list is returned as given, so its values keep their spelling in ``params``.

    Raises
    ------
    ConfigError
        Naming ``key``, the problem, the classes and the fix.
    """
    if isinstance(vector, Mapping):
        vector = {str(label): value for label, value in vector.items()}
    try:
        values = kappa_vector(vector, classes)
    except ValueError as exc:
        raise ConfigError(
            f"config key `{key}`: {exc}; the classes are {list(classes)} -- to fix: give one "
            "value per class, in the order of `classes`, or a mapping naming every class label "
            "as spelt in the data"
        ) from None
    return values.tolist() if isinstance(vector, Mapping) else list(vector)


def auto_kappa_grid(n_classes: int, limit: int) -> list[float] | None:
    """The ``kappa_grid: auto`` values for ``n_classes`` classes.

    The most evenly spaced values from 0 to 1 (at most :data:`AUTO_GRID_MAX_VALUES`, at
    least 2) whose grid ``values ** n_classes`` has at most ``limit`` kappa vectors; None
    when even two values exceed it (the grid histogram is skipped, as with ``null``).
    """
    values = min(AUTO_GRID_MAX_VALUES, _largest_base(limit, n_classes))
    if values < 2:
        return None
    return [round(i / (values - 1), 6) for i in range(values)]


def check_config(config: Mapping) -> None:
    """Checks that span keys of the resolved config (:func:`resolve_run`).

    - every kappa vector has values in [0, 1];
    - ``kappa_grid`` values lie in [0, 1];
    - the grids are small enough to run (:func:`check_sizes`).

    Raises
    ------
    ConfigError
        Naming the key.
    """
    for name, ds in config["datasets"].items():
        key = f"datasets.{name}"
        # Their length was checked when they were resolved (:func:`kappa_by_label`).
        for vname, vector in ds.get("kappa_vectors", {}).items():
            _check_unit_interval(vector, f"{key}.kappa_vectors.{vname}")
        _check_unit_interval(ds.get("kappa_grid") or [], f"{key}.kappa_grid")
    check_sizes(config)
    check_uncertainty(config.get("uncertainty", {}))


#: Fewest ``uncertainty.draws``, and fewest draws in each tail of a ``uncertainty.level``
#: interval: a percentile interval read off fewer draws than this is mostly noise.
MIN_UNCERTAINTY_DRAWS = 100
MIN_TAIL_DRAWS = 5


def check_uncertainty(block: Mapping) -> None:
    """Ranges of the ``uncertainty`` block (the schema checks only the types).

    ``level`` in (0, 1); ``draws`` at least :data:`MIN_UNCERTAINTY_DRAWS` and at least
    :data:`MIN_TAIL_DRAWS` draws in each tail of the interval; ``prior`` > 0; ``rope`` >= 0;
    ``seed`` >= 0. Checked here rather than in the schema so that each message gives the fix.

    Raises
    ------
    ConfigError
        Naming the key, the value and the fix.
    """
    level = float(block.get("level", 0.95))
    draws = int(block.get("draws", 4000))
    if not 0.0 < level < 1.0:
        raise ConfigError(
            f"config key `uncertainty.level`: {level!r} is not strictly between 0 and 1; "
            "to fix: give the interval's probability as a fraction, e.g. 0.95 (not 95)"
        )
    tail = (1.0 - level) / 2.0
    needed = max(MIN_UNCERTAINTY_DRAWS, math.ceil(MIN_TAIL_DRAWS / tail - 1e-9))
    if draws < needed:
        raise ConfigError(
            f"config key `uncertainty.draws`: {draws} draws are too few for a {level:g} "
            f"interval (at least {MIN_UNCERTAINTY_DRAWS}, and {MIN_TAIL_DRAWS} draws in each "
            f"tail); to fix: `uncertainty.draws: {needed}` or more (default 4000)"
        )
    for key, strict, fix in (
        ("prior", True, "null (the default, 1/(2(C-1))) or a positive number (0.5: Jeffreys)"),
        ("rope", False, "0 to turn equivalence off, or e.g. 0.01"),
        ("seed", False, "any non-negative integer, e.g. 0"),
    ):
        value = block.get(key)
        if value is not None and (value <= 0 if strict else value < 0):
            bound = "> 0" if strict else ">= 0"
            raise ConfigError(
                f"config key `uncertainty.{key}`: {value!r} is negative{' or zero' if strict else ''}; "
                f"it must be {bound}; to fix: set `uncertainty.{key}` to {fix}"
            )


#: The exact analysis counts kappa vectors exactly (Python ints) or, past 2**63, in float64
#: (pdmeasure.exact.lattice): a grid with more vectors than float64 can hold cannot be counted.
#: 2**1023 is a power of two just below the largest float (about 1.8e308).
MAX_COUNTABLE_VECTORS = 2**1023


def check_sizes(config: Mapping) -> None:
    """Refuse grids too large to run, before any job: each size is computed from the config.

    - ``datasets.<name>.kappa_grid``: the grid histogram enumerates ``len(kappa_grid) **
      n_classes`` kappa vectors; at most ``histogram.max_grid_vectors``.
    - ``exact.fine_grid_values`` (and the kappa grid): the exact analysis counts the vectors of
      its grids exactly where they fit int64 and in float64 beyond, so a grid may have at most
      :data:`MAX_COUNTABLE_VECTORS` (2**1023, about 9e307) vectors; 11 values per class allow
      any number of classes up to 295.

    Raises
    ------
    ConfigError
        Naming the dataset, the key, the size and the fixes.
    """
    limit = int(config["histogram"]["max_grid_vectors"])
    fine = int(config["exact"]["fine_grid_values"])
    for name, ds in config["datasets"].items():
        n_classes = len(ds["classes"])
        grid = ds.get("kappa_grid")
        key = f"datasets.{name}.kappa_grid"
        if grid is not None and len(grid) ** n_classes > limit:
            raise ConfigError(
                f"config key `{key}`: {len(grid)} values over the {n_classes} classes of dataset "
                f"`{name}` make {len(grid) ** n_classes:.3g} kappa vectors to enumerate, above "
                f"`histogram.max_grid_vectors` ({limit:.3g}). Fix: fewer values (at most "
                f"{_largest_base(limit, n_classes)} per class), `kappa_grid: null` to skip this "
                "dataset's grid histogram (the exact analysis still covers the fine grid and "
                "uniform kappa without enumerating), or raise `histogram.max_grid_vectors`"
            )
        if grid is not None and len(grid) ** n_classes > MAX_COUNTABLE_VECTORS:
            raise ConfigError(
                f"config key `{key}`: {_sci(len(grid) ** n_classes)} kappa vectors on dataset "
                f"`{name}`, more than the exact analysis can count (2**1023, the float64 range); "
                f"give at most {_largest_base(MAX_COUNTABLE_VECTORS, n_classes)} values, or "
                "`kappa_grid: null`"
            )
        if fine**n_classes > MAX_COUNTABLE_VECTORS:
            raise ConfigError(
                f"config key `exact.fine_grid_values`: {fine} values per class over the "
                f"{n_classes} classes of dataset `{name}` make {_sci(fine**n_classes)} kappa "
                "vectors, more than the exact analysis can count (2**1023 = 9e307, the float64 "
                f"range). Fix: `exact.fine_grid_values: "
                f"{_largest_base(MAX_COUNTABLE_VECTORS, n_classes)}` or fewer (uniform kappa is "
                "analysed as well and has no such limit)"
            )


def _sci(number: int) -> str:
    """A non-negative int in ``.3g`` notation, also past the float range (``1.23e+400``)."""
    if number < 10**300:
        return f"{number:.3g}"
    exponent = len(str(number)) - 1
    return f"{number / 10 ** (exponent - 2) / 100:.3g}e+{exponent}"


def _largest_base(limit: int, exponent: int) -> int:
    """The largest integer b with b ** exponent <= limit (exact, no float rounding)."""
    base = int(round(limit ** (1.0 / exponent)))
    while base**exponent > limit:
        base -= 1
    while (base + 1) ** exponent <= limit:
        base += 1
    return base


def _check_unit_interval(values: Sequence[float], key: str) -> None:
    bad = [v for v in values if not 0.0 <= float(v) <= 1.0]
    if bad:
        raise ConfigError(f"config key `{key}`: values {bad} are outside [0, 1]")


def check_engines(config: Mapping) -> None:
    """Load every configured engine and call its ``check_available()``.

    Each configured classifier is then checked with the engine's ``check_classifier(name,
    params)`` (unknown names, bad parameters).

    Raises
    ------
    ConfigError
        Naming ``engines`` (or ``classifiers.<engine>.<name>``) and what to install or change.
    """
    for name in config["engines"]:
        try:
            engine = get_engine(name)
        except ImportError as exc:
            raise ConfigError(
                f"config key `run.engines`: engine {name!r} cannot be loaded ({exc}); remove it from "
                "`run.engines` (e.g. `--config 'run={engines: [sklearn]}'`) or install what is "
                "missing"
            ) from None
        try:
            engine.check_available()
        except EngineUnavailable as exc:
            raise ConfigError(
                f"config key `run.engines`: engine {name!r} is unavailable: {exc} -- remove it "
                "from `run.engines` (e.g. `--config 'run={engines: [sklearn]}'`) or install what "
                "is missing"
            ) from None
        for classifier, params in config["classifiers"][name].items():
            try:
                engine.check_classifier(classifier, params)
            except ValueError as exc:
                raise ConfigError(f"config key `classifiers.{name}.{classifier}`: {exc}") from None


def mirror_path(config: Mapping) -> Path | None:
    """The offline UCI mirror: config ``mirror``, else ``$UCI_MIRROR``, else None."""
    value = config.get("mirror") or os.environ.get(MIRROR_ENV)
    return Path(value) if value else None


def results_dir(config: Mapping) -> Path:
    """The results folder (config ``results``)."""
    return Path(config["results"])  # validated: the schema fills the default


def check_data(config: Mapping) -> None:
    """Check each dataset's ``classes``, ``target`` and ``numeric_features`` against its data.

    An explicitly configured ``mirror`` must be a folder with ``MANIFEST.json``. The data
    are looked up without running anything: the local ``path`` file, else the
    mirror's ``MANIFEST.json`` entry for the ``uci_id``, else an already fetched canonical
    table ``<results>/data/<name>.csv``. A dataset none of these describe is checked by the
    fetch step instead. Files are read and checked as the fetch step reads them
    (:func:`pdmeasure.pipeline.fetch.read_local_csv`, :func:`pdmeasure.pipeline.fetch.check_table`).

    Raises
    ------
    ConfigError
        Naming the key, the dataset, the file and the fix: the mirror is not a folder with a
        readable ``MANIFEST.json``; a file is missing, empty, not UTF-8 or not a CSV with one
        value per column; the target column is missing; the data's classes are not
        ``classes`` in order of first appearance, or fewer than two.
    """
    mirror = mirror_path(config)
    has_manifest = mirror is not None and (mirror / "MANIFEST.json").is_file()
    if config.get("mirror") and not has_manifest:
        raise ConfigError(
            f"config key `mirror`: {config['mirror']!r} is not a folder with MANIFEST.json "
            f"(relative paths start at the working directory {Path.cwd()})"
        )
    uci = [name for name, ds in config["datasets"].items() if ds.get("uci_id") is not None]
    # Only datasets fetched from UCI read the manifest; a corrupt one is reported for them.
    manifest = load_manifest(mirror, datasets=uci) if mirror and has_manifest and uci else None
    for name, ds in config["datasets"].items():
        if ds.get("path") is not None:
            try:
                source = read_source(name, ds)
            except DataFetchError as exc:
                raise ConfigError(f"config key `datasets.{name}.path`: {exc}") from None
            ordered = source.classes is None
            check_table(name, source.frame, ds, source=source.origin, ordered=ordered)
            continue
        if ds.get("uci_id") is None:
            continue  # OpenML: checked by the fetch step, which downloads the data
        entry = None
        if manifest is not None:
            entry = manifest_entry(manifest, ds["uci_id"])
        if entry is not None:
            subject = f"dataset `{name}` (file {Path(str(mirror)) / 'MANIFEST.json'})"
            if ds["target"] != entry["target"]:
                raise ConfigError(
                    f"config key `datasets.{name}.target`: {subject}: {ds['target']!r}, but the "
                    f"class column of UCI dataset {ds['uci_id']} is {entry['target']!r} -- to "
                    f"fix: set `datasets.{name}.target: {entry['target']}`"
                )
            unknown = [f for f in ds["numeric_features"] if f not in entry["columns"]]
            if unknown:
                raise ConfigError(
                    f"config key `datasets.{name}.numeric_features`: {unknown} are not columns "
                    f"of {subject}; its columns are {entry['columns']} -- to fix: list only "
                    "column names"
                )
            check_class_order(
                name, ds["classes"], entry["class_order_first_appearance"], source=subject
            )
            continue
        fetched = results_dir(config) / "data" / f"{name}.csv"
        if not fetched.is_file():
            continue
        hint = "; or delete this fetched table so that the fetch step writes it again"
        try:
            frame = read_local_csv(name, fetched)
        except DataFetchError as exc:
            raise ConfigError(f"config key `datasets.{name}`: {exc}{hint}") from None
        check_table(name, frame, ds, source=fetched)


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
