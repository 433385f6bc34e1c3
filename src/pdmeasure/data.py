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
"""
from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import logging
import math
import re
import socket
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import ucimlrepo

from .config import ConfigError, check_class_order, first_appearance, load_manifest, manifest_entry

#: Seconds before a UCI request gives up (ucimlrepo sets no timeout; a filtered network would
#: otherwise hang the fetch job instead of falling back to the mirror).
UCI_TIMEOUT = 30.0

_log = logging.getLogger(__name__)


class DataFetchError(RuntimeError):
    """A dataset could not be fetched; the message names the dataset, the reason and the fix."""


def fetch_dataset(
    name: str,
    dataset: Mapping,
    *,
    mirror: str | Path | None = None,
    logger: logging.Logger | None = None,
) -> tuple[pd.DataFrame, str]:
    """The canonical table of one configured dataset, and where it came from.

    Parameters
    ----------
    name : str
        Dataset key in the config.
    dataset : mapping
        Its config block (``uci_id`` or ``path``, ``target``, ``classes``, ``missing``,
        ``numeric_features``).
    mirror : path-like, optional
        Offline mirror folder (``MANIFEST.json`` + original files), used when ucimlrepo fails.
    logger : logging.Logger, optional
        Receives the source of the data and any ucimlrepo failure.

    Returns
    -------
    frame : DataFrame
        The canonical table (all cells ``str``).
    source : str
        Human-readable origin: the UCI repository, the mirror file, or the local file.

    Raises
    ------
    DataFetchError
        ucimlrepo failed and there is no usable mirror, the mirror file's sha256 differs from
        the manifest, or the file cannot be parsed.
    ConfigError
        The data do not match ``datasets.<name>.target``, ``.classes`` or
        ``.numeric_features``.
    """
    log = logger or _log
    if dataset.get("path") is not None:
        frame = read_local_csv(name, dataset["path"])
        source = f"local file {Path(dataset['path']).resolve()}"
    else:
        uci_id = int(dataset["uci_id"])
        try:
            with _socket_timeout(UCI_TIMEOUT):
                result = ucimlrepo.fetch_ucirepo(id=uci_id)
        except Exception as exc:  # noqa: BLE001 - any failure (network, outage, API) -> mirror
            log.warning(
                "dataset %s: ucimlrepo.fetch_ucirepo(id=%d) failed (%s: %s); falling back to the "
                "offline mirror", name, uci_id, type(exc).__name__, exc,
            )
            frame, path = read_mirror(name, uci_id, mirror, reason=f"{type(exc).__name__}: {exc}")
            source = f"offline mirror {path}"
        else:
            columns = _mirror_columns(mirror, uci_id)
            frame = canonicalise_uci(result.data.original, name, columns, dataset.get("missing"))
            source = f"UCI Machine Learning Repository via ucimlrepo (id {uci_id})"
    check_table(name, frame, dataset)
    log.info("dataset %s: %d rows x %d columns from %s", name, len(frame), frame.shape[1], source)
    return frame, source


@contextlib.contextmanager
def _socket_timeout(seconds: float):
    previous = socket.getdefaulttimeout()
    socket.setdefaulttimeout(seconds)
    try:
        yield
    finally:
        socket.setdefaulttimeout(previous)


def _mirror_columns(mirror, uci_id: int) -> list[str] | None:
    """The manifest's column names for ``uci_id``, or None without a usable mirror."""
    if mirror is None or not (Path(mirror) / "MANIFEST.json").is_file():
        return None
    entry = manifest_entry(load_manifest(mirror), uci_id)
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
        No mirror, no manifest entry or file, a sha256 mismatch, a row with the wrong number
        of fields, or a row count different from the manifest's.
    """
    fix = (
        "connect to the internet, or point config key `mirror` (or the environment variable "
        "UCI_MIRROR) at a folder holding MANIFEST.json and the original UCI files"
    )
    if mirror is None:
        raise DataFetchError(
            f"dataset {name!r} (UCI id {uci_id}): cannot fetch it: ucimlrepo failed ({reason}) "
            f"and no offline mirror is configured; to fix: {fix}"
        )
    mirror = Path(mirror)
    try:
        manifest = load_manifest(mirror)
    except FileNotFoundError as exc:
        raise DataFetchError(
            f"dataset {name!r} (UCI id {uci_id}): ucimlrepo failed ({reason}) and the mirror is "
            f"unusable: {exc}; to fix: {fix}"
        ) from None
    entry = manifest_entry(manifest, uci_id)
    if entry is None:
        raise DataFetchError(
            f"dataset {name!r}: ucimlrepo failed ({reason}) and {mirror / 'MANIFEST.json'} has no "
            f"entry with uci_id {uci_id}; to fix: add the original file and its manifest entry, "
            "or connect to the internet"
        )
    path = mirror / entry["file"]
    if not path.is_file():
        raise DataFetchError(
            f"dataset {name!r}: the mirror file {path} named in MANIFEST.json is missing; to fix: "
            "restore the original UCI file there"
        )
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != entry["sha256"]:
        raise DataFetchError(
            f"dataset {name!r}: checksum mismatch for the mirror file {path}: its sha256 is "
            f"{digest}, MANIFEST.json expects {entry['sha256']}; the file is corrupt or not the "
            "original UCI file -- to fix: restore the original file from the UCI repository "
            f"(id {uci_id})"
        )
    frame = parse_original(raw.decode("utf-8"), entry["columns"], source=str(path))
    if "rows" in entry and len(frame) != entry["rows"]:
        raise DataFetchError(
            f"dataset {name!r}: {path} has {len(frame)} rows, MANIFEST.json says {entry['rows']}"
        )
    return frame, path.resolve()


def parse_original(text: str, columns: list[str], *, source: str = "<text>") -> pd.DataFrame:
    """Parse an original UCI data file (comma separated, no header) keeping every cell as text.

    The ``csv`` module is used instead of :func:`pandas.read_csv` so that no cell is ever
    re-typed or treated as NaN, and so that a short or long row is an error rather than
    padded.

    Raises
    ------
    DataFetchError
        A non-blank line with a number of fields other than ``len(columns)``.
    """
    rows = []
    for lineno, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not row or (len(row) == 1 and not row[0].strip()):
            continue  # blank line (nursery.data ends with one)
        if len(row) != len(columns):
            raise DataFetchError(
                f"{source}, line {lineno}: {len(row)} fields, expected {len(columns)} "
                f"({', '.join(columns)})"
            )
        rows.append(row)
    return _string_frame(np.array(rows, dtype=object).reshape(len(rows), len(columns)), columns)


def _string_frame(values: np.ndarray, columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.array(values[:, i], dtype=str) for i, c in enumerate(columns)})


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
            f"dataset {name!r}: ucimlrepo returned {original.shape[1]} columns "
            f"({list(original.columns)}), MANIFEST.json names {len(columns)}"
        )
    out = np.empty(original.shape, dtype=object)
    for i, column in enumerate(original.columns):
        values = original[column]
        isna = values.isna().to_numpy()
        if isna.any() and missing is None:
            raise DataFetchError(
                f"dataset {name!r}: column {column!r} has {int(isna.sum())} missing cells but "
                f"config key `datasets.{name}.missing` is null; set it to the missing marker"
            )
        out[:, i] = [missing if na else _as_text(v) for v, na in zip(values.tolist(), isna)]
    return _string_frame(out, list(columns))


def _as_text(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isfinite(value) and value.is_integer():
            return str(int(value))  # an integer column widened to float by a NaN
        return repr(value)
    return str(value)


def read_local_csv(name: str, path: str | Path) -> pd.DataFrame:
    """A local CSV (one header row) with every cell kept as a string.

    Raises
    ------
    DataFetchError
        If the file does not exist.
    """
    path = Path(path)
    if not path.is_file():
        raise DataFetchError(
            f"dataset {name!r}: no file {path} (config key `datasets.{name}.path`, relative to "
            f"the working directory {Path.cwd()})"
        )
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def check_table(name: str, frame: pd.DataFrame, dataset: Mapping) -> None:
    """Check the target column, class order and numeric features of a fetched table.

    Raises
    ------
    ConfigError
        Naming ``datasets.<name>.target``, ``.classes`` or ``.numeric_features``.
    """
    target = dataset.get("target", "class")
    columns = list(frame.columns)
    if target not in columns:
        raise ConfigError(
            f"config key `datasets.{name}.target`: no column {target!r} in the data; "
            f"columns: {columns}"
        )
    unknown = [f for f in dataset.get("numeric_features", []) if f not in columns]
    if unknown:
        raise ConfigError(
            f"config key `datasets.{name}.numeric_features`: {unknown} are not columns of the "
            f"data ({columns})"
        )
    labels = frame[target].to_numpy(dtype=object)
    check_class_order(name, dataset["classes"], first_appearance(labels))


def read_canonical(path: str | Path) -> pd.DataFrame:
    """Read a canonical table ``results/data/<name>.csv`` with every cell as a string."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)
