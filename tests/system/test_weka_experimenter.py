"""The result matrix against Weka's own Experimenter and its PairedCorrectedTTester, live.

Weka's Experimenter runs J48, BayesNet and RandomForest (default options) on Weka's glass,
labor and soybean files (tests/data/arff) with 10 runs of 10-fold cross-validation, as
tests/data/weka_experimenter/README.md records; its tester prints the result matrix of
``Percent_correct`` for two baselines at two significance levels. Then:

(i) :func:`pdmeasure.tables.result_matrix.result_matrix` on the Experimenter's per-fold
``Percent_correct`` gives the tester's means, standard deviations and markers cell by cell,
and :func:`pdmeasure.render.result_matrix.result_matrix_plain` its whole text;

(ii) the workflow, with the weka engine, 10 repeats of 10 folds and seed 1, gets Weka's
Experimenter's results on every run and fold (repeat r uses seed ``cv.seed + r - 1`` = r,
the seed of the Experimenter's run r; both number folds from 1): the same test and training
sizes and the same number of correct predictions, so accuracy x 100 is Weka's
``Percent_correct``; and the result matrix of the workflow's ``fold_measures.csv`` prints as
the tester's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

from helpers import REPO_ROOT, run_snakemake, weka_or_missing, write_config
from pdmeasure.render.result_matrix import result_matrix_plain, weka_number
from pdmeasure.tables.result_matrix import result_matrix
from pdmeasure.tables.stats import read_stats_table

pytestmark = [pytest.mark.slow, pytest.mark.weka]

ARFF = REPO_ROOT / "tests" / "data" / "arff"
#: Dataset name in the workflow -> the relation name Weka reports (``Key_Dataset``).
DATASETS = {"glass": "Glass", "labor": "labor-neg-data", "soybean": "soybean"}
#: Short name -> Weka class, in the experiment's order (the tester's columns (1), (2), (3)).
CLASSIFIERS = {
    "J48": "weka.classifiers.trees.J48",
    "BayesNet": "weka.classifiers.bayes.BayesNet",
    "RandomForest": "weka.classifiers.trees.RandomForest",
}
RUNS, FOLDS = 10, 10
#: (alpha, baseline position) of the tester runs.
TESTER_RUNS = [(0.05, 1), (0.01, 1), (0.05, 3), (0.01, 3)]
#: The columns of the Experimenter's results the tester needs, in the ARFF written for it.
COLUMNS = (
    "Key_Dataset",
    "Key_Run",
    "Key_Fold",
    "Key_Scheme",
    "Key_Scheme_options",
    "Key_Scheme_version_ID",
    "Number_of_training_instances",
    "Number_of_testing_instances",
    "Number_correct",
    "Percent_correct",
)


def weka_classpath() -> str:
    from pdmeasure.pipeline.engines.weka_engine import weka_jvm_module

    return str(Path(weka_jvm_module().lib_dir()) / "*")


def java(*args: str, timeout: float) -> subprocess.CompletedProcess:
    done = subprocess.run(
        ["java", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", weka_classpath(), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done


def split_tokens(line: str) -> list[str]:
    """One line of Weka's CSVResultListener: comma-separated tokens, a token that holds a
    comma single-quoted (weka.core.Utils.quote, backslash escapes); quotes kept."""
    tokens, current, quoted, escaped = [], [], False, False
    for ch in line.rstrip("\r\n"):
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == "'":
            quoted = not quoted
        elif ch == "," and not quoted:
            tokens.append("".join(current))
            current = []
            continue
        current.append(ch)
    tokens.append("".join(current))
    return tokens


def unquote(token: str) -> str:
    if len(token) >= 2 and token[0] == token[-1] == "'":
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return token


def read_experimenter(path: Path) -> list[dict[str, str]]:
    """The rows of a CSVResultListener file, the :data:`COLUMNS` as raw tokens."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    header = split_tokens(lines[0])
    rows = [dict(zip(header, split_tokens(line))) for line in lines[1:]]
    assert rows and all(len(r) == len(header) for r in rows), path
    return [{c: r[c] for c in COLUMNS} for r in rows]


def write_arff(rows: list[dict[str, str]], path: Path) -> None:
    """The results as Weka's InstancesResultListener lays them out: keys nominal (their
    quoted tokens as labels, in order of appearance), results numeric."""
    lines = ["@relation InstanceResultListener", ""]
    for column in COLUMNS:
        if column.startswith("Key_"):
            labels = list(dict.fromkeys(r[column] for r in rows))
            lines.append(f"@attribute {column} {{{','.join(labels)}}}")
        else:
            lines.append(f"@attribute {column} numeric")
    lines += ["", "@data"] + [",".join(r[c] for c in COLUMNS) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def experimenter(tmp_path_factory) -> tuple[Path, list[dict[str, str]]]:
    """The Experimenter's results of the three classifiers (run side by side, one JVM
    each), and the folder with them joined into ``results.arff``."""
    weka_or_missing()
    folder = tmp_path_factory.mktemp("experimenter")
    files = [("-T", str(ARFF / f"{name}.arff")) for name in DATASETS]

    def run(name: str) -> Path:
        out = folder / f"exp_{name}.csv"
        java(
            "weka.experiment.Experiment", "-r", "-L", "1", "-U", str(RUNS),
            *[token for pair in files for token in pair],
            "-D", f"weka.experiment.CSVResultListener -O {out}",
            "-P", "weka.experiment.CrossValidationResultProducer", "--", "-X", str(FOLDS),
            "-W", "weka.experiment.ClassifierSplitEvaluator", "--", "-W", CLASSIFIERS[name],
            timeout=900,
        )  # fmt: skip
        return out

    with ThreadPoolExecutor(max_workers=2) as pool:
        paths = list(pool.map(run, CLASSIFIERS))
    rows = [row for path in paths for row in read_experimenter(path)]
    write_arff(rows, folder / "results.arff")
    return folder, rows


def percent_folds(rows: list[dict[str, str]]) -> pd.DataFrame:
    """The Experimenter's ``Percent_correct`` as fold values of our tables."""
    short = {weka: name for name, weka in CLASSIFIERS.items()}
    return pd.DataFrame(
        {
            "engine": "weka",
            "dataset": [unquote(r["Key_Dataset"]) for r in rows],
            "classifier": [short[r["Key_Scheme"]] for r in rows],
            "scheme": "cv",
            "repeat": [int(r["Key_Run"]) for r in rows],
            "fold": [int(r["Key_Fold"]) for r in rows],
            "n_test": [float(r["Number_of_testing_instances"]) for r in rows],
            "n_train": [float(r["Number_of_training_instances"]) for r in rows],
            "measure": "Percent_correct",
            "kappa": "",
            "kappa_values": "",
            "value": [float(r["Percent_correct"]) for r in rows],
        }
    )


@pytest.fixture(scope="module")
def tester(experimenter) -> dict[tuple[float, int], str]:
    """(alpha, baseline) -> the tester's result matrix, from its ``Dataset`` line on."""
    folder, _ = experimenter
    column = COLUMNS.index("Percent_correct") + 1
    out = {}
    for alpha, base in TESTER_RUNS:
        done = java(
            "weka.experiment.PairedCorrectedTTester", "-t", str(folder / "results.arff"),
            "-D", "1", "-R", "2", "-F", "3", "-G", "4,5,6", "-c", str(column),
            "-b", str(base), "-S", str(alpha), "-V",
            timeout=300,
        )  # fmt: skip
        text = done.stdout
        assert f"Confidence: {alpha:g} (two tailed)" in text, text[:2000]
        out[alpha, base] = text[text.index("\nDataset ") + 1 :].rstrip("\n") + "\n"
    return out


#: A cell of the plain text: ``mean(std)`` and, after a column other than the baseline, a
#: blank or its marker.
CELL = re.compile(r"(-?\d+\.\d+)\(\s*(-?\d+\.\d+)\)( [v*])?")


def parsed_cells(text: str) -> dict[str, list[tuple[str, str, str]]]:
    """Dataset -> its (mean, std, marker) texts in the printed column order."""
    lines = text.splitlines()
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"-"}]
    out = {}
    for line in lines[rules[0] + 1 : rules[1]]:
        cells = CELL.findall(line[25:])
        out[line[:25].strip()] = [(m, s, marker.strip()) for m, s, marker in cells]
    return out


def table_cells(matrix: pd.DataFrame, datasets) -> dict[str, list[tuple[str, str, str]]]:
    """The same from a result matrix: the baseline first, then the others in order."""
    base = matrix["baseline"].iloc[0]
    out = {}
    for dataset, name in datasets.items():
        rows = matrix[matrix["dataset"] == dataset]
        rows = pd.concat([rows[rows["classifier"] == base], rows[rows["classifier"] != base]])
        out[name] = [
            (weka_number(r.mean, 2), weka_number(r.std, 2), r.marker) for r in rows.itertuples()
        ]
    return out


def weka_labels(text: str) -> dict[str, str]:
    """Short name -> the name the tester's key prints for it."""
    key = text.split("\nKey:\n", 1)[1].splitlines()
    return {name: line.split(") ", 1)[1] for name, line in zip(CLASSIFIERS, key)}


@pytest.mark.parametrize(("alpha", "base"), TESTER_RUNS)
def test_result_matrix_of_wekas_folds_is_the_testers(experimenter, tester, alpha, base):
    _, rows = experimenter
    text = tester[alpha, base]
    matrix = result_matrix(
        percent_folds(rows),
        measure="Percent_correct",
        baseline=list(CLASSIFIERS)[base - 1],
        alpha=alpha,
    )
    weka_names = {name: name for name in DATASETS.values()}
    assert table_cells(matrix, weka_names) == parsed_cells(text)
    assert result_matrix_plain(matrix, labels=weka_labels(text)) == text


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory) -> Path:
    """The workflow's per-fold values of the three files (weka engine, 10 x 10-fold CV)."""
    weka_or_missing()
    workdir = tmp_path_factory.mktemp("experimenter_pipeline")
    (workdir / "data").mkdir()
    for name in DATASETS:
        shutil.copy(ARFF / f"{name}.arff", workdir / "data")
    config = {
        "run": {
            "datasets": list(DATASETS),
            "engines": ["weka"],
            "classifiers": {"weka": list(CLASSIFIERS)},
        },
        "results": "results",
        "cv": {"folds": FOLDS, "seed": 1, "repeats": RUNS},
        "classifiers": {
            "weka": {name: {"class": cls, "options": []} for name, cls in CLASSIFIERS.items()}
        },
        "datasets": {
            name: {"path": f"data/{name}.arff", "kappa_grid": [0, 1]} for name in DATASETS
        },
        "stats": {"cv5x2": False},
        "exact": {"monte_carlo_samples": 2000},
        "uncertainty": {"draws": 200},
    }
    write_config(workdir, config)
    targets = [f"results/stats/weka/{name}/fold_measures.csv" for name in DATASETS]
    done = run_snakemake(workdir, "--cores", "2", *targets, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    return workdir / "results"


@pytest.fixture(scope="module")
def fold_values(pipeline) -> pd.DataFrame:
    return pd.concat(
        [
            read_stats_table(pipeline / "stats" / "weka" / name / "fold_measures.csv")
            for name in DATASETS
        ],
        ignore_index=True,
    )


def test_workflow_folds_are_the_experimenters(experimenter, fold_values):
    """Every (classifier, dataset, repeat, fold): Weka's sizes and number correct."""
    _, rows = experimenter
    theirs = percent_folds(rows).assign(
        correct=[float(r["Number_correct"]) for r in rows],
        dataset=lambda f: f["dataset"].map({v: k for k, v in DATASETS.items()}),
    )
    ours = fold_values[(fold_values["measure"] == "accuracy") & (fold_values["scheme"] == "cv")]
    keys = ["dataset", "classifier", "repeat", "fold"]
    both = ours.merge(theirs, on=keys, how="outer", suffixes=("", "_weka"), indicator=True)
    assert (both["_merge"] == "both").all(), both[both["_merge"] != "both"][keys].head()
    assert len(both) == len(DATASETS) * len(CLASSIFIERS) * RUNS * FOLDS
    assert (both["n_test"] == both["n_test_weka"]).all()
    assert (both["n_train"] == both["n_train_weka"]).all()
    correct = (both["value"] * both["n_test"]).round()
    assert (correct == both["correct"]).all(), both[correct != both["correct"]][keys].head()
    # Weka's percentage: 100 * correct / tested, in that order of operations
    assert (100 * correct / both["n_test"] == both["value_weka"]).all()


@pytest.mark.parametrize(("alpha", "base"), TESTER_RUNS)
def test_result_matrix_of_the_workflow_is_the_testers(fold_values, tester, alpha, base):
    matrix = result_matrix(
        fold_values,
        measure="accuracy",
        baseline=list(CLASSIFIERS)[base - 1],
        alpha=alpha,
        classifiers=list(CLASSIFIERS),
        datasets=list(DATASETS),
        scale=100,
    )
    assert table_cells(matrix, DATASETS) == parsed_cells(tester[alpha, base])
