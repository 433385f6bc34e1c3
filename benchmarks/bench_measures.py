"""Benchmark of pdmeasure.measures against per-matrix baselines, measured in one run.

Run: ``python benchmarks/bench_measures.py [--quick]`` (``make bench`` runs every benchmark).

Workloads:

* ``all_measures_9261``: every REGISTRY measure on the 9261 matrices of Pacc Table 5
  (3 classes, 5 items per actual class), in one batched ``evaluate()`` call, against
  (a) the authors'-style per-matrix loop (the measures of paper 000 Tables 6-9) and
  (b) PyCM 4.x, one ConfusionMatrix per matrix.
  ``all_measures_per_call`` is the same work as 19 separate REGISTRY calls, and
  ``authors_6_measures_9261`` computes only the loop's six measures (accuracy, macro
  precision and recall, F1, MCC, default pd), so that its "x authors" compares like for like.
* ``pd_krkopt_grid``: pd of the 5 krkopt matrices (the authors' Weka matrices, Table 9) over
  the full grid {0.33, 0.66}**18 = 262,144 kappa vectors, chunked, against
  (a) the authors'-style pd function called once per (matrix, kappa) and
  (b) PyCM per-class PPV/TPR of each matrix combined in a loop over the vectors.

Baselines run on a subsample and are scaled per matrix (or per matrix x vector) to the full
workload; the scale factors are printed and stored. Peak memory of the chunked grid workload
is measured with tracemalloc for several chunk sizes (it follows the chunk, not the grid).
Results: a table on stdout and JSON in ``benchmarks/results/bench_measures.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import tracemalloc
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # baselines.py, when run as a script

import baselines  # noqa: E402
from timing import best_time  # noqa: E402

from pdmeasure import measures as M
from pdmeasure.measures.weights import DEFAULT_CHUNK_SIZE  # noqa: E402
from pdmeasure.paper import examples  # noqa: E402

KRKOPT_REFERENCE = (
    HERE.parent.parent / "shared" / "reference" / "krkopt-weka-confusion-matrices.json"
)
KRKOPT_GRID_VALUES = (0.33, 0.66)
KRKOPT_CLASSES = 18
ZD = 0.0


# ------------------------------------------------------------------ workload 1
#: The measures the authors'-style loop computes (paper 000, Tables 6-9).
AUTHORS_MEASURES = (
    "accuracy",
    "precision_macro",
    "recall_macro",
    "f1_macro",
    "mcc",
    "preference_driven",
)


def all_measures(cms: np.ndarray) -> dict:
    """Every REGISTRY measure in one batched call."""
    return M.evaluate(cms, zero_division=ZD)


def all_measures_per_call(cms: np.ndarray) -> dict:
    """Every REGISTRY measure, one function call each (validates and reduces 19 times)."""
    return {name: f(cms, zero_division=ZD) for name, f in M.REGISTRY.items()}


def authors_measures(cms: np.ndarray) -> dict:
    """Only the six measures of the authors'-style loop, batched."""
    return M.evaluate(cms, AUTHORS_MEASURES, zero_division=ZD)


def bench_all_measures(n_sample: int, repeats: int) -> list[dict]:
    cms = examples.pacc_table5_matrices().astype(float)
    n = len(cms)
    rng = np.random.default_rng(0)
    picked = rng.choice(n, size=min(n_sample, n), replace=False)
    sample = [cms[i].astype(int).tolist() for i in picked]
    scale = n / len(sample)
    baseline_repeats = min(repeats, 3)
    authors = (
        best_time(lambda: [baselines.authors_table_measures(m) for m in sample], baseline_repeats)
        * scale
    )
    pycm = best_time(lambda: [baselines.pycm_measures(m) for m in sample], baseline_repeats) * scale
    # Correctness guard for the like-for-like row: the same six numbers as the loop.
    ours_six = authors_measures(cms[picked])
    loop = [baselines.authors_table_measures(m) for m in sample]
    max_abs_diff = max(
        float(np.abs(ours_six[name] - [row[name] for row in loop]).max())
        for name in AUTHORS_MEASURES
    )
    common = {
        "n_matrices": n,
        "baseline_sample": len(sample),
        "authors_loop_s_scaled": authors,
        "pycm_s_scaled": pycm,
    }
    rows = []
    for workload, fn, count, note in (
        (
            "all_measures_9261",
            all_measures,
            len(M.REGISTRY),
            "evaluate(): all 19 REGISTRY measures in one call; the authors'-style loop computes "
            "only the 6 of paper 000 Tables 6-9 (see authors_6_measures_9261); PyCM builds one "
            "ConfusionMatrix (all its statistics) per matrix, plus pd from its PPV/TPR",
        ),
        (
            "all_measures_per_call",
            all_measures_per_call,
            len(M.REGISTRY),
            "the 19 REGISTRY functions called one by one on the whole stack",
        ),
        (
            "authors_6_measures_9261",
            authors_measures,
            len(AUTHORS_MEASURES),
            "like for like: evaluate() of exactly the loop's 6 measures "
            f"({', '.join(AUTHORS_MEASURES)}); max |ours - loop| on the sample = {max_abs_diff:.1e}",
        ),
    ):
        ours = best_time(lambda fn=fn: fn(cms), repeats)
        rows.append(
            {
                "workload": workload,
                **common,
                "n_measures_ours": count,
                "ours_s": ours,
                "ratio_vs_authors": authors / ours,
                "ratio_vs_pycm": pycm / ours,
                "note": note,
            }
        )
    rows[-1]["max_abs_diff_vs_authors_loop"] = max_abs_diff
    return rows


# ------------------------------------------------------------------ workload 2
def krkopt_matrices() -> np.ndarray:
    data = json.loads(KRKOPT_REFERENCE.read_text())
    return np.array(list(data["confusion_matrices"].values()), dtype=float)


def pd_over_grid(cms: np.ndarray, chunk_size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Min, max and mean of pd over the whole grid, per matrix, one chunk at a time."""
    lo = np.full(len(cms), np.inf)
    hi = np.full(len(cms), -np.inf)
    total = np.zeros(len(cms))
    grid = M.kappa_grid(KRKOPT_GRID_VALUES, cms.shape[-1], chunk_size=chunk_size)
    for chunk in grid:
        values = M.preference_driven(cms[:, None], chunk, zero_division=ZD)  # (M, chunk)
        lo = np.minimum(lo, values.min(axis=1))
        hi = np.maximum(hi, values.max(axis=1))
        total += values.sum(axis=1)
    return lo, hi, total / len(grid)


def peak_memory(cms: np.ndarray, chunk_size: int) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    pd_over_grid(cms, chunk_size)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def bench_krkopt_grid(n_sample: int, repeats: int, chunk_sizes: tuple[int, ...]) -> dict:
    cms = krkopt_matrices()
    n_vectors = len(KRKOPT_GRID_VALUES) ** KRKOPT_CLASSES
    evaluations = len(cms) * n_vectors
    ours = best_time(lambda: pd_over_grid(cms, DEFAULT_CHUNK_SIZE), repeats)
    sample = np.concatenate(list(M.kappa_grid(KRKOPT_GRID_VALUES, KRKOPT_CLASSES)))[
        np.random.default_rng(0).choice(n_vectors, size=n_sample, replace=False)
    ].tolist()
    lists = [cm.astype(int).tolist() for cm in cms]
    baseline_repeats = min(repeats, 3)
    authors = best_time(
        lambda: [baselines.authors_preference_driven(m, k) for m in lists for k in sample],
        baseline_repeats,
    )
    authors *= evaluations / (len(lists) * len(sample))
    pycm = best_time(
        lambda: [baselines.pycm_preference_driven_grid(m, sample) for m in lists], baseline_repeats
    )
    pycm *= evaluations / (len(lists) * len(sample))
    memory = {str(c): peak_memory(cms, c) for c in chunk_sizes}
    # Correctness guard: the chunked result equals the one-shot result on the sample.
    direct = M.preference_driven(cms[:, None], np.array(sample), zero_division=ZD)
    loop = np.array([[baselines.authors_preference_driven(m, k) for k in sample] for m in lists])
    max_abs_diff = float(np.abs(direct - loop).max())
    return {
        "workload": "pd_krkopt_grid",
        "n_matrices": len(cms),
        "n_vectors": n_vectors,
        "baseline_sample_vectors": len(sample),
        "ours_s": ours,
        "authors_loop_s_scaled": authors,
        "pycm_s_scaled": pycm,
        "ratio_vs_authors": authors / ours,
        "ratio_vs_pycm": pycm / ours,
        "peak_bytes_by_chunk": memory,
        "peak_bytes_per_chunk_vector": {c: memory[c] / int(c) for c in memory},
        "unchunked_pd_output_bytes": evaluations * 8,
        "max_abs_diff_vs_authors_loop": max_abs_diff,
    }


# ------------------------------------------------------------------ report
def _fmt_s(x: float) -> str:
    return f"{x * 1e3:9.2f} ms" if x < 10 else f"{x:9.2f} s "


def report(results: list[dict]) -> str:
    lines = [
        f"{'workload':24s} {'ours':>12s} {'authors loop':>14s} {'PyCM':>12s} "
        f"{'x authors':>10s} {'x PyCM':>8s}"
    ]
    for r in results:
        lines.append(
            f"{r['workload']:24s} {_fmt_s(r['ours_s']):>12s} "
            f"{_fmt_s(r['authors_loop_s_scaled']):>14s} {_fmt_s(r['pycm_s_scaled']):>12s} "
            f"{r['ratio_vs_authors']:10.1f} {r['ratio_vs_pycm']:8.1f}"
        )
    grid = next(r for r in results if r["workload"] == "pd_krkopt_grid")
    lines.append("")
    lines.append("peak memory (tracemalloc) of pd over the 2**18 krkopt grid, by chunk size:")
    for chunk, peak in grid["peak_bytes_by_chunk"].items():
        lines.append(
            f"  chunk {int(chunk):>7d}: {peak / 2**20:8.2f} MiB "
            f"({peak / int(chunk):7.1f} bytes per chunk vector)"
        )
    lines.append(
        f"  (pd output for the whole grid would be {grid['unchunked_pd_output_bytes'] / 2**20:.1f} MiB)"
    )
    lines.append(
        "baselines timed on a subsample (best of up to 3 runs) and scaled per matrix "
        "(per matrix x vector); see JSON for sample sizes"
    )
    lines.append(
        "all_measures_9261 computes 19 measures, the authors' loop 6: compare "
        "authors_6_measures_9261 (the same 6) for 'x authors'"
    )
    return "\n".join(lines)


def write_json(payload: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        json.dump(payload, fh, indent=2)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller baseline samples")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "bench_measures.json")
    args = parser.parse_args(argv)
    if not KRKOPT_REFERENCE.is_file():
        print(f"missing {KRKOPT_REFERENCE}", file=sys.stderr)
        return 1
    n_matrices, n_vectors, repeats = (200, 500, 3) if args.quick else (1000, 4000, 5)
    results = [
        *bench_all_measures(n_matrices, repeats),
        bench_krkopt_grid(n_vectors, repeats, chunk_sizes=(4096, 16384, 65536)),
    ]
    print(report(results))
    if hasattr(os, "getloadavg"):
        print(
            f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
            "(ratios are measured in one run, so load affects both sides)"
        )
    write_json(
        {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "machine": platform.machine(),
            "results": results,
        },
        args.out,
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
