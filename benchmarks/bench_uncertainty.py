"""Intervals of every registry measure and pd from 4,000 posterior draws of one 4-class matrix.

The batched path (:mod:`pdmeasure.uncertainty`: one stack of draws, every measure at once,
one quantile call per measure) against a baseline in the same process: the same draws scored
one matrix at a time through the registry, then the same quantiles. Target: at most 20 ms.

    python benchmarks/bench_uncertainty.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from pdmeasure import measures
from pdmeasure import uncertainty as unc

sys.path.insert(0, str(Path(__file__).resolve().parent))  # timing.py, run as a script
from timing import best_time  # noqa: E402

CM = np.array([[120, 10, 5, 3], [12, 90, 8, 10], [4, 9, 60, 7], [2, 6, 5, 40]])
KAPPAS = {"p1": [0.3, 0.1, 0.9, 0.5], "p2": [1.0, 0.0, 0.5, 0.5]}
DRAWS = 4000


def batched(seed: int = 0) -> dict:
    draws = unc.posterior_draws(CM, DRAWS, seed=seed)
    values = unc.measure_draws(draws, kappas=KAPPAS)
    return {name: unc.interval(v, 0.95) for name, v in values.items()}


def per_matrix(seed: int = 0) -> dict:
    draws = unc.posterior_draws(CM, DRAWS, seed=seed)
    values: dict[str, list[float]] = {}
    for cm in draws:
        for name, f in measures.REGISTRY.items():
            values.setdefault(name, []).append(float(f(cm, zero_division=0.0)))
        for name, kappa in KAPPAS.items():
            pd_value = measures.preference_driven(cm, kappa, zero_division=0.0)
            values.setdefault(unc.pd_key(name), []).append(float(pd_value))
    return {name: unc.interval(np.array(v), 0.95) for name, v in values.items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    a, b = batched(), per_matrix()
    assert all(np.allclose(a[k], b[k]) for k in a), "batched and per-matrix intervals differ"
    ours = best_time(batched, args.repeat)
    baseline = best_time(per_matrix, 1)  # seconds: one run is enough
    print("| workload | ours | baseline (one matrix at a time) | ratio | target |")
    print("| --- | --- | --- | --- | --- |")
    print(
        f"| 95 % intervals of {len(a)} values (the 19 registry measures, pd at 2 more kappa vectors) from {DRAWS} "
        f"posterior draws of a 4x4 matrix | {ours * 1e3:.1f} ms | {baseline * 1e3:.0f} ms | "
        f"{baseline / ours:.0f}x | <= 20 ms: {'met' if ours <= 0.020 else 'not met'} |"
    )


if __name__ == "__main__":
    main()
