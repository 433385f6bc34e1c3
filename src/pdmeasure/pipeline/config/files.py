"""Datasets by the folder: each ``dataset_files`` entry of the config expanded to one dataset
block per matching file, named after the file; and the errors about such a dataset worded
with the key the user wrote (``dataset_files.<i>...``) instead of a ``datasets.<name>`` block
that is not in the config."""

from __future__ import annotations

import copy
import fnmatch
import glob
import logging
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pdmeasure.pipeline.errors import ConfigError

#: The word of ``run.datasets`` that selects every dataset of ``dataset_files``; no dataset
#: may have this name.
ALL_FILES = "dataset_files"

#: Characters of a dataset name (the schema's ``propertyNames`` of ``datasets``).
_NOT_NAME = re.compile(r"[^A-Za-z0-9_]+")

_log = logging.getLogger(__name__)

#: The keys of a ``dataset_files`` entry that are not keys of its files' dataset blocks.
ENTRY_KEYS = ("glob", "exclude", "skip_invalid")

#: The keys of a dataset block that give its source.
_SOURCES = ("uci_id", "openml_id", "path")


def is_excluded(path: str, patterns: list[str]) -> bool:
    """Whether ``path`` matches one of the ``exclude`` patterns, by its path (as the glob
    wrote it, ``**`` spanning folders) or by its file name.

    >>> is_excluded("data/nursery.arff", ["nursery.arff"]), is_excluded("data/a.arff", ["b*"])
    (True, False)
    >>> is_excluded("data/old/x.arff", ["data/old/**"])
    True
    """
    name = Path(path).name
    normalised = Path(path).as_posix()
    return any(
        fnmatch.fnmatchcase(normalised, pattern) or fnmatch.fnmatchcase(name, pattern)
        for pattern in patterns
    )


@dataclass(frozen=True)
class DatasetFile:
    """One file matched by a ``dataset_files`` entry.

    Attributes
    ----------
    name : str
        The dataset's name (:func:`dataset_name` of the file name).
    path : str
        The file as the pattern matched it (a relative pattern gives a relative path, which
        is read from the working directory, as ``path:`` is).
    entry : int
        Position of the entry in ``dataset_files``.
    pattern : str
        The entry's ``glob``.
    block : dict
        The dataset block of the file: the entry's keys without ``glob``, with ``path`` set
        to the file and no other source.
    """

    name: str
    path: str
    entry: int
    pattern: str
    block: dict

    def origin(self) -> dict:
        """Where the dataset came from, as the resolved config keeps it:
        ``{"path", "entry", "glob"}``."""
        return {"path": self.path, "entry": self.entry, "glob": self.pattern}


def dataset_name(file_name: str) -> str:
    """The dataset name of a data file: its name without the last extension, each run of
    characters other than A-Z, a-z, 0-9 and ``_`` replaced by one ``_``.

    >>> dataset_name("breast-cancer.arff"), dataset_name("weather.nominal.arff")
    ('breast_cancer', 'weather_nominal')
    """
    return _NOT_NAME.sub("_", Path(file_name).stem)


def expand_dataset_files(config: Mapping) -> dict[str, DatasetFile]:
    """Every file of every ``dataset_files`` entry, by dataset name, in entry order and
    within an entry in sorted path order.

    A pattern is Python's :func:`glob.glob` with ``recursive=True`` (``**`` spans folders),
    relative to the working directory like a dataset's ``path``. Folders, hidden files (as
    the shell skips them) and files under the results folder (``results``: the pipeline's
    own outputs, which a pattern such as ``**/*.csv`` would otherwise take as data) are
    skipped.

    ``config`` must have passed :func:`~pdmeasure.pipeline.config.validate_schema`, which
    fills each entry's defaults.

    Raises
    ------
    ConfigError
        Naming ``dataset_files.<i>.glob``: a pattern matches no file; two files would get
        the same name (the same file matched by two entries included); a file would be named
        ``dataset_files``, the word of ``run.datasets``.
    """
    results = Path(config.get("results") or "results").resolve()
    found: dict[str, DatasetFile] = {}
    for index, entry in enumerate(config.get("dataset_files") or []):
        pattern = entry["glob"]
        key = f"dataset_files.{index}.glob"
        excluded = entry.get("exclude") or []
        matched = [
            path
            for path in glob.glob(pattern, recursive=True)
            if os.path.isfile(path) and not Path(path).resolve().is_relative_to(results)
        ]
        paths = sorted(path for path in matched if not is_excluded(path, excluded))
        if matched and not paths:
            raise ConfigError(
                f"config key `dataset_files.{index}.exclude`: leaves none of the "
                f"{len(matched)} files of {pattern!r}; to fix: narrow the exclude patterns"
            )
        if not paths:
            raise ConfigError(
                f"config key `{key}`: no file matches {pattern!r} (relative patterns start at "
                f"the working directory {Path.cwd()}; folders, hidden files and files under "
                f"the results folder {config.get('results') or 'results'!r} do not count); "
                "to fix: correct the pattern, or run Snakemake in the folder it is relative to "
                "(--directory)"
            )
        shared = {k: copy.deepcopy(v) for k, v in entry.items() if k not in ENTRY_KEYS}
        for path in paths:
            name = dataset_name(path)
            if name == ALL_FILES:
                raise ConfigError(
                    f"config key `{key}`: file {path} would be dataset `{name}`, the word "
                    "that selects every dataset of `dataset_files` in `run.datasets`; to fix: "
                    "rename the file, or narrow the pattern"
                )
            if name in found:
                raise ConfigError(_clash(found[name], path, index, pattern))
            block = {**copy.deepcopy(shared), "uci_id": None, "openml_id": None}
            block.update(path=path, sha256=None)
            found[name] = DatasetFile(name, path, index, pattern, block)
    return found


def _clash(first: DatasetFile, path: str, index: int, pattern: str) -> str:
    """The message of a second file ``path`` that would be dataset ``first.name`` too."""
    key = f"dataset_files.{index}.glob"
    where = f"`dataset_files.{first.entry}.glob` ({first.pattern!r})"
    if os.path.abspath(first.path) == os.path.abspath(path):
        return (
            f"config key `{key}`: file {path} is matched by both {where} and `{key}` "
            f"({pattern!r}); to fix: narrow one of the patterns so that one entry has it"
        )
    return (
        f"config key `{key}`: files {first.path} (matched by {where}) and {path} (matched by "
        f"{pattern!r}) would both be dataset `{first.name}`; to fix: rename one of the files, "
        "or narrow the patterns so that only one of them matches"
    )


def merge_blocks(
    blocks: Mapping[str, Mapping],
    files: Mapping[str, DatasetFile],
    defaults: Mapping[str, object] | None = None,
) -> tuple[dict[str, dict], dict[str, str]]:
    """The datasets that ``blocks`` (the ``datasets`` blocks) and ``files`` (the files of
    ``dataset_files``) define, and the names that both claim for different data.

    A block with the same name as a file, and no source of its own, adds its keys to the
    file's (they win over the entry's); a block whose ``path`` is that file is the file.
    A block with another source (``uci_id``, ``openml_id`` or another ``path``) would
    replace the user's file with other data: that name is a clash, and the file is left
    out of the definitions. ``defaults`` are the values the schema fills into a block where
    the user wrote nothing (:func:`~pdmeasure.pipeline.config.schema.dataset_defaults`):
    such a key of the block leaves the file's key as it is.

    Returns
    -------
    defined : dict
        Name -> dataset block: the blocks, then the files that no block replaces.
    clashes : dict
        Name -> the message that names the file, the block and the fixes.
    """
    defined: dict[str, dict] = {name: dict(block) for name, block in blocks.items()}
    clashes: dict[str, str] = {}
    for name, file in files.items():
        block = blocks.get(name)
        if block is None:
            defined[name] = copy.deepcopy(file.block)
            continue
        path = block.get("path")
        if path is not None and os.path.abspath(path) == os.path.abspath(file.path):
            continue
        source = next((f"{k}: {block[k]}" for k in _SOURCES if block.get(k)), None)
        if source is None:
            unset = defaults or {}
            own = {
                k: copy.deepcopy(v)
                for k, v in block.items()
                if k not in (*_SOURCES, "sha256") and (k not in unset or v != unset[k])
            }
            defined[name] = {**copy.deepcopy(file.block), **own}
            continue
        clashes[name] = (
            f"the file {file.path} (matched by `dataset_files.{file.entry}.glob`, "
            f"{file.pattern!r}) and the block `datasets.{name}` ({source}) are both dataset "
            f"`{name}`, and the block would replace the file with other data; to fix: leave "
            f"the file out (`dataset_files.{file.entry}.exclude: [{Path(file.path).name}]`), "
            f"rename it, or drop the block's source so that its keys apply to the file"
        )
    return defined, clashes


#: A config key of a dataset block in a message: `datasets.<name>` and what follows.
_DATASET_KEY = re.compile(r"`datasets\.([A-Za-z0-9_]+)((?:\.[^`\s]*)?)`")


def name_file_keys(message: str, origins: Mapping[str, Mapping]) -> str:
    """``message`` with each key ``datasets.<name>...`` of a dataset that came from a file
    (``origins``: name -> ``{"path", "entry", "glob"}``) written as the key of its entry,
    ``dataset_files.<i>...`` (``path`` becomes ``glob``), and where the dataset came from.

    The keys of an entry are the keys of a dataset block, so the fix a message offers
    ("set `datasets.x.target` to ...") holds for the entry, for every file it matches.
    """
    named: list[str] = []

    def entry_key(match: re.Match) -> str:
        name, rest = match.group(1), match.group(2)
        origin = origins.get(name)
        if origin is None:
            return match.group(0)
        if name not in named:
            named.append(name)
        rest = ".glob" if rest == ".path" else rest
        return f"`dataset_files.{origin['entry']}{rest}`"

    text = _DATASET_KEY.sub(entry_key, message)
    for name in named:
        origin = origins[name]
        text += (
            f" [dataset `{name}` is the file {origin['path']}, matched by "
            f"`dataset_files.{origin['entry']}.glob` ({origin['glob']!r}); a key of the entry "
            f"holds for each of its files; to give this file keys of its own, add a block "
            f"`datasets.{name}` with `path: {origin['path']}`]"
        )
    return text


@contextmanager
def naming_file_keys(origins: Mapping[str, Mapping]) -> Iterator[None]:
    """Re-raise a :class:`ConfigError` about a dataset that came from a file with its entry's
    key (:func:`name_file_keys`)."""
    try:
        yield
    except ConfigError as exc:
        message = name_file_keys(str(exc), origins)
        if message == str(exc):
            raise
        raise ConfigError(message) from None
