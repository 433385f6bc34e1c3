"""Exact analysis of the whole kappa space.

pd is affine in kappa (paper 000, eq. 30)::

    pd(kappa) = mean_i r_i + (1/C) sum_i kappa_i (p_i - r_i)

so over a product grid its values, and the differences ``pd_A - pd_B`` of two classifiers,
are sums of independent per-class terms. This package computes, without enumerating the grid:

- exact distributions over product grids (:class:`GridDistribution`, meet in the middle with
  exact rational tie-breaking, every query point in one sweep), lattice distributions with
  rigorous bounds for grids too large or too slow for that (a fixed cost model decides, see
  :func:`distribution`; counts in float64 past 2**63 vectors) and for kappa uniform on
  [0, 1]^C (:func:`grid_lattice`, :func:`uniform_lattice`), and the exact piecewise-polynomial
  CDF under uniform kappa within a term and time budget (:func:`uniform_cdf`);
- win probabilities under uniform kappa for many pairs of classifiers at once, as a Fourier
  series with a rigorous error bound of about 1e-13 (:func:`uniform_wins`,
  :func:`uniform_cdf_series`);
- exact minimum and maximum with the kappa attaining them (:func:`extremes`);
- best-classifier shares and ranking robustness by linear programming (``first_place``).

The tidy tables of one engine and dataset (win probabilities, shares, robustness) are built
from these by :class:`pdmeasure.tables.exact.DatasetAnalysis`.

Modules: ``forms`` (pd as a linear form, kappa grids), ``grid``, ``lattice``, ``uniform``,
``series`` (batched win probabilities), ``first_place`` (shares, LP), ``analysis``
(distribution, extremes, moments of one form).
"""

from pdmeasure.exact.analysis import (
    ExactSettings,
    distribution,
    extremes,
    moments,
    undefined_ratios,
)
from pdmeasure.exact.first_place import (
    nearest_first_place,
    shares_enumerated,
    shares_monte_carlo,
    wilson_interval,
)
from pdmeasure.exact.forms import (
    LinearForm,
    ProductGrid,
    class_rates_exact,
    class_shares,
    pd_form,
    to_fraction,
)
from pdmeasure.exact.grid import GridDistribution, largest_half
from pdmeasure.exact.lattice import LatticeDistribution, grid_lattice, uniform_lattice
from pdmeasure.exact.series import uniform_cdf_series, uniform_wins
from pdmeasure.exact.uniform import TooManyTerms, uniform_cdf

__all__ = [
    "ExactSettings",
    "GridDistribution",
    "LatticeDistribution",
    "LinearForm",
    "ProductGrid",
    "TooManyTerms",
    "class_rates_exact",
    "class_shares",
    "distribution",
    "extremes",
    "grid_lattice",
    "largest_half",
    "moments",
    "nearest_first_place",
    "pd_form",
    "undefined_ratios",
    "shares_enumerated",
    "shares_monte_carlo",
    "to_fraction",
    "uniform_cdf",
    "uniform_cdf_series",
    "uniform_lattice",
    "uniform_wins",
    "wilson_interval",
]
