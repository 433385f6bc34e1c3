"""Readers of the dataset sources besides UCI: CSV/TSV files and ARFF files (OpenML's reader,
:mod:`pdmeasure.pipeline.data.openml`, reads its cached ARFF file with them).

Each reader returns a :class:`SourceTable`: the data as a table of strings (the canonical table
of :mod:`pdmeasure.pipeline.data.fetch`, original row order), the class column, and what the source
declares about the data -- the class order of an ARFF class attribute or of OpenML's metadata,
and the numeric attributes -- so that the config may leave them out. A CSV/TSV file declares
nothing: its class order is the order of first appearance and its numeric features are inferred
from the cells (:func:`infer_numeric`).

Numbers read by a library as floats (ARFF, OpenML) are written back as text: integral values
without a decimal point (``4``, not ``4.0``), others with ``repr``. A missing value of ARFF and
OpenML is written ``"?"``, the ARFF marker.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pdmeasure.pipeline.data.text import csv_rows, decode_text, read_pinned
from pdmeasure.pipeline.errors import ConfigError, DataFetchError

#: The missing-value marker of ARFF (and of OpenML, whose data are ARFF).
ARFF_MISSING = "?"

#: The ARFF attribute types that are numbers.
NUMERIC_TYPES = ("NUMERIC", "REAL", "INTEGER")

#: Field separator of each delimited format when ``separator`` is not given.
DEFAULT_SEPARATORS = {"csv": ",", "tsv": "\t"}


@dataclass(frozen=True)
class SourceTable:
    """One dataset as read from its source.

    Attributes
    ----------
    frame : DataFrame
        Every cell a ``str``, columns named, rows in the source's order.
    target : str
        The class column.
    classes : tuple of str or None
        The class order the source declares (ARFF header, OpenML metadata); None for a source
        that declares none.
    numeric : tuple of str or None
        The features the source declares numeric; None when it declares no types.
    origin : str
        Where the data came from, for messages: ``file data/x.csv``, ``OpenML id 61 (...)``.
    sha256 : str or None
        The digest of the file read (None for OpenML and ucimlrepo).
    nominal : mapping or None
        Each nominal attribute (the class included) -> its declared values in declared order
        (ARFF header, OpenML metadata); None for a source that declares none.
    """

    frame: pd.DataFrame
    target: str
    classes: tuple[str, ...] | None
    numeric: tuple[str, ...] | None
    origin: str
    sha256: str | None
    nominal: Mapping[str, tuple[str, ...]] | None = None


def _fetch_error(message: str) -> Exception:
    return DataFetchError(message)


def resolve_target(
    name: str, columns: Sequence[str], target: str | int, *, origin: str | None = None
) -> str:
    """The class column named by ``target``: a column name, ``first``, ``last`` or a position.

    A column literally named ``first`` or ``last`` wins over the keyword. A position is
    0-based and may be negative (``-1`` is the last column). ``origin`` (``file x.csv``) is
    named in the error.

    Raises
    ------
    ConfigError
        Naming ``datasets.<name>.target``, the columns and the fix.
    """
    columns = [str(c) for c in columns]
    if isinstance(target, str) and target in columns:
        return target
    if target == "first" and columns:
        return columns[0]
    if target == "last" and columns:
        return columns[-1]
    if isinstance(target, int) and not isinstance(target, bool):
        if -len(columns) <= target < len(columns):
            return columns[target]
        problem = f"position {target} is outside the {len(columns)} columns"
    else:
        problem = f"no column {target!r}"
    subject = f"dataset `{name}`" + (f" ({origin})" if origin else "")
    raise ConfigError(
        f"config key `datasets.{name}.target`: {subject}: {problem}; the columns are {columns}; "
        f"to fix: set `datasets.{name}.target` to the class column (a name, first, last or a "
        "0-based position)"
    )


def sha256_of(path: str | Path) -> str:
    """The sha256 hex digest of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _read_file(name: str, path: str | Path, sha256: str | None) -> tuple[bytes, str, str]:
    """``(bytes, digest, subject)`` of a local data file, its pin checked."""
    path = Path(path)
    subject = f"dataset `{name}` (file {path})"
    raw, digest = read_pinned(
        path,
        sha256,
        f"{subject}: no such file (relative paths start at the working directory "
        f"{Path.cwd()}); to fix: correct config key `datasets.{name}.path` or create the file",
        lambda digest: (
            f"{subject}: checksum mismatch: its sha256 is {digest}, config key "
            f"`datasets.{name}.sha256` pins {sha256}; the file changed -- to fix: restore the "
            "pinned file, or set `sha256` to the new digest if the change is intended"
        ),
    )
    return raw, digest, subject


def _decode(raw: bytes, subject: str) -> str:
    """``raw`` as UTF-8 text; the fix offered for a file that is not is to re-encode it."""
    return decode_text(raw, subject, "save it as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)")


def string_frame(
    rows: Sequence[Sequence[str]] | np.ndarray, columns: Sequence[str]
) -> pd.DataFrame:
    """A table of strings from rows of cells, one column per name of ``columns``."""
    values = np.array(rows, dtype=object).reshape(len(rows), len(columns))
    return pd.DataFrame({c: pd.array(values[:, i], dtype=str) for i, c in enumerate(columns)})


def read_delimited(
    name: str,
    path: str | Path,
    *,
    separator: str = ",",
    header: bool = True,
    target: str | int = "last",
    missing: str | None = None,
    sha256: str | None = None,
) -> SourceTable:
    """A CSV or TSV file with every cell kept as a string.

    Parsed with the ``csv`` module rather than :func:`pandas.read_csv`, so that no cell is
    re-typed or turned into NaN and a row with the wrong number of fields is an error rather
    than padded.

    Parameters
    ----------
    name : str
        Dataset key (for messages).
    path : path-like
        The file, relative to the working directory.
    separator : str
        One character: ``","`` for CSV, ``"\\t"`` for TSV.
    header : bool
        Whether the first row names the columns; without one they are named ``column_1``,
        ``column_2``, ... (1-based).
    target : str or int
        The class column (:func:`resolve_target`).
    missing : str or None
        The missing marker; kept verbatim (it only matters to the engines).
    sha256 : str, optional
        The file's expected digest.

    Raises
    ------
    DataFetchError
        The file does not exist, differs from its pin, is empty, has no data row, is not
        UTF-8, repeats a column name, or has a row with the wrong number of fields.
    ConfigError
        ``target`` names no column.
    """
    frame, digest = delimited_frame(name, path, separator=separator, header=header, sha256=sha256)
    origin = f"file {path}"
    resolved = resolve_target(name, list(frame.columns), target, origin=origin)
    return SourceTable(frame, resolved, None, None, origin, digest)


def delimited_frame(
    name: str,
    path: str | Path,
    *,
    separator: str = ",",
    header: bool = True,
    sha256: str | None = None,
) -> tuple[pd.DataFrame, str]:
    """The table of strings of a CSV/TSV file and the file's sha256 (see :func:`read_delimited`).

    Raises
    ------
    DataFetchError
        As :func:`read_delimited`.
    """
    raw, digest, subject = _read_file(name, path, sha256)
    text = _decode(raw, subject)
    rows = [row for _, row in csv_rows(text, None, subject, delimiter=separator)]
    fix = "to fix: give a CSV with a header row and at least one data row"
    if not rows:
        raise _fetch_error(f"{subject}: the file is empty; {fix}")
    if header:
        columns, body = rows[0], rows[1:]
        if not body:
            raise _fetch_error(
                f"{subject}: the file has a header row ({', '.join(columns)}) but no data rows; "
                f"{fix}"
            )
    else:
        columns, body = [f"column_{i}" for i in range(1, len(rows[0]) + 1)], rows
    repeated = sorted({c for c in columns if columns.count(c) > 1})
    if repeated:
        raise _fetch_error(
            f"{subject}: the header row repeats the column name(s) {repeated}; to fix: give "
            "every column its own name"
        )
    return string_frame(body, columns), digest


def read_arff(
    name: str,
    path: str | Path,
    *,
    target: str | int = "last",
    sha256: str | None = None,
    rows: bool = True,
) -> SourceTable:
    """An ARFF file: nominal attributes stay nominal, the class order is the declared one.

    Parsed with ``liac-arff`` (``arff.loads``), the reference ARFF reader, which handles
    quoted values, comments and the header's declared value order.

    Parameters
    ----------
    name : str
        Dataset key (for messages).
    path : path-like
        The ``.arff`` file.
    target : str or int
        The class attribute (:func:`resolve_target`); ARFF's convention is the last one.
    sha256 : str, optional
        The file's expected digest.
    rows : bool, default True
        False: parse the header alone (what it declares; a table without rows), which is
        all a description of the data needs (:func:`pdmeasure.pipeline.data.fetch.describe`),
        at a fraction of the cost on a large file; the rows are left to the reader that needs
        them, which reports what is wrong with them.

    Returns
    -------
    SourceTable
        ``classes`` is the declared value order of the class attribute; ``numeric`` the
        NUMERIC, REAL and INTEGER attributes other than the class; ``nominal`` every nominal
        attribute's declared values. Missing values are ``"?"``.

    Raises
    ------
    DataFetchError
        The file is missing, differs from its pin, is not ARFF (the parser's message and
        line), is sparse, or its class attribute is not nominal.
    ConfigError
        ``target`` names no attribute.
    """
    raw, digest, subject = _read_file(name, path, sha256)
    text = _decode(raw, subject)
    attributes, data = parse_arff(text, subject) if rows else parse_arff_header(text, subject)
    columns = [str(a[0]) for a in attributes]
    resolved = resolve_target(name, columns, target, origin=f"file {path}")
    kinds = dict(attributes)
    if not isinstance(kinds[resolved], list):
        raise _fetch_error(
            f"{subject}: the class attribute {resolved!r} is {kinds[resolved]}, not nominal; a "
            "classifier needs nominal classes -- to fix: declare it nominal "
            f"(@attribute {resolved} {{a,b,...}}) or point `datasets.{name}.target` at the class"
        )
    return arff_table(attributes, data, resolved, f"file {path}", digest)


def arff_table(
    attributes: list, data: list, target: str, origin: str, sha256: str | None
) -> SourceTable:
    """The :class:`SourceTable` of parsed ARFF ``(attributes, data)`` (:func:`parse_arff`)
    whose class attribute ``target`` is nominal: cells as text (:func:`cell_text`), the
    class order and each nominal attribute's values as declared, the numeric features those
    of a :data:`NUMERIC_TYPES` type."""
    columns = [str(a[0]) for a in attributes]
    kinds = dict(zip(columns, (a[1] for a in attributes)))
    frame = string_frame([[cell_text(v) for v in row] for row in data], columns)
    numeric = tuple(c for c in columns if c != target and str(kinds[c]).upper() in NUMERIC_TYPES)
    nominal = {c: tuple(str(v) for v in kinds[c]) for c in columns if isinstance(kinds[c], list)}
    return SourceTable(frame, target, nominal[target], numeric, origin, sha256, nominal)


#: A numeric attribute declared with a range, ``@attribute legs integer [0,9]``: Weka reads
#: the type and ignores the range; liac-arff refuses the line.
_NUMERIC_RANGE = re.compile(
    r"^(\s*@attribute\s+(?:'[^']*'|\"[^\"]*\"|\S+)\s+(?:integer|real|numeric))\s*\[[^\]\n]*\][ \t\r]*$",
    re.IGNORECASE | re.MULTILINE,
)
_DATA_SECTION = re.compile(r"^\s*@data\b", re.IGNORECASE | re.MULTILINE)


def without_numeric_ranges(text: str) -> str:
    r"""An ARFF text with the ranges of its numeric attribute declarations dropped, as Weka's
    own reader ignores them (``integer [1,10]`` -> ``integer``); the data are untouched.

    >>> without_numeric_ranges("@attribute a INTEGER [0,9]\n@data\n1\n")
    '@attribute a INTEGER\n@data\n1\n'
    """
    data = _DATA_SECTION.search(text)
    end = data.start() if data else len(text)
    return _NUMERIC_RANGE.sub(r"\1", text[:end]) + text[end:]


def parse_arff(text: str, subject: str) -> tuple[list, list]:
    """``(attributes, data)`` of an ARFF text: dense, at least one data row, or an error."""
    decoded = _loads_arff(text, subject)
    data = decoded["data"]
    if isinstance(data, dict) or (len(data) and isinstance(data[0], dict)):
        raise _fetch_error(
            f"{subject}: sparse ARFF data are not supported; to fix: save the file as dense ARFF"
        )
    if not data:
        raise _fetch_error(f"{subject}: the file has no data rows; to fix: give data rows")
    return decoded["attributes"], data


def parse_arff_header(text: str, subject: str) -> tuple[list, list]:
    """``(attributes, [])`` of an ARFF text's header: the text up to its ``@data`` line,
    parsed as :func:`parse_arff` parses the whole file."""
    data = _DATA_SECTION.search(text)
    header = text if data is None else text[: data.start()] + "@data\n"
    return _loads_arff(header, subject)["attributes"], []


def _loads_arff(text: str, subject: str) -> dict:
    """``arff.loads`` of the text, numeric ranges dropped; an error names the file and the fix."""
    import arff

    try:
        return arff.loads(without_numeric_ranges(text))
    except arff.ArffException as exc:
        raise _fetch_error(
            f"{subject}: not a valid ARFF file ({type(exc).__name__}: {exc}); to fix: correct "
            "the file, or give a CSV with `format: csv`"
        ) from None


def cell_text(value: object) -> str:
    """A parsed cell as text: None/NaN -> ``"?"``, integral floats without ``.0``."""
    if value is None:
        return ARFF_MISSING
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return ARFF_MISSING
        if math.isfinite(value) and value.is_integer():
            return str(int(value))
        return repr(value)
    return str(value)


def infer_numeric(frame: pd.DataFrame, target: str, missing: str | None) -> tuple[str, ...]:
    """Features whose cells are all numbers: the rule when neither config nor source says.

    A feature is numeric when every cell other than the missing marker parses as a finite
    float and at least one such cell exists; every other feature is categorical. The target
    is never a feature.
    """
    numeric = []
    for column in frame.columns:
        if column == target:
            continue
        present = [v for v in frame[column].to_numpy(dtype=object) if v != missing]
        if present and all(_is_number(v) for v in present):
            numeric.append(str(column))
    return tuple(numeric)


def _is_number(text) -> bool:
    try:
        return math.isfinite(float(text))
    except (TypeError, ValueError):
        return False
