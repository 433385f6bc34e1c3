"""What Snakemake's default rate limit costs a local run: a toy DAG run with the limit and with
the Snakefile's hook that lifts it (:func:`pdmeasure.pipeline.scheduling.lift_default_rate_limit`),
one after the other, with the scheduler's passes and Snakemake's CPU.

Run from the repository root::

    python benchmarks/scheduler_passes.py [--jobs 100 200 400] [--inputs 20] [--cores 2]

The toy DAG is ``--jobs`` jobs that each sleep 0.2 s and read the same ``--inputs`` files, so
that most of them wait for a core, as the papers' DAG does on few cores. Each run starts in a
fresh folder. For each size it prints, with the limit and without it, the scheduler's passes
(the ``Ready jobs`` lines of ``--verbose``), the CPU seconds of Snakemake and its jobs
(sleep and touch, a few ms each), the wall time, and the ratio of the two CPU figures. The
passes grow with jobs x wall time under the limit, and with the jobs without it.
Not part of ``make bench``: about a minute per size on 2 cores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cores import children_cpu  # noqa: E402 (the sibling script of this folder)

#: The toy workflow; ``lift`` in its config adds the hook the project's Snakefile has.
SNAKEFILE = """\
from pdmeasure.pipeline.scheduling import lift_default_rate_limit

rule all:
    input: expand("o/{i}.txt", i=range(config["jobs"]))

rule inputs:
    output: expand("in/{k}.txt", k=range(config["inputs"]))
    shell: "touch {output}"

rule one:
    input: rules.inputs.output
    output: "o/{i}.txt"
    shell: "sleep 0.2; touch {output}"

if config["lift"]:
    onstart:
        lift_default_rate_limit(workflow)
"""


def run(jobs: int, inputs: int, cores: int, lift: bool) -> dict:
    """One run of the toy DAG in a fresh folder: passes, CPU and wall seconds."""
    with tempfile.TemporaryDirectory(prefix="pdmeasure-passes-") as folder:
        Path(folder, "Snakefile").write_text(SNAKEFILE, encoding="utf-8")
        command = [
            sys.executable,
            "-m",
            "snakemake",
            "--cores",
            str(cores),
            "--verbose",
            "--config",
            f"jobs={jobs}",
            f"inputs={inputs}",
            f"lift={lift}",
        ]
        before, started = children_cpu(), time.perf_counter()
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
        wall, cpu = time.perf_counter() - started, children_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-4000:]}")
    passes = sum(line.startswith("Ready jobs") for line in done.stderr.splitlines())
    return {"passes": passes, "cpu": cpu, "wall": wall}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[100, 200, 400])
    parser.add_argument("--inputs", type=int, default=20)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"toy DAG, {args.inputs} inputs per job, --cores {args.cores}")
    print(f"{'jobs':>5}  {'limit':>7}  {'passes':>6}  {'CPU (s)':>7}  {'wall (s)':>8}")
    for jobs in args.jobs:
        figures = {}
        for lift in (False, True):
            figures[lift] = run(jobs, args.inputs, args.cores, lift)
            row = figures[lift]
            label = "lifted" if lift else "default"
            print(
                f"{jobs:>5}  {label:>7}  {row['passes']:>6}  {row['cpu']:>7.1f}  "
                f"{row['wall']:>8.1f}"
            )
        print(f"{'':>5}  CPU lifted / default: {figures[True]['cpu'] / figures[False]['cpu']:.2f}")


if __name__ == "__main__":
    main()
