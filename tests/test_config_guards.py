"""Checks that stop a run at config time, before any job: grid sizes and classifier parameters.

Each asserts the message (dataset, key, size, fix) and, for the Snakemake runs, that nothing
was written.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from conftest import repo_config, select, write_config

import pdmeasure.pipeline.config as pdconfig
from pdmeasure.exact import ExactSettings
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.exact_tables import DatasetAnalysis


def many_classes_csv(path, n_classes: int, rows_per_class: int = 3) -> list[str]:
    """A local CSV with ``n_classes`` classes (first appearance c00, c01, ...); returns them."""
    classes = [f"c{i:02d}" for i in range(n_classes)]
    lines = ["colour,label"] + [
        f"{'red' if r % 2 else 'blue'},{c}" for r in range(rows_per_class) for c in classes
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return classes


def local_config(classes: list[str], **dataset) -> dict:
    config = copy.deepcopy(repo_config())
    config["mirror"] = None
    config["datasets"] = {
        "many": {
            "path": "many.csv",
            "target": "label",
            "classes": classes,
            "numeric_features": [],
            **dataset,
        }
    }
    return select(config, datasets=["many"], engines=["sklearn"])


def validated(config: dict) -> dict:
    return pdconfig.prepare_config(config)


def test_twenty_classes_with_a_three_value_grid_stop_at_config_time(tmp_path, snakemake_runner):
    classes = many_classes_csv(tmp_path / "many.csv", 20)
    write_config(tmp_path, local_config(classes, kappa_grid=[0, 0.5, 1]))
    # The refusal comes while the workflow is parsed, before any job: a short timeout holds.
    done = snakemake_runner(tmp_path, "--cores", "2", timeout=10)
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert "config key `datasets.many.kappa_grid`" in out
    assert "3.49e+09 kappa vectors" in out and "`histogram.max_grid_vectors`" in out
    assert "kappa_grid: null" in out
    assert not (tmp_path / "results").exists() and not (tmp_path / "logs").exists()


@pytest.mark.parametrize("n_classes", [19, 20, 50])
def test_fine_grid_past_int64_passes(n_classes):
    # 11**19 and more vectors no longer fit int64; the exact analysis counts them in float64.
    config = validated(local_config([f"c{i:02d}" for i in range(n_classes)], kappa_grid=None))
    assert config["exact"]["fine_grid_values"] ** n_classes > 2**63
    pdconfig.check_sizes(config)


def test_fine_grid_past_the_float_range_names_the_key():
    config = local_config([f"c{i:03d}" for i in range(300)], kappa_grid=None)
    config["exact"]["fine_grid_values"] = 10
    validated(config)
    config["exact"]["fine_grid_values"] = 11  # 11**300 = 2.62e+312 > 2**1023
    with pytest.raises(ConfigError) as caught:
        pdconfig.check_sizes(config)
    message = str(caught.value)
    assert "config key `exact.fine_grid_values`" in message
    assert "300 classes of dataset `many`" in message and "2.62e+312 kappa vectors" in message
    assert "`exact.fine_grid_values: 10` or fewer" in message
    config["exact"]["fine_grid_values"] = 10
    pdconfig.check_sizes(config)


def test_grid_limit_is_the_config_key():
    classes = [f"c{i}" for i in range(8)]
    config = validated(local_config(classes, kappa_grid=[0, 0.5, 1]))  # 3**8 = 6561
    config["histogram"]["max_grid_vectors"] = 6560
    with pytest.raises(
        ConfigError,
        match=r"6\.56e\+03 kappa vectors.*above `histogram"
        r"\.max_grid_vectors` \(6\.56e\+03\)",
    ):
        pdconfig.check_sizes(config)
    config["histogram"]["max_grid_vectors"] = 6561
    pdconfig.check_sizes(config)


def test_largest_base_is_exact():
    assert pdconfig._largest_base(pdconfig.MAX_COUNTABLE_VECTORS, 295) == 11
    assert pdconfig._largest_base(pdconfig.MAX_COUNTABLE_VECTORS, 296) == 10
    assert pdconfig._largest_base(2**63 - 1, 18) == 11
    assert pdconfig._largest_base(2**63 - 1, 19) == 9
    assert pdconfig._largest_base(10**8, 20) == 2
    assert pdconfig._largest_base(6561, 8) == 3
    assert pdconfig._largest_base(6560, 8) == 2


def test_paper_grids_pass():
    pdconfig.check_sizes(validated(copy.deepcopy(repo_config())))


def test_null_grid_leaves_the_grid_space_out_of_the_exact_analysis():
    cm = np.array([[5, 1, 0], [2, 6, 1], [0, 1, 4]])
    other = np.array([[4, 2, 0], [1, 7, 1], [1, 0, 4]])
    settings = ExactSettings(fine_grid_values=3, monte_carlo_samples=100)
    with_grid = DatasetAnalysis(
        {"a": cm, "b": other}, [0, 1], settings, engine="e", dataset="d"
    ).summary()
    without = DatasetAnalysis(
        {"a": cm, "b": other}, None, settings, engine="e", dataset="d"
    ).summary()
    assert set(with_grid["space"]) == {"grid", "fine", "uniform"}
    assert set(without["space"]) == {"fine", "uniform"}


def test_null_grid_plans_no_grid_histogram(tmp_path, snakemake_runner):
    classes = many_classes_csv(tmp_path / "many.csv", 3)
    write_config(tmp_path, local_config(classes, kappa_grid=None))
    done = snakemake_runner(tmp_path, "--dry-run", "--cores", "1")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "rule grid_histogram:" not in done.stdout
    assert "rule grid_figure7:" not in done.stdout
    assert "rule exact_analysis:" in done.stdout


@pytest.mark.parametrize(
    "classifier, params, words",
    [
        (
            "RandomForest",
            {"n_estimators": -5},
            "'n_estimators' parameter of RandomForestClassifier",
        ),
        ("DecisionTree", {"criterion": "best"}, "'criterion' parameter of DecisionTreeClassifier"),
        ("NaiveBayes", {"alpha": -1.0}, "'alpha' parameter of CategoricalNB"),
        ("Bagging", {"max_samples": 0}, "'max_samples' parameter of BaggingClassifier"),
    ],
)
def test_classifier_parameters_are_checked_at_config_time(classifier, params, words):
    raw = select(copy.deepcopy(repo_config()), engines=["sklearn"])
    raw["classifiers"]["sklearn"][classifier]["params"] = params
    config = validated(raw)
    with pytest.raises(ConfigError) as caught:
        pdconfig.check_engines(config)
    message = str(caught.value)
    assert message.startswith(f"config key `classifiers.sklearn.{classifier}`")
    assert words in message


def test_bad_classifier_parameter_stops_snakemake_before_any_job(tmp_path, snakemake_runner):
    classes = many_classes_csv(tmp_path / "many.csv", 3)
    config = local_config(classes)
    config["classifiers"]["sklearn"]["RandomForest"]["params"] = {"n_estimators": -5}
    write_config(tmp_path, config)
    done = snakemake_runner(tmp_path, "--cores", "1")
    assert done.returncode != 0
    assert "config key `classifiers.sklearn.RandomForest`" in done.stdout + done.stderr
    assert not (tmp_path / "results").exists()


def test_misspelt_weka_class_is_refused_at_config_time():
    from pdmeasure.pipeline.engines.weka_engine import bundled_weka_classes

    if not bundled_weka_classes():
        pytest.skip("python-weka-wrapper3 is not installed")
    raw = select(copy.deepcopy(repo_config()), engines=["weka"])
    raw["classifiers"]["weka"]["J48"] = {"class": "weka.classifiers.trees.J84"}
    config = validated(raw)
    with pytest.raises(ConfigError) as caught:
        pdconfig.check_engines(config)
    message = str(caught.value)
    assert message.startswith("config key `classifiers.weka.J48`")
    assert "'weka.classifiers.trees.J84' is not in the bundled weka.jar" in message
    assert "did you mean weka.classifiers.trees.J48" in message
