"""Edge cases of the measures: micro scores at accuracy 0, extreme scales, complex input,
MCC's zero denominator against scikit-learn, and the IBA formula computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers import assert_close
from pdmeasure import measures as M

POLICIES = ["nan", 0.0, 1.0]

# No correct prediction: accuracy 0, every per-class precision and recall 0.
ALL_WRONG = np.array([[0, 3, 1], [2, 0, 0], [4, 1, 0]])


# ------------------------------------------------------------------ micro averages
@pytest.mark.parametrize("zd", POLICIES)
def test_micro_scores_are_zero_when_nothing_is_correct(zd):
    assert M.accuracy(ALL_WRONG, zero_division=zd) == 0.0
    for name in ("precision_micro", "recall_micro", "f1_micro"):
        assert M.REGISTRY[name](ALL_WRONG, zero_division=zd) == 0.0, name
        assert M.evaluate(ALL_WRONG, [name], zero_division=zd)[name] == 0.0, name
    for beta in (0.0, 0.5, 1.0, 2.0):
        assert M.fbeta_micro(ALL_WRONG, beta, zero_division=zd) == 0.0, beta


def test_macro_f_of_zero_precision_and_recall_stays_nan_under_nan():
    """Only the micro scores changed: macro F at P_M = R_M = 0 is still the policy's NaN."""
    assert math.isnan(M.f1_macro(ALL_WRONG))
    assert math.isnan(M.fbeta_macro(ALL_WRONG, 2.0))
    assert M.f1_macro(ALL_WRONG, zero_division=1.0) == 0.0


def test_micro_scores_equal_accuracy_on_a_batch_with_and_without_correct_predictions():
    batch = np.stack([ALL_WRONG, ALL_WRONG + np.eye(3, dtype=int) * 5])
    expected = [0.0, 15 / 26]
    for name in ("precision_micro", "recall_micro", "f1_micro", "accuracy"):
        np.testing.assert_allclose(M.REGISTRY[name](batch), expected, rtol=1e-15, err_msg=name)
    np.testing.assert_allclose(M.fbeta_micro(batch, 3.0), expected, rtol=1e-15)


# ------------------------------------------------------------------ extreme scales
CM = np.array([[5, 1, 0], [2, 3, 1], [0, 0, 4]])
# n = 16, sum TP = 12, actual totals (6, 6, 4), predicted totals (7, 4, 5):
# MCC = (16*12 - 86) / sqrt((256 - 90) (256 - 88)), kappa = (16*12 - 86) / (256 - 86).
CM_MCC = 106 / math.sqrt(166 * 168)
CM_KAPPA = 106 / 170
EXTREME_SCALES = [
    1e-300,
    1e-250,
    1e-200,
    1e-165,
    1e-160,
    1e-100,
    1e100,
    1e154,
    1e155,
    1e200,
    1e250,
    1e300,
    np.finfo(float).max / 5,
]

# Matrices with empty rows and columns, a never-predicted class and non-integer counts.
SCALE_BASES = [
    CM,
    np.array([[3, 1], [2, 4]]),
    np.array([[1, 0], [1, 0]]),
    np.array([[7, 0], [0, 0]]),
    np.array([[0, 2, 0, 1], [0, 0, 0, 0], [1, 1, 7, 0], [0, 3, 0, 2]]),
    np.array([[0.5, 0.25, 3.0], [1.75, 0.0, 2.5], [0.125, 4.0, 1.0]]),
    np.random.default_rng(3).integers(0, 50, (9, 9)),
]


@pytest.mark.parametrize("scale", EXTREME_SCALES, ids=lambda s: f"{s:.0e}")
def test_mcc_and_kappa_at_extreme_scales(scale):
    """Products of totals overflowed from counts of 1e154 and underflowed below 1e-162."""
    assert M.mcc(CM * scale) == pytest.approx(CM_MCC, rel=1e-12)
    assert M.kappa(CM * scale) == pytest.approx(CM_KAPPA, rel=1e-12)


def test_precision_macro_of_counts_near_the_float_maximum():
    """Column totals of 2e308 overflowed to inf, making each precision 0 instead of 1/2."""
    cm = np.full((2, 2), 1e308)
    assert M.precision_macro(cm) == pytest.approx(0.5, rel=1e-15)
    assert M.recall_macro(cm) == pytest.approx(0.5, rel=1e-15)
    assert M.accuracy(cm) == pytest.approx(0.5, rel=1e-15)
    assert M.mcc(cm, zero_division=0.0) == 0.0 and M.kappa(cm) == 0.0


@pytest.mark.parametrize("zd", POLICIES)
@pytest.mark.parametrize("name", list(M.REGISTRY))
def test_every_measure_is_scale_invariant_at_extreme_scales(name, zd):
    for base in SCALE_BASES:
        expected = M.REGISTRY[name](base, zero_division=zd)
        for scale in EXTREME_SCALES:
            scaled = base * min(scale, 0.999 * np.finfo(float).max / base.max())
            got = M.REGISTRY[name](scaled, zero_division=zd)
            assert np.isfinite(got) or math.isnan(expected), (base.tolist(), scale)
            assert_close(
                got, expected, f"{name} x {scale:.0e} of {base.tolist()}", rtol=1e-9, atol=1e-11
            )


@pytest.mark.parametrize("zd", POLICIES)
def test_power_of_two_scaling_gives_identical_values(zd):
    """Rescaling by powers of two is exact: every measure but CEN (whose logarithms see the
    scale) gives the very same float64 as on the unscaled counts."""
    batch = np.stack([CM, CM.T, np.diag([3, 0, 5]), np.array([[0, 4, 0], [0, 2, 0], [0, 1, 0]])])
    expected = M.evaluate(batch, zero_division=zd)
    for exponent in (-1000, -600, -65, 10, 65, 600, 1000):
        got = M.evaluate(np.ldexp(batch.astype(float), exponent), zero_division=zd)
        for name in expected:
            if name == "cen":
                np.testing.assert_allclose(got[name], expected[name], rtol=1e-13, atol=1e-15)
            else:
                np.testing.assert_array_equal(
                    got[name], expected[name], err_msg=f"{name} 2**{exponent}"
                )


def test_batch_mixing_scales_matches_each_matrix_alone():
    batch = np.stack([CM * 1e300, CM * 1.0, CM * 1e-300, CM.T * 1e-10])
    for name, f in M.REGISTRY.items():
        np.testing.assert_allclose(f(batch), [f(m) for m in batch], rtol=1e-12, err_msg=name)
    np.testing.assert_allclose(M.mcc(batch)[:3], CM_MCC, rtol=1e-12)


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_functions_outside_the_registry_are_scale_invariant(scale):
    kappa = [0.2, 0.9, 0.5]
    assert M.preference_driven(CM * scale, kappa) == pytest.approx(
        M.preference_driven(CM, kappa), rel=1e-13
    )
    assert M.fbeta_macro(CM * scale, 2.0) == pytest.approx(M.fbeta_macro(CM, 2.0), rel=1e-13)
    assert M.fbeta_micro(CM * scale, 2.0) == pytest.approx(12 / 16, rel=1e-13)
    for got, expected in zip(M.class_precision_recall(CM * scale), M.class_precision_recall(CM)):
        np.testing.assert_allclose(got, expected, rtol=1e-13)


# ------------------------------------------------------------------ MCC's zero denominator
CONSTANT_LABELLINGS = [
    np.array([[3, 0], [5, 0]]),  # every prediction in class 0
    np.array([[3, 2], [0, 0]]),  # every sample in class 0
    np.array([[7, 0], [0, 0]]),  # both: a perfect classification of one class
    np.array([[0, 4, 0], [0, 2, 0], [0, 1, 0]]),
]


def _sklearn_mcc(cm) -> float:
    from sklearn.metrics import matthews_corrcoef

    c = len(cm)
    actual, predicted = np.divmod(np.arange(c * c), c)
    return matthews_corrcoef(actual, predicted, sample_weight=np.ravel(cm).astype(float))


@pytest.mark.parametrize("zd", [0.0, 1.0])
@pytest.mark.parametrize("cm", CONSTANT_LABELLINGS, ids=lambda cm: str(cm.tolist()))
def test_mcc_of_a_constant_labelling_is_zero_as_in_scikit_learn(cm, zd):
    assert _sklearn_mcc(cm) == 0.0
    assert M.mcc(cm, zero_division=zd) == 0.0
    assert M.evaluate(cm, ["mcc"], zero_division=zd)["mcc"] == 0.0


@pytest.mark.parametrize("cm", CONSTANT_LABELLINGS, ids=lambda cm: str(cm.tolist()))
def test_mcc_of_a_constant_labelling_is_nan_under_nan(cm):
    assert math.isnan(M.mcc(cm))


def test_kappa_keeps_the_policy_value_for_one_diagonal_cell():
    """Kappa's 0/0 (all samples in one diagonal cell, perfect agreement) still follows the
    policy; only MCC's is pinned to 0."""
    assert M.kappa([[7, 0], [0, 0]], zero_division=1.0) == 1.0
    assert M.kappa([[7, 0], [0, 0]], zero_division=0.0) == 0.0


@pytest.mark.parametrize("zd", [0.0, 1.0])
def test_mcc_matches_scikit_learn_with_empty_rows_and_columns(zd):
    rng = np.random.default_rng(19)
    for _ in range(60):
        c = int(rng.integers(2, 6))
        cm = rng.integers(0, 6, (c, c))
        cm[:, rng.random(c) < 0.4] = 0
        cm[rng.random(c) < 0.3] = 0
        if rng.random() < 0.3:  # everything predicted as one class
            cm[:, 0] = cm.sum(axis=1)
            cm[:, 1:] = 0
        if cm.sum() == 0:
            continue
        assert M.mcc(cm, zero_division=zd) == pytest.approx(
            _sklearn_mcc(cm), rel=1e-12, abs=1e-15
        ), cm.tolist()


# ------------------------------------------------------------------ IBA
def test_iba_is_the_mean_of_the_one_vs_rest_terms_computed_by_hand():
    """[[2, 1, 1], [0, 3, 1], [1, 0, 1]], n = 10, by hand:
    class 0: TP 2, FN 2, FP 1, TN 5 -> R = 1/2, S = 5/6, term (1 + (1/2 - 5/6)/10) 5/12 = 29/72
    class 1: TP 3, FN 1, FP 1, TN 5 -> R = 3/4, S = 5/6, term (1 + (3/4 - 5/6)/10) 5/8 = 119/192
    class 2: TP 1, FN 1, FP 2, TN 6 -> R = 1/2, S = 3/4, term (1 + (1/2 - 3/4)/10) 3/8 = 117/320
    IBA = (29/72 + 119/192 + 117/320) / 3 = 1999/4320."""
    cm = [[2, 1, 1], [0, 3, 1], [1, 0, 1]]
    assert M.IBA_ALPHA == 0.1
    assert M.iba(cm) == pytest.approx(1999 / 4320, rel=1e-15)


def test_iba_of_two_classes_is_tpr_times_tnr_not_the_binary_iba():
    """For C = 2 the dominance terms of the two classes cancel (documented)."""
    cm = [[3, 1], [2, 4]]  # class 0 as positive: TPR = 3/4, TNR = 4/6
    tpr, tnr = 3 / 4, 4 / 6
    assert M.iba(cm) == pytest.approx(tpr * tnr, rel=1e-15)
    binary_iba = (1 + M.IBA_ALPHA * (tpr - tnr)) * tpr * tnr
    assert M.iba(cm) != pytest.approx(binary_iba, rel=1e-6)


@pytest.mark.parametrize("n_classes", [2, 3, 5, 18])
def test_a_matrix_gets_the_same_bits_alone_and_inside_a_stack(n_classes):
    """Values do not depend on the batch a matrix is computed in (measures.csv computes a
    dataset's matrices as one stack; a user recomputes one matrix)."""
    rng = np.random.default_rng(n_classes)
    stack = rng.integers(0, 50, size=(40, n_classes, n_classes))
    kappa = rng.random(n_classes)
    for name, function in M.REGISTRY.items():
        args = (kappa,) if name == "preference_driven" else ()
        batched = np.asarray(function(stack, *args, zero_division=0.0))
        alone = np.array([function(cm, *args, zero_division=0.0) for cm in stack])
        assert np.array_equal(batched, alone, equal_nan=True), name
    default = np.asarray(M.preference_driven(stack, zero_division=0.0))
    alone = np.array([M.preference_driven(cm, zero_division=0.0) for cm in stack])
    assert np.array_equal(default, alone)
