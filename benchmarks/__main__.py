"""Run every benchmark: ``python -m benchmarks`` (or ``make bench``); some by name:
``python -m benchmarks exact_classes`` (the ``bench_`` prefix may be left out).

Each ``benchmarks/bench_*.py`` is a standalone script that measures speed as ratios against a
baseline run in the same process, or as times, and prints its own table; this runner only
calls them in turn.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    names = argv or sorted(p.stem for p in HERE.glob("bench_*.py"))
    names = [n if n.startswith("bench_") else f"bench_{n}" for n in names]
    status = 0
    for name in names:
        print(f"== {name}", flush=True)
        status |= subprocess.call([sys.executable, str(HERE / f"{name}.py")])
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
