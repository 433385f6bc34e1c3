"""The exact analysis at many classes: the one-sweep counts, the method choice, float counts.

Counts of :class:`GridDistribution` are checked against enumeration in exact fractions on small
grids built to have ties, for every split of the classes the cost model may choose; analyses
of 20 and 50 classes (grids of 11**20 and 11**50 vectors, past int64) must give finite,
monotone CDFs in [0, 1]. No timing is asserted (see ``benchmarks/bench_exact_classes.py``).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from pdmeasure._synthetic import dominant_diagonal_matrices
from pdmeasure.exact import (
    ExactSettings,
    GridDistribution,
    LinearForm,
    ProductGrid,
    distribution,
    grid_lattice,
    pd_form,
    uniform_cdf,
    uniform_lattice,
)
from pdmeasure.exact.grid import mitm_plan, mitm_seconds
from pdmeasure.exact.uniform import TooManyTerms, term_seconds
from pdmeasure.tables.exact import DatasetAnalysis


def enumerated_counts(form: LinearForm, grid: ProductGrid, xs) -> tuple[list[int], list[int]]:
    """Numbers of grid vectors with value ``< x`` and ``== x``, in exact fractions."""
    values = [form.value(kappa) for kappa in itertools.product(*grid.values)]
    points = [x if isinstance(x, Fraction) else Fraction(float(x)) for x in xs]
    less = [sum(v < x for v in values) for x in points]
    equal = [sum(v == x for v in values) for x in points]
    return less, equal


def tie_cases():
    """Forms and grids whose values hit the query points exactly, 3 to 6 classes."""
    halves = [Fraction(k, 2) for k in range(3)]
    yield (
        LinearForm(Fraction(1, 3), [Fraction(1, 6), Fraction(-1, 6), Fraction(1, 3)]),
        ProductGrid.regular(halves, 3),
    )
    yield (
        LinearForm(0, [Fraction(1, 4), Fraction(1, 4), Fraction(-1, 2), 0, Fraction(1, 8)]),
        ProductGrid.evenly_spaced(4, 5),
    )
    yield (
        LinearForm(Fraction(1, 2), [Fraction(1, 10), Fraction(-1, 10)] * 3),
        ProductGrid.regular([0, 0.1, 0.2, 0.5, 1], 6),
    )
    cms = dominant_diagonal_matrices(4, 2, seed=4)
    a, b = (pd_form(cm) for cm in cms.values())
    yield a, ProductGrid.evenly_spaced(5, 4)
    yield a - b, ProductGrid.evenly_spaced(5, 4)


@pytest.mark.parametrize("case", range(5))
def test_sweep_counts_equal_enumeration_for_every_split(case):
    form, grid = list(tie_cases())[case]
    values = sorted({form.value(k) for k in itertools.product(*grid.values)})
    # Every value (ties), points between and outside, floats and fractions, unsorted.
    xs = [*values, values[0] - 1, values[-1] + 1, (values[0] + values[-1]) / 2, Fraction(0)]
    xs += [float(v) for v in np.linspace(float(values[0]), float(values[-1]), 17)]
    xs = xs[::-1]
    expected = enumerated_counts(form, grid, xs)
    active = tuple(n for s, n in zip(form.slopes, grid.sizes) if s != 0 and n > 1)
    splits = set()
    for n_queries in (1, 10, 10**3, 10**6):
        plan = mitm_plan(active, n_queries, 2**22)
        assert plan is not None
        splits.add(plan[0])
        assert GridDistribution(form, grid, n_queries=n_queries).counts(xs) == expected
    if case == 2:
        assert len(splits) > 1  # the query count does change the split


def test_counts_of_a_tie_rich_difference_equal_enumeration():
    # Two classifiers with the same rates in most classes: pd_A - pd_B == 0 on many vectors.
    cm = np.array([[8, 1, 1, 0], [1, 7, 1, 1], [0, 2, 6, 2], [1, 0, 1, 8]])
    other = cm.copy()
    other[0] = [7, 2, 1, 0]
    diff = pd_form(cm) - pd_form(other)
    grid = ProductGrid.evenly_spaced(6, 4)
    xs = [0, 0.0, Fraction(1, 1000), -1e-3]
    assert GridDistribution(diff, grid).counts(xs) == enumerated_counts(diff, grid, xs)


def test_plan_respects_max_half_and_reports_when_nothing_fits():
    sizes = (11,) * 10
    first, second, seconds = mitm_plan(sizes, 900, 2**22)
    assert max(11 ** len(first), 11 ** len(second)) <= 2**22 and seconds > 0
    assert mitm_plan(sizes, 900, 1000) is None
    assert mitm_seconds(sizes, 900, max_half=1000) == math.inf
    # More queries never make meet in the middle cheaper.
    assert mitm_seconds(sizes, 1) <= mitm_seconds(sizes, 900)


def test_distribution_switches_to_the_lattice_only_when_too_costly():
    form = pd_form(dominant_diagonal_matrices(10, 1, seed=1)["clf0"])
    grid = ProductGrid.evenly_spaced(11, 10)
    assert distribution(form, grid, ExactSettings(), n_queries=1).method == "exact"
    assert distribution(form, grid, ExactSettings(), n_queries=900).method != "exact"
    forced = ExactSettings(exact_seconds=math.inf)
    assert isinstance(distribution(form, grid, forced, n_queries=900), GridDistribution)


def test_lattice_counts_past_int64_are_floats_that_add_up():
    form = pd_form(dominant_diagonal_matrices(20, 1, seed=2)["clf0"])
    small = grid_lattice(form, ProductGrid.evenly_spaced(8, 20))  # 8**20 < 2**63
    large = grid_lattice(form, ProductGrid.evenly_spaced(11, 20))  # 11**20 > 2**63
    assert small.weights.dtype == np.int64 and int(small.weights.sum()) == 8**20
    assert large.weights.dtype == np.float64 and large.total == 11**20
    assert np.all(large.weights >= 0)
    assert float(large.weights.sum()) == pytest.approx(11**20, rel=1e-12)
    b = large.bounds([float(large.minimum) - 1, float(large.maximum) + 1])
    assert b["le_hi"][0] == 0 and b["less_lo"][1] == pytest.approx(11**20, rel=1e-12)


def test_uniform_budget_is_raised_at_once_exactly_when_exceeded():
    form = pd_form(dominant_diagonal_matrices(12, 1, seed=3)["clf0"])
    base = form.const + sum((s for s in form.slopes if s < 0), Fraction(0))
    widths = [abs(s) for s in form.slopes if s != 0]
    t = sum(widths, Fraction(0)) / 3
    terms = sum(
        sum(subset, Fraction(0)) < t
        for r in range(len(widths) + 1)
        for subset in itertools.combinations(widths, r)
    )
    value = uniform_cdf(form, base + t, max_terms=terms)
    assert 0 < value < 1
    with pytest.raises(TooManyTerms):
        uniform_cdf(form, base + t, max_terms=terms - 1)
    # The time budget refuses by the fixed cost model only; within it the value is the same.
    assert uniform_cdf(form, base + t, max_terms=terms, max_seconds=1e9) == value
    with pytest.raises(TooManyTerms, match="would take about"):
        uniform_cdf(form, base + t, max_terms=terms, max_seconds=1e-12)
    assert term_seconds(2 * terms, 12, 100) == pytest.approx(2 * term_seconds(terms, 12, 100))


@pytest.mark.parametrize("n_classes", [20, 50])
def test_many_classes_give_finite_monotone_cdfs(n_classes):
    settings = ExactSettings(monte_carlo_samples=2000)
    analysis = DatasetAnalysis(
        dominant_diagonal_matrices(n_classes, 5, seed=n_classes),
        None,
        settings,
        engine="e",
        dataset=f"many{n_classes}",
    )
    tables = analysis.tables()
    cdf = tables["cdf"]
    assert set(cdf["space"]) == {"fine", "uniform"}
    for (_, _), group in cdf.groupby(["classifier", "space"]):
        group = group.sort_values("x")
        for column in ("cdf_lower", "cdf_upper"):
            values = group[column].to_numpy(dtype=float)
            assert np.all(np.isfinite(values))
            assert np.all((values >= 0) & (values <= 1 + 1e-9))
            assert np.all(np.diff(values) >= -1e-9)
        # Float probabilities (uniform kappa) and float counts (past 2**63): rounding only.
        assert np.all(group["cdf_lower"] <= group["cdf_upper"] + 1e-9)
        assert group["cdf_upper"].iloc[-1] == pytest.approx(1.0, abs=1e-9)
    histogram = tables["histogram"]
    assert np.all(np.isfinite(histogram[["p_lower", "p_upper"]].to_numpy(dtype=float)))
    win = tables["win"]
    sums = win[["p_greater", "p_tie", "p_less"]].sum(axis=1)
    # Midpoints of bounds (lattice): off 1 by at most the three half-widths.
    assert np.all(np.abs(sums - 1.0) <= 3 * win["error_bound"] + 1e-9)
    summary = tables["summary"]
    fine = summary[summary["space"] == "fine"]
    assert set(fine["n_vectors"]) == {str(11**n_classes)}


def gathered_uniform_weights(form: LinearForm, size: int) -> np.ndarray:
    """The uniform lattice weights by explicit index gathers (the reference formula)."""
    widths = [abs(s) for s in form.slopes if s != 0]
    step = sum(widths, Fraction(0)) / size
    weights = np.ones(1)
    for w in widths:
        m = w / step
        full = math.floor(m)
        part = float((m - full) / m)
        n = len(weights)
        new = np.zeros(n + full + 1)
        if full:
            cum = np.concatenate([[0.0], np.cumsum(weights)])
            k = np.arange(n + full)
            new[: n + full] = (
                cum[np.minimum(k + 1, n)] - cum[np.maximum(k + 1 - full, 0)]
            ) / float(m)
        if part:
            new[full : full + n] += weights * part
        weights = new
    return weights


@pytest.mark.parametrize("n_classes", [3, 6, 18])
def test_uniform_lattice_weights_equal_the_gathered_formula_bit_for_bit(n_classes):
    forms = [
        pd_form(cm) for cm in dominant_diagonal_matrices(n_classes, 2, seed=n_classes).values()
    ]
    for form in (*forms, forms[0] - forms[1]):
        expected = gathered_uniform_weights(form, 2**14)
        assert np.array_equal(uniform_lattice(form, size=2**14).weights, expected)
