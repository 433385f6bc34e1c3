"""Every dataset checked before any job, and what a dataset that cannot run does to the run.

A study over a folder of files should not take one try per bad file. Each selected dataset
is resolved and checked on its own
(:func:`~pdmeasure.pipeline.config.checks.dataset_problems`); :func:`settle_problems` then
stops the run with one message that lists every dataset that cannot run, its reason and its
fix, or -- for the files of a ``dataset_files`` entry with ``skip_invalid: true`` -- sets
them aside, so that the rest runs, and records each in the run's ``skipped`` list (the log
and the top of the study's report name them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pdmeasure.pipeline.errors import ConfigError


def settle_problems(run: dict[str, Any], problems: Mapping[str, str]) -> dict[str, Any]:
    """Decide what the datasets that cannot run do to ``run`` (changed in place, returned).

    A dataset that came from a ``dataset_files`` entry with ``skip_invalid: true`` leaves
    the run and is recorded in ``run["skipped"]`` (``dataset``, ``path``, ``entry`` and
    ``reason``); any other stops the run.

    Raises
    ------
    ConfigError
        One message listing every dataset that cannot run (those that would be skipped too),
        each with its reason and fix (a single one: its own message); or, when every dataset
        of the run is set aside, one that lists them and says that nothing is left to run.
    """
    origins = run.get("dataset_files") or {}
    skipped = [name for name in problems if origins.get(name, {}).get("skip_invalid")]
    stopping = [name for name in problems if name not in skipped]
    run.setdefault("skipped", [])
    if len(stopping) == 1 and not skipped:
        raise ConfigError(problems[stopping[0]])
    if stopping:
        raise ConfigError(_listing(problems, origins, stopping, skipped))
    for name in skipped:
        origin = origins[name]
        run["datasets"].pop(name, None)
        run["skipped"].append(
            {
                "dataset": name,
                "path": origin["path"],
                "entry": origin["entry"],
                "reason": problems[name],
            }
        )
    if skipped and not run["datasets"]:
        raise ConfigError(
            "every dataset of the run cannot run, so nothing is left to run:\n"
            + "\n".join(_line(name, problems[name], origins) for name in skipped)
        )
    return run


def _line(name: str, message: str, origins: Mapping[str, Mapping[str, Any]]) -> str:
    origin = origins.get(name)
    where = f" (file {origin['path']})" if origin else ""
    # The note on where a file's dataset came from repeats what the line says already.
    message = re.sub(r" \[dataset `[^`]+` is the file .*\]$", "", message, flags=re.DOTALL)
    return f"  - dataset `{name}`{where}: {message}"


def _listing(
    problems: Mapping[str, str],
    origins: Mapping[str, Mapping[str, Any]],
    stopping: list[str],
    skipped: list[str],
) -> str:
    count = len(problems)
    lines = [
        f"{count} dataset{'s' if count > 1 else ''} of the run cannot run, so no job was started:",
        *(_line(name, problems[name], origins) for name in [*stopping, *skipped]),
    ]
    entries = sorted({origins[name]["entry"] for name in stopping if name in origins})
    if entries:
        keys = ", ".join(f"`dataset_files.{entry}.skip_invalid: true`" for entry in entries)
        lines.append(
            f"To run the other datasets and list these files in the report instead, set {keys}."
        )
    return "\n".join(lines)
