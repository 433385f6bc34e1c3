r"""Every confusion-matrix measure of the papers, batched over ``(..., C, C)``.

Conventions
-----------
* A confusion matrix has rows = actual class and columns = predicted class; counts may be
  integers or floats. Every measure takes an array-like of shape ``(..., C, C)`` and returns
  an array of shape ``(...)`` (a NumPy scalar for one matrix), broadcasting over the leading
  axes without a Python loop over matrices.
* "Paper 000" is Kozak et al., *Preference-driven classification measure* (2022); "paper
  001" is Sigdel & Aygun, *Pacc - a discriminative and accuracy correlated measure for
  assessment of classification results*. Each docstring cites the equation it implements.
* Per class i (paper 000, Section 3.2): ``TP_i = C_ii``, ``FN_i = row_i - TP_i``,
  ``FP_i = col_i - TP_i``, ``TN_i = n - TP_i - FP_i - FN_i`` where ``row_i`` (the support)
  and ``col_i`` are the actual and predicted totals and ``n`` the number of samples. They
  are computed once per call by :func:`per_class_counts`.
* Every measure is unchanged when all counts of a matrix are multiplied by one positive
  factor. A stack holding a matrix whose total lies outside ``[2**-64, 2**64]`` is first
  rescaled, each matrix by a power of two (exact), so that totals and products of totals
  neither overflow nor underflow: any finite matrix, from counts of 1e-300 to the float64
  maximum, gives finite values.

Zero-division policy
--------------------
Every ratio goes through one helper, :func:`safe_divide`, and every measure takes
``zero_division`` in ``{"nan", 0.0, 1.0}`` (default ``"nan"``), the value a ``0/0`` takes:

* ``"nan"``: an undefined quantity stays undefined and propagates (a class that is never
  predicted has NaN precision, so macro precision is NaN). This is the Pacc paper's
  convention for R_k and FMEAS (its Tables 2, 4 and 6 print NaN).
* ``0.0``: paper 000 and the authors' script take ``0/0 = 0`` (cm9 = [[10, 0], [10, 0]]
  has macro precision 0.25 only this way). The reproduction pipeline uses it (config key
  ``zero_division``).
* ``1.0``: the optimistic choice of some libraries.

The policy applies where the literature leaves a rate undefined: per-class precision,
recall and specificity, MCC, Cohen's kappa, the per-class correctness ``P_ii`` of Pacc, and
everything built from them (macro averages, F scores, G-mean, IBA, the preference-driven
measure). Accuracy and the micro averages divide by the number of samples and are never
``0/0``; micro precision, recall and F-beta all equal accuracy. A denominator is zero only
together with its numerator, so only ``0/0`` ever occurs; measures never raise on a row or
a column of zeros. Some ``0/0`` are limits, or have a single sensible value, and take it
under the numeric policies:

* a macro F score (or a per-class F of FMEAS) with precision = recall = 0 is NaN under
  ``"nan"`` (paper 001's FMEAS is NaN there) and 0 under ``0.0`` **and** ``1.0``
  (``F <= 2 min(P, R)``; scikit-learn agrees); a micro F score is accuracy, so it is 0
  there under every policy;
* MCC of a constant actual or predicted labelling is NaN under ``"nan"`` (paper 001's NaN)
  and 0 under ``0.0`` **and** ``1.0`` (no correlation; scikit-learn's
  ``matthews_corrcoef`` returns 0.0 there);
* the ``p log p`` terms of CEN with ``p = 0`` are 0 under every policy (Wei et al.:
  ``0 log 0 = 0``; such a term is also weighted by zero), so CEN is never NaN;
* the Pacc misclassification probability ``P_ij`` (i != j) of a pair whose count ``C_ij``
  is zero is 0 under every policy.

With non-integer counts, quantities that should be exactly zero (FP, FN, TN, the variance
terms of MCC and kappa) are computed as sums of non-negative cells, so they are exactly zero
and the policy still applies. A matrix with no samples at all is rejected with a
``ValueError``.

Registry
--------
``REGISTRY`` maps each measure name to its function; ``INFO`` holds the machine-readable
range, direction and source of each (used by the docs generator and the property tests).
"""

from __future__ import annotations

# Layout (everything public is re-exported here; import from pdmeasure.measures):
#   _core       Stack (validated matrices + per-class counts and rates, computed once and
#               cached), per_class_counts, reductions, F-beta helper, the @measure decorator
#               that turns a kernel into a registry function and completes its docstring
#   averaged    accuracy, error/average accuracy, macro/micro precision, recall, F1,
#               specificity, balanced accuracy, G-mean, IBA
#   chance      mcc (Gorodkin R_K), Cohen's kappa
#   entropy     cen, pacc
#   preference  preference_driven, class_precision_recall, fbeta_macro, fbeta_micro
#   registry    REGISTRY, INFO, evaluate
#   weights     kappa vectors: lazy product grids (kappa_grid), the names written in tables
#               (PD, DEFAULT_KAPPA), format_kappa / parse_kappa
#   labels      label vectors -> a count matrix in a given class order; a kappa vector given
#               as {label: weight}
#   accumulator ConfusionAccumulator: (K, C, C) counts of label batches, learned labels in
#               sorted_labels order, mergeable
# Zero division and input checks live in pdmeasure._validation.
from pdmeasure._validation import check_zero_division, safe_divide
from pdmeasure.measures._core import MeasureInfo, PerClassCounts, per_class_counts
from pdmeasure.measures.accumulator import (
    AccumulatedMatrices,
    ConfusionAccumulator,
    sorted_labels,
)
from pdmeasure.measures.averaged import (
    IBA_ALPHA,
    accuracy,
    average_accuracy,
    balanced_accuracy,
    error_rate,
    f1_macro,
    f1_macro_mean,
    f1_micro,
    g_mean,
    iba,
    precision_macro,
    precision_micro,
    recall_macro,
    recall_micro,
    specificity_macro,
)
from pdmeasure.measures.chance import kappa, mcc
from pdmeasure.measures.entropy import cen, pacc
from pdmeasure.measures.preference import (
    class_precision_recall,
    fbeta_macro,
    fbeta_micro,
    preference_driven,
)
from pdmeasure.measures.registry import INFO, REGISTRY, evaluate
from pdmeasure.measures.weights import DEFAULT_CHUNK_SIZE, KappaGrid, kappa_grid

__all__ = [
    "ConfusionAccumulator",
    "AccumulatedMatrices",
    "sorted_labels",
    "REGISTRY",
    "INFO",
    "MeasureInfo",
    "PerClassCounts",
    "per_class_counts",
    "safe_divide",
    "check_zero_division",
    "class_precision_recall",
    "kappa_grid",
    "KappaGrid",
    "DEFAULT_CHUNK_SIZE",
    "fbeta_macro",
    "fbeta_micro",
    "evaluate",
    "IBA_ALPHA",
    "accuracy",
    "error_rate",
    "average_accuracy",
    "precision_macro",
    "recall_macro",
    "f1_macro",
    "f1_macro_mean",
    "precision_micro",
    "recall_micro",
    "f1_micro",
    "specificity_macro",
    "balanced_accuracy",
    "mcc",
    "kappa",
    "cen",
    "pacc",
    "g_mean",
    "iba",
    "preference_driven",
]
