"""One's own Weka classifier by config alone: a class name and an options string, cross-validated
in a JVM on the `.test` wine data, and bad options refused as config errors."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

import pdmeasure.pipeline.config as pdconfig
from helpers import WINE, repo_config, select
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.engines import CVSpec, DatasetSpec


def smo_config(options: str) -> dict:
    """The repository config running only a Weka SMO with ``options``, resolved."""
    config = select(copy.deepcopy(repo_config()), engines=["weka"])
    config["classifiers"]["weka"]["SMO"] = {
        "class": "weka.classifiers.functions.SMO",
        "options": options,
    }
    config["run"]["classifiers"] = {"weka": ["SMO"]}
    return pdconfig.prepare_config(config)


@pytest.mark.weka
def test_weka_classifier_by_class_name_cross_validates(weka):
    engine = weka
    resolved = smo_config("-C 1.0")
    pdconfig.check_engines(resolved)
    data = pd.read_csv(WINE, dtype=str, keep_default_na=False)
    numeric = tuple(c for c in data.columns if c != "cultivar")
    spec = DatasetSpec("wine", "cultivar", ("1", "2", "3"), numeric, None, {"all_nominal": False})
    entry = resolved["classifiers"]["weka"]["SMO"]
    predictions = engine.cross_validate(data, spec, "SMO", entry, CVSpec(3, 1, 1))
    assert len(predictions) == len(data)
    assert (predictions["actual"] == predictions["predicted"]).mean() > 0.9


@pytest.mark.weka
@pytest.mark.parametrize(
    ("options", "words"),
    [("-Q 1.0", "Illegal options: -Q 1.0"), ("-C abc", 'For input string: "abc"')],
)
def test_bad_weka_options_are_a_config_error(weka, options, words):
    with pytest.raises(ConfigError) as caught:
        pdconfig.check_engines(smo_config(options))
    assert str(caught.value).startswith("config key `classifiers.weka.SMO`: Weka rejects")
    assert words in str(caught.value)
