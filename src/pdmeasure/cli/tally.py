"""Groups of batches of label columns as arguments of the accumulator's ``update_codes``.

The streaming reader (:mod:`pdmeasure.cli.stream`) hands over groups of consecutive
batches, each a list of the true, predicted and optional classifier columns: Arrow arrays,
codes and categories from pandas' reader (:class:`Coded`), or lists of text from the
standard library's reader. A group of plain Arrow arrays is tallied by Arrow's hash
grouping (labels of eight bytes folded first), so only its distinct ``(actual, predicted,
classifier)`` cells are encoded; other batches are dictionary-encoded one by one. Labels are decoded and checked here: undecodable bytes,
empty or missing labels and labels outside ``--labels`` are errors that name their row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pdmeasure.cli.errors import CliError


@dataclass(frozen=True)
class Coded:
    """A batch column already dictionary-encoded (pandas' categorical reader): each row's
    position in ``categories``, which may be in any order. Its length is its rows'."""

    codes: np.ndarray
    categories: list[str]

    def __len__(self) -> int:
        return len(self.codes)


def encode_group(
    group: list[list], row0: int, where: Callable[[int], str], labels: list[str] | None
) -> list[tuple]:
    """Encode consecutive batches, each a list of the true, predicted and optional group
    columns, starting at data row ``row0``: the arguments of ``update_codes``."""
    if all(_plain_arrow(columns[0]) for columns in group):
        return [_tallied(group, row0, where, labels)]
    updates = []
    for columns in group:
        if len(columns) > 2 and isinstance(columns[2], Coded):
            # Classifiers keep the order of their first appearance; pandas sorts them.
            columns = [*columns[:2], in_order_of_appearance(columns[2])]
        encoded = [_codes(column, row0, where) for column in columns]
        updates.append(_update(*_counted(encoded), row0, where, labels))
        row0 += len(columns[0])
    return updates


#: Most cells (actual x predicted x classifier categories of a batch) that
#: :func:`_counted` counts with one ``np.bincount``; a batch with more is counted by the
#: accumulator row by row.
TALLY_CELLS = 1 << 20


def _counted(encoded: list[tuple]) -> tuple[list[tuple], np.ndarray | None]:
    """The ``(codes, texts, locate)`` of each column of one batch as its distinct
    ``(actual, predicted, classifier)`` cells, and the number of rows of each.

    Counted here, in the tally thread, with one ``np.bincount`` of the combined codes in
    32-bit integers, so that the accumulator, in the reader's thread, adds at most
    :data:`TALLY_CELLS` entries instead of encoding every row again in 64-bit integers.
    A batch with more possible cells is left as it is (counts None).
    """
    sizes = [len(texts) for _, texts, _ in encoded]
    cells = int(np.prod(sizes))
    if not 0 < cells <= TALLY_CELLS:
        return encoded, None
    joint = encoded[0][0].astype(np.int32)
    for (codes, _, _), size in zip(encoded[1:], sizes[1:], strict=True):
        joint *= size
        joint += codes
    counts = np.bincount(joint, minlength=cells)
    present = np.flatnonzero(counts)
    cell_codes = np.unravel_index(present, sizes)
    return [
        (codes, texts, locate)
        for codes, (_, texts, locate) in zip(cell_codes, encoded, strict=True)
    ], counts[present]


def in_order_of_appearance(column: Coded) -> Coded:
    """``column`` with its categories in the order of their first appearance (those that
    appear), codes renumbered to match.

    The first appearances are looked for in blocks of rows that double in size, so a batch
    whose every category appears early (the usual case: all classifiers within its first
    rows) costs a few small ``np.unique`` calls, not a sort of the whole batch.
    """
    codes, k = column.codes, len(column.categories)
    order: list[int] = []
    seen = np.zeros(k, dtype=bool)
    start, size = 0, 4096
    while start < len(codes) and len(order) < k:
        values, first = np.unique(codes[start : start + size], return_index=True)
        new = ~seen[values]
        order += values[new][np.argsort(first[new], kind="stable")].tolist()
        seen[values] = True
        start, size = start + size, size * 2
    rank = np.zeros(k, dtype=np.intp)
    rank[order] = np.arange(len(order))
    return Coded(rank[codes], [column.categories[i] for i in order])


def _plain_arrow(column) -> bool:
    """An Arrow array that is not dictionary-encoded (CSV, or IPC of plain strings)."""
    return not isinstance(column, (list, Coded)) and not hasattr(column, "indices")


def _tallied(group: list[list], row0: int, where, labels) -> tuple:
    """Arrow batches encoded through one ``group_by`` of their label columns.

    Arrow's hash grouping tallies each distinct ``(actual, predicted, group)`` at once, so
    only those (at most ``K * C * C``) are encoded and added: measured on 5 million CSV rows
    (10 classes), 0.33 CPU-s with the parsing, against 0.43 CPU-s when each column was
    dictionary-encoded and the codes counted by ``np.bincount``. The grouping of
    variable-width keys keeps the order of first appearance, that of fixed-width keys
    (:func:`fixed_width`) does not, so the classifiers are put in the order of their first
    appearance in the batch (:func:`_appearance_order`).
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
    tallied, counts = hash_count(table, names)
    encoded = []
    for name in names:
        keys = pc.dictionary_encode(tallied.column(name).combine_chunks())
        codes, values = keys.indices.to_numpy(), keys.dictionary
        if name == "k2":  # the classifiers
            order = _appearance_order(table.column(name), values)
            rank = np.empty(len(order), dtype=np.intp)
            rank[order] = np.arange(len(order))
            codes, values = rank[codes], values.take(pa.array(order))
        locate = _finder(table.column(name), values)
        texts = _texts(values.to_pylist(), locate, row0, where)
        encoded.append((codes, texts, locate))
    return _update(encoded, counts, row0, where, labels)


def _appearance_order(column: Any, values: Any) -> np.ndarray:
    """The positions in ``values`` (the distinct values of ``column``) in the order of
    their first appearance in ``column``.

    Arrow's ``unique`` gives its values in that order; it runs over a first slice of the
    column that grows until it holds every value, so a batch whose values all appear in
    its first rows (the usual case: every classifier within the first thousand) costs
    little.
    """
    import pyarrow.compute as pc

    size = 4096
    while True:
        seen = pc.unique(column.slice(0, size))
        if len(seen) == len(values) or size >= len(column):
            return pc.index_in(seen, value_set=values).to_numpy()
        size *= 4


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


def folded(column: Any) -> Any | None:
    """Labels of eight bytes as 64-bit integers whose high half is folded into their low
    half (``x ^ (x >> 32)``, its own inverse, so equal labels stay equal and different
    ones different); None for labels of any other width.

    Arrow groups a fixed-width key of 1, 2, 4 or 8 bytes as an integer, and hashes it by
    the high bits of ``x * constant``: the last bytes of a 64-bit key only change the low
    bits of its hash, while the high bits pick the hash table's slot. Labels of eight
    bytes that differ only at their end (``model_00`` to ``model_99``, or 8-digit ids)
    then crowd into a few slots. Measured over 5 million rows, 262,144 at a time: 100 such
    names took 1.71 CPU-s to group alone and 0.206 with seven-byte true and predicted
    labels beside them, against 0.042 and 0.093 for names of nine bytes (``model_000``).
    ``benchmarks/bench_tally.py`` measures the reader's tally folded and not. Other widths
    are hashed over all their bytes.
    """
    import pyarrow as pa

    if not pa.types.is_fixed_size_binary(column.type) or column.type.byte_width != 8:
        return None
    chunks = []
    for chunk in column.chunks:
        if len(chunk):
            x = np.frombuffer(chunk.buffers()[1], "<u8", len(chunk), chunk.offset * 8)
            keys = np.right_shift(x, np.uint64(32))
            chunks.append(pa.array(np.bitwise_xor(keys, x, out=keys)))
    return pa.chunked_array(chunks, pa.uint64())


def unfolded(keys: Any) -> Any:
    """The eight-byte labels (``binary(8)``) of :func:`folded` integers ``keys``."""
    import pyarrow as pa

    x = np.asarray(keys).astype("<u8")
    x ^= x >> np.uint64(32)
    return pa.FixedSizeBinaryArray.from_buffers(pa.binary(8), len(x), [None, pa.py_buffer(x)])


def _finder(column, values) -> Callable[[int], int]:
    """The row of ``column`` where ``values[k]`` first appears (error messages only)."""
    import pyarrow.compute as pc

    return lambda k: pc.index(column, values[k]).as_py()


def hash_count(table: Any, names: list[str]) -> tuple[Any, np.ndarray]:
    """The distinct rows of ``table``'s ``names`` columns, in order of first appearance,
    and how many times each occurs: Arrow's hash aggregation ``hash_count_all``, with
    labels of eight bytes grouped :func:`folded` and given back as they were."""
    import pyarrow as pa

    folds = {name: folded(table.column(name)) for name in names}
    keys = {name: table.column(name) if folds[name] is None else folds[name] for name in names}
    tallied, counts = _aggregate(pa.table(keys), names)
    for name in names:
        if folds[name] is not None:
            index = tallied.schema.get_field_index(name)
            tallied = tallied.set_column(index, name, unfolded(tallied.column(name)))
    return tallied, counts


def _aggregate(table: Any, names: list[str]) -> tuple[Any, np.ndarray]:
    """The distinct rows of ``table``'s ``names`` columns and their counts, as Arrow's hash
    aggregation ``hash_count_all`` gives them.

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


def _update(encoded, counts, row0: int, where, labels) -> tuple:
    """The ``update_codes`` arguments of ``(codes, texts, locate)`` of the true, predicted
    and optional group columns (and ``counts`` of each row, or None for one each)."""
    (tc, tcat, _), (pc, pcat, _) = encoded[:2]
    if labels is not None:
        _check_labels(encoded[:2], row0, where, labels)
    by = encoded[2][:2] if len(encoded) > 2 else (None, None)
    # One category list for both label columns: the predicted codes shift past the true ones
    # (as ``intp``: pandas' codes of up to 127 categories are 8-bit).
    return (tc, pc.astype(np.intp, copy=False) + len(tcat), tcat + pcat, *by, counts)


def _check_labels(encoded, row0: int, where, labels) -> None:
    """A label outside ``--labels`` is named with its line (the first such row of a column:
    the categories of pandas' reader are sorted, not in order of appearance)."""
    allowed = set(labels)
    for _, cats, locate in encoded:
        bad = [(locate(k), label) for k, label in enumerate(cats) if label not in allowed]
        if bad:
            row, label = min(bad)
            raise CliError(
                f"{where(row0 + row)}: label {label!r} is not one of --labels "
                f"{','.join(labels)}; add it to --labels"
            )


def _first(codes: np.ndarray) -> Callable[[int], int]:
    """The batch row of the first sample of category ``k``, for messages."""
    return lambda k: int(np.argmax(codes == k))


def _codes(column, row0: int, where) -> tuple[np.ndarray, list[str], Callable[[int], int]]:
    """``(codes, categories, locate)`` of one batch column: Arrow dictionary arrays as they
    are, other Arrow arrays dictionary-encoded, lists of text through a dict. Categories
    are in order of first appearance (as Arrow's), so classifiers keep theirs."""
    if isinstance(column, Coded):
        locate = _first(column.codes)
        return column.codes, _texts(column.categories, locate, row0, where), locate
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
    named with the row ``locate(k)`` of the batch where category ``k`` first appears (the
    first such row of the batch, whatever the order of the categories)."""
    out, bad = [], []
    for k, value in enumerate(values):
        if isinstance(value, bytes):
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError:
                problem = f"has bytes that are not UTF-8 ({value[:20]!r}); save the file as UTF-8"
                bad.append((locate(k), problem))
                continue
        text = "" if value is None else str(value).strip()
        if not text:
            bad.append((locate(k), "has an empty label; give every row a label"))
        out.append(text)
    if bad:
        row, problem = min(bad)
        raise CliError(f"{where(row0 + row)} {problem}")
    return out
