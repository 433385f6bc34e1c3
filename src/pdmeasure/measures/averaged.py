"""Accuracy and the averaged rates: macro and micro precision, recall, F1, specificity,
balanced accuracy, G-mean and IBA (paper 000, eqs. 13-26; Sokolova & Lapalme 2009).

Each function here is a kernel turned into a registry measure by
:func:`pdmeasure.measures._core.measure`; the per-class rates come from the shared
:class:`~pdmeasure.measures._core.Stack`, so ``evaluate`` computes each of them once.
"""

from __future__ import annotations

import numpy as np

from pdmeasure._validation import safe_divide
from pdmeasure.measures._core import Stack, fbeta, mean, measure

#: Weight of the dominance term of the index of balanced accuracy (Garcia et al. 2009).
IBA_ALPHA = 0.1


@measure(source="paper 000, eq. 16")
def accuracy(s: Stack) -> np.ndarray:
    r"""Accuracy: the share of correctly classified samples (paper 000, eq. 16).

    .. math:: \mathrm{accuracy} = \frac{\sum_i TP_i}{s}

    with ``s`` the number of samples. Equal to micro precision, micro recall and micro F1
    (eqs. 14, 15, 19, 20, 24) and to ACC of paper 001.
    """
    return s.accuracy.copy()  # a copy: evaluate() must not hand out one array twice


@measure(
    higher_is_better=False,
    source="Sokolova & Lapalme 2009, Table 3; oneDAL",
    range_text="[0, 2/C] (within [0, 1])",
)
def error_rate(s: Stack) -> np.ndarray:
    r"""Error rate: mean over classes of the one-vs-rest error (Sokolova & Lapalme 2009).

    .. math:: \mathrm{error\_rate} = \frac{1}{C} \sum_i \frac{FP_i + FN_i}{TP_i + FN_i + FP_i + TN_i}

    This is the multi-class "error rate" of Sokolova & Lapalme (2009, Table 3) and of the
    oneDAL quality metrics (``multiclass-quality-metrics.txt``). Since
    ``sum_i (FP_i + FN_i) = 2 (s - sum_i TP_i)`` it equals ``2 (1 - accuracy) / C`` and
    ``1 - average_accuracy``; it is **not** ``1 - accuracy`` for C > 2.
    """
    return mean(safe_divide(s.fp + s.fn, s.n[..., None], s.zd))


@measure(
    source="Sokolova & Lapalme 2009, Table 3; oneDAL",
    range_text="[1 - 2/C, 1] (within [0, 1])",
)
def average_accuracy(s: Stack) -> np.ndarray:
    r"""Average accuracy: mean over classes of the one-vs-rest accuracy (Sokolova & Lapalme 2009).

    .. math:: \mathrm{average\_accuracy} = \frac{1}{C} \sum_i \frac{TP_i + TN_i}{TP_i + FN_i + FP_i + TN_i}

    The "average accuracy" of Sokolova & Lapalme (2009, Table 3) and oneDAL
    (``multiclass-quality-metrics.txt``); equals ``1 - error_rate``.
    """
    return mean(safe_divide(s.tp + s.tn, s.n[..., None], s.zd))


@measure(source="paper 000, eq. 17", column_scale_invariant=True)
def precision_macro(s: Stack) -> np.ndarray:
    r"""Macro precision: mean of per-class precisions (paper 000, eq. 17).

    .. math:: \mathrm{macro\_precision} = \frac{1}{C} \sum_i \frac{TP_i}{TP_i + FP_i}

    A class that is never predicted has ``0/0`` precision (resolved by ``zero_division``).
    Equals ``preference_driven`` with every ``kappa_i = 1``.
    """
    return s.precision_macro.copy()  # a copy: evaluate() must not hand out one array twice


@measure(source="paper 000, eq. 18", row_scale_invariant=True)
def recall_macro(s: Stack) -> np.ndarray:
    r"""Macro recall: mean of per-class recalls (paper 000, eq. 18).

    .. math:: \mathrm{macro\_recall} = \frac{1}{C} \sum_i \frac{TP_i}{TP_i + FN_i}

    A class with no samples has ``0/0`` recall (resolved by ``zero_division``). Equals
    ``balanced_accuracy`` (eq. 26) and ``preference_driven`` with every ``kappa_i = 0``.
    """
    return s.recall_macro.copy()  # a copy: evaluate() must not hand out one array twice


@measure(source="paper 000, eq. 23")
def f1_macro(s: Stack) -> np.ndarray:
    r"""Macro F1: harmonic mean of macro precision and macro recall (paper 000, eq. 23).

    .. math:: \mathrm{macro\_F1} = 2 \frac{P_M R_M}{P_M + R_M}

    with :math:`P_M`, :math:`R_M` from eqs. 17 and 18; ``fbeta_macro`` with beta = 1
    (eq. 21). This is the "F1" of paper 000's Tables 3 and 6-9. For the mean of per-class
    F1 scores see ``f1_macro_mean``.
    """
    return fbeta(s.precision_macro, s.recall_macro, 1.0, s.zd)


@measure(source="paper 001, eqs. 10-12 (FMEAS)")
def f1_macro_mean(s: Stack) -> np.ndarray:
    r"""Mean of per-class F1 scores: FMEAS of paper 001 (eqs. 10-12).

    .. math:: F_i = \frac{2 P_i R_i}{P_i + R_i}, \qquad
              \mathrm{FMEAS} = \frac{1}{C} \sum_i F_i

    with per-class precision and recall ``P_i``, ``R_i`` (paper 001, eq. 10). ``F_i`` is
    ``0/0`` when ``P_i = R_i = 0`` (no correct prediction of class i): NaN under
    ``zero_division="nan"``, which gives the NaN cells of paper 001's Tables 2, 4 and 6, and
    0 (the limit) under the numeric policies. A ``P_i`` or ``R_i`` that is itself ``0/0``
    follows the policy. Also oneDAL's and scikit-learn's macro F1.
    """
    return mean(fbeta(s.precision, s.recall, 1.0, s.zd))


@measure(source="paper 000, eq. 19")
def precision_micro(s: Stack) -> np.ndarray:
    r"""Micro precision: pooled TP over pooled TP + FP (paper 000, eq. 19).

    .. math:: \mathrm{micro\_precision} = \frac{\sum_i TP_i}{\sum_i (TP_i + FP_i)}
              = \frac{\sum_i TP_i}{s}

    The pooled predictions ``sum_i (TP_i + FP_i)`` are all ``s`` samples, so micro precision
    is accuracy (eq. 16) and is never ``0/0``.
    """
    return s.accuracy.copy()  # a copy: evaluate() must not hand out one array twice


@measure(source="paper 000, eq. 20")
def recall_micro(s: Stack) -> np.ndarray:
    r"""Micro recall: pooled TP over pooled TP + FN (paper 000, eq. 20).

    .. math:: \mathrm{micro\_recall} = \frac{\sum_i TP_i}{\sum_i (TP_i + FN_i)}
              = \frac{\sum_i TP_i}{s}

    The pooled actual classes ``sum_i (TP_i + FN_i)`` are all ``s`` samples, so micro
    recall is accuracy (eq. 16) and is never ``0/0``.
    """
    return s.accuracy.copy()  # a copy: evaluate() must not hand out one array twice


@measure(source="paper 000, eq. 24")
def f1_micro(s: Stack) -> np.ndarray:
    r"""Micro F1: harmonic mean of micro precision and micro recall (paper 000, eq. 24).

    .. math:: \mathrm{micro\_F1} = 2 \frac{P_\mu R_\mu}{P_\mu + R_\mu} = \mathrm{accuracy}

    Micro precision and micro recall both equal accuracy ``a`` (eqs. 19, 20), so micro F1 is
    ``2 a^2 / (2 a) = a`` (paper 000, Section 3.2). With no correct prediction the ratio
    reads ``0/0``, but both rates are defined (their denominator is ``s > 0``) and the F
    score is ``a`` everywhere else, so it is 0 there under every ``zero_division``, as in
    scikit-learn's micro F1.
    """
    return s.accuracy.copy()


@measure(source="paper 000, eq. 13, macro-averaged")
def specificity_macro(s: Stack) -> np.ndarray:
    r"""Macro specificity: mean of per-class one-vs-rest specificities (paper 000, eq. 13 averaged).

    .. math:: \mathrm{macro\_specificity} = \frac{1}{C} \sum_i \frac{TN_i}{TN_i + FP_i}

    The binary specificity of paper 000 eq. 13 applied to each class against the rest and
    averaged like eqs. 17-18. ``0/0`` only when every sample belongs to class i.
    """
    return mean(s.specificity)


@measure(source="paper 000, eq. 26", row_scale_invariant=True)
def balanced_accuracy(s: Stack) -> np.ndarray:
    r"""Balanced accuracy: mean of per-class recalls (paper 000, eq. 26).

    .. math:: \mathrm{BalancedAccuracy} = \frac{1}{C} \sum_i \frac{TP_i}{TP_i + FN_i}

    Identical to macro recall (eq. 18) for multi-class data, as paper 000 notes; for two
    classes it equals (recall + specificity) / 2 (eqs. 11-12).
    """
    return s.recall_macro.copy()  # a copy: evaluate() must not hand out one array twice


@measure(source="Espindola & Ebecken 2005 (paper 001, ref. 2)", row_scale_invariant=True)
def g_mean(s: Stack) -> np.ndarray:
    r"""Geometric mean of per-class recalls (multi-class G-mean, Espindola & Ebecken 2005).

    .. math:: G = \Big(\prod_{i=1}^{C} \frac{TP_i}{TP_i + FN_i}\Big)^{1/C}

    The multi-class extension cited by paper 001 (its reference [2]) and used by
    imbalanced-learn's ``geometric_mean_score``; 0 as soon as one class is never
    recognised.
    """
    # The root is taken on an array even for one matrix: numpy's vectorised power and its
    # scalar power can differ in the last bit, and a matrix must get the same value alone
    # and inside a stack.
    product = np.prod(s.recall, axis=-1)
    return np.power(np.atleast_1d(product), 1.0 / s.n_classes).reshape(np.shape(product))


@measure(source="Garcia, Mollineda & Sanchez 2009")
def iba(s: Stack) -> np.ndarray:
    r"""Index of balanced accuracy of each class against the rest, averaged (Garcia et al. 2009).

    .. math:: \mathrm{IBA}_\alpha = \frac{1}{C} \sum_i \big(1 + \alpha (R_i - S_i)\big) R_i S_i,
              \qquad \alpha = 0.1

    with per-class recall ``R_i = TP_i / (TP_i + FN_i)`` and specificity
    ``S_i = TN_i / (TN_i + FP_i)``. Garcia et al. define IBA for two classes with one of them
    positive: ``IBA_alpha = (1 + alpha (TPR - TNR)) TPR TNR`` (as printed by Stapor,
    *Evaluation of classifiers*, Section II). Term i is that formula with class i as the
    positive class and all other classes pooled as the negative one (PyCM's per-class
    ``IBA``), and the measure is the unweighted mean of the C terms. It is therefore not the
    binary IBA of a chosen positive class: for C = 2, ``R_1 = S_0`` and ``S_1 = R_0``, so the
    two dominance terms cancel and the measure is ``R_0 R_1 = TPR * TNR`` (the squared
    G-mean) for every alpha. ``alpha = 0.1`` (``IBA_ALPHA``) is the value Garcia et al.
    recommend and imbalanced-learn's default.
    """
    r, sp = s.recall, s.specificity
    return mean((1.0 + IBA_ALPHA * (r - sp)) * r * sp)
