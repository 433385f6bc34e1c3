"""Streaming ``--predictions``: confusion matrices of a predictions file of any length.

The file is read in batches and counted into a :class:`~pdmeasure.measures.ConfusionAccumulator`,
so memory depends on the batch size and the number of classes and classifiers, never on the
number of rows. Formats, recognised by their first bytes:

* Parquet (``PAR1``) and Arrow IPC (file ``ARROW1`` or stream) through ``pyarrow`` (the
  ``arrow`` extra: ``pip install 'pdmeasure[arrow]'``); Parquet needs a file, not stdin;
* CSV or TSV (tab separated when the header line has a tab and no comma): through
  ``pyarrow``'s streaming CSV reader when it is installed (several blocks at a time tallied
  by Arrow's hash grouping, in a worker thread while the next blocks parse; a regular file
  of :data:`SPLIT_BYTES` or more as two halves, each parsed and tallied in its own thread);
  without it through pandas' C parser in chunks, each label column parsed as a categorical
  (the ``pipeline`` extra); without either through the standard library's ``csv`` in
  chunks (slowest). Each gives the same matrices; without pyarrow a note on standard error
  says once that the ``arrow`` extra reads CSV faster.

Labels are text, stripped of surrounding spaces; an empty or missing label is an error. The
class order is ``--labels``, else :func:`pdmeasure.measures.sorted_labels` of every label
seen (the same rule as for a whole table), so a label that first appears late takes its
sorted place. Classifiers (``--by``) keep the order of their first appearance.

This module reads and counts; the formats' readers are :mod:`pdmeasure.cli.readers`, the
encoding and tally of a group of batches :mod:`pdmeasure.cli.tally`.
"""

from __future__ import annotations

import lzma
import os
import sys
import threading
import time
import zlib
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait

import numpy as np

from pdmeasure._validation import check_confusion
from pdmeasure.cli import readers, tally
from pdmeasure.cli.errors import PROG, CliError, one_line
from pdmeasure.measures import ConfusionAccumulator

#: Rows tallied at a time: consecutive CSV blocks (about 22,000 rows each) are tallied
#: together, since each Arrow grouping has a fixed cost. Measured on 5 million rows with
#: 100 classifiers (``--by``), in one thread: 0.105 CPU-s to tally 262,000 rows at a time,
#: 0.096 at 524,000 and 0.112 at a million, none clearly cheaper. The groups being
#: read and tallied are held at once, so memory grows with it: peak RSS of ``pdmeasure
#: score`` on the 20-million-row CSV 239-248 MB at 2**17 rows, 249-265 MB at 2**18 (512 kB
#: blocks).
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
_SINGLE = "value"
#: Whether this process has said that the ``arrow`` extra reads CSV faster.
_noted: list[bool] = []


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
    reader, name = readers.open_input(path)
    columns = [true, pred] + ([by] if by else [])
    acc = ConfusionAccumulator(labels=labels)
    try:
        with reader:
            head = readers.peek(reader)
            if not head.strip():
                raise CliError(f"{name}: the predictions file is empty; it needs a header row")
            used = _count_file(acc, reader, head, name, path, columns, labels)
    except CliError:
        raise
    except Exception as exc:  # pyarrow's, pandas' and the reader's errors, as one line
        raise CliError(f"{name}: cannot read the predictions: {one_line(exc)}") from None
    result = _matrices(acc, name, by)
    if used in ("pandas", "csv") and not _noted:
        _noted.append(True)
        sys.stderr.write(
            f"{PROG}: note: {name} was read without pyarrow, by "
            f"{'pandas' if used == 'pandas' else 'the standard library'}; the arrow extra "
            f"reads CSV faster: {readers.ARROW_HINT}\n"
        )
    return result


def _count_file(acc, reader, head, name, path, columns, labels) -> str:
    """Feed every batch of the file to ``acc`` (see :func:`stream_predictions`); a
    compressed file is decompressed as it is read. Returns the reader used (see
    :func:`_count_data`)."""
    counter = readers.Counting(reader)
    compression = readers.compression_of(head)
    if compression is None:
        return _count_data(acc, counter, counter, head, (name, path, None), columns, labels)
    try:
        data = readers.decompressed(counter, compression, name)
        head = readers.peek(data)
        if not head.strip():
            raise CliError(
                f"{name}: the predictions file is empty ({compression}-compressed); it needs a "
                "header row"
            )
        return _count_data(acc, counter, data, head, (name, path, compression), columns, labels)
    except (EOFError, OSError, zlib.error, lzma.LZMAError) as exc:
        raise CliError(
            f"{name}: cannot decompress its {compression} data ({one_line(exc)}); the file may "
            "be truncated or damaged: compress it again"
        ) from None


def _count_data(acc, counter, data, head, source, columns, labels) -> str:
    """Feed every batch of the file's ``data`` (its bytes, decompressed; ``head`` their
    start) to ``acc``; ``counter`` counts the bytes read from the file, ``source`` is its
    name, path and compression. Returns the reader used: ``parquet``, ``arrow`` (IPC),
    ``pyarrow`` (CSV), ``pandas`` or ``csv`` (the standard library's)."""
    name, path, compression = source
    kind = readers.kind_of(head)
    pa = readers.pyarrow_or_none()
    if kind != "csv" and pa is None:
        raise CliError(
            f"{name} is a {kind.title()} file, which needs pyarrow: {readers.ARROW_HINT}"
        )
    if kind == "parquet" and compression:
        raise CliError(
            f"{name} is a Parquet file compressed with {compression}; Parquet compresses its "
            f"own pages and is read from a file: decompress it first ({compression} -d)"
        )
    progress = _Progress(name)
    where = _Where(name, path, kind)
    used = kind
    if kind == "parquet":
        batches = readers.parquet_batches(path, name, columns)
    elif kind == "arrow":
        batches = readers.ipc_batches(pa, data, head, name, columns)
    elif pa is not None:
        used = "pyarrow"
        delimiter = readers.delimiter_of(head)
        header = readers.header_of(head, delimiter)
        halves = None if compression else _halves(path, head, header)
        if halves:
            try:
                _count_halves(acc, pa, path, halves, (columns, delimiter, header), labels, progress)
                progress.close()
                return used
            except Exception:  # noqa: S110 (one reader reads it again and names the first bad row)
                pass
        if path != "-" and os.path.isfile(path) and readers.arrow_reads(pa, compression):
            # A regular file is read (and decompressed) by Arrow itself: no Python call (and
            # GIL) per block, measured 0.20 against 0.24 CPU-s to parse 5 million rows
            # through Python. Not a pipe, whose start the peek has read.
            native = readers.NativeCounting(pa.OSFile(path), compression)
            counter, source = native, native.stream
        else:
            source = pa.PythonFile(data, mode="r")
        batches = readers.arrow_csv_batches(pa, source, columns, delimiter, header, where)
    else:
        delimiter = readers.delimiter_of(head)
        pd = readers.pandas_or_none()
        if pd is not None:
            used = "pandas"
            header = readers.header_of(head, delimiter)
            batches = readers.pandas_csv_batches(pd, data, columns, delimiter, header, where)
        else:
            batches = readers.stdlib_csv_batches(data, columns, delimiter, name)
    try:
        _count_batches(acc, batches, where, labels, progress, counter)
    finally:
        progress.close()
        if isinstance(counter, readers.NativeCounting):
            counter.close()
    return used


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
    batches = readers.arrow_csv_batches(
        pa, source, columns, delimiter, header, where, at_start=False
    )  # each half begins at a row: the first after the header line
    try:
        counted = blocks.count(stop, batches)
        _count_batches(part, counted, where, labels, progress, blocks, workers=0)
    finally:
        source.close()


class _Stopped(Exception):
    """The other half of the file failed."""


class _Blocks:
    """The bytes of a half read so far, for the progress bar: Arrow's reader makes one batch
    of each block of :data:`~pdmeasure.cli.readers.BLOCK_BYTES`, and a file segment cannot tell its position."""

    def __init__(self, size: int):
        self.size, self.blocks = size, 0

    @property
    def bytes(self) -> int:
        return min(self.blocks * readers.BLOCK_BYTES, self.size)

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
        line = readers.line_of_row(self.path, row) if self.path != "-" else None
        return f"{self.name}: line {line}" if line else f"{self.name}: data row {row + 1}"


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
            pending.append(pool.submit(tally.encode_group, group, row0, where, labels))

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
