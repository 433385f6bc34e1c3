"""The uncertainty library: draws, closed forms, probabilities, and baycomp's own answers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from helpers import need_module
from pdmeasure import measures
from pdmeasure import uncertainty as unc

CM = np.array([[100, 10, 10], [10, 80, 30], [1, 10, 30]])
AUTHORS_KAPPA = [0.3, 0.1, 0.9]


# --- posterior draws -------------------------------------------------------------------------
def test_posterior_draws_keep_class_totals_and_shape():
    stack = np.stack([CM, CM.T])
    draws = unc.posterior_draws(stack, 50, seed=1)
    assert draws.shape == (50, 2, 3, 3)
    np.testing.assert_allclose(draws.sum(axis=-1), np.broadcast_to(stack.sum(axis=-1), (50, 2, 3)))
    assert np.all(draws >= 0)


def test_posterior_draws_are_seeded():
    a = unc.posterior_draws(CM, 20, seed=7)
    np.testing.assert_array_equal(a, unc.posterior_draws(CM, 20, seed=7))
    assert not np.array_equal(a, unc.posterior_draws(CM, 20, seed=8))


@pytest.mark.parametrize("prior", [None, 0.5, 1.0])
def test_recall_posterior_is_the_beta_closed_form(prior):
    """Row i ~ Dir(counts + a): recall_i = p_ii ~ Beta(TP_i + a, FN_i + (C - 1) a)."""
    draws = unc.posterior_draws(CM, 200_000, prior=prior, seed=3)
    _, recall = measures.class_precision_recall(draws)
    c = CM.shape[0]
    if prior is None:
        prior = unc.default_prior(c)
        assert prior == 0.25  # a mass of 1/2 over the row's two errors
    for i in range(c):
        tp, fn = CM[i, i], CM[i].sum() - CM[i, i]
        lower, upper = unc.interval(recall[:, i], 0.95)
        exact = stats.beta(tp + prior, fn + (c - 1) * prior).ppf([0.025, 0.975])
        np.testing.assert_allclose([lower, upper], exact, atol=2e-3)
        assert recall[:, i].mean() == pytest.approx(
            (tp + prior) / (CM[i].sum() + c * prior), abs=1e-3
        )


def test_the_default_prior_keeps_a_good_many_class_classifier_inside_its_interval():
    """Dermatology-like: 6 classes, 366 samples, 96 % right. 0.5 per cell adds 3 pseudo-counts
    to every row and pulls the whole interval below the observed accuracy."""
    sizes = np.array([112, 61, 72, 49, 52, 20])
    cm = np.diag(sizes - np.array([4, 3, 3, 2, 2, 1])) + 0
    for i, errors in enumerate([4, 3, 3, 2, 2, 1]):
        cm[i, (i + 1) % 6] += errors
    observed = float(measures.accuracy(cm))
    lower, upper = unc.interval(measures.accuracy(unc.posterior_draws(cm, 4000, seed=0)))
    assert lower < observed < upper
    heavy = unc.interval(measures.accuracy(unc.posterior_draws(cm, 4000, prior=0.5, seed=0)))
    assert heavy[1] < observed  # what the old default did


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"cm": CM, "prior": -1}, "prior must be > 0"),
        ({"cm": CM, "prior": 0}, "prior must be > 0"),
        ({"cm": CM, "draws": 1}, "draws must be a whole number >= 2"),
        ({"cm": [[1.5, 1], [0, 2]]}, "whole counts"),
        ({"cm": [[1, -1], [0, 2]]}, "negative"),
    ],
)
def test_posterior_bad_input_names_the_problem(kwargs, words):
    cm = kwargs.pop("cm")
    with pytest.raises(ValueError, match=words):
        unc.posterior_draws(cm, **{"draws": 10, **kwargs})


def test_posterior_row_of_a_class_without_samples_stays_empty():
    """A declared class with no sample (an empty row) is zero in every draw, as in the counts;
    the other rows draw exactly as without it, and its column still gets the others' errors."""
    cm = np.array([[5, 1, 1], [0, 0, 0], [2, 0, 6]])
    draws = unc.posterior_draws(cm, 50, prior=0.25, seed=3)
    assert draws.shape == (50, 3, 3)
    np.testing.assert_array_equal(draws[:, 1, :], 0.0)
    np.testing.assert_allclose(draws.sum(axis=-1), np.broadcast_to([7, 0, 8], (50, 3)))
    assert np.all(draws[:, [0, 2], 1] > 0)
    _, recall = measures.class_precision_recall(draws, zero_division="nan")
    assert np.isnan(recall[:, 1]).all() and not np.isnan(recall[:, [0, 2]]).any()
    bootstrap = unc.matrix_bootstrap_draws(cm, 50, seed=3)
    np.testing.assert_array_equal(bootstrap[:, 1, :], 0)


def test_the_authors_example_lies_inside_its_interval():
    values = unc.measure_draws(unc.posterior_draws(CM, 4000, seed=0), kappas={"a": AUTHORS_KAPPA})
    lower, upper = unc.interval(values[unc.pd_key("a")], 0.95)
    assert lower < 0.6641628736750688 < upper
    assert 0.5 < lower and upper < 0.8


def test_measure_draws_cover_the_registry_and_the_named_vectors():
    draws = unc.posterior_draws(np.stack([CM, CM.T]), 30, seed=0)
    values = unc.measure_draws(draws, kappas={"a": AUTHORS_KAPPA})
    assert set(values) == set(measures.REGISTRY) | {"preference_driven[a]"}
    assert all(v.shape == (30, 2) for v in values.values())
    np.testing.assert_allclose(
        values["preference_driven[a]"],
        measures.preference_driven(draws, AUTHORS_KAPPA, zero_division=0.0),
    )


# --- bootstrap ------------------------------------------------------------------------------
def _labels(rng, n=120, c=3, k=2):
    y_true = rng.integers(0, c, n)
    y_pred = np.where(rng.random((k, n)) < 0.7, y_true, rng.integers(0, c, (k, n)))
    return y_true, y_pred


def test_bootstrap_keeps_class_totals_and_pairs_the_classifiers():
    rng = np.random.default_rng(0)
    y_true, y_pred = _labels(rng)
    same = np.stack([y_pred[0], y_pred[0]])
    draws = unc.bootstrap_draws(y_true, same, labels=[0, 1, 2], draws=200, seed=1)
    assert draws.shape == (200, 2, 3, 3)
    np.testing.assert_array_equal(draws[:, 0], draws[:, 1])  # same samples for both
    totals = np.bincount(y_true, minlength=3)
    assert np.all(draws.sum(axis=-1) == totals)
    one = unc.bootstrap_draws(y_true, y_pred[0], labels=[0, 1, 2], draws=200, seed=1)
    np.testing.assert_array_equal(one, draws[:, 0])


def test_bootstrap_of_a_perfect_classifier_is_its_matrix():
    y = np.repeat(["a", "b", "c"], [5, 3, 2])
    draws = unc.bootstrap_draws(y, y, labels=["a", "b", "c"], draws=10, seed=0)
    assert np.all(draws == np.diag([5, 3, 2]))


def test_bootstrap_bad_labels_name_them():
    with pytest.raises(ValueError, match="'z'"):
        unc.bootstrap_draws(["a", "z"], ["a", "a"], labels=["a", "b"], draws=5)
    with pytest.raises(ValueError, match="shape"):
        unc.bootstrap_draws(["a", "b"], [["a", "b", "a"]], labels=["a", "b"], draws=5)


def test_matrix_bootstrap_keeps_row_totals_shapes_and_empty_rows():
    stack = np.stack([CM, np.array([[4, 1, 0], [0, 0, 0], [2, 0, 3]])])
    draws = unc.matrix_bootstrap_draws(stack, 300, seed=2)
    assert draws.shape == (300, 2, 3, 3) and draws.dtype == np.int64
    assert np.all(draws.sum(axis=-1) == stack.sum(axis=-1))
    assert np.all(draws[:, 1, 1] == 0)  # a class without samples stays empty
    assert np.all(draws[:, stack == 0] == 0)  # a cell without samples is never drawn
    np.testing.assert_array_equal(draws, unc.matrix_bootstrap_draws(stack, 300, seed=2))
    assert np.all(unc.matrix_bootstrap_draws(np.diag([5, 3, 2]), 10, seed=0) == np.diag([5, 3, 2]))


def test_matrix_bootstrap_bad_counts_name_them():
    with pytest.raises(ValueError, match="whole counts"):
        unc.matrix_bootstrap_draws([[1.5, 0], [0, 1]], 10)
    with pytest.raises(ValueError, match="negative"):
        unc.matrix_bootstrap_draws([[-1, 2], [0, 1]], 10)
    with pytest.raises(ValueError, match="draws"):
        unc.matrix_bootstrap_draws(CM, 1)


@pytest.mark.parametrize("source", ["matrix", "samples"])
def test_both_bootstraps_have_the_multinomial_moments_of_the_resampled_rows(source):
    # Resampling the n_i samples of class i with replacement gives row i of a draw the
    # moments of Multinomial(n_i, n_ij / n_i): mean n_ij, variance n_i p (1 - p), covariance
    # -n_i p_j p_k. Both bootstraps are checked against these, so they agree with each other.
    cm = np.array([[30, 6, 4], [5, 12, 3], [1, 2, 9]])
    draws_n = 40_000
    if source == "matrix":
        draws = unc.matrix_bootstrap_draws(cm, draws_n, seed=11)
    else:
        y_true = np.repeat(np.arange(3), cm.sum(axis=1))
        y_pred = np.concatenate([np.repeat(np.arange(3), row) for row in cm])
        draws = unc.bootstrap_draws(y_true, y_pred, labels=[0, 1, 2], draws=draws_n, seed=11)
    totals = cm.sum(axis=1)
    for i, n in enumerate(totals):
        p = cm[i] / n
        cov = n * (np.diag(p) - np.outer(p, p))
        sample = draws[:, i].astype(float)
        se_mean = np.sqrt(np.diag(cov) / draws_n)
        assert np.all(np.abs(sample.mean(axis=0) - cm[i]) <= 4 * se_mean + 1e-12)
        # The sample covariance's error is about sqrt(2 / draws) of the scale: 1 % here.
        np.testing.assert_allclose(np.cov(sample, rowvar=False), cov, atol=0.05 * cov.max())


# --- probabilities --------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.floats(0, 0.2))
def test_pairwise_probabilities_sum_to_one_and_mirror(seed, k, rope):
    values = np.random.default_rng(seed).random((300, k)).round(1)
    better, equivalent, worse = unc.pairwise_probabilities(values, rope=rope)
    np.testing.assert_allclose(better + equivalent + worse, 1.0)
    np.testing.assert_allclose(better, worse.T)
    np.testing.assert_allclose(np.diag(equivalent), 1.0)


def test_pairwise_probabilities_follow_the_direction():
    values = np.array([[0.1, 0.2], [0.1, 0.3], [0.4, 0.2]])
    better, _, _ = unc.pairwise_probabilities(values)
    assert better[1, 0] == pytest.approx(2 / 3)
    better_low, _, _ = unc.pairwise_probabilities(values, higher_is_better=False)
    assert better_low[0, 1] == pytest.approx(2 / 3)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6))
def test_rank_probabilities_are_doubly_stochastic(seed, k):
    values = np.random.default_rng(seed).integers(0, 3, (200, k)).astype(float)
    ranks = unc.rank_probabilities(values)
    np.testing.assert_allclose(ranks.sum(axis=1), 1.0)
    np.testing.assert_allclose(ranks.sum(axis=0), 1.0)


def test_rank_probabilities_share_ties_and_put_nan_last():
    ranks = unc.rank_probabilities(np.array([[0.5, 0.5, np.nan]]))
    np.testing.assert_allclose(ranks, [[0.5, 0.5, 0], [0.5, 0.5, 0], [0, 0, 1]])


def test_preference_robust_at_a_single_grid_point_is_the_pairwise_probability():
    draws = unc.posterior_draws(np.stack([CM, CM.T, np.eye(3, dtype=int) * 40 + 3]), 500, seed=2)
    robust = unc.preference_robust(draws, region="grid", grid=[0.25], seed=0)
    values = measures.preference_driven(draws, [0.25] * 3, zero_division=0.0)
    better, _, _ = unc.pairwise_probabilities(values)
    np.testing.assert_allclose(robust, better)


def test_preference_robust_over_the_uniform_region_matches_direct_evaluation():
    draws = unc.posterior_draws(np.stack([CM, CM.T]), 400, seed=4)
    robust = unc.preference_robust(draws, kappa_draws=8, seed=5)
    rng = np.random.default_rng(5)
    kappa = rng.random((400 * 8, 3)).reshape(400, 8, 3)
    pd_values = measures.preference_driven(draws[:, :, None], kappa[:, None], zero_division=0.0)
    assert robust[0, 1] == pytest.approx(np.mean(pd_values[:, 0] > pd_values[:, 1]))
    assert robust[0, 1] + robust[1, 0] <= 1.0 + 1e-12


# --- the Bayesian tests against baycomp -----------------------------------------------------
baycomp = need_module("baycomp")


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_correlated_ttest_equals_baycomp(seed, rope):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.8, 0.02, 20)
    y = x + rng.normal(0.005 * seed, 0.01, 20)
    mine = unc.correlated_ttest(x, y, rope=rope, runs=2)
    theirs = baycomp.CorrelatedTTest.probs(x, y, rope=rope, runs=2)
    if rope == 0:
        theirs = (theirs[0], 0.0, theirs[1])
    np.testing.assert_allclose(mine, theirs, atol=1e-12)


def test_correlated_ttest_without_variance_is_certain():
    x = np.full(10, 0.8)
    assert unc.correlated_ttest(x, x + 0.02, rope=0.01) == (0.0, 0.0, 1.0)
    assert unc.correlated_ttest(x, x + 0.005, rope=0.01) == (0.0, 1.0, 0.0)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_signed_rank_equals_baycomp_within_monte_carlo_error(seed, rope):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.7, 0.95, 6)
    y = x + rng.normal(0.01, 0.02, 6)
    mine = unc.signed_rank(x, y, rope=rope, draws=50_000, seed=seed)
    theirs = baycomp.SignedRankTest.probs(x, y, rope=rope, nsamples=50_000, random_state=seed)
    if rope == 0:
        theirs = (theirs[0], 0.0, theirs[1])
    # Each probability is a share of 50,000 samples: standard error <= 0.0023.
    np.testing.assert_allclose(mine, theirs, atol=0.012)
    assert sum(mine) == pytest.approx(1.0)


def test_signed_rank_on_four_datasets_says_what_it_can():
    """The papers' situation: four datasets, A better on all four by about 1 point."""
    a = np.array([0.93, 0.97, 0.96, 0.70])
    b = a - np.array([0.012, 0.009, 0.015, 0.011])
    left, rope, right = unc.signed_rank(a, b, rope=0.01, seed=0)
    theirs = baycomp.SignedRankTest.probs(a, b, rope=0.01, nsamples=50_000, random_state=0)
    np.testing.assert_allclose((left, rope, right), theirs, atol=0.012)
    assert left > right


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: unc.signed_rank([1.0], [2.0]), "at least 2"),
        (lambda: unc.signed_rank([1, 2], [1, 2], rope=-1), "rope must be >= 0"),
        (lambda: unc.correlated_ttest([1, 2, 3], [1, 2, 4], runs=2), "runs must"),
        (lambda: unc.interval([0.1, 0.2], 1.5), "level must lie strictly between 0 and 1"),
        (lambda: unc.interval([0.1], 0.9), "at least 2 draws"),
        (lambda: unc.pairwise_probabilities(np.ones((3, 2)), rope=-0.1), "rope must be >= 0"),
    ],
)
def test_bad_input_names_the_problem(call, words):
    with pytest.raises(ValueError, match=words):
        call()
