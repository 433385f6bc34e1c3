"""What the interactive kappa explorer shows, computed: one JSON-ready dict per dataset.

:func:`explorer_data` checks the matrices of one dataset, runs the exact analysis
(:class:`~pdmeasure.tables.exact.DatasetAnalysis`) over the page's kappa grid and uniform
kappa, and gathers the matrices, the default kappa, the exact pd histograms, the win
probabilities of each pair and, when given, the uncertainty draws. The pipeline writes it as
``explorer/{engine}/{dataset}.json`` (rule ``analyse``); :mod:`pdmeasure.render.explorer`
turns it into the page (rule ``render``).
Kappa grid
----------
The histograms and the grid win probabilities are over a product grid with the same values
for every class: ``grid_values`` when given (a dataset's configured ``kappa_grid``), else
:func:`default_grid`, evenly spaced values in [0, 1]: 11 per class (0, 0.1, ..., 1) while the
grid has at most :data:`DEFAULT_GRID_MAX_VECTORS` vectors (up to 6 classes), else the most
values per class that stay within that bound (10 for 7 classes, 8 for 8, 6 for 9, 5 for 10,
4 for 11 and 12, 3 for 13 to 15), and never fewer than 2 (the corners {0, 1}**C from 16
classes on). The bound keeps the exact analysis quick: it counts such a grid without
enumerating it, but its meet-in-the-middle search grows with the square root of the number of
vectors. Win probabilities are also given for kappa uniform on [0, 1]**C.
"""

from __future__ import annotations

import base64
import json
import math
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision, check_zero_division
from pdmeasure.exact import ExactSettings
from pdmeasure.tables.exact import DatasetAnalysis
from pdmeasure.tables.io import write_text

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: Bin width of the embedded pd histograms.
HISTOGRAM_BIN_WIDTH = 0.02
#: Values per class of the default kappa grid (when none is given and the grid is small enough).
DEFAULT_GRID_VALUES = 11
#: Largest default grid (vectors); more classes get fewer values per class (see the module).
DEFAULT_GRID_MAX_VECTORS = 2**24
#: Monte Carlo samples of the exact analysis's share estimates (not shown by the explorer).
_MONTE_CARLO = 1000


def default_grid(n_classes: int) -> list[float]:
    """The default kappa values of every class: evenly spaced in [0, 1].

    Parameters
    ----------
    n_classes : int
        C, the number of classes.

    Returns
    -------
    list of float
        :data:`DEFAULT_GRID_VALUES` values (0, 0.1, ..., 1) if that grid has at most
        :data:`DEFAULT_GRID_MAX_VECTORS` vectors, else the most values ``v`` with
        ``v**C <= DEFAULT_GRID_MAX_VECTORS``, but at least 2 (0 and 1).
    """
    values = DEFAULT_GRID_VALUES
    while values > 2 and values**n_classes > DEFAULT_GRID_MAX_VECTORS:
        values -= 1
    return [round(v, 12) for v in np.linspace(0.0, 1.0, values)]


def explorer_data(
    matrices: Mapping[str, np.ndarray],
    labels: Sequence[str],
    *,
    dataset: str = "",
    grid_values: Sequence[float] | None = None,
    zero_division: ZeroDivision = ZERO_DIVISION_DEFAULT,
    uncertainty: Mapping | None = None,
) -> dict:
    """Everything the page shows: matrices, default kappa, exact histograms and win probabilities.

    Parameters
    ----------
    matrices : mapping
        Classifier name -> (C, C) count matrix (rows actual, columns predicted, ``labels``
        order); all with the same actual-class counts (one dataset).
    labels : sequence of str
        The class labels, in matrix order.
    dataset : str
        Shown in the title.
    grid_values : sequence of float, optional
        Kappa grid of the histograms and win probabilities; default :func:`default_grid`.
    zero_division : {0.0, 1.0, "nan"}
        Value of a 0/0 precision or recall, in Python and in the page alike.
    uncertainty : mapping, optional
        Draws of each classifier's per-class precision and recall with the interval's
        ``level`` and ``method`` (``pdmeasure.tables.uncertainty.explorer_draws``): the page
        then shows pd's interval and P(ranked first) at the kappa set (pd is linear, eq. 30).

    Returns
    -------
    dict
        JSON-ready (see :func:`script_json`): names, matrices, default kappa, the grid, the
        histogram counts per classifier and the win probabilities (each pair once, kappa
        spaces ``grid`` and ``uniform``).

    Raises
    ------
    ValueError
        For a matrix of the wrong shape, repeated classifier names, grid values outside
        [0, 1], an unknown ``zero_division``, or matrices with different actual-class counts.
    """
    zd = check_zero_division(zero_division)
    names, cms = _checked_matrices(matrices, labels)
    grid = _checked_grid(grid_values, len(labels))
    analysis = _analysis(cms, grid, zd, dataset, labels)
    data = {
        **_matrix_block(names, cms, labels, dataset),
        "zero_division": "nan" if math.isnan(zd) else zd,
        "grid": grid,
        "n_vectors": len(grid) ** len(labels),
        "bin_width": HISTOGRAM_BIN_WIDTH,
        "excluded": list(analysis.excluded),
        "histograms": _grid_histograms(analysis),
        "wins": _pair_wins(analysis, names),
    }
    if uncertainty is not None:
        data["uncertainty"] = _uncertainty_block(uncertainty, names, len(labels))
    return data


def _matrix_block(names: list[str], cms: dict, labels: Sequence[str], dataset: str) -> dict:
    """The page's dataset, labels, classifiers, matrices and default kappa (class shares)."""
    actual = cms[names[0]].sum(axis=1)
    return {
        "dataset": str(dataset),
        "labels": [str(label) for label in labels],
        "classifiers": names,
        "matrices": {name: cms[name].tolist() for name in names},
        "default_kappa": (actual / actual.sum()).tolist(),
    }


def _checked_grid(grid_values: Sequence[float] | None, n_classes: int) -> list[float]:
    """The kappa grid's values (default :func:`default_grid`), each checked to lie in [0, 1]."""
    grid = [float(v) for v in grid_values] if grid_values is not None else default_grid(n_classes)
    if not all(0.0 <= v <= 1.0 for v in grid):  # also refuses NaN
        raise ValueError(f"kappa grid values must lie in [0, 1], got {grid}")
    return grid


def _analysis(cms, grid: list[float], zd: float, dataset: str, labels) -> DatasetAnalysis:
    """The exact analysis of the page's kappa spaces: ``grid`` and uniform kappa."""
    analysis = DatasetAnalysis(
        cms,
        grid,
        ExactSettings(
            fine_grid_values=2,
            monte_carlo_samples=_MONTE_CARLO,
            bin_width=HISTOGRAM_BIN_WIDTH,
            zero_division=zd,
        ),
        engine="",
        dataset=dataset,
        classes=[str(label) for label in labels],
    )
    # The page shows the grid and uniform kappa only: leave the analysis's fine grid out
    # rather than count it too.
    analysis.grids.pop("fine", None)
    return analysis


def _checked_matrices(
    matrices: Mapping[str, np.ndarray], labels: Sequence[str]
) -> tuple[list[str], dict[str, np.ndarray]]:
    """The classifier names and their (C, C) int64 matrices; ValueError for a repeated name
    or a matrix of the wrong shape."""
    names = [str(name) for name in matrices]
    if len(set(names)) != len(names):
        raise ValueError(f"classifier names repeat: {names}")
    cms = {str(name): np.asarray(cm, dtype=np.int64) for name, cm in matrices.items()}
    n_classes = len(labels)
    for name, cm in cms.items():
        if cm.shape != (n_classes, n_classes):
            raise ValueError(
                f"matrix of {name!r} has shape {cm.shape}, expected "
                f"({n_classes}, {n_classes}) for the classes {list(labels)}"
            )
    return names, cms


def _grid_histograms(analysis: DatasetAnalysis) -> dict:
    """Exact counts of grid vectors per pd bin, per classifier; lower and upper bounds (equal
    when exact) when the grid is too large to count exactly (``method`` says which)."""
    histogram = analysis.histogram("grid")
    return {
        str(name): {
            "left": group["bin_left"].astype(float).tolist(),
            "count_lower": [int(v) for v in group["count_lower"]],
            "count_upper": [int(v) for v in group["count_upper"]],
            "method": str(group["method"].iloc[0]),
        }
        for name, group in histogram.groupby("classifier", sort=False)
    }


def _pair_wins(analysis: DatasetAnalysis, names: Sequence[str]) -> list[dict]:
    """Each unordered pair once (A before B in classifier order; P(B > A) is P(A < B)), on the
    grid and under uniform kappa: the midpoints of the probability bounds, and the half-width
    of the widest (0: exact)."""
    wins = analysis.win_probabilities()
    position = {name: i for i, name in enumerate(names)}
    wins = wins[
        wins["space"].isin(["grid", "uniform"])
        & (wins["classifier_a"].map(position) < wins["classifier_b"].map(position))
    ]
    return [
        {
            "space": row.space,
            "a": row.classifier_a,
            "b": row.classifier_b,
            "greater": float(row.p_greater),
            "tie": float(row.p_tie),
            "less": float(row.p_less),
            "error_bound": float(row.error_bound),
            "method": str(row.method),
        }
        for row in wins.itertuples(index=False)
    ]


def _uncertainty_block(uncertainty: Mapping, names: Sequence[str], n_classes: int) -> dict:
    """The page's draws, checked: one (draws, C) precision and recall list per classifier,
    embedded as :func:`float64_base64` of the (K, draws, C) arrays."""
    if list(uncertainty["classifiers"]) != list(names):
        raise ValueError(
            f"uncertainty draws are for {list(uncertainty['classifiers'])}, the matrices for "
            f"{list(names)}"
        )
    for key in ("precision", "recall"):
        shape = np.shape(uncertainty[key])
        if len(shape) != 3 or shape[0] != len(names) or shape[2] != n_classes:
            raise ValueError(f"uncertainty {key} has shape {shape}, expected (K, draws, C)")
    block = {key: uncertainty[key] for key in ("level", "method", "draws")}
    for key in ("precision", "recall"):
        block[key] = float64_base64(uncertainty[key])
    return block


def float64_base64(values: ArrayLike) -> str:
    """``values`` flattened in C order as little-endian float64 bytes, in base64.

    The page's draws keep every bit of their float64 values in 8 bytes (10.7 characters) a
    value rather than the 18 to 20 of their shortest decimal form in JSON: with 50 classifiers
    the draws are most of the page. The page reads them back with a DataView (explorer.js).
    Base64's characters cannot end the script element.
    """
    data = np.ascontiguousarray(values, dtype="<f8")
    return base64.b64encode(data.tobytes()).decode("ascii")


def write_explorer_data(data: dict, path: str | os.PathLike) -> None:
    """Write :func:`explorer_data`'s dict to ``path`` atomically as JSON (compact, every
    float in its shortest exact form, so :func:`read_explorer_data` gives the same dict)."""
    write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", path)


def read_explorer_data(path: str | os.PathLike) -> dict:
    """The dict :func:`write_explorer_data` wrote, every float bit for bit."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
