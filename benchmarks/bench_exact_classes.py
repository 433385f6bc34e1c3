"""How the exact kappa-space analysis of one dataset scales with the number of classes.

Run: ``python benchmarks/bench_exact_classes.py [C ...]`` or ``python -m benchmarks
exact_classes`` (``make bench`` runs every benchmark).

Workload: for each class count C (default 4, 6, 8, 10, 12, 16, 20, 30, 40, 50), five random
confusion matrices of one dataset (same actual-class counts, dominant diagonal) analysed by
:class:`pdmeasure.tables.exact.DatasetAnalysis` with the default settings of
``config.yaml``'s ``exact`` block: the fine grid ``{0, 0.1, ..., 1}**C`` (11 values per
class) and uniform kappa; no configured grid (``kappa_grid: null``, as a dataset with many
classes must have). Each step of :meth:`DatasetAnalysis.tables` is timed on its own:

* ``summary``: exact extremes and moments per classifier and space;
* ``distributions``: the CDF on ``cdf_points`` points and the histogram bounds;
* ``win``: P(pd_A > pd_B), ties and P(<) for the 10 pairs;
* ``share``: best-classifier shares (enumeration or Monte Carlo);
* ``robustness``: the linear programs of ranking robustness.

Timings are printed, never asserted (the machine may be shared); the methods used for the
fine grid (exact meet in the middle or lattice bounds) are printed with them. Results also go
to ``benchmarks/results/bench_exact_classes.json``.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

from pdmeasure._synthetic import dominant_diagonal_matrices
from pdmeasure.exact import ExactSettings
from pdmeasure.tables.exact import DatasetAnalysis

HERE = Path(__file__).resolve().parent
CLASS_COUNTS = (4, 6, 8, 10, 12, 16, 20, 30, 40, 50)
STEPS = ("summary", "distributions", "win", "share", "robustness")
N_CLASSIFIERS = 5


def run(n_classes: int) -> dict:
    """Time each step of the analysis of one random dataset with ``n_classes`` classes."""
    analysis = DatasetAnalysis(
        dominant_diagonal_matrices(n_classes, N_CLASSIFIERS, seed=n_classes),
        None,
        ExactSettings(),
        engine="bench",
        dataset=f"random{n_classes}",
    )
    times, methods = {}, set()
    for step, call in (
        ("summary", analysis.summary),
        ("distributions", analysis.distributions),
        ("win", analysis.win_probabilities),
        ("share", analysis.shares),
        ("robustness", analysis.robustness),
    ):
        start = time.perf_counter()
        result = call()
        times[step] = time.perf_counter() - start
        if step in ("distributions", "win"):
            table = result[0] if step == "distributions" else result
            methods |= set(table.loc[table["space"] == "fine", "method"])
    return {
        "n_classes": n_classes,
        "seconds": times,
        "total": sum(times.values()),
        "fine_methods": sorted(methods),
    }


def main(argv: list[str]) -> int:
    counts = [int(a) for a in argv] or list(CLASS_COUNTS)
    header = f"{'classes':>7s} " + " ".join(f"{s:>13s}" for s in STEPS)
    print(f"{header} {'total s':>9s}  fine-grid methods")
    rows = []
    for n_classes in counts:
        row = run(n_classes)
        rows.append(row)
        cells = " ".join(f"{row['seconds'][s]:13.3f}" for s in STEPS)
        print(
            f"{n_classes:7d} {cells} {row['total']:9.3f}  {', '.join(row['fine_methods'])}",
            flush=True,
        )
    out = HERE / "results" / "bench_exact_classes.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {"machine": platform.platform(), "python": platform.python_version(), "rows": rows},
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
