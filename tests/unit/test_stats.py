"""Tests of pdmeasure.stats against published examples and independent computations.

Independent references: scipy.stats (friedmanchisquare, wilcoxon, ttest_1samp),
scikit-posthocs (posthoc_nemenyi_friedman, posthoc_wilcoxon), statsmodels (Holm via
multipletests, McNemar), hand-computed small examples, and two published worked examples:

* Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
  JMLR 7:1-30, Table 6 (AUC of four C4.5 variants on 14 UCI datasets) and the worked
  examples of Sec. 3.1.3 (Wilcoxon) and 3.2.2 (Friedman, Iman-Davenport, Nemenyi). The data
  are copied from SciPy's test suite (scipy/stats/tests/test_stats.py,
  test_friedmanchisquare), which stores the voting row of C4.5+cf as 0.9751: Demsar's Table 6
  prints 0.975 but ranks that cell 2nd and C4.5+m+cf 3rd (not a tie), and only the unrounded
  value reproduces his printed average ranks.
* Conover (1999, p. 375), the hand-lotion example of R's ``stats::quade.test`` help page:
  Quade F = 3.8293, num df = 4, denom df = 24, p-value = 0.01519.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as ss
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

from helpers import fresh_python, sklearn_entry
from pdmeasure import measures, stats
from pdmeasure.pipeline import cv5x2
from pdmeasure.pipeline.engines import DatasetSpec
from pdmeasure.render import stats_report
from pdmeasure.tables import folds as stats_folds
from pdmeasure.tables import stats as stats_tables
from pdmeasure.tables import stats_across, stats_within
from pdmeasure.tables.confusion import confusion_matrix
from pdmeasure.tables.measures import MEASURE_COLUMNS, pd_rows

DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
# Rows: adult (sample), breast cancer, breast cancer wisconsin, cmc, ionosphere, iris,
# liver disorders, lung cancer, lymphography, mushroom, primary tumor, rheum, voting, wine.
DEMSAR = np.array(
    [
        [
            0.763,
            0.599,
            0.954,
            0.628,
            0.882,
            0.936,
            0.661,
            0.583,
            0.775,
            1.000,
            0.940,
            0.619,
            0.972,
            0.957,
        ],
        [
            0.768,
            0.591,
            0.971,
            0.661,
            0.888,
            0.931,
            0.668,
            0.583,
            0.838,
            1.000,
            0.962,
            0.666,
            0.981,
            0.978,
        ],
        [
            0.771,
            0.590,
            0.968,
            0.654,
            0.886,
            0.916,
            0.609,
            0.563,
            0.866,
            1.000,
            0.965,
            0.614,
            0.9751,
            0.946,
        ],
        [
            0.798,
            0.569,
            0.967,
            0.657,
            0.898,
            0.931,
            0.685,
            0.625,
            0.875,
            1.000,
            0.962,
            0.669,
            0.975,
            0.970,
        ],
    ]
).T

# Conover (1999, p. 375): five brands of hand lotion (columns) sold in seven stores (rows).
CONOVER = np.array(
    [
        [5, 4, 7, 10, 12],
        [1, 3, 1, 0, 2],
        [16, 12, 22, 22, 35],
        [5, 4, 3, 5, 4],
        [10, 9, 7, 13, 10],
        [19, 18, 28, 37, 58],
        [10, 7, 6, 8, 7],
    ],
    dtype=float,
)


def _random_scores(seed: int, n: int, k: int, *, ties: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if ties:
        return rng.integers(0, 4, size=(n, k)).astype(float)
    return rng.random((n, k)) + np.arange(k) * 0.05


# --------------------------------------------------------------------------------------
# Published worked examples
# --------------------------------------------------------------------------------------


def test_demsar_average_ranks_friedman_and_iman_davenport():
    ranks = stats.average_ranks(DEMSAR)
    np.testing.assert_array_equal(np.round(ranks, 3), [3.143, 2.000, 2.893, 1.964])
    chi2, ff = stats.friedman(DEMSAR)
    assert round(chi2.statistic, 2) == 9.28
    assert round(ff.statistic, 2) == 3.69
    assert (ff.df1, ff.df2) == (3, 39)
    # Demsar: the critical value of F(3, 39) at 0.05 is 2.85, so the null is rejected.
    assert round(ss.f.ppf(0.95, 3, 39), 2) == 2.85
    assert ff.p_value < 0.05


def test_demsar_nemenyi_critical_difference_and_table_5a():
    # Demsar, Table 5(a): q_0.05 for k = 2..10 classifiers. Demsar divided 3-decimal
    # studentized-range table values by sqrt(2) (3.314 / sqrt(2) = 2.343 where the exact
    # quantile gives 2.3437), so agreement is to +-1 in the printed last digit.
    q_printed = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    for k, q in zip(range(2, 11), q_printed):
        cd = stats.nemenyi_critical_difference(k, 30, 0.05)
        assert cd / math.sqrt(k * (k + 1) / (6 * 30)) == pytest.approx(q, abs=1.0e-3)
    # Sec. 3.2.2: CD = 2.569 * sqrt(4 * 5 / (6 * 14)) = 1.25; no pair of variants differs.
    assert round(stats.nemenyi_critical_difference(4, 14, 0.05), 2) == 1.25
    table = pd.DataFrame(stats.nemenyi(DEMSAR, DEMSAR_NAMES, alpha=0.05))
    assert not table["significant"].any()


def test_demsar_wilcoxon_c45_vs_c45m():
    # Sec. 3.1.3: R+ = 93, R- = 12 (zero differences split), so T = min = 12.
    t, p = stats.wilcoxon_signed_rank(DEMSAR[:, 0], DEMSAR[:, 1])
    assert t == 12.0
    assert p < 0.05


def test_quade_reproduces_r_documentation_example():
    result = stats.quade(CONOVER)
    assert round(result.statistic, 4) == 3.8293
    assert (result.df1, result.df2) == (4, 24)
    assert round(result.p_value, 5) == 0.01519


# --------------------------------------------------------------------------------------
# Ranks
# --------------------------------------------------------------------------------------


def test_ties_get_average_ranks_and_direction_is_respected():
    scores = [[0.9, 0.9, 0.8], [0.1, 0.3, 0.2]]
    np.testing.assert_array_equal(stats.rank_scores(scores), [[1.5, 1.5, 3], [3, 1, 2]])
    np.testing.assert_array_equal(
        stats.rank_scores(scores, lower_is_better=True), [[2.5, 2.5, 1], [1, 3, 2]]
    )


def test_rank_scores_rejects_nan_and_bad_shapes():
    with pytest.raises(ValueError, match="NaN"):
        stats.rank_scores([[0.1, np.nan]])
    with pytest.raises(ValueError, match="2 classifiers"):
        stats.rank_scores([[0.1], [0.2]])


def test_better_classifier_follows_the_direction():
    assert stats.better_classifier("a", "b", 0.1, False) == "a"
    assert stats.better_classifier("a", "b", 0.1, True) == "b"
    assert stats.better_classifier("a", "b", -0.1, True) == "a"
    assert stats.better_classifier("a", "b", 0.0, False) == ""
    assert stats.better_classifier("a", "b", math.nan, False) == ""


def test_drop_nan_rows_warns_once_per_row_naming_the_columns():
    table = pd.DataFrame(
        {"A": [1.0, np.nan, 3.0], "B": [np.nan, np.nan, 1.0]}, index=["d1", "d2", "d3"]
    )
    with pytest.warns(stats_tables.NaNExcludedWarning) as record:
        kept, dropped = stats_tables.drop_nan_rows(
            table, lambda row, names: f"{row}: {names}", stacklevel=1
        )
    assert list(kept.index) == ["d3"]
    assert dropped == [("d1", "B"), ("d2", "A, B")]
    assert [str(w.message) for w in record] == ["d1: B", "d2: A, B"]


def test_direction_of_registry_measures():
    assert stats.lower_is_better("error_rate")
    assert stats.lower_is_better("cen")
    for name in measures.REGISTRY:
        if name not in ("error_rate", "cen"):
            assert not stats.lower_is_better(name), name


# --------------------------------------------------------------------------------------
# Omnibus tests against scipy and by hand
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ties", [False, True])
def test_friedman_with_tie_correction_matches_scipy(seed, ties):
    scores = _random_scores(seed, 4 + seed, 3 + seed % 3, ties=ties)
    if ties and np.all(scores == scores[:, :1]):
        pytest.skip("all values tied")
    chi2, _ = stats.friedman(scores, tie_correction=True)
    reference = ss.friedmanchisquare(*scores.T)
    assert chi2.statistic == pytest.approx(reference.statistic, rel=1e-12)
    assert chi2.p_value == pytest.approx(reference.pvalue, rel=1e-10)
    if not ties:  # without ties the correction factor is exactly 1
        assert stats.friedman(scores)[0].statistic == pytest.approx(reference.statistic)


def test_iman_davenport_from_chi_square_and_perfect_agreement():
    scores = _random_scores(3, 6, 4, ties=False)
    chi2, ff = stats.friedman(scores)
    n, k = scores.shape
    assert ff.statistic == pytest.approx((n - 1) * chi2.statistic / (n * (k - 1) - chi2.statistic))
    assert ff.p_value == pytest.approx(ss.f.sf(ff.statistic, k - 1, (k - 1) * (n - 1)))
    ordered = np.tile([0.9, 0.8, 0.7, 0.6], (4, 1))  # same order on every dataset
    chi2, ff = stats.friedman(ordered)
    assert chi2.statistic == pytest.approx(4 * 3)
    assert chi2.p_value == pytest.approx(chi2.min_p)
    assert ff.statistic == math.inf and ff.p_value == 0.0


def test_friedman_aligned_ranks_hand_example():
    # Means 2 and 2 -> aligned [-1, 1], [0, 0]; ranks (best = 1) [4, 1], [2.5, 2.5];
    # classifier totals 6.5, 3.5; dataset totals 5, 5; kN = 4:
    # T = (2-1)(6.5^2 + 3.5^2 - (4*2/4) 5^2) / (4*5*9/6 - (25 + 25)/2) = 4.5 / 5 = 0.9.
    result = stats.friedman_aligned_ranks([[1.0, 3.0], [2.0, 2.0]])
    assert result.statistic == pytest.approx(0.9)
    assert result.p_value == pytest.approx(ss.chi2.sf(0.9, 1))


def _aligned_ranks_loops(x: np.ndarray) -> float:
    """Garcia et al. (2010) eq. for T, written with explicit loops (as scmamp does)."""
    n, k = x.shape
    aligned = [x[i, j] - sum(x[i]) / k for i in range(n) for j in range(k)]
    ranks = ss.rankdata([-a for a in aligned])  # rank 1 = largest aligned value
    r = {(i, j): ranks[i * k + j] for i in range(n) for j in range(k)}
    rj = [sum(r[i, j] for i in range(n)) for j in range(k)]
    ri = [sum(r[i, j] for j in range(k)) for i in range(n)]
    kn = k * n
    num = (k - 1) * (sum(v * v for v in rj) - (kn * n / 4) * (kn + 1) ** 2)
    den = kn * (kn + 1) * (2 * kn + 1) / 6 - sum(v * v for v in ri) / k
    return num / den


@pytest.mark.parametrize("seed", range(4))
def test_friedman_aligned_ranks_invariances(seed):
    scores = _random_scores(seed, 5, 4, ties=seed % 2 == 1)
    result = stats.friedman_aligned_ranks(scores)
    assert result.statistic == pytest.approx(_aligned_ranks_loops(scores))
    shifted = scores + np.arange(5)[:, None] * 10.0  # dataset (block) effects cancel
    assert stats.friedman_aligned_ranks(shifted).statistic == pytest.approx(result.statistic)
    reverse = stats.friedman_aligned_ranks(scores, lower_is_better=True)
    assert reverse.statistic == pytest.approx(result.statistic)


def test_quade_invariant_to_direction_and_block_shift():
    result = stats.quade(CONOVER)
    assert stats.quade(CONOVER, lower_is_better=True).statistic == pytest.approx(result.statistic)
    assert stats.quade(CONOVER + 100).statistic == pytest.approx(result.statistic)
    assert stats.quade(np.ones((4, 3))).note == "no classifier differs on any dataset"


# --------------------------------------------------------------------------------------
# Post-hoc tests
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_nemenyi_matches_scikit_posthocs(seed):
    scores = _random_scores(seed, 8, 5, ties=seed % 2 == 1)
    names = list("ABCDE")
    table = pd.DataFrame(stats.nemenyi(scores, names, alpha=0.05))
    reference = sp.posthoc_nemenyi_friedman(scores)
    for row in table.itertuples():
        i, j = names.index(row.classifier_a), names.index(row.classifier_b)
        assert row.p_value == pytest.approx(reference.iloc[i, j], rel=1e-9, abs=1e-12)
    cd = stats.nemenyi_critical_difference(5, 8, 0.05)
    np.testing.assert_array_equal(table["significant"], table["statistic"] >= cd)


@pytest.mark.parametrize("seed", range(5))
def test_holm_matches_statsmodels(seed):
    p = np.random.default_rng(seed).random(7) ** 3
    np.testing.assert_allclose(stats.holm(p), multipletests(p, method="holm")[1])


def test_holm_hand_example_and_nan():
    # sorted 0.005, 0.01, 0.03, 0.04 -> 4*0.005, 3*0.01, 2*0.03, 1*0.04 -> running max.
    np.testing.assert_allclose(stats.holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    out = stats.holm([0.02, np.nan, 0.04])
    assert np.isnan(out[1])
    np.testing.assert_allclose(out[[0, 2]], [0.04, 0.04])


def test_holm_control_uses_best_ranked_and_normal_z():
    table = pd.DataFrame(stats.holm_control(DEMSAR, DEMSAR_NAMES, alpha=0.05))
    assert set(table["classifier_a"]) == {"C4.5+m+cf"}
    se = math.sqrt(4 * 5 / (6 * 14))
    ranks = dict(zip(DEMSAR_NAMES, stats.average_ranks(DEMSAR)))
    for row in table.itertuples():
        z = (ranks[row.classifier_b] - ranks["C4.5+m+cf"]) / se
        assert row.statistic == pytest.approx(z)
        assert row.p_value == pytest.approx(2 * ss.norm.sf(abs(z)))
    np.testing.assert_allclose(
        table["p_adjusted"], multipletests(table["p_value"], method="holm")[1]
    )
    # C4.5 (rank 3.143) differs from the control after Holm; the others do not.
    assert table.set_index("classifier_b")["significant"].to_dict() == {
        "C4.5": True,
        "C4.5+m": False,
        "C4.5+cf": False,
    }


def _rank_sums(d: np.ndarray) -> tuple[float, float]:
    """R+ and R- of Stapor's definition: zero differences split evenly."""
    ranks = ss.rankdata(np.abs(d))
    zero = ranks[d == 0].sum() / 2
    return ranks[d > 0].sum() + zero, ranks[d < 0].sum() + zero


@pytest.mark.parametrize("seed", range(5))
def test_wilcoxon_pairwise_matches_scipy_and_rank_sums(seed):
    scores = np.round(_random_scores(seed, 9, 4, ties=False), 1)  # rounding makes ties/zeros
    names = list("ABCD")
    table = pd.DataFrame(stats.wilcoxon_pairwise(scores, names, alpha=0.05))
    for row in table.itertuples():
        a, b = scores[:, names.index(row.classifier_a)], scores[:, names.index(row.classifier_b)]
        r_plus, r_minus = _rank_sums(a - b)
        assert row.statistic == pytest.approx(min(r_plus, r_minus))
        if np.any(a != b):
            reference = ss.wilcoxon(a, b, zero_method="zsplit")
            assert row.p_value == pytest.approx(reference.pvalue)
    np.testing.assert_allclose(
        table["p_adjusted"], multipletests(table["p_value"], method="holm")[1]
    )


def test_wilcoxon_pairwise_matches_scikit_posthocs():
    scores = _random_scores(11, 12, 3, ties=False)
    names = ["A", "B", "C"]
    table = pd.DataFrame(stats.wilcoxon_pairwise(scores, names, alpha=0.05))
    melted = pd.DataFrame({"value": scores.T.ravel(), "group": np.repeat(names, 12)})
    reference = sp.posthoc_wilcoxon(
        melted, val_col="value", group_col="group", zero_method="zsplit", p_adjust="holm"
    )
    for row in table.itertuples():
        assert row.p_adjusted == pytest.approx(reference.loc[row.classifier_a, row.classifier_b])


def test_small_n_is_reported_plainly():
    scores = _random_scores(0, 4, 4, ties=False)
    names = list("ABCD")
    wilcoxon = pd.DataFrame(stats.wilcoxon_pairwise(scores, names, alpha=0.05))
    assert stats.wilcoxon_min_p(4) == 0.125
    assert (wilcoxon["p_value"] >= 0.125).all()
    assert "cannot reach" in wilcoxon["note"].iloc[0] and "N >= 6" in wilcoxon["note"].iloc[0]
    chi2, _ = stats.friedman(scores)
    assert "N=4" in chi2.note
    assert chi2.min_p == pytest.approx(ss.chi2.sf(12, 3))
    # Nemenyi with K = 5 and N = 2: CD exceeds the largest possible rank difference.
    note = pd.DataFrame(
        stats.nemenyi(_random_scores(0, 2, 5, ties=False), list("ABCDE"), alpha=0.05)
    )["note"]
    assert "no pair can differ" in note.iloc[0]


# --------------------------------------------------------------------------------------
# Tests within one dataset
# --------------------------------------------------------------------------------------


def test_corrected_resampled_ttest_hand_and_scipy():
    # d = 1..4: mean 2.5, sample variance 5/3; with ratio 1/9:
    # t = 2.5 / sqrt((1/4 + 1/9) * 5/3) = 3.22252...
    result = stats.corrected_resampled_ttest([1, 2, 3, 4], 1 / 9)
    assert result.statistic == pytest.approx(3.22252, rel=1e-5)
    assert result.df1 == 3
    assert result.p_value == pytest.approx(2 * ss.t.sf(3.22252, 3), rel=1e-4)
    d = np.random.default_rng(0).normal(0.01, 0.02, 10)
    plain = stats.corrected_resampled_ttest(d, 0.0)
    reference = ss.ttest_1samp(d, 0.0)
    assert plain.statistic == pytest.approx(reference.statistic)
    assert plain.p_value == pytest.approx(reference.pvalue)
    # the correction can only widen the interval
    assert stats.corrected_resampled_ttest(d, 1 / 9).p_value > plain.p_value


def test_5x2cv_tests_hand_example():
    d = [[1, 3], [2, 2], [0, 4], [1, 1], [2, 0]]
    # s_i^2 = 2, 0, 8, 0, 2 -> mean 2.4; t = p_11 / sqrt(2.4); F = sum p^2 / (2 * 12) = 40/24.
    t = stats.paired_ttest_5x2cv(d)
    assert t.statistic == pytest.approx(1 / math.sqrt(2.4))
    assert t.p_value == pytest.approx(2 * ss.t.sf(1 / math.sqrt(2.4), 5))
    f = stats.combined_ftest_5x2cv(d)
    assert f.statistic == pytest.approx(40 / 24)
    assert f.p_value == pytest.approx(ss.f.sf(40 / 24, 10, 5))
    with pytest.raises(ValueError, match=r"\(5 repetitions, 2 folds\)"):
        stats.paired_ttest_5x2cv(np.zeros((4, 2)))


@pytest.mark.parametrize("b,c", [(3, 9), (0, 5), (20, 40), (100, 60)])
def test_mcnemar_matches_statsmodels(b, c):
    correct_a = np.array([True] * b + [False] * c + [True] * 50 + [False] * 7)
    correct_b = np.array([False] * b + [True] * c + [True] * 50 + [False] * 7)
    result = stats.mcnemar(correct_a, correct_b)
    table = [[50, b], [c, 7]]
    exact = b + c < 25
    reference = sm_mcnemar(table, exact=exact, correction=True)
    assert result.p_value == pytest.approx(reference.pvalue)
    assert result.n == b + c
    if not exact:
        assert result.statistic == pytest.approx(reference.statistic)


@given(
    st.floats(0, 60, allow_nan=False),
    st.integers(1, 40),
    st.integers(0, 30),
)
def test_within_dataset_tails_are_scipy_stats_own_to_the_bit(x, df, b):
    # The paired tests call the scipy.special functions behind scipy.stats's t, F and chi2
    # survival functions (module pdmeasure.stats.paired): the p-values, and so the CSV text
    # of every pairwise table, are those of scipy.stats bit for bit.
    d = np.r_[np.full(df, x), 0.0]
    t = stats.corrected_resampled_ttest(d, 0.0)
    assert t.p_value == float(2.0 * ss.t.sf(abs(t.statistic), t.df1))
    five = np.array([[x, 1.0], [0.5, 2.0], [0.0, 1.0], [1.5, 0.25], [2.0, x / 3]])
    assert stats.paired_ttest_5x2cv(five).p_value == float(
        2.0 * ss.t.sf(abs(stats.paired_ttest_5x2cv(five).statistic), 5)
    )
    f = stats.combined_ftest_5x2cv(five)
    assert f.p_value == float(ss.f.sf(f.statistic, 10, 5))
    c = b + 25 + df
    result = stats.mcnemar(
        np.r_[np.ones(b, bool), np.zeros(c, bool)], np.r_[np.zeros(b, bool), np.ones(c, bool)]
    )
    assert result.p_value == float(ss.chi2.sf(result.statistic, 1))


def test_the_within_dataset_tests_leave_scipy_stats_unimported():
    # Rule analyse imports these modules, runs the within-dataset tests and ranks and draws
    # the Monte Carlo shares' intervals on every dataset; scipy.stats would cost each job
    # 0.65 CPU-s. McNemar's exact branch alone imports it.
    code = (
        "import sys, numpy as np\n"
        "import pdmeasure.stats, pdmeasure.tables.stats_within, pdmeasure.tables.uncertainty\n"
        "from pdmeasure.tables.rankings import competition_ranks\n"
        "from pdmeasure import stats\n"
        "competition_ranks([0.5, 0.25]); stats.corrected_resampled_ttest([1.0, 2.0, 4.0], 0.1)\n"
        "stats.mcnemar(np.r_[np.ones(30, bool), np.zeros(9, bool)], np.zeros(39, bool))\n"
        "from pdmeasure.exact import wilson_interval\n"
        "wilson_interval(5, 20, 0.95)\n"
        "print('scipy.stats' in sys.modules)\n"
    )
    assert fresh_python(code) == "False"


def test_mcnemar_without_discordant_samples():
    same = np.array([True, False, True])
    assert stats.mcnemar(same, same).p_value == 1.0


# --------------------------------------------------------------------------------------
# Tables from measures.csv and from predictions
# --------------------------------------------------------------------------------------

# "p1" names a different vector on each dataset (kappa vectors are positional, so these are
# different preferences); "shared" is the same vector on d1-d3; "only" is on d4 alone.
KAPPA_VECTORS = {
    "d1": {"p1": [0, 1], "shared": [0.25, 1]},
    "d2": {"p1": [1, 0], "shared": [0.25, 1.0]},
    "d3": {"p1": [0.5, 0.5], "shared": [0.25, 1]},
    "d4": {"only": [0.2, 0.2]},
}
P1_NOTE = "p1 differs across datasets (d1: [0, 1], d2: [1, 0], d3: [0.5, 0.5]); not pooled"


def _measures_frame(
    nan_at: tuple[str, str] | None = None, kappa_vectors=KAPPA_VECTORS
) -> pd.DataFrame:
    """A measures table like measures_table writes: one pd row per vector name."""
    rng = np.random.default_rng(5)
    rows = []
    for dataset, vectors in kappa_vectors.items():
        for j, classifier in enumerate(["A", "B", "C"]):
            base = 0.6 + 0.1 * j + rng.random() * 0.05
            rows.append(("e", dataset, classifier, "accuracy", "", "", base))
            rows.append(("e", dataset, classifier, "error_rate", "", "", 1 - base))
            rows.append(("e", dataset, classifier, "preference_driven", "default", "", base - 0.1))
            for name, vector in vectors.items():
                written = ";".join(np.format_float_positional(float(v), trim="-") for v in vector)
                rows.append(("e", dataset, classifier, "preference_driven", name, written, base))
    frame = pd.DataFrame(rows, columns=list(MEASURE_COLUMNS))
    if nan_at:
        mask = (
            (frame["dataset"] == nan_at[0])
            & (frame["classifier"] == nan_at[1])
            & (frame["measure"] == "accuracy")
        )
        frame.loc[mask, "value"] = np.nan
    return frame


def _keys(frame: pd.DataFrame) -> set[tuple[str, str]]:
    return set(map(tuple, frame[["measure", "kappa"]].drop_duplicates().to_numpy()))


def test_compare_across_datasets_pools_equal_vectors_and_refuses_different_ones(caplog):
    with caplog.at_level("WARNING", logger="pdmeasure.stats"):
        tables = stats_across.compare_across_datasets(
            _measures_frame(), alpha=0.05, kappa_vectors=KAPPA_VECTORS
        )
    pooled = {
        ("accuracy", ""),
        ("error_rate", ""),
        ("preference_driven", "default"),
        ("preference_driven", "shared"),
        ("preference_driven", "only"),
    }
    assert _keys(tables.ranks) == _keys(tables.cd) == pooled
    ranks = tables.ranks.set_index(["measure", "kappa", "classifier"])["average_rank"]
    # C is best on every dataset: rank 1 for accuracy and for error rate (lower is better).
    assert ranks[("accuracy", "", "C")] == 1.0 and ranks[("error_rate", "", "C")] == 1.0
    n = tables.ranks.set_index(["measure", "kappa"])["n_datasets"]
    # the same vector under the same name on d1-d3 is pooled; default on all four datasets
    assert n[("preference_driven", "shared")].iloc[0] == 3
    assert n[("preference_driven", "default")].iloc[0] == 4
    shared = tables.ranks[tables.ranks["kappa"] == "shared"]
    assert shared["datasets"].iloc[0] == "d1;d2;d3"
    assert ranks[("preference_driven", "shared", "C")] == 1.0
    # p1 is a different vector on each dataset: no ranks, post-hoc or CD rows, only omnibus
    # rows that say why the comparison was not run
    p1 = tables.omnibus[tables.omnibus["kappa"] == "p1"]
    assert list(p1["test"]) == list(stats_tables.OMNIBUS_TESTS)
    assert (p1["note"] == P1_NOTE).all()
    assert p1["p_value"].isna().all() and p1["statistic"].isna().all()
    assert (p1["n_datasets"] == 0).all() and (p1["n_classifiers"] == 3).all()
    assert not p1["significant"].any()
    assert "p1" not in set(tables.posthoc["kappa"]) | set(tables.cd["kappa"])
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warned) == 1 and "'p1'" in warned[0] and P1_NOTE in warned[0]
    only = tables.omnibus[tables.omnibus["kappa"] == "only"]
    assert len(only) == 4 and only["p_value"].isna().all()
    assert only["note"].str.contains("N = 1").all()
    assert list(tables.omnibus.columns) == list(stats_tables.OMNIBUS_COLUMNS)
    assert list(tables.posthoc.columns) == list(stats_tables.POSTHOC_COLUMNS)
    assert list(tables.cd.columns) == list(stats_tables.CD_COLUMNS)


def test_nan_measure_is_excluded_with_a_warning_naming_it():
    with pytest.warns(stats_tables.NaNExcludedWarning, match=r"accuracy.*'d2'.*NaN value for B"):
        tables = stats_across.compare_across_datasets(
            _measures_frame(("d2", "B")), alpha=0.05, kappa_vectors=KAPPA_VECTORS
        )
    accuracy = tables.omnibus[tables.omnibus["measure"] == "accuracy"]
    assert (accuracy["n_datasets"] == 3).all()
    assert accuracy["note"].str.contains("excluded: d2").all()
    assert accuracy["p_value"].notna().all()


def test_named_vectors_of_equal_values_are_pooled_and_others_refused():
    """Pooling follows the vector's values: equal values under a name pool, others do not."""
    vectors = {
        "car": {"p1": [0, 0.8, 0.6, 1], "p2": [0, 1, 0, 1]},
        "nursery": {"p1": [0, 0, 0, 1, 0], "p2": [0, 1, 0, 1]},
        "toy": {"p2": [0.0, 1.0, 0.0, 1.0]},
    }
    assert stats_tables.differing_kappa_vectors(vectors) == {
        "p1": {"car": (0.0, 0.8, 0.6, 1.0), "nursery": (0.0, 0.0, 0.0, 1.0, 0.0)}
    }
    assert (
        stats_tables.not_pooled_note("p1", stats_tables.differing_kappa_vectors(vectors)["p1"])
        == "p1 differs across datasets (car: [0, 0.8, 0.6, 1], nursery: [0, 0, 0, 1, 0]); "
        "not pooled"
    )
    keys = stats_tables.comparison_keys(vectors)
    assert ("preference_driven", "p2") in keys and ("preference_driven", "p1") not in keys
    tables = stats_across.compare_across_datasets(
        _measures_frame(kappa_vectors=vectors), alpha=0.05, kappa_vectors=vectors
    )
    p2 = tables.ranks[tables.ranks["kappa"] == "p2"]
    assert (p2["n_datasets"] == 3).all() and p2["datasets"].iloc[0] == "car;nursery;toy"
    assert tables.omnibus.loc[tables.omnibus["kappa"] == "p2", "p_value"].notna().all()
    p1 = tables.omnibus[tables.omnibus["kappa"] == "p1"]
    assert (
        p1["note"]
        .str.contains(
            r"p1 differs across datasets \(car: \[0, 0.8, 0.6, 1\], "
            r"nursery: \[0, 0, 0, 1, 0\]\); not pooled"
        )
        .all()
    )
    assert "p1" not in set(tables.ranks["kappa"])


def test_default_kappa_is_pooled_whatever_the_named_vectors():
    vectors = {"car": {"p1": [0, 0.8, 0.6, 1]}, "nursery": {"p1": [0, 0, 0, 1, 0]}}
    keys = stats_tables.comparison_keys(vectors)
    assert keys[-1] == ("preference_driven", "default")
    tables = stats_across.compare_across_datasets(
        _measures_frame(kappa_vectors=vectors), alpha=0.05, kappa_vectors=vectors
    )
    default = tables.cd[tables.cd["kappa"] == "default"]
    assert (default["n_datasets"] == 2).all() and default["cd"].notna().all()


def test_a_vector_with_two_names_on_a_dataset_counts_for_both():
    # measures.csv holds one row per name: d1's vector 0;1 has rows "a" and "b"
    vectors = {"d1": {"a": [0, 1], "b": [0, 1]}, "d2": {"a": [0, 1]}, "d3": {"b": [0, 1]}}
    frame = _measures_frame(kappa_vectors=vectors)
    d1 = frame[frame["dataset"] == "d1"]
    assert (d1["kappa_values"] == "0;1").sum() == 6
    assert set(d1[d1["kappa_values"] == "0;1"]["kappa"]) == {"a", "b"}
    tables = stats_across.compare_across_datasets(frame, alpha=0.05, kappa_vectors=vectors)
    datasets = tables.ranks.drop_duplicates("kappa").set_index("kappa")["datasets"]
    assert datasets["a"] == "d1;d2" and datasets["b"] == "d1;d3"


def test_report_says_which_vectors_were_not_pooled(tmp_path):
    across = stats_across.compare_across_datasets(
        _measures_frame(), alpha=0.05, kappa_vectors=KAPPA_VECTORS
    )
    # as the pipeline does: the report is rendered from the tables read back from CSV
    back = []
    for name, table in zip(across._fields, across):
        path = tmp_path / f"{name}.csv"
        table.to_csv(path, index=False)
        back.append(stats_tables.read_stats_table(path))
    across = stats_across.AcrossTables(*back)
    assert stats_report.not_compared(across, "e") == [f"preference_driven [p1]: {P1_NOTE}"]
    no_within = pd.DataFrame(
        columns=[
            "engine",
            "dataset",
            "measure",
            "kappa",
            "classifier_a",
            "classifier_b",
            "better",
            "significant_by",
        ]
    )
    report = stats_report.stats_report(across, no_within, alpha=0.05)
    assert "Not compared across datasets:" in report
    assert f"- preference_driven [p1]: {P1_NOTE}" in report
    # in the summary table of comparisons: shared, not p1
    assert re.search(r"^\| preference_driven \[shared\] +\| 3 ", report, re.MULTILINE)
    assert not re.search(r"^\| preference_driven \[p1\] ", report, re.MULTILINE)


def test_can_reach_alpha_is_computed_with_the_tables_and_only_printed_by_the_report(tmp_path):
    across = stats_across.compare_across_datasets(
        _measures_frame(), alpha=0.05, kappa_vectors=KAPPA_VECTORS
    )
    for table in (across.omnibus, across.posthoc):
        known = table["min_p"].notna()
        assert (table.loc[known, "can_reach_alpha"] == (table.loc[known, "min_p"] <= 0.05)).all()
        assert table.loc[~known, "can_reach_alpha"].isna().all()
    assert across.omnibus["min_p"].isna().any()  # the refused p1 rows: unknown
    # read back from CSV: a nullable boolean, empty -> NA
    path = tmp_path / "omnibus.csv"
    across.omnibus.to_csv(path, index=False)
    back = stats_tables.read_stats_table(path)
    assert str(back["can_reach_alpha"].dtype) == "boolean"
    assert back["can_reach_alpha"].isna().equals(across.omnibus["can_reach_alpha"].isna())
    # the report prints the column; it does not compare min_p with alpha itself
    omnibus_titles = {stats_report.TEST_TITLES[t] for t in stats_tables.OMNIBUS_TESTS}
    shown = stats_report.power_table(across, "e")
    assert set(shown["can reach alpha"]) <= {"yes", "no", "unknown"}
    assert (shown.loc[shown["test"].isin(omnibus_titles), "can reach alpha"] == "yes").any()
    flipped = across._replace(
        omnibus=across.omnibus.assign(can_reach_alpha=pd.array([False] * len(across.omnibus)))
    )
    rows = stats_report.power_table(flipped, "e")
    assert (rows.loc[rows["test"].isin(omnibus_titles), "can reach alpha"] == "no").all()
    with pytest.raises(ValueError, match="can_reach_alpha has non-boolean values"):
        path.write_text("can_reach_alpha\nmaybe\n")
        stats_tables.read_stats_table(path)


def _predictions(
    classifiers: dict[str, float], *, n: int = 200, folds: int = 5, repeats: int = 1, seed: int = 0
) -> pd.DataFrame:
    """Synthetic CV predictions on 3 classes; each classifier is right with its own rate."""
    rng = np.random.default_rng(seed)
    classes = np.array(["x", "y", "z"])
    actual = classes[np.arange(n) % 3]
    frames = []
    for repeat in range(1, repeats + 1):
        fold = rng.permutation(np.arange(n) % folds) + 1
        for name, rate in classifiers.items():
            right = rng.random(n) < rate
            wrong = classes[(np.arange(n) + 1 + rng.integers(0, 2, n)) % 3]
            frames.append(
                pd.DataFrame(
                    {
                        "engine": "e",
                        "dataset": "d",
                        "classifier": name,
                        "repeat": repeat,
                        "fold": fold,
                        "row": np.arange(n),
                        "actual": actual,
                        "predicted": np.where(right, actual, wrong),
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def test_fold_measure_values_match_the_measures_library():
    pred = _predictions({"good": 0.9, "bad": 0.5})
    values = stats_folds.fold_measure_values(
        pred, classes=["x", "y", "z"], kappa_vectors={"p1": [0, 1, 0.5]}, zero_division=0.0
    )
    assert list(values.columns) == list(stats_tables.FOLD_COLUMNS)
    one = pred[(pred["classifier"] == "good") & (pred["fold"] == 2)]
    cm = confusion_matrix(one["actual"], one["predicted"], ["x", "y", "z"])
    row = values[(values["classifier"] == "good") & (values["fold"] == 2)].set_index(
        ["measure", "kappa"]
    )
    assert row.loc[("accuracy", ""), "value"] == pytest.approx(
        (one["actual"] == one["predicted"]).mean()
    )
    assert row.loc[("preference_driven", "default"), "value"] == pytest.approx(
        measures.preference_driven(cm, None, zero_division=0.0)
    )
    assert row.loc[("preference_driven", "p1"), "value"] == pytest.approx(
        measures.preference_driven(cm, [0, 1, 0.5], zero_division=0.0)
    )
    assert (row["n_test"] + row["n_train"] == 200).all()
    expected = len(measures.REGISTRY) + 1  # registry (pd there = default) + one vector
    assert values.groupby(["classifier", "fold"]).size().eq(expected).all()


def test_fold_matrices_count_each_group_as_the_label_function_does():
    pred = _predictions({"good": 0.9, "bad": 0.5}).sample(frac=1.0, random_state=3)
    classes = ["z", "x", "y"]  # not sorted: the configured order is the matrices' order
    by_fold = pred.groupby(["classifier", "repeat", "fold"], sort=True)
    cms = stats_folds.fold_matrices(pred, by_fold.ngroup().to_numpy(), by_fold.ngroups, classes)
    expected = [confusion_matrix(g["actual"], g["predicted"], classes) for _, g in by_fold]
    np.testing.assert_array_equal(cms, np.stack(expected))
    bad = pred.assign(predicted=pred["predicted"].where(pred.index != pred.index[5], "w"))
    with pytest.raises(ValueError, match="label 'w' is not one of the configured classes"):
        stats_folds.fold_matrices(bad, by_fold.ngroup().to_numpy(), by_fold.ngroups, classes)


def test_check_paired_folds_rejects_different_folds():
    pred = _predictions({"a": 0.8, "b": 0.7})
    stats_folds.check_paired_folds(pred)
    shuffled = pred.copy()
    mask = shuffled["classifier"] == "b"
    shuffled.loc[mask, "fold"] = np.roll(shuffled.loc[mask, "fold"].to_numpy(), 1)
    with pytest.raises(ValueError, match="same folds"):
        stats_folds.check_paired_folds(shuffled)


def test_check_paired_folds_reads_rows_in_any_order():
    pred = _predictions({"a": 0.8, "b": 0.7, "c": 0.6}, repeats=2)
    stats_folds.check_paired_folds(pred.sample(frac=1.0, random_state=1))


def test_check_paired_folds_names_a_sample_tested_twice():
    pred = _predictions({"a": 0.8, "b": 0.7}, repeats=2)
    b = pred.index[pred["classifier"] == "b"]
    twice = pd.concat([pred, pred.loc[b[:1]]], ignore_index=True)
    with pytest.raises(ValueError, match="classifier b: a sample appears twice in one repeat"):
        stats_folds.check_paired_folds(twice)


@pytest.mark.parametrize("change", ["drop a row", "move a row to another repeat"])
def test_check_paired_folds_rejects_other_samples(change):
    pred = _predictions({"a": 0.8, "b": 0.7, "c": 0.6}, repeats=2)
    last = pred.index[pred["classifier"] == "c"][-1]
    if change == "drop a row":
        pred = pred.drop(index=last)
    else:
        pred.loc[last, "repeat"] = 1
        pred.loc[last, "row"] = 10_000
    with pytest.raises(ValueError, match="classifiers a and c were not cross-validated"):
        stats_folds.check_paired_folds(pred)


@settings(deadline=None)  # the classifier-by-classifier check groups a frame per example
@given(
    seed=st.integers(0, 10_000),
    change=st.sampled_from(["none", "fold", "drop", "twice", "repeat", "shuffle"]),
)
def test_check_paired_folds_fast_check_agrees_with_the_classifier_by_classifier_check(seed, change):
    # The fast check over sorted arrays passes exactly the predictions that the check of each
    # classifier against the first (the path that names the fault) passes.
    rng = np.random.default_rng(seed)
    pred = _predictions({"a": 0.8, "b": 0.7, "c": 0.6}, n=12, folds=3, repeats=2, seed=seed)
    i = int(rng.integers(len(pred)))
    if change == "fold":
        pred.loc[i, "fold"] = pred.loc[i, "fold"] % 3 + 1
    elif change == "drop":
        pred = pred.drop(index=i)
    elif change == "twice":
        pred = pd.concat([pred, pred.loc[[i]]], ignore_index=True)
    elif change == "repeat":
        pred.loc[i, "repeat"] = 3 - pred.loc[i, "repeat"]
    pred = pred.sample(frac=1.0, random_state=seed)
    try:
        stats_folds._raise_first_fault(pred)
        faultless = True
    except ValueError:
        faultless = False
    assert stats_folds._same_folds(pred) == faultless


def test_fold_measure_values_equal_a_frame_per_measure_row():
    # The table built from whole columns equals the one built a frame per measure row.
    pred = _predictions({"good": 0.9, "bad": 0.5}, repeats=2)
    classes, vectors = ["x", "y", "z"], {"p1": [0, 1, 0.5]}
    values = stats_folds.fold_measure_values(
        pred, classes=classes, kappa_vectors=vectors, zero_division=0.0
    )
    keys = ["engine", "dataset", "classifier", "repeat", "fold"]
    by_fold = pred.groupby(keys, sort=True)
    sizes = by_fold.size()
    cms = stats_folds.fold_matrices(pred, by_fold.ngroup().to_numpy(), len(sizes), classes)
    index = pd.DataFrame(sizes.index.tolist(), columns=keys)
    index["scheme"] = "cv"
    index["n_test"] = sizes.to_list()
    index["n_train"] = [
        int((pred["classifier"] == key[2]).sum() / 2) - size for key, size in sizes.items()
    ]
    expected = pd.concat(
        [
            index.assign(measure=m, kappa=k, kappa_values=w, value=np.asarray(v, float))
            for m, k, w, v in pd_rows(cms, vectors, zero_division=0.0)
        ],
        ignore_index=True,
    )[list(stats_tables.FOLD_COLUMNS)]
    pd.testing.assert_frame_equal(values, expected, check_exact=True)


def test_significance_markdown_tables_equal_pandas_to_markdown():
    # Each measure's table, built as rows for tabulate, is what DataFrame.to_markdown gives.
    _, pairwise = _within()
    table = stats_within.significance_table(pairwise)
    table.loc[table.index[0], "better"] = None
    md = stats_report.significance_markdown(table, alpha=0.05)
    tests = [c for c in table.columns if c.startswith("p_")]
    for (measure, kappa), group in table.groupby(["measure", "kappa"], sort=False):
        listed = group["significant_by"].str.split(";")
        shown = pd.DataFrame(
            {
                "pair": group["classifier_a"] + " vs " + group["classifier_b"],
                "better": group["better"].fillna(""),
                **{
                    stats_report.TEST_TITLES[c[2:]]: [
                        stats_report._p(v, c[2:] in hits) for v, hits in zip(group[c], listed)
                    ]
                    for c in tests
                },
                "significant by": group["significant_by"].replace("", "-"),
            }
        )
        expected = shown.to_markdown(index=False, disable_numparse=True)
        assert f"## {stats_tables.measure_label(measure, kappa)}\n\n{expected}\n" in md


def _within(seed: int = 0):
    classes = ["x", "y", "z"]
    pred = _predictions({"good": 0.95, "mid": 0.9, "bad": 0.4}, n=300, folds=10, seed=seed)
    values = stats_folds.fold_measure_values(pred, classes=classes, zero_division=0.0)
    five = _predictions(
        {"good": 0.95, "mid": 0.9, "bad": 0.4}, n=300, folds=2, repeats=5, seed=seed + 1
    )
    five_values = stats_folds.fold_measure_values(
        five, classes=classes, zero_division=0.0, scheme="cv5x2"
    )
    return pred, stats_within.compare_within_dataset(
        values,
        alpha=0.05,
        cv_predictions=pred,
        cv5x2_values=five_values,
        classifiers=["good", "mid", "bad"],
    )


def test_compare_within_dataset_finds_the_obvious_difference():
    _, pairwise = _within()
    assert list(pairwise.columns) == list(stats_tables.PAIRWISE_COLUMNS)
    acc = pairwise[pairwise["measure"] == "accuracy"].set_index(
        ["test", "classifier_a", "classifier_b"]
    )
    for test in stats_tables.WITHIN_TESTS:
        assert acc.loc[(test, "good", "bad"), "better"] == "good"
    for test in ("corrected_t", "mcnemar", "cv5x2_f"):
        assert acc.loc[(test, "good", "bad"), "significant"]
    err = pairwise[pairwise["measure"] == "error_rate"].set_index(
        ["test", "classifier_a", "classifier_b"]
    )
    assert err.loc[("corrected_t", "good", "bad"), "better"] == "good"
    assert err.loc[("corrected_t", "good", "bad"), "mean_difference"] < 0
    assert set(pairwise.loc[pairwise["test"] == "mcnemar", "measure"]) == {"accuracy", "error_rate"}
    for _, group in pairwise.groupby(["measure", "kappa", "test"]):
        np.testing.assert_allclose(group["p_adjusted"], stats.holm(group["p_value"].to_numpy()))


def test_significance_table_markdown_and_report(tmp_path):
    _, pairwise = _within()
    table = stats_within.significance_table(pairwise)
    assert {"p_corrected_t", "p_cv5x2_t", "p_cv5x2_f", "p_mcnemar", "significant_by"} <= set(table)
    good_bad = table[
        (table["measure"] == "accuracy")
        & (table["classifier_a"] == "good")
        & (table["classifier_b"] == "bad")
    ].iloc[0]
    assert "corrected_t" in good_bad["significant_by"].split(";")
    md = stats_report.significance_markdown(table, alpha=0.05)
    assert "## accuracy" in md and "## preference_driven [default]" in md
    # round trip through CSV, as the pipeline does
    stats_path = tmp_path / "significance.csv"
    table.to_csv(stats_path, index=False)
    back = stats_tables.read_stats_table(stats_path)
    assert back["kappa"].iloc[0] == ""
    across = stats_across.compare_across_datasets(
        _measures_frame(), alpha=0.05, kappa_vectors=KAPPA_VECTORS
    )
    report = stats_report.stats_report(
        across, back, alpha=0.05, figures={("e", "accuracy", ""): "../figures/cd/e/accuracy.png"}
    )
    assert "## Accuracy and pd at the default kappa" in report
    assert "little power" in report
    assert "good > bad" in report
    assert "(../figures/cd/e/accuracy.png)" in report


def test_comparison_keys_and_file_stem():
    keys = stats_tables.comparison_keys(KAPPA_VECTORS)
    assert ("preference_driven", "shared") in keys
    assert ("preference_driven", "p1") not in keys  # different vectors under one name
    assert ("preference_driven", "only") not in keys  # a single dataset
    assert ("preference_driven", "default") in keys and ("accuracy", "") in keys
    # exactly the keys compared across two or more datasets (the CD figures of stats.smk)
    tables = stats_across.compare_across_datasets(
        _measures_frame(), alpha=0.05, kappa_vectors=KAPPA_VECTORS
    )
    compared = _keys(tables.cd[tables.cd["n_datasets"] >= 2])
    assert {k for k in keys if k[0] in {"accuracy", "error_rate", "preference_driven"}} == compared
    assert stats_tables.file_stem("preference_driven", "p1") == "preference_driven_p1"
    assert stats_tables.file_stem("accuracy", "") == "accuracy"


def test_cross_validate_5x2_through_the_sklearn_engine():
    rng = np.random.default_rng(0)
    n = 80
    label = np.where(np.arange(n) % 2 == 0, "yes", "no")
    data = pd.DataFrame(
        {
            "f1": np.where(rng.random(n) < 0.8, label, "other"),
            "f2": rng.choice(["a", "b"], n),
            "class": label,
        }
    )
    spec = DatasetSpec(name="toy", target="class", classes=("yes", "no"))
    frames = [
        cv5x2.cross_validate_5x2("sklearn", data, spec, name, params, seed=3)
        for name, params in (
            ("NaiveBayes", sklearn_entry("NaiveBayes", alpha=1.0)),
            ("DecisionTree", sklearn_entry("DecisionTree", criterion="entropy")),
        )
    ]
    pred = pd.concat(frames, ignore_index=True)
    assert list(pred.columns) == list(stats_folds.PREDICTION_KEYS)
    assert sorted(pred["repeat"].unique()) == [1, 2, 3, 4, 5]
    assert sorted(pred["fold"].unique()) == [1, 2]
    stats_folds.check_paired_folds(pred)  # same folds for both classifiers
    values = stats_folds.fold_measure_values(pred, classes=["yes", "no"], scheme="cv5x2")
    d = values[values["measure"] == "accuracy"].pivot_table(
        index=["repeat", "fold"], columns="classifier", values="value"
    )
    result = stats.paired_ttest_5x2cv(
        (d["NaiveBayes"] - d["DecisionTree"]).to_numpy().reshape(5, 2)
    )
    assert np.isfinite(result.p_value) or result.note


def test_nan_fold_value_is_excluded_with_a_warning():
    pred = _predictions({"a": 0.9, "b": 0.6}, n=120, folds=6)
    values = stats_folds.fold_measure_values(pred, classes=["x", "y", "z"], zero_division=0.0)
    mask = (values["classifier"] == "b") & (values["fold"] == 3) & (values["measure"] == "mcc")
    values.loc[mask, "value"] = np.nan
    with pytest.warns(stats_tables.NaNExcludedWarning, match=r"mcc.*repeat 1 fold 3.*NaN for b"):
        pairwise = stats_within.compare_within_dataset(values, alpha=0.05)
    mcc = pairwise[pairwise["measure"] == "mcc"].iloc[0]
    assert mcc["n"] == 5 and np.isfinite(mcc["p_value"])
    assert pairwise[pairwise["measure"] == "accuracy"]["n"].iloc[0] == 6
