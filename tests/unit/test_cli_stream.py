"""Streaming ``--predictions``: formats, chunks, class order, groups and bad input."""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import need_module
from pdmeasure.cli import main, readers, stream, tally
from pdmeasure.measures.labels import confusion_matrix

pa = need_module("pyarrow")
pq = need_module("pyarrow.parquet")

LABELS = [f"k{i}" for i in range(6)]


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def rows(n: int = 400, seed: int = 5):
    """Random model, actual and predicted labels; the label k5 first appears in the last row."""
    rng = np.random.default_rng(seed)
    labels = np.array(LABELS[:5])
    model = np.array(["m1", "m2", "m3"])[rng.integers(0, 3, n)]
    true, pred = labels[rng.integers(0, 5, n)], labels[rng.integers(0, 5, n)]
    true[-1] = "k5"
    return model, true, pred


def write_csv(path, model, true, pred, sep=","):
    lines = [sep.join(["model", "y", "p"])]
    lines += [sep.join(row) for row in zip(model, true, pred, strict=True)]
    path.write_text("\n".join(lines) + "\n")
    return path


def counts(capsys, source, *extra, stdin=None, monkeypatch=None):
    """The JSON output of ``score --format json`` on ``source`` (standard input: ``stdin``)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    status, out, err = run(
        capsys, "score", "--predictions", source, "--true", "y", "--pred", "p", *extra,
        "--format", "json",
    )  # fmt: skip
    assert status == 0, err
    return json.loads(out)


def expected(model, true, pred, order, group=None):
    keep = np.ones(len(true), bool) if group is None else model == group
    return confusion_matrix(true[keep], pred[keep], order)


def matrix_of(path):
    """The counts of the single matrix of ``path``, through the streaming reader directly."""
    matrices, labels, _ = stream.stream_predictions(str(path), "y", "p", None, None)
    return matrices["value"], labels


@pytest.mark.parametrize("block", [64, 1 << 20])
def test_blocks_smaller_than_the_classes_give_the_whole_array_matrix(tmp_path, monkeypatch, block):
    model, true, pred = rows()
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    monkeypatch.setattr(readers, "BLOCK_BYTES", block)  # 64 bytes: about 5 rows per block
    matrix, labels = matrix_of(path)
    assert labels == LABELS  # k5, first seen in the last row, takes its sorted place
    np.testing.assert_array_equal(matrix, expected(model, true, pred, LABELS))


def standard_library(monkeypatch):
    """Read CSV through the standard library's reader, as without pyarrow and pandas."""
    monkeypatch.setattr(readers, "pyarrow_or_none", lambda: None)
    monkeypatch.setattr(readers, "pandas_or_none", lambda: None)


def pandas_reader(monkeypatch):
    """Read CSV through pandas' C parser, as without pyarrow."""
    monkeypatch.setattr(readers, "pyarrow_or_none", lambda: None)


#: The CSV readers: pyarrow's, pandas' (without pyarrow), the standard library's (without
#: either), each chosen by hiding the ones before it.
READERS = {
    "pyarrow": lambda monkeypatch: None,
    "pandas": pandas_reader,
    "standard library": standard_library,
}
#: The function that reads the batches of a CSV file, by reader.
BATCHES = {
    "pyarrow": "arrow_csv_batches",
    "pandas": "pandas_csv_batches",
    "standard library": "stdlib_csv_batches",
}


def use_reader(monkeypatch, reader: str) -> list[str]:
    """Read CSV with ``reader``; returns the list of the CSV readers then called."""
    READERS[reader](monkeypatch)
    called: list[str] = []
    for name in BATCHES.values():
        function = getattr(readers, name)
        monkeypatch.setattr(
            readers,
            name,
            lambda *args, _f=function, _n=name, **kw: called.append(_n) or _f(*args, **kw),
        )
    return called


@pytest.mark.parametrize("reader", ["pandas", "standard library"])
def test_the_readers_without_pyarrow_give_the_same_matrix(tmp_path, monkeypatch, reader):
    model, true, pred = rows()
    path = write_csv(tmp_path / "p.tsv", model, true, pred, sep="\t")
    called = use_reader(monkeypatch, reader)
    monkeypatch.setattr(readers, "BATCH_ROWS", 4)  # fewer rows per batch than classes
    matrix, labels = matrix_of(path)
    assert called == [BATCHES[reader]]
    assert labels == LABELS
    np.testing.assert_array_equal(matrix, expected(model, true, pred, LABELS))


@pytest.mark.parametrize(
    ("block", "count_rows"),
    [(64, 1), (64, 3), (200, 40), (1 << 20, 1 << 18)],  # tallied per block, then together
)
def test_pyarrow_and_standard_library_readers_give_the_same_matrices(
    tmp_path, monkeypatch, block, count_rows
):
    model, true, pred = rows(600, seed=9)
    model[:3] = ["m3", "m2", "m1"]  # first appearance not sorted, within one tally
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    monkeypatch.setattr(readers, "BLOCK_BYTES", block)
    monkeypatch.setattr(stream, "COUNT_ROWS", count_rows)
    tallies = []
    hash_count = tally.hash_count
    monkeypatch.setattr(tally, "hash_count", lambda *a: tallies.append(1) or hash_count(*a))
    fast, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert tallies and (len(tallies) > 1) == (count_rows < 600)  # the grouped count ran
    for reader in ("pandas", "standard library"):
        with monkeypatch.context() as patch:
            use_reader(patch, reader)
            patch.setattr(readers, "BATCH_ROWS", count_rows)
            slow, slow_labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
        assert labels == slow_labels == LABELS  # k5, in the last row only, in its sorted place
        assert list(fast) == list(slow) == ["m3", "m2", "m1"]  # first appearance
        for group in fast:
            np.testing.assert_array_equal(fast[group], slow[group])
            np.testing.assert_array_equal(fast[group], expected(model, true, pred, LABELS, group))


@pytest.mark.parametrize("count_rows", [1, 7, 1 << 18])
def test_labels_of_one_length_and_of_several_give_the_same_matrices(
    tmp_path, monkeypatch, count_rows
):
    # Same-length labels are grouped as fixed-width keys; a tally whose blocks have labels of
    # another length, or of several, keeps variable-length ones.
    model, true, pred = (column.astype("U8") for column in rows(600, seed=3))
    true[300:] = np.char.replace(true[300:], "k", "kk")  # longer, one length per block
    pred[450:] = np.char.replace(pred[450:], "k1", "long_k1")  # several lengths
    model[500:] = np.char.add(model[500:], "x")
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    monkeypatch.setattr(readers, "BLOCK_BYTES", 200)
    monkeypatch.setattr(stream, "COUNT_ROWS", count_rows)
    widths = []
    fixed_width = tally.fixed_width

    def recorded(chunks):
        keys = fixed_width(chunks)
        widths.append(keys.type)
        return keys

    monkeypatch.setattr(tally, "fixed_width", recorded)
    matrices, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    kinds = {pa.types.is_fixed_size_binary(t) for t in widths}
    assert kinds == ({True, False} if count_rows < 600 else {False})  # one tally: all lengths
    order = sorted(set(true) | set(pred))
    assert labels == order
    assert list(matrices) == list(dict.fromkeys(model))  # first appearance
    for group in matrices:
        np.testing.assert_array_equal(matrices[group], expected(model, true, pred, order, group))


def test_fixed_width_keys_share_the_labels_bytes():
    labels = pa.array([b"zz", b"ab", b"cd", b"ab", b"ef"], pa.binary())
    sliced = labels.slice(1, 3)  # an array offset and a first label at byte 2
    keys = tally.fixed_width([sliced, pa.array([b"gh"], pa.binary())])
    assert keys.type == pa.binary(2)
    assert keys.to_pylist() == [b"ab", b"cd", b"ab", b"gh"]
    assert keys.chunk(0).buffers()[1].address == sliced.buffers()[2].address + 2
    mixed = [sliced, pa.array([b"ghi"], pa.binary())]  # another width in another block
    assert tally.fixed_width(mixed).type == pa.binary()
    assert tally.fixed_width([pa.array([b"", b""], pa.binary())]).type == pa.binary()
    assert tally.fixed_width([pa.array([b"ab", None], pa.binary())]).type == pa.binary()
    assert tally.fixed_width([pa.array(["ab", "cd"])]).type == pa.binary(2)  # text


@given(
    codes=st.lists(st.integers(0, 3), min_size=1, max_size=40),
    offset=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=200, deadline=None)
def test_folded_eight_byte_labels_give_their_bytes_back(codes, offset, seed):
    # Four labels of random bytes (NUL and 0xff included) that differ in one byte, in a
    # sliced chunk and an empty one: one integer per label, and the labels back from them.
    rng = np.random.default_rng(seed)
    distinct = rng.integers(0, 256, (4, 8), dtype=np.uint8)
    distinct[:, rng.integers(0, 8)] = [0, 1, 2, 255]
    labels = [bytes(distinct[c]) for c in [0] * offset + codes]
    chunk = pa.array(labels, pa.binary(8)).slice(offset)
    keys = tally.folded(pa.chunked_array([chunk, chunk.slice(len(chunk))]))
    assert keys.type == pa.uint64()
    values = keys.to_pylist()
    for label, value in zip(labels[offset:], values, strict=True):
        same = [v for other, v in zip(labels[offset:], values, strict=True) if other == label]
        assert set(same) == {value} and values.count(value) == len(same)
    assert tally.unfolded(keys).to_pylist() == labels[offset:]


def test_only_labels_of_eight_bytes_are_folded():
    for width in (1, 4, 7, 9, 16):
        assert tally.folded(pa.chunked_array([pa.array([b"x" * width], pa.binary(width))])) is None
    assert tally.folded(pa.chunked_array([pa.array([b"abcdefgh"], pa.binary())])) is None


@pytest.mark.parametrize("width", [1, 7, 8, 9, 16, 17, 30])
def test_labels_of_any_width_give_the_matrices_of_the_standard_library(
    tmp_path, monkeypatch, width
):
    # Labels of eight bytes are grouped as folded integers, others as bytes; one tally mixes
    # them (the classifiers' names have eight bytes).
    model, true, pred = rows(500, seed=width)
    pad = lambda column, n: np.char.rjust(np.char.replace(column, "k", ""), n, "_")  # noqa: E731
    true, pred, model = pad(true, width), pad(pred, width), pad(model, 8)
    assert len(set(true)) == 6 and {len(label) for label in true} == {width}
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    grouped = []
    folded = tally.folded

    def recorded(column):
        keys = folded(column)
        grouped.append(keys is not None)
        return keys

    monkeypatch.setattr(tally, "folded", recorded)
    fast, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert grouped == [width == 8] * 2 + [True]  # true, pred, model
    with monkeypatch.context() as patch:
        standard_library(patch)
        slow, slow_labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert labels == slow_labels and list(fast) == list(slow)
    for group in fast:
        np.testing.assert_array_equal(fast[group], slow[group])
        np.testing.assert_array_equal(fast[group], expected(model, true, pred, labels, group))


def test_tally_through_the_public_group_by_is_the_same(monkeypatch):
    table = pa.table({"k0": ["b", "a", "b", "c", "a", "b"], "k1": ["x", "x", "y", "x", "x", "y"]})
    private, counts = tally.hash_count(table, ["k0", "k1"])
    need_module("pyarrow.acero")  # imported before its names go, as in a pyarrow that moved them
    monkeypatch.delattr(sys.modules["pyarrow._acero"], "AggregateNodeOptions")
    public, public_counts = tally.hash_count(table, ["k0", "k1"])
    want = [("b", "x", 1), ("a", "x", 2), ("b", "y", 2), ("c", "x", 1)]  # first appearance
    for keys, n in ((private, counts), (public, public_counts)):
        assert list(zip(keys["k0"].to_pylist(), keys["k1"].to_pylist(), n.tolist())) == want


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_read_whole(tmp_path):
    model, true, pred = rows(20_000)  # more than the first bytes peeked at
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(path.read_bytes()), daemon=True)
    result: list = []
    reader = threading.Thread(
        target=lambda: result.append(stream.stream_predictions(str(fifo), "y", "p", None, None)),
        daemon=True,
    )
    writer.start()
    reader.start()
    reader.join(timeout=60)
    assert result, "reading the pipe did not finish"
    matrices, labels, _ = result[0]
    np.testing.assert_array_equal(matrices["value"], expected(model, true, pred, labels))


def test_the_same_column_as_true_and_pred_counts_the_diagonal(tmp_path):
    model, true, pred = rows()
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    pq.write_table(pa.table({"y": true}), tmp_path / "p.parquet")
    for source in (path, tmp_path / "p.parquet"):
        matrices, labels, _ = stream.stream_predictions(str(source), "y", "y", None, None)
        np.testing.assert_array_equal(
            matrices["value"], np.diag([np.sum(true == label) for label in labels])
        )


def test_parquet_arrow_and_stdin_give_the_csv_matrices(tmp_path, capsys, monkeypatch):
    model, true, pred = rows()
    table = pa.table({"model": model, "y": true, "p": pred})
    pq.write_table(table, tmp_path / "p.parquet", row_group_size=50)
    with pa.ipc.new_file(str(tmp_path / "p.arrow"), table.schema) as writer:
        writer.write_table(table, max_chunksize=30)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=30)
    csv_path = write_csv(tmp_path / "p.csv", model, true, pred)
    by = ("--by", "model")
    want = counts(capsys, csv_path, *by)
    assert list(want["results"]) == list(dict.fromkeys(model))  # order of first appearance
    for source in (tmp_path / "p.parquet", tmp_path / "p.arrow"):
        assert counts(capsys, source, *by) == want
    stdin = {"csv": csv_path.read_bytes(), "arrow stream": sink.getvalue().to_pybytes()}
    for data in stdin.values():
        assert counts(capsys, "-", *by, stdin=data, monkeypatch=monkeypatch) == want


def test_groups_and_labels_option(tmp_path):
    model, true, pred = rows()
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    order = LABELS[::-1]
    matrices, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", order)
    assert labels == order
    for group in ("m1", "m2", "m3"):
        np.testing.assert_array_equal(matrices[group], expected(model, true, pred, order, group))


BAD_CSV = {
    "missing_label": ("model,y,p\na,x,y\n\na,,y\n", "line 4 has an empty label"),
    "ragged": ("model,y,p\na,x,y\n\na,x\n", "line 4 has 2 cells where the header has 3"),
    "undecodable": (b"model,y,p\na,x,y\na,x,y\na,\xff\xfe,y\n", "line 4 has bytes that are not"),
    "empty": ("", "the predictions file is empty"),
    "header_only": ("model,y,p\n", "has a header but no rows"),
    "missing_column": ("model,y,q\na,x,y\n", "no column 'p'"),
    "single_group": ("model,y,p\na,x,y\na,y,y\n", "--by model has the single value 'a'"),
    "not_in_labels": ("model,y,p\na,x,y\nb,z,y\n", "line 3: label 'z' is not one of --labels"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("case", sorted(BAD_CSV))
def test_bad_csv_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, case, reader):
    content, message = BAD_CSV[case]
    use_reader(monkeypatch, reader)
    path = tmp_path / "bad.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    extra = ["--by", "model"] if case == "single_group" else []
    extra += ["--labels", "x,y"] if case == "not_in_labels" else []
    status, out, err = run(
        capsys, "score", "--predictions", path, "--true", "y", "--pred", "p", *extra
    )
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("pdmeasure: error: "), err
    assert message in err


#: Errors past the first blocks: line 1 the header, line 3 blank, the bad row on line 204.
LATE = {
    "missing_label": (b"a, ,y\n", "line 204 has an empty label"),
    "ragged": (b"a,x\n", "line 204 has 2 cells where the header has 3"),
    "undecodable": (b"a,\xff\xfe,y\n", "line 204 has bytes that are not UTF-8"),
    "not_in_labels": (b"a,x,z\n", "line 204: label 'z' is not one of --labels"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize(("block", "count_rows"), [(64, 1), (64, 7), (1 << 20, 1 << 18)])
@pytest.mark.parametrize("case", sorted(LATE))
def test_bad_rows_late_in_the_file_are_named_with_their_line(
    tmp_path, capsys, monkeypatch, case, block, count_rows, reader
):
    bad, message = LATE[case]
    good = b"".join(b"m%d,%c,%c\n" % (i % 3, b"xy"[i % 2], b"yx"[i % 2]) for i in range(200))
    path = tmp_path / "late.csv"
    path.write_bytes(b"model,y,p\nm0,x,x\n\n" + good + bad + b"m1,x,y\n")
    monkeypatch.setattr(readers, "BLOCK_BYTES", block)
    monkeypatch.setattr(stream, "COUNT_ROWS", count_rows)
    monkeypatch.setattr(readers, "BATCH_ROWS", count_rows)  # batches without pyarrow
    called = use_reader(monkeypatch, reader)
    status, out, err = run(
        capsys, "score", "--predictions", path, "--true", "y", "--pred", "p", "--labels", "x,y"
    )
    assert called == [BATCHES[reader]]
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (b"positive,\xff\xfegative", "line 204 has bytes that are not UTF-8"),
        (b"positive,neutral!", "line 204: label 'neutral!' is not one of --labels"),
    ],
)
def test_bad_eight_byte_labels_are_named_with_their_line(
    tmp_path, capsys, monkeypatch, bad, message
):
    # Labels of eight bytes are grouped as folded integers; a bad one is still found by row.
    good = b"positive,negative\nnegative,positive\n" * 100
    path = tmp_path / "eight.csv"
    path.write_bytes(b"y,p\npositive,negative\n\n" + good + bad + b"\nnegative,positive\n")
    folds = []
    folded = tally.folded
    monkeypatch.setattr(tally, "folded", lambda c: folds.append(c.type) or folded(c))
    status, out, err = run(
        capsys, "score", "--predictions", path, "--true", "y", "--pred", "p",
        "--labels", "positive,negative",
    )  # fmt: skip
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
    assert folds and {t.byte_width for t in folds} == {8}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_the_first_bad_row_is_named_when_a_ragged_row_follows(
    tmp_path, capsys, monkeypatch, reader
):
    good = b"m0,x,y\n"
    path = tmp_path / "two.csv"
    path.write_bytes(b"model,y,p\n" + good * 300 + b"m0,,y\n" + good * 150 + b"m0,x\n" + good)
    # The ragged row (line 453) is parsed while the group of line 302 is still encoded.
    monkeypatch.setattr(readers, "BLOCK_BYTES", 512)
    monkeypatch.setattr(stream, "COUNT_ROWS", 100)
    monkeypatch.setattr(readers, "BATCH_ROWS", 100)
    use_reader(monkeypatch, reader)
    encode = tally.encode_group

    def slow(*args):  # encoding lags behind the reader
        time.sleep(0.05)
        return encode(*args)

    monkeypatch.setattr(tally, "encode_group", slow)
    status, _, err = run(capsys, "score", "--predictions", path, "--true", "y", "--pred", "p")
    assert status == 2 and "line 302 has an empty label" in err, err


def in_halves(monkeypatch, block=256, count_rows=7):
    """Read every CSV file as two halves (as a large file on two CPUs); returns the list of
    the halves' outcomes: True when both were counted, else the error that sent the file
    to one reader."""
    monkeypatch.setattr(stream, "SPLIT_BYTES", 1)
    monkeypatch.setattr(stream, "_cpus", lambda: 2)
    monkeypatch.setattr(readers, "BLOCK_BYTES", block)
    monkeypatch.setattr(stream, "COUNT_ROWS", count_rows)
    outcomes = []
    count_halves = stream._count_halves

    def recorded(*args):
        try:
            count_halves(*args)
        except Exception as exc:
            outcomes.append(exc)
            raise
        outcomes.append(True)

    monkeypatch.setattr(stream, "_count_halves", recorded)
    return outcomes


@pytest.mark.parametrize(("block", "count_rows"), [(256, 7), (1 << 20, 1 << 18)])
def test_a_file_read_in_halves_gives_the_one_reader_matrices(
    tmp_path, monkeypatch, block, count_rows
):
    model, true, pred = (column.astype("U8") for column in rows(3000, seed=11))
    model[2000:2003] = ["m4", "m0", "m4"]  # classifiers first seen in the second half
    pred[1500:] = np.char.replace(pred[1500:], "k2", "kk2")  # other lengths there
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    one, one_labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    outcomes = in_halves(monkeypatch, block, count_rows)
    data = path.read_bytes()
    (start, middle), (middle_again, end) = stream._halves(
        str(path), data[:4096], ["model", "y", "p"]
    )
    assert (start, middle_again, end) == (len(b"model,y,p\n"), middle, len(data))
    assert data[middle - 1 : middle] == b"\n" and abs(middle - len(data) / 2) < 20  # a line end
    halves, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert outcomes == [True]
    order = sorted(set(true) | set(pred))
    assert labels == one_labels == order  # k5 (last row) and kk2 (second half) sorted in
    assert list(halves) == list(one) == list(dict.fromkeys(model))  # first appearance
    for group in halves:
        np.testing.assert_array_equal(halves[group], one[group])
        np.testing.assert_array_equal(halves[group], expected(model, true, pred, order, group))


@pytest.mark.parametrize("where", ["first", "second", "both"])
def test_a_bad_row_in_either_half_is_named_as_one_reader_names_it(
    tmp_path, capsys, monkeypatch, where
):
    good = [b"m%d,%c,%c\n" % (i % 3, b"xy"[i % 2], b"yx"[i % 2]) for i in range(400)]
    if where in ("first", "both"):
        good[50] = b"m0, ,y\n"  # line 52
    if where in ("second", "both"):
        good[350] = b"m0,x\n"  # line 352, ragged
    path = tmp_path / "bad.csv"
    path.write_bytes(b"model,y,p\n" + b"".join(good))
    outcomes = in_halves(monkeypatch)
    status, out, err = run(capsys, "score", "--predictions", path, "--true", "y", "--pred", "p")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert isinstance(outcomes[0], Exception)  # the halves stopped, one reader named it
    want = "line 52 has an empty label" if where != "second" else "line 352 has 2 cells"
    assert want in err, err


def test_a_split_inside_a_quoted_line_break_is_read_again(tmp_path, monkeypatch):
    head = "".join(f"m0,k{i % 3},k{i % 2}\n" for i in range(300))
    tail = "".join(f"m1,k{i % 2},k{i % 3}\n" for i in range(300))
    quoted = 'm2,"k1' + "\n" * 6000 + '",k0\n'  # the middle of the file is in this label
    path = tmp_path / "q.csv"
    path.write_text("model,y,p\n" + head + quoted + tail)
    one, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    outcomes = in_halves(monkeypatch, block=1 << 20, count_rows=1 << 18)
    (_, middle), _ = stream._halves(str(path), path.read_bytes()[:4096], ["model", "y", "p"])
    assert len("model,y,p\n" + head) + 6 < middle < len("model,y,p\n" + head + quoted) - 5
    again, again_labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert isinstance(outcomes[0], Exception)  # a half had a row of too few cells
    assert again_labels == labels == ["k0", "k1", "k2"] and list(again) == ["m0", "m2", "m1"]
    assert int(again["m2"][1, 0]) == 1  # the quoted "k1", stripped of its line breaks
    for group in one:
        np.testing.assert_array_equal(again[group], one[group])


@pytest.mark.parametrize("reader", ["pyarrow", "halves", "pandas", "standard library"])
def test_header_cells_are_stripped_and_quoted_ones_read_by_every_reader(
    tmp_path, monkeypatch, reader
):
    model, true, pred = rows(300, seed=2)
    path = tmp_path / "p.csv"
    body = "".join(f"{m},{t},{p}\n" for m, t, p in zip(model, true, pred, strict=True))
    path.write_text('"model" , y ,"p"\n' + body)  # spaces around cells, quoted names
    if reader == "halves":
        outcomes = in_halves(monkeypatch)
    else:
        use_reader(monkeypatch, reader)
    matrices, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert reader != "halves" or outcomes == [True]
    assert labels == LABELS and list(matrices) == list(dict.fromkeys(model))
    for group in matrices:
        np.testing.assert_array_equal(matrices[group], expected(model, true, pred, LABELS, group))


def test_files_read_by_one_reader(tmp_path, monkeypatch):
    path = tmp_path / "p.csv"
    path.write_bytes(b"y,p\n" + b"a,b\n" * 100)
    head, header = path.read_bytes()[:64], ["y", "p"]
    monkeypatch.setattr(stream, "SPLIT_BYTES", 1)
    monkeypatch.setattr(stream, "_cpus", lambda: 2)
    assert stream._halves(str(path), head, header) is not None
    assert stream._halves("-", head, header) is None  # standard input
    assert stream._halves(str(path), head, ["y"]) is None  # one column: true and pred
    monkeypatch.setattr(stream, "_cpus", lambda: 1)
    assert stream._halves(str(path), head, header) is None  # one CPU
    monkeypatch.setattr(stream, "_cpus", lambda: 2)
    monkeypatch.setattr(stream, "SPLIT_BYTES", path.stat().st_size + 1)
    assert stream._halves(str(path), head, header) is None  # small


def test_missing_value_in_an_arrow_stream_names_the_row(tmp_path, capsys, monkeypatch):
    table = pa.table({"y": ["a", "b", "a", None, "b"], "p": ["a", "b", "b", "a", "b"]})
    path = tmp_path / "p.arrow"
    with pa.ipc.new_file(str(path), table.schema) as writer:
        writer.write_table(table, max_chunksize=2)  # row 4 in the second batch
    monkeypatch.setattr(stream, "COUNT_ROWS", 1)
    status, _, err = run(capsys, "score", "--predictions", path, "--true", "y", "--pred", "p")
    assert status == 2 and "p.arrow: row 4 has no label" in err, err


def test_truncated_and_misplaced_parquet(tmp_path, capsys, monkeypatch):
    model, true, pred = rows()
    whole = tmp_path / "p.parquet"
    pq.write_table(pa.table({"y": true, "p": pred}), whole)
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(whole.read_bytes()[:-100])
    status, _, err = run(capsys, "score", "--predictions", cut, "--true", "y", "--pred", "p")
    assert status == 2 and err.count("\n") == 1
    assert "not a complete Parquet file" in err and "truncated" in err
    monkeypatch.setattr(readers, "pyarrow_or_none", lambda: None)
    status, _, err = run(capsys, "score", "--predictions", whole, "--true", "y", "--pred", "p")
    assert status == 2 and "pip install 'pdmeasure[arrow]'" in err


def test_missing_value_in_parquet_names_the_row(tmp_path, capsys):
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"y": ["a", None, "b"], "p": ["a", "b", "b"]}), path)
    status, _, err = run(capsys, "score", "--predictions", path, "--true", "y", "--pred", "p")
    assert status == 2 and "row 2 has no label" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("reader", ["pyarrow", "halves", "pandas"])
@pytest.mark.parametrize("terminal", [True, False])
def test_progress_only_on_a_terminal(tmp_path, monkeypatch, terminal, reader):
    model, true, pred = rows()
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    outcomes = in_halves(monkeypatch) if reader == "halves" else [True]
    if reader == "pandas":
        use_reader(monkeypatch, reader)
        monkeypatch.setattr(readers, "BATCH_ROWS", 50)
        monkeypatch.setattr(stream, "_noted", [True])  # the note said before
    err = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(stream, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(readers, "BLOCK_BYTES", 256)
    monkeypatch.setattr(stream._Progress, "INTERVAL", 0.0)
    stream.stream_predictions(str(path), "y", "p", None, None)
    shown = err.getvalue()
    assert outcomes == [True]
    assert ("rows" in shown and "MB read" in shown and shown.endswith("\n")) == terminal
    assert terminal or shown == ""


def missing_column_files(tmp_path) -> dict[str, tuple[str, str]]:
    """The same table (columns model, y, q) in every format: source -> (path, name shown)."""
    table = pa.table({"model": ["m1", "m2"], "y": ["a", "b"], "q": ["a", "a"]})
    csv_path = write_csv(tmp_path / "p.csv", *(np.array(table[c]) for c in ("model", "y", "q")))
    csv_path.write_text(csv_path.read_text().replace("model,y,p", "model,y,q"))
    tsv_path = tmp_path / "p.tsv"
    tsv_path.write_text(csv_path.read_text().replace(",", "\t"))
    gz_path = tmp_path / "p.csv.gz"
    gz_path.write_bytes(gzip.compress(csv_path.read_bytes()))
    pq.write_table(table, tmp_path / "p.parquet")
    with pa.ipc.new_file(str(tmp_path / "p.arrow"), table.schema) as writer:
        writer.write_table(table)
    with pa.ipc.new_stream(str(tmp_path / "p.arrows"), table.schema) as writer:
        writer.write_table(table)
    files = {
        "csv": csv_path,
        "tsv": tsv_path,
        "csv gzip": gz_path,
        "parquet": tmp_path / "p.parquet",
        "arrow file": tmp_path / "p.arrow",
        "arrow stream": tmp_path / "p.arrows",
    }
    return {kind: (str(path), str(path)) for kind, path in files.items()}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize(
    "kind", ["csv", "tsv", "csv gzip", "csv stdin", "parquet", "arrow file", "arrow stream"]
)
def test_a_missing_column_is_named_with_the_columns_in_every_format(
    tmp_path, capsys, monkeypatch, kind, reader
):
    if reader != "pyarrow" and kind in ("parquet", "arrow file", "arrow stream"):
        pytest.skip("Parquet and Arrow files need pyarrow")
    files = missing_column_files(tmp_path)
    if kind == "csv stdin":
        path, name = "-", "stdin"
        data = (tmp_path / "p.csv").read_bytes()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    else:
        path, name = files[kind]
    use_reader(monkeypatch, reader)
    status, out, err = run(capsys, "score", "--predictions", path, "--true", "y", "--pred", "p")
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert err == (
        f"pdmeasure: error: {name}: no column 'p' for --pred (the columns are "
        "['model', 'y', 'q']); give --pred one of them\n"
    )
    if kind != "csv stdin":
        status, _, err = run(capsys, "score", "--predictions", path, "--true", "y",
                             "--pred", "q", "--by", "classifier")  # fmt: skip
        assert status == 2 and "no column 'classifier' for --by (the columns are" in err, err


@pytest.mark.parametrize("reader", sorted(READERS))
def test_labels_that_read_as_missing_elsewhere_are_labels(tmp_path, monkeypatch, reader):
    path = tmp_path / "p.csv"
    path.write_text("y,p\nNA,null\nnan,NA\nNone,None\nnull,nan\n#N/A,NA\n")
    use_reader(monkeypatch, reader)
    matrix, labels = matrix_of(path)
    assert labels == ["#N/A", "NA", "None", "nan", "null"]
    assert matrix.sum() == 5 and matrix[labels.index("None"), labels.index("None")] == 1


@pytest.mark.parametrize("reader", sorted(READERS))
def test_without_pyarrow_a_note_says_once_that_the_arrow_extra_is_faster(
    tmp_path, capsys, monkeypatch, reader
):
    model, true, pred = rows()
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    use_reader(monkeypatch, reader)
    monkeypatch.setattr(stream, "_noted", [])
    bad = tmp_path / "bad.csv"
    bad.write_text("y,p\na,\n")
    argv = ["--predictions", path, "--true", "y", "--pred", "p"]
    status, _, err = run(capsys, "score", *argv[:1], bad, *argv[2:])
    assert status == 2 and err.count("\n") == 1  # an error stays one line
    status, _, err = run(capsys, "score", *argv)
    note = (
        f"pdmeasure: note: {path} was read without pyarrow, by "
        f"{'pandas' if reader == 'pandas' else 'the standard library'}; the arrow extra reads "
        "CSV faster: pip install 'pdmeasure[arrow]'\n"
    )
    assert status == 0 and err == ("" if reader == "pyarrow" else note)
    status, _, err = run(capsys, "score", *argv, "--by", "model")
    assert status == 0 and err == ""  # once


def test_pandas_names_undecodable_labels_from_stdin_by_their_bytes(capsys, monkeypatch):
    data = b"y,p\n" + b"a,b\n" * 50 + b"a,\xff\xfeb\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    use_reader(monkeypatch, "pandas")
    status, _, err = run(capsys, "score", "--predictions", "-", "--true", "y", "--pred", "p")
    assert status == 2 and err.count("\n") == 1
    assert "stdin: a label has bytes that are not UTF-8 (b'\\xff\\xfeb')" in err, err


@given(
    codes=st.lists(st.integers(0, 5), min_size=1, max_size=12_000),
    shift=st.integers(0, 11_000),
)
@settings(max_examples=100, deadline=None)
def test_categories_in_order_of_appearance(codes, shift):
    # pandas sorts a categorical's categories; classifiers keep their order of appearance.
    codes = np.roll(np.array(codes, dtype=np.int8), shift)  # late first appearances too
    categories = [f"m{i}" for i in range(6)]
    column = tally.in_order_of_appearance(tally.Coded(codes, categories))
    assert column.categories == [categories[c] for c in dict.fromkeys(codes.tolist())]
    assert [column.categories[c] for c in column.codes] == [categories[c] for c in codes]


@pytest.mark.parametrize("cells", [tally.TALLY_CELLS, 1])  # counted per cell, or per row
@pytest.mark.parametrize("reader", ["pandas", "standard library"])
def test_many_classes_and_classifiers_without_pyarrow(tmp_path, monkeypatch, reader, cells):
    # 100 classes: pandas' codes of up to 127 categories are 8-bit, and the predicted codes
    # shift past the 100 actual ones; 130 classifiers, first seen in no sorted order.
    rng = np.random.default_rng(8)
    labels = np.array([f"c{i:03d}" for i in range(100)])
    models = np.array([f"m{i}" for i in rng.permutation(130)])
    n = 5000
    model = models[rng.integers(0, 130, n)]
    true, pred = labels[rng.integers(0, 100, n)], labels[rng.integers(0, 100, n)]
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    use_reader(monkeypatch, reader)
    monkeypatch.setattr(readers, "BATCH_ROWS", 2000)
    monkeypatch.setattr(tally, "TALLY_CELLS", cells)
    matrices, order, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert order == sorted(set(true) | set(pred))
    assert list(matrices) == list(dict.fromkeys(model))
    for group in matrices:
        np.testing.assert_array_equal(matrices[group], expected(model, true, pred, order, group))


@pytest.mark.parametrize("halves", [False, True])
@pytest.mark.parametrize("width", [1, 2, 4, 8, 9])
@pytest.mark.parametrize("seed", range(4))
def test_classifiers_keep_their_order_of_first_appearance(
    tmp_path, monkeypatch, width, seed, halves
):
    # Arrow groups keys of one width (fixed_size_binary) in an order of its own, not that of
    # first appearance; the classifiers are put back in theirs.
    rng = np.random.default_rng(seed)
    names = np.array([str(i).rjust(width, "m") for i in rng.permutation(9)])
    model = names[rng.integers(0, 9, 3000)]
    model[2000:2003] = "x" * width  # a classifier first seen late, in the second half
    true = np.array(["a", "b", "c"])[rng.integers(0, 3, 3000)]
    pred = np.array(["a", "b", "c"])[rng.integers(0, 3, 3000)]
    path = write_csv(tmp_path / "p.csv", model, true, pred)
    outcomes = in_halves(monkeypatch, block=1 << 20, count_rows=1 << 18) if halves else [True]
    matrices, labels, _ = stream.stream_predictions(str(path), "y", "p", "model", None)
    assert outcomes == [True]
    assert list(matrices) == list(dict.fromkeys(model))
    for group in matrices:
        np.testing.assert_array_equal(matrices[group], expected(model, true, pred, labels, group))
