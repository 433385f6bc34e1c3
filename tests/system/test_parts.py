"""`cv.parts`: a classifier cut into part jobs gives byte-identical files, for both engines,
for the k-fold CV and for the 5 x 2-fold CV of the statistics (rule cross_validate_part,
then the dataset's cross_validate job assembles the parts).

The Weka engine replays the random draws of ``crossValidateModel`` (randomize, stratify and
each earlier fold's ``trainCV``) so that a fold computed alone is the fold of the whole run.
"""

from __future__ import annotations

import filecmp
import re

import pytest

from helpers import repo_config, run_snakemake, select, sklearn_entry, small_config, write_config
from pdmeasure.pipeline.engines import get_engine

pytestmark = pytest.mark.slow


def _engines() -> list[str]:
    try:
        get_engine("weka").check_available()
    except Exception:  # noqa: BLE001 - any reason Weka cannot run: test the sklearn engine
        return ["sklearn"]
    return ["sklearn", "weka"]


def test_part_jobs_give_the_same_files(tmp_path, uci_mirror):
    engines = _engines()
    config = select(small_config(uci_mirror), engines=engines)
    config["classifiers"] = {
        "sklearn": {
            "DecisionTree": sklearn_entry("DecisionTree", criterion="entropy"),
            "RandomForest": sklearn_entry("RandomForest", n_estimators=5),
        },
        "weka": {
            "J48": {"class": "weka.classifiers.trees.J48", "options": []},
            "RandomForest": {"class": "weka.classifiers.trees.RandomForest", "options": "-I 10"},
        },
    }
    config["cv"] = {"folds": 4, "seed": 3, "repeats": 2}
    config["stats"] = {**config.get("stats", {}), "cv5x2": True}
    runs = {}
    # none: one job per engine; 3: RandomForest's 8 folds in 3 parts, 5 x 2 folds in 3; 99: a
    # part per fold of both classifiers.
    splits = {
        "none": {},
        "three": {"car": {"RandomForest": 3}},
        "every": {"car": {"RandomForest": 99, "DecisionTree": 99, "J48": 99}},
    }
    for name, parts in splits.items():
        workdir = tmp_path / name
        config["cv"]["parts"] = parts
        write_config(workdir, config)
        done = run_snakemake(workdir, "--cores", "2", "results/confusion_matrices.csv")
        assert done.returncode == 0, done.stderr[-3000:]
        runs[name] = workdir / "results"
    assert not (runs["none"] / "benchmarks" / "cv_parts").exists()
    three = list((runs["three"] / "benchmarks" / "cv_parts").rglob("*.tsv"))
    assert sorted({p.parent.name for p in three}) == ["RandomForest"]
    assert len(three) == 2 * 3 * len(engines)
    every = list((runs["every"] / "benchmarks" / "cv_parts").rglob("*.tsv"))
    assert len(every) == 2 * (8 + 10) * len(engines)
    for engine in engines:
        for classifier in config["classifiers"][engine]:
            for path in (
                f"cv/{engine}/car/{classifier}/predictions.csv",
                f"cv/{engine}/car/{classifier}/confusion.csv",
                f"stats/cv5x2/{engine}/car/{classifier}/predictions.csv.gz",
            ):
                for other in ("three", "every"):
                    same = filecmp.cmp(runs["none"] / path, runs[other] / path, shallow=False)
                    assert same, (path, other)
    for other in ("three", "every"):
        assert not list((runs[other] / "cv_parts").rglob("*.csv")), "part files are temporary"
        assert filecmp.cmp(
            runs["none"] / "confusion_matrices.csv",
            runs[other] / "confusion_matrices.csv",
            shallow=False,
        )


def test_parts_for_listed_datasets_only(tmp_path, uci_mirror):
    """`cv.parts: {car: ...}` splits car's RandomForest into part jobs and keeps one fitting
    job per engine for every other dataset (the Snakemake dry run's job counts)."""
    config = small_config(uci_mirror)
    config["datasets"]["dermatology"] = repo_config()["datasets"]["dermatology"]
    select(config, datasets=["car", "dermatology"], engines=["sklearn"])
    config["cv"]["parts"] = {"car": {"RandomForest": 2}}
    write_config(tmp_path, config)
    done = run_snakemake(tmp_path, "--cores", "1", "--dry-run", "--forceall")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", done.stdout, flags=re.MULTILINE))
    schemes = 2 if config["stats"].get("cv5x2", True) else 1
    assert int(counts["cross_validate_part"]) == 2 * schemes
    assert int(counts["cross_validate"]) == 2
    jobs = re.findall(r"rule cross_validate_part:\n(?:    .*\n)*?    wildcards: (.*)", done.stdout)
    assert jobs and all("dataset=car" in w and "RandomForest" in w for w in jobs), jobs[:3]
