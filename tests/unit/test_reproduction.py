"""reproduction.csv: published numbers against reproduced ones (pdmeasure.paper.reproduction)."""

from __future__ import annotations

import copy
import re

import numpy as np
import pandas as pd
import pytest
import yaml

from helpers import compare_with_published, no_data_tables
from pdmeasure.measures import preference_driven
from pdmeasure.paper import facts, published
from pdmeasure.paper import reproduction as R
from pdmeasure.pipeline.engines import ENGINES
from pdmeasure.render.reproduction_markdown import summary_markdown
from pdmeasure.tables.measures import measures_table
from pdmeasure.tables.rankings import ranking_table

SKLEARN_FOR = {
    "Bagging": "Bagging",
    "NaiveBayes": "BayesNet",
    "DecisionTree": "J48",
    "RandomForest": "RandomForest",
}


@pytest.fixture(scope="module")
def config(repo_root):
    return yaml.safe_load((repo_root / "config.yaml").read_text())


@pytest.fixture(scope="module")
def authors(authors_matrices):
    return authors_matrices


def krkopt_results(config, authors, engines):
    """Config, pooled matrices, measures and rankings of a synthetic krkopt-only run.

    weka = the authors' own matrices; sklearn = perturbed ones (so its values differ).
    """
    cfg = copy.deepcopy(config)
    cfg["datasets"] = {"krkopt": cfg["datasets"]["krkopt"]}
    cfg["engines"] = list(engines)
    pooled = {}
    if "weka" in engines:
        pooled.update({("weka", "krkopt", name): cm for name, cm in authors.items()})
    rng = np.random.default_rng(0)
    for sk, name in SKLEARN_FOR.items():
        cm = authors[name] + np.diag(rng.integers(20, 60, len(authors[name])))
        if "sklearn" in engines:
            pooled[("sklearn", "krkopt", sk)] = cm
    vectors = cfg["datasets"]["krkopt"]["kappa_vectors"]
    measures = measures_table(pooled, {"krkopt": vectors}, zero_division=0.0)
    rankings = pd.concat(
        [
            ranking_table(
                measures,
                engine=e,
                dataset="krkopt",
                classifiers=list(cfg["classifiers"][e]),
                kappa_vectors=vectors,
            )
            for e in cfg["engines"]
        ],
        ignore_index=True,
    )
    return cfg, pooled, measures, rankings


@pytest.fixture(scope="module")
def krkopt_run(config, authors):
    """Tables 6-9 of a synthetic krkopt run with both engines."""
    cfg, pooled, measures, rankings = krkopt_results(config, authors, ["sklearn", "weka"])
    table = compare_with_published(cfg, measures, rankings, pooled)
    return table, pooled


@pytest.fixture(scope="module")
def computed():
    """The reproduced tables that need no data."""
    return no_data_tables()


@pytest.fixture(scope="module")
def sklearn_krkopt_table(config, authors, computed):
    """reproduction.csv of a run with only the sklearn engine and only the krkopt dataset."""
    cfg, pooled, measures, rankings = krkopt_results(config, authors, ["sklearn"])
    return R.reproduction_table(
        published.load(),
        published.errata(),
        computed=computed,
        config=cfg,
        measures=measures,
        rankings=rankings,
        pooled=pooled,
    )


def data_table_count() -> int:
    """Published numbers of paper 000 Tables 6-9."""
    pub = published.load(facts.PD_PAPER)
    return int(pub["table"].astype(str).isin(["6", "7", "8", "9"]).sum())


def test_is_match_rounding_truncation_and_nan():
    assert R.is_match(0.5503, 0.550252, 4)
    assert not R.is_match(0.5502, 0.550252, 4)
    assert R.is_match(0.166, 0.1666667, 3, truncated=True)
    assert not R.is_match(0.167, 0.1666667, 3, truncated=True)
    assert not R.is_match(0.166, 0.1666667, 3)
    assert R.is_match(np.nan, np.nan, 2) and not R.is_match(np.nan, 0.0, 2)
    assert R.is_match(3, 3.0, 0) and not R.is_match(3, 4.0, 0)


def test_reason_rules():
    assert "CategoricalNB" in R.known_cause("sklearn", "BayesNet")
    assert R.known_cause("sklearn", "DecisionTable").startswith("not run")
    assert "text of a training instance" in R.known_cause("weka", "RandomForest")
    assert R.known_cause("weka", "J48").startswith("unexplained")
    assert R.known_cause("another", "J48").startswith("unexplained")
    with pytest.raises(ValueError, match="no reason rule"):
        R.known_cause("sklearn", "J48", rules=())


def test_paper_columns():
    assert R.paper_columns("sklearn", SKLEARN_FOR) == {v: k for k, v in SKLEARN_FOR.items()}
    weka = list(facts.PD_CLASSIFIERS)
    assert R.paper_columns("weka", weka) == {c: c for c in weka}
    assert R.paper_columns("weka", ["SMO"]) == {}


def _pub(rows):
    return pd.DataFrame(rows, columns=["paper", "table", "row", "column", "value", "decimals"])


def test_compare_no_data_statuses():
    pub = _pub(
        [
            ["p", "1", "a", "x", 0.50, 2],
            ["p", "1", "a", "y", 0.90, 2],
            ["p", "1", "a", "z", 0.10, 2],
            ["p", "1", "b", "x", 0.20, 2],
            ["p", "1", "b", "y", np.nan, 2],
        ]
    )
    computed = pd.DataFrame(
        {
            "paper": "p",
            "table": "1",
            "row": ["a", "a", "a", "b"],
            "column": ["x", "y", "z", "y"],
            "value": [0.504, 0.8, 0.3, np.nan],
        }
    )
    errata = pd.DataFrame(
        [
            ["p", "1", "a", "y", 0.9, 0.8, "ev", "p-a-y"],
            ["p", "1", "a", "z", 0.1, 0.2, "ev", "p-a-z"],
        ],
        columns=list(published.ERRATA_COLUMNS),
    )
    out = R.compare_no_data(pub, computed, errata).set_index(["row", "column"])
    assert list(out.columns) == [c for c in R.REPRODUCTION_COLUMNS if c not in ("row", "column")]
    assert out.loc[("a", "x"), "status"] == "match"
    assert out.loc[("a", "y"), "status"] == "erratum"
    assert out.loc[("a", "y"), "reason"].startswith("docs/errata.md#p-a-y")
    # an erratum entry whose correct value the formulas do not give is not an erratum
    assert out.loc[("a", "z"), "status"] == "differs"
    assert out.loc[("b", "x"), "status"] == "not_run"
    assert out.loc[("b", "x"), "reason"].startswith("not run")
    assert np.isnan(out.loc[("b", "x"), "reproduced"])
    assert out.loc[("b", "y"), "status"] == "match"  # printed NaN, computed NaN
    assert (out["engine"] == R.NO_DATA_ENGINE).all()


def test_weka_table9_from_the_authors_matrices(krkopt_run):
    table, _ = krkopt_run
    weka = table[(table["engine"] == "weka") & (table["table"] == "9")]
    assert len(weka) == len(published.load("preference-driven", "9"))
    statuses = weka.set_index(["row", "column"])["status"]
    assert statuses[("pd fn2", "J48 rank")] == "erratum"
    not_matching = statuses[statuses != "match"]
    assert (not_matching == "erratum").all()
    # every non-matching cell is in the footnote-3 row or the recorded fn2 rank
    assert set(not_matching.index) - {("pd fn2", "J48 rank")} <= {
        ("pd fn3", c) for c in weka["column"]
    }
    fn3 = weka[(weka["row"] == "pd fn3") & ~weka["column"].str.endswith(" rank")]
    assert (fn3["status"] == "erratum").all()


def test_footnote3_vector_found_by_search_reproduces_the_printed_row(krkopt_run, authors):
    table, _ = krkopt_run
    reason = table[
        (table["engine"] == "weka") & (table["row"] == "pd fn3") & (table["column"] == "Bagging")
    ]["reason"].item()
    assert "kappa_search finds 1 vector" in reason and "docs/errata.md#" in reason
    vector = np.array([float(x) for x in re.search(r": \[([^\]]+)\]", reason)[1].split(",")])
    printed = published.load("preference-driven", "9")
    printed = printed[printed["row"] == "pd fn3"].set_index("column")["value"]
    for name, cm in authors.items():
        value = preference_driven(cm, vector, zero_division=0.0)
        assert published.reproduces(value, printed[name], 4)


def test_footnote3_printed_vector_is_not_the_found_one(krkopt_run, config):
    table, _ = krkopt_run
    reason = table[
        (table["engine"] == "weka") & (table["row"] == "pd fn3") & (table["column"] == "J48")
    ]["reason"].item()
    found = [float(x) for x in re.search(r": \[([^\]]+)\]", reason)[1].split(",")]
    assert found != config["datasets"]["krkopt"]["kappa_vectors"]["fn3"]


def test_sklearn_rows_name_their_cause(krkopt_run):
    table, _ = krkopt_run
    sk = table[(table["engine"] == "sklearn") & (table["table"] == "9")]
    assert (sk["status"] != "erratum").all()  # errata apply to the paper's own classifiers only
    dt = sk[sk["column"].str.startswith("DecisionTable")]
    assert dt["reproduced"].isna().all() and (dt["status"] == "not_run").all()
    assert dt["reason"].str.contains("no scikit-learn counterpart").all()
    nb = sk[(sk["column"] == "BayesNet") & (sk["status"] == "differs")]
    assert len(nb) > 0 and nb["reason"].str.contains("CategoricalNB").all()
    ranks = sk[
        sk["column"].str.endswith(" rank")
        & (sk["status"] == "differs")
        & ~sk["column"].str.startswith("DecisionTable")
    ]
    assert ranks["reason"].str.contains("rank among 4 sklearn classifiers").all()
    assert (sk["reason"][sk["status"] == "differs"] != "").all()


def test_datasets_not_in_the_run_give_not_run_rows(krkopt_run):
    table, _ = krkopt_run
    car = table[table["table"] == "6"]
    assert len(car) == 2 * len(published.load("preference-driven", "6"))
    assert (car["status"] == "not_run").all()
    assert car["reason"].str.startswith("not run: dataset 'car'").all()


def test_cv_settings_other_than_the_papers_are_named(config, authors):
    cfg = copy.deepcopy(config)
    cfg["datasets"] = {"krkopt": cfg["datasets"]["krkopt"]}
    cfg["engines"], cfg["cv"] = ["weka"], {"folds": 3, "seed": 1, "repeats": 1}
    pooled = {
        ("weka", "krkopt", n): cm + np.eye(len(cm), dtype=int) * 5 for n, cm in authors.items()
    }
    vectors = cfg["datasets"]["krkopt"]["kappa_vectors"]
    measures = measures_table(pooled, {"krkopt": vectors}, zero_division=0.0)
    rankings = ranking_table(
        measures,
        engine="weka",
        dataset="krkopt",
        classifiers=list(cfg["classifiers"]["weka"]),
        kappa_vectors=vectors,
    )
    out = compare_with_published(cfg, measures, rankings, pooled, table="9", errata=False)
    differs = out[out["status"] == "differs"]
    assert len(differs) > 0
    assert differs["reason"].str.startswith("this run uses 3-fold CV").all()


def test_reproduction_table_and_summary(config, computed):
    cfg = copy.deepcopy(config)
    cfg["engines"] = []
    table = R.reproduction_table(
        published.load(), published.errata(), computed=computed, config=cfg
    )
    assert tuple(table.columns) == R.REPRODUCTION_COLUMNS
    no_data = table[table["engine"] == R.NO_DATA_ENGINE]
    assert set(no_data["status"]) <= {"match", "erratum"}
    # no engine ran: every number of Tables 6-9 is reported, for every engine, as not run
    data = table[table["engine"] != R.NO_DATA_ENGINE]
    assert len(data) == data_table_count() * len(ENGINES)
    assert (data["status"] == "not_run").all()
    assert set(table["status"]) <= set(R.STATUSES)
    counts = R.status_counts(table, ["engine"])
    assert counts["total"].sum() == len(table)
    text = summary_markdown(R.summary_tables(table))
    assert "## Per table and engine" in text and "| none" in text
    with pytest.raises(ValueError, match="empty"):
        R.summary_tables(table.iloc[:0])


# --- not run versus differs ------------------------------------------------------------------


def test_engine_not_in_the_config_is_not_run(sklearn_krkopt_table):
    table = sklearn_krkopt_table
    weka = table[table["engine"] == "weka"]
    assert len(weka) == data_table_count()
    assert (weka["status"] == "not_run").all() and weka["reproduced"].isna().all()
    assert weka["reason"].eq("not run: engine 'weka' is not in this run's config (`engines`)").all()


def test_datasets_not_in_the_config_are_not_run(sklearn_krkopt_table):
    sk = sklearn_krkopt_table[sklearn_krkopt_table["engine"] == "sklearn"]
    others = sk[sk["table"].isin(["6", "7", "8"])]  # car, nursery, dermatology
    assert len(others) == data_table_count() - len(published.load(facts.PD_PAPER, "9"))
    assert (others["status"] == "not_run").all()
    assert (
        others["reason"]
        .str.match(
            r"not run: dataset '(car|nursery|dermatology)' is not in "
            r"this run's config"
        )
        .all()
    )


def test_differs_only_for_computed_numbers(sklearn_krkopt_table):
    table = sklearn_krkopt_table
    differs = table[table["status"] == "differs"]
    assert len(differs) > 0  # the perturbed sklearn matrices disagree with the paper
    assert differs["reproduced"].notna().all()
    assert not differs["reason"].str.startswith("not run").any()
    assert set(differs["engine"]) == {"sklearn"} and set(differs["table"]) == {"9"}
    not_run = table[table["status"] == "not_run"]
    assert not_run["reproduced"].isna().all()
    assert not_run["reason"].str.startswith("not run").all()
    # in Table 9, sklearn computes every classifier but DecisionTable (no counterpart)
    sk9 = table[(table["engine"] == "sklearn") & (table["table"] == "9")]
    assert set(sk9.loc[sk9["status"] == "not_run", "column"]) == {
        "DecisionTable",
        "DecisionTable rank",
    }


def test_value_missing_from_the_results_is_not_run(config, authors):
    cfg, pooled, measures, rankings = krkopt_results(config, authors, ["sklearn"])
    measures = measures[measures["classifier"] != "RandomForest"]
    out = compare_with_published(cfg, measures, rankings, pooled, table="9", errata=False)
    forest = out[out["column"] == "RandomForest"]
    assert (forest["status"] == "not_run").all()
    assert (
        forest["reason"].str.startswith("not run: no value for sklearn/krkopt/RandomForest").all()
    )
    # the other classifiers' rank reasons do not count the missing values as differing
    ranks = out[out["column"].str.endswith(" rank") & (out["status"] == "differs")]
    assert len(ranks) > 0 and not ranks["reason"].str.contains("RandomForest,|RandomForest$").any()


def test_kappa_vector_not_configured_is_not_run(config, authors):
    cfg, pooled, measures, rankings = krkopt_results(config, authors, ["sklearn"])
    del cfg["datasets"]["krkopt"]["kappa_vectors"]["fn3"]
    out = compare_with_published(cfg, measures, rankings, pooled, table="9", errata=False)
    fn3 = out[out["row"] == "pd fn3"]
    assert len(fn3) > 0 and (fn3["status"] == "not_run").all()
    run = fn3[~fn3["column"].str.startswith("DecisionTable")]  # no counterpart comes first
    assert run["reason"].str.contains("row 'pd fn3' is not configured").all()
    assert (out.loc[out["row"] != "pd fn3", "status"] != "not_run").sum() > 0


def test_status_counts_and_summary_show_not_run(sklearn_krkopt_table):
    table = sklearn_krkopt_table
    counts = R.status_counts(table, ["engine"]).set_index("engine")
    assert list(counts.columns) == [*R.STATUSES, "total"]
    n = data_table_count()
    assert counts.loc["weka", "not_run"] == counts.loc["weka", "total"] == n
    assert counts.loc["weka", "differs"] == 0
    sk = table[table["engine"] == "sklearn"]
    assert counts.loc["sklearn", "differs"] == (sk["status"] == "differs").sum()
    assert counts.loc["sklearn", "not_run"] == (sk["status"] == "not_run").sum() > 0
    text = summary_markdown(R.summary_tables(table))
    assert re.search(
        r"\| engine +\| +match +\| +erratum +\| +differs +\| +not_run +\| +total +\|", text
    )
    assert re.search(rf"\| weka +\| +0 +\| +0 +\| +0 +\| +{n} +\| +{n} +\|", text)
    overall = table["status"].value_counts()
    assert (
        f"Overall: {overall['match']} match, {overall.get('erratum', 0)} erratum, "
        f"{overall['differs']} differs, {overall['not_run']} not_run."
    ) in text
    assert "`not_run`: not computed by this run" in text
    # the largest differences list computed numbers only
    largest = text.split("## Largest differences", 1)[1]
    assert "### weka" not in largest and "not run" not in largest
