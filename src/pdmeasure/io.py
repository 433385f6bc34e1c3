"""Atomic file output (write to a temporary file next to the target, then rename), and the
logging set-up shared by the workflow scripts.

A step that fails half-way must never leave a truncated result behind, because Snakemake
(and a reader) would take a present file for a finished one. Every writer of the pipeline
goes through :func:`atomic_path` (or the CSV/text shortcuts built on it).
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pandas as pd


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path to write; on success rename it to ``path``, on error delete it.

    The temporary file lives in the target's directory (created if needed), so the final
    :func:`os.replace` is an atomic rename on the same filesystem.

    Parameters
    ----------
    path : path-like
        The final destination.

    Yields
    ------
    Path
        Where to write. Nothing exists at ``path`` until the ``with`` block succeeds.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # A unique name rather than tempfile.mkstemp: mkstemp creates the file with mode 0600,
    # which the rename would carry over to the result; writers here create it with the umask.
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        # After a successful replace the temporary name no longer exists.
        tmp.unlink(missing_ok=True)


def write_csv(frame: pd.DataFrame, path: str | os.PathLike, **kwargs) -> None:
    """Write ``frame`` as CSV (no index) atomically; ``kwargs`` go to :meth:`DataFrame.to_csv`."""
    kwargs.setdefault("index", False)
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, **kwargs)


def write_text(text: str, path: str | os.PathLike, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)


def write_bytes(data: bytes, path: str | os.PathLike) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def text_to_float(column: pd.Series) -> pd.Series:
    """Numbers stored as CSV text -> float64; an empty cell (how ``to_csv`` writes NaN) is NaN.

    The one parser for numeric columns read with ``dtype=str``: pandas 3's ``pd.to_numeric``
    rejects the text ``"nan"`` in Arrow-backed string columns, ``astype`` does not.
    """
    return column.replace("", "nan").astype("float64")


def script_logger(log_path: str | os.PathLike, name: str = "pdmeasure") -> logging.Logger:
    """Logging for a Snakemake script job: everything to ``log_path``, warnings also to stderr.

    Python warnings (``warnings.warn``) are routed into the log as well.

    Parameters
    ----------
    log_path : path-like
        The rule's ``log:`` file (overwritten).
    name : str
        Name of the returned logger.
    """
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    to_file = logging.FileHandler(log_path, mode="w", encoding="utf-8")
    to_file.setFormatter(fmt)
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setLevel(logging.WARNING)
    to_stderr.setFormatter(fmt)
    root.addHandler(to_file)
    root.addHandler(to_stderr)
    logging.captureWarnings(True)
    return logging.getLogger(name)


@contextlib.contextmanager
def log_errors(logger: logging.Logger) -> Iterator[None]:
    """Log an exception escaping the block (so it lands in the rule's log), then re-raise it."""
    try:
        yield
    except Exception:
        logger.exception("failed")
        raise
