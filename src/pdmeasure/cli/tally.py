"""Groups of batches of label columns as arguments of the accumulator's ``update_codes``.

The streaming reader (:mod:`pdmeasure.cli.stream`) hands over groups of consecutive
batches, each a list of the true, predicted and optional classifier columns: Arrow arrays,
or lists of text from the standard library's reader. A group of plain Arrow arrays is
tallied by Arrow's hash grouping (labels of one length as 64-bit words), so only its
distinct ``(actual, predicted, classifier)`` cells are encoded; other batches are
dictionary-encoded one by one. Labels are decoded and checked here: undecodable bytes,
empty or missing labels and labels outside ``--labels`` are errors that name their row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pdmeasure.cli.errors import CliError


def encode_group(
    group: list[list], row0: int, where: Callable[[int], str], labels: list[str] | None
) -> list[tuple]:
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
        {name: fixed_width([columns[i] for columns in group]) for i, name in enumerate(names)}
    )
    for name in names:
        column = table.column(name)
        if column.null_count:
            row = row0 + pc.index(column.is_null(), True).as_py()
            raise CliError(f"{where(row)} has no label (a missing value); give every row a label")
    distinct, counts = _distinct(table, names)
    encoded = []
    for name, values in zip(names, distinct, strict=True):
        keys = pc.dictionary_encode(values)
        locate = _finder(table.column(name), keys.dictionary)
        texts = _texts(keys.dictionary.to_pylist(), locate, row0, where)
        encoded.append((keys.indices.to_numpy(), texts, locate))
    return _update(encoded, row0, where, labels, counts)


def _distinct(table: Any, names: list[str]) -> tuple[list, np.ndarray]:
    """The distinct rows of ``table``'s ``names`` columns (an array per column, in order of
    first appearance) and their counts; fixed-width labels grouped as words (:func:`as_words`)."""
    import pyarrow as pa

    keys: dict[str, Any] = {}
    words: dict[str, list[str] | None] = {}
    for name in names:
        parts = as_words(table.column(name))
        if parts is None:
            words[name], keys[name] = None, table.column(name)
        else:
            words[name] = spans = [f"{name}_{j}" for j in range(len(parts))]
            keys.update(zip(spans, parts, strict=True))
    tallied, counts = hash_count(pa.table(keys), list(keys))
    distinct = []
    for name in names:
        parts = words[name]
        if parts is None:
            distinct.append(tallied.column(name).combine_chunks())
        else:
            width = table.column(name).type.byte_width
            distinct.append(from_words([tallied.column(key) for key in parts], width))
    return distinct, counts


def fixed_width(chunks: list) -> Any:
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
        lengths = np.diff(ends)
        width = int(lengths[0])
        same = width > 0 and width == lengths.min() == lengths.max()
        if not same or (fixed and fixed[0].type.byte_width != width):
            return pa.chunked_array(chunks)
        body = data.slice(int(ends[0]), width * len(chunk))
        fixed.append(
            pa.FixedSizeBinaryArray.from_buffers(pa.binary(width), len(chunk), [None, body])
        )
    return pa.chunked_array(fixed) if fixed else pa.chunked_array(chunks)


#: Fixed-width labels of at most this many bytes are grouped as 64-bit words.
WORD_BYTES = 16


def as_words(column: Any) -> list | None:
    """Fixed-width labels as ``ceil(width / 8)`` columns of 64-bit words that Arrow groups
    faster than the labels' bytes; None for other labels, and for labels longer than
    :data:`WORD_BYTES`.

    Word ``j`` of a label holds its bytes ``8j`` to ``8j + 7`` (little-endian, zeros past
    its end), so equal labels give equal words and different labels different words.
    Measured by ``benchmarks/bench_tally.py`` (5 million rows, 10 classes, 100
    classifiers, one thread): 0.098 CPU-s to tally the true, predicted and classifier
    columns as words, conversions included, against 0.158 CPU-s as fixed-width bytes
    (10,000 distinct cells); the true and predicted columns alone cost the same either way
    (0.066). Each word's high half is folded into its low half (``x ^= x >> 32``, its own
    inverse): Arrow hashes a 64-bit key by the high bits of ``x * constant``, so labels
    that differ only in their last bytes (``class_1``, ``class_2``) would share those bits,
    which pick the hash table's slot; unfolded, the three columns took 8 CPU-s.
    """
    import pyarrow as pa

    if not pa.types.is_fixed_size_binary(column.type) or column.type.byte_width > WORD_BYTES:
        return None
    width = column.type.byte_width
    chunks = [_chunk_words(chunk, width) for chunk in column.chunks]
    return [pa.chunked_array([pa.array(words[j]) for words in chunks], pa.uint64())
            for j in range(-(-width // 8))]  # fmt: skip


def _chunk_words(chunk: Any, width: int) -> list[np.ndarray]:
    """The words of one fixed-width chunk (see :func:`as_words`), read in place."""
    n, body = len(chunk), chunk.buffers()[1]
    start = chunk.offset * width
    out = []
    for first in range(0, width, 8):
        size = min(8, width - first)
        words = np.empty(n, np.uint64)
        # Each row's word is read as 8 bytes at its place (the next label's first bytes
        # masked off); rows whose 8 bytes would run past the buffer are copied.
        inside = min(n, max(0, (body.size - start - first - 8) // width + 1))
        if inside:
            view = np.ndarray((inside,), "<u8", body, start + first, (width,))
            np.bitwise_and(view, np.uint64((1 << 8 * size) - 1), out=words[:inside])
        if inside < n:
            tail = np.frombuffer(body, np.uint8, (n - inside) * width, start + inside * width)
            padded = np.zeros((n - inside, 8), np.uint8)
            padded[:, :size] = tail.reshape(-1, width)[:, first : first + size]
            words[inside:] = padded.view("<u8")[:, 0]
        words ^= words >> np.uint64(32)
        out.append(words)
    return out


def from_words(parts: list, width: int) -> Any:
    """The fixed-width labels (``binary(width)``) whose words (see :func:`as_words`) are
    the columns ``parts``."""
    import pyarrow as pa

    words = np.stack([np.asarray(part) for part in parts], axis=1).astype("<u8")
    words ^= words >> np.uint64(32)
    data = np.ascontiguousarray(words.view(np.uint8)[:, :width])
    return pa.FixedSizeBinaryArray.from_buffers(
        pa.binary(width), len(data), [None, pa.py_buffer(data)]
    )


def _finder(column, values) -> Callable[[int], int]:
    """The row of ``column`` where ``values[k]`` first appears (error messages only)."""
    import pyarrow.compute as pc

    return lambda k: pc.index(column, values[k]).as_py()


def hash_count(table: Any, names: list[str]) -> tuple[Any, np.ndarray]:
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
