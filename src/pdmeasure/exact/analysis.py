"""The exact analysis of one linear form over a kappa space: distribution, extremes, moments.

Distributions are exact (:class:`~pdmeasure.exact.grid.GridDistribution`) when meet in the
middle fits ``max_half`` partial sums per half and its estimated time
(:func:`~pdmeasure.exact.grid.mitm_seconds`, a fixed cost model) is within
``exact_seconds``; otherwise lattice bounds (:mod:`pdmeasure.exact.lattice`). ``grid=None``
stands for kappa uniform on [0, 1]^C.
:func:`undefined_ratios` names the 0/0 ratios that leave pd undefined somewhere in kappa space
under ``zero_division="nan"``. The tidy tables of a whole engine and dataset are built from
these by :class:`pdmeasure.tables.exact.DatasetAnalysis`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision, check_zero_division
from pdmeasure.exact.forms import LinearForm, ProductGrid
from pdmeasure.exact.grid import DEFAULT_MAX_HALF, GridDistribution, mitm_seconds
from pdmeasure.exact.lattice import LatticeDistribution, grid_lattice, uniform_lattice

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Estimated seconds (:func:`~pdmeasure.exact.grid.mitm_seconds`) above which a distribution
#: over a grid is computed on the lattice instead of exactly. An analysis has about 15
#: distributions per grid (5 classifiers and their 10 pairs), so this keeps it to seconds.
DEFAULT_EXACT_SECONDS = 0.25
#: Estimated seconds (:func:`~pdmeasure.exact.uniform.term_seconds`) above which a win
#: probability under uniform kappa falls back from the exact inclusion-exclusion sum to the
#: lattice; the papers' datasets need at most 0.42 (krkopt), the 10 pairs of 5 classifiers
#: at most 6.
DEFAULT_UNIFORM_EXACT_SECONDS = 0.6


@dataclass(frozen=True)
class ExactSettings:
    """Knobs of the analysis (config block ``exact``, plus ``zero_division``).

    ``max_half`` and ``exact_seconds`` choose between the exact and the lattice method over
    grids (see :func:`distribution`), ``uniform_exact_seconds`` under uniform kappa (with the
    term budget ``uniform_max_terms``); they are not in the config, since they change speed
    and the ``method`` of a result, never what it means.
    """

    fine_grid_values: int = 11
    monte_carlo_samples: int = 200_000
    seed: int = 0
    confidence: float = 0.95
    enumeration_limit: int = 2**22
    lattice_size: int = 2**20
    uniform_max_terms: int = 2**19
    bin_width: float = 0.002
    cdf_points: int = 401
    max_half: int = DEFAULT_MAX_HALF
    exact_seconds: float = DEFAULT_EXACT_SECONDS
    uniform_exact_seconds: float = DEFAULT_UNIFORM_EXACT_SECONDS
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT


def distribution(
    form: LinearForm, grid: ProductGrid | None, settings: ExactSettings, *, n_queries: int = 1
) -> GridDistribution | LatticeDistribution:
    """Exact distribution over ``grid`` if meet in the middle is affordable, else lattice bounds.

    Parameters
    ----------
    form : LinearForm
    grid : ProductGrid or None
        None means kappa uniform on [0, 1]^C (lattice bounds).
    settings : ExactSettings
        Meet in the middle is used when it fits ``max_half`` and its estimated time for
        ``n_queries`` points (:func:`~pdmeasure.exact.grid.mitm_seconds`, a fixed model, so
        the choice is the same on every machine) is at most ``exact_seconds``.
    n_queries : int
        How many points the caller will ask for in one call (CDF points, histogram edges).

    Returns
    -------
    GridDistribution or LatticeDistribution
    """
    if grid is None:
        return uniform_lattice(form, size=settings.lattice_size)
    slopes = form.slopes_float
    sizes = [n for s, n in zip(slopes, grid.sizes) if s != 0.0 and n > 1]
    if mitm_seconds(sizes, n_queries, settings.max_half) <= settings.exact_seconds:
        return GridDistribution(form, grid, max_half=settings.max_half, n_queries=n_queries)
    return grid_lattice(form, grid, size=settings.lattice_size)


def probabilities(bounds: dict, total: int | float) -> dict[str, tuple[float, float]]:
    """(lower, upper) probabilities of ``<``, ``==`` and ``>`` a query from count bounds."""

    def p(v):
        return float(Fraction(int(v), int(total))) if isinstance(total, int) else float(v) / total

    less = (p(bounds["less_lo"][0]), p(bounds["less_hi"][0]))
    le = (p(bounds["le_lo"][0]), p(bounds["le_hi"][0]))
    tie = (max(0.0, le[0] - less[1]), le[1] - less[0])
    greater = (1.0 - le[1], 1.0 - le[0])
    return {"less": less, "tie": tie, "greater": greater}


def extremes(form: LinearForm, grid: ProductGrid | None) -> dict[str, Any]:
    """Exact min and max over the space and a kappa attaining each (trivial per class).

    pd is affine in kappa, so each class independently takes the end of its values that
    lowers (raises) ``slope_i * kappa_i``; uniform kappa uses the cube's ends 0 and 1. Classes
    with slope 0 do not matter; they get their smallest value and are counted in ``n_free``.

    Returns
    -------
    dict
        ``min, argmin, max, argmax`` (Fractions and lists of Fractions) and ``n_free``.
    """
    values = grid.values if grid is not None else ((Fraction(0), Fraction(1)),) * form.n_classes
    argmin, argmax = [], []
    for s, vals in zip(form.slopes, values):
        low, high = min(vals), max(vals)
        argmin.append(high if s < 0 else low)
        argmax.append(high if s > 0 else low)
    return {
        "min": form.value(argmin),
        "argmin": argmin,
        "max": form.value(argmax),
        "argmax": argmax,
        "n_free": sum(s == 0 for s in form.slopes),
    }


def moments(form: LinearForm, grid: ProductGrid | None) -> tuple[float, float]:
    """Exact mean and standard deviation over the space (independent per-class terms)."""
    mean, var = form.const, Fraction(0)
    for i, s in enumerate(form.slopes):
        if grid is None:
            mu, v = Fraction(1, 2), Fraction(1, 12)
        else:
            vals = grid.values[i]
            mu = sum(vals, Fraction(0)) / len(vals)
            v = sum(((x - mu) ** 2 for x in vals), Fraction(0)) / len(vals)
        mean += s * mu
        var += s * s * v
    return float(mean), math.sqrt(float(var))


def undefined_ratios(cm: ArrayLike, zero_division: ZeroDivision) -> list[tuple[int, str]]:
    """The 0/0 ratios of a count matrix that make pd undefined somewhere in kappa space.

    Parameters
    ----------
    cm : array (C, C)
        Rows actual, columns predicted.
    zero_division : {0.0, 1.0, "nan"}
        Value of a 0/0 ratio; only ``"nan"`` leaves a ratio undefined.

    Returns
    -------
    list of (int, str)
        ``(class index, "precision")`` for a class never predicted (pd undefined where
        ``kappa_i != 0``) and ``(class index, "recall")`` for a class that never occurs (pd
        undefined where ``kappa_i != 1``), in class order; empty under 0 and 1.
    """
    if not math.isnan(check_zero_division(zero_division)):
        return []
    counts = np.asarray(cm)
    predicted, actual = counts.sum(axis=0), counts.sum(axis=1)
    out = []
    for i in range(counts.shape[0]):
        if predicted[i] == 0:
            out.append((i, "precision"))
        if actual[i] == 0:
            out.append((i, "recall"))
    return out
