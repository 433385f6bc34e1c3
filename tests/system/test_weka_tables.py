"""Paper 000 Tables 6-9 regenerated with the paper's own Weka classifiers.

Runs the 20 Weka cross-validations (4 datasets x 5 classifiers, 10 folds, seed 1) through the
same package functions the pipeline uses (measures table -> ranking tables -> reproduction) and
counts the status of every printed cell. Expected (see docs/errata.md, "Weka findings"):

* Bagging, BayesNet, DecisionTable and J48 reproduce 172 of their 176 printed values; the other
  4 are the footnote-3 row of Table 9, whose printed kappa vector is wrong (erratum).
* RandomForest cannot reproduce to the digit (Weka's RandomTree seeds itself from the text of a
  training instance), so its cells differ; ranks that depend on it differ too.
"""

from __future__ import annotations

import pandas as pd
import pytest
import yaml

import pdmeasure.pipeline.config as pdconfig
from helpers import compare_with_published, dataset_spec, mirror_table, select
from pdmeasure.pipeline.engines import CVSpec
from pdmeasure.tables.confusion import confusion_matrix
from pdmeasure.tables.measures import measures_table
from pdmeasure.tables.rankings import ranking_table

pytestmark = pytest.mark.weka
EXACT = ("Bagging", "BayesNet", "DecisionTable", "J48")


@pytest.fixture(scope="module")
def config(repo_root):
    with open(repo_root / "config.yaml") as handle:
        config = yaml.safe_load(handle)
    # The run's config, as the workflow sees it (engines, classifiers, resolved datasets).
    return pdconfig.prepare_config(select(config, engines=["weka"]))


@pytest.fixture(scope="module")
def reproduction(config, uci_mirror, weka):  # noqa: F811 (the fixture imported above)
    classifiers = config["classifiers"]["weka"]
    pooled = {}
    for name in config["datasets"]:
        data, spec = mirror_table(uci_mirror, name), dataset_spec(config, name)
        for classifier, params in classifiers.items():
            pred = weka.cross_validate(data, spec, classifier, params, CVSpec(10, 1, 1))
            pooled[("weka", name, classifier)] = confusion_matrix(
                pred["actual"], pred["predicted"], spec.classes
            )
    vectors = {name: block["kappa_vectors"] for name, block in config["datasets"].items()}
    measures = measures_table(pooled, vectors, zero_division=0.0)
    rankings = pd.concat(
        [
            ranking_table(
                measures,
                engine="weka",
                dataset=name,
                classifiers=list(classifiers),
                kappa_vectors=vectors[name],
            )
            for name in config["datasets"]
        ],
        ignore_index=True,
    )
    table = compare_with_published(config, measures, rankings, pooled)
    table["classifier"] = table["column"].str.removesuffix(" rank")
    table["kind"] = table["column"].str.endswith(" rank").map({True: "rank", False: "value"})
    return table


def counts(table: pd.DataFrame) -> dict[str, int]:
    return table["status"].value_counts().to_dict()


def test_every_printed_cell_of_tables_6_to_9_is_judged(reproduction):
    assert len(reproduction) == 4 * 11 * 5 * 2  # tables x rows x classifiers x (value, rank)
    assert set(reproduction["status"]) <= {"match", "erratum", "differs"}
    not_match = reproduction[reproduction["status"] != "match"]
    assert (not_match["reason"].str.len() > 0).all()


def test_paper_exact_classifiers_reproduce_172_of_176_values(reproduction):
    values = reproduction[
        (reproduction["kind"] == "value") & reproduction["classifier"].isin(EXACT)
    ]
    assert counts(values) == {"match": 172, "erratum": 4}
    errata = values[values["status"] == "erratum"]
    assert set(errata["table"].astype(str)) == {"9"} and set(errata["row"]) == {"pd fn3"}
    found = "[0.66, 0.33, 0.33, 0.66, 0.66, 0.33, 0.33, 0.33, 0.33, 0.66, 0.66, 0.33, 0.66, 0.33, 0.33, 0.66, 0.33, 0.33]"
    assert errata["reason"].str.contains("kappa_search finds 1 vector", regex=False).all()
    assert errata["reason"].str.contains(found, regex=False).all()


def test_randomforest_comes_close_but_not_to_the_digit(reproduction):
    forest = reproduction[
        (reproduction["kind"] == "value") & (reproduction["classifier"] == "RandomForest")
    ]
    assert counts(forest).get("differs", 0) >= 35
    assert forest["abs_diff"].astype(float).max() < 0.05
    assert forest.loc[forest["status"] == "differs", "reason"].str.contains("RandomTree").all()


def test_rank_errata_of_table_9(reproduction):
    ranks = reproduction[reproduction["kind"] == "rank"]
    errata = ranks[ranks["status"] == "erratum"]
    assert sorted(zip(errata["row"], errata["classifier"])) == [
        ("pd fn2", "J48"),
        ("pd fn3", "Bagging"),
        ("pd fn3", "DecisionTable"),
    ]
    assert counts(ranks)["match"] >= 195
