"""Exact CDF of a linear form when kappa is uniform on the unit cube [0, 1]^C.

With ``c_i = |s_i| > 0`` (a negative slope is ``s_i + |s_i| (1 - U_i)``, and ``1 - U_i`` is
again uniform), ``X = base + Y`` with ``Y = sum_i c_i U_i``. The CDF of ``Y`` is piecewise
polynomial (the volume of a simplex cut by the cube; inclusion-exclusion)::

    P(Y <= t) = 1 / (n! prod_i c_i) * sum_{S subset [n]} (-1)^|S| (t - sum_{i in S} c_i)_+^n

We evaluate it in integer arithmetic: scaling every ``c_i`` and ``t`` by the common denominator
``L`` gives integers ``a_i`` and ``T``, and the result is the fraction
``sum_S (-1)^|S| (T - a_S)_+^n / (n! prod a_i)``, exactly. Only subsets with ``a_S < T``
contribute; they are enumerated depth first over ascending ``a`` with pruning, and the symmetry
``P(Y <= t) = 1 - P(Y <= sum c - t)`` keeps ``t`` at most half the range. The number of terms
can still reach ``2**(n-1)``; past ``max_terms`` a :class:`TooManyTerms` is raised and callers
fall back to :func:`pdmeasure.exact.lattice.uniform_lattice`. A float count of the terms
(:func:`_more_terms_than`, a rigorous lower bound) raises it before any term is computed
when the budget is surely exceeded, so a hopeless case costs milliseconds, not the budget.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from pdmeasure.exact.forms import LinearForm
from pdmeasure.exact.grid import _as_threshold

#: Default budget of inclusion-exclusion terms per evaluation (about a second on krkopt).
DEFAULT_MAX_TERMS = 2**19


class TooManyTerms(RuntimeError):
    """The inclusion-exclusion sum needs more terms than allowed."""


def _more_terms_than(a: list[int], limit: int, max_terms: int) -> bool:
    """Whether surely more than ``max_terms`` subsets of ``a`` sum to less than ``limit``.

    A cheap float count before the exact enumeration: the subset sums of ``a_i / limit``
    (positive, ascending) are grown class by class in a numpy array, keeping only those below
    ``1 - 1e-9``. Each float sum is within ``n`` roundings of its exact value, far inside that
    margin, so every subset kept has an exact sum below ``limit``: the count is a lower bound,
    and True means the enumeration would exceed its budget. It stops as soon as it does.
    """
    bound = 1.0 - 1e-9
    sums = np.zeros(1)
    for value in a:
        w = value / limit  # int / int: correctly rounded
        if w >= bound:
            break
        sums = np.concatenate([sums, sums[sums + w < bound] + w])
        if len(sums) > max_terms:
            return True
    return False


def _simplex_cdf(widths: list[Fraction], t: Fraction, max_terms: int) -> Fraction:
    """``P(sum_i c_i U_i <= t)`` for positive ``c_i`` and ``0 <= t <= sum c / 2``."""
    n = len(widths)
    scale = math.lcm(t.denominator, *(c.denominator for c in widths))
    a = sorted(int(c * scale) for c in widths)
    limit = int(t * scale)
    if _more_terms_than(a, limit, max_terms):  # the enumeration below would raise anyway
        raise TooManyTerms(f"more than {max_terms} inclusion-exclusion terms for {n} classes")
    total = 0
    visited = 0
    # Iterative depth-first enumeration of subsets S with sum a_S < T (ascending a: once
    # s + a_j >= T, every later j also overshoots).
    stack = [(0, 0, 1)]
    while stack:
        start, partial, sign = stack.pop()
        total += sign * (limit - partial) ** n
        visited += 1
        if visited > max_terms:
            raise TooManyTerms(f"more than {max_terms} inclusion-exclusion terms for {n} classes")
        for j in range(start, n):
            nxt = partial + a[j]
            if nxt >= limit:
                break
            stack.append((j + 1, nxt, -sign))
    return Fraction(total, math.factorial(n) * math.prod(a))


def uniform_cdf(form: LinearForm, x, *, max_terms: int = DEFAULT_MAX_TERMS) -> Fraction:
    """Exact ``P(form(kappa) <= x)`` for kappa uniform on [0, 1]^C.

    Parameters
    ----------
    form : LinearForm
    x : number
        Floats are taken at their exact binary value.
    max_terms : int
        Budget of inclusion-exclusion terms.

    Returns
    -------
    Fraction
        For ``n >= 1`` non-zero slopes the distribution is continuous, so this is also
        ``P(X < x)``. With all slopes zero it is a point mass at ``form.const``.

    Raises
    ------
    TooManyTerms
        If the budget is exceeded.
    """
    point = _as_threshold(x)
    base = form.const + sum((s for s in form.slopes if s < 0), Fraction(0))
    widths = [abs(s) for s in form.slopes if s != 0]
    t = point - base
    if not widths:
        return Fraction(int(t >= 0))
    span = sum(widths, Fraction(0))
    if t <= 0:
        return Fraction(0)
    if t >= span:
        return Fraction(1)
    if 2 * t > span:
        return 1 - _simplex_cdf(widths, span - t, max_terms)
    return _simplex_cdf(widths, t, max_terms)
