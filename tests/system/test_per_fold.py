"""`cv.per_fold`: one job per fold and repeat, and one job for several classifiers (a batch of
`auto`), give byte-identical files, for both engines, for the k-fold CV and for the 5 x 2-fold
CV of the statistics (rule cross_validate_part, then cross_validate assembles the parts; the
rules cross_validate_batch_*).

The Weka engine replays the random draws of ``crossValidateModel`` (randomize, stratify and
each earlier fold's ``trainCV``) so that a fold computed alone is the fold of the whole run.
"""

from __future__ import annotations

import filecmp
import re

import pytest

from helpers import run_snakemake, select, sklearn_entry, small_config, write_config
from pdmeasure.pipeline.engines import get_engine

pytestmark = pytest.mark.slow


def _engines() -> list[str]:
    try:
        get_engine("weka").check_available()
    except Exception:  # noqa: BLE001 - any reason Weka cannot run: test the sklearn engine
        return ["sklearn"]
    return ["sklearn", "weka"]


def test_per_fold_jobs_give_the_same_files(tmp_path, uci_mirror):
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
    # false: a job per classifier; true: a part job per fold; auto planned for one core (the
    # batches' size then does not depend on the estimates): each engine's classifiers of car
    # in one batch's job.
    for per_fold in (False, True, "auto"):
        workdir = tmp_path / f"per_fold_{per_fold}"
        config["cv"]["per_fold"] = per_fold
        if per_fold == "auto":
            config["cv"]["plan_cores"] = 1
        write_config(workdir, config)
        cv5x2 = [
            f"results/stats/cv5x2/{engine}/car/{classifier}/predictions.csv.gz"
            for engine in engines
            for classifier in config["classifiers"][engine]
        ]
        done = run_snakemake(workdir, "--cores", "2", "results/confusion_matrices.csv", *cv5x2)
        assert done.returncode == 0, done.stderr[-3000:]
        runs[per_fold] = workdir / "results"
    parts = list((runs[True] / "benchmarks" / "cv").rglob("parts/*.tsv"))
    # A part job per fold and repeat, per classifier of each engine: 2 x 4 folds, 5 x 2 folds.
    assert len([p for p in parts if p.name.startswith("cv_")]) == 2 * 4 * 2 * len(engines)
    assert len([p for p in parts if p.name.startswith("cv5x2_")]) == 2 * 5 * 2 * len(engines)
    assert not list((runs[False] / "benchmarks" / "cv").rglob("parts/*.tsv"))
    batches = sorted(p.relative_to(runs["auto"]) for p in runs["auto"].rglob("batches/*.tsv"))
    assert [str(p) for p in batches] == [f"benchmarks/cv/{e}/car/batches/1.tsv" for e in engines]
    assert not list((runs["auto"] / "benchmarks" / "cv").rglob("car/*.tsv"))
    for engine in engines:
        for classifier in config["classifiers"][engine]:
            for part in (
                f"cv/{engine}/car/{classifier}/predictions.csv",
                f"cv/{engine}/car/{classifier}/confusion.csv",
                f"stats/cv5x2/{engine}/car/{classifier}/predictions.csv.gz",
            ):
                for other in (True, "auto"):
                    assert filecmp.cmp(runs[False] / part, runs[other] / part, shallow=False), (
                        part,
                        other,
                    )
            folder = runs[True] / f"cv/{engine}/car/{classifier}/parts"
            assert not folder.exists() or not list(folder.iterdir()), "part files are temporary"
    for other in (True, "auto"):
        assert filecmp.cmp(
            runs[False] / "confusion_matrices.csv",
            runs[other] / "confusion_matrices.csv",
            shallow=False,
        )


def test_per_fold_for_listed_datasets_only(tmp_path, uci_mirror):
    """`cv.per_fold: [car]` splits car's CVs into fold jobs and keeps one job per classifier
    for every other dataset (the Snakemake dry run's job counts)."""
    from helpers import repo_config

    config = small_config(uci_mirror)
    config["datasets"]["dermatology"] = repo_config()["datasets"]["dermatology"]
    select(config, datasets=["car", "dermatology"], engines=["sklearn"])
    config["cv"]["per_fold"] = ["car"]
    write_config(tmp_path, config)
    done = run_snakemake(tmp_path, "--cores", "1", "--dry-run", "--forceall")
    assert done.returncode == 0, done.stderr[-3000:]
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", done.stdout, flags=re.MULTILINE))
    classifiers = len(config["classifiers"]["sklearn"])
    folds = config["cv"]["folds"] * config["cv"]["repeats"]
    cv5x2 = 10 if config["stats"].get("cv5x2", True) else 0
    # car's folds as parts (and its cross_validate jobs assemble them); dermatology whole.
    assert int(counts["cross_validate_part"]) == classifiers * (folds + cv5x2)
    assert int(counts["cross_validate"]) == 2 * classifiers
    jobs = re.findall(r"rule cross_validate_part:\n(?:    .*\n)*?    wildcards: (.*)", done.stdout)
    assert jobs and all("dataset=car" in w for w in jobs), jobs[:3]
