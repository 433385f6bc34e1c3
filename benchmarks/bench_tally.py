"""What ``--by`` costs the streaming reader's tally, and why labels of eight bytes are folded.

Parses a predictions CSV of its own (10 classes, 100 classifiers, labels of one length:
``class_0`` of seven bytes, ``model_00`` of eight) with the reader's Arrow batches once,
then times, best of ``--repeat`` rounds in turn, the CPU time of tallying its rows with
Arrow's hash grouping, 262,144 rows at a time, in one thread:

* two keys (true, predicted), 100 distinct cells: the reading without ``--by``;
* three keys, every row's classifier replaced by one name (100 distinct cells);
* three keys (true, predicted, classifier), 10,000 distinct cells: the reading with
  ``--by`` as the reader does it (the eight-byte classifier names grouped as folded
  integers, :func:`pdmeasure.cli.tally.folded`, and converted back after);
* the same as fixed-width bytes, which Arrow hashes as 64-bit integers whose last bytes
  barely reach the hash's high bits;

and, as alternatives to the bytes:

* the three columns dictionary-encoded one by one, the codes counted by ``np.bincount``;
* one Acero plan over all the batches instead of one per group of rows.

Ratios are against the two-key tally.

    python benchmarks/bench_tally.py [--rows 5e6] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pdmeasure.cli import readers, tally
from pdmeasure.cli.stream import COUNT_ROWS, _Where

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script
from bench_stream import write_files  # noqa: E402
from timing import best_times  # noqa: E402

NAMES = ["k0", "k1", "k2"]


def parse(path: Path) -> list[list]:
    """The file's (true, predicted, classifier) batches as the streaming reader makes them."""
    with path.open("rb") as handle:
        head = handle.read(4096)
    delimiter = readers.delimiter_of(head)
    header = readers.header_of(head, delimiter)
    source = pa.OSFile(str(path))
    try:
        return list(
            readers.arrow_csv_batches(
                pa,
                source,
                ["true", "pred", "model"],
                delimiter,
                header,
                _Where(path.name, str(path), "csv"),
            )
        )
    finally:
        source.close()


def in_groups(batches: list[list]) -> list[list[list]]:
    """Consecutive batches of at least :data:`~pdmeasure.cli.stream.COUNT_ROWS` rows."""
    groups, group, rows = [], [], 0
    for columns in batches:
        group.append(columns)
        rows += len(columns[0])
        if rows >= COUNT_ROWS:
            groups.append(group)
            group, rows = [], 0
    return groups + ([group] if group else [])


def one_name(groups: list[list[list]]) -> list[pa.ChunkedArray]:
    """For each group, a fixed-width classifier column holding one name in every row."""
    name = b"model_00"
    return [
        pa.chunked_array(
            [
                pa.FixedSizeBinaryArray.from_buffers(
                    pa.binary(len(name)), len(batch[0]), [None, pa.py_buffer(name * len(batch[0]))]
                )
                for batch in group
            ]
        )
        for group in groups
    ]


def hash_groups(
    groups: list[list[list]],
    keys: int,
    models: list[pa.ChunkedArray] | None = None,
    fold: bool = True,
) -> int:
    """Tally each group's first ``keys`` columns with Arrow's hash grouping, with ``models``
    (one column per group) as one more key if given: as the reader does (``fold``), or
    with every label as fixed-width bytes; returns the most distinct cells of a group."""
    cells = 0
    for index, group in enumerate(groups):
        columns = {
            name: tally.fixed_width([batch[i] for batch in group])
            for i, name in enumerate(NAMES[:keys])
        }
        if models is not None:
            columns["k2"] = models[index]
        table = pa.table(columns)
        count = tally.hash_count if fold else tally._aggregate
        cells = max(cells, count(table, list(columns))[0].num_rows)
    return cells


def bincount_groups(groups: list[list[list]]) -> int:
    """Each column dictionary-encoded, the three codes counted as one by ``np.bincount``;
    returns the most distinct cells of a group."""
    cells = 0
    for group in groups:
        code: np.ndarray | None = None
        for i in range(3):
            encoded = pc.dictionary_encode(
                tally.fixed_width([batch[i] for batch in group]).combine_chunks()
            )
            codes = encoded.indices.to_numpy().astype(np.int64)
            code = codes if code is None else code * len(encoded.dictionary) + codes
        assert code is not None
        cells = max(cells, int(np.count_nonzero(np.bincount(code))))
    return cells


def one_plan(batches: list[list]) -> int:
    """One Acero aggregation over every batch (fixed-width keys of the first batch's widths)."""
    from pyarrow._acero import (
        AggregateNodeOptions,
        Declaration,
        RecordBatchReaderSourceNodeOptions,
    )

    first = [tally.fixed_width([column]).type for column in batches[0]]
    schema = pa.schema(list(zip(NAMES, first, strict=True)))

    def fixed():
        for columns in batches:
            arrays = [tally.fixed_width([column]).chunk(0) for column in columns]
            yield pa.record_batch(arrays, schema=schema)

    source = pa.RecordBatchReader.from_batches(schema, fixed())
    plan = Declaration.from_sequence(
        [
            Declaration("record_batch_reader_source", RecordBatchReaderSourceNodeOptions(source)),
            Declaration(
                "aggregate", AggregateNodeOptions([([], "hash_count_all", None, "n")], keys=NAMES)
            ),
        ]
    )
    return plan.to_table(use_threads=False).num_rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=5e6)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rows = int(args.rows)
    with tempfile.TemporaryDirectory(prefix="bench_tally_") as tmp:
        batches = parse(write_files(Path(tmp), rows, groups=100))
    groups = in_groups(batches)
    single = one_name(groups)
    workloads = [
        ("two keys (without --by)", lambda: hash_groups(groups, 2)),
        ("three keys, one classifier", lambda: hash_groups(groups, 2, models=single)),
        ("three keys, 100 classifiers (--by)", lambda: hash_groups(groups, 3)),
        ("--by as fixed-width bytes, not folded", lambda: hash_groups(groups, 3, fold=False)),
        ("--by: dictionary codes and np.bincount", lambda: bincount_groups(groups)),
        ("--by: one Acero plan over every batch", lambda: one_plan(batches)),
    ]
    cells = [fn() for _, fn in workloads]
    assert cells[:2] == [100] * 2 and cells[2] == cells[3] == cells[4] <= cells[5] == 10_000, cells
    widths = [tally.fixed_width([column]).type.byte_width for column in batches[0]]
    assert widths == [7, 7, 8], widths  # the classifiers' names are folded, the classes not
    times = best_times([fn for _, fn in workloads], args.repeat)
    base = times[0][1]
    print(f"Tally of {rows:,} rows in one thread, CPU time, best of {args.repeat}")
    print("| tally | distinct cells (most in one tally) | CPU-s | against two keys |")
    print("|---|---|---|---|")
    for (name, _), count, (_, cpu) in zip(workloads, cells, times, strict=True):
        print(f"| {name} | {count:,} | {cpu:.3f} | {cpu / base:.2f}x |")


if __name__ == "__main__":
    main()
