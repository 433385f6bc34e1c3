"""Entropy-based and probabilistic measures: confusion entropy CEN and Pacc (paper 001)."""

from __future__ import annotations

import math

import numpy as np

from pdmeasure._validation import safe_divide
from pdmeasure.measures._core import Stack, mean, measure, total

_CEN_UPPER = 2.0 / (math.e * math.log(2.0))


@measure(
    upper=_CEN_UPPER,
    higher_is_better=False,
    source="paper 001, eqs. 1-5 (Wei et al. 2010)",
    range_text="[0, 1] for C >= 3, [0, 2/(e ln 2)] for C = 2",
)
def cen(s: Stack) -> np.ndarray:
    r"""Confusion entropy CEN of Wei et al. (paper 001, eqs. 1-5), logarithm base 2(C-1).

    .. math::

        P^j_{ij} = \frac{C_{ij}}{\sum_k (C_{jk} + C_{kj})}, \quad
        P^i_{ij} = \frac{C_{ij}}{\sum_k (C_{ik} + C_{ki})}

        CEN_j = -\sum_{k \ne j} \big(P^j_{jk} \log_{2(C-1)} P^j_{jk}
                                     + P^j_{kj} \log_{2(C-1)} P^j_{kj}\big)

        CEN = \sum_j P_j\, CEN_j, \quad
        P_j = \frac{\sum_k (C_{jk} + C_{kj})}{2 \sum_{k,l} C_{kl}}

    ``0 log 0 = 0``; a class with neither samples nor predictions has weight ``P_j = 0``, so
    CEN is defined for every non-empty matrix and ``zero_division`` has no effect. Paper
    001 reports ``1 - CEN``. The bound is 1 for C >= 3; for C = 2 the base-2 entropy of the
    off-diagonal shares can reach ``2 / (e ln 2) = 1.0615`` (paper 001, Table 2, matrix D:
    1 - CEN = -0.06).
    """
    # Eqs. 1-5 summed in closed form. With b = 2(C - 1), P_j P^j_jk = C_jk / (2S) and
    # P^j_jk = C_jk / both_j, where both_j = sum_k (C_jk + C_kj); so
    #   CEN = -1/(2S ln b) sum_{j != k} C_jk [ln(C_jk / both_j) + ln(C_jk / both_k)]
    #       = -1/(2S ln b) [2 sum_{j != k} C_jk ln C_jk - sum_j (FN_j + FP_j) ln both_j].
    # Cells with C_jk = 0 contribute 0 log 0 = 0 (a limit; xlogy(0, .) = 0), so CEN is
    # defined for every non-empty matrix and the zero-division policy never applies.
    # tests/oracle.py evaluates eqs. 1-5 term by term.
    # Imported here: scipy.special costs more to import (about 0.15 s) than a whole
    # measures table to compute, and every pipeline job imports this package.
    from scipy.special import xlogy

    arr = s.arr
    both = s.both
    cells = xlogy(arr, arr, out=s.cell_buffer)
    cell_terms = np.einsum("...ij->...", cells) - total(xlogy(s.tp, s.tp))
    class_terms = total(xlogy(s.fn + s.fp, both))
    value = -(2.0 * cell_terms - class_terms) / (2.0 * s.n * math.log(2 * (s.n_classes - 1)))
    return np.maximum(value, 0.0)  # each bracket is <= 0; clip round-off below 0


@measure(source="paper 001, eqs. 15-19")
def pacc(s: Stack) -> np.ndarray:
    r"""Probabilistic accuracy Pacc (paper 001, eqs. 15-19).

    .. math::

        P_{ij} = \frac{2 C_{ij}}{\sum_k (C_{ik} + C_{kj})}, \quad
        \epsilon = \frac{1}{C} \sum_i \sum_{j \ne i} P_{ij}, \quad
        c = \frac{1}{C} \sum_i P_{ii}, \quad
        \mathrm{Pacc} = \frac{1}{2} + \frac{c - \epsilon}{2}

    The denominator of ``P_ij`` is row total i plus column total j. ``P_ii`` is ``0/0``
    only for a class with neither samples nor predictions (resolved by ``zero_division``);
    an off-diagonal ``P_ij`` with a zero denominator has ``C_ij = 0`` and is 0 under every
    policy. ``epsilon <= 1`` by Cauchy-Schwarz, so Pacc lies in [0, 1].
    """
    denom = np.add(s.support[..., :, None], s.predicted[..., None, :], out=s.cell_buffer)
    # denom = row_i + col_j. The sum over all cells of 2 C_ij / (row_i + col_j), minus the
    # diagonal, gives the error sum of eqs. 15 and 17. A zero denominator has C_ij = 0: a
    # pair with no mass that contributes 0 under every policy. (The quotient overwrites
    # denom, so no (..., C, C) array is allocated.)
    all_cells = np.einsum("...ij->...", safe_divide(s.arr, denom, 0.0, out=denom))
    diagonal = total(safe_divide(s.tp, s.both, 0.0))
    epsilon = 2.0 * (all_cells - diagonal) / s.n_classes  # eq. 17
    p_diag = safe_divide(2.0 * s.tp, s.both, s.zd)  # eq. 16
    correct = mean(p_diag)  # eq. 18
    return 0.5 + (correct - epsilon) / 2.0  # eq. 19
