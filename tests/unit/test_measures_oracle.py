"""The vectorised measures against the literal loop-based oracle (tests/oracle.py).

Thousands of random matrices with 2-20 classes, many with empty rows and/or columns (and some
with non-integer counts), every registry measure, every zero-division policy.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import oracle
from helpers import assert_close
from pdmeasure import measures as M

N_MATRICES = 2400
POLICIES = {"nan": math.nan, "zero": 0.0, "one": 1.0}
ARG = {"nan": "nan", "zero": 0.0, "one": 1.0}


def random_matrices(n: int, seed: int) -> list[np.ndarray]:
    """Random confusion matrices: 2-20 classes, sparse and dense, zero rows and columns."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        c = int(rng.integers(2, 21))
        kind = rng.integers(0, 4)
        if kind == 0:  # sparse small counts
            cm = rng.poisson(0.7, (c, c)).astype(float)
        elif kind == 1:  # diagonal-heavy, like a decent classifier
            cm = rng.poisson(2.0, (c, c)) + np.diag(rng.integers(0, 60, c))
        elif kind == 2:  # large counts
            cm = rng.integers(0, 1000, (c, c)).astype(float)
        else:  # non-integer (e.g. averaged) counts
            cm = rng.random((c, c)) * rng.choice([0.5, 3.0, 40.0])
        cm = np.asarray(cm, dtype=float)
        if rng.random() < 0.5:  # empty actual classes
            cm[rng.random(c) < 0.3, :] = 0
        if rng.random() < 0.5:  # never-predicted classes
            cm[:, rng.random(c) < 0.3] = 0
        if rng.random() < 0.1:  # everything predicted as one class
            j = int(rng.integers(0, c))
            cm[:, j] = cm.sum(axis=1)
            cm[:, np.arange(c) != j] = 0
        if cm.sum() > 0:
            out.append(cm)
    return out


@pytest.fixture(scope="module")
def matrices() -> dict[int, np.ndarray]:
    """The random matrices grouped by class count, as (M, C, C) stacks."""
    groups: dict[int, list[np.ndarray]] = {}
    for cm in random_matrices(N_MATRICES, seed=20240611):
        groups.setdefault(cm.shape[0], []).append(cm)
    return {c: np.stack(ms) for c, ms in sorted(groups.items())}


def test_generator_covers_the_hard_cases(matrices):
    stacks = list(matrices.values())
    assert sorted(matrices) == list(range(2, 21))
    assert sum(len(s) for s in stacks) == N_MATRICES
    zero_rows = sum(int((s.sum(-1) == 0).any(-1).sum()) for s in stacks)
    zero_cols = sum(int((s.sum(-2) == 0).any(-1).sum()) for s in stacks)
    assert zero_rows > N_MATRICES // 5 and zero_cols > N_MATRICES // 5


def _compare(name, vectorised, expected, policy):
    expected = np.asarray(expected, dtype=float)
    np.testing.assert_array_equal(
        np.isnan(vectorised), np.isnan(expected), err_msg=f"{name} ({policy}): NaN pattern"
    )
    assert_close(vectorised, expected, f"{name} ({policy})", rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("name", list(M.REGISTRY))
def test_registry_measure_matches_oracle(name, policy, matrices):
    zd = POLICIES[policy]
    for c, stack in matrices.items():
        got = M.REGISTRY[name](stack, zero_division=ARG[policy])
        assert got.shape == (len(stack),)
        expected = [oracle.ORACLE[name](cm.tolist(), zd) for cm in stack]
        _compare(f"{name} C={c}", got, expected, policy)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_preference_driven_with_explicit_kappa_matches_oracle(policy, matrices):
    rng = np.random.default_rng(7)
    zd = POLICIES[policy]
    for c, stack in matrices.items():
        kappas = rng.random((len(stack), c))
        kappas[rng.random(kappas.shape) < 0.2] = 0.0
        kappas[rng.random(kappas.shape) < 0.2] = 1.0
        got = M.preference_driven(stack, kappas, zero_division=ARG[policy])
        expected = [
            oracle.preference_driven(cm.tolist(), zd, k.tolist()) for cm, k in zip(stack, kappas)
        ]
        _compare(f"preference_driven C={c}", got, expected, policy)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_fbeta_matches_oracle(policy, matrices):
    zd = POLICIES[policy]
    for beta in (0.0, 0.5, 2.0):
        for c, stack in matrices.items():
            got_macro = M.fbeta_macro(stack, beta, zero_division=ARG[policy])
            got_micro = M.fbeta_micro(stack, beta, zero_division=ARG[policy])
            _compare(
                f"fbeta_macro beta={beta} C={c}",
                got_macro,
                [oracle.fbeta_macro(cm.tolist(), beta, zd) for cm in stack],
                policy,
            )
            _compare(
                f"fbeta_micro beta={beta} C={c}",
                got_micro,
                [oracle.fbeta_micro(cm.tolist(), beta, zd) for cm in stack],
                policy,
            )


@pytest.mark.parametrize("policy", list(POLICIES))
def test_class_precision_recall_matches_oracle(policy, matrices):
    zd = POLICIES[policy]
    for stack in matrices.values():
        precision, recall = M.class_precision_recall(stack, zero_division=ARG[policy])
        c = stack.shape[-1]
        expected_p = [[oracle.precision_i(m, i, zd) for i in range(c)] for m in stack.tolist()]
        expected_r = [[oracle.recall_i(m, i, zd) for i in range(c)] for m in stack.tolist()]
        _compare("precision", precision, expected_p, policy)
        _compare("recall", recall, expected_r, policy)


def test_per_class_counts_match_oracle(matrices):
    for stack in matrices.values():
        counts = M.per_class_counts(stack)
        c = stack.shape[-1]
        for field in ("tp", "fp", "fn", "tn"):
            expected = [[getattr(oracle, field)(m, i) for i in range(c)] for m in stack.tolist()]
            got = getattr(counts, field)
            assert (got >= 0).all(), field
            scale = counts.n[..., None] * 1e-13  # round-off allowance for float counts
            assert (np.abs(got - np.asarray(expected)) <= scale).all(), field
        np.testing.assert_allclose(counts.support, stack.sum(-1))
        np.testing.assert_allclose(counts.predicted, stack.sum(-2))
        np.testing.assert_allclose(counts.n, [oracle.total(m) for m in stack.tolist()])


def test_evaluate_equals_registry_calls(matrices):
    stack = matrices[5]
    together = M.evaluate(stack, zero_division=0.0)
    assert list(together) == list(M.REGISTRY)
    for name, values in together.items():
        np.testing.assert_array_equal(values, M.REGISTRY[name](stack, zero_division=0.0))
    # measures that share a cached quantity (recall_macro, balanced_accuracy) are still
    # separate arrays
    assert len({id(values) for values in together.values()}) == len(together)


# --------------------------------------------------------------------------------------
# Independent implementations: PyCM 4 and scikit-learn agree where they define the measure
# --------------------------------------------------------------------------------------
def _dense_matrices(n: int, seed: int) -> list[np.ndarray]:
    """Matrices without empty rows or columns (PyCM reports 'None' for undefined rates)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        c = int(rng.integers(2, 9))
        cm = rng.poisson(3.0, (c, c)) + np.diag(rng.integers(0, 30, c))
        if (cm.sum(0) > 0).all() and (cm.sum(1) > 0).all():
            out.append(cm)
    return out


def test_agrees_with_pycm():
    import warnings

    from pycm import ConfusionMatrix

    for cm in _dense_matrices(40, seed=11):
        labels = [str(i) for i in range(len(cm))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = ConfusionMatrix(
                matrix={
                    a: {p: int(cm[i, j]) for j, p in enumerate(labels)}
                    for i, a in enumerate(labels)
                }
            )
            iba = np.mean([ref.IBA_alpha(M.IBA_ALPHA)[k] for k in ref.classes])
        expected = {
            "accuracy": ref.Overall_ACC,
            "average_accuracy": ref.ACC_Macro,
            "precision_macro": ref.PPV_Macro,
            "recall_macro": ref.TPR_Macro,
            "specificity_macro": ref.TNR_Macro,
            "f1_macro_mean": ref.F1_Macro,
            "mcc": ref.Overall_MCC,
            "kappa": ref.Kappa,
            "cen": ref.Overall_CEN,
            "iba": iba,
        }
        for name, value in expected.items():
            got = M.REGISTRY[name](cm, zero_division=0.0)  # F of P = R = 0 is 0 there too
            assert got == pytest.approx(float(value), rel=1e-9, abs=1e-12), name


def test_agrees_with_scikit_learn():
    from sklearn import metrics

    for cm in _dense_matrices(40, seed=12):
        c = len(cm)
        actual, predicted = np.divmod(np.arange(c * c), c)
        weight = cm.ravel().astype(float)
        kw = dict(sample_weight=weight)
        expected = {
            "accuracy": metrics.accuracy_score(actual, predicted, **kw),
            "balanced_accuracy": metrics.balanced_accuracy_score(actual, predicted, **kw),
            "f1_macro_mean": metrics.f1_score(actual, predicted, average="macro", **kw),
            "f1_micro": metrics.f1_score(actual, predicted, average="micro", **kw),
            "precision_macro": metrics.precision_score(actual, predicted, average="macro", **kw),
            "recall_macro": metrics.recall_score(actual, predicted, average="macro", **kw),
            "mcc": metrics.matthews_corrcoef(actual, predicted, **kw),
            "kappa": metrics.cohen_kappa_score(actual, predicted, sample_weight=weight),
        }
        for name, value in expected.items():
            got = M.REGISTRY[name](cm, zero_division=0.0)
            assert got == pytest.approx(value, rel=1e-9, abs=1e-12), name
