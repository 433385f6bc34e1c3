r"""Effect size of a difference between two classifiers across datasets: Cliff's delta.

A p-value says whether a difference is there; an effect size says how large it is. Across
datasets the values of different datasets are not on one scale (an accuracy of 0.70 can be
the best on one dataset and the worst on another), and the project's tests across datasets
are rank tests without an assumption of normality (Demsar 2006). Cliff's delta is the
effect size that matches them: it uses only the order of the values, is defined for any
number of datasets and never divides by a spread that can be zero (Cohen's d and Akinshin's
gamma, the parametric and median-based alternatives of autorank, are undefined when the
values do not vary). It is the non-parametric effect size of autorank (Herbold 2020).

.. math::

    \delta(x, y) = \frac{1}{n m} \sum_{i=1}^{n} \sum_{j=1}^{m} \operatorname{sign}(x_i - y_j)

in :math:`[-1, 1]`: the probability that a value of ``x`` exceeds one of ``y`` minus the
probability of the reverse. :func:`cliffs_delta_magnitude` labels :math:`|\delta|` with the
thresholds of Romano et al. (2006), which autorank also uses.

numpy only.

References
----------
Cliff, N. (1993). Dominance statistics: ordinal analyses to answer ordinal questions.
Psychological Bulletin 114(3):494-509. Romano, J., Kromrey, J. D., Coraggio, J. and
Skowronek, J. (2006). Appropriate statistics for ordinal level data. Annual meeting of the
Florida Association of Institutional Research. Herbold, S. (2020). Autorank: a Python
package for automated ranking of classifiers. JOSS 5(48):2173.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: The upper bounds of |delta| for ``negligible``, ``small`` and ``medium`` (Romano et al.
#: 2006); above the last, ``large``.
CLIFFS_DELTA_THRESHOLDS = (0.147, 0.33, 0.474)
CLIFFS_DELTA_LABELS = ("negligible", "small", "medium", "large")


def cliffs_delta(x: ArrayLike, y: ArrayLike) -> float:
    r"""Cliff's delta of ``x`` over ``y``: :math:`\frac{1}{nm}\sum_{i,j}\operatorname{sign}(x_i - y_j)`.

    Positive when the values of ``x`` tend to be larger. Every pair of a value of ``x`` and
    one of ``y`` is compared, so ``x`` and ``y`` may differ in length; ties count 0.

    Parameters
    ----------
    x, y : array_like, shape (n,) and (m,)
        Finite values (e.g. two classifiers' values on the datasets).

    Returns
    -------
    float
        In [-1, 1].

    Raises
    ------
    ValueError
        If either array is empty or holds a NaN or an infinity.

    References
    ----------
    Cliff (1993), Psychological Bulletin 114(3):494-509.
    """
    a = np.asarray(x, dtype=float).ravel()
    b = np.asarray(y, dtype=float).ravel()
    if a.size == 0 or b.size == 0:
        raise ValueError("cliffs_delta needs at least one value on each side")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("cliffs_delta got a NaN or infinite value: drop those datasets first")
    # sign(x_i - y_j) summed over all pairs, as integers: exact, unlike a mean of floats
    wins = int(np.sum(a[:, None] > b[None, :]))
    losses = int(np.sum(a[:, None] < b[None, :]))
    return (wins - losses) / (a.size * b.size)


def cliffs_delta_magnitude(delta: float) -> str:
    """``negligible`` (|delta| < 0.147), ``small`` (< 0.33), ``medium`` (< 0.474) or ``large``:
    the thresholds of Romano et al. (2006); ``""`` for NaN."""
    if np.isnan(delta):
        return ""
    size = abs(float(delta))
    for bound, label in zip(CLIFFS_DELTA_THRESHOLDS, CLIFFS_DELTA_LABELS):
        if size < bound:
            return label
    return CLIFFS_DELTA_LABELS[-1]
