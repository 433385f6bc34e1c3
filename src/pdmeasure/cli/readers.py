"""Readers of predictions files: the kind of a file from its first bytes, and batches of its
label columns from CSV or TSV (pyarrow's streaming reader; without pyarrow, pandas' C parser
in chunks; without either, the standard library's), Parquet and Arrow IPC, from a path or
standard input. A file compressed with gzip, bzip2,
xz or zstd (recognised by its first bytes, whatever its name) is decompressed as it is
read.

A batch is a list of the requested columns, in the order asked (``--true`` and ``--pred``
may name one column). Errors name the problem, the line where the file allows it, and the
fix.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np

from pdmeasure.cli.errors import CliError, one_line
from pdmeasure.cli.tally import Coded

#: Bytes per CSV block read by pyarrow (half its default). Its streaming reader reads
#: ahead a number of blocks, so peak memory grows with the block size, at the same CPU time
#: within the noise (measured: 291-301 MB peak RSS of ``pdmeasure score`` on a
#: 20-million-row CSV at 1 MB, 266-272 MB at 512 kB, read through Python).
BLOCK_BYTES = 1 << 19


#: Rows per batch of Parquet and of the pandas and standard-library CSV readers.
BATCH_ROWS = 1 << 20


ARROW_HINT = "pip install 'pdmeasure[arrow]'"


class Where(Protocol):
    """Where a data row is, for messages (``where(row)``: ``"FILE: line N"``)."""

    name: str
    path: str

    def __call__(self, row: int) -> str: ...


def pyarrow_or_none() -> Any:
    """The ``pyarrow`` module, or None when the ``arrow`` extra is not installed."""
    try:
        import pyarrow
    except ModuleNotFoundError:
        return None
    return pyarrow


def pandas_or_none() -> Any:
    """The ``pandas`` module, or None when the ``pipeline`` extra is not installed."""
    try:
        import pandas
    except ModuleNotFoundError:
        return None
    return pandas


class Counting(io.RawIOBase):
    """A binary reader that counts the bytes read through it (for the progress bar)."""

    def __init__(self, raw: Any):
        self.raw, self.bytes = raw, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self.raw.readinto(buffer)
        self.bytes += n or 0
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()


class NativeCounting:
    """An Arrow file, the stream of its bytes (decompressed when ``compression`` names
    one of Arrow's codecs), and the bytes read from the file so far (for the progress
    bar)."""

    def __init__(self, file: Any, compression: str | None = None):
        self.file, self.stream = file, file
        if compression is not None:
            import pyarrow as pa

            self.stream = pa.CompressedInputStream(file, compression)

    @property
    def bytes(self) -> int:
        return 0 if self.file.closed else self.file.tell()

    def close(self) -> None:
        self.stream.close()
        self.file.close()


#: The first bytes of each compression read as it streams (bzip2: "BZh", the block size
#: 1-9 and the first block's magic number).
MAGIC = {"gzip": b"\x1f\x8b", "xz": b"\xfd7zXZ\x00", "zstd": b"\x28\xb5\x2f\xfd"}
#: Compressions that pyarrow decompresses itself when it reads a file (in C++, without
#: Python's lock); xz, and every compression when pyarrow is missing, go through Python.
ARROW_CODECS = ("gzip", "bz2", "zstd")


def compression_of(head: bytes) -> str | None:
    """``gzip``, ``bz2``, ``xz`` or ``zstd`` from a file's first bytes, else None."""
    if head[:3] == b"BZh" and head[3:4].isdigit() and head[4:10] == b"1AY&SY":
        return "bz2"
    return next((name for name, magic in MAGIC.items() if head.startswith(magic)), None)


def arrow_reads(pa: Any, compression: str | None) -> bool:
    """Whether pyarrow reads a file of this compression (None: not compressed) itself."""
    return compression is None or (
        compression in ARROW_CODECS and pa.Codec.is_available(compression)
    )


def decompressed(reader: Any, compression: str, name: str) -> Any:
    """A buffered binary reader (with ``peek``) of the decompressed bytes of ``reader``."""
    if compression == "gzip":
        raw: Any = gzip.GzipFile(fileobj=reader, mode="rb")
    elif compression == "bz2":
        raw = bz2.BZ2File(reader)
    elif compression == "xz":
        raw = lzma.LZMAFile(reader)
    else:  # zstd: no module of the standard library before Python 3.14
        pa = pyarrow_or_none()
        if pa is None or not pa.Codec.is_available(compression):
            raise CliError(
                f"{name} is compressed with {compression}, which needs pyarrow: "
                f"{ARROW_HINT}; or decompress it first ({compression} -d)"
            )
        raw = _ArrowRaw(pa.CompressedInputStream(pa.PythonFile(reader, mode="r"), compression))
    return io.BufferedReader(raw, 1 << 16)


class _ArrowRaw(io.RawIOBase):
    """An Arrow input stream as a Python binary reader."""

    def __init__(self, stream: Any):
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


@contextmanager
def open_text(path: str) -> Iterator[Any]:
    """``path`` as text (decompressed if it is compressed), for the error path's lookups."""
    with open(path, "rb") as raw:
        compression = compression_of(raw.peek(16))
        binary = raw if compression is None else decompressed(raw, compression, path)
        yield io.TextIOWrapper(binary, encoding="utf-8-sig", errors="replace", newline="")


def open_input(path: str) -> tuple[Any, str]:
    """A binary reader of ``path`` (``-``: standard input) and its display name."""
    if path == "-":
        return sys.stdin.buffer, "stdin"
    try:
        return open(path, "rb"), path  # noqa: SIM115 (closed by the caller)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None


def peek(reader: Any, n: int = 1 << 16) -> bytes:
    """The first bytes of ``reader`` without consuming them."""
    if hasattr(reader, "peek"):
        return reader.peek(n)[:n]
    head = reader.read(n)
    reader.seek(0)
    return head


def kind_of(head: bytes) -> str:
    """``parquet``, ``arrow`` (IPC file or stream) or ``csv``, from the first bytes."""
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"ARROW1") or head.startswith(b"\xff\xff\xff\xff"):
        return "arrow"
    return "csv"


def delimiter_of(head: bytes) -> str:
    first = head.split(b"\n", 1)[0]
    return "\t" if b"\t" in first and b"," not in first else ","


def header_of(head: bytes, delimiter: str) -> list[str]:
    text = head.split(b"\n", 1)[0].decode("utf-8-sig", errors="replace").rstrip("\r")
    return [cell.strip() for cell in next(csv.reader([text], delimiter=delimiter), [])]


def line_of_row(path: str, row: int) -> int | None:
    """The line number of data row ``row`` of a CSV file (blank lines do not count as
    rows); read again from the start, on the error path only."""
    found = _row_cells(path, ",", row)
    return None if found is None else found[0]


def arrow_csv_batches(
    pa: Any,
    source: Any,
    columns: list[str],
    delimiter: str,
    header: list[str],
    where: Where,
    at_start: bool = True,
) -> Iterator[list]:
    """Batches of a CSV through pyarrow's streaming reader (labels as bytes).

    The columns are named by ``header`` (the first line as :func:`header_of` reads it, cells
    stripped of spaces as in the standard library's reader), whose line ``source`` skips
    when it starts ``at_start`` of the file; the second half of a file read in halves starts
    at a row.

    The labels are parsed as bytes and tallied by :func:`pdmeasure.cli.tally.encode_group`;
    the reader's own conversion to dictionary arrays costs more (measured on 5 million
    rows: 0.42 against 0.34 CPU-s in all).
    """
    from pyarrow import csv as pacsv

    check_columns(columns, header, where.name)
    read = dict.fromkeys(columns)  # each once: --true and --pred may name one column
    ragged: list = []

    def invalid(row):
        ragged.append(row)
        return "error"

    label = pa.binary()  # decoded per distinct label, so bad bytes are found by row
    try:
        stream = pacsv.open_csv(
            source,
            read_options=pacsv.ReadOptions(
                block_size=BLOCK_BYTES, column_names=header, skip_rows=int(at_start)
            ),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, invalid_row_handler=invalid),
            convert_options=pacsv.ConvertOptions(
                include_columns=list(read), column_types=dict.fromkeys(read, label)
            ),
        )
        for batch in stream:
            yield [batch.column(name) for name in columns]
    except pa.ArrowInvalid:
        if ragged:
            raise CliError(_ragged_message(ragged[0], header, delimiter, where)) from None
        raise


def _ragged_message(row: Any, header: list[str], delimiter: str, where: Where) -> str:
    """A row with the wrong number of cells; its line is found by reading the file again."""
    line = None if where.path == "-" else _ragged_line(where.path, delimiter, len(header))
    place = f"{where.name}: line {line}" if line else f"{where.name}: a row"
    return (
        f"{place} has {row.actual_columns} cells where the header has {len(header)}: "
        f"{row.text[:80]!r}; give every row one cell per column (quote cells with "
        "the separator)"
    )


def _ragged_line(path: str, delimiter: str, width: int) -> int | None:
    """The first line of a CSV file whose row has not ``width`` cells (error path only)."""
    with open_text(path) as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        for cells in reader:
            if cells and len(cells) != width:
                return reader.line_num
    return None


#: The option that names each requested column, in the order of ``columns``.
OPTIONS = ("--true", "--pred", "--by")


def check_columns(columns: list[str], present: list[str], name: str) -> None:
    """Every requested column is one of the file's ``present`` columns, or a message that
    names the column, the option that asked for it and the columns there are (the same for
    every format)."""
    for option, column in zip(OPTIONS, columns):
        if column not in present:
            raise CliError(
                f"{name}: no column {column!r} for {option} (the columns are {list(present)}); "
                f"give {option} one of them"
            )


def parquet_batches(path: str, name: str, columns: list[str]) -> Iterator[list]:
    """Batches of the named columns of a Parquet file."""
    from pyarrow import parquet as pq

    if path == "-":
        raise CliError("Parquet cannot be read from standard input; give the file's path")
    try:
        schema = pq.read_schema(path)
    except Exception as exc:
        raise CliError(
            f"{name}: not a complete Parquet file ({one_line(exc)}); it may be truncated: "
            "write it again"
        ) from None
    # Checked before the file is opened with ``read_dictionary``, which fails on a column
    # that is not there with a message that names neither the problem nor the columns.
    check_columns(columns, schema.names, name)
    # Label columns read as dictionary arrays: decoded once per distinct label.
    handle = pq.ParquetFile(path, read_dictionary=columns)
    for batch in handle.iter_batches(batch_size=BATCH_ROWS, columns=list(dict.fromkeys(columns))):
        yield [batch.column(name) for name in columns]


def ipc_batches(pa: Any, reader: Any, head: bytes, name: str, columns: list[str]) -> Iterator[list]:
    """Batches of an Arrow IPC stream, or file (read as its batches, in order), whose first
    bytes are ``head``."""
    data = pa.PythonFile(reader, mode="r")
    if head.startswith(b"ARROW1"):
        # The file format has its schema and batch index at the end: skip the header magic
        # (8 bytes, padded) and read the stream that follows, without seeking.
        data.read(8)
    stream = pa.ipc.open_stream(data)
    check_columns(columns, stream.schema.names, name)
    for batch in stream:
        yield [batch.column(name) for name in columns]


def pandas_csv_batches(
    pd: Any, data: Any, columns: list[str], delimiter: str, header: list[str], where: Where
) -> Iterator[list]:
    """Batches of :data:`BATCH_ROWS` rows of a CSV through pandas' C parser (no pyarrow).

    Each label column is parsed as a categorical: the parser hashes the bytes of each cell
    and makes a text of each distinct label only, so a batch is its integer codes and a few
    labels (:class:`~pdmeasure.cli.tally.Coded`). Only the label columns are converted
    (``usecols``): converting the others too would cost about as much again (measured on 5
    million rows with an id column, one run on a busy machine: 1.48 s with it read as
    numbers and 2.6 s as text, against 0.98 s without it).

    Rows are checked as the other readers check them, except for cells past the label
    columns: with ``usecols`` pandas pads a short row with empty cells and ignores extra
    ones. A short row whose label cell is missing is named as a row with the wrong number of
    cells (found by reading the file again, on the error path only); a row that lacks or
    adds cells the command does not read is counted by its label cells.
    """
    check_columns(columns, header, where.name)
    # Columns named by their position: the header may repeat a name.
    positions = [str(header.index(column)) for column in columns]
    read = list(dict.fromkeys(positions))  # --true and --pred may name one column
    chunks = pd.read_csv(
        data,
        sep=delimiter,
        header=None,
        skiprows=1,  # the header line, read by header_of
        names=[str(i) for i in range(len(header))],
        index_col=False,  # a row with an extra cell does not make the first an index
        usecols=read,
        dtype=dict.fromkeys(read, "category"),
        na_filter=False,  # "NA", "null" and empty cells are labels (empty ones are named)
        engine="c",
        encoding="utf-8",
        chunksize=BATCH_ROWS,
    )
    row0 = 0
    try:
        with chunks:
            for frame in chunks:
                coded = {position: _coded(frame[position].array) for position in read}
                _check_short_row(coded, row0, delimiter, len(header), where)
                yield [coded[position] for position in positions]
                row0 += len(frame)
    except UnicodeDecodeError as exc:
        raise CliError(_undecodable_message(exc, where)) from None


def _coded(categorical: Any) -> Coded:
    """A pandas categorical as codes and the list of its categories."""
    return Coded(np.asarray(categorical.codes), [str(c) for c in categorical.categories])


def _check_short_row(
    coded: dict[str, Coded], row0: int, delimiter: str, width: int, where: Where
) -> None:
    """A row with an empty label cell that has too few cells is named as such (pandas pads
    short rows with empty cells); an empty cell of a whole row is left to the tally, which
    names it as an empty label."""
    rows = []
    for column in coded.values():
        empty = [k for k, label in enumerate(column.categories) if not label.strip()]
        if empty:
            rows.append(int(np.argmax(np.isin(column.codes, empty))))
    if not rows or where.path == "-":
        return
    found = _row_cells(where.path, delimiter, row0 + min(rows))
    if found is not None and found[1] != width:
        line, cells = found
        raise CliError(
            f"{where.name}: line {line} has {cells} cells where the header has {width}; "
            "give every row one cell per column"
        )


def _row_cells(path: str, delimiter: str, row: int) -> tuple[int, int] | None:
    """The line number and number of cells of data row ``row`` of a CSV file (blank lines
    do not count as rows); read again from the start, on the error path only."""
    with open_text(path) as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        next(reader, None)
        seen = -1
        for cells in reader:
            seen += bool(cells)
            if seen == row:
                return reader.line_num, len(cells)
    return None


def _undecodable_message(exc: UnicodeDecodeError, where: Where) -> str:
    """A label that is not UTF-8, named with the first line of the file that is not (pandas
    names neither); from standard input, with its bytes only."""
    if where.path != "-":
        with open(where.path, "rb") as raw:
            compression = compression_of(raw.peek(16))
            binary = raw if compression is None else decompressed(raw, compression, where.name)
            try:
                for _ in _decoded_lines(binary, where.name):
                    pass
            except CliError as found:
                return str(found)
    return (
        f"{where.name}: a label has bytes that are not UTF-8 ({exc.object[:20]!r}); save the "
        "file as UTF-8"
    )


def _decoded_lines(reader, name: str) -> Iterator[str]:
    """The lines of a binary reader as text; undecodable bytes are named with their line."""
    for number, line in enumerate(io.BufferedReader(reader), start=1):
        try:
            yield line.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            raise CliError(
                f"{name}: line {number} has bytes that are not UTF-8 ({line[:40]!r}); save the "
                "file as UTF-8"
            ) from None


def stdlib_csv_batches(
    reader: Any, columns: list[str], delimiter: str, name: str
) -> Iterator[list]:
    """Batches of :data:`BATCH_ROWS` rows through the standard library (no pyarrow)."""
    rows = csv.reader(_decoded_lines(reader, name), delimiter=delimiter)
    header = [cell.strip() for cell in next(rows, [])]
    check_columns(columns, header, name)
    index = [header.index(column) for column in columns]
    batch: list[list[str]] = [[] for _ in columns]
    for cells in rows:
        if not cells:
            continue
        if len(cells) != len(header):
            raise CliError(
                f"{name}: line {rows.line_num} has {len(cells)} cells where the header "
                f"has {len(header)}; give every row one cell per column"
            )
        for out, i in zip(batch, index, strict=True):
            out.append(cells[i])
        if len(batch[0]) == BATCH_ROWS:
            yield batch
            batch = [[] for _ in columns]
    if batch[0]:
        yield batch
