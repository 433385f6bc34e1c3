"""Atomic file output (write to a temporary file next to the target, then rename), the CSV
convention for missing numbers, and the logging set-up shared by the workflow scripts.

A step that fails half-way must never leave a truncated result behind, because Snakemake
(and a reader) would take a present file for a finished one. Every writer of the pipeline
goes through :func:`atomic_path` (or the CSV/text shortcuts built on it).

Missing values in CSV files
---------------------------
Every CSV of the pipeline is written by :func:`write_csv`, which writes

* a missing number (NaN in a column of numbers, e.g. a measure whose ``0/0`` ratio is NaN
  under ``zero_division: nan``) as the literal text ``NaN`` (:data:`NAN_TEXT`);
* a missing text (None or NaN in a column of text, e.g. an empty ``note``) as an empty cell.

A column holds numbers when its dtype is numeric (bool excluded), or when it is an
``object`` column whose non-missing values are all real numbers.

The package's readers read all cells as text (``dtype=str, keep_default_na=False``, so that
text such as ``""``, ``"NA"`` or ``"None"`` stays text) and turn their number columns into
float64 with :func:`text_to_float`, the one parser of numbers stored as CSV text;
:func:`read_csv` bundles the two. :func:`text_to_float` reads ``NaN`` back as NaN, and also
accepts ``nan`` and an empty cell (a producer's "not applicable", or a file written by plain
:meth:`DataFrame.to_csv`) as NaN and ``inf``/``-inf`` as infinities. A plain
:func:`pandas.read_csv` with its default NA handling reads ``NaN`` as NaN too.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import logging
import os
import resource
import sys
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from numbers import Real
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

#: How :func:`write_csv` writes a missing number (NaN); :func:`text_to_float` reads it back.
NAN_TEXT = "NaN"


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


def _holds_numbers(column: pd.Series) -> bool:
    """Whether ``column`` is a column of numbers (its missing cells are written ``NaN``)."""
    dtype = column.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return False
    if pd.api.types.is_numeric_dtype(dtype):
        return True
    if dtype is np.dtype(object):
        values = column.dropna()
        return len(values) > 0 and all(
            isinstance(v, Real) and not isinstance(v, (bool, np.bool_)) for v in values
        )
    return False


def _missing_text_as_empty(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the missing cells of its text columns replaced by ``""``.

    Columns of numbers are left alone, so that ``to_csv(na_rep=NAN_TEXT)`` writes their NaN
    as ``NaN``; the frame is copied only when a text column has a missing cell.
    """
    out = None
    for i in range(frame.shape[1]):
        column = frame.iloc[:, i]
        if _holds_numbers(column):
            continue
        missing = column.isna()
        if not missing.any():
            continue
        if out is None:
            out = frame.copy()
        # object dtype: "" need not be a valid value of the original dtype (e.g. categories)
        out.isetitem(i, column.astype(object).where(~missing, ""))
    return frame if out is None else out


def write_csv(frame: pd.DataFrame, path: str | os.PathLike, **kwargs) -> None:
    """Write ``frame`` as CSV (no index) atomically, missing values as the module describes.

    A NaN in a column of numbers is written as :data:`NAN_TEXT` (``NaN``), a missing cell of
    a text column as an empty cell (see the module docstring); :func:`read_csv` and
    :func:`text_to_float` read both back.

    Parameters
    ----------
    frame : DataFrame
        The table to write.
    path : path-like
        Destination (written through :func:`atomic_path`).
    **kwargs
        Passed to :meth:`DataFrame.to_csv`; ``index`` defaults to False and ``na_rep`` to
        :data:`NAN_TEXT`. A ``path`` ending in ``.gz`` is gzip-compressed, byte-identical for
        the same table; :func:`pandas.read_csv` reads it back by its name.
    """
    kwargs.setdefault("index", False)
    kwargs.setdefault("na_rep", NAN_TEXT)
    frame = _missing_text_as_empty(frame)
    if str(path).endswith(".gz"):
        # gzip.compress stores no file name and, with mtime=0, no time: the same table gives
        # the same bytes (pandas' gzip would store the temporary file's name).
        text = frame.to_csv(**kwargs)
        write_bytes(gzip.compress(text.encode("utf-8"), mtime=0), path)
        return
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, **kwargs)


def write_text(text: str, path: str | os.PathLike, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)


def write_json(data: Any, path: str | os.PathLike) -> None:
    """Write ``data`` to ``path`` atomically as indented JSON (keys in insertion order)."""
    write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", path)


def write_bytes(data: bytes, path: str | os.PathLike) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def text_to_float(column: pd.Series) -> pd.Series:
    """Numbers stored as CSV text -> float64; ``NaN`` (how :func:`write_csv` writes NaN) is NaN.

    The one parser for numeric columns read with ``dtype=str``. ``nan`` and an empty cell
    also read as NaN, ``inf``/``-inf`` as infinities; any other non-number raises
    :class:`ValueError`. ``astype("float64")`` is used rather than :func:`pandas.to_numeric`,
    which rejects the text ``NaN`` in pandas 3 string columns.

    Parameters
    ----------
    column : Series
        Text (or already numeric) cells.

    Returns
    -------
    Series
        float64, same index and name.
    """
    return column.replace("", "nan").astype("float64")


def require_columns(columns: Iterable[str], expected: Sequence[str], what: str) -> None:
    """Raise ``ValueError`` naming the table and every column of ``expected`` it lacks.

    The one check of a table's columns in the package: ``columns`` are the table's (a frame,
    its ``.columns`` or a CSV header), ``what`` names the table or file in the message.
    """
    present = set(columns)
    missing = [column for column in expected if column not in present]
    if missing:
        raise ValueError(f"{what}: missing columns {missing}; expected {list(expected)}")


def read_csv(
    path: str | os.PathLike,
    *,
    numbers: Iterable[str] = (),
    integers: Iterable[str] = (),
    required: Iterable[str] = (),
) -> pd.DataFrame:
    """Read a CSV written by :func:`write_csv`: cells as text, the named columns as numbers.

    Parameters
    ----------
    path : path-like
        The CSV file.
    numbers : iterable of str
        Columns parsed by :func:`text_to_float` (``NaN`` and empty cells become NaN).
    integers : iterable of str
        Columns parsed as int64 (a missing cell raises).
    required : iterable of str
        Columns that must be present (``numbers`` and ``integers`` always are).

    Returns
    -------
    DataFrame
        Every other column stays text, empty cells as ``""``.

    Raises
    ------
    ValueError
        A required column is missing, or a cell of a number column is not a number.
    """
    numbers, integers = list(numbers), list(integers)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    expected = list(dict.fromkeys([*required, *numbers, *integers]))
    require_columns(frame.columns, expected, str(path))
    for column in numbers:
        try:
            frame[column] = text_to_float(frame[column])
        except ValueError as err:
            raise ValueError(f"{path}: column {column!r}: {err}") from None
    for column in integers:
        try:
            frame[column] = frame[column].astype("int64")
        except ValueError as err:
            raise ValueError(f"{path}: column {column!r}: {err}") from None
    return frame


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


def run_script(main: Callable[[Any, logging.Logger], None], smk: Any) -> None:
    """Run a workflow script's ``main(smk, logger)`` with its rule's log, then end the process.

    The one entry point of every script under ``workflow/scripts``: logging goes to the rule's
    ``log:`` file (:func:`script_logger`), and an exception is logged there before it stops
    the job (:func:`log_errors`). The log's last line is the job's CPU time
    (:data:`CPU_LOG_LABEL`).

    After a successful ``main`` every output is written and closed (the writers of this module
    rename complete files into place), so the process ends at once with status 0 once the log
    and the standard streams are flushed: the interpreter's teardown (finalising pandas,
    matplotlib, scikit-learn; stopping a JVM) frees nothing the operating system does not free
    anyway, and costs 0.05-0.25 CPU-s per job, summed over every job of a run.
    """
    started = process_cpu_seconds()
    logger = script_logger(smk.log[0])
    with log_errors(logger):
        main(smk, logger)
    total = process_cpu_seconds()
    logger.info(
        "%s %.2f s (start-up and imports %.2f s, work %.2f s)",
        CPU_LOG_LABEL,
        total,
        started,
        total - started,
    )
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


#: How :func:`run_script` starts its last log line: the job's CPU time, which
#: ``benchmarks/pipeline_figures.py`` sums over a run's logs.
CPU_LOG_LABEL = "job CPU time"


def process_cpu_seconds() -> float:
    """User + system CPU seconds of this process (all its threads, a JVM's included) and of
    its finished children, since it started.

    Snakemake's ``benchmark:`` files sample a job's CPU time every 0.5 s for 30 s, then every
    30 s, so they miss jobs shorter than one sample and the end of longer ones; the kernel's
    own account (:func:`resource.getrusage`) has neither gap.
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
