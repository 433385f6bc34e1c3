"""Streaming ``pdmeasure score --predictions``: throughput, Parquet, peak memory, ``--by``.

Writes its own predictions files (10 classes, an id column, labels as text) to a temporary
directory and reports, in one run:

* throughput of the streaming reader (:func:`pdmeasure.cli.stream.stream_predictions`,
  which returns the confusion matrix) against ``pandas.read_csv(usecols=[true, pred])`` on
  the same CSV (which only reads the two columns), from 1 to 20 million rows; target: at
  least 0.7x;
* the same for Parquet against ``pyarrow.parquet.read_table(columns=[true, pred])``;
* peak RSS of the command ``pdmeasure score --predictions`` on the largest CSV, measured by
  ``/usr/bin/time -f %M``, next to that of the command on a 2x2 JSON matrix (its imports
  alone); target: at most 300 MB;
* the middle CSV size compressed with gzip against ``pandas.read_csv`` of the same ``.gz``
  file (which decompresses it through Python's ``gzip``); report;
* 100 classifiers with ``--by`` on a 10-million-row file against the same file without
  ``--by``; target: the same throughput within 20 %; and against ``pandas.read_csv`` of its
  three columns.

Labels are of one length per column (``class_0``, ``model_07``), which the reader groups as
fixed-width keys; the middle CSV size and ``--by`` are measured again with labels of several
lengths (``class_1`` to ``class_512``, ``model_7``), which take the variable-width keys.

Times are the best of ``--repeat`` runs in this process, ours and the baseline called in
turn in each round so that a change of load falls on both (the machine is shared: run it
with ``nice``). Each ratio is given in wall time (what a user waits) and in CPU time of the
process (all threads): the reader parses and tallies the two halves of a file in two
threads, so on a machine whose second core is busy with other work its wall-time ratio falls
toward the CPU ratio, while single-threaded pandas keeps its speed.

    python benchmarks/bench_stream.py [--rows 1e6,5e6,2e7] [--by-rows 1e7] [--repeat 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from pdmeasure.cli.stream import stream_predictions

sys.path.insert(0, str(Path(__file__).resolve().parent))  # timing.py, run as a script
from timing import best_times  # noqa: E402

CLASSES = 10


def names(prefix: str, n: int, lengths: str) -> list[str]:
    """``n`` label texts: of one length (``class_0``, ``model_007``), which the reader groups as
    fixed-width keys, or of several (``class_1`` to ``class_512``, ``model_7``)."""
    if lengths == "one":
        return [f"{prefix}_{i:0{len(str(n - 1))}d}" for i in range(n)]
    return [f"{prefix}_{2**i if prefix == 'class' else i}" for i in range(n)]


def write_files(
    directory: Path, rows: int, groups: int = 0, seed: int = 0, lengths: str = "one"
) -> Path:
    """A CSV (and a Parquet file of the same table) of ``rows`` predictions; returns the CSV."""
    rng = np.random.default_rng(seed)
    labels = pa.array(names("class", CLASSES, lengths))
    true = rng.integers(0, CLASSES, rows, dtype=np.int32)
    pred = np.where(rng.random(rows) < 0.7, true, rng.integers(0, CLASSES, rows, dtype=np.int32))
    columns = {"id": pa.array(np.arange(rows))}
    if groups:
        models = pa.array(names("model", groups, lengths))
        columns["model"] = models.take(pa.array(rng.integers(0, groups, rows, dtype=np.int32)))
    columns["true"] = labels.take(pa.array(true))
    columns["pred"] = labels.take(pa.array(pred))
    table = pa.table(columns)
    path = directory / f"predictions_{rows}_{groups}_{lengths}.csv"
    pacsv.write_csv(table, path, write_options=pacsv.WriteOptions(quoting_style="none"))
    pq.write_table(table, path.with_suffix(".parquet"))
    return path


def peak_rss_mb(argv: list[str]) -> tuple[float, float]:
    """Wall time (s) and peak RSS (MB) of one command, from ``/usr/bin/time -f %M``.

    Not ``os.wait4`` of a child of this process: Linux keeps the high-water mark across
    ``exec``, so a child forked from this (large) process would report this process's RSS.
    """
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, check=True,
    )  # fmt: skip
    return time.perf_counter() - start, int(done.stderr.split()[-1]) / 1024


def _speeds(rows: int, ours: tuple[float, float], base: tuple[float, float]) -> list[str]:
    """Rows per second of ours and of the baseline (wall time), and the two ratios
    baseline/ours in wall time and in CPU time (the latter disturbed least by other load)."""
    return [
        f"{rows / ours[0] / 1e6:.1f}M rows/s",
        f"{rows / base[0] / 1e6:.1f}M rows/s",
        f"{base[0] / ours[0]:.2f}x",
        f"{base[1] / ours[1]:.2f}x",
    ]


def throughput_rows(directory: Path, sizes: list[int], repeat: int) -> list[list[str]]:
    """Streaming reader vs pandas (CSV) and vs pyarrow (Parquet), per file size."""
    table = []
    for rows in sizes:
        path = write_files(directory, rows)
        parquet = str(path.with_suffix(".parquet"))
        matrices, _, _ = stream_predictions(str(path), "true", "pred", None, None)
        assert matrices["value"].sum() == rows
        ours, base, ours_pq, base_pq = best_times(
            [
                lambda p=str(path): stream_predictions(p, "true", "pred", None, None),
                lambda p=path: pd.read_csv(p, usecols=["true", "pred"]),
                lambda p=parquet: stream_predictions(p, "true", "pred", None, None),
                lambda p=parquet: pq.read_table(p, columns=["true", "pred"]),
            ],
            repeat,
        )
        mb = path.stat().st_size / 1e6
        table.append(
            [f"{rows / 1e6:g}M rows CSV ({mb:.0f} MB)", *_speeds(rows, ours, base),
             "(pandas.read_csv)", ">= 0.7x"]
        )  # fmt: skip
        table.append(
            [f"{rows / 1e6:g}M rows Parquet", *_speeds(rows, ours_pq, base_pq),
             "(pyarrow.parquet.read_table)", "report"]
        )  # fmt: skip
    return table


def several_lengths_row(directory: Path, rows: int, repeat: int) -> list[list[str]]:
    """The CSV throughput with labels of several lengths (variable-width keys)."""
    path = str(write_files(directory, rows, lengths="several"))
    ours, base = best_times(
        [
            lambda: stream_predictions(path, "true", "pred", None, None),
            lambda: pd.read_csv(path, usecols=["true", "pred"]),
        ],
        repeat,
    )
    return [
        [f"{rows / 1e6:g}M rows CSV, labels of several lengths", *_speeds(rows, ours, base),
         "(pandas.read_csv)", ">= 0.7x"]
    ]  # fmt: skip


def gzip_row(directory: Path, rows: int, repeat: int) -> list[list[str]]:
    """The CSV throughput of a gzip-compressed file (level 6), against pandas on the same file."""
    path = directory / f"predictions_{rows}_0_one.csv"
    if not path.exists():
        write_files(directory, rows)
    packed = path.with_suffix(".csv.gz")
    with pa.OSFile(str(path)) as source, pa.CompressedOutputStream(str(packed), "gzip") as out:
        while chunk := source.read(1 << 24):
            out.write(chunk)
    plain, _, _ = stream_predictions(str(path), "true", "pred", None, None)
    matrices, _, _ = stream_predictions(str(packed), "true", "pred", None, None)
    assert (matrices["value"] == plain["value"]).all()
    ours, base = best_times(
        [
            lambda: stream_predictions(str(packed), "true", "pred", None, None),
            lambda: pd.read_csv(packed, usecols=["true", "pred"]),
        ],
        repeat,
    )
    mb = packed.stat().st_size / 1e6
    return [
        [f"{rows / 1e6:g}M rows CSV, gzip ({mb:.0f} MB)", *_speeds(rows, ours, base),
         "(pandas.read_csv of the .gz)", "report"]
    ]  # fmt: skip


def memory_rows(directory: Path, rows: int) -> list[list[str]]:
    """Peak RSS of the command on the largest CSV, and of the command on a tiny matrix."""
    command = [sys.executable, "-m", "pdmeasure"]
    path = directory / f"predictions_{rows}_0_one.csv"
    if not path.exists():
        write_files(directory, rows)
    tiny = directory / "tiny.json"
    tiny.write_text("[[1, 2], [3, 4]]")
    score = [*command, "score", "--predictions", str(path), "--true", "true", "--pred", "pred"]
    wall, peak = peak_rss_mb(score)
    _, imports = peak_rss_mb([*command, "score", str(tiny)])
    return [
        [f"pdmeasure score, {rows / 1e6:g}M-row CSV: peak RSS", f"{peak:.0f} MB ({wall:.1f} s)",
         f"{imports:.0f} MB", f"{peak - imports:+.0f} MB", "", "(the command on a 2x2 matrix)",
         "<= 300 MB"]
    ]  # fmt: skip


def by_rows(directory: Path, rows: int, repeat: int, lengths: str) -> list[list[str]]:
    """100 classifiers with ``--by`` against the same file read as one classifier."""
    path = str(write_files(directory, rows, groups=100, lengths=lengths))
    matrices, _, _ = stream_predictions(path, "true", "pred", "model", None)
    assert len(matrices) == 100
    grouped, single, pandas = best_times(
        [
            lambda: stream_predictions(path, "true", "pred", "model", None),
            lambda: stream_predictions(path, "true", "pred", None, None),
            lambda: pd.read_csv(path, usecols=["true", "pred", "model"]),
        ],
        repeat,
    )
    name = f"--by: 100 classifiers, {CLASSES} classes, {rows / 1e6:g}M rows" + (
        "" if lengths == "one" else ", labels of several lengths"
    )
    return [
        [name, *_speeds(rows, grouped, single), "(the same file without --by)", ">= 0.8x"],
        [name, *_speeds(rows, grouped, pandas), "(pandas.read_csv of the three columns)",
         "report"],
    ]  # fmt: skip


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1e6,5e6,2e7", help="CSV sizes, comma separated")
    parser.add_argument("--by-rows", type=float, default=1e7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    sizes = [int(float(text)) for text in args.rows.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench_stream_") as tmp:
        directory = Path(tmp)
        table = throughput_rows(directory, sizes, args.repeat)
        middle = sorted(sizes)[len(sizes) // 2]
        table += several_lengths_row(directory, middle, args.repeat)
        table += gzip_row(directory, middle, args.repeat)
        table += memory_rows(directory, max(sizes))
        for lengths in ("one", "several"):
            table += by_rows(directory, int(args.by_rows), args.repeat, lengths)
    print("| workload | ours | baseline | ratio (wall) | ratio (CPU) | baseline is | target |")
    print("|---|---|---|---|---|---|---|")
    for row in table:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
