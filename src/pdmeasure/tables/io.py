"""Atomic file output (write to a temporary file next to the target, then rename) and the CSV
convention for missing numbers, shared by every writer and reader of the tidy tables.

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
import os
import uuid
from collections.abc import Iterable, Iterator, Sequence
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
    # Which columns have a missing cell, learnt for the whole frame at once, is cheaper than
    # whether an object column holds only numbers, so that is asked first.
    for i in np.flatnonzero(frame.isna().any().to_numpy()):
        column = frame.iloc[:, i]
        if _holds_numbers(column):
            continue
        missing = column.isna()
        if out is None:
            out = frame.copy()
        # object dtype: "" need not be a valid value of the original dtype (e.g. categories)
        out.isetitem(i, column.astype(object).where(~missing, ""))
    return frame if out is None else out


def write_csv(frame: pd.DataFrame, path: str | os.PathLike, **kwargs: Any) -> None:
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
