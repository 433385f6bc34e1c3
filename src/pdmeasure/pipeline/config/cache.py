"""The resolved run, kept for the processes that only run jobs.

Snakemake parses the workflow again in every process that runs jobs on a cluster (each job of
a Slurm group job is a Snakemake process of its own). Resolving the config there repeats what
the process that planned the run already did: reading the data's descriptions (an ARFF
header, a CSV's classes, an OpenML dataset's metadata, which tries the network first and
retries for seconds when a compute node has none) and checking every classifier entry. The
planning process writes its resolved run with a key of everything it was resolved from;
a job's process with the same key reads it back instead, and resolves afresh on any other key.

The planning process also remembers which classifier entries passed their check
(:func:`checked_entries`, :func:`save_checked`), so that the next ``snakemake`` command skips
the checks that import the engine's library (:meth:`~pdmeasure.pipeline.engines.base.Engine.check_fingerprint`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pdmeasure.pipeline.config.resolve import MIRROR_ENV


def run_key(config: Mapping[str, Any]) -> str:
    """A digest of what a resolved run depends on besides the data files: the config as
    given, the mirror named by the environment and the working directory."""
    # Not sorted: the order of the datasets block is the run's order when run.datasets is
    # left out.
    text = json.dumps(
        {"config": config, "mirror": os.environ.get(MIRROR_ENV), "cwd": os.getcwd()},
        default=repr,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def save_run(path: Path, key: str, run: Mapping[str, Any]) -> bool:
    """Write ``run`` under ``key`` atomically; only when JSON gives it back unchanged, in the
    same order (a tuple or a non-text key would come back otherwise, and a job's parameters
    must be the same values, in the same order, as the planning process's). Returns whether
    it was written."""
    try:
        text = json.dumps({"key": key, "run": run})
    except (TypeError, ValueError):
        return False
    if not _same(json.loads(text)["run"], run):
        return False
    _write_atomic(path, text)
    return True


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then put it in place, so that a
    process reading ``path`` sees the old file or the new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


def load_run(path: Path, key: str) -> dict[str, Any] | None:
    """The run saved under ``key`` (:func:`save_run`); None when there is none or its key
    differs."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    run = record.get("run")
    return run if isinstance(run, dict) else None


#: How many passed classifier entries :func:`save_checked` keeps, the newest first: those of
#: a few configs used in turn.
MAX_CHECKED = 256


def entry_key(engine: str, params: Mapping[str, Any], fingerprint: str) -> str:
    """A digest of one classifier entry of ``engine`` and what its check's verdict depends on
    besides the entry (the engine's ``check_fingerprint``)."""
    text = json.dumps([engine, params, fingerprint], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def checked_entries(path: Path) -> list[str]:
    """The keys (:func:`entry_key`) of the entries that passed their check, newest first;
    empty when the file is missing or unreadable."""
    try:
        keys = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []


def save_checked(path: Path, keys: list[str]) -> None:
    """Write ``keys`` (newest first, at most :data:`MAX_CHECKED`) atomically. A folder that
    cannot be written only costs the next run its checks, so the error is not raised."""
    try:
        _write_atomic(path, json.dumps(keys[:MAX_CHECKED]))
    except OSError:
        pass


def _same(a: Any, b: Any) -> bool:
    """Equal values with equal types, mappings also in the same key order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)
