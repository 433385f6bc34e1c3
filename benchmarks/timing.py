"""The timing every benchmark shares: the best of several calls, in the same process."""

from __future__ import annotations

import time


def best_time(fn, repeats: int) -> float:
    """Smallest wall time of ``repeats`` calls of ``fn`` (seconds): the least disturbed run."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def best_times(fns, repeats: int) -> list[float]:
    """Smallest wall time of each of ``fns`` over ``repeats`` rounds that call each once in
    turn: interleaved, so a change of the machine's load during the run falls on all of them
    rather than on whichever was timed then (as with :func:`best_time` one after another)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, out in zip(fns, times, strict=True):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return [min(out) for out in times]
