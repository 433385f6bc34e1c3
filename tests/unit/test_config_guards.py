"""Checks that stop a run at config time, before any job: grid sizes and classifier parameters.

Each asserts the message (dataset, key, size, fix); tests/workflow/test_config_runs.py runs
the real workflow on such configs.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import pdmeasure.pipeline.config as pdconfig
from helpers import many_classes_config, missing, repo_config, select
from pdmeasure.exact import ExactSettings
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.tables.exact import DatasetAnalysis


def validated(config: dict) -> dict:
    return pdconfig.prepare_config(config)


@pytest.mark.parametrize("n_classes", [19, 20, 50])
def test_fine_grid_past_int64_passes(n_classes):
    # 11**19 and more vectors no longer fit int64; the exact analysis counts them in float64.
    config = validated(
        many_classes_config([f"c{i:02d}" for i in range(n_classes)], kappa_grid=None)
    )
    assert config["exact"]["fine_grid_values"] ** n_classes > 2**63
    pdconfig.check_sizes(config)


def test_fine_grid_past_the_float_range_names_the_key():
    config = many_classes_config([f"c{i:03d}" for i in range(300)], kappa_grid=None)
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
    config = validated(many_classes_config(classes, kappa_grid=[0, 0.5, 1]))  # 3**8 = 6561
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
    assert pdconfig.largest_base(pdconfig.MAX_COUNTABLE_VECTORS, 295) == 11
    assert pdconfig.largest_base(pdconfig.MAX_COUNTABLE_VECTORS, 296) == 10
    assert pdconfig.largest_base(2**63 - 1, 18) == 11
    assert pdconfig.largest_base(2**63 - 1, 19) == 9
    assert pdconfig.largest_base(10**8, 20) == 2
    assert pdconfig.largest_base(6561, 8) == 3
    assert pdconfig.largest_base(6560, 8) == 2


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


def test_misspelt_weka_class_is_refused_at_config_time():
    from pdmeasure.pipeline.engines.weka_engine import bundled_weka_classes

    if not bundled_weka_classes():
        missing("python package", "python-weka-wrapper3 is not installed")
    raw = select(copy.deepcopy(repo_config()), engines=["weka"])
    raw["classifiers"]["weka"]["J48"] = {"class": "weka.classifiers.trees.J84"}
    config = validated(raw)
    with pytest.raises(ConfigError) as caught:
        pdconfig.check_engines(config)
    message = str(caught.value)
    assert message.startswith("config key `classifiers.weka.J48`")
    assert "'weka.classifiers.trees.J84' is not in the bundled weka.jar" in message
    assert "did you mean weka.classifiers.trees.J48" in message
