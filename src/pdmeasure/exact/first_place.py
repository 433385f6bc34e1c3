"""Which classifier ranks first where in kappa space: shares and ranking robustness.

*Best-classifier share*: the fraction of the kappa space in which each classifier has the
highest pd. Over a product grid small enough it is counted by enumeration; otherwise (huge
grids, uniform kappa) it is a Monte Carlo estimate with a Wilson confidence interval
(:func:`wilson_interval`). Either way a near-tie at the top (float gap
within a rounding bound) is decided in exact arithmetic, so ties are counted exactly.

*Ranking robustness*: the smallest move of kappa, from the default vector (class shares,
paper 000 eq. 31), to a vector where a different classifier ranks first. pd is affine in
kappa, so "challenger B ranks first" is the polyhedron ``{kappa in [0,1]^C :
pd_B(kappa) >= pd_k(kappa) for all k}`` and the nearest point in L-inf or L1 is one linear
program (:func:`scipy.optimize.linprog`, HiGHS) per challenger. The distance is an infimum:
at the optimum the challenger ties the old winner; any further step makes it strictly better
whenever the region has an interior.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from scipy import special

from pdmeasure.exact.forms import LinearForm, ProductGrid, to_fraction

_EPS = float(np.finfo(float).eps)


def _coefficients(forms: Sequence[LinearForm]) -> tuple[np.ndarray, np.ndarray]:
    const = np.array([float(f.const) for f in forms])
    slopes = np.array([[float(s) for s in f.slopes] for f in forms])
    return const, slopes


def _identical_groups(forms: Sequence[LinearForm]) -> np.ndarray:
    """A group number per form: forms with exactly the same coefficients share one (two
    classifiers with the same pooled matrix tie everywhere). Exact coefficients are compared
    only between forms whose float copies are equal."""
    groups = np.arange(len(forms))
    for m, form in enumerate(forms):
        for r in range(m):
            if groups[r] != r:
                continue
            other = forms[r]
            if (
                form.const_float == other.const_float
                and np.array_equal(form.slopes_float, other.slopes_float)
                and (form.const, form.slopes) == (other.const, other.slopes)
            ):
                groups[m] = r
                break
    return groups


def _first_places(forms, kappa: np.ndarray, exact_kappa) -> tuple[np.ndarray, np.ndarray]:
    """Per classifier: vectors where it is the unique best, and where it ties for best.

    ``exact_kappa(row)`` returns the exact kappa (fractions) of a row, used for near-ties.
    Forms with identical coefficients tie wherever they are near the top: a near-tie among
    them alone needs no exact arithmetic, and between groups one member per group is
    evaluated.
    """
    const, slopes = _coefficients(forms)
    values = const + kappa @ slopes.T
    top = values.max(axis=1)
    tol = (
        8.0
        * (kappa.shape[1] + 2)
        * _EPS
        * (np.abs(slopes).sum(axis=1).max() + np.abs(const).max() + 1.0)
    )
    near = values >= (top - 2 * tol)[:, None]
    n_near = near.sum(axis=1)
    unique = np.zeros(len(forms), dtype=np.int64)
    tied = np.zeros(len(forms), dtype=np.int64)
    clear = n_near == 1
    unique += np.bincount(values[clear].argmax(axis=1), minlength=len(forms))
    if clear.all():
        return unique, tied
    groups = _identical_groups(forms)
    heads = np.unique(groups)
    # Rows whose near forms all belong to one group of identical forms: all of them tie.
    near_heads = np.stack([near[:, groups == h].any(axis=1) for h in heads], axis=1)
    one_group = ~clear & (near_heads.sum(axis=1) == 1)
    per_head = near_heads[one_group].sum(axis=0)
    for h, count in zip(heads, per_head):
        tied[groups == h] += count
    for row in np.flatnonzero(~clear & ~one_group):
        k = exact_kappa(row)
        candidates = [int(h) for h in heads[near_heads[row]]]
        exact = {h: forms[h].value(k) for h in candidates}
        best = max(exact.values())
        winners = np.flatnonzero(np.isin(groups, [h for h, v in exact.items() if v == best]))
        if len(winners) == 1:
            unique[winners[0]] += 1
        else:
            tied[winners] += 1
    return unique, tied


def _first_places_on_grid(forms: Sequence[LinearForm], grid: ProductGrid, digits: np.ndarray):
    """:func:`_first_places` at the grid vectors whose value indices are the rows of ``digits``."""
    floats = grid.float_values()
    kappa = np.stack([floats[i][digits[:, i]] for i in range(grid.n_classes)], axis=1)

    def exact_kappa(row):
        return [grid.values[i][d] for i, d in enumerate(digits[row])]

    return _first_places(forms, kappa, exact_kappa)


def shares_enumerated(
    forms: Sequence[LinearForm], grid: ProductGrid, *, chunk_size: int = 65536
) -> tuple[np.ndarray, np.ndarray]:
    """Exact counts of first places over every vector of ``grid``.

    Returns
    -------
    unique, tied : array (M,) of int
        Vectors where classifier m is the only best; vectors where it ties for best.
    """
    unique = np.zeros(len(forms), dtype=np.int64)
    tied = np.zeros(len(forms), dtype=np.int64)
    for start in range(0, grid.n_vectors, chunk_size):
        idx = np.arange(start, min(start + chunk_size, grid.n_vectors), dtype=np.int64)
        u, t = _first_places_on_grid(
            forms, grid, np.stack(np.unravel_index(idx, grid.sizes), axis=1)
        )
        unique += u
        tied += t
    return unique, tied


def shares_monte_carlo(
    forms: Sequence[LinearForm],
    grid: ProductGrid | None,
    *,
    samples: int,
    seed: int,
    chunk_size: int = 65536,
) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo counts of first places: kappa uniform on ``grid``, or on [0,1]^C if None.

    Returns ``unique, tied`` as in :func:`shares_enumerated`, out of ``samples`` draws.
    """
    rng = np.random.default_rng(seed)
    n_classes = forms[0].n_classes
    unique = np.zeros(len(forms), dtype=np.int64)
    tied = np.zeros(len(forms), dtype=np.int64)
    for start in range(0, samples, chunk_size):
        n = min(chunk_size, samples - start)
        if grid is None:
            kappa = rng.random((n, n_classes))

            def exact_kappa(row, kappa=kappa):
                return [Fraction(float(v)) for v in kappa[row]]

            u, t = _first_places(forms, kappa, exact_kappa)
        else:
            digits = np.stack([rng.integers(0, s, n) for s in grid.sizes], axis=1)
            u, t = _first_places_on_grid(forms, grid, digits)
        unique += u
        tied += t
    return unique, tied


def wilson_interval(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    r"""Two-sided Wilson score interval of a binomial proportion (Newcombe 1998, method 3).

    With :math:`p = k/n` and :math:`z = \Phi^{-1}(1/2 + \text{confidence}/2)`,

    .. math::

        \frac{2np + z^2}{2(n + z^2)} \mp \frac{z}{2(n + z^2)} \sqrt{4np(1 - p) + z^2},

    with 0 as the lower bound when ``k = 0`` and 1 as the upper when ``k = n``. This is
    ``scipy.stats.binomtest(k, n).proportion_ci(confidence, method="wilson")``, written out
    with :func:`scipy.special.ndtri` in scipy's order of operations, so the bits are the same
    (tests/unit/test_exact.py): rule analyse computes it for every dataset, and scipy.stats
    costs its process 0.65 CPU-s to import.
    """
    k, n = int(successes), int(trials)
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {k} of {n}")
    if not 0 <= confidence <= 1:
        raise ValueError(f"confidence must be in [0, 1], got {confidence}")
    p = k / n
    z = special.ndtri(0.5 + 0.5 * confidence)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * np.sqrt(4 * n * p * (1 - p) + z**2)
    low = 0.0 if k == 0 else center - delta
    high = 1.0 if k == n else center + delta
    return float(low), float(high)


def nearest_first_place(
    forms: Sequence[LinearForm], challenger: int, kappa0: Sequence, norm: str
) -> tuple[float, np.ndarray | None, str]:
    """Smallest move of kappa from ``kappa0`` after which ``challenger`` ranks first.

    Solves, with :func:`scipy.optimize.linprog` (HiGHS),

    - ``norm="linf"``: min t  s.t. ``|kappa_i - kappa0_i| <= t``,
    - ``norm="l1"``:   min sum u_i  s.t. ``|kappa_i - kappa0_i| <= u_i``,

    both with ``0 <= kappa_i <= 1`` and ``C * (pd_k - pd_B)(kappa) <= 0`` for every other
    classifier k (pd is affine in kappa, paper 000 eq. 30).

    Returns
    -------
    distance : float
        ``inf`` if the challenger ranks first nowhere in the cube.
    kappa : array (C,) or None
    status : str
        ``"optimal"``, ``"never-first"`` or the solver's message.
    """
    # Imported here: scipy.optimize costs every ``pdmeasure`` command about 0.3 s.
    from scipy.optimize import linprog

    if norm not in ("linf", "l1"):
        raise ValueError(f"norm must be 'linf' or 'l1', got {norm!r}")
    c_dim = forms[challenger].n_classes
    k0 = np.array([float(to_fraction(v)) for v in kappa0])
    const, slopes = _coefficients(forms)
    others = [k for k in range(len(forms)) if k != challenger]
    # Rows scaled by C: slopes become p_i - r_i in [-1, 1], better conditioned.
    rank_rows = (slopes[others] - slopes[challenger]) * c_dim
    rank_rhs = (const[challenger] - const[others]) * c_dim
    n_aux = 1 if norm == "linf" else c_dim
    eye = np.eye(c_dim)
    aux = -np.ones((c_dim, 1)) if norm == "linf" else -eye
    a_ub = np.vstack(
        [
            np.hstack([rank_rows, np.zeros((len(others), n_aux))]),
            np.hstack([eye, aux]),
            np.hstack([-eye, aux]),
        ]
    )
    b_ub = np.concatenate([rank_rhs, k0, -k0])
    cost = np.concatenate([np.zeros(c_dim), np.ones(n_aux)])
    bounds = [(0.0, 1.0)] * c_dim + [(0.0, None)] * n_aux
    result = linprog(cost, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs")
    if result.status == 2:
        return float("inf"), None, "never-first"
    if result.status != 0:
        raise RuntimeError(f"linprog failed for challenger {challenger}: {result.message}")
    kappa = np.clip(result.x[:c_dim], 0.0, 1.0)
    return float(result.fun), kappa, "optimal"
