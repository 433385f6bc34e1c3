"""Benchmark of the exact kappa-space analysis against brute-force enumeration, in one run.

Run: ``python benchmarks/bench_exact.py`` (``make bench`` runs every benchmark).

Workloads, on the authors' five krkopt Weka matrices (18 classes):

* ``histogram_2pow18``: the histogram (bins of 0.01, numpy.histogram semantics) of pd over the
  paper's grid {0.33, 0.66}**18 = 262,144 vectors. Exact method:
  :class:`pdmeasure.exact.GridDistribution` (meet in the middle, exact ties), including building
  the exact form from the counts. Baseline: enumeration with
  :func:`pdmeasure.measures.preference_driven` over :func:`pdmeasure.measures.kappa_grid`
  (chunked, batched over the 5 matrices) plus :func:`numpy.histogram`. Both results are
  checked equal bin for bin. Target: ratio >= 100.
* ``win_2pow18``: exact P(pd_A > pd_B), ties, P(<) for the 10 pairs over the same grid,
  against the same enumeration (values compared with a 1e-12 tie tolerance).
* ``histogram_11pow18``: the distribution of pd over the fine grid {0, 0.1, ..., 1}**18
  (5.56e18 vectors; enumeration impossible) with :func:`pdmeasure.exact.grid_lattice`
  (2**20 cells, rigorous bounds), per matrix. Target: < 2 s. Printed with the extrapolated
  enumeration time (baseline throughput x 11**18) as the ratio.

Results: a table on stdout and JSON in ``benchmarks/results/bench_exact.json``.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

from pdmeasure import measures
from pdmeasure.exact import GridDistribution, ProductGrid, grid_lattice, pd_form
from pdmeasure.exact.forms import pd_forms
from pdmeasure.exact.grid import grid_histograms

HERE = Path(__file__).resolve().parent
KRKOPT_REFERENCE = (
    HERE.parent.parent / "shared" / "reference" / "krkopt-weka-confusion-matrices.json"
)
EDGES = np.linspace(0.0, 1.0, 101)


def best_time(fn, repeats: int) -> tuple[float, object]:
    """Smallest wall time of ``repeats`` calls (seconds) and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def brute_values(stack: np.ndarray) -> np.ndarray:
    grid = measures.kappa_grid(np.array([0.33, 0.66]), stack.shape[1])
    return np.concatenate(
        [measures.preference_driven(stack[:, None], chunk, zero_division=0.0) for chunk in grid],
        axis=1,
    )


def main() -> int:
    if not KRKOPT_REFERENCE.is_file():
        print(f"skip: {KRKOPT_REFERENCE} missing")
        return 0
    matrices = {
        k: np.array(v)
        for k, v in json.loads(KRKOPT_REFERENCE.read_text())["confusion_matrices"].items()
    }
    stack = np.stack(list(matrices.values()))
    grid = ProductGrid.regular([0.33, 0.66], 18)
    fine = ProductGrid.evenly_spaced(11, 18)
    rows = []

    def brute_histograms():
        values = brute_values(stack)
        return np.stack([np.histogram(v, EDGES)[0] for v in values])

    def exact_histograms():
        return grid_histograms(pd_forms(stack), grid, EDGES)

    t_brute, h_brute = best_time(brute_histograms, 3)
    t_exact, h_exact = best_time(exact_histograms, 20)
    if not np.array_equal(h_brute, h_exact):
        raise AssertionError("exact histogram differs from enumeration")
    rows.append(("histogram_2pow18 (5 matrices)", t_brute, t_exact))

    names = list(matrices)
    forms = [pd_form(cm) for cm in matrices.values()]
    pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]

    def brute_win():
        v = brute_values(stack)
        return [
            (np.sum(v[a] - v[b] > 1e-12), np.sum(np.abs(v[a] - v[b]) <= 1e-12)) for a, b in pairs
        ]

    def exact_win():
        out = []
        for a, b in pairs:
            less, equal = GridDistribution(forms[a] - forms[b], grid).counts([0])
            out.append((grid.n_vectors - less[0] - equal[0], equal[0]))
        return out

    t_bw, w_brute = best_time(brute_win, 3)
    t_ew, w_exact = best_time(exact_win, 20)
    if [tuple(map(int, w)) for w in w_brute] != [tuple(map(int, w)) for w in w_exact]:
        raise AssertionError("exact win counts differ from enumeration")
    rows.append(("win_2pow18 (10 pairs)", t_bw, t_ew))

    def fine_lattice():
        out = []
        for form in forms:
            lattice = grid_lattice(form, fine)
            out.append((lattice.histogram_bounds(EDGES), lattice.error_bound))
        return out

    t_fine, fine_result = best_time(fine_lattice, 3)
    per_vector = t_brute / (grid.n_vectors * len(forms))
    extrapolated = per_vector * fine.n_vectors * len(forms)
    rows.append(("histogram_11pow18 (5 matrices, lattice 2**20)", extrapolated, t_fine))
    bound = max(b for _, b in fine_result)
    uncertain = max(float((hi - lo).sum()) / fine.n_vectors for (lo, hi), _ in fine_result)

    print(f"{'workload':48s} {'baseline s':>14s} {'exact s':>10s} {'ratio':>12s}")
    for name, base, fast in rows:
        print(f"{name:48s} {base:14.4g} {fast:10.4g} {base / fast:12.4g}")
    print(
        f"11**18: value error bound {bound:.2e}; share of vectors in an uncertain bin <= {uncertain:.2e}"
    )
    print(
        f"11**18 per matrix: {t_fine / len(forms):.3f} s (target < 2 s); "
        f"2**18 ratio {rows[0][1] / rows[0][2]:.0f}x (target >= 100x)"
    )
    out = HERE / "results" / "bench_exact.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "machine": platform.platform(),
                "python": platform.python_version(),
                "rows": [
                    {"workload": n, "baseline_s": b, "exact_s": f, "ratio": b / f}
                    for n, b, f in rows
                ],
                "fine_value_error_bound": bound,
                "fine_uncertain_share": uncertain,
            },
            indent=2,
        )
    )
    ok = rows[0][1] / rows[0][2] >= 100 and t_fine / len(forms) < 2.0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
