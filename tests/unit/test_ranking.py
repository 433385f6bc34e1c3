"""Ranking tables (paper 000, Tables 6-9): layout, ranks, ties at the printed precision."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import rankdata

from pdmeasure.measures.weights import format_kappa
from pdmeasure.paper.facts import table_title
from pdmeasure.render.markdown import ranking_table_markdown
from pdmeasure.tables.measures import MEASURE_COLUMNS
from pdmeasure.tables.rankings import competition_ranks, ranking_table

CLASSIFIERS = ["Bagging", "BayesNet", "DecisionTable", "J48", "RandomForest"]
VECTORS = {"p1": [0, 0.8, 0.6, 1]}


def test_ties_share_the_best_rank_and_skip_the_next():
    # Table 6, row p-d [0, 0.8, 0.6, 1]: 0.7757 (4) 0.7582 (5) 0.8600 (1) 0.8295 (3) 0.8600 (1)
    values = [0.7757, 0.7582, 0.86001, 0.8295, 0.859960]
    np.testing.assert_array_equal(competition_ranks(values), [4, 5, 1, 3, 1])


def test_values_differing_only_beyond_four_decimals_tie_but_printed_differences_do_not():
    np.testing.assert_array_equal(competition_ranks([0.50004, 0.49996, 0.5001]), [2, 2, 1])
    np.testing.assert_array_equal(competition_ranks([0.1, 0.3, 0.2]), [3, 1, 2])


@given(
    st.lists(
        st.one_of(st.sampled_from([0.1, 0.5, 0.50004, 0.9]), st.floats(0, 1), st.just(np.nan)),
        max_size=12,
    )
)
def test_competition_ranks_equal_scipy_rankdata_min_values_and_dtype(values):
    # The written-out ranks stand in for scipy.stats.rankdata (see competition_ranks): the same
    # numbers and the same dtype, so the tables' CSV text does not change.
    printed = np.array([float(f"{v:.4f}") for v in values], dtype=float)
    expected = rankdata(-printed, method="min", nan_policy="omit")
    got = competition_ranks(values)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def measures_frame(values_by_row):
    rows = []
    keys = {
        "accuracy": ("accuracy", ""),
        "precision": ("precision_macro", ""),
        "recall": ("recall_macro", ""),
        "F1": ("f1_macro", ""),
        "MCC": ("mcc", ""),
        "pd default": ("preference_driven", "default"),
        "pd p1": ("preference_driven", "p1"),
    }
    for label, values in values_by_row.items():
        measure, kappa = keys[label]
        written = format_kappa(VECTORS[kappa]) if kappa in VECTORS else ""
        for classifier, value in zip(CLASSIFIERS, values):
            rows.append(("weka", "car", classifier, measure, kappa, written, value))
    # another engine's rows must not leak into the table
    rows.append(("sklearn", "car", "Bagging", "accuracy", "", "", 0.0))
    return pd.DataFrame(rows, columns=list(MEASURE_COLUMNS))


#: Paper 000 Table 6 (car) as printed: value (rank) of each classifier of CLASSIFIERS.
TABLE6_PRINTED = {
    "accuracy": "0.9167 (3) 0.8571 (5) 0.9149 (4) 0.9236 (2) 0.9462 (1)",
    "precision": "0.7586 (5) 0.7940 (4) 0.8557 (2) 0.8179 (3) 0.8565 (1)",
    "recall": "0.7665 (4) 0.6040 (5) 0.8177 (3) 0.8289 (2) 0.8581 (1)",
    "F1": "0.7625 (4) 0.6861 (5) 0.8363 (2) 0.8233 (3) 0.8573 (1)",
    "MCC": "0.8208 (3) 0.6737 (5) 0.8101 (4) 0.8345 (2) 0.8842 (1)",
    "pd default": "0.7670 (4) 0.6031 (5) 0.8171 (3) 0.8291 (2) 0.8584 (1)",
    "pd p1": "0.7757 (4) 0.7582 (5) 0.8600 (1) 0.8295 (3) 0.8600 (1)",
}
#: The printed cells of each row of Table 6, e.g. "0.9167 (3)".
TABLE6_CELLS = {row: re.findall(r"\d\.\d{4} \(\d\)", text) for row, text in TABLE6_PRINTED.items()}
TABLE6 = {row: [float(c.split()[0]) for c in cells] for row, cells in TABLE6_CELLS.items()}
TABLE6_RANKS = {
    row: [int(c.split()[1].strip("()")) for c in cells] for row, cells in TABLE6_CELLS.items()
}


def test_table6_layout_and_ranks():
    table = ranking_table(
        measures_frame(TABLE6),
        engine="weka",
        dataset="car",
        classifiers=CLASSIFIERS,
        kappa_vectors=VECTORS,
    )
    assert list(table.columns) == ["engine", "dataset", "row", "classifier", "value", "rank"]
    assert list(dict.fromkeys(table["row"])) == list(TABLE6)
    assert list(table["classifier"].iloc[:5]) == CLASSIFIERS
    for label, ranks in TABLE6_RANKS.items():
        assert table.loc[table["row"] == label, "rank"].tolist() == ranks, label
    md = ranking_table_markdown(table, VECTORS)
    assert md.startswith("# Table 6: car (engine weka)")
    assert "0.8600 (1)" in md and "pd p1 [0, 0.8, 0.6, 1]" in md
    line = next(x for x in md.splitlines() if x.startswith("| accuracy"))
    assert [c.strip() for c in line.strip("|").split("|")][1:] == TABLE6_CELLS["accuracy"]


def test_missing_value_is_an_error_naming_it():
    frame = measures_frame({k: v for k, v in TABLE6.items() if k != "MCC"})
    with pytest.raises(ValueError, match="no 'mcc'.*weka/car/Bagging"):
        ranking_table(
            frame, engine="weka", dataset="car", classifiers=CLASSIFIERS, kappa_vectors=VECTORS
        )


def test_a_fifth_dataset_gets_a_generic_title():
    assert table_title("iris", "sklearn") == "Ranking table: iris (engine sklearn)"
    assert table_title("krkopt", "sklearn").startswith("Table 9")


def test_authors_krkopt_matrices_give_published_table9(authors_reference, repo_root):
    """The authors' own Weka matrices -> measures table -> Table 9, cell for cell.

    Every value and rank equals the printed one, except the cells listed in the errata,
    which equal the errata's corrected value.
    """

    import yaml

    from pdmeasure.paper import published
    from pdmeasure.tables.measures import measures_table

    reference = authors_reference
    config = yaml.safe_load((repo_root / "config.yaml").read_text())["datasets"]["krkopt"]
    assert reference["class_order"] == config["classes"]
    vectors = config["kappa_vectors"]
    matrices = reference["confusion_matrices"]
    pooled = {("weka", "krkopt", name): np.array(cm) for name, cm in matrices.items()}
    table = ranking_table(
        measures_table(pooled, {"krkopt": vectors}, zero_division=0.0),
        engine="weka",
        dataset="krkopt",
        classifiers=list(matrices),
        kappa_vectors=vectors,
    )
    pub = published.load()
    pub = pub[(pub["paper"] == "preference-driven") & (pub["table"] == "9")]
    printed = pub.set_index(["row", "column"])["value"]
    errata = published.errata()
    errata = errata[(errata["paper"] == "preference-driven") & (errata["table"] == "9")]
    printed.update(errata.set_index(["row", "column"])["correct"])
    assert len(table) == len(printed) / 2
    for row in table.itertuples():
        assert f"{row.value:.4f}" == f"{printed[(row.row, row.classifier)]:.4f}", row
        assert row.rank == printed[(row.row, f"{row.classifier} rank")], row
