"""pd over kappa product grids: histogram counts, summary statistics, streaming."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import pd_over_grid
from pdmeasure.tables.histograms import (
    GRID_SUMMARY_COLUMNS,
    grid_distribution,
    grid_tables,
    histogram_edges,
)

CMS = np.array(
    [
        [[50, 3, 2], [4, 30, 6], [1, 5, 9]],
        [[40, 10, 5], [2, 35, 3], [0, 0, 15]],
        [[55, 0, 0], [0, 40, 0], [0, 0, 15]],  # error-free: pd is 1 for every kappa
    ]
)
VALUES = [0, 0.25, 0.5, 0.75, 1]


@pytest.mark.parametrize("chunk_size", [7, 125, 1000])
def test_counts_match_numpy_histogram_on_the_full_grid(chunk_size):
    counts, edges, stats = grid_distribution(
        CMS, VALUES, bin_width=0.05, chunk_size=chunk_size, zero_division=0.0
    )
    values = pd_over_grid(CMS, VALUES)
    assert counts.shape == (3, 20)
    assert (counts.sum(axis=1) == len(VALUES) ** 3).all()
    for i in range(len(CMS)):
        np.testing.assert_array_equal(counts[i], np.histogram(values[i], bins=edges)[0])
    np.testing.assert_allclose(stats["mean"], values.mean(axis=1), rtol=1e-12)
    np.testing.assert_allclose(stats["std"], values.std(axis=1), rtol=1e-9, atol=1e-15)
    np.testing.assert_array_equal(stats["min"], values.min(axis=1))
    np.testing.assert_array_equal(stats["max"], values.max(axis=1))
    np.testing.assert_allclose(stats["q50"], np.median(values, axis=1))
    assert counts[2, -1] == 125  # pd == 1 lands in the closed last bin


def test_histogram_quantiles_beyond_the_exact_limit_stay_close():
    exact = grid_distribution(CMS[:2], VALUES, bin_width=0.01, zero_division=0.0)[2]
    approx = grid_distribution(
        CMS[:2], VALUES, bin_width=0.01, zero_division=0.0, exact_quantile_limit=10
    )[2]
    assert set(exact["quantile_method"]) == {"exact"}
    assert set(approx["quantile_method"]) == {"histogram"}
    for q in ("q05", "q25", "q50", "q75", "q95"):
        np.testing.assert_allclose(approx[q], exact[q], atol=0.011)


def test_bins_are_multiples_of_the_width():
    np.testing.assert_allclose(histogram_edges(0.1), np.arange(11) / 10)
    with pytest.raises(ValueError, match="does not divide"):
        histogram_edges(0.03)
    with pytest.raises(ValueError, match="must be in"):
        histogram_edges(0)


def test_tidy_tables():
    keys = [("e", "toy", name) for name in ("A", "B", "C")]
    histogram, summary = grid_tables(
        dict(zip(keys, CMS)), VALUES, bin_width=0.1, chunk_size=16, zero_division=0.0
    )
    assert list(summary["classifier"]) == ["A", "B", "C"]
    assert tuple(summary.columns) == GRID_SUMMARY_COLUMNS
    assert (summary["n"] == 125).all()
    assert (summary["n_undefined"] == 0).all()
    assert summary["kappa_grid"].iloc[0] == "0;0.25;0.5;0.75;1"
    assert len(histogram) == 3 * 10
    assert (histogram.groupby("classifier")["count"].sum() == 125).all()
    with pytest.raises(ValueError, match="one dataset at a time"):
        grid_tables({("e", "a", "X"): CMS[0], ("e", "b", "X"): CMS[1]}, VALUES, bin_width=0.1)


# Class 2 is never predicted by the first matrix (precision 0/0) and the third has a class
# that never occurs (recall 0/0); the second is complete.
UNDEFINED_CMS = np.array(
    [
        [[50, 3, 0], [4, 30, 0], [1, 5, 0]],
        [[40, 10, 5], [2, 35, 3], [0, 0, 15]],
        [[50, 3, 2], [4, 30, 6], [0, 0, 0]],
    ]
)


@pytest.mark.parametrize("chunk_size", [4, 17, 125])
def test_undefined_pd_is_counted_not_binned(chunk_size):
    # chunk sizes that split the grid so that rows have different numbers of defined values
    # in one chunk: the running statistics must merge per row
    counts, edges, stats = grid_distribution(
        UNDEFINED_CMS, VALUES, bin_width=0.05, chunk_size=chunk_size, zero_division="nan"
    )
    values = pd_over_grid(UNDEFINED_CMS, VALUES, zero_division="nan")
    undefined = np.isnan(values)
    assert undefined[0].any() and not undefined[0].all() and not undefined[1].any()
    assert undefined[2].any() and not undefined[2].all()
    np.testing.assert_array_equal(stats["n"], [125, 125, 125])
    np.testing.assert_array_equal(stats["n_undefined"], undefined.sum(axis=1))
    for i in range(len(UNDEFINED_CMS)):
        defined = values[i][~undefined[i]]
        np.testing.assert_array_equal(counts[i], np.histogram(defined, bins=edges)[0])
        assert stats["min"][i] == defined.min() and stats["max"][i] == defined.max()
        assert stats["mean"][i] == pytest.approx(defined.mean(), rel=1e-12)
        assert stats["std"][i] == pytest.approx(defined.std(), rel=1e-9, abs=1e-15)
        for level in (5, 25, 50, 75, 95):
            assert stats[f"q{level:02d}"][i] == pytest.approx(np.quantile(defined, level / 100))
    np.testing.assert_array_equal(counts.sum(axis=1), 125 - stats["n_undefined"])


@pytest.mark.parametrize("limit, method", [(2**22, "exact"), (4, "histogram")])
def test_pd_undefined_everywhere_has_nan_statistics(limit, method):
    # no kappa value 0 in the grid: the never-predicted class always has a non-zero weight
    counts, _, stats = grid_distribution(
        UNDEFINED_CMS[:2], [0.5, 1], bin_width=0.1, zero_division="nan", exact_quantile_limit=limit
    )
    assert set(stats["quantile_method"]) == {method}
    assert counts[0].sum() == 0 and counts[1].sum() == 8
    np.testing.assert_array_equal(stats["n_undefined"], [8, 0])
    for key in ("min", "max", "mean", "std", "q05", "q50", "q95"):
        assert np.isnan(stats[key][0]) and np.isfinite(stats[key][1]), key


@pytest.mark.parametrize("zero_division", [0.0, 1.0])
def test_no_undefined_pd_under_zero_division_numbers(zero_division):
    keys = [("e", "toy", name) for name in ("A", "B", "C")]
    histogram, summary = grid_tables(
        dict(zip(keys, UNDEFINED_CMS)), VALUES, bin_width=0.1, zero_division=zero_division
    )
    assert (summary["n_undefined"] == 0).all()
    assert (histogram.groupby("classifier")["count"].sum() == 125).all()
    assert not summary[["min", "max", "mean", "std", "q50"]].isna().any().any()


def test_undefined_pd_tables_and_csv_round_trip(tmp_path):
    from pdmeasure.tables.io import read_csv, write_csv

    keys = [("e", "toy", name) for name in ("A", "B", "C")]
    histogram, summary = grid_tables(
        dict(zip(keys, UNDEFINED_CMS)), [0.5, 1], bin_width=0.1, zero_division="nan"
    )
    assert tuple(summary.columns) == GRID_SUMMARY_COLUMNS
    assert list(summary["n"]) == [8, 8, 8]
    # A: kappa_2 is never 0 in the grid; C: kappa_2 = 0.5 weighs the 0/0 recall
    assert list(summary["n_undefined"]) == [8, 0, 4]
    assert list(histogram.groupby("classifier", sort=False)["count"].sum()) == [0, 8, 4]
    write_csv(summary, tmp_path / "summary.csv")
    text = (tmp_path / "summary.csv").read_text()
    assert ",NaN," in text and ",," not in text
    back = read_csv(tmp_path / "summary.csv", numbers=["mean", "q50"], integers=["n_undefined"])
    assert back["mean"].isna().tolist() == [True, False, False]
    assert back["n_undefined"].tolist() == [8, 0, 4]


def test_figure7_is_rendered_from_the_histogram_file(tmp_path):
    from pdmeasure.render.figures import figure7, save_figure
    from pdmeasure.tables.histograms import read_histogram

    frames = []
    for dataset, cms in (("one", CMS), ("two", CMS[:2])):
        keys = [("e", dataset, name) for name in ("A", "B", "C")[: len(cms)]]
        frames.append(grid_tables(dict(zip(keys, cms)), VALUES, bin_width=0.05)[0])
    path = tmp_path / "histogram.csv"
    pd.concat(frames).to_csv(path, index=False)
    histogram = read_histogram(path)
    fig = figure7(histogram, title="t")
    assert len(fig.axes) == 2 * 3
    assert not fig.axes[5].axison  # dataset "two" has no classifier C: empty panel
    assert fig.axes[0].get_title() == "(a) one: A"
    out = save_figure(fig, tmp_path / "fig" / "figure7.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list(out.parent.iterdir()) == [out]  # no temporary file left behind
    with pytest.raises(ValueError, match="missing columns"):
        figure7(histogram.drop(columns="count"))


def test_figure7_of_a_study_letters_every_row_and_keeps_its_title_above_the_panels():
    """30 datasets: rows (a) to (z), then (aa) to (ad), never a character past z; the title
    sits above the first row's panel titles, and every bar of a panel is one artist."""
    from pdmeasure.render.figures import figure7

    names = [f"d{i:02d}" for i in range(30)]
    frames = [
        grid_tables({("e", name, "A"): CMS[0], ("e", name, "B"): CMS[1]}, VALUES, bin_width=0.05)[0]
        for name in names
    ]
    fig = figure7(pd.concat(frames, ignore_index=True), title="Figure 7")
    titles = [ax.get_title() for ax in fig.axes[::2]]
    assert titles[0] == "(a) d00: A" and titles[25] == "(z) d25: A"
    assert titles[26:] == ["(aa) d26: A", "(ab) d27: A", "(ac) d28: A", "(ad) d29: A"]
    assert all(len(ax.collections) == 1 and not ax.patches[1:] for ax in fig.axes)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    title_bottom = fig._suptitle.get_window_extent(renderer).y0
    first_row_top = max(ax.title.get_window_extent(renderer).y1 for ax in fig.axes[:2])
    assert title_bottom > first_row_top


def test_figure7_panel_says_when_pd_is_undefined_everywhere():
    from pdmeasure.render.figures import figure7

    keys = [("e", "toy", name) for name in ("A", "B")]
    histogram = grid_tables(
        dict(zip(keys, UNDEFINED_CMS[:2])), [0.5, 1], bin_width=0.1, zero_division="nan"
    )[0]
    fig = figure7(histogram)
    texts = [[t.get_text() for t in ax.texts] for ax in fig.axes]
    assert texts == [["pd undefined at\nevery kappa vector"], []]
