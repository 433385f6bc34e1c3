"""In-process baselines for the measures benchmark: one matrix (and one kappa vector) at a time.

* ``authors_*``: per-matrix pure-Python loops written in the style of the authors' public
  script (github.com/jankozak/preference-driven, ``preference_driven.py``): for each class a
  helper sums the class's column and row of a list-of-lists matrix to get TP, FP, FN, and
  0/0 is taken as 0. The authors' script only computes pd; the classical measures of their
  Tables 6-9 (accuracy, macro precision and recall, F1 of eq. 23, MCC of eq. 25) are written
  here in the same style. This is our own re-implementation, not a copy of their file.
* ``pycm_*``: PyCM 4.x, one ``ConfusionMatrix`` object per matrix (PyCM computes all of its
  statistics when the object is built); pd, which PyCM lacks, is assembled from PyCM's
  per-class PPV and TPR.
"""

from __future__ import annotations

import math

from pycm import ConfusionMatrix


def _class_counts(matrix, i):
    tp = matrix[i][i]
    fp = sum(row[i] for row in matrix) - tp
    fn = sum(matrix[i]) - tp
    return tp, fp, fn


def authors_preference_driven(matrix, kappa=None):
    """pd (paper 000 eq. 30) of one list-of-lists matrix, the authors' way (0/0 = 0)."""
    if kappa is None:  # eq. 31: actual-class shares
        sizes = [sum(row) for row in matrix]
        kappa = [s / sum(sizes) for s in sizes]
    total = 0
    for i in range(len(matrix)):
        tp, fp, fn = _class_counts(matrix, i)
        precision = tp / (tp + fp) if tp + fp > 0 else 0
        recall = tp / (tp + fn) if tp + fn > 0 else 0
        total += kappa[i] * precision + (1 - kappa[i]) * recall
    return total / len(matrix)


def authors_table_measures(matrix):
    """The measures of paper 000 Tables 6-9 for one matrix, in the same per-class loop style."""
    n = len(matrix)
    s = sum(sum(row) for row in matrix)
    precisions, recalls = [], []
    for i in range(n):
        tp, fp, fn = _class_counts(matrix, i)
        precisions.append(tp / (tp + fp) if tp + fp > 0 else 0)
        recalls.append(tp / (tp + fn) if tp + fn > 0 else 0)
    precision = sum(precisions) / n
    recall = sum(recalls) / n
    correct = sum(matrix[i][i] for i in range(n))
    rows = [sum(matrix[i]) for i in range(n)]
    cols = [sum(row[i] for row in matrix) for i in range(n)]
    mcc_den = math.sqrt(s * s - sum(c * c for c in cols)) * math.sqrt(
        s * s - sum(r * r for r in rows)
    )
    return {
        "accuracy": correct / s,
        "precision_macro": precision,
        "recall_macro": recall,
        "f1_macro": 2 * precision * recall / (precision + recall) if precision + recall else 0,
        "mcc": (s * correct - sum(r * c for r, c in zip(rows, cols))) / mcc_den if mcc_den else 0,
        "preference_driven": authors_preference_driven(matrix),
    }


def _pycm(matrix) -> ConfusionMatrix:
    n = len(matrix)
    return ConfusionMatrix(matrix={i: {j: int(matrix[i][j]) for j in range(n)} for i in range(n)})


def _number(x):
    return x if isinstance(x, (int, float)) else 0.0  # PyCM reports undefined as "None"


def _pd_from_pycm(cm: ConfusionMatrix, kappa):
    classes = cm.classes
    return sum(
        k * _number(cm.PPV[c]) + (1 - k) * _number(cm.TPR[c]) for k, c in zip(kappa, classes)
    ) / len(classes)


def pycm_measures(matrix):
    """Every measure PyCM offers among ours, for one matrix (one ConfusionMatrix)."""
    cm = _pycm(matrix)
    sizes = [sum(row) for row in matrix]
    return {
        "accuracy": cm.Overall_ACC,
        "average_accuracy": cm.ACC_Macro,
        "precision_macro": cm.PPV_Macro,
        "recall_macro": cm.TPR_Macro,
        "f1_macro_mean": cm.F1_Macro,
        "precision_micro": cm.PPV_Micro,
        "recall_micro": cm.TPR_Micro,
        "f1_micro": cm.F1_Micro,
        "specificity_macro": cm.TNR_Macro,
        "mcc": cm.Overall_MCC,
        "kappa": cm.Kappa,
        "cen": cm.Overall_CEN,
        "preference_driven": _pd_from_pycm(cm, [s / sum(sizes) for s in sizes]),
    }


def pycm_preference_driven_grid(matrix, kappas):
    """pd of one matrix for each kappa vector: one ConfusionMatrix, a loop over the vectors."""
    cm = _pycm(matrix)
    return [_pd_from_pycm(cm, kappa) for kappa in kappas]
