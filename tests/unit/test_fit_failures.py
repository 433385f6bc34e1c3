"""A failing fit does not sink the study: the time limit (fold by fold, the same files as at
once), the failure recorded with a reason that names its fix, the status table and its
readers, and the statistics across datasets with a classifier missing on a dataset."""

from __future__ import annotations

import logging
import warnings

import numpy as np
import pandas as pd
import pytest

from helpers import WINE
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec, get_engine
from pdmeasure.pipeline.failures import FitTimeLimit, failure_reason, is_out_of_memory
from pdmeasure.pipeline.fitting import (
    FitPolicy,
    PartFit,
    UnitFiles,
    fit_or_record,
    fit_part,
    fit_part_or_record,
    fit_unit,
    part_failure,
)
from pdmeasure.pipeline.parts import Part
from pdmeasure.render.cd_diagram import render_cd_diagrams
from pdmeasure.render.stats_report import failed_markdown
from pdmeasure.tables.fits import (
    FAILED,
    OK,
    failed_fits,
    finished,
    finished_files,
    finished_unit_files,
    fits_path,
    fits_table,
    read_fits,
)
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.measures import MEASURE_COLUMNS
from pdmeasure.tables.stats_across import compare_across_datasets

LOG = logging.getLogger("test_fit_failures")
TREE = {"class": "sklearn.tree.DecisionTreeClassifier", "params": {"min_samples_leaf": 2}}
CV = CVSpec(folds=3, seed=1, repeats=2)


@pytest.fixture(scope="module")
def wine():
    data = pd.read_csv(WINE, dtype=str, keep_default_na=False)
    spec = DatasetSpec(
        name="wine",
        target="cultivar",
        classes=("1", "2", "3"),
        numeric_features=tuple(c for c in data.columns if c != "cultivar"),
    )
    return data, spec


def unit_files(folder, classifier="Tree") -> UnitFiles:
    return UnitFiles(
        str(folder / "cv" / classifier / "predictions.csv"),
        str(folder / "cv" / classifier / "confusion.csv"),
        str(folder / "cv5x2" / classifier / "predictions.csv.gz"),
    )


def keys(classifier="Tree") -> dict:
    return {"engine": "sklearn", "dataset": "wine", "classifier": classifier}


def test_fold_by_fold_gives_the_same_files_as_the_whole_scheme(tmp_path, wine):
    data, spec = wine
    engine = get_engine("sklearn")
    for name, limit in (("whole", None), ("folds", 1e9)):
        files = unit_files(tmp_path / name)
        fit_unit(engine, data, spec, keys(), TREE, CV, 1, [], files, LOG, time_limit=limit)
    for attribute in ("predictions", "confusion", "cv5x2"):
        whole = (tmp_path / "whole").joinpath(*_tail(unit_files(tmp_path), attribute))
        folds = (tmp_path / "folds").joinpath(*_tail(unit_files(tmp_path), attribute))
        assert whole.read_bytes() == folds.read_bytes(), attribute


def _tail(files: UnitFiles, attribute: str) -> tuple[str, ...]:
    """The last three parts of a file of ``files`` (scheme folder, classifier, name)."""
    return tuple(str(getattr(files, attribute)).split("/")[-3:])


class CountingEngine:
    """The scikit-learn engine, counting its calls of cross_validate."""

    def __init__(self):
        self.inner = get_engine("sklearn")
        self.calls = []

    def prepare(self, params):
        self.inner.prepare(params)

    def cross_validate(self, *args, **kwargs):
        self.calls.append(kwargs.get("only"))
        return self.inner.cross_validate(*args, **kwargs)


def test_a_tiny_time_limit_stops_after_the_first_fold_and_is_recorded(tmp_path, wine):
    data, spec = wine
    engine = CountingEngine()
    files = unit_files(tmp_path)
    row = fit_or_record(
        engine, data, spec, keys(), TREE, CV, 1, [], files, LOG, policy=FitPolicy(1e-9)
    )
    assert engine.calls == [((1, 1),)]
    assert row["status"] == FAILED
    assert row["reason"].startswith("time limit: the k-fold CV stopped after fold 1 of 6")
    assert "`cv.time_limit`" in row["reason"]
    assert row["reason"].endswith("(the change reruns its fitting job)")
    # No file of the classifier is left, not even its folder.
    assert not (tmp_path / "cv" / "Tree").exists()
    assert not (tmp_path / "cv5x2" / "Tree").exists()


def test_the_limit_is_checked_between_folds_of_each_scheme(tmp_path, wine):
    """A limit no fold passes: every fold of both schemes is fitted one by one, and the
    classifier finishes."""
    data, spec = wine
    engine = CountingEngine()
    row = fit_or_record(
        engine, data, spec, keys(), TREE, CV, 1, [], unit_files(tmp_path), LOG,
        policy=FitPolicy(1e9),
    )  # fmt: skip
    assert row["status"] == OK and row["reason"] == ""
    assert engine.calls == [((r, f),) for r in (1, 2) for f in (1, 2, 3)]
    assert (tmp_path / "cv5x2" / "Tree" / "predictions.csv.gz").is_file()


def test_with_stop_the_failure_fails_the_job(tmp_path, wine):
    data, spec = wine
    with pytest.raises(FitTimeLimit, match="cv.time_limit"):
        fit_or_record(
            get_engine("sklearn"), data, spec, keys(), TREE, CV, None, [],
            unit_files(tmp_path), LOG, policy=FitPolicy(1e-9, on_failure="stop"),
        )  # fmt: skip
    assert not (tmp_path / "cv" / "Tree").exists()


class FailingEngine(CountingEngine):
    """Raises ``error`` when it fits."""

    def __init__(self, error):
        super().__init__()
        self.error = error

    def cross_validate(self, *args, **kwargs):
        raise self.error


def test_out_of_memory_is_recorded_naming_the_memory_settings(tmp_path, wine, monkeypatch):
    """The k-fold CV is written, then the 5 x 2-fold CV runs out of memory: no file is left."""
    data, spec = wine

    def out_of_memory(*args, **kwargs):
        assert (tmp_path / "cv" / "Tree" / "confusion.csv").is_file()
        raise MemoryError()

    monkeypatch.setattr("pdmeasure.pipeline.fitting.cross_validate_5x2", out_of_memory)
    row = fit_or_record(
        get_engine("sklearn"), data, spec, keys(), TREE, CV, 1, [], unit_files(tmp_path), LOG,
        policy=FitPolicy(), mem_mb=1024,
    )  # fmt: skip
    assert row["status"] == FAILED
    reason = row["reason"]
    assert reason.startswith("out of memory (MemoryError)")
    assert "mem_mb = 1024 MB" in reason
    assert "`resources.cv_mem_mb.sklearn`" in reason and "`resources.scale`" in reason
    assert "`snakemake --forcerun cross_validate`" in reason
    assert not (tmp_path / "cv" / "Tree").exists()


def test_any_other_error_is_recorded_with_the_entry_to_fix(tmp_path, wine):
    data, spec = wine
    row = fit_or_record(
        FailingEngine(ValueError("no\nway")), data, spec, keys(), TREE, CV, None, [],
        unit_files(tmp_path), LOG, policy=FitPolicy(), log_path="logs/cv/sklearn/wine.log",
    )  # fmt: skip
    assert row["reason"].startswith(
        "ValueError: no way; its traceback is in logs/cv/sklearn/wine.log. Fix the entry "
        "`classifiers.sklearn.Tree`"
    )


#: The k-fold CV of ``CV`` as rule cross_validate_part's params give it.
SCHEME = {"name": "cv", "folds": 3, "repeats": 2, "seed": 1}


def test_a_part_fold_by_fold_gives_the_same_rows_as_at_once(wine):
    data, spec = wine
    part = Part("cv", 2, 5)
    engine = CountingEngine()
    job = PartFit(engine, data, spec, keys(), TREE, SCHEME, part)
    at_once = fit_part(job, LOG)
    by_fold = fit_part(job, LOG, time_limit=1e9)
    pd.testing.assert_frame_equal(at_once, by_fold)
    pairs = part.pairs(3)
    assert engine.calls == [pairs, *((pair,) for pair in pairs)]


def test_a_failed_part_is_written_to_its_file_and_fails_its_classifier(tmp_path, wine):
    """The part job records the failure in its part file and succeeds; the dataset's job
    then records the classifier as failed with the part's reason, and fits nothing."""
    data, spec = wine
    first, second = tmp_path / "cv_1-3.csv", tmp_path / "cv_4-6.csv"
    job = PartFit(get_engine("sklearn"), data, spec, keys(), TREE, SCHEME, Part.parse(first.stem))
    finished = fit_part_or_record(job, first, LOG, policy=FitPolicy())
    assert finished and part_failure(first) is None
    failing = FailingEngine(ValueError("no way"))
    job = PartFit(failing, data, spec, keys(), TREE, SCHEME, Part.parse(second.stem))
    log_path = "logs/cv_parts/sklearn/wine/Tree/cv_4-6.log"
    finished = fit_part_or_record(job, second, LOG, policy=FitPolicy(), log_path=log_path)
    assert not finished
    reason = part_failure(second)
    assert reason.startswith(
        "ValueError: no way; its traceback is in logs/cv_parts/sklearn/wine/Tree/cv_4-6.log. "
        "Fix the entry `classifiers.sklearn.Tree`"
    )
    engine = CountingEngine()
    row = fit_or_record(
        engine, data, spec, keys(), TREE, CV, None, [str(first), str(second)],
        unit_files(tmp_path), LOG, policy=FitPolicy(),
    )  # fmt: skip
    assert row["status"] == FAILED and row["reason"] == f"part cv_4-6: {reason}"
    assert engine.calls == []
    assert not (tmp_path / "cv" / "Tree").exists()


def test_a_part_passing_the_time_limit_is_recorded_and_with_stop_fails(tmp_path, wine):
    data, spec = wine
    path = tmp_path / "cv_1-3.csv"
    part = Part.parse(path.stem)
    job = PartFit(get_engine("sklearn"), data, spec, keys(), TREE, SCHEME, part)
    assert not fit_part_or_record(job, path, LOG, policy=FitPolicy(1e-9))
    assert part_failure(path).startswith(
        "time limit: the k-fold CV stopped after fold 1 of 3 of this part"
    )
    path.unlink()
    with pytest.raises(ValueError, match="no way"):
        failing = PartFit(
            FailingEngine(ValueError("no way")), data, spec, keys(), TREE, SCHEME, part
        )
        fit_part_or_record(failing, path, LOG, policy=FitPolicy(on_failure="stop"))
    assert not path.exists()


class JavaLikeError(Exception):
    """Stands for a JPype exception: its text starts with the Java class."""


def test_out_of_memory_is_found_behind_other_exceptions():
    java = JavaLikeError("java.lang.OutOfMemoryError: Java heap space")
    assert is_out_of_memory(java)
    try:
        try:
            raise java
        except JavaLikeError as inner:
            raise RuntimeError("weka failed") from inner
    except RuntimeError as outer:
        assert is_out_of_memory(outer)
        reason = failure_reason(outer, {"engine": "weka", "classifier": "J48"}, mem_mb=600)
    assert reason.startswith("out of memory (RuntimeError: weka failed)")
    assert "mem_mb = 600 MB" in reason and "Java heap" in reason
    assert "`resources.cv_mem_mb.weka` (the Weka JVM's heap is it minus 512 MB)" in reason
    assert not is_out_of_memory(ValueError("n_neighbors"))


def test_policy_values_are_checked():
    with pytest.raises(ValueError, match="cv.on_failure"):
        FitPolicy(on_failure="ignore")
    with pytest.raises(ValueError, match="cv.time_limit"):
        FitPolicy(time_limit=0)


def write_fits(folder, statuses: dict[str, str]) -> None:
    rows = [
        {
            "engine": "sklearn",
            "dataset": folder.name,
            "classifier": name,
            "status": status,
            "reason": "" if status == OK else "boom; to fit it again, delete it",
        }
        for name, status in statuses.items()
    ]
    write_csv(fits_table(rows), fits_path(folder))


def test_the_status_table_selects_the_finished_classifiers(tmp_path):
    fits = tmp_path / "cv" / "sklearn"
    write_fits(fits / "a", {"X": OK, "Y": FAILED, "Z": OK})
    (fits / "b").mkdir()  # written before the status table existed: all finished
    assert finished(fits / "a", ["Z", "Y", "X"]) == ["Z", "X"]
    assert finished(fits / "b", ["Z", "Y", "X"]) == ["Z", "Y", "X"]
    paths = [str(fits / d / c / "confusion.csv") for d in ("a", "b") for c in ("X", "Y", "Z")]
    assert finished_unit_files(paths) == [p for p in paths if "/a/Y/" not in p]
    assert finished_files(paths[:3], ["X"]) == paths[:1]
    failed = failed_fits([fits / "a", fits / "b"])
    assert failed[["dataset", "classifier"]].to_numpy().tolist() == [["a", "Y"]]
    assert read_fits(fits / "a")["status"].tolist() == [OK, FAILED, OK]
    assert read_fits(fits / "b") is None
    with pytest.raises(ValueError, match="neither"):
        fits_table([{"status": "maybe"}])


def test_the_report_lists_the_failed_fits():
    lines = failed_markdown(
        [{"engine": "weka", "dataset": "car", "classifier": "J48", "reason": "out of\nmemory"}]
    )
    assert lines[0].startswith("**Failed fits: 1**")
    assert "- `J48` on `car` (weka): out of memory" in lines
    assert failed_markdown([]) == []


def measures(values: dict[tuple[str, str], float]) -> pd.DataFrame:
    """accuracy rows of engine sklearn: (dataset, classifier) -> value."""
    rows = [
        {
            "engine": "sklearn",
            "dataset": dataset,
            "classifier": classifier,
            "measure": "accuracy",
            "kappa": "",
            "value": value,
        }
        for (dataset, classifier), value in values.items()
    ]
    frame = pd.DataFrame(rows)
    for column in MEASURE_COLUMNS:
        if column not in frame:
            frame[column] = ""
    return frame[list(MEASURE_COLUMNS)]


def scores(datasets, classifiers, skip=()) -> dict:
    rng = np.random.default_rng(3)
    return {
        (d, c): float(rng.uniform(0.5, 1.0))
        for d in datasets
        for c in classifiers
        if (d, c) not in skip
    }


def test_a_comparison_across_datasets_uses_the_datasets_where_all_finished(caplog):
    datasets, classifiers = ["d1", "d2", "d3", "d4"], ["A", "B", "C"]
    full = scores(datasets, classifiers)
    missing = {k: v for k, v in full.items() if k != ("d2", "C")}
    without_d2 = {k: v for k, v in full.items() if k[0] != "d2"}
    order = {"sklearn": classifiers}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing fit is no NaN warning
        got = compare_across_datasets(measures(missing), alpha=0.05, classifiers=order)
    expected = compare_across_datasets(measures(without_d2), alpha=0.05, classifiers=order)
    assert got.ranks["n_datasets"].eq(3).all()
    assert got.ranks["datasets"].eq("d1;d3;d4").all()
    pd.testing.assert_series_equal(got.ranks["average_rank"], expected.ranks["average_rank"])
    assert got.omnibus["note"].str.endswith("excluded: d2 (no fit: C)").all()
    assert "d2 (no fit: C)" in caplog.text


def test_a_classifier_without_any_fit_is_left_out_of_the_comparisons():
    datasets = ["d1", "d2", "d3"]
    values = scores(datasets, ["A", "B", "C"], skip={(d, "C") for d in datasets})
    got = compare_across_datasets(
        measures(values), alpha=0.05, classifiers={"sklearn": ["A", "B", "C"]}
    )
    assert got.ranks["classifier"].tolist() == ["A", "B"]
    assert got.ranks["n_datasets"].eq(3).all()
    assert got.omnibus["note"].str.contains("left out, no fit on any dataset: C").all()
    alone = compare_across_datasets(
        measures(scores(datasets, ["A"])), alpha=0.05, classifiers={"sklearn": ["A", "B"]}
    )
    assert alone.ranks.empty and alone.cd.empty
    assert alone.omnibus["note"].str.startswith("fewer than two classifiers").all()
    assert alone.omnibus["n_datasets"].eq(0).all()


def test_a_cd_diagram_of_a_comparison_not_run_says_so(tmp_path):
    alone = compare_across_datasets(
        measures(scores(["d1", "d2"], ["A"])), alpha=0.05, classifiers={"sklearn": ["A", "B"]}
    )
    path = tmp_path / "cd.png"
    render_cd_diagrams(alone.cd, {("sklearn", "accuracy", ""): path})
    assert path.stat().st_size > 0
