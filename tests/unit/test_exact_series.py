"""The batched win probabilities under uniform kappa (``exact.series``) against the per-pair path."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pdmeasure._synthetic import dominant_diagonal_matrices
from pdmeasure.exact import ExactSettings, LinearForm, pd_form
from pdmeasure.exact.series import uniform_cdf_series, uniform_win_exact, uniform_wins
from pdmeasure.tables.exact import DatasetAnalysis


def random_matrices(rng, n_classifiers: int, n_classes: int) -> dict[str, np.ndarray]:
    """Matrices on the same data (same row sums), with ties and degenerate classifiers."""
    out = dominant_diagonal_matrices(
        n_classes, n_classifiers, rng, actual=(5, 60), boost=(0.5, 4), name="m{}"
    )
    first = out["m0"]
    out["same"] = first.copy()  # identical to m0: a point mass at 0, tie 1
    perfect = np.diag(first.sum(axis=1))  # every sample on the diagonal
    out["perfect"] = perfect  # pd 1 everywhere: beats every other (t outside the range)
    out["perfect2"] = perfect.copy()
    return out


def test_series_equals_exact_fractions_on_random_widths():
    rng = np.random.default_rng(3)
    rows, exact = [], []
    for _ in range(60):
        n = int(rng.integers(2, 19))
        widths = [Fraction(int(v), 997) for v in rng.integers(1, 400, n)]
        span = sum(widths)
        t = span * Fraction(int(rng.integers(1, 999)), 1000)
        form = LinearForm(-t, widths)  # P(form <= 0) = P(sum w_i U_i <= t)
        rows.append(([float(w / span) for w in widths] + [0.0] * (19 - n), float(t / span - 0.5)))
        exact.append(uniform_win_exact(form)[0])
    cdf, error = uniform_cdf_series(np.array([r for r, _ in rows]), np.array([u for _, u in rows]))
    done = np.isfinite(error)
    assert done.sum() >= 30  # the uneven rows with few classes are refused, the rest converge
    for value, bound, want in zip(cdf[done], error[done], np.array(exact, dtype=object)[done]):
        assert abs(value - float(want)) <= bound
        assert bound < 1e-11


def test_series_refuses_what_it_cannot_bound():
    # One width: the CDF is linear and the series' terms do not decay; it says so.
    cdf, error = uniform_cdf_series(np.array([[1.0, 0.0]]), np.array([0.1]))
    assert np.isnan(cdf[0]) and error[0] == np.inf
    with pytest.raises(ValueError, match="centres"):
        uniform_cdf_series(np.array([[0.5, 0.5]]), np.array([0.7]))


@pytest.mark.parametrize("n_classes", [3, 12, 20])
def test_batched_win_table_equals_per_pair(n_classes):
    rng = np.random.default_rng(n_classes)
    cms = random_matrices(rng, 6 if n_classes < 20 else 3, n_classes)
    analysis = DatasetAnalysis(
        cms, None, ExactSettings(), engine="e", dataset="d", spaces=["uniform"]
    )
    fast = analysis.win_probabilities()
    slow = analysis.win_probabilities(batched=False)
    assert list(fast["classifier_a"]) == list(slow["classifier_a"])
    assert list(fast["classifier_b"]) == list(slow["classifier_b"])
    for column in ("p_greater", "p_tie", "p_less"):
        # Exact per-pair results within the batch's error bound; lattice ones within both.
        gap = np.abs(fast[column].to_numpy(float) - slow[column].to_numpy(float))
        allowed = fast["error_bound"].to_numpy(float) + slow["error_bound"].to_numpy(float)
        assert np.all(gap <= allowed + 1e-15)
    exact_both = (slow["method"] == "exact") & (fast["method"] == "exact")
    assert fast[exact_both][["p_greater", "p_tie", "p_less"]].equals(
        slow[exact_both][["p_greater", "p_tie", "p_less"]]
    )
    assert set(fast["method"]) <= {"exact", "series", "lattice", "lattice-exact"}
    if n_classes >= 9:
        assert "series" in set(fast["method"])
        assert fast.loc[fast["method"] == "series", "error_bound"].max() < 1e-12
    # Degenerate pairs are settled exactly: identical classifiers tie everywhere, a perfect
    # classifier beats the others on the whole cube.
    row = fast[(fast.classifier_a == "m0") & (fast.classifier_b == "same")].iloc[0]
    assert (row.p_greater, row.p_tie, row.p_less, row.method) == (0.0, 1.0, 0.0, "exact")
    row = fast[(fast.classifier_a == "perfect") & (fast.classifier_b == "perfect2")].iloc[0]
    assert (row.p_tie, row.method) == (1.0, "exact")
    beaten = fast[(fast.classifier_a == "perfect") & ~fast.classifier_b.str.startswith("perf")]
    assert np.all(beaten["p_greater"] == 1.0) and set(beaten["method"]) == {"exact"}


def test_uniform_wins_matches_exact_fractions_pair_by_pair():
    rng = np.random.default_rng(7)
    forms = [pd_form(cm) for cm in random_matrices(rng, 5, 14).values()]
    pairs = [(a, b) for a in range(len(forms)) for b in range(len(forms)) if a != b]
    got = uniform_wins(forms, pairs, min_classes=2)
    assert sum(g is not None and g[3] == "series" for g in got) >= 10
    for (a, b), result in zip(pairs, got):
        if result is None:
            continue
        less, tie, bound, method = result
        want_less, want_tie = uniform_win_exact(forms[a] - forms[b])
        assert abs(less - float(want_less)) <= bound
        assert tie == float(want_tie)
        assert (bound == 0.0) == (method == "exact")
