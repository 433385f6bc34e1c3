"""Paper artefacts that need no data: tables, figure data and figures (pdmeasure.paper.example_tables*)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from helpers import no_data_tables
from oracle import preference_driven as oracle_pd
from pdmeasure.paper import example_tables as paper
from pdmeasure.paper import examples, facts, published
from pdmeasure.render import paper_figures as F
from pdmeasure.render.figures import save_figure
from pdmeasure.render.markdown import paper_table_markdown


def _pd(cm, kappa):
    """Eq. 30 by the slow literal oracle (tests/oracle.py), 0/0 = 0 (the papers' convention)."""
    return oracle_pd(cm, 0.0, list(kappa))


@pytest.fixture(scope="module")
def surface():
    return paper.kappa_surface()


@pytest.fixture(scope="module")
def computed(surface):
    return no_data_tables(surface)


def test_every_published_no_data_cell_has_a_computed_counterpart(computed):
    pub = published.load()
    no_data = pub[
        ~(
            (pub["paper"] == facts.PD_PAPER)
            & pub["table"].isin(list(facts.PD_DATASET_TABLES.values()))
        )
    ]
    keys = set(map(tuple, computed[["paper", "table", "row", "column"]].astype(str).to_numpy()))
    missing = [
        k
        for k in map(tuple, no_data[["paper", "table", "row", "column"]].to_numpy())
        if k not in keys
    ]
    assert missing == []
    assert not computed.duplicated(["paper", "table", "row", "column"]).any()


def test_computed_tables_follow_the_paper_except_recorded_errata(computed):
    pub = published.load()
    errata = {tuple(r) for r in published.errata()[["paper", "table", "row", "column"]].to_numpy()}
    merged = pub.merge(computed, on=["paper", "table", "row", "column"], suffixes=("", "_c"))
    truncated = (
        (merged["paper"] == facts.PACC_PAPER)
        & (merged["table"] == "5")
        & (merged["column"] == paper.PACC_TABLE5_AVGDIFF)
    )
    printed = np.where(
        truncated, np.floor(merged["value_c"] * 1000 + 1e-9) / 1000, merged["value_c"]
    )
    ok = published.reproduces(printed, merged["value"], merged["decimals"])
    bad = merged.loc[~ok, ["paper", "table", "row", "column"]].apply(tuple, axis=1)
    assert set(bad) <= errata, sorted(set(bad) - errata)


def test_table3_pd_columns_are_eq30(computed):
    t3 = computed[computed["table"] == "3"]
    for name, cm in examples.PD_FIGURE1.items():
        for column, kappa in paper.TABLE3_KAPPAS.items():
            value = t3[(t3["row"] == name) & (t3["column"] == column)]["value"].item()
            assert value == pytest.approx(_pd(cm, kappa), abs=1e-12)
        # precision = pd at kappa [1, 1], recall = pd at [0, 0] (Table 3 footnotes 1 and 2)
        assert t3[(t3["row"] == name) & (t3["column"] == "precision")][
            "value"
        ].item() == pytest.approx(_pd(cm, (1, 1)))
        assert t3[(t3["row"] == name) & (t3["column"] == "recall")][
            "value"
        ].item() == pytest.approx(_pd(cm, (0, 0)))


def test_table4_default_kappa_is_class_share_and_terms_sum_to_pd():
    t4 = paper.pd_table4()
    wide = t4[t4["row"] != "all"].pivot(index="row", columns="column", values="value")
    support = examples.PD_TABLE4.sum(axis=1)
    np.testing.assert_allclose(wide["kappa"].to_numpy(), support / support.sum())
    pd_value = t4[t4["row"] == "all"]["value"].item()
    terms = wide["kappa*precision"] + wide["(1-kappa)*recall"]
    assert pd_value == pytest.approx(terms.mean())
    assert pd_value == pytest.approx(_pd(examples.PD_TABLE4, support / support.sum()))


def test_kappa_surface_grid_order_and_values(surface):
    assert len(surface) == 9 * 121
    cm4 = surface[surface["matrix"] == "cm4"]
    expected = list(itertools.product(examples.PD_SECTION42_VALUES, repeat=2))
    assert list(zip(cm4["kappa1"], cm4["kappa2"])) == expected  # kappa2 fastest
    for k1, k2, value in cm4.sample(10, random_state=0)[["kappa1", "kappa2", "value"]].to_numpy():
        assert value == pytest.approx(_pd(examples.PD_FIGURE1["cm4"], (k1, k2)))
    # cm9 predicts class 1 only: kappa2 has no effect (Section 4.2, Figure 4b)
    cm9 = surface[surface["matrix"] == "cm9"].pivot(
        index="kappa1", columns="kappa2", values="value"
    )
    np.testing.assert_allclose(cm9.to_numpy(), cm9.iloc[:, [0]].to_numpy().repeat(11, axis=1))


def test_figure2_points_locate_the_grid_extremes(surface):
    points = paper.figure2_points(surface).set_index("label")
    cm4 = surface[surface["matrix"] == "cm4"]
    assert points.loc["minimum", "value"] == cm4["value"].min()
    assert points.loc["maximum", "value"] == cm4["value"].max()
    # the paper's claim: 0.5833 at [1, 0] and 1.0 at [0, 1]
    assert tuple(points.loc["minimum", ["kappa1", "kappa2"]]) == (1.0, 0.0)
    assert tuple(points.loc["maximum", ["kappa1", "kappa2"]]) == (0.0, 1.0)
    assert set(paper.FIGURE2_POINTS) <= set(points.index)


def test_figure_surface_panels_and_errors(surface):
    panels = paper.figure_surface(surface, 4)
    assert list(panels.groupby("panel")["matrix"].first()) == ["cm1", "cm9", "cm4", "cm8"]
    assert "cm9" not in set(paper.figure_surface(surface, 5)["matrix"])
    with pytest.raises(ValueError, match="not a surface figure"):
        paper.figure_surface(surface, 7)
    with pytest.raises(ValueError, match="absent"):
        paper.figure_surface(surface[surface["matrix"] != "cm8"], 3)


def test_pacc_table5_counting_convention_on_a_small_set():
    # 2 classes, 2 items per class: 9 matrices; some have undefined FMEAS and R_k.
    cms = examples.all_matrices(2, 2)
    t5 = paper.pacc_table5(cms).set_index(["row", "column"])["value"]
    from pdmeasure import measures as M

    acc = M.accuracy(cms)
    for name, key in paper.PACC_TABLE5_MEASURES.items():
        values = [M.REGISTRY[key](cm, zero_division="nan") for cm in cms]
        defined = [v for v in values if not np.isnan(v)]
        assert t5[(name, paper.PACC_TABLE5_DISTINCT)] == len({round(float(v), 6) for v in defined})
        assert t5[(name, paper.PACC_TABLE5_NAN)] == len(values) - len(defined)
        if name != "ACC":
            diffs = [abs((0.0 if np.isnan(v) else v) - a) for v, a in zip(values, acc)]
            expected = np.mean(diffs) / (2 if name in paper.PACC_TABLE5_HALVED else 1)
            assert t5[(name, paper.PACC_TABLE5_AVGDIFF)] == pytest.approx(expected)
    assert np.isnan(t5[("ACC", paper.PACC_TABLE5_AVGDIFF)])


def test_pacc_table6_is_table3_scaled():
    for name, cm in examples.PACC_TABLE3.items():
        np.testing.assert_array_equal(examples.PACC_TABLE6[name], cm * np.array([[1], [2], [5]]))


def test_paper_table_markdown_uses_each_cells_decimals_and_nan():
    table = paper.pacc_table2()
    text = paper_table_markdown(table)
    assert text.startswith("# Pacc paper, Table 2")
    assert "| C " in text and "NaN" in text  # C's R_k and FMEAS are undefined
    assert "0.50" in text and "0.5 " not in text
    with pytest.raises(ValueError, match="one table"):
        paper_table_markdown(pd.concat([table, paper.pacc_table4()]))
    with pytest.raises(ValueError, match="missing columns"):
        paper_table_markdown(table.drop(columns="decimals"))


def test_read_table_round_trips_nan(tmp_path):
    table = paper.pacc_table2()
    table.to_csv(tmp_path / "t.csv", index=False)
    back = paper.read_table(tmp_path / "t.csv")
    pd.testing.assert_series_equal(back["value"], table["value"], check_names=False)
    assert back["value"].isna().sum() == table["value"].isna().sum() > 0


def test_figures_render_from_csv_files(tmp_path, surface):
    files = {}
    for n in paper.FIGURE_MATRICES:
        files[n] = tmp_path / f"f{n}.csv"
        paper.figure_surface(surface, n).to_csv(files[n], index=False)
    points = tmp_path / "points.csv"
    paper.figure2_points(surface).to_csv(points, index=False)
    fig6 = tmp_path / "f6.csv"
    paper.figure6_values(paper.pd_table3()).to_csv(fig6, index=False)
    figures = {
        2: F.figure2(F.read_surface(files[2]), F.read_points(points)),
        3: F.figure3(F.read_surface(files[3])),
        4: F.figure4(F.read_surface(files[4])),
        5: F.figure5(F.read_surface(files[5])),
        6: F.figure6(F.read_figure6(fig6)),
    }
    assert len(figures[4].axes) == 4 and len(figures[5].axes) == 8
    for n, fig in figures.items():
        out = save_figure(fig, tmp_path / f"figure{n}.png")
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="missing columns"):
        F.read_surface(points)
