"""The command's matrices: shown by ``score`` (JSON always, text and CSV with ``--matrices``)
and saved by ``--save-matrices`` as a matrix file that ``score``, ``compare`` and
``explore`` read back with the same output as the predictions they were tallied from."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

from pdmeasure.cli import main
from pdmeasure.measures.labels import confusion_matrix

#: Three classifiers' predictions of the same 200 samples, one row per sample and
#: classifier, first seen in the order m2, m1, m3; the class "d" is never predicted.
RNG = np.random.default_rng(12)
SAMPLES, MODELS = 200, ["m2", "m1", "m3"]
ACTUAL = np.array(["a", "b", "c", "d"])[RNG.integers(0, 4, SAMPLES)]
MODEL = np.tile(MODELS, SAMPLES)
TRUE = np.repeat(ACTUAL, len(MODELS))
N = len(TRUE)
PRED = np.where(RNG.random(N) < 0.6, TRUE, np.array(["a", "b", "c"])[RNG.integers(0, 3, N)])
PRED[TRUE == "d"] = "c"


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def ok(capsys, *argv) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == "", err
    return out


@pytest.fixture
def predictions(tmp_path) -> Path:
    path = tmp_path / "preds.csv"
    rows = ["model,y,p", *(f"{m},{t},{p}" for m, t, p in zip(MODEL, TRUE, PRED, strict=True))]
    path.write_text("\n".join(rows) + "\n")
    return path


def expected(order, group=None) -> np.ndarray:
    keep = np.ones(N, bool) if group is None else MODEL == group
    return confusion_matrix(TRUE[keep], PRED[keep], order)


def test_score_json_has_each_tallied_matrix_with_its_labels(capsys, predictions):
    read = ["--predictions", predictions, "--true", "y", "--pred", "p"]
    data = json.loads(ok(capsys, "score", *read, "--by", "model", "--format", "json"))
    assert data["labels"] == ["a", "b", "c", "d"]
    assert list(data["matrices"]) == list(data["results"]) == ["m2", "m1", "m3"]
    for name, matrix in data["matrices"].items():
        assert matrix == expected(data["labels"], name).tolist()
        assert all(type(count) is int for row in matrix for count in row)
    data = json.loads(ok(capsys, "score", *read, "--labels", "d,c,b,a", "--format", "json"))
    assert data["labels"] == ["d", "c", "b", "a"]
    assert data["matrices"] == {"value": expected(["d", "c", "b", "a"]).tolist()}


def test_the_json_report_reads_back_as_a_matrix_file(capsys, predictions, tmp_path):
    read = ["--predictions", predictions, "--true", "y", "--pred", "p", "--by", "model"]
    report = ok(capsys, "score", *read, "--format", "json", "--kappa", "0.1,0.2,0.3,0.4")
    (tmp_path / "report.json").write_text(report)
    again = ok(capsys, "score", tmp_path / "report.json", "--format", "json", "--kappa",
               "0.1,0.2,0.3,0.4")  # fmt: skip
    assert again == report


def test_text_and_csv_show_the_matrices_when_asked(capsys, predictions):
    read = ["--predictions", predictions, "--true", "y", "--pred", "p", "--by", "model"]
    text = ok(capsys, "score", *read)
    assert "# matrix" not in text
    text = ok(capsys, "score", *read, "--matrices")
    order = ["a", "b", "c", "d"]
    for name in ("m2", "m1", "m3"):
        block = text.split(f"# matrix {name} (rows actual, columns predicted)\n")[1]
        lines = block.splitlines()[: len(order) + 1]
        assert lines[0].split() == order
        assert [line.split() for line in lines[1:]] == [
            [label, *map(str, row)] for label, row in zip(order, expected(order, name), strict=True)
        ]
    assert text.startswith(ok(capsys, "score", *read))  # the measures as before

    for extra, width in (([], 1), (["--ci", "--draws", "200"], 3)):
        plain = ok(capsys, "score", *read, "--format", "csv", *extra)
        table = list(csv.reader(io.StringIO(ok(capsys, "score", *read, "--format", "csv",
                                                 "--matrices", *extra))))  # fmt: skip
        header = table[0]
        assert header[:4] == ["measure", "kappa", "actual", "predicted"]
        assert [r[:2] + r[4:] for r in table if r[0] != "count"] == list(
            csv.reader(io.StringIO(plain))
        )  # the measures as before, with two empty cells
        cells = [r for r in table if r[0] == "count"]
        assert [(r[2], r[3]) for r in cells] == [(a, p) for a in order for p in order]
        for name in ("m2", "m1", "m3"):
            column = header.index(name)
            counts = np.array([int(r[column]) for r in cells]).reshape(4, 4)
            np.testing.assert_array_equal(counts, expected(order, name))
            assert all(r[column + 1 : column + width] == [""] * (width - 1) for r in cells)


#: Ways to read the predictions: with --by or one matrix, class order sorted or --labels.
READS = {
    "by": ["--by", "model"],
    "one matrix": [],
    "by, labels reordered": ["--by", "model", "--labels", "d,b,a,c"],
}
#: ``score`` options whose outputs must match, byte for byte.
SCORES = {
    "text": ["--kappa", "0.9,0.1,0.5,0.3", "--matrices"],
    "csv": ["--format", "csv", "--kappa", "a=1,b=0,c=0.5,d=0.2", "--matrices"],
    "json": ["--format", "json", "--zero-division", "0"],
    "json with intervals": ["--format", "json", "--ci", "0.9", "--draws", "300", "--seed", "3"],
    "json with bootstrap intervals": [
        *("--format", "json", "--ci", "--method", "bootstrap", "--draws", "200", "--seed", "4"),
    ],
}
#: ``compare`` options (by classifier only).
COMPARES = {
    "text": ["--zero-division", "0"],
    "json, grid": ["--format", "json", "--grid", "0,0.5,1", "--zero-division", "1"],
    "text, intervals": ["--zero-division", "0", "--ci", "--draws", "200"],
    "text, bootstrap intervals": ["--ci", "--method", "bootstrap", "--draws", "200"],
}


@pytest.mark.parametrize("read", sorted(READS))
def test_saved_matrices_give_the_outputs_of_the_predictions(capsys, predictions, tmp_path, read):
    source = ["--predictions", predictions, "--true", "y", "--pred", "p", *READS[read]]
    saved = tmp_path / "saved.json"
    first = ok(capsys, "score", *source, "--save-matrices", saved)
    assert first == ok(capsys, "score", saved)
    content = saved.read_text()
    for name, options in SCORES.items():
        want = ok(capsys, "score", *source, *options, "--save-matrices", saved)
        assert saved.read_text() == content  # the same file, whatever the format
        assert ok(capsys, "score", saved, *options) == want, name
    if "--by" not in READS[read]:
        return
    for name, options in COMPARES.items():
        want = ok(capsys, "compare", *source, *options)
        assert ok(capsys, "compare", saved, *options) == want, name
    pages = []
    for where, argv in (("predictions", source), ("saved", [saved])):
        page = tmp_path / f"{where}.html"
        assert ok(capsys, "explore", *argv, "-o", page, "--dataset", "iris") == f"wrote {page}\n"
        pages.append(page.read_bytes())
    assert pages[0] == pages[1]  # the page and its data
    # compare and explore save the same file
    for command, extra in (("compare", []), ("explore", ["-o", tmp_path / "p.html"])):
        again = tmp_path / f"{command}.json"
        ok(capsys, command, *source, *extra, "--save-matrices", again)
        assert again.read_text() == content


def test_saved_matrices_are_the_labels_and_matrices_of_the_report(capsys, predictions, tmp_path):
    source = ["--predictions", predictions, "--true", "y", "--pred", "p", "--by", "model"]
    saved = tmp_path / "saved.json"
    report = json.loads(ok(capsys, "score", *source, "--format", "json", "--save-matrices", saved))
    text = saved.read_text()
    assert json.loads(text) == {"labels": report["labels"], "matrices": report["matrices"]}
    for matrix in report["matrices"].values():
        for row in matrix:
            assert f"\n      {json.dumps(row)},\n" in text or f"\n      {json.dumps(row)}\n" in text


def test_fractional_counts_are_saved_as_they_are(capsys, tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"labels": ["x", "y"], "matrix": [[2.5, 1], [0.25, 3]]}))
    saved = tmp_path / "saved.json"
    want = ok(capsys, "score", path, "--format", "csv", "--save-matrices", saved)
    assert json.loads(saved.read_text())["matrices"] == {"value": [[2.5, 1.0], [0.25, 3.0]]}
    assert ok(capsys, "score", saved, "--format", "csv") == want
    text = ok(capsys, "score", path, "--matrices")
    assert text.endswith(
        "\n# matrix (rows actual, columns predicted)\n      x  y\nx   2.5  1\ny  0.25  3\n"
    )


def test_nothing_is_saved_when_the_command_fails(capsys, predictions, tmp_path):
    saved = tmp_path / "saved.json"
    source = ["--predictions", predictions, "--true", "y", "--pred", "p"]
    status, out, err = run(capsys, "score", *source, "--kappa", "0.5", "--save-matrices", saved)
    assert status == 2 and out == "" and "kappa" in err
    assert list(tmp_path.iterdir()) == [predictions]
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder\n")
    status, out, err = run(capsys, "score", *source, "--save-matrices", blocker / "m.json")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"pdmeasure: error: cannot write the matrices to {blocker / 'm.json'}")
    assert sorted(tmp_path.iterdir()) == sorted([predictions, blocker])


def test_the_bootstrap_of_fractional_counts_names_the_problem_and_the_fix(capsys, tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"labels": ["x", "y"], "matrix": [[2.5, 1], [0.25, 3]]}))
    status = main(["score", str(path), "--ci", "--method", "bootstrap"])
    err = capsys.readouterr().err
    assert status == 2
    assert "--method bootstrap resamples samples, so it needs whole counts" in err
    assert "use --method posterior" in err and len(err.strip().splitlines()) == 1
