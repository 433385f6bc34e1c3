"""The run's config resolved: the selection checked against the definitions, and every selected
dataset's source, target, class order, kappa vectors (a mapping by label becomes a positional
list) and kappa grid (``auto`` becomes values), with what the config leaves out read from the
data's description."""

from __future__ import annotations

import copy
import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from pdmeasure.measures.labels import kappa_vector
from pdmeasure.pipeline.config.files import (
    ALL_FILES,
    DatasetFile,
    expand_dataset_files,
    merge_blocks,
    naming_file_keys,
)
from pdmeasure.pipeline.config.problems import settle_problems
from pdmeasure.pipeline.config.schema import dataset_defaults
from pdmeasure.pipeline.data.fetch import Description, Locations, describe
from pdmeasure.pipeline.data.sources import DEFAULT_SEPARATORS
from pdmeasure.pipeline.engines import ENGINES
from pdmeasure.pipeline.errors import ConfigError, DataFetchError

#: Environment variable naming the offline UCI mirror when config ``mirror`` is null.
MIRROR_ENV = "UCI_MIRROR"

#: The sources of a dataset block; exactly one is given.
SOURCE_KEYS = ("uci_id", "openml_id", "path")

#: File name extensions of a local data file -> its format.
FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".arff": "arff"}

#: Most values per class of a ``kappa_grid: auto`` (0, 0.1, ..., 1).
AUTO_GRID_MAX_VALUES = 11


def resolve_run(config: Mapping, *, collect: bool = False) -> dict:
    """The config of this run: the selection checked, every selected dataset resolved.

    ``config`` must have passed :func:`validate_schema`. The datasets it defines are its
    ``datasets`` blocks and one per file of its ``dataset_files`` entries
    (:func:`~pdmeasure.pipeline.config.files.expand_dataset_files`), named after the file; a
    block replaces the file of the same name. The result is a new dict with the same
    settings, where

    - ``engines`` is ``run.engines``;
    - ``classifiers`` holds, per selected engine, the selected classifiers
      (``run.classifiers``, else every defined one), each entry normalised by
      :func:`normalise_classifier`;
    - ``datasets`` holds the selected datasets, in ``run.datasets`` order (where the word
      ``dataset_files`` stands for every dataset of ``dataset_files``), each resolved by
      :func:`resolve_dataset`;
    - ``dataset_files`` maps each dataset of the run that comes from a file to
      ``{"path", "entry", "glob"}``: its file, and the position and pattern of the entry that
      matched it (errors about the dataset name that entry's keys);
    - ``problems`` maps each selected dataset that cannot be resolved (see
      :func:`resolve_dataset`), or whose name a file and a block with a source of its own
      both claim (:func:`~pdmeasure.pipeline.config.files.merge_blocks`), to the message
      that says why and how to fix it; such a dataset is not in ``datasets``
      (:func:`~pdmeasure.pipeline.config.problems.settle_problems` decides what happens);
    - ``run`` is dropped (the keys above replace it).

    With ``collect`` false (default) the problems are settled at once
    (:func:`~pdmeasure.pipeline.config.problems.settle_problems`: an error, or the files of
    ``skip_invalid`` entries set aside); with ``collect`` the caller settles them, with the
    problems its further checks find.

    Raises
    ------
    ConfigError
        A selected dataset, engine or classifier is not defined, no dataset is defined, a
        ``dataset_files`` entry matches no file or two files of the same name.
    """
    run = config["run"]  # validated: the schema fills the defaults
    blocks = config.get("datasets") or {}
    if ALL_FILES in blocks:
        raise ConfigError(
            f"config key `datasets.{ALL_FILES}`: the name is reserved: in `run.datasets` it "
            "selects every dataset of `dataset_files`; to fix: rename the dataset"
        )
    files = expand_dataset_files(config)
    defined, clashes = merge_blocks(blocks, files, dataset_defaults() if files else None)
    if not defined:
        raise ConfigError(
            "config key `datasets`: no dataset is defined; to fix: add a block "
            "`datasets: {mydata: {path: data/mydata.csv}}`, or an entry "
            '`dataset_files: [{glob: "data/*.csv"}]`'
        )
    names = _selected_datasets(run["datasets"], defined, files)
    engines = list(run["engines"])
    _check_engines(engines, config["classifiers"])
    classifiers = _selected_classifiers(engines, run["classifiers"] or {}, config["classifiers"])
    skip = ("run", "datasets", "dataset_files")
    out = {k: copy.deepcopy(v) for k, v in config.items() if k not in skip}
    out["engines"] = engines
    out["classifiers"] = classifiers
    entries = config.get("dataset_files") or []
    origins = {
        n: {**f.origin(), "skip_invalid": bool(entries[f.entry].get("skip_invalid"))}
        for n, f in files.items()
        if n in names and (n not in blocks or n in clashes or not _has_source(blocks[n]))
    }
    merged = {**config, "datasets": defined}
    out["datasets"], out["problems"] = {}, {}
    for name in names:
        if name in clashes:
            out["problems"][name] = clashes[name]
            continue
        try:
            with naming_file_keys({name: origins[name]} if name in origins else {}):
                out["datasets"][name] = resolve_dataset(merged, name)
        except ConfigError as exc:
            out["problems"][name] = str(exc)
    out["dataset_files"] = origins
    out["cv"]["parts"] = declared_parts(config["cv"].get("parts") or {}, defined, config, names)
    if out["problems"] and not collect:
        settle_problems(out, out["problems"])
    return out


def _has_source(block: Mapping) -> bool:
    """Whether a dataset block names a source of its own."""
    return any(block.get(key) for key in SOURCE_KEYS)


def _selected_datasets(
    selection: Sequence[str] | None, defined: Mapping, files: Mapping[str, DatasetFile]
) -> list[str]:
    """The names ``run.datasets`` selects, in order: a name, or the word ``dataset_files``
    for every dataset of ``dataset_files``; a dataset selected twice keeps its first place.
    None selects every defined dataset."""
    if selection is None:
        return list(defined)
    names: list[str] = []
    for item in selection:
        if item == ALL_FILES and not files:
            raise ConfigError(
                f"config key `run.datasets`: `{ALL_FILES}` selects every dataset of "
                "`dataset_files`, but the config has no `dataset_files` entry; to fix: add one "
                '(`dataset_files: [{glob: "data/*.csv"}]`), or name the datasets to run'
            )
        for name in files if item == ALL_FILES else [item]:
            if name not in names:
                names.append(name)
    _require_defined(
        "run.datasets", names, defined, "add a block `datasets: {{{}: {{path: ...}}}}`"
    )
    return names


def _check_engines(engines: Sequence[str], defined: Mapping) -> None:
    """Every engine of ``run.engines`` is known and has classifiers defined under ``defined``."""
    for engine in engines:
        if engine not in ENGINES:
            raise ConfigError(
                f"config key `run.engines`: unknown engine {engine!r}; known engines: "
                f"{', '.join(sorted(ENGINES))}"
            )
        if not defined.get(engine):
            raise ConfigError(
                f"config key `classifiers.{engine}`: engine {engine!r} is listed in `run.engines` "
                f"but has no classifiers; add a block `classifiers: {{{engine}: {{Name: ...}}}}`"
            )


def _selected_classifiers(engines: list[str], selection: Mapping, defined: Mapping) -> dict:
    """Per engine, the classifiers ``run.classifiers`` selects (default: all), normalised."""
    for engine in selection:
        if engine not in engines:
            raise ConfigError(
                f"config key `run.classifiers.{engine}`: engine {engine!r} is not in "
                f"`run.engines` {engines}; add it there or remove this key"
            )
    classifiers = {}
    for engine in engines:
        chosen = selection.get(engine) or list(defined[engine])
        missing = [c for c in chosen if c not in defined[engine]]
        if missing:
            raise ConfigError(
                f"config key `run.classifiers.{engine}`: {missing} are not defined under "
                f"`classifiers.{engine}` (defined: {', '.join(defined[engine])})"
            )
        classifiers[engine] = {
            c: normalise_classifier(engine, c, defined[engine][c]) for c in chosen
        }
    return classifiers


def declared_parts(
    parts: Mapping[str, Mapping[str, int]],
    defined: Mapping,
    config: Mapping,
    names: Sequence[str],
) -> dict[str, dict[str, int]]:
    """``cv.parts`` resolved: dataset -> classifier -> number of parts, for the datasets of
    the run (in run order); a dataset defined but not selected by ``run.datasets`` is left
    out.

    Raises
    ------
    ConfigError
        A dataset that is not defined, or a classifier that no engine defines.
    """
    _require_defined("cv.parts", list(parts), defined, "remove it from `cv.parts`")
    known = {name for engine in config["classifiers"].values() for name in engine}
    for dataset, classifiers in parts.items():
        unknown = [name for name in classifiers if name not in known]
        if unknown:
            raise ConfigError(
                f"config key `cv.parts.{dataset}`: {unknown} are not classifiers of any "
                f"engine (defined: {', '.join(sorted(known))}); correct the name or remove it"
            )
    return {name: dict(parts[name]) for name in names if name in parts}


def _require_defined(key: str, names: Sequence[str], defined: Mapping, fix: str) -> None:
    """Raise a ConfigError naming ``key`` if it lists datasets not in ``defined`` (the
    ``datasets`` blocks and the datasets of ``dataset_files``); the fix offered is to correct
    the name or ``fix`` (``{}`` is the first unknown name)."""
    unknown = [n for n in names if n not in defined]
    if unknown:
        raise ConfigError(
            f"config key `{key}`: {unknown} are not defined under `datasets` or by "
            f"`dataset_files` (defined: {', '.join(defined)}); to fix: correct the name, or "
            f"{fix.format(unknown[0])}"
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
      the data's description (:func:`pdmeasure.pipeline.data.fetch.describe`): the class column
      by name, keyword (``first``/``last``) or position; the class order declared by an ARFF
      header or OpenML, else the order of first appearance in the data; the numeric features
      declared by ARFF/OpenML, else inferred from the cells. ``class_order`` records which
      rule gave the classes;
    - ``kappa_vectors``: a mapping ``{label: value}`` becomes a list in class order;
    - ``kappa_grid``: ``auto`` becomes :func:`auto_kappa_grid` values (or None);
      ``kappa_grid_rule`` records which;
    - ``weka.value_order``: null becomes ``declared`` for a source that declares its nominal
      values (ARFF, OpenML), else ``sorted``; with ``declared`` and the weka engine in the run,
      ``weka.declared_values`` holds each nominal attribute's declared values (see
      :func:`resolve_weka`).

    Raises
    ------
    ConfigError
        Naming the key: no or several sources, an unknown file extension, data that cannot be
        described, a kappa mapping with a missing or unknown label, ``value_order: declared``
        for a source that declares no values.
    """
    block = copy.deepcopy(dict(config["datasets"][name]))
    key = f"datasets.{name}"
    _resolve_source(block, key)
    block["class_order"] = "configured"
    description = _resolve_from_data(block, config, name, key)
    resolve_weka(block, config, name, description)
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


def _resolve_from_data(block: dict, config: Mapping, name: str, key: str) -> Description | None:
    """``target``, ``classes`` and ``numeric_features`` the config leaves to the data; the
    data's description when it was read (None when the config gives all three)."""
    target = block["target"]
    needs_data = (
        block["classes"] is None
        or block["numeric_features"] is None
        or target is None
        or isinstance(target, int)
        or target in ("first", "last")
    )
    if not needs_data:
        return None
    description = _describe(block, config, name, key)
    block["target"] = description.target
    if block["classes"] is None:
        block["classes"] = list(description.classes)
        block["class_order"] = description.class_order
    if block["numeric_features"] is None:
        block["numeric_features"] = list(description.numeric)
    return description


def _describe(block: dict, config: Mapping, name: str, key: str) -> Description:
    """:func:`~pdmeasure.pipeline.data.fetch.describe` with its errors naming ``key``."""
    try:
        fetched = results_dir(config) / "data" / f"{name}.csv"
        return describe(name, block, fetched=fetched, **data_locations(config))
    except DataFetchError as exc:
        raise ConfigError(f"config key `{key}`: {exc}") from None


def declares_values(block: Mapping) -> bool:
    """Whether a resolved dataset block's source declares its nominal values and types: an
    ARFF file or an OpenML dataset."""
    return block.get("openml_id") is not None or block.get("format") == "arff"


def resolve_weka(
    block: dict, config: Mapping, name: str, description: Description | None = None
) -> None:
    """Resolve the dataset's ``weka`` block in place: ``value_order`` and ``declared_values``.

    ``value_order: null`` (the default) is ``declared`` for a source that declares its
    nominal values (an ARFF header, OpenML's metadata), so the Weka engine builds the
    instances Weka's own ARFF loader builds; else ``sorted``. With ``declared`` and the weka
    engine in ``run.engines``, ``declared_values`` maps each nominal attribute (the class
    included) to its declared values, read from the source (``description`` when it was
    read already): the Weka jobs get them as a parameter, and no job reads the source again.

    Raises
    ------
    ConfigError
        Naming ``datasets.<name>.weka.value_order``: ``declared`` for a source that declares
        no values (a CSV or TSV file, UCI).
    """
    weka = dict(block.get("weka") or {})
    declares = declares_values(block)
    order = weka.get("value_order") or ("declared" if declares else "sorted")
    weka["value_order"] = order
    if order == "declared":
        key = f"datasets.{name}"
        if not declares:
            source = "a UCI dataset" if block.get("uci_id") is not None else "a delimited file"
            raise ConfigError(
                f"config key `{key}.weka.value_order`: `declared` takes each nominal "
                f"attribute's values from the source's declaration, but dataset `{name}` is "
                f"{source}, which declares none; to fix: `value_order: sorted` (the default "
                "for such a source) or `first_appearance`, or give the data as an ARFF file"
            )
        if "weka" in (config.get("run") or {}).get("engines", ()):
            if description is None or description.nominal is None:
                description = _describe(block, config, name, key)
            weka["declared_values"] = {
                attribute: list(values) for attribute, values in (description.nominal or {}).items()
            }
    block["weka"] = weka


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


def data_locations(config: Mapping) -> Locations:
    """Where sources are read from: the UCI mirror, the OpenML cache and OpenML mirror."""
    openml = config["openml"]
    cache = openml["cache"] or str(results_dir(config) / "openml")
    mirror = mirror_path(config)
    return {
        "mirror": str(mirror) if mirror is not None else None,
        "openml_cache": cache,
        "openml_mirror": openml["mirror"],
    }


def kappa_by_label(
    vector: Sequence[float] | Mapping[str, float], classes: Sequence[str], key: str
) -> list[float]:
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
    values = min(AUTO_GRID_MAX_VALUES, largest_base(limit, n_classes))
    if values < 2:
        return None
    return [round(i / (values - 1), 6) for i in range(values)]


def largest_base(limit: int, exponent: int) -> int:
    """The largest integer b with b ** exponent <= limit (exact, no float rounding)."""
    base = int(round(limit ** (1.0 / exponent)))
    while base**exponent > limit:
        base -= 1
    while (base + 1) ** exponent <= limit:
        base += 1
    return base


def mirror_path(config: Mapping) -> Path | None:
    """The offline UCI mirror: config ``mirror``, else ``$UCI_MIRROR``, else None."""
    value = config.get("mirror") or os.environ.get(MIRROR_ENV)
    return Path(value) if value else None


def results_dir(config: Mapping) -> Path:
    """The results folder (config ``results``)."""
    return Path(config["results"])  # validated: the schema fills the default
