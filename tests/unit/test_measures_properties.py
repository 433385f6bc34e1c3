"""Hypothesis property tests of the measures library.

Bounds, invariance under permuting classes (kappa permuted alongside), scale invariance
(uniform at every scale from 1e-300 to 1e301; by row or column where the measure has it),
micro averages == accuracy, batch == one matrix at a time, and the identities between
measures that the papers state.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from helpers import assert_close
from pdmeasure import measures as M

POLICIES = ["nan", 0.0, 1.0]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def confusion_matrices(draw, min_classes=2, max_classes=7, max_count=40):
    """One non-empty (C, C) matrix of integer counts, often with empty rows/columns."""
    c = draw(st.integers(min_classes, max_classes))
    cm = draw(arrays(np.int64, (c, c), elements=st.integers(0, max_count)))
    if draw(st.booleans()):
        cm[draw(st.integers(0, c - 1)), :] = 0
    if draw(st.booleans()):
        cm[:, draw(st.integers(0, c - 1))] = 0
    if cm.sum() == 0:
        cm[draw(st.integers(0, c - 1)), draw(st.integers(0, c - 1))] = draw(
            st.integers(1, max_count)
        )
    return cm


@st.composite
def matrix_and_kappa(draw):
    cm = draw(confusion_matrices())
    kappa = draw(arrays(np.float64, cm.shape[0], elements=st.floats(0.0, 1.0, allow_nan=False)))
    return cm, kappa


def _all(cm, zd, kappa=None):
    values = M.evaluate(cm, zero_division=zd)
    if kappa is not None:
        values["preference_driven_kappa"] = M.preference_driven(cm, kappa, zero_division=zd)
    return values


@FAST
@given(cm=confusion_matrices(max_classes=9), zd=st.sampled_from(POLICIES))
def test_bounds(cm, zd):
    c = cm.shape[0]
    for name, value in M.evaluate(cm, zero_division=zd).items():
        info = M.INFO[name]
        if math.isnan(value):
            assert zd == "nan", f"{name} is NaN under zero_division={zd}"
            continue
        assert info.lower - 1e-12 <= value <= info.upper + 1e-12, (name, value)
    acc = M.accuracy(cm)
    assert M.error_rate(cm) <= 2.0 / c + 1e-12
    assert M.average_accuracy(cm) >= 1.0 - 2.0 / c - 1e-12
    if c >= 3:
        assert M.cen(cm) <= 1.0 + 1e-12
    assert 0.0 <= acc <= 1.0


@FAST
@given(data=matrix_and_kappa(), zd=st.sampled_from(POLICIES), seed=st.integers(0, 2**32 - 1))
def test_class_permutation_invariance(data, zd, seed):
    cm, kappa = data
    perm = np.random.default_rng(seed).permutation(cm.shape[0])
    before = _all(cm, zd, kappa)
    after = _all(cm[np.ix_(perm, perm)], zd, kappa[perm])
    for name in before:
        assert_close(after[name], before[name], name)


def _assert_scale_invariant(cm, zd, factor, **tolerance):
    """Every measure of ``cm * factor`` equals that of ``cm`` (:func:`assert_close`)."""
    before = M.evaluate(cm, zero_division=zd)
    after = M.evaluate(cm * factor, zero_division=zd)
    for name in before:
        assert_close(after[name], before[name], f"{name} x {factor:g}", **tolerance)


@FAST
@given(
    cm=confusion_matrices(),
    zd=st.sampled_from(POLICIES),
    factor=st.sampled_from([2.0, 3.0, 0.5, 7.25, 1000.0]),
)
def test_uniform_scale_invariance(cm, zd, factor):
    _assert_scale_invariant(cm, zd, factor)


@FAST
@given(
    cm=confusion_matrices(),
    zd=st.sampled_from(POLICIES),
    exponent=st.integers(-300, 300),
    mantissa=st.floats(1.0, 9.99),
)
def test_scale_invariance_at_every_scale(cm, zd, exponent, mantissa):
    """measure(cm * s) == measure(cm) within rounding for s from 1e-300 to 1e301: no total
    or product of totals overflows or underflows, and NaN stays NaN."""
    _assert_scale_invariant(cm, zd, mantissa * 10.0**exponent, rtol=1e-9, atol=1e-11)


@FAST
@given(
    cm=confusion_matrices(),
    zd=st.sampled_from(POLICIES),
    factor=st.sampled_from([2.0, 5.0, 0.25]),
    which=st.integers(0, 6),
)
def test_row_and_column_scale_invariance(cm, zd, factor, which):
    """Scaling one actual class (row) leaves the recall family unchanged (Pacc paper,
    Section 5.3); scaling one predicted class (column) leaves macro precision unchanged."""
    i = which % cm.shape[0]
    rows = cm.astype(float)
    rows[i, :] *= factor
    cols = cm.astype(float)
    cols[:, i] *= factor
    base = M.evaluate(cm, zero_division=zd)
    by_row = M.evaluate(rows, zero_division=zd)
    by_col = M.evaluate(cols, zero_division=zd)
    for name, info in M.INFO.items():
        if info.row_scale_invariant:
            assert_close(by_row[name], base[name], f"{name} (row)")
        if info.column_scale_invariant:
            assert_close(by_col[name], base[name], f"{name} (column)")


def test_invariance_flags_are_not_vacuous():
    """Row scaling does change measures flagged as not row-invariant (e.g. accuracy)."""
    cm = np.array([[8, 2, 0], [3, 5, 2], [1, 1, 9]])
    scaled = cm.astype(float)
    scaled[0] *= 4
    changed = [
        name
        for name, info in M.INFO.items()
        if not info.row_scale_invariant
        and not np.isclose(M.REGISTRY[name](scaled), M.REGISTRY[name](cm))
    ]
    assert {"accuracy", "precision_macro", "mcc", "kappa", "pacc"} <= set(changed)
    assert M.INFO["recall_macro"].row_scale_invariant


@FAST
@given(cm=confusion_matrices(max_classes=12), zd=st.sampled_from(POLICIES))
def test_micro_averages_equal_accuracy(cm, zd):
    """Paper 000, Section 3.2: micro precision = micro recall = micro F-beta = accuracy, also
    at accuracy 0 and under every policy (n > 0, so none of them is 0/0)."""
    acc = M.accuracy(cm, zero_division=zd)
    assert not math.isnan(acc)
    for name, value in (
        ("precision_micro", M.precision_micro(cm, zero_division=zd)),
        ("recall_micro", M.recall_micro(cm, zero_division=zd)),
        ("f1_micro", M.f1_micro(cm, zero_division=zd)),
        ("fbeta_micro", M.fbeta_micro(cm, 3.0, zero_division=zd)),
        ("fbeta_micro beta=0", M.fbeta_micro(cm, 0.0, zero_division=zd)),
    ):
        assert_close(value, acc, name, rtol=1e-14, atol=1e-15)


@FAST
@given(
    stack=st.integers(2, 6).flatmap(
        lambda c: st.lists(confusion_matrices(min_classes=c, max_classes=c), min_size=1, max_size=6)
    ),
    zd=st.sampled_from(POLICIES),
)
def test_batch_equals_one_at_a_time(stack, zd):
    batch = np.stack(stack)
    c = batch.shape[-1]
    kappa = np.linspace(0.0, 1.0, c)
    grid = np.array([np.zeros(c), np.ones(c), kappa])
    for name, func in M.REGISTRY.items():
        together = func(batch, zero_division=zd)
        assert together.shape == (len(stack),)
        single = [func(cm, zero_division=zd) for cm in stack]
        assert_close(together, single, name, rtol=1e-14, atol=0)
        # a 2-D batch (B, 1, C, C) behaves the same
        assert_close(func(batch[:, None], zero_division=zd)[:, 0], single, name, rtol=1e-14, atol=0)
    pd_grid = M.preference_driven(batch[:, None], grid, zero_division=zd)
    assert pd_grid.shape == (len(stack), len(grid))
    for b, cm in enumerate(stack):
        for k, vector in enumerate(grid):
            assert_close(
                pd_grid[b, k], M.preference_driven(cm, vector, zero_division=zd), "pd", 1e-14, 0
            )


@FAST
@given(data=matrix_and_kappa(), zd=st.sampled_from(POLICIES))
def test_preference_driven_identities(data, zd):
    """kappa = 1 -> macro precision, 0 -> macro recall (paper 000, Table 3 footnotes); the
    default is eq. 31; pd is linear in kappa and lies between the per-class extremes."""
    cm, kappa = data
    c = cm.shape[0]
    assert_close(
        M.preference_driven(cm, np.ones(c), zero_division=zd),
        M.precision_macro(cm, zero_division=zd),
        "k=1",
    )
    assert_close(
        M.preference_driven(cm, np.zeros(c), zero_division=zd),
        M.recall_macro(cm, zero_division=zd),
        "k=0",
    )
    shares = cm.sum(axis=1) / cm.sum()
    assert_close(
        M.preference_driven(cm, zero_division=zd),
        M.preference_driven(cm, shares, zero_division=zd),
        "eq31",
    )
    precision, recall = M.class_precision_recall(cm, zero_division=zd)
    value = M.preference_driven(cm, kappa, zero_division=zd)
    if not (np.isnan(precision).any() or np.isnan(recall).any()):
        low = np.minimum(precision, recall).mean()
        high = np.maximum(precision, recall).mean()
        assert low - 1e-12 <= value <= high + 1e-12


@FAST
@given(cm=confusion_matrices(max_classes=9), zd=st.sampled_from(POLICIES))
def test_identities_between_measures(cm, zd):
    c = cm.shape[0]
    acc = M.accuracy(cm)
    assert_close(M.error_rate(cm), 2.0 * (1.0 - acc) / c, "error_rate = 2(1-acc)/C")
    assert_close(M.error_rate(cm) + M.average_accuracy(cm), 1.0, "error_rate + average_accuracy")
    assert_close(
        M.balanced_accuracy(cm, zero_division=zd), M.recall_macro(cm, zero_division=zd), "eq. 26"
    )
    assert_close(
        M.fbeta_macro(cm, 1.0, zero_division=zd), M.f1_macro(cm, zero_division=zd), "F1 = F_beta(1)"
    )
    g = M.g_mean(cm, zero_division=zd)
    if not math.isnan(g):
        assert g <= M.recall_macro(cm, zero_division=zd) + 1e-12  # AM-GM


@FAST
@given(cm=confusion_matrices(min_classes=2, max_classes=2, max_count=60))
def test_binary_mcc_is_the_classic_formula(cm):
    """For two classes eq. 25 reduces to the binary MCC of paper 000, eq. 10."""
    tp_, fn_, fp_, tn_ = float(cm[0, 0]), float(cm[0, 1]), float(cm[1, 0]), float(cm[1, 1])
    den = math.sqrt((tp_ + fp_) * (tp_ + fn_) * (tn_ + fp_) * (tn_ + fn_))
    expected = (tp_ * tn_ - fp_ * fn_) / den if den else 0.0
    assert_close(M.mcc(cm, zero_division=0.0), expected, "binary mcc")
    balanced = 0.5 * (M.class_precision_recall(cm, zero_division=0.0)[1].sum())
    assert_close(M.balanced_accuracy(cm, zero_division=0.0), balanced, "eq. 11-12")


@pytest.mark.parametrize("c", [2, 3, 7])
def test_perfect_and_worst_classifications(c):
    perfect = np.diag(np.arange(1, c + 1) * 3)
    for name, value in M.evaluate(perfect).items():
        info = M.INFO[name]
        expected = 0.0 if not info.higher_is_better else 1.0
        assert_close(value, expected, name)
    # every sample of class i predicted as class i+1 (a cycle): nothing is right
    cycle = np.roll(np.diag(np.full(c, 5)), 1, axis=1)
    values = M.evaluate(cycle)
    for name in (
        "accuracy",
        "precision_macro",
        "recall_macro",
        "pacc",
        "g_mean",
        "preference_driven",
    ):
        assert_close(values[name], 0.0, name)
    assert values["mcc"] < 0 and values["kappa"] < 0


# --------------------------------------------------------------------------------------
# kappa_grid (paper 000, Section 5.1)
# --------------------------------------------------------------------------------------
@FAST
@given(
    values=st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=1, max_size=4),
    n_classes=st.integers(1, 5),
    chunk_size=st.integers(1, 50),
)
def test_kappa_grid_is_itertools_product_in_chunks(values, n_classes, chunk_size):
    import itertools

    grid = M.kappa_grid(values, n_classes, chunk_size=chunk_size)
    chunks = list(grid)
    assert len(grid) == len(values) ** n_classes == grid.n_vectors
    assert len(chunks) == grid.n_chunks
    assert all(chunk.shape[1] == n_classes and 0 < len(chunk) <= chunk_size for chunk in chunks)
    expected = np.array(list(itertools.product(values, repeat=n_classes)), dtype=float)
    np.testing.assert_array_equal(np.concatenate(chunks), expected)
    # re-iterable, and any window [start, stop) is the same slice
    np.testing.assert_array_equal(np.concatenate(list(grid)), expected)
    start, stop = len(expected) // 3, 2 * len(expected) // 3 + 1
    window = list(grid.chunks(start, stop))
    got = np.concatenate(window) if window else np.empty((0, n_classes))
    np.testing.assert_array_equal(got, expected[start:stop])


def test_huge_grids_are_lazy():
    """11**18 vectors: len() and the first and last chunks, nothing materialised."""
    values = [round(0.1 * i, 1) for i in range(11)]
    grid = M.kappa_grid(values, 18, chunk_size=1000)
    assert len(grid) == 11**18
    first = next(iter(grid))
    assert first.shape == (1000, 18)
    np.testing.assert_array_equal(first[0], np.zeros(18))
    np.testing.assert_array_equal(first[-1][-3:], [0.8, 0.2, 0.9])  # 999 = 8*121 + 2*11 + 9
    last = list(grid.chunks(11**18 - 5))
    assert len(last) == 1 and last[0].shape == (5, 18)
    np.testing.assert_array_equal(last[0][-1], np.ones(18))
    # beyond int64 (len() cannot report it, n_vectors can)
    giant = M.kappa_grid(values, 40, chunk_size=10)
    assert giant.n_vectors == 11**40
    np.testing.assert_array_equal(next(iter(giant))[-1][-1], 0.9)


def test_krkopt_grid_memory_is_bounded_by_the_chunk():
    """Iterating the 2**18 x 18 krkopt grid allocates about one chunk at a time."""
    import tracemalloc

    chunk_size = 4096
    grid = M.kappa_grid([0.33, 0.66], 18, chunk_size=chunk_size)
    cms = np.random.default_rng(3).integers(0, 50, (5, 18, 18))
    tracemalloc.start()
    try:
        total = 0
        for chunk in grid:
            total += M.preference_driven(cms[:, None], chunk, zero_division=0.0).size
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert total == 5 * 2**18
    full_grid_bytes = 2**18 * 18 * 8
    assert peak < full_grid_bytes / 8, f"peak {peak} bytes for a {full_grid_bytes}-byte grid"


def test_preference_driven_over_a_grid_matches_the_loop():
    cms = np.random.default_rng(4).integers(0, 30, (3, 4, 4))
    grid = np.concatenate(list(M.kappa_grid([0, 0.5, 1], 4)))
    together = M.preference_driven(cms[:, None], grid, zero_division=0.0)
    assert together.shape == (3, 81)
    for b in range(3):
        for k in range(81):
            assert together[b, k] == pytest.approx(
                M.preference_driven(cms[b], grid[k], zero_division=0.0), rel=1e-14
            )
