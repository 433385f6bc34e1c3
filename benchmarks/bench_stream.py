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
  three columns;
* without pyarrow (``pip install 'pdmeasure[pipeline]'``), in a subprocess whose imports of
  ``pyarrow`` fail (a meta-path finder), so that pandas too reads without it: the largest
  CSV through pandas' chunked reader against ``pandas.read_csv(usecols=[true, pred])`` in
  the same process, target at least 0.5x; the smallest through the standard library's
  reader (pandas hidden from the reader as the tests hide it), report; and peak RSS of the
  command on the largest CSV, target at most 300 MB.

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
                                      [--parts throughput,lengths,gzip,memory,by,no-pyarrow]
"""

from __future__ import annotations

import argparse
import json
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


#: Python code that makes every later import of pyarrow fail, as where it is not installed.
WITHOUT_PYARROW = """
import importlib.abc, sys
class _NoPyarrow(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] == "pyarrow":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, _NoPyarrow())
"""

#: Run after :data:`WITHOUT_PYARROW` with the arguments PATH READER REPEAT: the streaming
#: reader (``pandas``, or ``stdlib`` with pandas hidden from it) and ``pandas.read_csv`` in
#: turn, best of REPEAT; prints the four times as JSON.
_TIMES_WITHOUT_PYARROW = """
import json
import pandas as pd
from pdmeasure.cli import readers
from pdmeasure.cli.stream import stream_predictions
sys.path.insert(0, {benchmarks!r})
from timing import best_times
path, reader, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
if reader == "stdlib":
    readers.pandas_or_none = lambda: None
matrices, _, _ = stream_predictions(path, "true", "pred", None, None)
assert "pyarrow" not in sys.modules and matrices["value"].sum() > 0
ours, base = best_times(
    [lambda: stream_predictions(path, "true", "pred", None, None),
     lambda: pd.read_csv(path, usecols=["true", "pred"])],
    repeat,
)
print(json.dumps([*ours, *base]))
"""


def without_pyarrow_rows(directory: Path, sizes: list[int], repeat: int) -> list[list[str]]:
    """pandas' chunked reader on the largest CSV and the standard library's on the smallest,
    against ``pandas.read_csv``, and the command's peak RSS, all where pyarrow cannot be
    imported."""
    table = []
    script = WITHOUT_PYARROW + _TIMES_WITHOUT_PYARROW.format(
        benchmarks=str(Path(__file__).resolve().parent)
    )
    for rows, reader, target in (
        (max(sizes), "pandas", ">= 0.5x"),
        (min(sizes), "stdlib", "report"),
    ):
        path = directory / f"predictions_{rows}_0_one.csv"
        if not path.exists():
            write_files(directory, rows)
        done = subprocess.run(
            [sys.executable, "-c", script, str(path), reader, str(repeat)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        ow, oc, bw, bc = json.loads(done.stdout)
        what = "pandas' chunked reader" if reader == "pandas" else "the standard library's reader"
        table.append(
            [f"{rows / 1e6:g}M rows CSV without pyarrow, {what}",
             *_speeds(rows, (ow, oc), (bw, bc)), "(pandas.read_csv, without pyarrow)", target]
        )  # fmt: skip
    path = directory / f"predictions_{max(sizes)}_0_one.csv"
    argv = ["score", "--predictions", str(path), "--true", "true", "--pred", "pred"]
    command = WITHOUT_PYARROW + f"from pdmeasure.cli import main; sys.exit(main({argv!r}))"
    wall, peak = peak_rss_mb([sys.executable, "-c", command])
    _, imports = peak_rss_mb(
        [sys.executable, "-c", WITHOUT_PYARROW + "import pandas, pdmeasure.cli.stream"]
    )
    table.append(
        [f"pdmeasure score, {max(sizes) / 1e6:g}M-row CSV without pyarrow: peak RSS",
         f"{peak:.0f} MB ({wall:.1f} s)", f"{imports:.0f} MB", f"{peak - imports:+.0f} MB", "",
         "(its imports, pandas included)", "<= 300 MB"]
    )  # fmt: skip
    return table


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


PARTS = ("throughput", "lengths", "gzip", "memory", "by", "no-pyarrow")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1e6,5e6,2e7", help="CSV sizes, comma separated")
    parser.add_argument("--by-rows", type=float, default=1e7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--parts", default=",".join(PARTS), help=f"which rows, comma separated: {', '.join(PARTS)}"
    )
    args = parser.parse_args(argv)
    sizes = [int(float(text)) for text in args.rows.split(",")]
    parts = args.parts.split(",")
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown --parts {sorted(unknown)}; choose from {', '.join(PARTS)}")
    middle = sorted(sizes)[len(sizes) // 2]
    table = []
    with tempfile.TemporaryDirectory(prefix="bench_stream_") as tmp:
        directory = Path(tmp)
        if "throughput" in parts:
            table += throughput_rows(directory, sizes, args.repeat)
        if "lengths" in parts:
            table += several_lengths_row(directory, middle, args.repeat)
        if "gzip" in parts:
            table += gzip_row(directory, middle, args.repeat)
        if "memory" in parts:
            table += memory_rows(directory, max(sizes))
        if "by" in parts:
            for lengths in ("one", "several"):
                table += by_rows(directory, int(args.by_rows), args.repeat, lengths)
        if "no-pyarrow" in parts:
            table += without_pyarrow_rows(directory, sizes, args.repeat)
    print("| workload | ours | baseline | ratio (wall) | ratio (CPU) | baseline is | target |")
    print("|---|---|---|---|---|---|---|")
    for row in table:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
