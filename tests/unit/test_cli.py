"""The ``pdmeasure`` command: score, compare and explore (pdmeasure.cli)."""

from __future__ import annotations

import csv
import io
import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers import missing
from pdmeasure import measures
from pdmeasure.cli import main
from pdmeasure.paper import examples
from pdmeasure.render import explorer as render_explorer
from pdmeasure.tables import explorer as tables_explorer

AUTHORS = examples.authors_reference()["authors_example"]
PD_TEXT = "0.6641628736750688"
CM = AUTHORS["matrix"]  # [[100, 10, 10], [10, 80, 30], [1, 10, 30]]
# Three classifiers on the same data (equal row totals 120, 120, 41).
MATRICES = {
    "A": CM,
    "B": [[90, 20, 10], [5, 100, 15], [5, 5, 31]],
    "C": [[110, 5, 5], [20, 90, 10], [10, 10, 21]],
}


def run_cli(*args, stdin: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    """``python -m pdmeasure ARGS`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "pdmeasure", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def run_main(capsys, *args) -> tuple[int, str, str]:
    """``main(ARGS)`` in-process: exit status, stdout, stderr."""
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def csv_values(text: str) -> dict[tuple[str, str], list[float]]:
    """``score --format csv`` output -> {(measure, kappa): [value per matrix]}."""
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["measure", "kappa"]
    return {(r[0], r[1]): [float(v) for v in r[2:]] for r in rows[1:]}


def matrix_csv(cm, labels=None, *, header=True, column=True, corner="") -> str:
    lines = []
    if labels is not None and header:
        lines.append(",".join(([corner] if column else []) + list(labels)))
    for i, row in enumerate(cm):
        cells = [str(v) for v in row]
        lines.append(",".join(([labels[i]] if labels is not None and column else []) + cells))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------
# score
# --------------------------------------------------------------------------------------
def test_authors_example_through_the_command(tmp_path):
    path = write(tmp_path / "authors.json", json.dumps(CM))
    done = run_cli("score", path, "--kappa", "0.3,0.1,0.9")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    row = [line for line in done.stdout.splitlines() if "0.3;0.1;0.9" in line]
    assert len(row) == 1 and row[0].split() == ["preference_driven", "0.3;0.1;0.9", PD_TEXT]
    assert PD_TEXT == repr(AUTHORS["preference_driven"])


def test_authors_example_in_process(tmp_path, capsys):
    path = write(tmp_path / "authors.json", json.dumps({"labels": ["a", "b", "c"], "matrix": CM}))
    status, out, err = run_main(capsys, "score", path, "--kappa", "0.3,0.1,0.9")
    assert (status, err) == (0, "")
    assert f"0.3;0.1;0.9   {PD_TEXT}" in out
    assert "# classes (rows actual, columns predicted): a, b, c" in out


def test_console_script_is_installed(tmp_path):
    script = Path(sys.executable).with_name("pdmeasure")
    if not script.exists():
        missing("python package", f"the console script {script} is not installed")
    path = write(tmp_path / "m.json", json.dumps(CM))
    done = subprocess.run(
        [str(script), "score", str(path), "--kappa", "0.3,0.1,0.9"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert PD_TEXT in done.stdout


def test_score_imports_neither_scipy_stats_nor_pandas(tmp_path):
    # scipy.stats alone costs each command about 0.3 s and 50 MB (peak RSS of a streamed
    # predictions file counts it); the commands that need it import it when they run.
    path = write(tmp_path / "m.json", json.dumps(CM))
    code = (
        "import sys; from pdmeasure.cli import main; "
        f"assert main(['score', {str(path)!r}, '--ci', '--draws', '200']) == 0; "
        "heavy = [m for m in ('scipy.stats', 'scipy.optimize', 'pandas') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_every_registry_measure_at_full_precision(tmp_path, capsys):
    path = write(tmp_path / "m.json", json.dumps(CM))
    status, out, _ = run_main(capsys, "score", path, "--format", "csv")
    assert status == 0
    values = csv_values(out)
    expected = {name: float(f(np.array(CM))) for name, f in measures.REGISTRY.items()}
    got = {measure: v[0] for (measure, _), v in values.items()}
    assert got == expected  # repr round-trips, so the printed values are the floats
    assert values[("preference_driven", "default")] == [float(measures.preference_driven(CM))]
    assert [k for (_, k) in values if k] == ["default"]


LABELS = ["a", "b", "c"]
# The same matrix written every supported way; columns of the last one are shuffled.
CSV_VARIANTS = {
    "corner_header_and_label_column": matrix_csv(CM, LABELS),
    "named_corner": matrix_csv(CM, LABELS, corner="actual\\predicted"),
    "header_only": matrix_csv(CM, LABELS, column=False),
    "label_column_only": matrix_csv(CM, LABELS, header=False),
    "header_without_corner": "a,b,c\n" + matrix_csv(CM, LABELS, header=False),
    "no_labels": matrix_csv(CM),
    "semicolons": matrix_csv(CM, LABELS).replace(",", ";"),
    "shuffled_header": "actual,c,a,b\na,10,100,10\nb,30,10,80\nc,30,1,10\n",
}


@pytest.mark.parametrize("variant", sorted(CSV_VARIANTS))
def test_csv_with_and_without_labels(tmp_path, capsys, variant):
    path = write(tmp_path / "m.csv", CSV_VARIANTS[variant])
    kappa = "0.3,0.1,0.9" if variant == "no_labels" else "c=0.9,a=0.3,b=0.1"
    status, out, err = run_main(capsys, "score", path, "--kappa", kappa, "--format", "csv")
    assert status == 0, err
    assert csv_values(out)[("preference_driven", "0.3;0.1;0.9")] == [AUTHORS["preference_driven"]]
    assert csv_values(out)[("accuracy", "")] == [float(measures.accuracy(CM))]


def test_csv_labels_are_read(tmp_path, capsys):
    path = write(tmp_path / "m.csv", matrix_csv(CM, ["x", "y", "z"]))
    status, out, _ = run_main(capsys, "score", path, "--format", "json")
    assert json.loads(out)["labels"] == ["x", "y", "z"]
    path = write(tmp_path / "n.csv", matrix_csv(CM))
    status, out, _ = run_main(capsys, "score", path, "--format", "json", "--labels", "p,q,r")
    assert json.loads(out)["labels"] == ["p", "q", "r"]


@pytest.mark.parametrize("payload", [CM, {"matrix": CM}, {"labels": LABELS, "matrix": CM}])
def test_json_inputs(tmp_path, capsys, payload):
    path = write(tmp_path / "m.json", json.dumps(payload))
    status, out, err = run_main(capsys, "score", path, "--kappa", "0.3,0.1,0.9", "--format", "json")
    assert status == 0, err
    data = json.loads(out)
    result = data["results"]["value"]
    assert result["preference_driven"] == [
        {"kappa": [0.3, 0.1, 0.9], "value": AUTHORS["preference_driven"]}
    ]
    assert result["measures"]["pacc"] == float(measures.pacc(CM))
    assert result["default_kappa"] == pytest.approx([120 / 281, 120 / 281, 41 / 281])
    assert data["zero_division"] == "nan"


def test_stdin(capsys):
    done = run_cli("score", "-", "--kappa", "0.3,0.1,0.9", stdin=matrix_csv(CM, LABELS))
    assert done.returncode == 0, done.stderr
    assert PD_TEXT in done.stdout
    done = run_cli("score", "-", "--format", "csv", stdin=json.dumps(CM))
    assert csv_values(done.stdout)[("mcc", "")] == [float(measures.mcc(CM))]


def test_label_weight_kappa_equals_positional(tmp_path, capsys):
    path = write(tmp_path / "m.csv", matrix_csv(CM, ["lo", "mid", "hi"]))
    status, out, _ = run_main(
        capsys,
        "score",
        path,
        "--format",
        "csv",
        "--kappa",
        "hi=0.9, lo=0.3, mid=0.1",
        "--kappa",
        "0.3;0.1;0.9",
        "--kappa",
        "lo=1,mid=1,hi=1",
        "--kappa",
        "0,0,0",
    )
    assert status == 0
    values = csv_values(out)
    assert values[("preference_driven", "0.3;0.1;0.9")] == [AUTHORS["preference_driven"]]
    # kappa = 1 everywhere is macro precision, 0 everywhere macro recall (eq. 30)
    assert values[("preference_driven", "1;1;1")] == pytest.approx(
        [float(measures.precision_macro(CM))], rel=1e-15
    )
    assert values[("preference_driven", "0;0;0")] == pytest.approx(
        [float(measures.recall_macro(CM))], rel=1e-15
    )
    rows = [r for r in csv.reader(io.StringIO(out)) if r[0] == "preference_driven"]
    assert [r[1] for r in rows] == ["default", "0.3;0.1;0.9", "0.3;0.1;0.9", "1;1;1", "0;0;0"]


def test_nan_and_zero_division(tmp_path, capsys):
    never_predicted = [[5, 1, 0], [2, 4, 0], [3, 1, 0]]  # class 2 is never predicted
    path = write(tmp_path / "m.json", json.dumps(never_predicted))
    _, out, _ = run_main(capsys, "score", path, "--format", "json")
    assert json.loads(out)["results"]["value"]["measures"]["precision_macro"] is None
    _, out, _ = run_main(capsys, "score", path, "--format", "csv")
    assert np.isnan(csv_values(out)[("precision_macro", "")][0])
    _, out, _ = run_main(capsys, "score", path, "--format", "json", "--zero-division", "0")
    assert json.loads(out)["results"]["value"]["measures"]["precision_macro"] == float(
        measures.precision_macro(never_predicted, zero_division=0.0)
    )
    _, out, _ = run_main(capsys, "score", path)
    assert "precision_macro" in out and "NaN" in out


def predictions_csv(tmp_path, matrices, labels, *, extra_label=None) -> Path:
    lines = ["model,y_true,y_pred"]
    for name, cm in matrices.items():
        for i, row in enumerate(cm):
            for j, count in enumerate(row):
                lines += [f"{name},{labels[i]},{labels[j]}"] * count
    rng = np.random.default_rng(3)
    body = lines[1:]
    rng.shuffle(body)
    return write(tmp_path / "predictions.csv", "\n".join([lines[0], *body]) + "\n")


def from_predictions(path, *, by: str | None = None) -> list:
    """The arguments that read ``path`` of :func:`predictions_csv` (columns y_true, y_pred),
    one matrix per value of the column ``by`` when given."""
    args = ["--predictions", path, "--true", "y_true", "--pred", "y_pred"]
    return args + ["--by", by] if by is not None else args


def test_predictions_with_by(tmp_path, capsys):
    path = predictions_csv(tmp_path, {"B": MATRICES["B"], "A": MATRICES["A"]}, ["lo", "mid", "hi"])
    status, out, err = run_main(
        capsys,
        "score",
        *from_predictions(path, by="model"),
        "--format",
        "json",
        "--kappa",
        "lo=0.3,mid=0.1,hi=0.9",
    )
    assert status == 0, err
    data = json.loads(out)
    assert data["labels"] == ["hi", "lo", "mid"]  # sorted union
    # class order hi, lo, mid: the matrices are permuted accordingly
    order = [2, 0, 1]
    for name in ("A", "B"):
        cm = np.array(MATRICES[name])[np.ix_(order, order)]
        result = data["results"][name]
        assert result["measures"]["accuracy"] == float(measures.accuracy(cm))
        assert result["preference_driven"][0]["value"] == pytest.approx(
            float(measures.preference_driven(MATRICES[name], [0.3, 0.1, 0.9])), rel=1e-15
        )
    assert data["results"]["A"]["preference_driven"][0]["value"] == pytest.approx(
        AUTHORS["preference_driven"], rel=1e-15
    )
    # --labels fixes the class order, so a positional kappa means the same classes
    status, out, _ = run_main(
        capsys,
        "score",
        *from_predictions(path, by="model"),
        "--labels",
        "lo,mid,hi",
        "--kappa",
        "0.3,0.1,0.9",
        "--format",
        "csv",
    )
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["measure", "kappa", "B", "A"]  # groups in order of first appearance
    assert csv_values(out)[("preference_driven", "0.3;0.1;0.9")][1] == AUTHORS["preference_driven"]


def test_predictions_numeric_labels_sort_numerically(tmp_path, capsys):
    path = predictions_csv(tmp_path, {"m": CM}, ["2", "10", "100"])
    status, out, _ = run_main(capsys, "score", *from_predictions(path), "--format", "json")
    data = json.loads(out)
    assert data["labels"] == ["2", "10", "100"]
    assert data["results"]["value"]["measures"]["pacc"] == float(measures.pacc(CM))


# --------------------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------------------
ERROR_CASES = {
    "non_square": (["score", "{path}"], "1,2,3\n4,5,6\n", "must be square"),
    "non_square_json": (["score", "{path}"], "[[1, 2], [3, 4], [5, 6]]", "must be square"),
    "ragged_json": (["score", "{path}"], "[[1, 2], [3]]", "rows of equal length"),
    "negative": (["score", "{path}"], "[[1, -2], [3, 4]]", "negative count"),
    "empty_matrix": (["score", "{path}"], "[[0, 0], [0, 0]]", "no samples"),
    "not_a_number": (["score", "{path}"], ",a,b\na,1,x\nb,2,3\n", "'x', not a number"),
    "kappa_length": (
        ["score", "{path}", "--kappa", "0.5,0.5"],
        json.dumps(CM),
        "kappa has 2 value(s) but there are 3 classes",
    ),
    "kappa_unknown_label": (
        ["score", "{path}", "--kappa", "a=0.3,b=0.1,d=0.9"],
        json.dumps({"labels": LABELS, "matrix": CM}),
        "unknown label(s) 'd'",
    ),
    "kappa_missing_label": (
        ["score", "{path}", "--kappa", "a=0.3,b=0.1"],
        json.dumps({"labels": LABELS, "matrix": CM}),
        "no weight for label(s) 'c'",
    ),
    "kappa_range": (["score", "{path}", "--kappa", "0.3,0.1,1.5"], json.dumps(CM), "[0, 1]"),
    "kappa_text": (
        ["score", "{path}", "--kappa", "0.3,x,1"],
        json.dumps(CM),
        "'x' is not a number",
    ),
    "unreadable": (["score", "{missing}"], None, "cannot read"),
    "invalid_json": (["score", "{path}"], "[[1, 2], [3, 4]", "invalid JSON"),
    "zero_division_choice": (
        ["score", "{path}", "--zero-division", "2"],
        json.dumps(CM),
        "invalid choice",
    ),
    "no_input": (["score"], None, "give a matrix FILE"),
    "header_mismatch": (["score", "{path}"], ",a,b\na,1,2\nc,3,4\n", "differ"),
    "labels_length": (
        ["score", "{path}", "--labels", "a,b"],
        json.dumps(CM),
        "--labels names 2 classes",
    ),
    "missing_column": (
        ["score", "--predictions", "{path}", "--true", "y", "--pred", "nope"],
        "y,p\na,b\n",
        "no column 'nope'",
    ),
    "label_not_in_labels": (
        ["score", "--predictions", "{path}", "--true", "y", "--pred", "p", "--labels", "a,b"],
        "y,p\na,b\nb,c\n",
        "label 'c'",
    ),
    "different_data": (
        ["compare", "{path}"],
        json.dumps({"matrices": {"A": CM, "B": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}),
        "actual-class counts",
    ),
    "grid_range": (
        ["compare", "{path}", "--grid", "0,2"],
        json.dumps({"matrices": MATRICES}),
        "[0, 1]",
    ),
    "compare_non_integer": (
        ["compare", "{path}"],
        json.dumps({"matrices": {"A": [[1.5, 1], [1, 1]]}}),
        "integer counts",
    ),
}


def error_argv(tmp_path, case):
    argv, content, _ = ERROR_CASES[case]
    path = tmp_path / "input.txt"
    if content is not None:
        path.write_text(content)
    return [a.format(path=path, missing=tmp_path / "missing.csv") for a in argv]


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_errors_exit_2_with_one_line(tmp_path, capsys, case):
    status, out, err = run_main(capsys, *error_argv(tmp_path, case))
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("pdmeasure: error: ")
    assert ERROR_CASES[case][2] in lines[0]


@pytest.mark.parametrize("case", ["non_square", "negative", "kappa_unknown_label", "unreadable"])
def test_errors_in_a_subprocess_have_no_traceback(tmp_path, case):
    done = run_cli(*error_argv(tmp_path, case))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("pdmeasure: error: ") and ERROR_CASES[case][2] in done.stderr


@pytest.mark.parametrize("command", ["score", "compare", "explore"])
def test_help_of_each_subcommand(command):
    done = run_cli(command, "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert f"usage: pdmeasure {command}" in text
    assert "sorted union of the actual and predicted labels" in text
    assert "--zero-division" in text and "default" in text
    # One default for every subcommand: the measures library's.
    assert "default nan, the measures library's" in text


# --------------------------------------------------------------------------------------
# compare
# --------------------------------------------------------------------------------------
@pytest.fixture
def three(tmp_path) -> Path:
    return write(tmp_path / "three.json", json.dumps({"labels": LABELS, "matrices": MATRICES}))


def long_csv(tmp_path) -> Path:
    lines = ["classifier,actual,predicted,count"]
    for name, cm in MATRICES.items():
        lines += [
            f"{name},{LABELS[i]},{LABELS[j]},{c}"
            for i, row in enumerate(cm)
            for j, c in enumerate(row)
            if c
        ]  # zero cells left out
    return write(tmp_path / "three.csv", "\n".join(lines) + "\n")


def compare_json(capsys, *args) -> dict:
    status, out, err = run_main(capsys, "compare", *args, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def test_compare_json_matches_the_exact_analysis(three, capsys):
    from pdmeasure.exact import ExactSettings
    from pdmeasure.tables.exact import DatasetAnalysis

    data = compare_json(capsys, three)
    assert data["space"] == "uniform" and data["labels"] == LABELS
    analysis = DatasetAnalysis(
        {k: np.array(v) for k, v in MATRICES.items()},
        None,
        ExactSettings(),
        engine="e",
        dataset="d",
    )
    win = analysis.win_probabilities()
    win = win[win["space"] == "uniform"]
    got = {(r["classifier_a"], r["classifier_b"]): r["p_greater"] for r in data["win"]}
    assert got == {(a, b): p for a, b, p in zip(win.classifier_a, win.classifier_b, win.p_greater)}
    assert len(got) == 6
    summary = {r["classifier"]: r for r in data["summary"]}
    assert set(summary) == set(MATRICES)
    for name, cm in MATRICES.items():
        assert summary[name]["pd_default"] == pytest.approx(float(measures.preference_driven(cm)))
        assert summary[name]["min"] <= summary[name]["mean"] <= summary[name]["max"]
    shares = [r["p_first"] for r in data["share"]]
    assert sum(shares) == pytest.approx(1.0)
    # with two classifiers, the share ranked first is the (exact) win probability
    two = {"A": MATRICES["A"], "B": MATRICES["B"]}
    path = write(three.with_name("two.json"), json.dumps({"matrices": two}))
    data = compare_json(capsys, path)
    share_a = next(r for r in data["share"] if r["classifier"] == "A")
    win_a = next(r for r in data["win"] if r["classifier_a"] == "A")
    assert share_a["ci_low"] <= win_a["p_greater"] <= share_a["ci_high"]


def test_compare_grid_share_by_enumeration(three, capsys):
    data = compare_json(capsys, three, "--grid", "0,0.5,1")
    assert data["space"] == "grid" and data["grid_values"] == [0, 0.5, 1]
    grid = np.array(list(itertools.product([0, 0.5, 1], repeat=3)))
    stack = np.array(list(MATRICES.values()))
    pd_values = measures.preference_driven(stack[:, None], grid)  # (3 classifiers, 27 vectors)
    first = np.argmax(pd_values, axis=0)
    assert all(np.sum(pd_values == pd_values.max(axis=0), axis=0) == 1)  # no ties here
    expected = {name: np.mean(first == k) for k, name in enumerate(MATRICES)}
    got = {r["classifier"]: r["p_first"] for r in data["share"]}
    assert got == pytest.approx(expected, abs=1e-15)
    assert {r["method"] for r in data["share"]} == {"enumeration"}
    wins = {(r["classifier_a"], r["classifier_b"]): r["p_greater"] for r in data["win"]}
    assert wins[("A", "B")] == pytest.approx(np.mean(pd_values[0] > pd_values[1]))


def test_compare_text_and_plot(three, tmp_path, capsys):
    plot = tmp_path / "out" / "compare.png"
    status, out, err = run_main(capsys, "compare", three, "--plot", plot)
    assert status == 0, err
    assert "kappa uniform on [0, 1]^3" in out
    for heading in ("pd over the kappa space", "P(A beats B)", "ranks first"):
        assert heading in out
    lines = out.splitlines()
    for name in MATRICES:
        assert any(line.startswith(f"{name} ") for line in lines)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_compare_long_csv_equals_json(three, tmp_path, capsys):
    from_json = compare_json(capsys, three, "--grid", "0,1")
    from_csv = compare_json(capsys, long_csv(tmp_path), "--grid", "0,1")
    assert from_csv == from_json


def test_compare_leaves_out_an_undefined_classifier_under_nan(tmp_path, capsys):
    never_c = [[110, 10, 0], [20, 100, 0], [31, 10, 0]]  # class c is never predicted
    path = write(
        tmp_path / "nan.json", json.dumps({"labels": LABELS, "matrices": {"A": CM, "N": never_c}})
    )
    data = compare_json(capsys, path)  # the default, nan
    assert [r["classifier"] for r in data["summary"]] == ["A"]
    assert data["excluded"] == {"N": [{"class": "c", "ratio": "precision"}]}
    assert data["win"] == []
    status, out, _ = run_main(capsys, "compare", path, "--zero-division", "nan")
    assert status == 0 and "# left out: N (class 'c' is never predicted" in out
    data = compare_json(capsys, path, "--zero-division", "0")  # 0 keeps it
    assert [r["classifier"] for r in data["summary"]] == ["A", "N"] and data["excluded"] == {}


def test_compare_from_predictions(tmp_path, capsys):
    path = predictions_csv(tmp_path, MATRICES, LABELS)
    data = compare_json(capsys, *from_predictions(path, by="model"), "--grid", "0,1")
    assert sorted(r["classifier"] for r in data["summary"]) == sorted(MATRICES)


# --------------------------------------------------------------------------------------
# explore
# --------------------------------------------------------------------------------------
def test_explore_passes_its_arguments(three, tmp_path, capsys, monkeypatch):
    calls, written = [], []
    monkeypatch.setattr(
        tables_explorer, "explorer_data", lambda *args, **kwargs: calls.append((args, kwargs)) or {}
    )
    monkeypatch.setattr(render_explorer, "write_explorer", lambda *args: written.append(args))
    out_path = tmp_path / "explorer.html"
    status, out, err = run_main(capsys, "explore", three, "-o", out_path, "--grid", "0,0.5,1")
    assert status == 0, err
    ((args, kwargs),) = calls
    matrices, labels = args
    assert list(matrices) == list(MATRICES) and labels == LABELS
    assert written == [({}, str(out_path))]
    for name, cm in MATRICES.items():
        assert matrices[name].dtype.kind == "i"
        np.testing.assert_array_equal(matrices[name], cm)
    assert kwargs == {"dataset": "three", "grid_values": [0.0, 0.5, 1.0], "zero_division": "nan"}
    run_main(capsys, "explore", three, "-o", out_path, "--dataset", "iris", "--zero-division", "0")
    assert calls[-1][1] == {"dataset": "iris", "grid_values": None, "zero_division": 0.0}


def test_explore_to_an_unwritable_path(three, tmp_path, capsys):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder\n")
    target = blocker / "e.html"
    status, out, err = run_main(capsys, "explore", three, "-o", target)
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"pdmeasure: error: cannot write {target}")
    assert blocker.read_text() == "not a folder\n"
    status, _, err = run_main(capsys, "explore", three)
    assert status == 2 and "-o/--output" in err


def test_explore_writes_the_html_page(three, tmp_path, capsys):
    out_path = tmp_path / "explorer.html"
    status, out, err = run_main(capsys, "explore", three, "-o", out_path)
    assert status == 0, err
    html = out_path.read_text()
    assert "<html" in html.lower()
    for name in MATRICES:
        assert name in html
