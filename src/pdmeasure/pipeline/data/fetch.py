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
"""

from __future__ import annotations

import contextlib
import logging
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, Unpack

import numpy as np
import pandas as pd
import ucimlrepo

from pdmeasure.pipeline.data import sources
from pdmeasure.pipeline.data.classes import (
    absent_classes_text,
    check_class_order,
    first_appearance,
)
from pdmeasure.pipeline.data.mirror import load_manifest, manifest_entry
from pdmeasure.pipeline.data.sources import DEFAULT_SEPARATORS, SourceTable, string_frame
from pdmeasure.pipeline.data.text import csv_rows, decode_text, read_pinned
from pdmeasure.pipeline.errors import ConfigError, DataFetchError

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
        Read a UCI dataset from the mirror when it has it, before trying ucimlrepo (to
        describe the data without a network call while the workflow is parsed).
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
        return sources.fetch_openml(
            name,
            int(dataset["openml_id"]),
            target=dataset.get("target"),
            cache_dir=where.get("openml_cache"),
            mirror=where.get("openml_mirror"),
            logger=log,
        )
    if dataset.get("path") is not None:
        return _read_file_source(name, dataset)
    return _read_uci(name, dataset, where.get("mirror"), log, prefer_mirror)


def _read_file_source(name: str, dataset: Mapping) -> SourceTable:
    """A local ``path`` file read by its ``format``; the class column defaults to the last."""
    target = dataset.get("target")
    target = "last" if target is None else target
    fmt = dataset.get("format") or "csv"
    if fmt == "arff":
        return sources.read_arff(name, dataset["path"], target=target, sha256=dataset.get("sha256"))
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
    if prefer_mirror and _mirror_columns(name, mirror, uci_id) is not None:
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
    columns = _mirror_columns(name, mirror, uci_id)
    frame = canonicalise_uci(result.data.original, name, columns, dataset.get("missing"))
    return _uci_table(name, frame, target, mirror, uci_id, f"UCI id {uci_id} via ucimlrepo")


def _uci_table(name, frame, target, mirror, uci_id, origin) -> SourceTable:
    """A UCI table as a :class:`SourceTable`; the target defaults to the manifest's."""
    if target is None:
        entry = manifest_entry(_mirror_manifest(name, Path(mirror)), uci_id) if mirror else None
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
    the order of the UCI files. Numeric features are the declared ones, else those whose
    non-missing cells all parse as finite numbers. A UCI dataset is read from the mirror when
    it has the dataset, else from ``fetched`` when that exists, else through ucimlrepo.

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
        and _mirror_columns(name, where.get("mirror"), int(dataset["uci_id"])) is None
    ):
        # No mirror: the table an earlier run fetched describes the data without a download.
        table = _fetched_table(name, fetched, dataset.get("target"))
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
        with no row is no error: it stays in the class order, and a warning names it.
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
    return frame, table.origin


@contextlib.contextmanager
def _socket_timeout(seconds: float):
    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(seconds)
    try:
        yield
    finally:
        socket.setdefaulttimeout(previous)


def data_subject(name: str, source: str | Path) -> str:
    """The subject of a data error: ``dataset `name` (file data/name.csv)``.

    ``source`` is a :class:`~pathlib.Path` (shown as ``file <path>``) or a description of
    the origin (``"UCI id 19 via ucimlrepo"``).
    """
    origin = f"file {source}" if isinstance(source, Path) else source
    return f"dataset `{name}` ({origin})"


def _mirror_manifest(name: str, mirror: Path) -> dict:
    """:func:`~pdmeasure.pipeline.data.mirror.load_manifest` with its errors as :class:`DataFetchError`."""
    try:
        return load_manifest(mirror, datasets=[name])
    except ConfigError as exc:
        raise DataFetchError(str(exc)) from None


def _mirror_columns(name: str, mirror, uci_id: int) -> list[str] | None:
    """The manifest's column names for ``uci_id``, or None without a mirror manifest.

    Raises
    ------
    DataFetchError
        The manifest exists but is corrupt: the column names would otherwise silently change.
    """
    if mirror is None or not (Path(mirror) / "MANIFEST.json").is_file():
        return None
    entry = manifest_entry(_mirror_manifest(name, Path(mirror)), uci_id)
    return entry["columns"] if entry else None


def read_mirror(
    name: str, uci_id: int, mirror: str | Path | None, *, reason: str = "ucimlrepo failed"
) -> tuple[pd.DataFrame, Path]:
    """Parse the original UCI file of ``uci_id`` from the mirror, after checking its sha256.

    Parameters
    ----------
    name : str
        Dataset key (for messages).
    uci_id : int
        UCI id, looked up in ``MANIFEST.json``.
    mirror : path-like or None
        The mirror folder.
    reason : str
        Why the mirror is needed (for the error message).

    Returns
    -------
    frame : DataFrame
        Columns named from the manifest, every cell the original text. Blank lines (nursery's
        file ends with one) are skipped.
    path : Path
        The file read.

    Raises
    ------
    DataFetchError
        No mirror, a missing or corrupt ``MANIFEST.json``, no manifest entry or file, a sha256
        mismatch, a file that is not UTF-8, no data row, a row with the wrong number of
        fields, or a row count different from the manifest's.
    """
    entry, folder = _mirror_entry(name, uci_id, mirror, reason)
    path = folder / entry["file"]
    subject = data_subject(name, path)
    raw, _ = read_pinned(
        path,
        str(entry["sha256"]),  # the mirror pins every file: a null digest matches none
        f"{subject}: the mirror file named in MANIFEST.json is missing; to fix: restore the "
        f"original UCI file (id {uci_id}) there",
        lambda digest: (
            f"{subject}: checksum mismatch: its sha256 is {digest}, MANIFEST.json expects "
            f"{entry['sha256']}; the file is corrupt or not the original UCI file -- to fix: "
            f"restore the original file from the UCI repository (id {uci_id})"
        ),
    )
    text = decode_text(
        raw, subject, "convert it to UTF-8 and record its new sha256 in MANIFEST.json"
    )
    frame = parse_original(text, entry["columns"], source=subject)
    _check_mirror_rows(frame, entry, subject, uci_id)
    return frame, path.resolve()


def _mirror_entry(
    name: str, uci_id: int, mirror: str | Path | None, reason: str
) -> tuple[dict, Path]:
    """The manifest entry of ``uci_id`` and the mirror folder; ``reason`` is why it is needed."""
    fix = (
        "connect to the internet, or point config key `mirror` (or the environment variable "
        "UCI_MIRROR) at a folder holding MANIFEST.json and the original UCI files"
    )
    if mirror is None:
        raise DataFetchError(
            f"{data_subject(name, f'UCI id {uci_id}')}: cannot fetch it: ucimlrepo failed "
            f"({reason}) and no offline mirror is configured; to fix: {fix}"
        )
    mirror = Path(mirror)
    try:
        manifest = _mirror_manifest(name, mirror)
    except FileNotFoundError as exc:
        raise DataFetchError(
            f"{data_subject(name, f'UCI id {uci_id}')}: ucimlrepo failed ({reason}) and the "
            f"mirror is unusable: {exc}; to fix: {fix}"
        ) from None
    entry = manifest_entry(manifest, uci_id)
    if entry is None:
        raise DataFetchError(
            f"{data_subject(name, mirror / 'MANIFEST.json')}: ucimlrepo failed ({reason}) and "
            f"the manifest has no entry with uci_id {uci_id}; to fix: add the original file and "
            "its manifest entry, or connect to the internet"
        )
    return entry, mirror


def _check_mirror_rows(frame: pd.DataFrame, entry: Mapping, subject: str, uci_id: int) -> None:
    """A mirror file has data rows, as many as the manifest's ``rows`` when it gives them."""
    if frame.empty:
        raise DataFetchError(
            f"{subject}: the file has no data rows; to fix: restore the original file from the "
            f"UCI repository (id {uci_id})"
        )
    if "rows" in entry and len(frame) != entry["rows"]:
        raise DataFetchError(
            f"{subject}: {len(frame)} data rows, MANIFEST.json says {entry['rows']}; the file "
            f"is not the original UCI file -- to fix: restore it from the UCI repository "
            f"(id {uci_id}) or correct the manifest entry"
        )


def parse_original(text: str, columns: list[str], *, source: str = "<text>") -> pd.DataFrame:
    """Parse an original UCI data file (comma separated, no header) keeping every cell as text.

    The ``csv`` module is used instead of :func:`pandas.read_csv` so that no cell is ever
    re-typed or treated as NaN, and so that a short or long row is an error rather than
    padded.

    Parameters
    ----------
    text : str
        The file's content.
    columns : list of str
        The column names, by position.
    source : str
        Start of an error message, e.g. :func:`data_subject`'s ``dataset `car` (file car.data)``.

    Raises
    ------
    DataFetchError
        A non-blank line with a number of fields other than ``len(columns)``.
    """
    return string_frame([row for _, row in csv_rows(text, columns, source)], columns)


def snake_case(name: str) -> str:
    """``"white-king-file"`` -> ``"white_king_file"`` (column names without a manifest)."""
    return re.sub(r"[^0-9a-z]+", "_", str(name).strip().lower()).strip("_")


def canonicalise_uci(
    original: pd.DataFrame, name: str, columns: list[str] | None, missing: str | None
) -> pd.DataFrame:
    """Turn ucimlrepo's ``data.original`` frame into the canonical table.

    Parameters
    ----------
    original : DataFrame
        As parsed by ucimlrepo (pandas type inference, missing cells as NaN).
    name : str
        Dataset key (for messages).
    columns : list of str or None
        Column names by position (the manifest's); None keeps ucimlrepo's names in snake_case.
    missing : str or None
        The dataset's missing marker, written where ucimlrepo has NaN.

    Raises
    ------
    DataFetchError
        The column count differs from ``columns``, or there are NaN cells and ``missing`` is
        None.
    """
    if columns is None:
        columns = [snake_case(c) for c in original.columns]
    elif len(columns) != original.shape[1]:
        raise DataFetchError(
            f"{data_subject(name, 'UCI via ucimlrepo')}: ucimlrepo returned {original.shape[1]} "
            f"columns ({list(original.columns)}), MANIFEST.json names {len(columns)}; to fix: "
            "correct the `columns` of the mirror's manifest entry"
        )
    out = np.empty(original.shape, dtype=object)
    for i, column in enumerate(original.columns):
        values = original[column]
        isna = values.isna().to_numpy()
        if isna.any() and missing is None:
            raise DataFetchError(
                f"{data_subject(name, 'UCI via ucimlrepo')}: column {column!r} has "
                f"{int(isna.sum())} missing cells but config key `datasets.{name}.missing` is "
                "null; to fix: set it to the missing marker"
            )
        out[:, i] = [
            missing if na else sources.cell_text(v) for v, na in zip(values.tolist(), isna)
        ]
    return string_frame(out, list(columns))


def read_local_csv(name: str, path: str | Path) -> pd.DataFrame:
    """A local CSV (one header row) with every cell kept as a string.

    Parsed with the ``csv`` module like the mirror's files: no cell is re-typed, and a row
    with more or fewer fields than the header is an error rather than shifted or padded
    (:func:`pdmeasure.pipeline.data.sources.delimited_frame`).

    Raises
    ------
    DataFetchError
        Naming the dataset, the file and the fix: the file does not exist, is empty, has a
        header row only, is not UTF-8, repeats a column name or has a row with the wrong
        number of fields.
    """
    return sources.delimited_frame(name, path)[0]


def check_table(
    name: str,
    frame: pd.DataFrame,
    dataset: Mapping,
    *,
    source: str | Path = "fetched data",
    ordered: bool = True,
) -> list[str]:
    """Check the target column, class labels and numeric features of a dataset's table.

    Parameters
    ----------
    name, ordered
        As for :func:`~pdmeasure.pipeline.data.classes.check_class_order`, which checks the
        classes (``ordered``: a source without a declared class order).
    frame : DataFrame
        The table (all cells ``str``).
    dataset : mapping
        Its config block (``target``, ``classes``, ``numeric_features``).
    source : str or Path
        Where the table came from, for messages (see :func:`data_subject`).

    Returns
    -------
    list of str
        The classes of ``dataset["classes"]`` with no row (declared, but absent from the data:
        they stay in the class order).

    Raises
    ------
    ConfigError
        Naming ``datasets.<name>.target``, ``.classes`` or ``.numeric_features``, the
        dataset, the source and the fix: no target column, a class in the data that is not
        declared (configured, or declared by the source), another order, a single class, a
        numeric feature that is not a column.
    """
    subject = data_subject(name, source)
    target = dataset.get("target", "class")
    columns = list(frame.columns)
    if target not in columns:
        raise ConfigError(
            f"config key `datasets.{name}.target`: {subject}: no column {target!r}; the columns "
            f"are {columns}; to fix: set `datasets.{name}.target` to the class column"
        )
    unknown = [f for f in dataset.get("numeric_features") or [] if f not in columns]
    if unknown:
        raise ConfigError(
            f"config key `datasets.{name}.numeric_features`: {unknown} are not columns of "
            f"{subject}; its columns are {columns} -- to fix: list only column names"
        )
    labels = frame[target].to_numpy(dtype=object)
    rule = dataset.get("class_order") or "configured"
    return check_class_order(
        name,
        dataset["classes"],
        first_appearance(labels),
        source=subject,
        ordered=ordered,
        declared_by=None if rule == "configured" else rule,
    )


def read_canonical(path: str | Path) -> pd.DataFrame:
    """Read a canonical table ``results/data/<name>.csv`` with every cell as a string."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)
