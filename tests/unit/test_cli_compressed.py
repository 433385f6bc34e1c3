"""Compressed predictions files: gzip, bzip2, xz and zstd, recognised by their first bytes,
decompressed as they are read by every reader, and their damage named in one line."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys

import numpy as np
import pytest

from helpers import need_module
from pdmeasure.cli import main, readers, stream

pa = need_module("pyarrow")
pacsv = need_module("pyarrow.csv")
pq = need_module("pyarrow.parquet")

COMPRESSIONS = ["gzip", "bz2", "xz", "zstd"]


def compress(data: bytes, compression: str) -> bytes:
    if compression == "gzip":
        return gzip.compress(data)
    if compression == "bz2":
        return bz2.compress(data)
    if compression == "xz":
        return lzma.compress(data)
    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, "zstd") as out:
        out.write(data)
    return sink.getvalue().to_pybytes()


def predictions(n: int = 600, seed: int = 3) -> bytes:
    """A CSV of ``n`` rows (model, actual, predicted); the label k5 first appears last."""
    rng = np.random.default_rng(seed)
    labels = np.array([f"k{i}" for i in range(5)])
    model = np.array(["m1", "m2", "m3"])[rng.integers(0, 3, n)]
    true, pred = labels[rng.integers(0, 5, n)], labels[rng.integers(0, 5, n)]
    true[-1] = "k5"
    lines = ["model,y,p", *(",".join(row) for row in zip(model, true, pred, strict=True))]
    return ("\n".join(lines) + "\n").encode()


def score(path, by="model"):
    matrices, labels, _ = stream.stream_predictions(str(path), "y", "p", by, None)
    return labels, {group: matrix.tolist() for group, matrix in matrices.items()}


def run(capsys, path):
    status = main(["score", "--predictions", str(path), "--true", "y", "--pred", "p"])
    out, err = capsys.readouterr()
    return status, out, err


def as_stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def without(monkeypatch, *modules: str) -> None:
    """Read as if ``pyarrow`` (and ``pandas``) were not installed."""
    for module in modules:
        monkeypatch.setattr(readers, f"{module}_or_none", lambda: None)


#: The CSV readers, each chosen by hiding the modules of the ones before it.
HIDDEN = {"pyarrow": (), "pandas": ("pyarrow",), "standard library": ("pyarrow", "pandas")}


@pytest.mark.parametrize("compression", COMPRESSIONS)
@pytest.mark.parametrize("where", ["file", "stdin"])
@pytest.mark.parametrize("reader", sorted(HIDDEN))
def test_compressed_csv_gives_the_plain_files_matrices(
    tmp_path, monkeypatch, compression, where, reader
):
    data = predictions()
    plain = tmp_path / "p.csv"
    plain.write_bytes(data)
    want = score(plain)
    packed = tmp_path / "p.csv.packed"  # recognised by its first bytes, not its name
    packed.write_bytes(compress(data, compression))
    monkeypatch.setattr(readers, "BLOCK_BYTES", 256)  # many blocks of decompressed rows
    monkeypatch.setattr(stream, "COUNT_ROWS", 7)
    monkeypatch.setattr(readers, "BATCH_ROWS", 4)  # batches without pyarrow
    if where == "stdin":
        as_stdin(monkeypatch, packed.read_bytes())
        packed = "-"
    without(monkeypatch, *HIDDEN[reader])
    if reader != "pyarrow" and compression == "zstd":
        # the standard library has no zstd before Python 3.14
        with pytest.raises(stream.CliError, match=r"zstd, which needs pyarrow: pip install"):
            score(packed)
        return
    assert score(packed) == want


def test_a_compressed_file_is_never_split_in_halves(tmp_path, monkeypatch):
    data = predictions(3000)
    (tmp_path / "p.csv").write_bytes(data)
    want = score(tmp_path / "p.csv")
    (tmp_path / "p.csv.gz").write_bytes(compress(data, "gzip"))
    monkeypatch.setattr(stream, "SPLIT_BYTES", 1)  # every plain file in halves
    monkeypatch.setattr(stream, "_cpus", lambda: 2)
    halves = []
    monkeypatch.setattr(stream, "_count_halves", lambda *args: halves.append(args))
    assert score(tmp_path / "p.csv.gz") == want and halves == []


def test_concatenated_gzip_members_are_read_whole(tmp_path):
    data = predictions(900)
    head, rest = data[:5000], data[5000:]
    (tmp_path / "p.csv").write_bytes(data)
    (tmp_path / "p.csv.gz").write_bytes(gzip.compress(head) + gzip.compress(rest))
    assert score(tmp_path / "p.csv.gz") == score(tmp_path / "p.csv")


def test_compressed_arrow_ipc_is_read(tmp_path, monkeypatch):
    data = predictions()
    (tmp_path / "p.csv").write_bytes(data)
    table = pacsv.read_csv(pa.BufferReader(data))
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=50)
    (tmp_path / "p.arrow.gz").write_bytes(gzip.compress(sink.getvalue().to_pybytes()))
    assert score(tmp_path / "p.arrow.gz") == score(tmp_path / "p.csv")


def test_plain_files_with_a_compressed_name_and_bzh_headers_are_plain(tmp_path):
    data = predictions()
    (tmp_path / "p.csv").write_bytes(data)
    (tmp_path / "p.csv.gz").write_bytes(data)
    assert score(tmp_path / "p.csv.gz") == score(tmp_path / "p.csv")
    assert readers.compression_of(b"BZh9,y,p\n") is None  # a header, not bzip2
    assert readers.compression_of(bz2.compress(b"y,p\n")) == "bz2"


@pytest.mark.parametrize("compression", COMPRESSIONS)
@pytest.mark.parametrize("where", ["file", "stdin"])
def test_truncated_compressed_data_is_one_line_and_exit_2(
    tmp_path, capsys, monkeypatch, compression, where
):
    packed = compress(predictions(5000), compression)
    path = tmp_path / "p.csv.z"
    path.write_bytes(packed[: len(packed) // 2])
    if where == "stdin":
        as_stdin(monkeypatch, path.read_bytes())
        path = "-"
    status, out, err = run(capsys, path)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"cannot decompress its {compression} data" in err and "compress it again" in err


@pytest.mark.parametrize("reader", sorted(HIDDEN))
def test_bad_rows_of_a_compressed_file_are_named_with_their_line(
    tmp_path, capsys, monkeypatch, reader
):
    lines = predictions().split(b"\n")
    lines[300] = b"m1,k1"  # line 301: two cells
    path = tmp_path / "ragged.csv.gz"
    path.write_bytes(gzip.compress(b"\n".join(lines)))
    lines = predictions().split(b"\n")
    lines[400] = b"m1,k1,\xff\xfe"
    undecodable = tmp_path / "bytes.csv.xz"
    undecodable.write_bytes(lzma.compress(b"\n".join(lines)))
    without(monkeypatch, *HIDDEN[reader])
    status, _, err = run(capsys, path)
    assert status == 2 and "ragged.csv.gz: line 301 has 2 cells" in err, err
    status, _, err = run(capsys, undecodable)
    assert status == 2 and "bytes.csv.xz: line 401 has bytes that are not UTF-8" in err, err


def test_empty_and_parquet_compressed_files_get_clear_messages(tmp_path, capsys):
    (tmp_path / "empty.gz").write_bytes(gzip.compress(b""))
    status, _, err = run(capsys, tmp_path / "empty.gz")
    assert status == 2 and "the predictions file is empty (gzip-compressed)" in err
    table = pa.table({"y": ["a", "b"], "p": ["a", "a"]})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    (tmp_path / "p.parquet.gz").write_bytes(gzip.compress(sink.getvalue().to_pybytes()))
    status, _, err = run(capsys, tmp_path / "p.parquet.gz")
    assert status == 2 and "a Parquet file compressed with gzip" in err
    assert "decompress it first (gzip -d)" in err and err.count("\n") == 1


def test_the_progress_bar_counts_the_compressed_bytes(tmp_path):
    packed = tmp_path / "p.csv.gz"
    packed.write_bytes(compress(predictions(3000), "gzip"))
    native = readers.NativeCounting(pa.OSFile(str(packed)), "gzip")
    try:
        assert len(native.stream.read()) == len(predictions(3000))
        assert native.bytes == packed.stat().st_size
    finally:
        native.close()
    assert native.file.closed and native.stream.closed
