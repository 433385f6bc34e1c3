"""Uncertainty of every measure: intervals, probabilities of superiority and of every rank.

Two sources of draws, both stacks of confusion matrices ``(draws, ..., C, C)`` that every
registry measure and pd at any kappa accept:

- :func:`posterior_draws`: the posterior of a matrix from its counts alone (each actual
  class a multinomial sample with a Dirichlet posterior; Caelen 2017, Totsch and Hoffmann
  2021);
- :func:`bootstrap_draws`: a stratified bootstrap of the test samples, the same resampled
  samples for every classifier (paired); :func:`matrix_bootstrap_draws` the same bootstrap
  of one classifier from its counts alone (multinomial rows).

From either: :func:`measure_draws` (every registry measure and pd at named kappa vectors),
:func:`interval`, :func:`pairwise_probabilities` (with a region of practical equivalence),
:func:`rank_probabilities`, and :func:`preference_robust` (P(A beats B) jointly over the
matrices and a kappa region). Across datasets, :func:`signed_rank` (Bayesian signed-rank
test); within a dataset's folds, :func:`correlated_ttest` (Bayesian correlated t-test), both
as in ``baycomp`` (Benavoli et al. 2017, JMLR 18(77)).

Everything is seeded (``seed``: an int or a ``numpy.random.Generator``) and deterministic.
Coverage of the intervals, measured by simulation: ``docs/uncertainty.md``.

Example
-------
>>> import numpy as np
>>> from pdmeasure import uncertainty as unc
>>> cm = np.array([[100, 10, 10], [10, 80, 30], [1, 10, 30]])
>>> draws = unc.posterior_draws(cm, 4000, seed=0)
>>> values = unc.measure_draws(draws, kappas={"authors": [0.3, 0.1, 0.9]})
>>> lower, upper = unc.interval(values["preference_driven[authors]"], 0.95)
>>> bool(lower < 0.6641628736750688 < upper)
True
"""

from pdmeasure.uncertainty.bayesian import (
    DEFAULT_SIGNED_RANK_DRAWS,
    correlated_ttest,
    signed_rank,
)
from pdmeasure.uncertainty.draws import (
    DEFAULT_DRAWS,
    bootstrap_draws,
    default_prior,
    matrix_bootstrap_draws,
    posterior_draws,
)
from pdmeasure.uncertainty.robust import DEFAULT_KAPPA_DRAWS, preference_robust
from pdmeasure.uncertainty.summaries import (
    DEFAULT_LEVEL,
    check_level,
    interval,
    measure_draws,
    pairwise_probabilities,
    pd_key,
    rank_probabilities,
)

__all__ = [
    "DEFAULT_DRAWS",
    "DEFAULT_KAPPA_DRAWS",
    "DEFAULT_LEVEL",
    "DEFAULT_SIGNED_RANK_DRAWS",
    "bootstrap_draws",
    "check_level",
    "default_prior",
    "correlated_ttest",
    "interval",
    "matrix_bootstrap_draws",
    "measure_draws",
    "pairwise_probabilities",
    "pd_key",
    "posterior_draws",
    "preference_robust",
    "rank_probabilities",
    "signed_rank",
]
