"""Win probabilities under uniform kappa for many pairs of classifiers at once (Fourier series).

pd is affine in kappa (paper 000, eq. 30), so the difference of two classifiers' pd is
``D = const + sum_i d_i kappa_i``. With kappa uniform on [0, 1]^C, ``P(D <= 0)`` is the CDF of
``Y = sum_i c_i U_i`` (``c_i = |d_i|``, ``U_i`` independent uniform on [0, 1]) at
``t = -(const + sum_{d_i < 0} d_i)``; :func:`pdmeasure.exact.uniform.uniform_cdf` computes it
as an exact fraction by inclusion-exclusion, whose up to ``2**(C-1)`` big-integer terms cost
about 0.1 s a pair at 20 classes and share nothing between pairs.

Here the same probability is a fast-converging Fourier series. Normalise by the span
``L = sum_i c_i``: ``r_i = c_i / L`` (summing to 1) and ``u = t / L - 1/2`` in [-1/2, 1/2].
``Y / L`` is supported on [0, 1] and has characteristic function
``exp(i w / 2) prod_i sinc(w r_i / 2)``; with at least two non-zero widths its density is
continuous and vanishes at both ends, so ``F(t) - t`` is a continuous 1-periodic function of
``t / L`` and its Fourier series converges to it. Its coefficients at ``w = 2 pi k`` are real,
which gives::

    P(Y <= t) = 1/2 + u + sum_{k >= 1} R_k sin(2 pi k u) / (pi k),
    R_k = prod_i sinc(pi k r_i),   sinc(x) = sin(x) / x.

``|sinc(pi k r)| <= min(1, 1 / (pi k r))``, so ``b_k = prod_i min(1, 1 / (pi k r_i))`` bounds
``|R_k|``: it falls as ``k**-J`` once ``J`` widths pass ``1 / (pi k)``, and the terms beyond
``M`` add at most ``b_M / (pi J)`` (the sum of ``(M / k)**J / (pi k)`` over ``k > M`` is below
``1 / (pi J)``). ``M`` is the smallest frequency count, from a fixed ladder, that brings this
tail below ``tail``: about 50 at 20 classes of comparable widths. Every pair is a row of one
numpy computation, so the pairs of many classifiers cost a few array operations.

The error bound is rigorous: the tail above, plus the float rounding of the inputs (``r_i``
and ``u`` correctly rounded from the exact fractions, summing to 1 within a ``drift`` measured
by :func:`math.fsum`; a perturbation of widths and point moves the CDF by at most its total
times the density bound ``1 / max_i r_i``) and of the sum (each sinc factor's argument is off
by a relative ``delta = 4 eps + drift``, so the factor by at most ``2 delta + 2 eps``, and
``R_k`` by ``n`` times that times the product of the other factors' bounds, plus ``n eps``
of its own rounding; the sine within ``(3 pi k + 1) eps``; the summation within
``(log2 M + 2) eps`` of the absolute sum), doubled. It is about 1e-13 at 20 and 50 classes,
while the values agree with the exact fractions to about 1e-16.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure.exact.forms import LinearForm
from pdmeasure.exact.uniform import uniform_cdf

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

_EPS = float(np.finfo(float).eps)
#: Frequency counts tried, smallest first (``M`` of the module docstring).
_LADDER = np.unique(np.round(np.geomspace(4, 2**16, 61)).astype(np.int64))
#: Default bound on the series' tail (far below the rounding error).
DEFAULT_TAIL = 1e-17
#: Default largest number of frequencies per pair.
DEFAULT_MAX_FREQUENCIES = 2**13
#: Elements (pairs x frequencies x classes) per batch, about 16 MiB of float64.
_CHUNK = 2**21


def _frequencies(ratios: np.ndarray, tail: float, max_frequencies: int):
    """Per row the smallest ``M`` of the ladder whose tail bound is within ``tail``.

    Returns ``(M, tail_bound)``; ``M`` is 0 and the bound ``inf`` where no ``M`` up to
    ``max_frequencies`` suffices.
    """
    ladder = _LADDER[_LADDER <= max_frequencies]
    with np.errstate(divide="ignore"):
        log_pr = np.log(np.pi * ratios)  # -inf for a zero width: factor bound 1
    # log of pi M r_i for every row, class and M of the ladder
    log_x = log_pr[:, :, None] + np.log(ladder)[None, None, :]
    log_b = np.minimum(0.0, -log_x).sum(axis=1)
    passed = (log_x >= 0.0).sum(axis=1)  # J: widths whose factor bound is below 1
    with np.errstate(divide="ignore"):
        bound = np.where(passed > 0, np.exp(log_b) / (np.pi * np.maximum(passed, 1)), np.inf)
    ok = bound <= tail
    first = np.where(ok.any(axis=1), ok.argmax(axis=1), -1)
    m = np.where(first >= 0, ladder[np.maximum(first, 0)], 0)
    tail_bound = np.where(first >= 0, bound[np.arange(len(bound)), np.maximum(first, 0)], np.inf)
    return m, tail_bound


def uniform_cdf_series(
    ratios: ArrayLike,
    centre: ArrayLike,
    *,
    tail: float = DEFAULT_TAIL,
    max_frequencies: int = DEFAULT_MAX_FREQUENCIES,
) -> tuple[np.ndarray, np.ndarray]:
    """``P(sum_i r_i U_i <= 1/2 + u)`` for many rows at once, with a rigorous error bound.

    The Fourier series of the module docstring, ``1/2 + u + sum_k R_k sin(2 pi k u) / (pi k)``
    with ``R_k = prod_i sinc(pi k r_i)``, for ``U_i`` independent uniform on [0, 1] (kappa
    uniform on the unit cube; pd is affine in kappa, paper 000, eq. 30).

    Parameters
    ----------
    ratios : array (P, n)
        Non-negative widths of each row, summing to 1 (up to rounding: the float values of
        exact ratios ``c_i / sum c``); at least two non-zero per row for the series to apply.
    centre : array (P,)
        ``u = t / sum c - 1/2``, in [-1/2, 1/2].
    tail : float
        Largest allowed bound on the neglected terms.
    max_frequencies : int
        Largest number of terms per row.

    Returns
    -------
    cdf, error : array (P,)
        The value (clipped to [0, 1]) and a bound on its distance to the exact probability;
        NaN and ``inf`` for a row whose tail bound needs more than ``max_frequencies`` terms
        (widths too uneven: use :func:`pdmeasure.exact.uniform.uniform_cdf` for it).
    """
    r = np.atleast_2d(np.asarray(ratios, dtype=float))
    u = np.asarray(centre, dtype=float).reshape(-1)
    if r.shape[0] != len(u):
        raise ValueError(f"{r.shape[0]} rows of ratios but {len(u)} centres")
    if np.any(r < 0) or np.any(np.abs(u) > 0.5):
        raise ValueError("ratios must be non-negative and centres within [-1/2, 1/2]")
    cdf = np.full(len(u), np.nan)
    error = np.full(len(u), np.inf)
    m_rows, tail_bound = _frequencies(r, tail, max_frequencies)
    n_eff = (r > 0).sum(axis=1)
    r_max = r.max(axis=1, initial=0.0)
    # The series has period 1: a row whose rounded widths sum to 1 + drift is read with its
    # arguments off by that relative drift (fsum is correctly rounded, so within eps/2 more).
    drift = np.array([abs(1.0 - math.fsum(row)) for row in r.tolist()]) + _EPS / 2
    for m in np.unique(m_rows[m_rows > 0]).tolist():
        k = np.arange(1, m + 1, dtype=float)
        rows_m = np.flatnonzero(m_rows == m)
        step = max(1, _CHUNK // (m * r.shape[1]))
        for start in range(0, len(rows_m), step):
            rows = rows_m[start : start + step]
            x = k[None, :, None] * r[rows, None, :]  # k r_i; np.sinc(x) = sin(pi x) / (pi x)
            factor = np.sinc(x)
            coeff = factor.prod(axis=2)
            phase = np.sin(2.0 * np.pi * k[None, :] * u[rows, None])
            term = coeff * phase / (np.pi * k[None, :])
            cdf[rows] = 0.5 + u[rows] + term.sum(axis=1)
            # Rounding bound (module docstring): factor bounds, their product b_k, and the
            # product of all but the largest-deviation factor, env_k <= b_k / min factor.
            with np.errstate(divide="ignore"):
                bound = np.minimum(1.0, 1.0 / (np.pi * x))
            b_k = bound.prod(axis=2)
            env = b_k / bound.min(axis=2)
            n = n_eff[rows][:, None].astype(float)
            # a factor: relative argument error delta = 4 eps + drift, so within 2 delta + 2 eps
            factor_error = 2.0 * (4.0 * _EPS + drift[rows, None]) + 2.0 * _EPS
            per_term = (n * factor_error * env + _EPS * (n + 3.0 * np.pi * k + 2.0) * b_k) / (
                np.pi * k
            )
            rounding = per_term.sum(axis=1) + _EPS * (
                (math.log2(m) + 2.0) * np.abs(term).sum(axis=1) + 2.0
            )
            inputs = (_EPS + drift[rows]) / r_max[rows]
            error[rows] = 2.0 * (rounding + inputs) + tail_bound[rows]
    return np.clip(cdf, 0.0, 1.0), error


def _integer_coefficients(form: LinearForm) -> tuple[list[int], int]:
    """``form``'s slopes and constant over one common denominator, as integers."""
    slopes, const = form.slopes, form.const
    common = math.lcm(const.denominator, *(s.denominator for s in slopes))
    return (
        [s.numerator * (common // s.denominator) for s in slopes],
        const.numerator * (common // const.denominator),
    )


def uniform_wins(
    forms: Sequence[LinearForm],
    pairs: Sequence[tuple[int, int]],
    *,
    max_error: float = 1e-12,
    min_classes: int = 9,
    tail: float = DEFAULT_TAIL,
    max_frequencies: int = DEFAULT_MAX_FREQUENCIES,
) -> list[tuple[float, float, float, str] | None]:
    """``P(pd_a < pd_b)`` and ``P(pd_a == pd_b)`` under uniform kappa for many pairs at once.

    pd is affine in kappa (paper 000, eq. 30), so ``pd_a - pd_b`` is a :class:`LinearForm`
    whose CDF at 0 under kappa uniform on [0, 1]^C is that of a sum of scaled uniforms.
    Settled exactly per pair, in integer arithmetic: a point mass (every slope equal; ``tie``
    is 1 where the constants are equal) and a point outside the range (probability 0 or 1).
    The others with at least ``min_classes`` non-zero slopes go through
    :func:`uniform_cdf_series`, all pairs in one batch; ``tie`` is then 0 (the distribution
    is continuous).

    Parameters
    ----------
    forms : sequence of LinearForm
        pd of each classifier (:func:`pdmeasure.exact.forms.pd_form`).
    pairs : sequence of (int, int)
        Positions ``(a, b)`` in ``forms``.
    max_error : float
        Largest error bound accepted from the series.
    min_classes : int
        Pairs with fewer non-zero slopes are left to the exact inclusion-exclusion
        (:func:`pdmeasure.exact.uniform.uniform_cdf`): at most ``2**(min_classes - 2)``
        terms, so it is cheap and exact.

    Returns
    -------
    list
        Per pair ``(less, tie, error_bound, method)`` with ``less = P(pd_a < pd_b)``,
        ``method`` ``"exact"`` (error 0) or ``"series"``; None for a pair left to the
        per-pair methods (too few classes, or a series error bound above ``max_error``).
    """
    out: list[tuple[float, float, float, str] | None] = [None] * len(pairs)
    rows, ratios, centres = [], [], []
    for p, (a, b) in enumerate(pairs):
        slopes, const = _integer_coefficients(forms[a] - forms[b])
        span = sum(abs(s) for s in slopes)
        # P(D <= 0) with D = const + sum d_i kappa_i = base + Y, Y in [0, span]
        t = -(const + sum(s for s in slopes if s < 0))
        if span == 0:  # a point mass at const
            out[p] = (float(const < 0), float(const == 0), 0.0, "exact")
        elif t <= 0 or t >= span:
            out[p] = (float(t >= span), 0.0, 0.0, "exact")
        elif sum(s != 0 for s in slopes) >= min_classes:
            rows.append(p)
            ratios.append([abs(s) / span for s in slopes])  # int / int: correctly rounded
            centres.append((2 * t - span) / (2 * span))
    if rows:
        cdf, error = uniform_cdf_series(
            np.array(ratios), np.array(centres), tail=tail, max_frequencies=max_frequencies
        )
        for p, value, bound in zip(rows, cdf.tolist(), error.tolist()):
            if bound <= max_error:
                out[p] = (value, 0.0, bound, "series")
    return out


def uniform_win_exact(form: LinearForm) -> tuple[Fraction, Fraction]:
    """``P(form < 0)`` and ``P(form == 0)`` as exact fractions, without the series.

    The reference of :func:`uniform_wins` for one difference form (inclusion-exclusion,
    :func:`pdmeasure.exact.uniform.uniform_cdf`, unbounded budget).
    """
    at_most = uniform_cdf(form, 0, max_terms=2**62)
    if all(s == 0 for s in form.slopes):
        tie = Fraction(int(form.const == 0))
        return at_most - tie, tie
    return at_most, Fraction(0)
