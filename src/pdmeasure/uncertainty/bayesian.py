"""Bayesian comparisons of two classifiers: across datasets, and within one dataset's folds.

Both follow ``baycomp`` (Benavoli, Corani, Demsar and Zaffalon 2017, "Time for a change: a
tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18(77)) and its
conventions: the difference is ``y - x``; ``p_left`` is the probability that x is better
(the difference is below ``-rope``), ``p_right`` that y is better, ``p_rope`` that they are
practically equivalent. They are written here with numpy and scipy so that the library keeps
no other dependency; the tests check them against ``baycomp`` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from scipy import special

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Posterior samples of the signed-rank test when none is given (baycomp's default).
DEFAULT_SIGNED_RANK_DRAWS = 50_000
_BLOCK = 10_000


def _pair(x, y) -> np.ndarray:
    a, b = np.asarray(x, dtype=float).ravel(), np.asarray(y, dtype=float).ravel()
    if a.shape != b.shape or a.size < 2:
        raise ValueError(f"x and y need the same length, at least 2; got {a.size} and {b.size}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("x and y must be finite (drop the datasets or folds with NaN first)")
    return b - a


def _check_rope(rope: float) -> float:
    if not np.isfinite(rope) or rope < 0:
        raise ValueError(f"rope must be >= 0, got {rope!r}")
    return float(rope)


def _heaviside(values: np.ndarray, threshold: float) -> np.ndarray:
    return (values > threshold) + 0.5 * (values == threshold)


def signed_rank(
    x: ArrayLike,
    y: ArrayLike,
    *,
    rope: float = 0.0,
    prior: float = 0.5,
    draws: int = DEFAULT_SIGNED_RANK_DRAWS,
    seed: int | np.random.Generator | None = None,
) -> tuple[float, float, float]:
    r"""Bayesian signed-rank test of paired scores, one pair per dataset.

    The differences :math:`z_j = y_j - x_j` and a pseudo-observation :math:`z_0 = 0` of weight
    ``prior`` get Dirichlet-process weights :math:`w \sim \mathrm{Dir}(\text{prior}, 1, \dots,
    1)`; in each posterior sample

    .. math:: \theta_{\text{right}} = \sum_{i,j} w_i w_j\, H(z_i + z_j - 2r), \qquad
              \theta_{\text{left}} = \sum_{i,j} w_i w_j\, H(-z_i - z_j - 2r),

    (H the Heaviside step, 1/2 at 0), :math:`\theta_{\text{rope}} = 1 - \theta_{\text{left}}
    - \theta_{\text{right}}`, and the probabilities are the shares of samples in which each of
    the three is the largest (Benavoli et al. 2014, "A Bayesian Wilcoxon signed-rank test
    based on the Dirichlet process", ICML; baycomp's ``SignedRankTest``).

    Parameters
    ----------
    x, y : array_like, shape (N,)
        Scores of the two classifiers on N datasets (N >= 2).
    rope : float, default 0
    prior : float, default 0.5
        Weight of the pseudo-observation at 0 (baycomp's default).
    draws : int, default 50000
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    p_left, p_rope, p_right : float
        ``p_rope`` is 0 when ``rope`` is 0.
    """
    diff = _pair(x, y)
    rope = _check_rope(rope)
    if prior <= 0:
        raise ValueError(f"prior must be > 0, got {prior!r}")
    z = np.concatenate(([0.0], diff))
    sums = z[:, None] + z[None, :]
    above = _heaviside(sums, 2 * rope)
    below = _heaviside(-sums, 2 * rope) if rope > 0 else 1.0 - above
    weights = np.ones(z.size)
    weights[0] = prior
    rng = np.random.default_rng(seed)
    counts = np.zeros(3)
    for start in range(0, int(draws), _BLOCK):
        w = rng.dirichlet(weights, size=min(_BLOCK, int(draws) - start))
        # Each sample's quadratic form w A w': a matrix product, then a row sum. With numpy's
        # einsum of the same ("si,ij,sj->s") a test of 20,000 draws on 4 datasets with a rope
        # took 8.8 ms, with this 4.7 ms (the same counts on the papers' 384 pairs).
        right = ((w @ above) * w).sum(axis=1)
        left = ((w @ below) * w).sum(axis=1) if rope > 0 else 1.0 - right
        middle = 1.0 - left - right if rope > 0 else np.zeros_like(right)
        counts += np.bincount(np.argmax(np.stack([left, middle, right], 1), 1), minlength=3)
    p_left, p_rope, p_right = counts / counts.sum()
    return float(p_left), float(p_rope), float(p_right)


def correlated_ttest(
    x: ArrayLike, y: ArrayLike, *, rope: float = 0.0, runs: int = 1
) -> tuple[float, float, float]:
    r"""Bayesian correlated t-test of paired per-fold scores of one dataset.

    The mean difference :math:`\bar d` of :math:`d = y - x` over the :math:`n` folds has the
    posterior Student t with :math:`n - 1` degrees of freedom, location :math:`\bar d` and
    scale :math:`\sqrt{(1/n + \rho/(1-\rho))\, s^2}`, where :math:`\rho = 1/k` is the
    correlation of k-fold cross-validation (Nadeau and Bengio 2003; Corani and Benavoli 2015,
    "A Bayesian approach for comparing cross-validated algorithms on multiple data sets",
    Machine Learning 100; baycomp's ``CorrelatedTTest``).

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Scores of the two classifiers on the same folds (``runs`` repetitions of k-fold CV,
        n = runs * k).
    rope : float, default 0
    runs : int, default 1

    Returns
    -------
    p_left, p_rope, p_right : float
        From the t distribution's CDF; with no variance, the certain answer for the side the
        mean lies on.
    """
    diff = _pair(x, y)
    rope = _check_rope(rope)
    n = diff.size
    if int(runs) != runs or runs < 1 or n % int(runs):
        raise ValueError(f"runs must be a whole number >= 1 dividing the {n} scores, got {runs!r}")
    folds = n / int(runs)
    if folds < 2:
        raise ValueError("each run needs at least 2 folds")
    mean = float(diff.mean())
    var = float(np.var(diff, ddof=1)) * (1.0 / n + 1.0 / (folds - 1.0))
    if var == 0:
        if rope == 0:
            right = float(mean > 0) + 0.5 * float(mean == 0)
            return 1.0 - right, 0.0, right
        left, right = float(mean < -rope), float(mean > rope)
        return left, 1.0 - left - right, right
    # The t distribution's CDF through scipy.special, which scipy.stats.t calls: the same
    # values, without importing scipy.stats (0.3 s and 48 MB more for every command).
    scale = np.sqrt(var)

    def below(x: float) -> float:  # P(T < x), for T the mean difference's t posterior
        return float(special.stdtr(n - 1, (x - mean) / scale))

    def above(x: float) -> float:  # P(T > x), by symmetry, as accurate in the tail as below
        return float(special.stdtr(n - 1, (mean - x) / scale))

    if rope == 0:
        right = above(0.0)
        return 1.0 - right, 0.0, right
    left, right = below(-rope), above(rope)
    return left, 1.0 - left - right, right
