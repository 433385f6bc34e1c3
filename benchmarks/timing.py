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
