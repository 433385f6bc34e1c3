"""A failing fit does not sink the study: a scikit-learn classifier whose fit fails on one
dataset (k-nearest neighbours with more neighbours than labor's training folds have rows) is a
failed row of that dataset's fits.csv, its dataset's other classifiers keep their results,
everything after the fits is built from what finished, and the report and the end of the log
list the failure; with `cv.on_failure: stop` the run fails; `cv.time_limit` stops a fit."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest
import yaml

from helpers import REPO_ROOT, run_snakemake
from pdmeasure.tables.fits import FAILED, OK, read_fits
from pdmeasure.tables.measures import read_measures

ARFF = REPO_ROOT / "tests" / "data" / "arff"
CLASSIFIERS = ["DecisionTree", "NaiveBayes", "KNN"]
#: More neighbours than labor's training folds have rows (57 rows, 3 folds: 38), fewer than
#: glass's (214 rows: 142).
KNN = {
    "class": "sklearn.neighbors.KNeighborsClassifier",
    "params": {"n_neighbors": 45},
    "encoding": "onehot",
}


def study(workdir, classifiers=CLASSIFIERS, **cv) -> list[str]:
    """glass and labor, scikit-learn's ``classifiers`` (KNN and KNN40 fail on labor), 3
    folds, no 5 x 2-fold CV."""
    data = workdir / "data"
    data.mkdir(parents=True)
    for name in ("glass", "labor"):
        shutil.copy(ARFF / f"{name}.arff", data / f"{name}.arff")
    shutil.copy(REPO_ROOT / "config.yaml", workdir / "config.yaml")
    config = {
        "run": {
            "datasets": ["dataset_files"],
            "engines": ["sklearn"],
            "classifiers": {"sklearn": list(classifiers)},
        },
        "cv": {"folds": 3, **cv},
        "stats": {"cv5x2": False},
        "dataset_files": [{"glob": "data/*.arff"}],
        "classifiers": {"sklearn": {"KNN": KNN, "KNN40": {**KNN, "params": {"n_neighbors": 40}}}},
    }
    (workdir / "study.yaml").write_text(yaml.safe_dump(config))
    return ["--configfile", "study.yaml"]


@pytest.mark.slow
def test_a_failed_fit_is_recorded_and_the_study_is_built_from_what_finished(tmp_path):
    done = run_snakemake(tmp_path, *study(tmp_path), "--cores", "2")
    assert done.returncode == 0, done.stderr[-4000:]
    results = tmp_path / "results"

    labor = read_fits(results / "cv" / "sklearn" / "labor")
    assert labor["classifier"].tolist() == CLASSIFIERS
    assert labor["status"].tolist() == [OK, OK, FAILED]
    reason = labor["reason"].iloc[2]
    assert reason.startswith("ValueError: Expected n_neighbors <= n_samples_fit")
    assert "`classifiers.sklearn.KNN`" in reason
    assert reason.endswith("(the change reruns its fitting job)")
    assert read_fits(results / "cv" / "sklearn" / "glass")["status"].eq(OK).all()
    # The failed classifier has no files; the dataset's other classifiers keep theirs.
    labor_folder = results / "cv" / "sklearn" / "labor"
    folders = sorted(p.name for p in labor_folder.iterdir() if not p.name.startswith("."))
    assert folders == ["DecisionTree", "NaiveBayes", "fits.csv"]

    measures = read_measures(results / "measures.csv")
    fitted = set(zip(measures["dataset"], measures["classifier"]))
    assert fitted == {(d, c) for d in ("glass", "labor") for c in CLASSIFIERS} - {("labor", "KNN")}
    ranking = pd.read_csv(results / "tables" / "table_labor_sklearn.csv", keep_default_na=False)
    assert sorted(set(ranking["classifier"])) == ["DecisionTree", "NaiveBayes"]

    # Across datasets: labor lacks KNN, so every comparison rests on glass, and says so.
    ranks = pd.read_csv(results / "stats" / "across_ranks.csv", keep_default_na=False)
    assert set(ranks["datasets"]) == {"glass"} and set(ranks["classifier"]) == set(CLASSIFIERS)
    omnibus = pd.read_csv(results / "stats" / "across_omnibus.csv", keep_default_na=False)
    assert omnibus["note"].str.contains("excluded: labor (no fit: KNN)", regex=False).all()

    top = (results / "stats" / "report.md").read_text().split("## ")[0]
    assert "**Failed fits: 1**" in top
    assert "- `KNN` on `labor` (sklearn): ValueError: Expected n_neighbors" in top
    assert "1 fit(s) failed" in done.stderr
    assert "sklearn/labor/KNN: ValueError: Expected n_neighbors" in done.stderr


@pytest.mark.slow
def test_a_dataset_without_any_finished_fit_gets_its_tables_without_rows(tmp_path):
    done = run_snakemake(tmp_path, *study(tmp_path, ["KNN", "KNN40"]), "--cores", "2")
    assert done.returncode == 0, done.stderr[-4000:]
    results = tmp_path / "results"
    assert read_fits(results / "cv" / "sklearn" / "labor")["status"].eq(FAILED).all()
    assert read_measures(results / "measures" / "sklearn" / "labor.csv").empty
    why = "No classifier of engine sklearn finished its fit on labor"
    assert why in (results / "tables" / "table_labor_sklearn_ci.md").read_text()
    assert why in (results / "explorer" / "sklearn" / "labor.html").read_text()
    assert set(read_measures(results / "measures.csv")["dataset"]) == {"glass"}
    assert "**Failed fits: 2**" in (results / "stats" / "report.md").read_text()


def test_with_on_failure_stop_the_failed_fit_fails_the_run(tmp_path):
    args = study(tmp_path, on_failure="stop")
    done = run_snakemake(tmp_path, *args, "--cores", "1", "results/cv/sklearn/labor")
    assert done.returncode != 0
    assert "Expected n_neighbors <= n_samples_fit" in done.stderr
    assert "Error in rule cross_validate" in done.stderr
    assert not (tmp_path / "results" / "cv" / "sklearn" / "labor").exists()


def test_a_time_limit_stops_each_fit_after_its_first_fold(tmp_path):
    args = study(tmp_path, time_limit=1e-6)
    done = run_snakemake(tmp_path, *args, "--cores", "1", "results/cv/sklearn/glass")
    assert done.returncode == 0, done.stderr[-4000:]
    glass = read_fits(tmp_path / "results" / "cv" / "sklearn" / "glass")
    assert glass["status"].eq(FAILED).all()
    assert (
        glass["reason"].str.startswith("time limit: the k-fold CV stopped after fold 1 of 3").all()
    )
    assert "3 fit(s) failed" in done.stderr


def test_a_failed_part_job_is_recorded_and_its_dataset_keeps_the_others(tmp_path):
    """KNN cut into 2 part jobs on labor: both parts fail, and succeed as jobs with their
    reason in the part file; labor's fitting job records KNN as failed with it."""
    args = study(tmp_path, parts={"labor": {"KNN": 2}})
    done = run_snakemake(tmp_path, *args, "--cores", "1", "results/cv/sklearn/labor")
    assert done.returncode == 0, done.stderr[-4000:]
    part_logs = tmp_path / "logs" / "cv_parts" / "sklearn" / "labor" / "KNN"
    assert sorted(p.name for p in part_logs.iterdir()) == ["cv_1-2.log", "cv_3-3.log"]
    labor = read_fits(tmp_path / "results" / "cv" / "sklearn" / "labor")
    assert labor["status"].tolist() == [OK, OK, FAILED]
    reason = labor["reason"].iloc[2]
    assert reason.startswith("part cv_1-2: ValueError: Expected n_neighbors <= n_samples_fit")
    assert "logs/cv_parts/sklearn/labor/KNN/cv_1-2.log" in reason
    assert "`classifiers.sklearn.KNN`" in reason
    folder = tmp_path / "results" / "cv" / "sklearn" / "labor"
    folders = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    assert folders == ["DecisionTree", "NaiveBayes", "fits.csv"]
    # The part files are temporary: gone once assembled, as after fits that finish.
    assert not list((tmp_path / "results" / "cv_parts").rglob("*.csv"))
    assert "1 fit(s) failed" in done.stderr


def test_with_on_failure_stop_a_failed_part_job_fails_the_run(tmp_path):
    args = study(tmp_path, parts={"labor": {"KNN": 2}}, on_failure="stop")
    done = run_snakemake(tmp_path, *args, "--cores", "1", "results/cv/sklearn/labor")
    assert done.returncode != 0
    assert "Error in rule cross_validate_part" in done.stderr
    assert "Expected n_neighbors <= n_samples_fit" in done.stderr
    assert not (tmp_path / "results" / "cv" / "sklearn" / "labor").exists()
