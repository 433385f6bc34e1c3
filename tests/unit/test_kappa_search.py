"""pdmeasure.paper.kappa_search against a brute-force loop over the grid."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from oracle import preference_driven as oracle_pd
from pdmeasure.paper.kappa_search import search_kappa_grid


def _pd(cm, kappa):
    """Eq. 30 by the slow literal oracle (tests/oracle.py), 0/0 = 0 (the papers' convention)."""
    return oracle_pd(cm, 0.0, list(kappa))


VALUES = (0.0, 0.25, 0.5, 1.0)


def _brute_force(cms, printed, values, decimals):
    found, per_target = [], np.zeros(len(cms), dtype=int)
    for kappa in itertools.product(values, repeat=len(cms[0])):
        ok = [
            not np.isnan(p) and abs(_pd(cm, kappa) - p) <= 0.5 * 10**-decimals * (1 + 1e-9)
            for cm, p in zip(cms, printed)
        ]
        per_target += ok
        if all(o for o, p in zip(ok, printed) if not np.isnan(p)):
            found.append(kappa)
    return np.array(found, dtype=float).reshape(-1, len(cms[0])), per_target


def _problem(seed, n_matrices=3, n_classes=4, decimals=3):
    rng = np.random.default_rng(seed)
    cms = rng.integers(0, 20, size=(n_matrices, n_classes, n_classes))
    cms[0, 1, :] = 0  # an empty actual class
    cms[-1, :, 2] = 0  # a class never predicted
    truth = rng.choice(VALUES, size=n_classes)
    printed = np.round([_pd(cm.tolist(), truth) for cm in cms], decimals)
    return cms, printed, truth


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("chunk_size", [1, 7, 65536])
def test_matches_brute_force(seed, chunk_size):
    cms, printed, truth = _problem(seed)
    result = search_kappa_grid(cms, printed, VALUES, decimals=3, chunk_size=chunk_size)
    expected, per_target = _brute_force(cms.tolist(), printed, VALUES, 3)
    np.testing.assert_array_equal(result.vectors, expected)
    np.testing.assert_array_equal(result.matches_per_target, per_target)
    assert result.n_searched == len(VALUES) ** 4 and not result.truncated
    assert any(np.array_equal(v, truth) for v in result.vectors)
    assert result.values.shape == (len(expected), len(cms))
    for vector, row in zip(result.vectors, result.values):
        np.testing.assert_allclose(row, [_pd(cm, vector) for cm in cms.tolist()], rtol=1e-12)


def test_nan_target_is_left_out():
    cms, printed, _ = _problem(11)
    partial = printed.copy()
    partial[1] = np.nan
    result = search_kappa_grid(cms, partial, VALUES, decimals=3)
    expected, per_target = _brute_force(cms.tolist(), partial, VALUES, 3)
    np.testing.assert_array_equal(result.vectors, expected)
    assert result.matches_per_target[1] == 0 == per_target[1]
    full = search_kappa_grid(cms, printed, VALUES, decimals=3)
    assert len(result.vectors) >= len(full.vectors)


def test_no_vector_reproduces_an_impossible_row():
    cms, printed, _ = _problem(5)
    result = search_kappa_grid(cms, printed + 2.0, VALUES, decimals=3)  # pd <= 1
    assert result.vectors.shape == (0, 4) and result.values.shape == (0, 3)
    assert (result.matches_per_target == 0).all()


def test_max_results_stops_early():
    cms = np.array([[[5, 5], [5, 5]]])  # pd = 0.5 for every kappa
    result = search_kappa_grid(cms, [0.5], VALUES, decimals=4, chunk_size=3, max_results=2)
    assert len(result.vectors) == 2 and result.truncated and result.n_searched == 3
    everything = search_kappa_grid(cms, [0.5], VALUES, decimals=4)
    assert len(everything.vectors) == len(VALUES) ** 2 and not everything.truncated


@pytest.mark.parametrize(
    ("cms", "printed", "message"),
    [
        (np.ones((2, 2)), [0.5], "stack of square"),
        (np.ones((2, 2, 3)), [0.5, 0.5], "stack of square"),
        (np.ones((2, 2, 2)), [0.5], "one value per matrix"),
        (np.ones((2, 2, 2)), [np.nan, np.nan], "no number"),
    ],
)
def test_bad_input(cms, printed, message):
    with pytest.raises(ValueError, match=message):
        search_kappa_grid(cms, printed, VALUES)


def test_bad_max_results():
    with pytest.raises(ValueError, match="max_results"):
        search_kappa_grid(np.ones((1, 2, 2)), [0.5], VALUES, max_results=0)
