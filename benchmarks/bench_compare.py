"""``pdmeasure compare`` for many classifiers: wall time and peak RSS by classifiers x classes.

Writes random confusion matrices with the same actual-class counts (``compare`` needs
classifiers evaluated on the same data; each row a multinomial draw with extra mass on the
diagonal) and runs ``pdmeasure compare FILE`` (uniform kappa, the default) under
``/usr/bin/time``. A run over ``--timeout`` seconds is stopped and reported as such, with the
number of pairs it had to analyse. Targets: 50 x 20 in at most 10 s, 100 x 20 in at most 40 s.

Where the time goes (cProfile of 100 x 20, 4,950 pairs, 2.5 s under the profiler and 1.3 s
without, on a quiet machine): the command's imports (pandas, scipy) about 0.9 s; the pairwise
win table 0.73 s, of which 0.45 s the exact integer difference of each pair's two pd forms
(which settles point masses and probabilities 0 or 1 exactly) and 0.15 s the Fourier series
of all pairs in one numpy batch (``exact.series.uniform_wins``); the text report 0.4 s; the
Monte Carlo share ranked first 0.14 s; the summary 0.14 s. Quadratic in the number of
classifiers are the win table (one row per ordered pair) and the text report's pairwise
section; the summary, the share and the CDF (``--plot``) are linear. Before the batch each
pair took one exact big-integer
inclusion-exclusion sum (``exact.uniform``, about 0.15 s at 20 classes) or a 2^20-cell
lattice (``exact.lattice``, 0.1 s at 20 classes, 0.35 s at 50), and 50 x 20 took 170 s.

    python benchmarks/bench_compare.py [--sizes 10x5,10x20,50x5,50x20] [--timeout 300]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pdmeasure._synthetic import dominant_diagonal_matrices


def write_matrices(path: Path, classifiers: int, classes: int, seed: int = 0) -> None:
    matrices = dominant_diagonal_matrices(
        classes, classifiers, seed, actual=(20, 200), boost=(1, 5), name="clf{:03d}"
    )
    labels = [f"c{i}" for i in range(classes)]
    rows = {name: cm.tolist() for name, cm in matrices.items()}
    path.write_text(json.dumps({"labels": labels, "matrices": rows}))


def run(path: Path, timeout: float) -> tuple[str, str]:
    """Wall time and peak RSS of ``pdmeasure compare path``, or the timeout."""
    argv = ["/usr/bin/time", "-f", "%M", sys.executable, "-m", "pdmeasure", "compare", str(path)]
    start = time.perf_counter()
    try:
        done = subprocess.run(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s (stopped)", "-"
    wall = time.perf_counter() - start
    if done.returncode != 0:
        return f"failed: {done.stderr.strip().splitlines()[0]}", "-"
    return f"{wall:.1f} s", f"{int(done.stderr.split()[-1]) / 1024:.0f} MB"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10x5,10x20,10x50,50x5,50x20,50x50,100x5,100x20,100x50")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    print("| classifiers x classes | pairs | wall time | peak RSS | target |")
    print("|---|---|---|---|---|")
    targets = {(50, 20): "<= 10 s", (100, 20): "<= 40 s"}
    with tempfile.TemporaryDirectory(prefix="bench_compare_") as tmp:
        for size in args.sizes.split(","):
            m, c = (int(x) for x in size.split("x"))
            path = Path(tmp) / f"m{m}x{c}.json"
            write_matrices(path, m, c)
            wall, rss = run(path, args.timeout)
            pairs = m * (m - 1) // 2
            print(f"| {m} x {c} | {pairs} | {wall} | {rss} | {targets.get((m, c), '')} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
