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
(:func:`_count_terms`, a rigorous lower bound) raises it before any term is computed when
the budget is surely exceeded, so a hopeless case costs milliseconds, not the budget. The
terms are big integers of about ``n * bits(T)`` bits, so their cost grows with the number of
classes; ``max_seconds`` also bounds the estimated time (:func:`~pdmeasure.exact.uniform.term_seconds`).
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


#: Cost model of one inclusion-exclusion term (deterministic, never measured at run time):
#: ``(T - a_S)**n`` is a product of numbers of about ``n * bits(T)`` bits, and Python
#: multiplies large ints in Karatsuba time, ``(n * bits) ** 1.585``; the factor was fitted on
#: 18 to 26 classes (3 to 13 microseconds per term) and rounded up.
_TERM_SECONDS = 1e-11


def term_seconds(n_terms: int, n_widths: int, limit_bits: int) -> float:
    """Estimated seconds of ``n_terms`` terms over ``n_widths`` classes with ``T`` of these bits."""
    return n_terms * _TERM_SECONDS * float(n_widths * max(limit_bits, 1)) ** 1.585


def _count_terms(a: list[int], limit: int, cap: int) -> int:
    """A lower bound on the number of subsets of ``a`` with sum below ``limit``, up to ``cap + 1``.

    A cheap float count before the exact enumeration: the subset sums of ``a_i / limit``
    (positive, ascending) are grown class by class in a numpy array, keeping only those below
    ``1 - 1e-9``. Each float sum is within ``n`` roundings of its exact value, far inside that
    margin, so every subset kept has an exact sum below ``limit``: the count is a lower bound.
    It stops as soon as it passes ``cap``.
    """
    bound = 1.0 - 1e-9
    sums = np.zeros(1)
    for value in a:
        w = value / limit  # int / int: correctly rounded
        if w >= bound:
            break
        sums = np.concatenate([sums, sums[sums + w < bound] + w])
        if len(sums) > cap:
            return cap + 1
    return len(sums)


def _simplex_cdf(
    widths: list[Fraction], t: Fraction, max_terms: int, max_seconds: float | None = None
) -> Fraction:
    """``P(sum_i c_i U_i <= t)`` for positive ``c_i`` and ``0 <= t <= sum c / 2``."""
    n = len(widths)
    scale = math.lcm(t.denominator, *(c.denominator for c in widths))
    a = sorted(int(c * scale) for c in widths)
    limit = int(t * scale)
    # Refused before any term is computed: surely over the term budget (the enumeration
    # below would raise anyway), or, given, over the estimated time.
    n_terms = _count_terms(a, limit, max_terms)
    if n_terms > max_terms:
        raise TooManyTerms(f"more than {max_terms} inclusion-exclusion terms for {n} classes")
    if max_seconds is not None:
        seconds = term_seconds(n_terms, n, limit.bit_length())
        if seconds > max_seconds:
            raise TooManyTerms(
                f"{n_terms} inclusion-exclusion terms of {n} classes would take about "
                f"{seconds:.2g} s, more than max_seconds={max_seconds}"
            )
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


def uniform_cdf(
    form: LinearForm,
    x: float | Fraction,
    *,
    max_terms: int = DEFAULT_MAX_TERMS,
    max_seconds: float | None = None,
) -> Fraction:
    """Exact ``P(form(kappa) <= x)`` for kappa uniform on [0, 1]^C.

    Parameters
    ----------
    form : LinearForm
    x : number
        Floats are taken at their exact binary value.
    max_terms : int
        Budget of inclusion-exclusion terms.
    max_seconds : float, optional
        Budget of estimated time (:func:`~pdmeasure.exact.uniform.term_seconds`, a fixed model of the big-integer
        work, so the outcome is the same on every machine); None for no such budget.

    Returns
    -------
    Fraction
        For ``n >= 1`` non-zero slopes the distribution is continuous, so this is also
        ``P(X < x)``. With all slopes zero it is a point mass at ``form.const``.

    Raises
    ------
    TooManyTerms
        If a budget is exceeded.
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
        return 1 - _simplex_cdf(widths, span - t, max_terms, max_seconds)
    return _simplex_cdf(widths, t, max_terms, max_seconds)
