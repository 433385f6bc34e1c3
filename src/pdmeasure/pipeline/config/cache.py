"""The resolved run, kept for the processes that only run jobs.

Snakemake parses the workflow again in every process that runs jobs on a cluster (each job of
a Slurm group job is a Snakemake process of its own). Resolving the config there repeats what
the process that planned the run already did: reading the data's descriptions (an ARFF
header, a CSV's classes, an OpenML dataset's metadata, which tries the network first and
retries for seconds when a compute node has none) and checking every classifier entry. The
planning process writes its resolved run with a key of everything it was resolved from;
a job's process with the same key reads it back instead, and resolves afresh on any other key.
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
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)
    return True


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


def _same(a: Any, b: Any) -> bool:
    """Equal values with equal types, mappings also in the same key order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)
