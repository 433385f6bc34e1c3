"""Checks across keys of the resolved config (kappa vector lengths, engines and their
classifiers, uncertainty settings, grid sizes), and of the class order against the data
wherever the data can be read without a job."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pdmeasure.pipeline.config.files import naming_file_keys
from pdmeasure.pipeline.config.resolve import largest_base, mirror_path, results_dir
from pdmeasure.pipeline.data.classes import check_class_order
from pdmeasure.pipeline.data.fetch import check_table, read_local_csv, read_source
from pdmeasure.pipeline.data.mirror import load_manifest, manifest_entry
from pdmeasure.pipeline.engines import get_engine
from pdmeasure.pipeline.engines.base import EngineUnavailable
from pdmeasure.pipeline.errors import ConfigError, DataFetchError


def check_config(config: Mapping) -> None:
    """Checks that span keys of the resolved config (:func:`resolve_run`): those of each
    dataset (:func:`check_dataset_keys`) and of the ``uncertainty`` block
    (:func:`check_uncertainty`).

    Raises
    ------
    ConfigError
        Naming the key (of its ``dataset_files`` entry for a dataset that came from a file).
    """
    check_dataset_keys(config)
    check_uncertainty(config.get("uncertainty", {}))


def check_dataset_keys(config: Mapping) -> None:
    """The checks of :func:`check_config` on each dataset's keys.

    - every kappa vector has values in [0, 1];
    - ``kappa_grid`` values lie in [0, 1];
    - the grids are small enough to run (:func:`check_sizes`).

    Raises
    ------
    ConfigError
        Naming the key (of its ``dataset_files`` entry for a dataset that came from a file).
    """
    with naming_file_keys(_file_origins(config)):
        for name, ds in config["datasets"].items():
            key = f"datasets.{name}"
            # Their length was checked when they were resolved (:func:`kappa_by_label`).
            for vname, vector in ds.get("kappa_vectors", {}).items():
                _check_unit_interval(vector, f"{key}.kappa_vectors.{vname}")
            _check_unit_interval(ds.get("kappa_grid") or [], f"{key}.kappa_grid")
        check_sizes(config)


def dataset_problems(run: Mapping[str, Any], *, read_data: bool = True) -> dict[str, str]:
    """The resolved run's datasets that fail a check of their own: name -> the message.

    Every dataset is checked (:func:`check_dataset_keys`
    and, with ``read_data``, :func:`check_data`), each
    alone, so that one failing dataset does not hide the next.

    Raises
    ------
    ConfigError
        A check that is not about one dataset fails (the ``uncertainty`` block).
    """
    check_uncertainty(run.get("uncertainty", {}))
    origins = run.get("dataset_files") or {}
    problems = {}
    for name, block in run["datasets"].items():
        alone = {
            **run,
            "datasets": {name: block},
            "dataset_files": {name: origins[name]} if name in origins else {},
        }
        try:
            check_dataset_keys(alone)
            if read_data:
                check_data(alone)
        except ConfigError as exc:
            problems[name] = str(exc)
    return problems


def _file_origins(config: Mapping) -> Mapping:
    """The datasets of a resolved config that came from ``dataset_files``: name -> origin."""
    origins = config.get("dataset_files")
    return origins if isinstance(origins, Mapping) else {}


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
                f"{largest_base(limit, n_classes)} per class), `kappa_grid: null` to skip this "
                "dataset's grid histogram (the exact analysis still covers the fine grid and "
                "uniform kappa without enumerating), or raise `histogram.max_grid_vectors`"
            )
        if grid is not None and len(grid) ** n_classes > MAX_COUNTABLE_VECTORS:
            raise ConfigError(
                f"config key `{key}`: {_sci(len(grid) ** n_classes)} kappa vectors on dataset "
                f"`{name}`, more than the exact analysis can count (2**1023, the float64 range); "
                f"give at most {largest_base(MAX_COUNTABLE_VECTORS, n_classes)} values, or "
                "`kappa_grid: null`"
            )
        if fine**n_classes > MAX_COUNTABLE_VECTORS:
            raise ConfigError(
                f"config key `exact.fine_grid_values`: {fine} values per class over the "
                f"{n_classes} classes of dataset `{name}` make {_sci(fine**n_classes)} kappa "
                "vectors, more than the exact analysis can count (2**1023 = 9e307, the float64 "
                f"range). Fix: `exact.fine_grid_values: "
                f"{largest_base(MAX_COUNTABLE_VECTORS, n_classes)}` or fewer (uniform kappa is "
                "analysed as well and has no such limit)"
            )


def _sci(number: int) -> str:
    """A non-negative int in ``.3g`` notation, also past the float range (``1.23e+400``)."""
    if number < 10**300:
        return f"{number:.3g}"
    exponent = len(str(number)) - 1
    return f"{number / 10 ** (exponent - 2) / 100:.3g}e+{exponent}"


def _check_unit_interval(values: Sequence[float], key: str) -> None:
    bad = [v for v in values if not 0.0 <= float(v) <= 1.0]
    if bad:
        raise ConfigError(f"config key `{key}`: values {bad} are outside [0, 1]")


def check_engines(config: Mapping) -> None:
    """Load every configured engine and call its ``check_available()``.

    Each configured classifier is then checked with the engine's ``check_classifier(name,
    params)`` (unknown names, bad parameters).

    Parameters
    ----------
    config : mapping
        The resolved run (:func:`resolve_run`).

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


def check_data(config: Mapping) -> None:
    """Check each dataset's ``classes``, ``target`` and ``numeric_features`` against its data.

    An explicitly configured ``mirror`` must be a folder with ``MANIFEST.json``. The data
    are looked up without running anything: the local ``path`` file, else the
    mirror's ``MANIFEST.json`` entry for the ``uci_id``, else an already fetched canonical
    table ``<results>/data/<name>.csv``. A dataset none of these describe is checked by the
    fetch step instead. Files are read and checked as the fetch step reads them
    (:func:`pdmeasure.pipeline.data.fetch.read_local_csv`, :func:`pdmeasure.pipeline.data.fetch.check_table`).

    Raises
    ------
    ConfigError
        Naming the key, the dataset, the file and the fix: the mirror is not a folder with a
        readable ``MANIFEST.json``; a file is missing, empty, not UTF-8 or not a CSV with one
        value per column; the target column is missing; the data's classes are not
        ``classes`` in order of first appearance, or fewer than two. A dataset that came from
        a file is named by the key of its ``dataset_files`` entry.
    """
    with naming_file_keys(_file_origins(config)):
        _check_data(config)


def check_mirror_setting(config: Mapping) -> None:
    """An explicitly configured ``mirror`` must be a folder with ``MANIFEST.json``.

    Raises
    ------
    ConfigError
        Naming ``mirror`` and the working directory relative paths start at.
    """
    mirror = mirror_path(config)
    if config.get("mirror") and not (mirror is not None and (mirror / "MANIFEST.json").is_file()):
        raise ConfigError(
            f"config key `mirror`: {config['mirror']!r} is not a folder with MANIFEST.json "
            f"(relative paths start at the working directory {Path.cwd()})"
        )


def _check_data(config: Mapping) -> None:
    """:func:`check_data`, its errors about file datasets not yet renamed."""
    check_mirror_setting(config)
    mirror = mirror_path(config)
    has_manifest = mirror is not None and (mirror / "MANIFEST.json").is_file()
    uci = [name for name, ds in config["datasets"].items() if ds.get("uci_id") is not None]
    # Only datasets fetched from UCI read the manifest; a corrupt one is reported for them.
    manifest = load_manifest(mirror, datasets=uci) if mirror and has_manifest and uci else None
    for name, ds in config["datasets"].items():
        if ds.get("path") is not None:
            _check_local_file(name, ds)
            continue
        if ds.get("uci_id") is None:
            continue  # OpenML: checked by the fetch step, which downloads the data
        entry = None if manifest is None else manifest_entry(manifest, ds["uci_id"])
        if entry is not None:
            _check_manifest_entry(name, ds, entry, f"file {Path(str(mirror)) / 'MANIFEST.json'}")
        else:
            _check_fetched(name, ds, results_dir(config) / "data" / f"{name}.csv")


def _check_local_file(name: str, ds: Mapping) -> None:
    """A dataset's ``path`` file, read as the fetch step reads it, against its config block."""
    try:
        source = read_source(name, ds)
    except DataFetchError as exc:
        raise ConfigError(f"config key `datasets.{name}.path`: {exc}") from None
    check_table(name, source.frame, ds, source=source.origin, ordered=source.classes is None)


def _check_manifest_entry(name: str, ds: Mapping, entry: Mapping, manifest: str) -> None:
    """A UCI dataset's block against its mirror manifest ``entry`` (read from ``manifest``)."""
    subject = f"dataset `{name}` ({manifest})"
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
    check_class_order(name, ds["classes"], entry["class_order_first_appearance"], source=subject)


def _check_fetched(name: str, ds: Mapping, fetched: Path) -> None:
    """A UCI dataset's block against the table an earlier run fetched, if there is one."""
    if not fetched.is_file():
        return
    hint = "; or delete this fetched table so that the fetch step writes it again"
    try:
        frame = read_local_csv(name, fetched)
    except DataFetchError as exc:
        raise ConfigError(f"config key `datasets.{name}`: {exc}{hint}") from None
    check_table(name, frame, ds, source=fetched)
