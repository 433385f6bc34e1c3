"""Exact kappa-space analysis: every exact method against enumeration.

Brute force is ``pdmeasure.measures.preference_driven`` over ``pdmeasure.measures.kappa_grid``
(floats), or, where ties must be decided, exact enumeration with fractions.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from pdmeasure import measures
from pdmeasure._synthetic import dominant_diagonal_matrices
from pdmeasure.exact import (
    ExactSettings,
    GridDistribution,
    ProductGrid,
    extremes,
    grid_lattice,
    moments,
    nearest_first_place,
    pd_form,
    shares_enumerated,
    shares_monte_carlo,
    to_fraction,
    uniform_cdf,
    uniform_lattice,
)
from pdmeasure.exact.forms import pd_forms
from pdmeasure.exact.grid import grid_histograms
from pdmeasure.exact.lattice import _floor_ceil
from pdmeasure.exact.uniform import TooManyTerms
from pdmeasure.tables.exact import (
    CDF_COLUMNS,
    HISTOGRAM_COLUMNS,
    DatasetAnalysis,
    _cdf_rows,
    _histogram_rows,
    robustness_summary,
)

# The papers' grids (config.yaml) and their numbers of classes.
GRIDS = {
    "car": ([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], 4),
    "nursery": ([0, 0.166, 0.332, 0.498, 0.664, 0.83, 1], 5),
    "dermatology": ([0, 0.25, 0.5, 0.75, 1], 6),
    "krkopt": ([0.33, 0.66], 18),
}


@pytest.fixture(scope="module")
def krkopt_matrices(authors_matrices):
    return authors_matrices


def realistic(n_classes: int, n_classifiers: int, seed: int) -> dict[str, np.ndarray]:
    """Imbalanced matrices with a dominant diagonal and the same row sums (one dataset), class 0
    a tiny class of 2 samples, like nursery's "recommend"."""
    return dominant_diagonal_matrices(n_classes, n_classifiers, seed, actual=(2, 600), smallest=2)


def dataset_matrices(name, krkopt_matrices):
    if name == "krkopt":
        return krkopt_matrices
    return realistic(GRIDS[name][1], 4, seed=len(name))


def brute_force(cms: dict, values, n_classes: int) -> np.ndarray:
    """pd of every matrix at every grid vector, (M, K), by the measures library."""
    stack = np.stack(list(cms.values()))
    grid = measures.kappa_grid(np.asarray(values, dtype=float), n_classes)
    return np.concatenate(
        [measures.preference_driven(stack[:, None], chunk, zero_division=0.0) for chunk in grid],
        axis=1,
    )


def dataset_case(dataset: str, krkopt_matrices):
    """The grid values of ``dataset`` (GRIDS), its matrices, the brute-force pd of every matrix
    at every grid vector (:func:`brute_force`) and the grid."""
    values, n_classes = GRIDS[dataset]
    cms = dataset_matrices(dataset, krkopt_matrices)
    brute = brute_force(cms, values, n_classes)
    return values, cms, brute, ProductGrid.regular(values, n_classes)


def exact_enumeration(form, grid: ProductGrid) -> list[Fraction]:
    return [form.value(k) for k in itertools.product(*grid.values)]


@pytest.mark.parametrize("dataset", list(GRIDS))
def test_histogram_equals_enumeration_bin_for_bin(dataset, krkopt_matrices):
    _, cms, brute, grid = dataset_case(dataset, krkopt_matrices)
    for width in (0.01, 0.002):
        edges = np.linspace(0.0, 1.0, round(1 / width) + 1)
        expected = np.stack([np.histogram(row, edges)[0] for row in brute])
        for row, cm in zip(expected, cms.values()):
            exact = GridDistribution(pd_form(cm), grid).histogram(edges)
            np.testing.assert_array_equal(exact, row)
            assert exact.sum() == grid.n_vectors
        batched = grid_histograms(pd_forms(np.stack(list(cms.values()))), grid, edges)
        np.testing.assert_array_equal(batched, expected)


def test_batched_histograms_settle_values_on_edges_exactly():
    # Dyadic precision and recall: every pd value is a float exactly, some fall on edges.
    a, b = np.array([[1, 3], [1, 3]]), np.array([[3, 1], [3, 1]])
    grid = ProductGrid.regular([0, 0.25, 0.5, 0.75, 1], 2)
    forms = pd_forms(np.stack([a, b]))
    values = [exact_enumeration(f, grid) for f in forms]
    edges = np.array([0.0, 0.4375, 0.5, 0.5625, 1.0])
    assert all(Fraction(e) in values[0] for e in edges[1:-1]), "values must sit on the edges"
    for form, vals, counts in zip(forms, values, grid_histograms(forms, grid, edges)):
        exact_edges = [Fraction(e) for e in edges]
        expected = [
            sum(lo <= v < hi for v in vals) for lo, hi in zip(exact_edges[:-2], exact_edges[1:-1])
        ]
        expected.append(sum(exact_edges[-2] <= v <= exact_edges[-1] for v in vals))
        assert counts.tolist() == expected
        assert GridDistribution(form, grid).histogram(edges).tolist() == expected


@pytest.mark.parametrize("dataset", list(GRIDS))
def test_cdf_min_max_and_moments_equal_enumeration(dataset, krkopt_matrices):
    _, cms, brute, grid = dataset_case(dataset, krkopt_matrices)
    rng = np.random.default_rng(0)
    for row, cm in zip(brute, cms.values()):
        form = pd_form(cm)
        dist = GridDistribution(form, grid)
        points = rng.uniform(row.min() - 0.01, row.max() + 0.01, 50)
        less, equal = dist.counts(points)
        np.testing.assert_array_equal(np.add(less, equal), (row[None] <= points[:, None]).sum(1))
        np.testing.assert_allclose(
            dist.cdf(points), np.add(less, equal) / grid.n_vectors, rtol=1e-15
        )
        ext = extremes(form, grid)
        assert float(ext["min"]) == pytest.approx(row.min(), abs=1e-12)
        assert float(ext["max"]) == pytest.approx(row.max(), abs=1e-12)
        at = measures.preference_driven(
            cm, np.array([float(v) for v in ext["argmax"]]), zero_division=0.0
        )
        assert at == pytest.approx(row.max(), abs=1e-12)
        mean, std = moments(form, grid)
        assert mean == pytest.approx(row.mean(), abs=1e-12)
        assert std == pytest.approx(row.std(), rel=1e-9)


def tie_heavy_pair():
    """Two matrices whose pd coincide on many kappa vectors (exact ties), 4 classes."""
    a = np.array([[8, 2, 0, 0], [2, 8, 0, 0], [0, 0, 5, 5], [0, 0, 5, 5]])
    b = np.array([[8, 0, 2, 0], [0, 8, 0, 2], [0, 0, 5, 5], [2, 0, 5, 3]])
    return a, b


def test_exact_ties_against_fraction_enumeration():
    a, b = tie_heavy_pair()
    grid = ProductGrid.regular([0, 0.25, 0.5, 0.75, 1], 4)
    diff = pd_form(a) - pd_form(b)
    values = exact_enumeration(diff, grid)
    assert sum(v == 0 for v in values) > 0, "the fixture must produce ties"
    less, equal = GridDistribution(diff, grid).counts([0, Fraction(1, 40), -0.05])
    for q, (n_less, n_equal) in zip(
        [Fraction(0), Fraction(1, 40), Fraction(-0.05)], zip(less, equal)
    ):
        assert n_less == sum(v < q for v in values)
        assert n_equal == sum(v == q for v in values)


@pytest.mark.parametrize("dataset", list(GRIDS))
def test_win_probabilities_equal_enumeration(dataset, krkopt_matrices):
    values, cms, brute, grid = dataset_case(dataset, krkopt_matrices)
    table = DatasetAnalysis(
        cms, values, ExactSettings(), engine="e", dataset=dataset
    ).win_probabilities()
    grid_rows = table[table["space"] == "grid"].set_index(["classifier_a", "classifier_b"])
    names = list(cms)
    for i, j in itertools.permutations(range(len(names)), 2):
        d = brute[i] - brute[j]
        assert not np.any((np.abs(d) > 1e-12) & (np.abs(d) < 1e-9)), "ambiguous float ties"
        row = grid_rows.loc[(names[i], names[j])]
        n = grid.n_vectors
        assert row["p_greater"] == pytest.approx(np.sum(d > 1e-12) / n, abs=1e-15)
        assert row["p_tie"] == pytest.approx(np.sum(np.abs(d) <= 1e-12) / n, abs=1e-15)
        assert row["p_less"] == pytest.approx(np.sum(d < -1e-12) / n, abs=1e-15)
        assert row["error_bound"] == 0.0


def test_lattice_bounds_contain_enumeration(krkopt_matrices):
    values, n_classes = GRIDS["krkopt"]
    grid = ProductGrid.regular(values, n_classes)
    edges = np.linspace(0, 1, 501)
    brute = brute_force(krkopt_matrices, values, n_classes)
    for row, cm in zip(brute, krkopt_matrices.values()):
        lattice = grid_lattice(pd_form(cm), grid, size=2**12)
        assert lattice.method == "lattice" and lattice.error_bound > 0
        lower, upper = lattice.histogram_bounds(edges)
        counts = np.histogram(row, edges)[0]
        assert np.all(lower <= counts) and np.all(counts <= upper)
        assert lower.sum() <= grid.n_vectors <= upper.sum()
        points = np.linspace(row.min(), row.max(), 40)[1:-1]  # not at attained floats
        b = lattice.bounds(points)
        truth = (row[None] <= points[:, None]).sum(1)
        assert np.all(b["le_lo"] <= truth) and np.all(truth <= b["le_hi"])


def test_lattice_is_exact_when_terms_share_a_small_denominator():
    cm = (
        np.array([[3, 1], [1, 3]]) * 5
    )  # precision = recall = 3/4: every term is a multiple of 1/80
    cm[0, 1] += 5
    grid = ProductGrid.regular([0, 0.5, 1], 2)
    lattice = grid_lattice(pd_form(cm), grid, size=1000)
    assert lattice.method == "lattice-exact"
    values = exact_enumeration(pd_form(cm), grid)
    for q in sorted(set(values)):
        b = lattice.bounds([q])
        assert b["le_lo"][0] == b["le_hi"][0] == sum(v <= q for v in values)
        assert b["less_lo"][0] == sum(v < q for v in values)


def test_fine_grid_lattice_bounds_cover_total_fast_path(krkopt_matrices):
    cm = next(iter(krkopt_matrices.values()))
    grid = ProductGrid.evenly_spaced(11, 18)
    lattice = grid_lattice(pd_form(cm), grid, size=2**16)
    assert lattice.total == 11**18
    lower, upper = lattice.histogram_bounds(np.linspace(0, 1, 101))
    assert lower.sum() <= 11**18 <= upper.sum()
    # the 11-value grid contains the 2-value grid's extremes: same ends, from the exact min/max
    ext = extremes(pd_form(cm), grid)
    b = lattice.bounds([ext["min"] - Fraction(1, 10**12), ext["max"]])
    assert b["le_hi"][0] == 0 and b["le_lo"][1] == 11**18  # the exact extremes tighten the bounds


def uniform_bracket(form, points, cells: int):
    """Bounds on P(X <= x), kappa uniform, by enumerating the cells' left corners (brute force)."""
    slopes = np.array([float(s) for s in form.slopes])
    corners = brute_values = np.array(
        list(itertools.product(np.arange(cells) / cells, repeat=len(slopes)))
    )
    brute_values = form.evaluate(corners)
    low_shift, high_shift = np.minimum(slopes, 0).sum() / cells, np.maximum(slopes, 0).sum() / cells
    lower = (brute_values[None] + high_shift <= points[:, None]).mean(1)
    upper = (brute_values[None] + low_shift <= points[:, None]).mean(1)
    return lower, upper


def test_uniform_cdf_inside_enumeration_bracket_and_lattice():
    cms = realistic(4, 2, seed=3)
    a, b = (pd_form(cm) for cm in cms.values())
    for form in (a, a - b):
        ext = extremes(form, None)
        points = np.linspace(float(ext["min"]), float(ext["max"]), 25)
        exact = np.array([float(uniform_cdf(form, x)) for x in points])
        lower, upper = uniform_bracket(form, points, cells=24)
        assert np.all(lower - 1e-12 <= exact) and np.all(exact <= upper + 1e-12)
        assert np.max(upper - lower) < 0.2  # the bracket is informative
        lat = uniform_lattice(form, size=4096).bounds(points)
        assert np.all(lat["le_lo"] - 1e-9 <= exact) and np.all(exact <= lat["le_hi"] + 1e-9)


def test_uniform_cdf_two_classes_closed_form():
    # X = U1/4 + U2/2 (slopes 1/4, 1/2, const 0): P(X <= 1/8) = triangle area (1/8)^2 / (2 * 1/8).
    from pdmeasure.exact import LinearForm

    form = LinearForm(Fraction(0), (Fraction(1, 4), Fraction(1, 2)))
    assert uniform_cdf(form, Fraction(1, 8)) == Fraction(1, 16)
    assert uniform_cdf(form, Fraction(3, 8)) == Fraction(1, 2)  # symmetry about the mean
    assert uniform_cdf(form, Fraction(1, 2)) == 1 - Fraction(1, 4)  # (1/4 wide strip, then linear)
    negative = LinearForm(Fraction(1, 2), (Fraction(-1, 4), Fraction(-1, 2)))  # 1/2 - X
    assert uniform_cdf(negative, Fraction(3, 8)) == 1 - uniform_cdf(form, Fraction(1, 8))
    with pytest.raises(TooManyTerms):
        uniform_cdf(LinearForm(Fraction(0), (Fraction(1),) * 12), 6, max_terms=10)


@pytest.mark.parametrize("dataset", ["car", "krkopt"])
def test_shares_equal_enumeration_and_monte_carlo_covers(dataset, krkopt_matrices):
    _, cms, brute, grid = dataset_case(dataset, krkopt_matrices)
    forms = [pd_form(cm) for cm in cms.values()]
    unique, tied = shares_enumerated(forms, grid, chunk_size=5000)
    order = np.sort(brute, axis=0)
    clear = order[-1] - order[-2] > 1e-12
    np.testing.assert_array_equal(unique, np.bincount(brute.argmax(0)[clear], minlength=len(forms)))
    assert unique.sum() + (~clear).sum() == grid.n_vectors
    mc_unique, _ = shares_monte_carlo(forms, grid, samples=20000, seed=1)
    from pdmeasure.exact import wilson_interval

    for u, m in zip(unique, mc_unique):
        low, high = wilson_interval(m, 20000, 0.999)
        assert low <= u / grid.n_vectors <= high


@given(
    st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.sampled_from([0.5, 0.9, 0.95, 0.99, 0.999]) | st.floats(0.01, 0.999),
)
@hypothesis_settings(deadline=None)  # the first example imports scipy.stats
def test_wilson_interval_is_scipy_binomtest_proportion_ci_to_the_bit(k_n, confidence):
    from scipy.stats import binomtest

    from pdmeasure.exact import wilson_interval

    k, n = k_n
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    assert wilson_interval(k, n, confidence) == (float(ci.low), float(ci.high))


def test_shares_count_exact_ties():
    a, b = tie_heavy_pair()
    grid = ProductGrid.regular([0, 0.25, 0.5, 0.75, 1], 4)
    forms = [pd_form(a), pd_form(b)]
    unique, tied = shares_enumerated(forms, grid)
    diffs = exact_enumeration(forms[0] - forms[1], grid)
    assert tied.tolist() == [sum(d == 0 for d in diffs)] * 2
    assert unique.tolist() == [sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)]


def first_places_reference(forms, kappas):
    """The slow literal count: every form's exact pd at every kappa vector, the unique best
    and the tied best."""
    unique = np.zeros(len(forms), dtype=np.int64)
    tied = np.zeros(len(forms), dtype=np.int64)
    for kappa in kappas:
        values = [form.value(kappa) for form in forms]
        winners = [m for m, v in enumerate(values) if v == max(values)]
        (unique if len(winners) == 1 else tied)[winners] += 1
    return unique, tied


def test_shares_with_identical_classifiers_equal_the_literal_count():
    """Classifiers with the same pooled matrix (common on small data: two that always predict
    the majority class) tie wherever they are best; the counts equal the literal exact ones,
    on a grid and under Monte Carlo on uniform kappa."""
    a, b = tie_heavy_pair()
    c = np.array([[7, 1, 1, 1], [1, 7, 1, 1], [1, 1, 4, 4], [1, 1, 4, 4]])
    forms = [pd_form(m) for m in (a, b, a.copy(), c, b.copy(), a.copy())]
    grid = ProductGrid.regular([0, 0.25, 0.5, 0.75, 1], 4)
    kappas = itertools.product(*grid.values)
    expected = first_places_reference(forms, kappas)
    assert expected[1][0] > 0 and expected[1][1] > 0, "the fixture must produce ties"
    np.testing.assert_array_equal(shares_enumerated(forms, grid, chunk_size=77), expected)
    unique, tied = shares_monte_carlo(forms, None, samples=3000, seed=5, chunk_size=1000)
    rng = np.random.default_rng(5)
    draws = np.concatenate([rng.random((1000, 4)) for _ in range(3)])
    literal = first_places_reference(forms, [[Fraction(float(v)) for v in row] for row in draws])
    np.testing.assert_array_equal(unique, literal[0])
    np.testing.assert_array_equal(tied, literal[1])


@pytest.mark.parametrize("norm", ["linf", "l1"])
def test_robustness_lp_is_feasible_and_no_grid_point_is_closer(norm):
    cms = realistic(4, 4, seed=11)
    forms = [pd_form(cm) for cm in cms.values()]
    kappa0 = [
        Fraction(int(n), int(sum(next(iter(cms.values())).sum(1))))
        for n in next(iter(cms.values())).sum(1)
    ]
    k0 = np.array([float(v) for v in kappa0])
    default = [f.value(kappa0) for f in forms]
    winner = default.index(max(default))
    grid = ProductGrid.regular(np.linspace(0, 1, 21).round(2), 4)
    kappa = grid.vectors(np.arange(grid.n_vectors))
    values = np.stack([f.evaluate(kappa) for f in forms])
    dist = np.abs(kappa - k0).max(1) if norm == "linf" else np.abs(kappa - k0).sum(1)
    found_any = False
    for c in range(len(forms)):
        if c == winner:
            continue
        distance, at, status = nearest_first_place(forms, c, kappa0, norm)
        first_here = values[c] >= values.max(0) - 1e-12
        if status == "never-first":
            assert not first_here.any()
            continue
        found_any = True
        assert np.all(forms[c].evaluate(at) >= np.array([f.evaluate(at) for f in forms]) - 1e-9)
        reached = np.abs(at - k0).max() if norm == "linf" else np.abs(at - k0).sum()
        assert reached == pytest.approx(distance, abs=1e-7)
        if first_here.any():
            assert dist[first_here].min() >= distance - 1e-7
    assert found_any, "the fixture should let some challenger win somewhere"


@hypothesis_settings(max_examples=300, deadline=None)
@given(
    base=st.fractions(min_value=-5, max_value=5, max_denominator=10**6),
    step=st.fractions(min_value=Fraction(-3), max_value=Fraction(3), max_denominator=10**6).filter(
        lambda f: f != 0
    ),
    xs=st.lists(
        st.one_of(
            st.floats(min_value=-10, max_value=10, allow_nan=False),
            st.fractions(min_value=-10, max_value=10, max_denominator=10**9),
        ),
        max_size=20,
    ),
)
def test_lattice_units_equal_fraction_arithmetic(base, step, xs):
    """The integer floor and ceiling of (x - base) / step behind LatticeDistribution.bounds
    equal math.floor and math.ceil of the same in Fractions, point for point."""
    points = [Fraction(x) for x in xs]
    floors, ceilings = _floor_ceil(points, base, step)
    assert floors.tolist() == [math.floor((x - base) / step) for x in points]
    assert ceilings.tolist() == [math.ceil((x - base) / step) for x in points]


def test_one_space_histogram_equals_that_of_all_distributions():
    """DatasetAnalysis.histogram(space) gives the rows of distributions()'s histogram for that
    space, value for value (the explorer asks for the grid's alone). Only the count columns'
    dtype may differ: all spaces together mix a grid's counts with uniform kappa's empty
    cells."""
    cms = realistic(5, 3, seed=5)
    settings = ExactSettings(
        monte_carlo_samples=2000, lattice_size=2**12, fine_grid_values=5, cdf_points=21
    )
    analysis = DatasetAnalysis(cms, GRIDS["nursery"][0], settings, engine="e", dataset="d")
    _, histogram = analysis.distributions()
    assert set(analysis.grids) == {"grid", "fine", "uniform"}
    for space in analysis.grids:
        expected = histogram[histogram["space"] == space].reset_index(drop=True)
        pd.testing.assert_frame_equal(analysis.histogram(space), expected, check_dtype=False)


def test_distribution_tables_equal_a_frame_per_classifier_and_space():
    """distributions() builds each table once from the parts' columns: the same table, dtypes
    included, as a frame per classifier and space concatenated."""
    cms = realistic(4, 3, seed=2)
    settings = ExactSettings(
        monte_carlo_samples=2000, lattice_size=2**12, fine_grid_values=5, cdf_points=21
    )
    analysis = DatasetAnalysis(cms, GRIDS["nursery"][0], settings, engine="e", dataset="d")
    cdf, histogram = analysis.distributions()
    edges, cdf_frames, histogram_frames = analysis._edges(), [], []
    for space, grid in analysis.grids.items():
        points = analysis._cdf_points(grid)
        for name, dist in analysis._distributions(space, len(points) + len(edges)):
            keys = {**analysis.keys, "classifier": name, "space": space}
            cdf_frames.append(pd.DataFrame(_cdf_rows(dist, points, keys)[1]))
            rows = _histogram_rows(dist, edges, keys, counts=grid is not None)[1]
            histogram_frames.append(pd.DataFrame(rows))
    for table, frames, columns in (
        (cdf, cdf_frames, CDF_COLUMNS),
        (histogram, histogram_frames, HISTOGRAM_COLUMNS),
    ):
        expected = pd.concat(frames, ignore_index=True)[list(columns)]
        pd.testing.assert_frame_equal(table, expected, check_exact=True)


def test_dataset_analysis_tables_are_consistent():
    cms = realistic(5, 3, seed=5)
    settings = ExactSettings(
        monte_carlo_samples=2000, lattice_size=2**12, fine_grid_values=5, cdf_points=21
    )
    tables = DatasetAnalysis(cms, GRIDS["nursery"][0], settings, engine="e", dataset="d").tables()
    win = tables["win"]
    total = win["p_greater"] + win["p_tie"] + win["p_less"]
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    mirrored = win.set_index(["space", "classifier_a", "classifier_b"])
    for (space, a, b), row in mirrored.iterrows():
        assert row["p_greater"] == pytest.approx(mirrored.loc[(space, b, a), "p_less"])
    share = tables["share"]
    for _, part in share.groupby("space"):
        assert part["p_first"].sum() <= 1.0 + 1e-12
    hist = tables["histogram"]
    assert (hist["p_lower"] <= hist["p_upper"] + 1e-15).all()
    cdf = tables["cdf"]
    assert (cdf["cdf_lower"] <= cdf["cdf_upper"] + 1e-12).all()
    summary = robustness_summary(tables["robustness"])
    assert set(summary["norm"]) == {"linf", "l1"}


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="0/0"):
        pd_form(np.array([[1, 0], [1, 0]]), zero_division="nan")
    with pytest.raises(ValueError, match="integer counts"):
        pd_form(np.array([[1.5, 0], [1, 0]]))
    with pytest.raises(ValueError, match="repeat"):
        ProductGrid.regular([0, 0, 1], 2)
    with pytest.raises(ValueError, match="max_half"):
        GridDistribution(
            pd_form(np.eye(18, dtype=int) + np.tri(18, dtype=int)),
            ProductGrid.evenly_spaced(11, 18),
            max_half=1000,
        )
    with pytest.raises(ValueError, match="same data"):
        DatasetAnalysis(
            {"a": np.eye(2, dtype=int), "b": np.diag([2, 1])},
            [0, 1],
            ExactSettings(),
            engine="e",
            dataset="d",
        )
    assert to_fraction(0.166) == Fraction(166, 1000)


def test_figures_render(tmp_path):
    from pdmeasure.render.exact_figures import cdf_figure, fine_figure7, share_bars, win_heatmap
    from pdmeasure.render.figures import save_figure

    cms = realistic(3, 3, seed=2)
    settings = ExactSettings(monte_carlo_samples=500, lattice_size=2**10, cdf_points=11)
    t = DatasetAnalysis(cms, [0, 0.5, 1], settings, engine="e", dataset="d").tables()
    for name, fig in {
        "win": win_heatmap(t["win"]),
        "cdf": cdf_figure(t["cdf"]),
        "share": share_bars(t["share"]),
        "fig7": fine_figure7(t["histogram"]),
    }.items():
        path = save_figure(fig, tmp_path / f"{name}.png")
        assert path.stat().st_size > 1000
    with pytest.raises(ValueError, match="missing columns"):
        win_heatmap(t["share"])


# Three classifiers of one 3-class dataset; "stump" never predicts class 2 (precision 0/0).
UNDEFINED = {
    "a": np.array([[50, 3, 2], [4, 30, 6], [1, 5, 9]]),
    "stump": np.array([[52, 3, 0], [6, 34, 0], [3, 12, 0]]),
    "b": np.array([[45, 8, 2], [2, 35, 3], [0, 4, 11]]),
}
SMALL = dict(monte_carlo_samples=500, lattice_size=2**10, cdf_points=11, fine_grid_values=5)


def _csv(table) -> str:
    return table.to_csv(index=False)


def test_undefined_ratios_name_every_zero_over_zero():
    from pdmeasure.exact.analysis import undefined_ratios

    cm = np.array([[5, 0, 0], [2, 0, 0], [0, 0, 0]])
    assert undefined_ratios(cm, "nan") == [(1, "precision"), (2, "precision"), (2, "recall")]
    assert undefined_ratios(cm, float("nan")) == [(1, "precision"), (2, "precision"), (2, "recall")]
    assert undefined_ratios(cm, 0.0) == [] and undefined_ratios(cm, 1.0) == []
    assert undefined_ratios(UNDEFINED["a"], "nan") == []


def test_classifier_with_undefined_pd_is_left_out_with_a_warning(caplog):
    settings = ExactSettings(**SMALL, zero_division="nan")
    with caplog.at_level("WARNING", logger="pdmeasure.tables.exact"):
        analysis = DatasetAnalysis(
            UNDEFINED, [0, 0.5, 1], settings, engine="eng", dataset="toy", classes=["x", "y", "z"]
        )
    assert analysis.names == ["a", "b"]
    assert analysis.excluded == {"stump": [(2, "precision")]}
    (record,) = caplog.records
    assert record.levelname == "WARNING"
    message = record.getMessage()
    for part in (
        "eng/toy",
        "classifier 'stump'",
        "left out of the exact analysis",
        "class 'z' (index 2) is never predicted",
        "kappa[2] != 0",
        "set zero_division to 0",
        "or 1",
    ):
        assert part in message, part
    # the remaining classifiers are analysed exactly as if the stump were not configured
    kept = {name: UNDEFINED[name] for name in ("a", "b")}
    alone = DatasetAnalysis(kept, [0, 0.5, 1], settings, engine="eng", dataset="toy").tables()
    tables = analysis.tables()
    for name, table in tables.items():
        assert _csv(table) == _csv(alone[name]), name
        assert "stump" not in _csv(table), name
    assert len(tables["win"]) > 0 and len(tables["robustness"]) > 0


def test_without_class_names_the_warning_names_the_class_index(caplog):
    settings = ExactSettings(**SMALL, zero_division="nan")
    with caplog.at_level("WARNING", logger="pdmeasure.tables.exact"):
        DatasetAnalysis(UNDEFINED, None, settings, engine="eng", dataset="toy")
    assert "class index 2 is never predicted" in caplog.records[0].getMessage()


@pytest.mark.parametrize("zero_division", [0.0, 1.0])
def test_every_classifier_is_kept_under_zero_division_numbers(zero_division, caplog):
    settings = ExactSettings(**SMALL, zero_division=zero_division)
    with caplog.at_level("WARNING"):
        analysis = DatasetAnalysis(UNDEFINED, [0, 1], settings, engine="e", dataset="d")
    assert analysis.names == list(UNDEFINED) and analysis.excluded == {}
    assert not caplog.records
    assert set(analysis.tables()["summary"]["classifier"]) == set(UNDEFINED)


def _assert_empty_with_columns(table, columns, tmp_path, name):
    from pdmeasure.render.exact_figures import read_exact_table
    from pdmeasure.tables.io import write_csv

    assert table.empty and tuple(table.columns) == columns, name
    write_csv(table, tmp_path / f"{name}.csv")
    back = read_exact_table(tmp_path / f"{name}.csv")
    assert back.empty and tuple(back.columns) == columns, name


def test_one_classifier_left_gives_empty_pairwise_tables(tmp_path):
    from pdmeasure.tables import exact as A

    settings = ExactSettings(**SMALL, zero_division="nan")
    matrices = {name: UNDEFINED[name] for name in ("stump", "a")}
    tables = DatasetAnalysis(matrices, [0, 0.5, 1], settings, engine="e", dataset="d").tables()
    _assert_empty_with_columns(tables["win"], A.WIN_COLUMNS, tmp_path, "win")
    _assert_empty_with_columns(tables["robustness"], A.ROBUSTNESS_COLUMNS, tmp_path, "robustness")
    for name, columns in (
        ("summary", A.SUMMARY_COLUMNS),
        ("cdf", A.CDF_COLUMNS),
        ("histogram", A.HISTOGRAM_COLUMNS),
        ("share", A.SHARE_COLUMNS),
    ):
        assert tuple(tables[name].columns) == columns, name
        assert set(tables[name]["classifier"]) == {"a"}, name
    # alone, "a" ranks first everywhere
    assert (tables["share"]["p_first"] == 1.0).all()
    summary = robustness_summary(tables["robustness"])
    _assert_empty_with_columns(
        summary, A.ROBUSTNESS_SUMMARY_COLUMNS, tmp_path, "robustness_summary"
    )


def test_single_configured_classifier_gives_empty_pairwise_tables():
    from pdmeasure.tables import exact as A

    tables = DatasetAnalysis(
        {"a": UNDEFINED["a"]}, [0, 1], ExactSettings(**SMALL), engine="e", dataset="d"
    ).tables()
    assert tables["win"].empty and tuple(tables["win"].columns) == A.WIN_COLUMNS
    assert (
        tables["robustness"].empty and tuple(tables["robustness"].columns) == A.ROBUSTNESS_COLUMNS
    )
    assert not tables["summary"].empty and not tables["share"].empty


def test_no_classifier_left_gives_empty_tables_with_columns(tmp_path, caplog):
    from pdmeasure.tables import exact as A

    # class 2 never occurs: every classifier's recall of it is 0/0
    matrices = {
        "a": np.array([[5, 1, 0], [1, 4, 1], [0, 0, 0]]),
        "b": np.array([[6, 0, 0], [2, 4, 0], [0, 0, 0]]),
    }
    settings = ExactSettings(**SMALL, zero_division="nan")
    with caplog.at_level("WARNING", logger="pdmeasure.tables.exact"):
        tables = DatasetAnalysis(matrices, [0, 0.5, 1], settings, engine="e", dataset="d").tables()
    assert len(caplog.records) == 2
    assert "class index 2 never occurs, so its recall is 0/0" in caplog.records[1].getMessage()
    for name, columns in (
        ("summary", A.SUMMARY_COLUMNS),
        ("cdf", A.CDF_COLUMNS),
        ("histogram", A.HISTOGRAM_COLUMNS),
        ("win", A.WIN_COLUMNS),
        ("share", A.SHARE_COLUMNS),
        ("robustness", A.ROBUSTNESS_COLUMNS),
    ):
        _assert_empty_with_columns(tables[name], columns, tmp_path, name)


def _texts(fig) -> str:
    return "\n".join(t.get_text() for ax in fig.axes for t in ax.texts)


def test_empty_tables_render_placeholder_figures(tmp_path):
    from pdmeasure.render import exact_figures as P
    from pdmeasure.render.figures import save_figure

    settings = ExactSettings(**SMALL, zero_division="nan")
    one = DatasetAnalysis(
        {name: UNDEFINED[name] for name in ("stump", "a")},
        [0, 1],
        settings,
        engine="e",
        dataset="d",
    ).tables()
    none = DatasetAnalysis(
        {"stump": UNDEFINED["stump"]}, [0, 1], settings, engine="e", dataset="d"
    ).tables()
    figures = {
        "win": (P.win_heatmap(one["win"], title="T"), P.NO_WIN),
        "cdf": (P.cdf_figure(none["cdf"]), P.NO_CDF),
        "share": (P.share_bars(none["share"]), P.NO_SHARE),
        "fig7": (P.fine_figure7(none["histogram"]), P.NO_FINE_HISTOGRAM),
    }
    for name, (fig, reason) in figures.items():
        assert reason in _texts(fig), name
        assert save_figure(fig, tmp_path / f"{name}.png").stat().st_size > 1000
    assert figures["win"][0].get_suptitle() == "T"
    assert "fewer than two classifiers" in P.NO_WIN
    # a table that lacks columns is still an error, empty or not
    with pytest.raises(ValueError, match="missing columns"):
        P.win_heatmap(one["share"].iloc[:0])
    # the non-empty tables of the remaining classifier still give real figures
    assert P.NO_CDF not in _texts(P.cdf_figure(one["cdf"]))


def test_fine_figure7_marks_a_classifier_left_out():
    from pdmeasure.render import exact_figures as P

    settings = ExactSettings(**SMALL, zero_division="nan")
    tables = DatasetAnalysis(UNDEFINED, [0, 1], settings, engine="e", dataset="d").tables()
    fig = P.fine_figure7(tables["histogram"], classifiers=list(UNDEFINED))
    panels = [(ax.axison, [t.get_text() for t in ax.texts]) for ax in fig.axes]
    assert panels == [(True, []), (False, [P.LEFT_OUT]), (True, [])]
    assert fig.axes[1].get_title() == "(a) d: stump"
