"""The offline UCI mirror's ``MANIFEST.json``: reading it, checking it, finding an entry."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pdmeasure.pipeline.errors import ConfigError


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
