"""Input validation of the measures library: clear ValueErrors, never on zero rows/columns."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from pdmeasure import measures as M
from pdmeasure.exact.forms import pd_form
from pdmeasure.measures.labels import kappa_vector

GOOD = np.array([[5, 1, 0], [2, 3, 1], [0, 0, 4]])


@pytest.mark.parametrize("name", list(M.REGISTRY))
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        pytest.param([[1, 2, 3], [4, 5, 6]], r"square .* 2x3", id="not-square"),
        pytest.param([1, 2, 3], r"shape \(\.\.\., C, C\)", id="1-d"),
        pytest.param([[7]], r"at least 2x2, got 1x1", id="1x1"),
        pytest.param(
            [[1, -1], [0, 2]],
            r"negative count \(-1.0\) in cell \(actual=0, predicted=1\)",
            id="negative",
        ),
        pytest.param(
            [[1, 0], [math.nan, 2]], r"NaN or infinite count .* \(actual=1, predicted=0\)", id="nan"
        ),
        pytest.param([[1, math.inf], [0, 2]], r"NaN or infinite count", id="inf"),
        pytest.param([[0, 0], [0, 0]], r"holds no samples", id="empty"),
        pytest.param([["a", "b"], ["c", "d"]], r"numeric counts", id="strings"),
        pytest.param(
            [[1, 2j], [0, 3]],
            r"confusion matrix must be real, got complex values \(dtype complex128\)",
            id="complex",
        ),
        # a zero imaginary part is refused too: the dtype, not the values, is wrong
        pytest.param(
            np.array([[1, 2], [0, 3]], dtype=np.complex64),
            r"must be real, got complex values \(dtype complex64\)",
            id="complex-real-valued",
        ),
    ],
)
def test_invalid_matrix_raises(name, bad, message):
    with pytest.raises(ValueError, match=message):
        M.REGISTRY[name](bad)


def test_empty_matrix_in_a_batch_names_its_index():
    batch = np.ones((3, 4, 2, 2))
    batch[2, 1] = 0
    with pytest.raises(ValueError, match=r"batch index \(2, 1\) holds no samples"):
        M.accuracy(batch)


def test_negative_count_in_a_batch_names_its_index_and_cell():
    batch = np.ones((5, 3, 3))
    batch[3, 2, 0] = -2
    with pytest.raises(
        ValueError,
        match=r"batch index \(3,\) has a negative count \(-2.0\) in cell \(actual=2, predicted=0\)",
    ):
        M.kappa(batch)


@pytest.mark.parametrize(
    ("kappa", "message"),
    [
        pytest.param([0.5, 0.5], r"kappa has 2 value\(s\) but there are 3 classes", id="short"),
        pytest.param(
            [0.1, 0.2, 0.3, 0.4], r"kappa has 4 value\(s\) but there are 3 classes", id="long"
        ),
        pytest.param(0.5, r"a vector of 3 weights, got a scalar", id="scalar"),
        pytest.param([0.2, 1.5, 0.0], r"\[0, 1\], got 1.5", id="above-1"),
        pytest.param([-0.1, 0.5, 0.0], r"\[0, 1\], got -0.1", id="below-0"),
        pytest.param([0.2, math.nan, 0.0], r"NaN", id="nan"),
        pytest.param(
            np.array([0.2, 0.5, 0.3], dtype=complex),
            r"kappa must be real, got complex values",
            id="complex",
        ),
        pytest.param([[0.1, 0.2, 0.3]] * 4, r"does not broadcast", id="batch-mismatch"),
    ],
)
def test_invalid_kappa_raises(kappa, message):
    batch = np.stack([GOOD, GOOD])
    with pytest.raises(ValueError, match=message):
        M.preference_driven(batch, kappa)


@pytest.mark.parametrize("zero_division", ["zero", 0.5, 2, None, True, [0.0]])
def test_invalid_zero_division_raises(zero_division):
    with pytest.raises(ValueError, match="zero_division must be 'nan', 0.0 or 1.0"):
        M.precision_macro(GOOD, zero_division=zero_division)


#: Class 1 is never predicted, so its precision is 0/0 and the policy decides the macro mean.
NEVER_PREDICTED = np.array([[5.0, 0.0], [3.0, 0.0]])


@pytest.mark.parametrize(
    ("zero_division", "policy"),
    [("nan", "nan"), ("NaN", "nan"), (math.nan, "nan"), (0.0, 0.0), (0, 0.0), (1.0, 1.0), (1, 1.0)],
)
def test_accepted_zero_division_spellings(zero_division, policy):
    got = M.precision_macro(NEVER_PREDICTED, zero_division=zero_division)
    expected = M.precision_macro(NEVER_PREDICTED, zero_division=policy)
    np.testing.assert_equal(got, expected)
    # The three policies give three different values here, so a spelling read as the wrong
    # policy fails above.
    values = {str(M.precision_macro(NEVER_PREDICTED, zero_division=z)) for z in ("nan", 0.0, 1.0)}
    assert len(values) == 3


@pytest.mark.parametrize("beta", [-1.0, math.nan, math.inf, "x"])
def test_invalid_beta_raises(beta):
    with pytest.raises(ValueError, match="beta must be a non-negative finite number"):
        M.fbeta_macro(GOOD, beta)
    with pytest.raises(ValueError, match="beta must be a non-negative finite number"):
        M.fbeta_micro(GOOD, beta)


def test_unknown_measure_in_evaluate_raises():
    with pytest.raises(ValueError, match=r"unknown measure\(s\) \['acuracy'\]"):
        M.evaluate(GOOD, ["accuracy", "acuracy"])


@pytest.mark.parametrize(
    ("values", "n_classes", "chunk_size", "message"),
    [
        ([], 3, 10, "non-empty 1-D"),
        ([[0.1, 0.2]], 3, 10, "non-empty 1-D"),
        ([0.0, 1.2], 3, 10, r"\[0, 1\]"),
        ([0.0, math.nan], 3, 10, r"\[0, 1\]"),
        ([0.0, 1.0], 0, 10, "n_classes must be a positive integer"),
        ([0.0, 1.0], 2.0, 10, "n_classes must be a positive integer"),
        ([0.0, 1.0], 3, 0, "chunk_size must be a positive integer"),
    ],
)
def test_invalid_kappa_grid_raises(values, n_classes, chunk_size, message):
    with pytest.raises(ValueError, match=message):
        M.kappa_grid(values, n_classes, chunk_size)


@pytest.mark.parametrize("name", list(M.REGISTRY))
@pytest.mark.parametrize("zero_division", ["nan", 0.0, 1.0])
def test_zero_rows_and_columns_never_raise(name, zero_division):
    """Every pattern of empty rows/columns of a 3x3 matrix: no exception, no warning."""
    stack = []
    for rows, cols in itertools.product(itertools.product([0, 1], repeat=3), repeat=2):
        cm = np.arange(1, 10, dtype=float).reshape(3, 3)
        cm[np.array(rows, dtype=bool), :] = 0
        cm[:, np.array(cols, dtype=bool)] = 0
        if cm.sum() > 0:
            stack.append(cm)
    with np.errstate(all="raise"):
        values = M.REGISTRY[name](np.stack(stack), zero_division=zero_division)
    assert values.shape == (len(stack),)
    if zero_division != "nan":
        assert not np.isnan(values).any()


def test_single_matrix_gives_a_scalar_and_inputs_are_not_modified():
    cm = GOOD.copy()
    value = M.accuracy(cm)
    assert np.ndim(value) == 0 and isinstance(value, np.floating)
    np.testing.assert_array_equal(cm, GOOD)
    assert M.accuracy(cm.tolist()) == value
    assert M.accuracy(cm.astype(np.float32)) == value


def test_safe_divide_policy():
    np.testing.assert_array_equal(M.safe_divide([1.0, 0.0], [2.0, 0.0], 0.0), [0.5, 0.0])
    np.testing.assert_array_equal(M.safe_divide([0.0], [0.0], 1.0), [1.0])
    assert np.isnan(M.safe_divide(0.0, 0.0, "nan"))
    # a numerator that is only round-off left over where the denominator is exactly 0
    assert M.safe_divide(1e-17, 0.0, 0.0) == 0.0


def test_one_kappa_length_check_everywhere():
    """The measures, a label mapping's vector and an exact form (and the measures table) check
    a kappa vector's length through one function, with one message."""
    cm = np.array([[5, 1, 0], [1, 4, 1], [0, 2, 6]])
    message = r"kappa has 2 value\(s\) but there are 3 classes"
    calls = [
        lambda: M.preference_driven(cm, [0.5, 0.5]),
        lambda: kappa_vector([0.5, 0.5], ["a", "b", "c"]),
        lambda: pd_form(cm).value([0.5, 0.5]),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=message):
            call()
