"""The offline UCI mirror: its ``MANIFEST.json`` and the original files it holds.

- :func:`load_manifest`, :func:`manifest_entry` -- reading and checking the manifest,
  finding a dataset's entry;
- :func:`read_mirror` -- a dataset's original file, checked against the manifest's sha256 and
  row count, parsed as text (:func:`parse_original`);
- :func:`mirror_manifest`, :func:`mirror_columns` -- the manifest and a dataset's column
  names for the fetch, with its errors as :class:`~pdmeasure.pipeline.errors.DataFetchError`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from pdmeasure.pipeline.data.canonical import data_subject
from pdmeasure.pipeline.data.sources import string_frame
from pdmeasure.pipeline.data.text import csv_rows, decode_text, read_pinned
from pdmeasure.pipeline.errors import ConfigError, DataFetchError


def load_manifest(mirror: str | os.PathLike, *, datasets: Sequence[str] = ()) -> dict:
    """``MANIFEST.json`` of a mirror folder, checked to be a readable manifest.

    Parameters
    ----------
    mirror : path-like
        The mirror folder.
    datasets : sequence of str, optional
        The dataset keys that need the manifest; an error message names them.

    Returns
    -------
    dict
        The manifest: ``{"datasets": {key: entry}}``, every entry a mapping with at least
        ``uci_id``, ``file``, ``sha256``, ``columns``, ``target`` and
        ``class_order_first_appearance``.

    Raises
    ------
    FileNotFoundError
        If the folder has no ``MANIFEST.json``.
    ConfigError
        If the file is not UTF-8, not valid JSON (truncated or corrupt), or not a manifest;
        the message names the dataset(s), the file and the fix.
    """
    path = Path(mirror) / "MANIFEST.json"
    if not path.is_file():
        raise FileNotFoundError(f"no MANIFEST.json in the mirror folder {Path(mirror).resolve()}")
    names = ", ".join(f"`{name}`" for name in datasets)
    subject = (
        f"dataset{'s' if len(datasets) > 1 else ''} {names} (file {path})"
        if names
        else (f"file {path}")
    )
    fix = (
        "to fix: restore MANIFEST.json from an intact copy of the mirror, or point config key "
        "`mirror` (or the environment variable UCI_MIRROR) at an intact mirror"
    )
    manifest = _parse_manifest(path, subject, fix)
    _check_entries(manifest, subject, fix)
    return manifest


def _parse_manifest(path: Path, subject: str, fix: str) -> Any:
    """The JSON value of the manifest file; ``subject`` and ``fix`` frame the error message."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{subject}: the mirror manifest is not UTF-8 text (byte offset "
            f"{exc.start}); it is corrupt -- {fix}"
        ) from None
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{subject}: the mirror manifest is not valid JSON ({exc.msg} at line "
            f"{exc.lineno}, column {exc.colno}); it is truncated or corrupt -- "
            f"{fix}"
        ) from None


def _check_entries(manifest: object, subject: str, fix: str) -> None:
    """Check that ``manifest`` maps ``datasets`` to entries that each have the required keys."""
    entries = manifest.get("datasets") if isinstance(manifest, dict) else None
    if not isinstance(entries, dict):
        raise ConfigError(
            f"{subject}: the mirror manifest has no `datasets` mapping; it is not "
            f"a mirror manifest or is corrupt -- {fix}"
        )
    required = ("uci_id", "file", "sha256", "columns", "target", "class_order_first_appearance")
    for key, entry in entries.items():
        missing = [k for k in required if not isinstance(entry, dict) or k not in entry]
        if missing:
            raise ConfigError(
                f"{subject}: the mirror manifest's entry `{key}` lacks {missing}; "
                f"it is corrupt -- {fix}"
            )


def manifest_entry(manifest: Mapping, uci_id: int) -> dict | None:
    """The manifest block of the dataset with UCI id ``uci_id``, or None."""
    for entry in manifest.get("datasets", {}).values():
        if entry.get("uci_id") == uci_id:
            return dict(entry)
    return None


def mirror_manifest(name: str, mirror: Path) -> dict:
    """:func:`load_manifest` with its errors as :class:`DataFetchError`."""
    try:
        return load_manifest(mirror, datasets=[name])
    except ConfigError as exc:
        raise DataFetchError(str(exc)) from None


def mirror_columns(name: str, mirror: str | Path | None, uci_id: int) -> list[str] | None:
    """The manifest's column names for ``uci_id``, or None without a mirror manifest.

    Raises
    ------
    DataFetchError
        The manifest exists but is corrupt: the column names would otherwise silently change.
    """
    if mirror is None or not (Path(mirror) / "MANIFEST.json").is_file():
        return None
    entry = manifest_entry(mirror_manifest(name, Path(mirror)), uci_id)
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
        manifest = mirror_manifest(name, mirror)
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
        Start of an error message, e.g.
        :func:`~pdmeasure.pipeline.data.canonical.data_subject`'s ``dataset `car` (file car.data)``.

    Raises
    ------
    DataFetchError
        A non-blank line with a number of fields other than ``len(columns)``.
    """
    return string_frame([row for _, row in csv_rows(text, columns, source)], columns)
