"""A slow, literal, loop-based implementation of every measure, written from the papers.

This module is the test oracle for :mod:`pdmeasure.measures`. It deliberately shares no code
with it: each function takes ONE confusion matrix as a list of lists (rows = actual,
columns = predicted), loops over cells in plain Python and follows the printed equation as
literally as possible, including the papers' own intermediate quantities (e.g. Gorodkin's
covariances for MCC, P_o and P_e for kappa), rather than the algebraically simplified forms
the vectorised library uses.

``zd`` is the value of 0/0 (``math.nan``, 0.0 or 1.0); ``x/0`` with ``x`` clearly not 0
raises, because no measure can produce it.

Paper 000 = preference-driven measure (Kozak et al.); paper 001 = Pacc (Sigdel & Aygun).
"""

from __future__ import annotations

import math

IBA_ALPHA = 0.1  # Garcia et al. (2009)'s recommended alpha, as documented for the library


def div(a: float, b: float, zd: float) -> float:
    """a / b with 0/0 = zd.

    A zero denominator implies a zero numerator in every measure; a numerator that is not
    exactly zero there is round-off from non-integer counts (e.g. Gorodkin's triple sum), so
    it is still 0/0. A numerator that is clearly not zero is a bug and raises.
    """
    if b == 0:
        if abs(a) > 1e-9:
            raise ZeroDivisionError(f"{a}/0 cannot occur in these measures")
        return zd
    return a / b


def size(m) -> int:
    return len(m)


def total(m) -> float:
    s = 0.0
    for row in m:
        for x in row:
            s += x
    return s


def tp(m, i):
    return m[i][i]


def fn(m, i):
    """Row i without its diagonal cell (paper 000, Section 3.2)."""
    return sum(m[i][j] for j in range(size(m)) if j != i)


def fp(m, i):
    """Column i without its diagonal cell."""
    return sum(m[k][i] for k in range(size(m)) if k != i)


def tn(m, i):
    """Every cell outside row i and column i."""
    c = size(m)
    return sum(m[k][j] for k in range(c) for j in range(c) if k != i and j != i)


def class_mean(m, term) -> float:
    """(1/C) sum_i term(i): the macro average of a per-class quantity, summed in class order."""
    c = size(m)
    return sum(term(i) for i in range(c)) / c


def precision_i(m, i, zd):  # paper 000 eq. 28
    return div(tp(m, i), tp(m, i) + fp(m, i), zd)


def recall_i(m, i, zd):  # paper 000 eq. 29
    return div(tp(m, i), tp(m, i) + fn(m, i), zd)


def specificity_i(m, i, zd):  # paper 000 eq. 13, class i against the rest
    return div(tn(m, i), fp(m, i) + tn(m, i), zd)


def f_zero_division(zd):
    """F with P = R = 0 and MCC of a constant labelling: NaN under the "nan" policy, else 0
    (documented choice)."""
    return zd if math.isnan(zd) else 0.0


def f_beta(p, r, beta, zd):  # paper 000 eq. 8 / 21 / 22
    return div((1 + beta**2) * p * r, beta**2 * p + r, f_zero_division(zd))


def accuracy(m, zd):  # paper 000 eq. 16
    return div(sum(tp(m, i) for i in range(size(m))), total(m), zd)


def error_rate(m, zd):  # Sokolova & Lapalme 2009 / oneDAL
    return class_mean(
        m, lambda i: div(fp(m, i) + fn(m, i), tp(m, i) + fn(m, i) + fp(m, i) + tn(m, i), zd)
    )


def average_accuracy(m, zd):  # Sokolova & Lapalme 2009 / oneDAL
    return class_mean(
        m, lambda i: div(tp(m, i) + tn(m, i), tp(m, i) + fn(m, i) + fp(m, i) + tn(m, i), zd)
    )


def precision_macro(m, zd):  # paper 000 eq. 17
    return class_mean(m, lambda i: precision_i(m, i, zd))


def recall_macro(m, zd):  # paper 000 eq. 18
    return class_mean(m, lambda i: recall_i(m, i, zd))


def fbeta_macro(m, beta, zd):  # paper 000 eq. 21
    return f_beta(precision_macro(m, zd), recall_macro(m, zd), beta, zd)


def f1_macro(m, zd):  # paper 000 eq. 23
    p = precision_macro(m, zd)
    r = recall_macro(m, zd)
    return div(2 * p * r, p + r, f_zero_division(zd))


def f1_macro_mean(m, zd):  # paper 001 eqs. 10-12 (FMEAS)
    c = size(m)
    s = 0.0
    for i in range(c):
        p = precision_i(m, i, zd)
        r = recall_i(m, i, zd)
        s += div(2 * p * r, p + r, f_zero_division(zd))
    return s / c


def micro_ratio(m, errors, zd):
    """sum_i tp_i / (sum_i tp_i + sum_i errors_i): paper 000 eqs. 19-20 with errors = fp or fn."""
    c = size(m)
    return div(
        sum(tp(m, i) for i in range(c)),
        sum(tp(m, i) for i in range(c)) + sum(errors(m, i) for i in range(c)),
        zd,
    )


def precision_micro(m, zd):  # paper 000 eq. 19
    return micro_ratio(m, fp, zd)


def recall_micro(m, zd):  # paper 000 eq. 20
    return micro_ratio(m, fn, zd)


def fbeta_micro(m, beta, zd):  # paper 000 eq. 22
    p = precision_micro(m, zd)
    r = recall_micro(m, zd)
    # P = R = accuracy here, so F = accuracy; at P = R = 0 that is 0 (documented choice)
    return div((1 + beta**2) * p * r, beta**2 * p + r, 0.0)


def f1_micro(m, zd):  # paper 000 eq. 24
    p = precision_micro(m, zd)
    r = recall_micro(m, zd)
    return div(2 * p * r, p + r, 0.0)  # 0 at P = R = 0, as fbeta_micro


def specificity_macro(m, zd):
    return class_mean(m, lambda i: specificity_i(m, i, zd))


def balanced_accuracy(m, zd):  # paper 000 eq. 26
    return class_mean(m, lambda i: div(tp(m, i), tp(m, i) + fn(m, i), zd))


def mcc(m, zd):
    """Gorodkin's R_K from the covariances of paper 001, eqs. 6-9.

    Eq. 7: cov(X, Y) = sum_{k,l,m} C_kk C_ml - C_lk C_km. Eqs. 8-9 as Gorodkin (2004)
    defines them (the paper prints an extra square root inside, contradicted by its own
    tables): cov(X, X) = sum_k (sum_l C_lk) (sum_{f != k, g} C_gf), and cov(Y, Y) likewise
    with rows and columns exchanged.
    """
    n = size(m)
    cov_xy = 0.0
    for k in range(n):
        for j in range(n):
            for q in range(n):
                cov_xy += m[k][k] * m[q][j] - m[j][k] * m[k][q]
    cov_xx = 0.0
    cov_yy = 0.0
    for k in range(n):
        col_k = sum(m[j][k] for j in range(n))
        row_k = sum(m[k][j] for j in range(n))
        other_cols = sum(m[g][f] for f in range(n) if f != k for g in range(n))
        other_rows = sum(m[f][g] for f in range(n) if f != k for g in range(n))
        cov_xx += col_k * other_cols
        cov_yy += row_k * other_rows
    # 0/0 (a constant labelling): NaN under "nan", else 0 (documented choice, as scikit-learn)
    return div(cov_xy, math.sqrt(cov_xx) * math.sqrt(cov_yy), f_zero_division(zd))


def kappa(m, zd):  # paper 001 eq. 14
    n = size(m)
    s = total(m)
    p_o = sum(m[i][i] for i in range(n)) / s
    p_e = 0.0
    for i in range(n):
        row_i = sum(m[i][j] for j in range(n))
        col_i = sum(m[j][i] for j in range(n))
        p_e += row_i * col_i
    p_e /= s * s
    return div(p_o - p_e, 1 - p_e, zd)


def _log(x, base):
    return math.log(x) / math.log(base)


def _plogp(p, base):
    return 0.0 if p == 0 else p * _log(p, base)


def cen(m, zd):
    """Confusion entropy, paper 001 eqs. 1-5; 0 log 0 = 0 and 0/0 = 0 in P^j (limits)."""
    n = size(m)
    base = 2 * (n - 1)
    s = total(m)
    result = 0.0
    for j in range(n):
        denom_j = sum(m[j][k] + m[k][j] for k in range(n))
        cen_j = 0.0
        for k in range(n):
            if k == j:
                continue
            p_jk = div(m[j][k], denom_j, 0.0)  # eq. 1 with i = j: C_jk subject to class j
            p_kj = div(m[k][j], denom_j, 0.0)  # eq. 1: C_kj subject to class j
            cen_j -= _plogp(p_jk, base) + _plogp(p_kj, base)
        p_j = denom_j / (2 * s)  # eq. 5
        result += p_j * cen_j  # eq. 4
    return result


def pacc(m, zd):  # paper 001 eqs. 15-19
    n = size(m)
    eps = 0.0
    corr = 0.0
    for i in range(n):
        for j in range(n):
            denom = sum(m[i][k] + m[k][j] for k in range(n))
            if i == j:
                corr += div(2 * m[i][i], denom, zd)  # eq. 16
            else:
                eps += div(2 * m[i][j], denom, 0.0)  # eq. 15: no mass -> 0
    eps /= n  # eq. 17
    corr /= n  # eq. 18
    return 0.5 + (corr - eps) / 2  # eq. 19


def g_mean(m, zd):
    n = size(m)
    prod = 1.0
    for i in range(n):
        prod *= recall_i(m, i, zd)
    return prod ** (1.0 / n)


def iba(m, zd):
    n = size(m)
    s = 0.0
    for i in range(n):
        r = recall_i(m, i, zd)
        sp = specificity_i(m, i, zd)
        s += (1 + IBA_ALPHA * (r - sp)) * (r * sp)
    return s / n


def default_kappa(m):  # paper 000 eq. 31
    s = total(m)
    return [sum(m[i]) / s for i in range(size(m))]


def preference_driven(m, zd, kappa_vec=None):  # paper 000 eq. 27
    n = size(m)
    if kappa_vec is None:
        kappa_vec = default_kappa(m)
    s = 0.0
    for i in range(n):
        # a term whose weight is 0 is absent (documented choice for undefined P_i or R_i)
        if kappa_vec[i] != 0:
            s += kappa_vec[i] * precision_i(m, i, zd)
        if kappa_vec[i] != 1:
            s += (1 - kappa_vec[i]) * recall_i(m, i, zd)
    return s / n


ORACLE = {
    "accuracy": accuracy,
    "error_rate": error_rate,
    "average_accuracy": average_accuracy,
    "precision_macro": precision_macro,
    "recall_macro": recall_macro,
    "f1_macro": f1_macro,
    "f1_macro_mean": f1_macro_mean,
    "precision_micro": precision_micro,
    "recall_micro": recall_micro,
    "f1_micro": f1_micro,
    "specificity_macro": specificity_macro,
    "balanced_accuracy": balanced_accuracy,
    "mcc": mcc,
    "kappa": kappa,
    "cen": cen,
    "pacc": pacc,
    "g_mean": g_mean,
    "iba": iba,
    "preference_driven": preference_driven,
}
