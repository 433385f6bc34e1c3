"""Fetch a dataset into its canonical table: ucimlrepo first, then the offline mirror.

The canonical table (``results/data/<name>.csv``) has one row per sample in the original
file order, one column per attribute named as in the mirror's ``MANIFEST.json`` (by position),
and every cell a string exactly as in the UCI file -- the missing marker (``"?"``) included.
Whatever the source, the same data give the same table:

- the mirror's original file is parsed as text (``csv`` module, no type inference);
- a frame from ``ucimlrepo`` is canonicalised: columns renamed by position, numbers written
  back as text (integral floats, i.e. integer columns that pandas widened because of a
  missing cell, as integers), NaN replaced by the dataset's missing marker;
- a local CSV (config ``path``) is read with every cell as a string.

A bad file stops the fetch with a message of the form ``dataset `name` (file path): what is
wrong; how to fix it`` -- an empty file, a file that is not UTF-8, a row with the wrong
number of fields, a corrupt ``MANIFEST.json``; a table that does not match its config block
(no target column, a class not in ``classes``, a single class) is a
:class:`~pdmeasure.pipeline.errors.ConfigError` in the same form. The fetch raises before anything is
written, and the table is written atomically, so a failed fetch leaves no file behind.

The mirror's files are read by :mod:`pdmeasure.pipeline.data.mirror`, the canonical table is
made, read back and checked by :mod:`pdmeasure.pipeline.data.canonical`; this module chooses
the source and re-exports both modules' readers.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, Unpack

import pandas as pd
import ucimlrepo

from pdmeasure.pipeline.data import openml, sources
from pdmeasure.pipeline.data.canonical import (
    canonicalise_uci,
    check_table,
    count_missing_class,
    data_subject,
    read_canonical,
    read_local_csv,
    snake_case,
)
from pdmeasure.pipeline.data.classes import (
    absent_classes_text,
    class_is_missing,
    first_appearance,
    missing_class_label,
    missing_class_text,
)
from pdmeasure.pipeline.data.mirror import (
    manifest_entry,
    mirror_columns,
    mirror_manifest,
    parse_original,
    read_mirror,
)
from pdmeasure.pipeline.data.sources import DEFAULT_SEPARATORS, SourceTable
from pdmeasure.pipeline.errors import DataFetchError

#: Seconds before a UCI request gives up (ucimlrepo sets no timeout; a filtered network would
#: otherwise hang the fetch job instead of falling back to the mirror).
UCI_TIMEOUT = 30.0

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Description:
    """What the config may leave out, as read from a dataset's data.

    Attributes
    ----------
    target : str
        The class column.
    classes : tuple of str
        The class order: declared (ARFF header, OpenML metadata) or of first appearance.
    class_order : str
        The rule that gave ``classes``, with the source, e.g. ``first appearance in file x.csv``.
    numeric : tuple of str
        Numeric features: declared (ARFF, OpenML), else inferred from the cells
        (:func:`pdmeasure.pipeline.data.sources.infer_numeric`).
    nominal : mapping or None
        Each nominal attribute -> its declared values, in declared order (ARFF, OpenML); None
        for a source that declares none.
    """

    target: str
    classes: tuple[str, ...]
    class_order: str
    numeric: tuple[str, ...]
    nominal: Mapping[str, tuple[str, ...]] | None = None


class Locations(TypedDict, total=False):
    """Where sources are read from besides a dataset's own config block.

    The keyword arguments ``**where`` of :func:`read_source`, :func:`describe` and
    :func:`fetch_dataset`, as :func:`pdmeasure.pipeline.config.data_locations` gives them; a
    key left out is None.

    Attributes
    ----------
    mirror : path-like or None
        The offline UCI mirror.
    openml_cache, openml_mirror : path-like or None
        scikit-learn's OpenML cache folder and its offline fallback.
    """

    mirror: str | Path | None
    openml_cache: str | Path | None
    openml_mirror: str | Path | None


def read_source(
    name: str,
    dataset: Mapping,
    *,
    logger: logging.Logger | None = None,
    prefer_mirror: bool = False,
    **where: Unpack[Locations],
) -> SourceTable:
    """Read one dataset from its source into a table of strings.

    Parameters
    ----------
    name : str
        The dataset's key under ``datasets``.
    dataset : mapping
        Its resolved config block (:func:`pdmeasure.pipeline.config.resolve_dataset`):
        ``uci_id``, ``openml_id`` or ``path`` with ``format``, ``separator``, ``header``,
        ``sha256``, ``target`` and ``missing``.
    logger : logging.Logger, optional
        Receives the source and any failed download.
    prefer_mirror : bool
        Read a UCI dataset from the mirror when it has it, before trying ucimlrepo, and an
        OpenML dataset from the cache, else the mirror, when one holds it, before a download
        (:func:`~pdmeasure.pipeline.data.openml.fetch_openml`): to describe the data while
        the workflow is parsed, without a network call or the import of scikit-learn.
    **where
        ``mirror``, ``openml_cache`` and ``openml_mirror`` (:class:`Locations`).

    Raises
    ------
    DataFetchError
        The source cannot be read (see the readers of :mod:`pdmeasure.pipeline.data.sources` and
        :func:`read_mirror`).
    """
    log = logger or _log
    if dataset.get("openml_id") is not None:
        return openml.fetch_openml(
            name,
            int(dataset["openml_id"]),
            target=dataset.get("target"),
            cache_dir=where.get("openml_cache"),
            mirror=where.get("openml_mirror"),
            logger=log,
            prefer_mirror=prefer_mirror,
        )
    if dataset.get("path") is not None:
        return _read_file_source(name, dataset)
    return _read_uci(name, dataset, where.get("mirror"), log, prefer_mirror)


def _read_file_source(name: str, dataset: Mapping, *, rows: bool = True) -> SourceTable:
    """A local ``path`` file read by its ``format``; the class column defaults to the last.
    ``rows=False``: an ARFF file's header alone (:func:`~pdmeasure.pipeline.data.sources.read_arff`)."""
    target = dataset.get("target")
    target = "last" if target is None else target
    fmt = dataset.get("format") or "csv"
    if fmt == "arff":
        return sources.read_arff(
            name, dataset["path"], target=target, sha256=dataset.get("sha256"), rows=rows
        )
    return sources.read_delimited(
        name,
        dataset["path"],
        separator=dataset.get("separator") or DEFAULT_SEPARATORS[fmt],
        header=dataset.get("header", True),
        target=target,
        missing=dataset.get("missing"),
        sha256=dataset.get("sha256"),
    )


def _read_uci(
    name: str, dataset: Mapping, mirror, log: logging.Logger, prefer_mirror: bool
) -> SourceTable:
    """A UCI dataset through ucimlrepo, else (or first, with ``prefer_mirror``) the mirror."""
    target = dataset.get("target")
    uci_id = int(dataset["uci_id"])
    if prefer_mirror and mirror_columns(name, mirror, uci_id) is not None:
        frame, path = read_mirror(name, uci_id, mirror, reason="read while parsing the workflow")
        return _uci_table(name, frame, target, mirror, uci_id, f"file {path}")
    try:
        with _socket_timeout(UCI_TIMEOUT):
            result = ucimlrepo.fetch_ucirepo(id=uci_id)
    except Exception as exc:  # noqa: BLE001 - any failure (network, outage, API) -> mirror
        log.warning(
            "dataset %s: ucimlrepo.fetch_ucirepo(id=%d) failed (%s: %s); falling back to the "
            "offline mirror",
            name,
            uci_id,
            type(exc).__name__,
            exc,
        )
        frame, path = read_mirror(name, uci_id, mirror, reason=f"{type(exc).__name__}: {exc}")
        return _uci_table(name, frame, target, mirror, uci_id, f"file {path}")
    columns = mirror_columns(name, mirror, uci_id)
    frame = canonicalise_uci(result.data.original, name, columns, dataset.get("missing"))
    return _uci_table(name, frame, target, mirror, uci_id, f"UCI id {uci_id} via ucimlrepo")


def _uci_table(name, frame, target, mirror, uci_id, origin) -> SourceTable:
    """A UCI table as a :class:`SourceTable`; the target defaults to the manifest's."""
    if target is None:
        entry = manifest_entry(mirror_manifest(name, Path(mirror)), uci_id) if mirror else None
        if entry is None:
            raise DataFetchError(
                f"{data_subject(name, f'UCI id {uci_id}')}: no class column is configured and "
                f"no mirror manifest names it; to fix: set `datasets.{name}.target`"
            )
        target = entry["target"]
    resolved = sources.resolve_target(name, list(frame.columns), target, origin=origin)
    return SourceTable(frame, resolved, None, None, origin, None)


def describe(
    name: str,
    dataset: Mapping,
    *,
    fetched: str | Path | None = None,
    **where: Unpack[Locations],
) -> Description:
    """The target, class order and numeric features of a dataset, read from its data.

    The class order is the one the source declares (an ARFF class attribute, OpenML's
    metadata), else the order of first appearance in the data -- the papers' convention and
    the order of the UCI files; the missing marker is no class (its rows have none). Numeric
    features are the declared ones, else those whose non-missing cells all parse as finite
    numbers. A UCI dataset is read from the mirror when it has the dataset, else from
    ``fetched`` when that exists, else through ucimlrepo; of a local ARFF file only the
    header is read.

    Parameters
    ----------
    name, dataset, **where
        As for :func:`read_source`.
    fetched : path-like, optional
        The canonical table of an earlier run.

    Raises
    ------
    DataFetchError
        The source cannot be read.
    """
    if (
        dataset.get("uci_id") is not None
        and fetched is not None
        and Path(fetched).is_file()
        and mirror_columns(name, where.get("mirror"), int(dataset["uci_id"])) is None
    ):
        # No mirror: the table an earlier run fetched describes the data without a download.
        table = _fetched_table(name, fetched, dataset.get("target"))
    elif dataset.get("path") is not None and dataset.get("format") == "arff":
        # An ARFF header declares all a description holds (target, class order, types): the
        # rows are read where they are checked and fetched.
        table = _read_file_source(name, dataset, rows=False)
    else:
        table = read_source(name, dataset, prefer_mirror=True, **where)
    return _description(table, dataset.get("missing"))


def _fetched_table(name: str, fetched: str | Path, target) -> SourceTable:
    """The canonical table of an earlier run as a :class:`SourceTable` (target default: last)."""
    try:
        frame = read_local_csv(name, fetched)
    except DataFetchError as exc:
        raise DataFetchError(
            f"{exc}; or delete this fetched table so that the fetch step writes it again"
        ) from None
    origin = f"file {fetched}"
    resolved = sources.resolve_target(name, list(frame.columns), target or "last", origin=origin)
    return SourceTable(frame, resolved, None, None, origin, None)


def _description(table: SourceTable, missing: str | None) -> Description:
    """What ``table`` declares, else its order of first appearance and inferred numbers."""
    if table.classes is not None:
        classes, rule = table.classes, f"declared order in {table.origin}"
    else:
        labels = table.frame[table.target].to_numpy(dtype=object)
        # The missing marker is no class: its rows have none (class_is_missing).
        labels = labels[~class_is_missing(labels, None, missing)]
        classes = tuple(first_appearance(labels))
        rule = f"first appearance in {table.origin}"
    if table.numeric is not None:
        numeric = table.numeric
    else:
        numeric = sources.infer_numeric(table.frame, table.target, missing)
    return Description(table.target, tuple(classes), rule, tuple(numeric), table.nominal)


def fetch_dataset(
    name: str,
    dataset: Mapping,
    *,
    logger: logging.Logger | None = None,
    **where: Unpack[Locations],
) -> tuple[pd.DataFrame, str]:
    """The canonical table of one configured dataset, and where it came from.

    Parameters
    ----------
    name, dataset, logger, **where
        As for :func:`read_source`, which reads the data; the table is then checked against
        the dataset's config block (:func:`check_table`).

    Returns
    -------
    frame : DataFrame
        The canonical table (all cells ``str``).
    source : str
        Human-readable origin: the UCI repository, the mirror file, OpenML, or the local file.

    Raises
    ------
    DataFetchError
        The data cannot be read: no usable source or mirror, a checksum mismatch, a file that
        is missing, empty, not UTF-8 or cannot be parsed.
    ConfigError
        The data do not match ``datasets.<name>.target``, ``.classes`` (a label not
        declared, another order, a single class) or ``.numeric_features``. A declared class
        with no row is no error: it stays in the class order, and a warning names it. Nor
        are rows without a class (the class cell is the missing marker): the table keeps
        them, and a warning counts them (:func:`count_missing_class`).
    """
    log = logger or _log
    table = read_source(name, dataset, logger=log, **where)
    # A source that declares its class order (ARFF, OpenML) lets any order be configured.
    absent = check_table(
        name, table.frame, dataset, source=table.origin, ordered=table.classes is None
    )
    frame = table.frame
    log.info(
        "dataset %s: %d rows x %d columns from %s", name, len(frame), frame.shape[1], table.origin
    )
    if absent:
        log.warning("%s", absent_classes_text(name, absent, len(frame)))
    unclassed = count_missing_class(frame, dataset)
    if unclassed:
        marker = missing_class_label(dataset["classes"], dataset.get("missing"))
        log.warning("%s", missing_class_text(name, unclassed, len(frame), marker))
    return frame, table.origin


@contextlib.contextmanager
def _socket_timeout(seconds: float):
    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(seconds)
    try:
        yield
    finally:
        socket.setdefaulttimeout(previous)


__all__ = [
    "UCI_TIMEOUT",
    "Description",
    "Locations",
    "canonicalise_uci",
    "check_table",
    "count_missing_class",
    "data_subject",
    "describe",
    "fetch_dataset",
    "parse_original",
    "read_canonical",
    "read_local_csv",
    "read_mirror",
    "read_source",
    "snake_case",
]
