r"""scikit-learn style scores: ``score(y_true, y_pred, ...)`` for measures scikit-learn lacks.

Each function builds the confusion matrix with :func:`sklearn.metrics.confusion_matrix`
(rows actual, columns predicted, in ``labels`` order, weighted by ``sample_weight``) and
evaluates the :mod:`pdmeasure.measures` function of the same name on it, so the label-vector
form and the matrix form agree exactly. They plug into scikit-learn's model selection:

>>> from sklearn.metrics import make_scorer
>>> scorer = make_scorer(preference_driven_score, kappa={0: 0.3, 1: 0.1, 2: 0.9})

Labels
------
``labels=None`` uses the sorted union of the labels in ``y_true`` and ``y_pred``
(:func:`sklearn.utils.multiclass.unique_labels`, the convention of scikit-learn's own
scores). A cross-validation fold may miss a class; pass ``labels=`` to fix the class set and
its order (a sequence ``kappa`` is read in that order).

Measures not provided here
--------------------------
R_k of the Pacc paper (paper 001, eqs. 6-9) is Gorodkin's multi-class MCC, registry ``mcc``
(paper 000, eq. 25); it is :func:`sklearn.metrics.matthews_corrcoef`, which returns 0 where
the ratio is ``0/0`` (pdmeasure's ``zero_division=0.0``). Cohen's kappa is
:func:`sklearn.metrics.cohen_kappa_score`.

Zero division
-------------
The scores follow scikit-learn's convention, so that model selection never sees a NaN:
``zero_division="warn"`` (the default) scores a ``0/0`` ratio (a class never predicted, or
absent from a fold) as 0 and issues :class:`sklearn.exceptions.UndefinedMetricWarning`; 0.0,
1.0 or ``"nan"`` set the value without a warning, as in :mod:`pdmeasure.measures`.

scikit-learn is imported on the first call only, so ``import pdmeasure`` stays cheap.
"""

from __future__ import annotations

import textwrap
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from pdmeasure import measures
from pdmeasure._validation import ZeroDivision
from pdmeasure.measures.labels import kappa_vector

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "preference_driven_score",
    "pacc_score",
    "cen_score",
    "iba_score",
    "average_accuracy_score",
    "kappa_vector",
    "label_confusion_matrix",
]

#: A score's ``zero_division``: the library's policy values, or scikit-learn's ``"warn"``.
ScoreZeroDivision = ZeroDivision | Literal["warn"]


def _policy_value(compute: Callable[[ZeroDivision], Any], zero_division: ScoreZeroDivision):
    """``compute(zero_division)``; under ``"warn"``, 0.0 and a warning when it is undefined.

    A score is undefined when some ``0/0`` ratio reaches it, i.e. when it is NaN under the
    ``"nan"`` policy; then scikit-learn's scores warn and return the value at 0.
    """
    if zero_division != "warn":
        return compute(zero_division)
    value = compute("nan")
    if not np.isnan(value):
        return value
    from sklearn.exceptions import UndefinedMetricWarning

    warnings.warn(
        "a 0/0 ratio (a class never predicted, or with no samples) makes the score "
        "undefined; it is scored with zero_division=0.0. Pass labels= to fix the class set, "
        "or zero_division= to choose the value and silence this warning.",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    return compute(0.0)


#: The label parameters every score here documents (shared by the docstrings below).
_LABEL_PARAMETERS = """
    y_true : array_like of shape (n_samples,)
        Actual labels.
    y_pred : array_like of shape (n_samples,)
        Predicted labels.
    labels : array_like, optional
        The classes and their order (rows and columns of the confusion matrix). Default:
        the sorted union of the labels in ``y_true`` and ``y_pred``."""

_COMMON_PARAMETERS = (
    """
    Parameters
    ----------"""
    + _LABEL_PARAMETERS.replace("{", "{{").replace("}", "}}")
    + """
    sample_weight : array_like of shape (n_samples,), optional
        Weight of each sample in the confusion matrix.
    zero_division : {{"warn", "nan", 0.0, 1.0}}, default "warn"
        Value of every ``0/0`` (see :mod:`pdmeasure.measures`); ``"warn"``: 0.0 with a
        warning when it changes the score (scikit-learn's convention).

    Returns
    -------
    float
        {returns}

    Raises
    ------
    ValueError
        For an invalid confusion matrix (e.g. no samples) or an invalid ``zero_division``.
    """
)


def label_confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Confusion matrix and class order of label vectors, as the scores here build them.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n_samples,)
        Actual and predicted labels.
    labels : array_like, optional
        Class order; default the sorted union of both (scikit-learn's ``unique_labels``).
    sample_weight : array_like of shape (n_samples,), optional
        Weight of each sample.

    Returns
    -------
    cm : numpy.ndarray, shape (C, C)
        Rows actual, columns predicted (from :func:`sklearn.metrics.confusion_matrix`).
    labels : numpy.ndarray, shape (C,)
        The class order of ``cm``.
    """
    from sklearn.metrics import confusion_matrix
    from sklearn.utils.multiclass import unique_labels

    labels = unique_labels(y_true, y_pred) if labels is None else np.asarray(labels)
    cm = confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    return cm, labels


def preference_driven_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    kappa: ArrayLike | Mapping[Any, float] | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: ScoreZeroDivision = "warn",
) -> float:
    r"""Preference-driven measure of label vectors (paper 000, eqs. 27 and 30; default eq. 31).

    .. math::

        \mathrm{pd}_\kappa = \frac{1}{C} \sum_{i=1}^{C}
            \Big[\kappa_i \frac{TP_i}{TP_i + FP_i}
                 + (1 - \kappa_i) \frac{TP_i}{TP_i + FN_i}\Big]

    Kozak et al., *Preference-driven classification measure* (2022). ``kappa_i`` weighs the
    precision of class i (eq. 28) against its recall (eq. 29); ``kappa=None`` uses eq. 31,
    the actual-class shares ``kappa_i = (TP_i + FN_i) / n`` (weighted by ``sample_weight``).
    Equals :func:`pdmeasure.measures.preference_driven` of the confusion matrix.

    Parameters
    ----------{label_parameters}
    kappa : sequence of float or mapping, optional
        Weights of precision in [0, 1]: one per class in ``labels`` order, or a mapping
        ``{label: weight}`` naming every class exactly once. Default: eq. 31.
    sample_weight : array_like of shape (n_samples,), optional
        Weight of each sample in the confusion matrix.
    zero_division : {"warn", "nan", 0.0, 1.0}, default "warn"
        Value of a ``0/0`` precision or recall (paper 000 uses 0.0); ``"warn"``: 0.0 with a
        warning when it changes the score (scikit-learn's convention).

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``kappa`` has the wrong length, a value outside [0, 1], or (as a mapping) misses
        a class or names a label that is not a class; or for an invalid confusion matrix.

    Examples
    --------
    >>> y_true = [0] * 5 + [1] * 5
    >>> y_pred = [0, 0, 0, 0, 1, 1, 1, 1, 1, 0]
    >>> preference_driven_score(y_true, y_pred, kappa={0: 1.0, 1: 1.0})
    0.8
    """
    cm, labels = label_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    vector = None if kappa is None else kappa_vector(kappa, labels)
    return float(
        _policy_value(
            lambda zd: measures.preference_driven(cm, vector, zero_division=zd), zero_division
        )
    )


preference_driven_score.__doc__ = (preference_driven_score.__doc__ or "").replace(
    "{label_parameters}", _LABEL_PARAMETERS
)


class _LabelScore(Protocol):
    """The signature of a label-vector score made by :func:`_label_score`."""

    def __call__(
        self,
        y_true: ArrayLike,
        y_pred: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        zero_division: ScoreZeroDivision = "warn",
    ) -> float: ...


def _label_score(
    measure: Callable, returns: str, references: str
) -> Callable[[Callable[[], None]], _LabelScore]:
    """Turn a docstring stub into the label-vector form of a registry measure.

    The decorated function's body is unused: it only carries the name and the specific part
    of the docstring; the common Parameters, Returns and Raises sections and the References
    are appended.
    """

    def decorate(stub: Callable[[], None]) -> _LabelScore:
        def score(
            y_true: ArrayLike,
            y_pred: ArrayLike,
            *,
            labels: ArrayLike | None = None,
            sample_weight: ArrayLike | None = None,
            zero_division: ScoreZeroDivision = "warn",
        ) -> float:
            cm, _ = label_confusion_matrix(
                y_true, y_pred, labels=labels, sample_weight=sample_weight
            )
            return float(_policy_value(lambda zd: measure(cm, zero_division=zd), zero_division))

        score.__name__ = score.__qualname__ = stub.__name__
        score.__module__ = stub.__module__
        score.__doc__ = "\n".join(
            [
                (stub.__doc__ or "").rstrip(),
                _COMMON_PARAMETERS.format(returns=returns).rstrip(),
                "\n    References\n    ----------",
                textwrap.indent(textwrap.dedent(references).strip(), "    "),
            ]
        )
        return score

    return decorate


@_label_score(
    measures.pacc,
    "In [0, 1]; higher is better.",
    """
    M. Sigdel and R. Aygun, "Pacc - a discriminative and accuracy correlated measure for
        assessment of classification results" (paper 001), eqs. 15-19.
    """,
)
def pacc_score() -> None:  # a stub: the decorator returns the score
    r"""Probabilistic accuracy Pacc of label vectors (paper 001, eqs. 15-19).

    .. math::

        P_{ij} = \frac{2 C_{ij}}{\sum_k (C_{ik} + C_{kj})}, \quad
        \epsilon = \frac{1}{C} \sum_i \sum_{j \ne i} P_{ij}, \quad
        c = \frac{1}{C} \sum_i P_{ii}, \quad
        \mathrm{Pacc} = \frac{1}{2} + \frac{c - \epsilon}{2}

    Sigdel & Aygun, *Pacc - a discriminative and accuracy correlated measure for assessment
    of classification results*. Equals :func:`pdmeasure.measures.pacc` of the confusion
    matrix.
    """


@_label_score(
    measures.cen,
    "In [0, 1] for C >= 3 (up to 2/(e ln 2) for C = 2); LOWER is better, so use\n"
    "        ``make_scorer(cen_score, greater_is_better=False)``.",
    """
    J.-M. Wei et al., "A novel measure for evaluating classifiers", Expert Systems with
        Applications 37 (2010); as written in paper 001 (Sigdel & Aygun), eqs. 1-5.
    """,
)
def cen_score() -> None:  # a stub: the decorator returns the score
    r"""Confusion entropy CEN of label vectors (Wei et al. 2010; paper 001, eqs. 1-5).

    .. math::

        CEN = \sum_j P_j\, CEN_j, \quad
        CEN_j = -\sum_{k \ne j} \big(P^j_{jk} \log_{2(C-1)} P^j_{jk}
                                     + P^j_{kj} \log_{2(C-1)} P^j_{kj}\big)

    with ``P^j_{ij} = C_ij / sum_k (C_jk + C_kj)`` and
    ``P_j = sum_k (C_jk + C_kj) / (2 sum_kl C_kl)``; ``0 log 0 = 0``, so CEN is never NaN.
    Paper 001 reports ``1 - CEN``. Equals :func:`pdmeasure.measures.cen` of the confusion
    matrix.
    """


@_label_score(
    measures.iba,
    "In [0, 1]; higher is better.",
    """
    .. [1] V. Garcia, R. A. Mollineda and J. S. Sanchez, "Index of balanced accuracy: a
       performance measure for skewed class distributions", IbPRIA 2009, pp. 441-448.
    .. [2] K. Stapor, "Evaluation of classifiers: current methods and future research
       directions", Section II (the binary formula).
    """,
)
def iba_score() -> None:  # a stub: the decorator returns the score
    r"""Index of balanced accuracy of label vectors, one-vs-rest and averaged (Garcia et al. 2009).

    .. math:: \mathrm{IBA}_\alpha = \frac{1}{C} \sum_i \big(1 + \alpha (R_i - S_i)\big) R_i S_i,
              \qquad \alpha = 0.1

    with per-class recall ``R_i`` and specificity ``S_i`` (class i against all others).
    Garcia, Mollineda & Sanchez, *Index of balanced accuracy* (2009), as printed by Stapor,
    *Evaluation of classifiers*, Section II. Equals :func:`pdmeasure.measures.iba` of the
    confusion matrix.
    """


@_label_score(
    measures.average_accuracy,
    "In [0, 1]; higher is better.",
    """
    M. Sokolova and G. Lapalme, "A systematic analysis of performance measures for
        classification tasks", Information Processing & Management 45 (2009), Table 3.
    """,
)
def average_accuracy_score() -> None:  # a stub: the decorator returns the score
    r"""Average one-vs-rest accuracy of label vectors (Sokolova & Lapalme 2009, Table 3).

    .. math:: \mathrm{average\_accuracy} = \frac{1}{C} \sum_i \frac{TP_i + TN_i}{TP_i + FN_i + FP_i + TN_i}

    Not scikit-learn's ``balanced_accuracy_score`` (mean recall): each class contributes its
    accuracy as a binary problem against the rest. Equals ``1 - error_rate`` and
    :func:`pdmeasure.measures.average_accuracy` of the confusion matrix.
    """
