"""Datasets by the folder: each ``dataset_files`` entry of the config expanded to one dataset
block per matching file, named after the file; and the errors about such a dataset worded
with the key the user wrote (``dataset_files.<i>...``) instead of a ``datasets.<name>`` block
that is not in the config."""

from __future__ import annotations

import copy
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
        paths = sorted(
            path
            for path in glob.glob(pattern, recursive=True)
            if os.path.isfile(path) and not Path(path).resolve().is_relative_to(results)
        )
        if not paths:
            raise ConfigError(
                f"config key `{key}`: no file matches {pattern!r} (relative patterns start at "
                f"the working directory {Path.cwd()}; folders, hidden files and files under "
                f"the results folder {config.get('results') or 'results'!r} do not count); "
                "to fix: correct the pattern, or run Snakemake in the folder it is relative to "
                "(--directory)"
            )
        shared = {k: copy.deepcopy(v) for k, v in entry.items() if k != "glob"}
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


def note_overrides(blocks: Mapping[str, Mapping], files: Mapping[str, DatasetFile]) -> None:
    """Log a warning for each dataset of ``files`` that a ``datasets`` block of the same name
    replaces with another source: the file is then not read at all (a block whose ``path``
    is the file itself is the expected way to give one file keys of its own, and is not
    reported)."""
    for name, file in files.items():
        block = blocks.get(name)
        if block is None:
            continue
        path = block.get("path")
        if path is not None and os.path.abspath(path) == os.path.abspath(file.path):
            continue
        source = next(
            (f"{k}: {block[k]}" for k in ("uci_id", "openml_id", "path") if block.get(k)),
            "no source",
        )
        _log.warning(
            "dataset `%s`: the block `datasets.%s` (%s) replaces the file %s matched by "
            "`dataset_files.%d.glob` (%r), which is not read",
            name,
            name,
            source,
            file.path,
            file.entry,
            file.pattern,
        )


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
