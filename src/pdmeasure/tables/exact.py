"""The exact analysis of one (engine, dataset) as tidy tables (:class:`DatasetAnalysis`).

Three kappa spaces are analysed for every set of pooled confusion matrices:

``grid``
    the dataset's configured product grid (paper 000, Section 5.1: car 11**4, nursery 7**5,
    dermatology 5**6, krkopt 2**18);
``fine``
    the evenly spaced grid with ``exact.fine_grid_values`` values per class (11**18 vectors on
    krkopt, which the paper could not enumerate);
``uniform``
    kappa uniform on [0, 1]^C.

Distributions are exact (:class:`~pdmeasure.exact.grid.GridDistribution`) when meet in the
middle fits ``max_half`` partial sums per half and its estimated time is within
``exact_seconds`` (:func:`pdmeasure.exact.analysis.distribution`), otherwise lattice bounds
(:mod:`pdmeasure.exact.lattice`); win probabilities under uniform kappa are exact per pair
(:mod:`pdmeasure.exact.uniform`) for fewer than 9 classes, identical classifiers and pairs
whose answer is 0 or 1; every other pair comes from one batched series over all pairs
(:mod:`pdmeasure.exact.series`, method ``series``, a rigorous error bound of at most 1e-12),
and a pair the series cannot bound that tightly falls back to the exact per-pair sum within
its budgets, else lattice bounds. Every table carries a ``method`` column and, where it
applies, ``error_bound`` (0 for exact results).

Classifiers with an undefined pd (``zero_division="nan"``)
-----------------------------------------------------------
Under ``zero_division="nan"`` a 0/0 precision (a class never predicted) or recall (a class
that never occurs) makes pd undefined wherever that ratio has a non-zero weight, so pd is no
linear form over the whole kappa space and has no exact distribution. Such a classifier is
left out of every table, with a logging warning naming the engine, dataset, classifier and
class and the fix (``zero_division`` 0 or 1); the other classifiers are analysed as usual.
With fewer than two classifiers left the pairwise tables (``win``, ``robustness``) are empty;
with none left every table is. Every table keeps its columns when empty (see the
``*_COLUMNS`` constants), so a header-only CSV is written and read back.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np
import pandas as pd

from pdmeasure.exact.analysis import (
    ExactSettings,
    distribution,
    extremes,
    moments,
    probabilities,
    undefined_ratios,
)
from pdmeasure.exact.first_place import (
    nearest_first_place,
    shares_enumerated,
    shares_monte_carlo,
    wilson_interval,
)
from pdmeasure.exact.forms import LinearForm, ProductGrid, class_shares, pd_form
from pdmeasure.exact.lattice import uniform_lattice
from pdmeasure.exact.series import uniform_wins
from pdmeasure.exact.uniform import TooManyTerms, uniform_cdf
from pdmeasure.measures.weights import format_kappa
from pdmeasure.tables.frames import frame_from_parts

SPACES = ("grid", "fine", "uniform")
NORMS = ("linf", "l1")

#: Columns of the tables of :meth:`DatasetAnalysis.tables` (kept when a table is empty).
SUMMARY_COLUMNS = (
    "engine",
    "dataset",
    "classifier",
    "space",
    "n_vectors",
    "min",
    "argmin",
    "max",
    "argmax",
    "mean",
    "std",
    "n_free_classes",
    "pd_default",
)
CDF_COLUMNS = (
    "engine",
    "dataset",
    "classifier",
    "space",
    "x",
    "cdf_lower",
    "cdf_upper",
    "method",
    "error_bound",
)
HISTOGRAM_COLUMNS = (
    "engine",
    "dataset",
    "classifier",
    "space",
    "bin_left",
    "bin_right",
    "count_lower",
    "count_upper",
    "p_lower",
    "p_upper",
    "method",
)
WIN_COLUMNS = (
    "engine",
    "dataset",
    "space",
    "classifier_a",
    "classifier_b",
    "p_greater",
    "p_tie",
    "p_less",
    "error_bound",
    "method",
    "n_vectors",
)
SHARE_COLUMNS = (
    "engine",
    "dataset",
    "space",
    "classifier",
    "p_first",
    "p_tied_first",
    "ci_low",
    "ci_high",
    "confidence",
    "method",
    "n",
)
ROBUSTNESS_COLUMNS = (
    "engine",
    "dataset",
    "norm",
    "winner",
    "challenger",
    "distance",
    "kappa_values",
    "pd_winner",
    "pd_challenger",
    "pd_winner_default",
    "default_kappa_values",
    "status",
)
ROBUSTNESS_SUMMARY_COLUMNS = (
    "engine",
    "dataset",
    "norm",
    "winner",
    "new_winner",
    "distance",
    "kappa_values",
    "default_kappa_values",
    "status",
)

_LOG = logging.getLogger(__name__)


def _space_grid(space: str, grid_values: Sequence | None, n_classes: int, settings: ExactSettings):
    if space == "grid":
        assert grid_values is not None  # "grid" is a space only when values are configured
        return ProductGrid.regular(grid_values, n_classes)
    if space == "fine":
        return ProductGrid.evenly_spaced(settings.fine_grid_values, n_classes)
    if space == "uniform":
        return None
    raise ValueError(f"unknown kappa space {space!r}; expected one of {SPACES}")


def _kappa_text(vector) -> str:
    return format_kappa([round(float(v), 6) for v in vector])


def _check_same_shares(matrices: Mapping[str, np.ndarray]) -> list[Fraction]:
    shares = {name: class_shares(cm) for name, cm in matrices.items()}
    first = next(iter(shares.values()))
    differing = [name for name, s in shares.items() if s != first]
    if differing:
        raise ValueError(
            f"classifiers {differing} have other actual-class counts than "
            f"{next(iter(shares))}; the matrices do not come from the same data"
        )
    return first


def _undefined_message(
    engine: str,
    dataset: str,
    classifier: str,
    ratios: Sequence[tuple[int, str]],
    classes: Sequence[str] | None,
) -> str:
    """The warning for a classifier left out of the exact analysis (see :class:`DatasetAnalysis`)."""
    parts = []
    for i, ratio in ratios:
        label = f"class {classes[i]!r} (index {i})" if classes is not None else f"class index {i}"
        if ratio == "precision":
            parts.append(
                f"{label} is never predicted, so its precision is 0/0 and pd is "
                f"undefined wherever kappa[{i}] != 0"
            )
        else:
            parts.append(
                f"{label} never occurs, so its recall is 0/0 and pd is undefined "
                f"wherever kappa[{i}] != 1"
            )
    return (
        f"{engine}/{dataset}: classifier {classifier!r} is left out of the exact analysis: "
        f"{'; '.join(parts)} (zero_division='nan'). To analyse it, set zero_division to 0 "
        f"(the papers' convention) or 1."
    )


def _cdf_rows(dist, points: np.ndarray, keys: Mapping[str, str]) -> tuple[int, dict]:
    """Rows of ``cdf.csv`` for one classifier and space (CDF bounds at ``points``), as their
    number and columns (a value or one per row), a part of
    :func:`~pdmeasure.tables.frames.frame_from_parts`."""
    b = dist.bounds(points)
    scale = float(dist.total)
    return len(points), {
        **keys,
        "x": points.tolist(),
        "cdf_lower": [float(v) / scale for v in b["le_lo"]],
        "cdf_upper": [float(v) / scale for v in b["le_hi"]],
        "method": dist.method,
        "error_bound": dist.error_bound,
    }


def _histogram_rows(
    dist, edges: np.ndarray, keys: Mapping[str, str], *, counts: bool
) -> tuple[int, dict]:
    """Rows of ``histogram.csv`` for one classifier and space, as :func:`_cdf_rows`: bin
    bounds as probabilities, and as counts of kappa vectors on a grid (``counts``; empty
    under uniform kappa)."""
    lower, upper = dist.histogram_bounds(edges)
    scale = float(dist.total)
    return len(edges) - 1, {
        **keys,
        "bin_left": np.round(edges[:-1], 12).tolist(),
        "bin_right": np.round(edges[1:], 12).tolist(),
        "count_lower": [int(v) for v in lower] if counts else "",
        "count_upper": [int(v) for v in upper] if counts else "",
        "p_lower": [float(v) / scale for v in lower],
        "p_upper": [float(v) / scale for v in upper],
        "method": dist.method,
    }


class DatasetAnalysis:
    """All exact results for the pooled matrices of one engine and dataset.

    Under ``zero_division="nan"`` a classifier with a 0/0 precision or recall (see
    :func:`undefined_ratios`) has no pd over the whole kappa space: it is left out of every
    table, with a logging warning that names engine, dataset, classifier and class and the
    fix (``zero_division`` 0 or 1). The remaining classifiers are analysed; with fewer than
    two the pairwise tables (win probabilities, robustness) are empty, with none every table
    is, always with its columns (:data:`SUMMARY_COLUMNS` and the others).

    Parameters
    ----------
    matrices : mapping
        Classifier name -> (C, C) count matrix, classes in the configured order.
    grid_values : sequence of float or None
        The dataset's configured kappa grid values (config ``datasets.<name>.kappa_grid``);
        None leaves the ``grid`` space out.
    settings : ExactSettings
    engine, dataset : str
        Written into every table.
    classes : sequence of str, optional
        Class names in the matrices' order, used to name a class in the warning about a
        classifier left out; without them the class is named by its position.
    spaces : sequence of str, optional
        The kappa spaces to analyse, a subset of :data:`SPACES` (default: all of them, the
        ``grid`` space only with ``grid_values``); ``pdmeasure compare`` asks for one.

    Attributes
    ----------
    names : list of str
        The classifiers analysed, in the order of ``matrices``.
    excluded : dict
        Classifier left out -> its undefined ratios (:func:`undefined_ratios`).
    """

    def __init__(
        self,
        matrices: Mapping[str, np.ndarray],
        grid_values: Sequence | None,
        settings: ExactSettings,
        *,
        engine: str,
        dataset: str,
        classes: Sequence[str] | None = None,
        spaces: Sequence[str] | None = None,
    ):
        if len(matrices) < 1:
            raise ValueError(f"{engine}/{dataset}: no confusion matrices to analyse")
        # Checked on every matrix, left out or not: they must come from the same data.
        self.kappa0 = _check_same_shares(matrices)
        self.n_classes = int(np.asarray(next(iter(matrices.values()))).shape[0])
        self.excluded: dict[str, list[tuple[int, str]]] = {}
        self.names = []
        for name, cm in matrices.items():
            ratios = undefined_ratios(cm, settings.zero_division)
            if ratios:
                self.excluded[name] = ratios
                _LOG.warning(_undefined_message(engine, dataset, name, ratios, classes))
            else:
                self.names.append(name)
        self.forms = [pd_form(matrices[n], settings.zero_division) for n in self.names]
        self.settings = settings
        self.keys = {"engine": engine, "dataset": dataset}
        # No configured grid (``kappa_grid: null``): only the fine grid and uniform kappa.
        available = [s for s in SPACES if s != "grid" or grid_values is not None]
        unknown = sorted(set(spaces or ()) - set(available))
        if unknown:
            raise ValueError(f"unknown kappa space(s) {unknown}; expected some of {available}")
        spaces = [s for s in available if spaces is None or s in spaces]
        self.grids = {s: _space_grid(s, grid_values, self.n_classes, settings) for s in spaces}

    def _n_vectors(self, space: str):
        grid = self.grids[space]
        return "" if grid is None else str(grid.n_vectors)

    def summary(self) -> pd.DataFrame:
        """Min, max (with the kappa attaining them), mean and std per classifier and space."""
        rows = []
        for space, grid in self.grids.items():
            for name, form in zip(self.names, self.forms):
                ext = extremes(form, grid)
                mean, std = moments(form, grid)
                rows.append(
                    {
                        **self.keys,
                        "classifier": name,
                        "space": space,
                        "n_vectors": self._n_vectors(space),
                        "min": float(ext["min"]),
                        "argmin": _kappa_text(ext["argmin"]),
                        "max": float(ext["max"]),
                        "argmax": _kappa_text(ext["argmax"]),
                        "mean": mean,
                        "std": std,
                        "n_free_classes": ext["n_free"],
                        "pd_default": float(form.value(self.kappa0)),
                    }
                )
        return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))

    def distributions(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """CDF on a common set of points, and histogram bounds (bins of ``bin_width``)."""
        cdf_parts, hist_parts = [], []
        edges = self._edges()
        if not self.forms:  # every classifier left out: empty tables with their columns
            return (
                pd.DataFrame(columns=list(CDF_COLUMNS)),
                pd.DataFrame(columns=list(HISTOGRAM_COLUMNS)),
            )
        for space, grid in self.grids.items():
            points = self._cdf_points(grid)
            for name, dist in self._distributions(space, len(points) + len(edges)):
                # Both calls below (CDF points, histogram edges) share one distribution.
                keys = {**self.keys, "classifier": name, "space": space}
                cdf_parts.append(_cdf_rows(dist, points, keys))
                hist_parts.append(_histogram_rows(dist, edges, keys, counts=grid is not None))
        return frame_from_parts(cdf_parts, CDF_COLUMNS), frame_from_parts(
            hist_parts, HISTOGRAM_COLUMNS
        )

    def histogram(self, space: str) -> pd.DataFrame:
        """The rows of :meth:`distributions`' histogram for one space (a key of ``grids``),
        the same values, without computing the CDF or the other spaces."""
        edges = self._edges()
        if not self.forms:
            return pd.DataFrame(columns=list(HISTOGRAM_COLUMNS))
        grid = self.grids[space]
        # The same distributions as distributions() builds: their method depends on how many
        # points are asked for, the CDF points among them.
        n_queries = len(self._cdf_points(grid)) + len(edges)
        parts = [
            _histogram_rows(
                dist,
                edges,
                {**self.keys, "classifier": name, "space": space},
                counts=grid is not None,
            )
            for name, dist in self._distributions(space, n_queries)
        ]
        return frame_from_parts(parts, HISTOGRAM_COLUMNS)

    def _distributions(self, space: str, n_queries: int):
        """(classifier, distribution of its pd over the space) for every analysed classifier,
        each built for ``n_queries`` query points."""
        grid = self.grids[space]
        for name, form in zip(self.names, self.forms):
            yield name, distribution(form, grid, self.settings, n_queries=n_queries)

    def _edges(self) -> np.ndarray:
        """The histogram's bin edges: [0, 1] cut into bins of ``bin_width``."""
        width = self.settings.bin_width
        n_bins = round(1.0 / width)
        if abs(n_bins * width - 1.0) > 1e-9:
            raise ValueError(f"exact.bin_width={width!r} does not divide [0, 1] into whole bins")
        return np.linspace(0.0, 1.0, n_bins + 1)

    def _cdf_points(self, grid) -> np.ndarray:
        """The common CDF points of one space: ``cdf_points`` evenly spaced from the lowest to
        the highest pd of any classifier, plus every classifier's own extremes."""
        ranges = [extremes(f, grid) for f in self.forms]
        low = min(float(r["min"]) for r in ranges)
        high = max(float(r["max"]) for r in ranges)
        return np.unique(
            np.concatenate(
                [
                    np.linspace(low, high, self.settings.cdf_points),
                    [float(r[k]) for r in ranges for k in ("min", "max")],
                ]
            )
        )

    def _uniform_win(self, diff: LinearForm):
        try:
            less = uniform_cdf(
                diff,
                0,
                max_terms=self.settings.uniform_max_terms,
                max_seconds=self.settings.uniform_exact_seconds,
            )
        except TooManyTerms:
            dist = uniform_lattice(diff, size=self.settings.lattice_size)
            return probabilities(dist.bounds([0.0]), 1.0), dist.method, dist.error_bound
        if all(s == 0 for s in diff.slopes):  # a point mass at diff.const
            tie = Fraction(int(diff.const == 0))
            less = Fraction(int(diff.const < 0))
        else:
            tie = Fraction(0)
        probs = {"less": less, "tie": tie, "greater": 1 - less - tie}
        return {k: (float(v), float(v)) for k, v in probs.items()}, "exact", 0.0

    def win_probabilities(self, *, batched: bool = True) -> pd.DataFrame:
        """P(pd_A > pd_B), P(tie), P(pd_A < pd_B) for every ordered pair and space.

        Point values are the midpoints of the bounds; ``error_bound`` is the half-width of the
        widest of the three intervals (0 when exact). Under uniform kappa the pairs go in one
        batch through :func:`pdmeasure.exact.series.uniform_wins` (method ``series``, error
        bound about 1e-13, or ``exact``); a pair it leaves out, and every pair with
        ``batched=False`` (the slow per-pair reference), takes the exact inclusion-exclusion
        sum within its budgets, else the lattice.
        """
        rows = []
        pairs = [(a, b) for a in range(len(self.forms)) for b in range(a + 1, len(self.forms))]
        for space, grid in self.grids.items():
            fast = (
                uniform_wins(self.forms, pairs) if grid is None and batched else [None] * len(pairs)
            )
            for (a, b), got in zip(pairs, fast):
                if got is not None:
                    less, tie, half, method = got
                    mid = {"less": less, "tie": tie, "greater": 1.0 - less - tie}
                else:
                    diff = self.forms[a] - self.forms[b]
                    if grid is None:
                        probs, method, _ = self._uniform_win(diff)
                    else:
                        dist = distribution(diff, grid, self.settings)
                        probs = probabilities(dist.bounds([0]), dist.total)
                        method = dist.method
                    mid = {k: (lo + hi) / 2 for k, (lo, hi) in probs.items()}
                    half = max((hi - lo) / 2 for lo, hi in probs.values())
                common = {
                    **self.keys,
                    "space": space,
                    "n_vectors": self._n_vectors(space),
                    "error_bound": half,
                    "method": method,
                }
                for first, second, gt, lt in (
                    (a, b, "greater", "less"),
                    (b, a, "less", "greater"),
                ):
                    rows.append(
                        {
                            **common,
                            "classifier_a": self.names[first],
                            "classifier_b": self.names[second],
                            "p_greater": mid[gt],
                            "p_tie": mid["tie"],
                            "p_less": mid[lt],
                        }
                    )
        return pd.DataFrame(rows, columns=list(WIN_COLUMNS))

    def shares(self) -> pd.DataFrame:
        """Share of each space in which each classifier ranks first (alone, or tied)."""
        rows = []
        s = self.settings
        if not self.forms:
            return pd.DataFrame(columns=list(SHARE_COLUMNS))
        for space, grid in self.grids.items():
            if grid is not None and grid.n_vectors <= s.enumeration_limit:
                unique, tied = shares_enumerated(self.forms, grid)
                n, method = grid.n_vectors, "enumeration"
            else:
                unique, tied = shares_monte_carlo(
                    self.forms, grid, samples=s.monte_carlo_samples, seed=s.seed
                )
                n, method = s.monte_carlo_samples, "monte-carlo"
            for name, u, t in zip(self.names, unique, tied):
                if method == "enumeration":
                    low = high = float(Fraction(int(u), n))
                else:
                    low, high = wilson_interval(int(u), n, s.confidence)
                rows.append(
                    {
                        **self.keys,
                        "space": space,
                        "classifier": name,
                        "p_first": float(Fraction(int(u), n)),
                        "p_tied_first": float(Fraction(int(t), n)),
                        "ci_low": low,
                        "ci_high": high,
                        "confidence": s.confidence,
                        "method": method,
                        "n": n,
                    }
                )
        return pd.DataFrame(rows, columns=list(SHARE_COLUMNS))

    def robustness(self) -> pd.DataFrame:
        """Per challenger and norm: the smallest kappa move from the default making it first.

        Empty (with its columns) when fewer than two classifiers are analysed.
        """
        if len(self.forms) < 2:
            return pd.DataFrame(columns=list(ROBUSTNESS_COLUMNS))
        default = [f.value(self.kappa0) for f in self.forms]
        best = max(default)
        winner = default.index(best)
        rows = []
        for norm in NORMS:
            for c, name in enumerate(self.names):
                if c == winner:
                    continue
                kappa: np.ndarray | None
                if default[c] == best:
                    distance, kappa, status = (
                        0.0,
                        np.array([float(v) for v in self.kappa0]),
                        "tied-at-default",
                    )
                else:
                    distance, kappa, status = nearest_first_place(self.forms, c, self.kappa0, norm)
                at = None
                if kappa is not None:
                    point = [Fraction(float(v)) for v in kappa]
                    at = lambda f, point=point: float(f.value(point))  # noqa: E731
                rows.append(
                    {
                        **self.keys,
                        "norm": norm,
                        "winner": self.names[winner],
                        "challenger": name,
                        "distance": distance,
                        "kappa_values": "" if kappa is None else _kappa_text(kappa),
                        "pd_winner": at(self.forms[winner]) if at else float("nan"),
                        "pd_challenger": at(self.forms[c]) if at else float("nan"),
                        "pd_winner_default": float(best),
                        "default_kappa_values": _kappa_text(self.kappa0),
                        "status": status,
                    }
                )
        return pd.DataFrame(rows, columns=list(ROBUSTNESS_COLUMNS))

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table: ``summary, cdf, histogram, win, share, robustness``."""
        cdf, histogram = self.distributions()
        return {
            "summary": self.summary(),
            "cdf": cdf,
            "histogram": histogram,
            "win": self.win_probabilities(),
            "share": self.shares(),
            "robustness": self.robustness(),
        }


def robustness_summary(robustness: pd.DataFrame) -> pd.DataFrame:
    """One row per engine, dataset and norm: the nearest challenger (the fragility number).

    Columns :data:`ROBUSTNESS_SUMMARY_COLUMNS`, also when ``robustness`` is empty (no
    dataset with two analysed classifiers).
    """
    if robustness.empty:
        return pd.DataFrame(columns=list(ROBUSTNESS_SUMMARY_COLUMNS))
    ordered = robustness.sort_values(
        ["engine", "dataset", "norm", "distance", "challenger"], kind="stable"
    )
    best = ordered.groupby(["engine", "dataset", "norm"], sort=False).head(1)
    return best.rename(columns={"challenger": "new_winner"})[
        list(ROBUSTNESS_SUMMARY_COLUMNS)
    ].reset_index(drop=True)
