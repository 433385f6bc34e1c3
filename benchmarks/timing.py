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


def best_times(fns, repeats: int) -> list[tuple[float, float]]:
    """Smallest wall time and smallest CPU time of this process (all its threads) of each of
    ``fns``, in seconds, over ``repeats`` rounds that call each once in turn: interleaved, so
    a change of the machine's load during the run falls on all of them rather than on
    whichever was timed then (as with :func:`best_time` one after another). CPU time is the
    figure that another process's load disturbs least; wall time is what a user waits."""
    times: list[list[tuple[float, float]]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, out in zip(fns, times, strict=True):
            wall, cpu = time.perf_counter(), time.process_time()
            fn()
            out.append((time.perf_counter() - wall, time.process_time() - cpu))
    return [(min(w for w, _ in out), min(c for _, c in out)) for out in times]
