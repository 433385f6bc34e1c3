"""Paper 000 (preference-driven measure): every printed number that follows from given matrices.

Tables 3 and 4, the cm4 values of Section 4.2, the authors' public example and Table 9 in full
(from the authors' own Weka confusion matrices). A cell listed in the errata must give the
erratum's correct value and must *not* give the printed one; every other cell must give the
printed value at its printed precision. Paper 000 takes 0/0 = 0.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import yaml

from helpers import TEST_DATA
from pdmeasure import measures as M
from pdmeasure.paper import examples, facts
from pdmeasure.paper import published as P
from pdmeasure.paper.kappa_search import search_kappa_grid
from published_cells import ERRATA, check

PAPER = facts.PD_PAPER
ZD = 0.0
CLASSIFIERS = list(facts.PD_CLASSIFIERS)
CLASSICAL = {"precision": "precision_macro", "recall": "recall_macro", "F1": "f1_macro"}
TABLE9_ROWS = {
    "accuracy": "accuracy",
    "precision": "precision_macro",
    "recall": "recall_macro",
    "F1": "f1_macro",
    "MCC": "mcc",
}


def _cells(table):
    return list(P.load(PAPER, table).itertuples(index=False))


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z.]+", "-", text.lower()).strip("-")


def _cell_id(cell):
    """Test id naming paper, table and cell, e.g. ``pd-table3-cm2-precision``."""
    table = f"table{cell.table}" if cell.table[0].isdigit() else cell.table.replace(" ", "")
    return f"pd-{table.replace('.', '')}-{_slug(cell.row)}-{_slug(cell.column)}"


def _kappa_of(column: str) -> np.ndarray:
    match = re.fullmatch(r"pd \[([0-9.]+), ([0-9.]+)\]", column)
    assert match, f"not a pd column: {column}"
    return np.array([float(match.group(1)), float(match.group(2))])


# ----------------------------------------------------------------------------- Table 3
@pytest.mark.parametrize("cell", _cells("3"), ids=_cell_id)
def test_table3(cell):
    cm = examples.PD_FIGURE1[cell.row]
    if cell.column in CLASSICAL:
        computed = M.REGISTRY[CLASSICAL[cell.column]](cm, zero_division=ZD)
    else:
        computed = M.preference_driven(cm, _kappa_of(cell.column), zero_division=ZD)
    check(cell, float(computed))


def test_table3_has_the_two_known_misprints():
    keys = {k[2:] for k in ERRATA if k[:2] == (PAPER, "3")}
    assert keys == {("cm2", "precision"), ("cm7", "F1")}
    assert ERRATA[(PAPER, "3", "cm2", "precision")].published == 0.9157
    assert ERRATA[(PAPER, "3", "cm7", "F1")].published == 0.5502


def test_table3_cm7_f1_misprint_comes_from_rounded_inputs():
    cm = examples.PD_FIGURE1["cm7"]
    p = round(float(M.precision_macro(cm, zero_division=ZD)), 4)
    r = round(float(M.recall_macro(cm, zero_division=ZD)), 4)
    assert round(2 * p * r / (p + r), 4) == 0.5502
    assert round(float(M.f1_macro(cm, zero_division=ZD)), 4) == 0.5503


def test_table3_cm9_needs_zero_over_zero_as_zero():
    cm = examples.PD_FIGURE1["cm9"]
    assert float(M.precision_macro(cm, zero_division=0.0)) == 0.25
    assert np.isnan(M.precision_macro(cm, zero_division="nan"))


# ------------------------------------------------------------------------- Section 4.2
@pytest.mark.parametrize("cell", _cells("section 4.2"), ids=_cell_id)
def test_section42(cell):
    cm = examples.PD_FIGURE1[cell.row]
    if cell.column in CLASSICAL:
        computed = M.REGISTRY[CLASSICAL[cell.column]](cm, zero_division=ZD)
    elif cell.column in ("pd min", "pd max"):
        grid = np.concatenate(list(M.kappa_grid(examples.PD_SECTION42_VALUES, 2)))
        assert len(grid) == 121
        values = M.preference_driven(cm, grid, zero_division=ZD)
        computed = values.min() if cell.column == "pd min" else values.max()
    else:
        computed = M.preference_driven(cm, _kappa_of(cell.column), zero_division=ZD)
    check(cell, float(computed))


def test_section42_extremes_are_at_the_quoted_vectors():
    cm = examples.PD_FIGURE1["cm4"]
    grid = np.concatenate(list(M.kappa_grid(examples.PD_SECTION42_VALUES, 2)))
    values = M.preference_driven(cm, grid, zero_division=ZD)
    np.testing.assert_allclose(grid[values.argmin()], [1.0, 0.0])
    np.testing.assert_allclose(grid[values.argmax()], [0.0, 1.0])


# ----------------------------------------------------------------------------- Table 4
@pytest.mark.parametrize("cell", _cells("4"), ids=_cell_id)
def test_table4(cell):
    cm = examples.PD_TABLE4
    np.testing.assert_allclose(cm.sum(axis=1) / cm.sum(), [0.5, 0.2, 0.3])  # eq. 31
    check(cell, float(M.preference_driven(cm, zero_division=ZD)))


# ------------------------------------------------------------------- authors' example
@pytest.fixture(scope="module")
def reference(authors_reference):
    return authors_reference


def test_authors_example(reference):
    ex = reference["authors_example"]
    np.testing.assert_array_equal(ex["matrix"], examples.PD_AUTHORS_EXAMPLE)
    assert tuple(ex["kappa"]) == examples.PD_AUTHORS_EXAMPLE_KAPPA
    value = M.preference_driven(
        examples.PD_AUTHORS_EXAMPLE, examples.PD_AUTHORS_EXAMPLE_KAPPA, zero_division=ZD
    )
    assert float(value) == pytest.approx(ex["preference_driven"], rel=1e-14, abs=0)
    assert float(value) == pytest.approx(0.6641628736750688, rel=1e-14, abs=0)


# ----------------------------------------------------------------------------- Table 9
@pytest.fixture(scope="module")
def krkopt(reference, repo_root):
    config = yaml.safe_load((repo_root / "config.yaml").read_text())["datasets"]["krkopt"]
    assert reference["class_order"] == config["classes"]
    cms = np.array([reference["confusion_matrices"][c] for c in CLASSIFIERS], dtype=float)
    return cms, config


def _table9_values(cms, config, row):
    if row in TABLE9_ROWS:
        return M.REGISTRY[TABLE9_ROWS[row]](cms, zero_division=ZD)
    if row == "pd default":
        return M.preference_driven(cms, zero_division=ZD)
    name = row.removeprefix("pd ")
    return M.preference_driven(cms, np.array(config["kappa_vectors"][name]), zero_division=ZD)


@pytest.mark.parametrize("cell", _cells("9"), ids=_cell_id)
def test_table9(cell, krkopt):
    cms, config = krkopt
    values = _table9_values(cms, config, cell.row)
    if cell.column.endswith(facts.RANK_SUFFIX):
        clf = cell.column.removesuffix(facts.RANK_SUFFIX)
        computed = float(P.paper_ranks(values)[CLASSIFIERS.index(clf)])
    else:
        computed = float(values[CLASSIFIERS.index(cell.column)])
    check(cell, computed)


def test_table9_reference_matrices_have_no_empty_row_or_column(krkopt):
    # So Table 9 does not depend on the 0/0 convention (the tables' 0/0 = 0 is still used).
    cms, _ = krkopt
    assert (cms.sum(axis=2) > 0).all() and (cms.sum(axis=1) > 0).all()


def test_table9_fn3_printed_vector_reproduces_no_classifier(krkopt):
    cms, config = krkopt
    printed = P.table_matrix(PAPER, "9").loc["pd fn3", CLASSIFIERS].to_numpy(dtype=float)
    values = M.preference_driven(cms, np.array(config["kappa_vectors"]["fn3"]), zero_division=ZD)
    assert not P.reproduces(values, printed, 4).any()


def test_table9_fn3_row_is_reproduced_by_exactly_one_grid_vector(krkopt):
    """Search {0.33, 0.66}**18 for the vector the authors really used (docs/errata.md)."""
    cms, config = krkopt
    printed = P.table_matrix(PAPER, "9").loc["pd fn3", CLASSIFIERS].to_numpy(dtype=float)
    four = printed.copy()
    four[CLASSIFIERS.index("RandomForest")] = np.nan
    result = search_kappa_grid(cms, four, config["kappa_grid"], decimals=4, zero_division=ZD)
    assert result.n_searched == 2**18 and not result.truncated
    assert result.vectors.shape == (1, 18)
    found = result.vectors[0]
    expected = [
        0.66,
        0.33,
        0.33,
        0.66,
        0.66,
        0.33,
        0.33,
        0.33,
        0.33,
        0.66,
        0.66,
        0.33,
        0.66,
        0.33,
        0.33,
        0.66,
        0.33,
        0.33,
    ]
    np.testing.assert_allclose(found, expected)
    assert not np.allclose(found, config["kappa_vectors"]["fn3"])
    # The same vector reproduces the fifth classifier too, and with it the printed ranks.
    values = M.preference_driven(cms, found, zero_division=ZD)
    assert P.reproduces(values, printed, 4).all()
    ranks = P.table_matrix(PAPER, "9").loc["pd fn3", [c + " rank" for c in CLASSIFIERS]]
    np.testing.assert_array_equal(P.paper_ranks(values), ranks.to_numpy(dtype=int))


def test_table9_fn3_errata_name_the_found_vector():
    for clf in CLASSIFIERS:
        entry = ERRATA[(PAPER, "9", "pd fn3", clf)]
        assert entry.anchor == "pd-table9-fn3"
    assert "[0.66,0.33,0.33,0.66,0.66" in ERRATA[(PAPER, "9", "pd fn3", "Bagging")].evidence


# ------------------------------------------------------------------ Tables 6-9 as printed
@pytest.mark.parametrize("table", ["6", "7", "8", "9"])
def test_printed_ranks_follow_printed_values(table):
    wide = P.table_matrix(PAPER, table)
    assert list(wide.index) == (
        ["accuracy", "precision", "recall", "F1", "MCC", "pd default"]
        + [
            f"pd {n}"
            for n in (
                ["fn2", "fn3", "fn4", "fn5", "fn6"]
                if table == "9"
                else ["p1", "p2", "p3", "p4", "p5"]
            )
        ]
    )
    for row in wide.index:
        values = wide.loc[row, CLASSIFIERS].to_numpy(dtype=float)
        printed = wide.loc[row, [c + " rank" for c in CLASSIFIERS]].to_numpy(dtype=int)
        expected = P.paper_ranks(values)
        for clf, got, want in zip(CLASSIFIERS, printed, expected):
            key = (PAPER, table, row, clf + " rank")
            if key in ERRATA and row != "pd fn3":
                assert got != want and ERRATA[key].correct == want
            else:
                assert got == want, (
                    f"table {table} {row} {clf}: printed ({got}), values say ({want})"
                )


def _paper_table_block(text: str, number: str) -> str:
    start = text.index(f"\nTable {number}. Results for")
    end = text.find("\nTable ", start + 1)
    return text[start : end if end > 0 else None]


@pytest.mark.parametrize("table", ["6", "7", "8", "9"])
def test_transcription_matches_paper_text(table, repo_root):
    """published.csv holds exactly the 'value (rank)' cells of the paper's text, in order."""
    path = TEST_DATA / "paper" / "preference-driven-tables-6-9.txt"
    block = _paper_table_block(path.read_text(encoding="utf-8"), table)
    printed = re.findall(r"(\d\.\d{4}) \((\d)\)", block)
    wide = P.table_matrix(PAPER, table)
    ours = [
        (f"{wide.loc[r, c]:.4f}", str(int(wide.loc[r, c + " rank"])))
        for r in wide.index
        for c in CLASSIFIERS
    ]
    assert printed == ours
    # The kappa vectors (inline in Tables 6-8, footnotes 2-6 in Table 9) are the config's.
    dataset = {v: k for k, v in facts.PD_DATASET_TABLES.items()}[table]
    config = yaml.safe_load((repo_root / "config.yaml").read_text())["datasets"][dataset]
    pattern = r"\d\s+κ →\s+= \[([0-9., ]+)\]" if table == "9" else r"p -  d  \[ ([0-9., ]+?) \]"
    vectors = [[float(x) for x in v.split(",")] for v in re.findall(pattern, block)]
    assert vectors == [list(map(float, v)) for v in config["kappa_vectors"].values()]


# ------------------------------------------------------------------ loader and helpers
def test_every_erratum_is_a_printed_cell_with_an_anchor_in_the_doc(repo_root):
    printed = P.load()
    cells = {(r.paper, r.table, r.row, r.column): r.value for r in printed.itertuples()}
    doc = (repo_root / "docs" / "errata.md").read_text(encoding="utf-8")
    for key, entry in ERRATA.items():
        assert key in cells, f"erratum {key} is not a published cell"
        assert cells[key] == entry.published
        assert entry.published != entry.correct
        assert f'<a id="{entry.anchor}"></a>' in doc, entry.anchor
        assert entry.evidence.strip()


def test_load_filters_and_rejects_unknown_names():
    assert set(P.load()["paper"]) == set(facts.PAPERS)
    assert len(P.load(PAPER, "9")) == 11 * 10
    assert P.load(PAPER, 9).equals(P.load(PAPER, "9"))
    with pytest.raises(ValueError, match="unknown paper"):
        P.load("nope")
    with pytest.raises(ValueError, match="no published numbers"):
        P.load(PAPER, "42")
    with pytest.raises(KeyError):
        P.value(PAPER, "3", "cm1", "nope")


def test_reproduces_accepts_ties_and_matches_nan_only_with_nan():
    assert P.reproduces(0.375, 0.37, 2) and P.reproduces(0.375, 0.38, 2)
    assert not P.reproduces(0.3751, 0.37, 2)
    assert P.reproduces(np.nan, np.nan, 2)
    assert not P.reproduces(np.nan, 0.5, 2) and not P.reproduces(0.5, np.nan, 2)
    np.testing.assert_array_equal(P.reproduces([0.12344, 0.12346], 0.1234, 4), [True, False])


def test_paper_ranks_share_the_best_rank_on_printed_ties():
    np.testing.assert_array_equal(P.paper_ranks([0.86004, 0.7, 0.85996, 0.9]), [2, 4, 2, 1])
    np.testing.assert_array_equal(P.paper_ranks([0.8600, 0.8600, 0.8295]), [1, 1, 3])
    with pytest.raises(ValueError):
        P.paper_ranks([0.5, np.nan])
