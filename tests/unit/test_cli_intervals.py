"""``pdmeasure score --ci`` and ``compare --ci``: intervals and probabilities under uncertainty."""

from __future__ import annotations

import gzip
import io
import json
import sys

import numpy as np
import pytest

from pdmeasure import measures
from pdmeasure import uncertainty as unc
from pdmeasure.cli import main

CM = [[100, 10, 10], [10, 80, 30], [1, 10, 30]]
AUTHORS = 0.6641628736750688


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def matrix(tmp_path):
    path = tmp_path / "cm.json"
    path.write_text(json.dumps(CM))
    return path


@pytest.fixture
def three(tmp_path):
    matrices = {"A": CM, "B": [[90, 20, 10], [10, 85, 25], [3, 8, 30]], "C": np.eye(3).tolist()}
    matrices["C"] = [[60, 30, 30], [30, 60, 30], [10, 10, 21]]
    path = tmp_path / "three.json"
    path.write_text(json.dumps({"labels": ["a", "b", "c"], "matrices": matrices}))
    return path


def test_score_ci_on_the_authors_example_brackets_its_value(matrix, capsys):
    status, out, _ = run(capsys, "score", matrix, "--kappa", "0.3,0.1,0.9", "--ci")
    assert status == 0
    assert "# 0.95 intervals from 4000 draws (posterior of the counts" in out
    line = next(row for row in out.splitlines() if row.startswith("preference_driven  0.3;"))
    value, lower, upper = (float(x) for x in line.split()[2:])
    assert value == AUTHORS and lower < AUTHORS < upper
    # the same bounds as the library's, with the command's seed and draws
    draws = unc.posterior_draws(np.array([CM]), 4000, seed=0)
    expected = unc.interval(measures.preference_driven(draws, [0.3, 0.1, 0.9]), 0.95)
    assert (lower, upper) == pytest.approx((expected[0][0], expected[1][0]), abs=0)


def test_score_ci_json_and_csv_carry_the_bounds(matrix, capsys):
    _, out, _ = run(capsys, "score", matrix, "--ci", "0.9", "--draws", "500", "--format", "json")
    data = json.loads(out)
    assert data["ci"] == {
        "level": 0.9,
        "draws": 500,
        "seed": 0,
        "method": "posterior",
        "prior": None,
    }
    result = data["results"]["value"]
    lower, upper = result["intervals"]["accuracy"]
    assert lower < result["measures"]["accuracy"] < upper
    _, out, _ = run(capsys, "score", matrix, "--ci", "--draws", "500", "--format", "csv")
    assert out.splitlines()[0] == "measure,kappa,value,value lower,value upper"


def test_score_ci_bootstrap_from_predictions_is_seeded(tmp_path, capsys):
    rng = np.random.default_rng(0)
    truth = rng.choice(["x", "y", "z"], 300)
    pred = np.where(rng.random(300) < 0.8, truth, rng.choice(["x", "y", "z"], 300))
    path = tmp_path / "p.csv"
    path.write_text("t,p\n" + "\n".join(f"{a},{b}" for a, b in zip(truth, pred)) + "\n")
    argv = ["score", "--predictions", path, "--true", "t", "--pred", "p", "--ci"]
    argv += ["--method", "bootstrap", "--draws", "300", "--format", "json"]
    first = json.loads(run(capsys, *argv)[1])
    assert json.loads(run(capsys, *argv)[1]) == first
    assert first["ci"]["method"] == "bootstrap"
    lower, upper = first["results"]["value"]["intervals"]["accuracy"]
    assert lower <= first["results"]["value"]["measures"]["accuracy"] <= upper


def test_score_ci_bootstrap_reads_any_predictions_input_once(tmp_path, capsys, monkeypatch):
    # The bootstrap resamples the matrices the file was streamed into, so standard input
    # (read once), compressed files and Parquet give the CSV file's intervals.
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(4)
    model = rng.choice(["m1", "m2"], 400)
    truth = rng.choice(["x", "y", "z"], 400)
    pred = np.where(rng.random(400) < 0.7, truth, rng.choice(["x", "y", "z"], 400))
    text = "m,t,p\n" + "\n".join(",".join(row) for row in zip(model, truth, pred)) + "\n"
    path = tmp_path / "p.csv"
    path.write_text(text)
    (tmp_path / "p.csv.gz").write_bytes(gzip.compress(text.encode()))
    pq.write_table(pa.table({"m": model, "t": truth, "p": pred}), tmp_path / "p.parquet")
    argv = ["--true", "t", "--pred", "p", "--by", "m", "--ci", "--method", "bootstrap"]
    argv += ["--draws", "200", "--format", "json"]
    want = json.loads(run(capsys, "score", "--predictions", path, *argv)[1])
    assert list(want["results"]) == list(dict.fromkeys(model))  # order of first appearance
    for source in (tmp_path / "p.csv.gz", tmp_path / "p.parquet"):
        assert json.loads(run(capsys, "score", "--predictions", source, *argv)[1]) == want
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    status, out, err = run(capsys, "score", "--predictions", "-", *argv)
    assert status == 0, err
    assert json.loads(out) == want


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--ci", "1.5"], "--ci: '1.5': give a level strictly between 0 and 1"),
        (["--ci", "0"], "--ci: '0': give a level strictly between 0 and 1"),
        (["--ci", "--draws", "10"], "--draws: at least 100 draws"),
        (["--ci", "--prior", "-1"], "--prior: the prior must be > 0"),
    ],
)
def test_score_ci_bad_options_exit_2_naming_them(matrix, capsys, extra, words):
    status, out, err = run(capsys, "score", matrix, *extra)
    assert status == 2 and out == ""
    assert err.startswith("pdmeasure: error: ") and words in err
    assert err.count("\n") == 1


def test_score_ci_empty_class_row_is_scored(tmp_path, capsys):
    """A class with no sample (an empty row) stays in the matrix: its recall is 0/0 in the
    point value and in every draw, and the other measures get intervals."""
    path = tmp_path / "empty.json"
    path.write_text(json.dumps([[3, 1, 0], [0, 0, 0], [1, 0, 4]]))
    status, out, err = run(capsys, "score", path, "--ci", "--format", "json")
    assert status == 0, err
    assert "accuracy" in out


def test_compare_ci_gives_probabilities_over_kappa_and_the_matrices(three, capsys):
    status, out, _ = run(capsys, "compare", three, "--ci", "--draws", "500", "--format", "json")
    assert status == 0
    rows = {
        (r["classifier_a"], r["classifier_b"]): r for r in json.loads(out)["win_under_uncertainty"]
    }
    assert set(rows) == {("A", "B"), ("A", "C"), ("B", "C")}
    for row in rows.values():
        assert row["p_greater"] + row["p_tie"] + row["p_less"] == pytest.approx(1.0)
    assert rows[("A", "C")]["p_greater"] > 0.99  # C is far worse everywhere
    assert 0.2 < rows[("A", "B")]["p_greater"] < 0.9  # A and B are close: not certain
    _, text, _ = run(capsys, "compare", three, "--ci", "--draws", "500", "--grid", "0,1")
    assert "P(A beats B) over the kappa space and the matrices' uncertainty" in text
