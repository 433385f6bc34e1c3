"""Streaming ``--predictions``: confusion matrices of a predictions file of any length.

The file is read in batches and counted into a :class:`~pdmeasure.measures.ConfusionAccumulator`,
so memory depends on the batch size and the number of classes and classifiers, never on the
number of rows. Formats, recognised by their first bytes:

* Parquet (``PAR1``) and Arrow IPC (file ``ARROW1`` or stream) through ``pyarrow`` (the
  ``arrow`` extra: ``pip install 'pdmeasure[arrow]'``); Parquet needs a file, not stdin;
* CSV or TSV (tab separated when the header line has a tab and no comma): through
  ``pyarrow``'s streaming CSV reader when it is installed (several blocks at a time tallied
  by Arrow's hash grouping, in a worker thread while the next blocks parse; a regular file
  of :data:`SPLIT_BYTES` or more as two halves, each parsed and tallied in its own thread),
  else through the standard library's ``csv`` in chunks (slower, same result).

Labels are text, stripped of surrounding spaces; an empty or missing label is an error. The
class order is ``--labels``, else :func:`pdmeasure.measures.sorted_labels` of every label
seen (the same rule as for a whole table), so a label that first appears late takes its
sorted place. Classifiers (``--by``) keep the order of their first appearance.
"""

from __future__ import annotations

import csv
import io
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import Any

import numpy as np

from pdmeasure._validation import check_confusion
from pdmeasure.cli.errors import CliError, one_line
from pdmeasure.measures import ConfusionAccumulator

#: Bytes per CSV block read by pyarrow (half its default). Its streaming reader reads
#: ahead a number of blocks, so peak memory grows with the block size, at the same CPU time
#: within the noise (measured: 291-301 MB peak RSS of ``pdmeasure score`` on a
#: 20-million-row CSV at 1 MB, 266-272 MB at 512 kB, read through Python).
BLOCK_BYTES = 1 << 19
#: Rows per batch of Parquet and of the standard-library CSV reader.
BATCH_ROWS = 1 << 20
#: Rows tallied at a time: consecutive CSV blocks (about 22,000 rows each) are tallied
#: together, since each Arrow grouping has a fixed cost, larger with more distinct cells:
#: measured on 5 million rows with 100 classifiers (``--by``), 0.15 CPU-s to tally 131,000
#: rows at a time, 0.14 at 262,000, 0.13 at 524,000. The groups being read and tallied are
#: held at once, so memory grows with it: peak RSS of ``pdmeasure score`` on the
#: 20-million-row CSV 239-248 MB at 2**17 rows, 249-265 MB at 2**18 (512 kB blocks);
#: ``--by`` ran at 0.66-0.80x of the speed without it at 2**17, 0.79-0.87x at 2**18
#: (``benchmarks/bench_stream.py``, same machine, same hour).
COUNT_ROWS = 1 << 18
#: Threads that tally groups of rows while the reader parses: one; a second held one more
#: group (286-306 MB peak RSS at 2**18 rows) and saved no CPU time.
WORKERS = 1
#: A regular CSV file of at least this many bytes is read as two halves at once, each parsed
#: and tallied in its own thread, when this process may use two CPUs: one reader with a
#: tally thread leaves the second core half idle (the tally is the lighter part), and
#: Arrow's tokenizer is slow on rows of varying length. Measured on 5 million rows
#: (10 classes), best of 5: 0.15 against 0.20 s with labels of several lengths, 0.11 against
#: 0.15 s with labels of one length, 0.15 against 0.16 s with 100 classifiers (``--by``).
SPLIT_BYTES = 8 << 20
#: A progress bar appears once a file has taken this long (seconds), on a terminal only.
PROGRESS_AFTER = 2.0
ARROW_HINT = "pip install 'pdmeasure[arrow]'"
_SINGLE = "value"


def _pyarrow():
    """The ``pyarrow`` module, or None when the ``arrow`` extra is not installed."""
    try:
        import pyarrow
    except ModuleNotFoundError:
        return None
    return pyarrow


class _Counting(io.RawIOBase):
    """A binary reader that counts the bytes read through it (for the progress bar)."""

    def __init__(self, raw):
        self.raw, self.bytes = raw, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self.raw.readinto(buffer)
        self.bytes += n or 0
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()


class _NativeCounting:
    """An Arrow file and the bytes read from it so far (for the progress bar)."""

    def __init__(self, file):
        self.file = file

    @property
    def bytes(self) -> int:
        return 0 if self.file.closed else self.file.tell()

    def close(self) -> None:
        self.file.close()


class _Progress:
    """Rows and MB read, on one updating line of stderr: only on a terminal, only once the
    file has taken :data:`PROGRESS_AFTER` seconds."""

    #: Seconds between redraws.
    INTERVAL = 0.2

    def __init__(self, name: str):
        self.name, self.start, self.shown, self.last = name, time.monotonic(), False, 0.0
        self.enabled = sys.stderr.isatty()

    def update(self, rows: int, nbytes: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.start < PROGRESS_AFTER or now - self.last < self.INTERVAL:
            return
        self.shown, self.last = True, now
        sys.stderr.write(f"\r{self.name}: {rows:,} rows, {nbytes / 1e6:,.0f} MB read ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")


def _open(path: str) -> tuple[Any, str]:
    """A binary reader of ``path`` (``-``: standard input) and its display name."""
    if path == "-":
        return sys.stdin.buffer, "stdin"
    try:
        return open(path, "rb"), path  # noqa: SIM115 (closed by the caller)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None


def _peek(reader, n: int = 1 << 16) -> bytes:
    """The first bytes of ``reader`` without consuming them."""
    if hasattr(reader, "peek"):
        return reader.peek(n)[:n]
    head = reader.read(n)
    reader.seek(0)
    return head


def _kind(head: bytes) -> str:
    """``parquet``, ``arrow`` (IPC file or stream) or ``csv``, from the first bytes."""
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"ARROW1") or head.startswith(b"\xff\xff\xff\xff"):
        return "arrow"
    return "csv"


def _delimiter(head: bytes) -> str:
    first = head.split(b"\n", 1)[0]
    return "\t" if b"\t" in first and b"," not in first else ","


def _header(head: bytes, delimiter: str) -> list[str]:
    text = head.split(b"\n", 1)[0].decode("utf-8-sig", errors="replace").rstrip("\r")
    return [cell.strip() for cell in next(csv.reader([text], delimiter=delimiter), [])]


def stream_predictions(
    path: str, true: str, pred: str, by: str | None, labels: list[str] | None
) -> tuple[dict[str, np.ndarray], list[str], str]:
    """Count a predictions file into one matrix per ``by`` group.

    Returns
    -------
    matrices : dict of str to numpy.ndarray
        Group (``"value"`` without ``by``) -> ``(C, C)`` float64 counts, rows actual.
    labels : list of str
        The class order.
    name : str
        The display name of the input.

    Raises
    ------
    CliError
        Naming the problem, the line or row where it is, and the fix.
    """
    reader, name = _open(path)
    columns = [true, pred] + ([by] if by else [])
    acc = ConfusionAccumulator(labels=labels)
    try:
        with reader:
            head = _peek(reader)
            if not head.strip():
                raise CliError(f"{name}: the predictions file is empty; it needs a header row")
            _count_file(acc, reader, head, name, path, columns, labels)
    except CliError:
        raise
    except Exception as exc:  # pyarrow's and the reader's errors, as one line
        raise CliError(f"{name}: cannot read the predictions: {one_line(exc)}") from None
    return _matrices(acc, name, by)


def _count_file(acc, reader, head, name, path, columns, labels) -> None:
    """Feed every batch of the file to ``acc`` (see :func:`stream_predictions`)."""
    kind = _kind(head)
    pa = _pyarrow()
    if kind != "csv" and pa is None:
        raise CliError(f"{name} is a {kind.title()} file, which needs pyarrow: {ARROW_HINT}")
    progress = _Progress(name)
    counter: _Counting | _NativeCounting = _Counting(reader)
    where = _Where(name, path, kind)
    if kind == "parquet":
        batches = _parquet_batches(path, name, columns)
    elif kind == "arrow":
        batches = _ipc_batches(pa, counter, name, columns)
    elif pa is not None:
        delimiter = _delimiter(head)
        header = _header(head, delimiter)
        halves = _halves(path, head, header)
        if halves:
            try:
                _count_halves(acc, pa, path, halves, (columns, delimiter, header), labels, progress)
                progress.close()
                return
            except Exception:  # noqa: S110 (one reader reads it again and names the first bad row)
                pass
        if path != "-" and os.path.isfile(path):  # not a pipe, whose start _peek has read
            # A regular file is read by Arrow itself: no Python call (and GIL) per block,
            # measured 0.20 against 0.24 CPU-s to parse 5 million rows through Python.
            native = _NativeCounting(pa.OSFile(path))
            counter, source = native, native.file
        else:
            source = pa.PythonFile(counter, mode="r")
        batches = _arrow_csv_batches(pa, source, columns, delimiter, header, where)
    else:
        batches = _stdlib_csv_batches(counter, columns, _delimiter(head), name)
    try:
        _count_batches(acc, batches, where, labels, progress, counter)
    finally:
        progress.close()
        if isinstance(counter, _NativeCounting):
            counter.close()


def _cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _halves(path: str, head: bytes, header: list[str]) -> list[tuple[int, int]] | None:
    """The byte ranges of the two halves of a regular CSV file's data rows, split at a line
    end, or None when the file is not read in halves (see :data:`SPLIT_BYTES`)."""
    if path == "-" or not os.path.isfile(path) or len(header) < 2 or b"\n" not in head:
        return None
    size = os.path.getsize(path)
    if size < SPLIT_BYTES or _cpus() < 2:
        return None
    start = head.index(b"\n") + 1
    with open(path, "rb") as handle:
        handle.seek(start + (size - start) // 2)
        handle.readline()
        middle = handle.tell()
    return [(start, middle), (middle, size)] if start < middle < size else None


def _count_halves(acc, pa, path, halves, layout, labels, progress) -> None:
    """Count the ``halves`` of a CSV file at once, each parsed and tallied in its own thread
    into its own accumulator; merged in file order, so classifiers keep their order of first
    appearance and ``acc`` is left as it was if anything fails.

    Any error stops both halves and is raised; the caller then reads the whole file with one
    reader, which names the first bad row of the file (a half does not know the line numbers
    of the rows before it). A split inside a quoted value that holds a line break leaves a
    row with too few cells in a half, so such a file is read again too.
    """
    parts = [ConfusionAccumulator(labels=labels) for _ in halves]
    stop, totals = threading.Event(), [(0, 0)] * len(halves)
    with pa.OSFile(path) as file, ThreadPoolExecutor(len(halves)) as pool:
        futures = []
        for index, (part, (first, end)) in enumerate(zip(parts, halves, strict=True)):
            half = (file.get_stream(first, end - first), _Blocks(end - first), stop)
            shown = _PartProgress(progress, totals, index)
            futures.append(pool.submit(_count_part, part, half, pa, layout, labels, shown))
        try:
            wait(futures, return_when=FIRST_EXCEPTION)
        finally:
            stop.set()  # the other half stops at its next batch when one failed
        for future in futures:
            future.result()
    for part in parts:
        acc.merge(part)


def _count_part(part, half, pa, layout, labels, progress) -> None:
    """Parse and tally one half of a CSV file (a segment stream, its :class:`_Blocks` and the
    stop event) in this thread; the other half has the other thread."""
    (source, blocks, stop), (columns, delimiter, header) = half, layout
    where = _Where("", "-", "csv")  # unused: an error sends the file to one reader
    batches = _arrow_csv_batches(pa, source, columns, delimiter, header, where, named=True)
    try:
        counted = blocks.count(stop, batches)
        _count_batches(part, counted, where, labels, progress, blocks, workers=0)
    finally:
        source.close()


class _Stopped(Exception):
    """The other half of the file failed."""


class _Blocks:
    """The bytes of a half read so far, for the progress bar: Arrow's reader makes one batch
    of each block of :data:`BLOCK_BYTES`, and a file segment cannot tell its position."""

    def __init__(self, size: int):
        self.size, self.blocks = size, 0

    @property
    def bytes(self) -> int:
        return min(self.blocks * BLOCK_BYTES, self.size)

    def count(self, stop: threading.Event, batches: Iterator[list]) -> Iterator[list]:
        """``batches``, counted, until ``stop`` is set."""
        for batch in batches:
            if stop.is_set():
                raise _Stopped
            self.blocks += 1
            yield batch


class _PartProgress:
    """One half's rows and bytes, shown with the other half's on one progress bar."""

    def __init__(self, progress: _Progress, totals: list[tuple[int, int]], index: int):
        self.progress, self.totals, self.index = progress, totals, index

    def update(self, rows: int, nbytes: int) -> None:
        self.totals[self.index] = (rows, nbytes)
        self.progress.update(sum(r for r, _ in self.totals), sum(b for _, b in self.totals))


class _Inline:
    """An executor that runs each task as it is submitted (a half's tally, in its thread)."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args))
        except Exception as exc:
            future.set_exception(exc)
        return future


class _Where:
    """Where a data row is, for messages: ``line N`` of a CSV file, else ``row N``."""

    def __init__(self, name: str, path: str, kind: str):
        self.name, self.path, self.kind = name, path, kind

    def __call__(self, row: int) -> str:
        """``row`` counts data rows from 0."""
        if self.kind != "csv":
            return f"{self.name}: row {row + 1}"
        line = _csv_line_of_row(self.path, row) if self.path != "-" else None
        return f"{self.name}: line {line}" if line else f"{self.name}: data row {row + 1}"


def _csv_line_of_row(path: str, row: int) -> int | None:
    """The line number of data row ``row`` of a CSV file (blank lines do not count as
    rows); read again from the start, on the error path only."""
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as handle:
        reader = csv.reader(handle)
        next(reader, None)
        seen = -1
        for cells in reader:
            seen += bool(cells)
            if seen == row:
                return reader.line_num
    return None


def _count_batches(acc, batches, where, labels, progress, counter, workers=WORKERS) -> None:
    """Count batches in groups of at least :data:`COUNT_ROWS` rows: each group is encoded
    (tallied) in one of ``workers`` threads while the reader parses the next ones (none: in
    this thread), and added to ``acc`` in file order, so classifiers keep their order of
    first appearance and the first bad row of the file is the one named."""
    rows = start = 0
    pending: deque[Future] = deque()
    group: list[list] = []
    with ThreadPoolExecutor(workers) if workers else _Inline() as pool:

        def submit(group: list[list], row0: int) -> None:
            if len(pending) == max(workers, 1):
                _add(acc, pending.popleft().result())
            pending.append(pool.submit(_encode_group, group, row0, where, labels))

        for columns in _pending_first(batches, pending, acc):
            group.append(columns)
            rows += len(columns[0])
            progress.update(rows, counter.bytes)
            if rows - start >= COUNT_ROWS:
                submit(group, start)
                group, start = [], rows
        if group:
            submit(group, start)
        while pending:
            _add(acc, pending.popleft().result())


def _pending_first(batches, pending: deque[Future], acc) -> Iterator[list]:
    """``batches``; an error of the reader (a ragged row) is raised after those of the rows
    before it, still being encoded in ``pending``."""
    try:
        yield from batches
    except Exception:
        while pending:
            _add(acc, pending.popleft().result())
        raise


def _add(acc, updates: list[tuple]) -> None:
    """Add encoded batches (arguments of ``update_codes``) to ``acc``."""
    for update in updates:
        acc.update_codes(*update)


def _encode_group(group: list[list], row0: int, where, labels) -> list[tuple]:
    """Encode consecutive batches, each a list of the true, predicted and optional group
    columns, starting at data row ``row0``: the arguments of ``update_codes``."""
    if all(_plain_arrow(columns[0]) for columns in group):
        return [_tallied(group, row0, where, labels)]
    updates = []
    for columns in group:
        encoded = [_codes(column, row0, where) for column in columns]
        updates.append(_update(encoded, row0, where, labels, None))
        row0 += len(columns[0])
    return updates


def _plain_arrow(column) -> bool:
    """An Arrow array that is not dictionary-encoded (CSV, or IPC of plain strings)."""
    return not isinstance(column, list) and not hasattr(column, "indices")


def _tallied(group: list[list], row0: int, where, labels) -> tuple:
    """Arrow batches encoded through one ``group_by`` of their label columns.

    Arrow's hash grouping tallies each distinct ``(actual, predicted, group)`` at once, so
    only those (at most ``K * C * C``) are encoded and added: measured on 5 million CSV rows
    (10 classes), 0.33 CPU-s with the parsing, against 0.43 CPU-s when each column was
    dictionary-encoded and the codes counted by ``np.bincount``. The grouping keeps the
    order of first appearance, so classifiers keep theirs.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    names = [f"k{i}" for i in range(len(group[0]))]  # --true and --pred may be one column
    table = pa.table(
        {name: _fixed_width([columns[i] for columns in group]) for i, name in enumerate(names)}
    )
    for name in names:
        column = table.column(name)
        if column.null_count:
            row = row0 + pc.index(column.is_null(), True).as_py()
            raise CliError(f"{where(row)} has no label (a missing value); give every row a label")
    tallied, counts = _tally(table, names)
    encoded = []
    for name in names:
        keys = pc.dictionary_encode(tallied.column(name).combine_chunks())
        locate = _finder(table.column(name), keys.dictionary)
        texts = _texts(keys.dictionary.to_pylist(), locate, row0, where)
        encoded.append((keys.indices.to_numpy(), texts, locate))
    return _update(encoded, row0, where, labels, counts)


def _fixed_width(chunks: list) -> Any:
    """Binary (or text) label arrays as one chunked array, of ``fixed_size_binary`` when every
    label has the same length (digits, zero-padded names, ``positive``/``negative``), else as
    they are.

    The fixed-width arrays share the label arrays' data buffers (no copy), and Arrow's hash
    grouping of fixed-width keys costs about 40 % less than of variable-length ones:
    measured on 5 million rows, 0.075 against 0.127 CPU-s for the true, predicted and
    classifier columns (100 classifiers), the conversion included. Labels of several lengths
    keep the variable-length keys; the counts are the same either way.
    """
    import pyarrow as pa

    fixed: list = []
    for chunk in chunks:
        if len(chunk) == 0:
            continue
        if chunk.null_count or not (
            pa.types.is_binary(chunk.type) or pa.types.is_string(chunk.type)
        ):
            return pa.chunked_array(chunks)
        _, offsets, data = chunk.buffers()
        ends = np.frombuffer(offsets, np.int32, len(chunk) + 1, chunk.offset * 4)
        width = int(ends[1] - ends[0])
        same = width > 0 and np.array_equal(ends, ends[0] + width * np.arange(len(ends)))
        if not same or (fixed and fixed[0].type.byte_width != width):
            return pa.chunked_array(chunks)
        body = data.slice(int(ends[0]), width * len(chunk))
        fixed.append(
            pa.FixedSizeBinaryArray.from_buffers(pa.binary(width), len(chunk), [None, body])
        )
    return pa.chunked_array(fixed) if fixed else pa.chunked_array(chunks)


def _finder(column, values) -> Callable[[int], int]:
    """The row of ``column`` where ``values[k]`` first appears (error messages only)."""
    import pyarrow.compute as pc

    return lambda k: pc.index(column, values[k]).as_py()


def _tally(table, names: list[str]) -> tuple[Any, np.ndarray]:
    """The distinct rows of ``table``'s ``names`` columns, in order of first appearance,
    and how many times each occurs: Arrow's hash aggregation ``hash_count_all``.

    Through ``pyarrow._acero``, which ``Table.group_by`` calls: the public
    ``pyarrow.acero`` also imports ``pyarrow._dataset``, which costs 48 MB of resident
    memory (measured), a sixth of what the command may use.
    """
    try:
        from pyarrow._acero import AggregateNodeOptions, Declaration, TableSourceNodeOptions
    except ImportError:  # a pyarrow that moved them: the public way, same result
        tallied = table.group_by(names, use_threads=False).aggregate([([], "count_all")])
        return tallied, tallied.column("count_all").to_numpy()
    plan = Declaration.from_sequence(
        [
            Declaration("table_source", TableSourceNodeOptions(table)),
            Declaration(
                "aggregate",
                AggregateNodeOptions([([], "hash_count_all", None, "n")], keys=names),
            ),
        ]
    )
    # Single-threaded, the hash grouping keeps the order of first appearance.
    tallied = plan.to_table(use_threads=False)
    return tallied, tallied.column("n").to_numpy()


def _update(encoded, row0: int, where, labels, counts) -> tuple:
    """The ``update_codes`` arguments of ``(codes, texts, locate)`` of the true, predicted
    and optional group columns."""
    (tc, tcat, _), (pc, pcat, _) = encoded[:2]
    if labels is not None:
        _check_labels(encoded[:2], row0, where, labels)
    by = encoded[2][:2] if len(encoded) > 2 else (None, None)
    # One category list for both label columns: the predicted codes shift past the true ones.
    return (tc, pc + len(tcat), tcat + pcat, *by, counts)


def _check_labels(encoded, row0: int, where, labels) -> None:
    """A label outside ``--labels`` is named with its line."""
    allowed = set(labels)
    for _, cats, locate in encoded:
        for k, label in enumerate(cats):
            if label not in allowed:
                raise CliError(
                    f"{where(row0 + locate(k))}: label {label!r} is not one of --labels "
                    f"{','.join(labels)}; add it to --labels"
                )


def _first(codes: np.ndarray) -> Callable[[int], int]:
    """The batch row of the first sample of category ``k``, for messages."""
    return lambda k: int(np.argmax(codes == k))


def _codes(column, row0: int, where) -> tuple[np.ndarray, list[str], Callable[[int], int]]:
    """``(codes, categories, locate)`` of one batch column: Arrow dictionary arrays as they
    are, other Arrow arrays dictionary-encoded, lists of text through a dict. Categories
    are in order of first appearance (as Arrow's), so classifiers keep theirs."""
    if isinstance(column, list):
        index: dict[str, int] = {}
        codes = np.fromiter(
            (index.setdefault(value, len(index)) for value in column), np.intp, len(column)
        )
        locate = _first(codes)
        return codes, _texts(list(index), locate, row0, where), locate
    import pyarrow.compute as pc

    if not hasattr(column, "indices"):
        column = pc.dictionary_encode(column)
    if column.null_count:
        row = row0 + int(np.argmax(column.is_null().to_numpy(zero_copy_only=False)))
        raise CliError(f"{where(row)} has no label (a missing value); give every row a label")
    codes = column.indices.to_numpy()
    locate = _first(codes)
    return codes, _texts(column.dictionary.to_pylist(), locate, row0, where), locate


def _texts(values: list, locate: Callable[[int], int], row0: int, where) -> list[str]:
    """Category values as stripped text; undecodable bytes and empty labels are errors,
    named with the row ``locate(k)`` of the batch where category ``k`` first appears."""
    out = []
    for k, value in enumerate(values):
        if isinstance(value, bytes):
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError:
                raise CliError(
                    f"{where(row0 + locate(k))} has bytes that are not UTF-8 "
                    f"({value[:20]!r}); save the file as UTF-8"
                ) from None
        text = "" if value is None else str(value).strip()
        if not text:
            raise CliError(f"{where(row0 + locate(k))} has an empty label; give every row a label")
        out.append(text)
    return out


def _arrow_csv_batches(
    pa, source, columns, delimiter, header, where, named=False
) -> Iterator[list]:
    """Batches of a CSV through pyarrow's streaming reader (labels as bytes); ``named``:
    ``source`` starts after the header line, with the columns ``header``.

    The labels are parsed as bytes and tallied by :func:`_tallied` in a worker thread while
    the reader parses the next blocks; the reader's own conversion to dictionary arrays
    costs more (measured on 5 million rows: 0.42 against 0.34 CPU-s in all).
    """
    from pyarrow import csv as pacsv

    _check_columns(columns, header, "the header")
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
                block_size=BLOCK_BYTES, column_names=header if named else None
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


def _ragged_message(row, header: list[str], delimiter: str, where) -> str:
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
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        for cells in reader:
            if cells and len(cells) != width:
                return reader.line_num
    return None


def _check_columns(columns, present, where: str) -> None:
    missing = [column for column in columns if column not in present]
    if missing:
        raise CliError(f"no column {missing[0]!r} in {where} (the columns are {list(present)})")


def _parquet_batches(path: str, name: str, columns) -> Iterator[list]:
    """Batches of the named columns of a Parquet file."""
    from pyarrow import parquet as pq

    if path == "-":
        raise CliError("Parquet cannot be read from standard input; give the file's path")
    try:
        # Label columns read as dictionary arrays: decoded once per distinct label.
        handle = pq.ParquetFile(path, read_dictionary=columns)
    except Exception as exc:
        raise CliError(
            f"{name}: not a complete Parquet file ({one_line(exc)}); it may be truncated: "
            "write it again"
        ) from None
    _check_columns(columns, handle.schema_arrow.names, f"{name}")
    for batch in handle.iter_batches(batch_size=BATCH_ROWS, columns=list(dict.fromkeys(columns))):
        yield [batch.column(name) for name in columns]


def _ipc_batches(pa, reader, name: str, columns) -> Iterator[list]:
    """Batches of an Arrow IPC stream, or file (read as its batches, in order)."""
    data = pa.PythonFile(reader, mode="r")
    if _peek(reader.raw, 6) == b"ARROW1":
        # The file format has its schema and batch index at the end: skip the header magic
        # (8 bytes, padded) and read the stream that follows, without seeking.
        data.read(8)
    stream = pa.ipc.open_stream(data)
    _check_columns(columns, stream.schema.names, f"{name}")
    for batch in stream:
        yield [batch.column(name) for name in columns]


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


def _stdlib_csv_batches(reader, columns, delimiter: str, name: str) -> Iterator[list]:
    """Batches of :data:`BATCH_ROWS` rows through the standard library (no pyarrow)."""
    rows = csv.reader(_decoded_lines(reader, name), delimiter=delimiter)
    header = [cell.strip() for cell in next(rows, [])]
    _check_columns(columns, header, "the header")
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


def _matrices(acc, name: str, by: str | None) -> tuple[dict[str, np.ndarray], list[str], str]:
    """The accumulated matrices, checked; an empty table or a single ``by`` value is an error."""
    if acc.n_samples == 0:
        raise CliError(f"{name}: the predictions table has a header but no rows")
    result = acc.result()
    if by and len(result.groups) == 1:
        raise CliError(
            f"{name}: the column --by {by} has the single value {result.groups[0]!r}, so "
            "there is one classifier; leave out --by to score it alone"
        )
    matrices = {}
    for group, counts in zip(result.groups, result.counts, strict=True):
        key = _SINGLE if group is None else str(group)
        matrices[key] = check_confusion(counts.astype(np.float64))
    return matrices, [str(label) for label in result.labels], name
