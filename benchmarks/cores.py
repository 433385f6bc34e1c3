"""The pipeline on real cores: wall time, job count, summed job CPU and the critical path of a
fresh run at each given core count, measured in one invocation.

Run from the repository root (with ``UCI_MIRROR`` set where ``ucimlrepo`` cannot download)::

    python benchmarks/cores.py --cores 1 2 [--replay 8 16]
    python benchmarks/cores.py --cores 3 --plan-cores 16 --replay 16
    python benchmarks/cores.py --cores 2 --config 'run={engines: [sklearn]}'
    python benchmarks/cores.py --cores 2 --from .test --configfile .test/config/config.yaml
    python benchmarks/cores.py --cores 2 --repo ../other-checkout --python ../other-checkout/.venv/bin/python

Each core count runs the whole DAG from scratch in a fresh working folder of its own (empty
``results/``, ``logs/`` and ``.snakemake/``; the repository's ``config.yaml``, or the folder
given with ``--from``, copied in), so no run reuses another's files or timings. For each it
prints:

- the wall time of ``snakemake --cores N`` and its job count;
- the CPU seconds of the jobs (the kernel's account, the last line of every job's log:
  :func:`pdmeasure.pipeline.run.run_script`) and of Snakemake itself (the run's CPU minus the
  jobs': scheduling, job start-up, benchmark threads);
- the critical path (the longest chain of dependent jobs, by job CPU) and the ten longest jobs;
- per rule, its jobs and the CPU seconds of its lightest job: what a job of that kind costs
  besides its work (interpreter, imports, a JVM);
- the run's ends that no replay has: from the command's start to the first line any job
  logged (Snakemake's start, its parse and checks of the config, the DAG, and the first job's
  own start-up), and from the last write to any job's log to the command's end.

With ``--replay``, the last run's DAG and job times are replayed on those core counts
(``benchmarks/simulate_cores.py``), as they are and with each job's time as the 16-core
``device`` machine would take it (:func:`simulate_cores.on_device`, fitted to real runs there);
such figures are a replay, not a measurement. The DAG
itself depends on the cores (``cv.per_fold: auto`` splits long fits for many cores), so a
replay on N cores should replay a run planned for N: ``--plan-cores N`` runs on the given cores
with the plan of N (config ``cv.plan_cores``). On 8 cores or more the jobs on the run's tail
take up to 3 threads, which Snakemake caps at ``--cores``: a run to replay there runs with
``--cores 3``, also on a machine of 2 cores (the replay reads the jobs' CPU seconds, not the
wall time), or the replay gives those jobs the longer time of fewer processes.
Not part of ``make bench``: minutes per core count, and its figures are times, not ratios.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import simulate_cores  # noqa: E402 (the sibling scripts of this folder)
from pipeline_figures import job_cpu_table  # noqa: E402

#: The checkout whose Snakefile and config.yaml run (``--repo``: another one, e.g. the landed
#: main, measured the same way in the same session).
REPO = Path(__file__).resolve().parents[1]
#: The interpreter that runs Snakemake (``--python``: the other checkout's environment).
PYTHON = sys.executable
#: From how many planned cores the jobs on a run's tail take several threads, and the most
#: they take (workflow/rules/plan.smk: TAIL_CORES, and rule analyse's threads). Snakemake
#: gives a job no more threads than ``--cores``: a run meant for a replay on 8 or more
#: cores runs with at least this many.
TAIL_CORES, TAIL_THREADS = 8, 3


def children_cpu() -> float:
    """User + system CPU seconds of this process's finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: The time stamp at the start of a line of a job's log (:func:`pdmeasure.pipeline.run.run_script`).
LOG_TIME = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) ")


def log_bounds(logs: Path) -> tuple[float, float] | None:
    """Epoch seconds of the earliest first line of any job's log (local time, as logged) and
    of the latest write to any log; None when no log has a time stamp."""
    first, last = [], []
    for path in logs.rglob("*.log"):
        last.append(path.stat().st_mtime)
        with path.open(encoding="utf-8", errors="replace") as lines:
            match = LOG_TIME.match(lines.readline())
        if match:
            stamp = time.mktime(time.strptime(match[1], "%Y-%m-%d %H:%M:%S"))
            first.append(stamp + int(match[2]) / 1000)
    return (min(first), max(last)) if first else None


def prepare(workdir: Path, source: Path | None, configfiles: list[Path]) -> list[str]:
    """A fresh working folder: ``source`` copied (without results, logs, .snakemake), else
    the repository's config.yaml; returns the --configfile arguments, copied in too."""
    if source is not None:
        shutil.copytree(
            source,
            workdir,
            ignore=shutil.ignore_patterns("results", "logs", ".snakemake"),
            dirs_exist_ok=True,
        )
    else:
        shutil.copy(REPO / "config.yaml", workdir / "config.yaml")
    copies = []
    for number, path in enumerate(configfiles):
        copies.append(workdir / f"configfile_{number}_{path.name}")
        shutil.copy(path, copies[-1])
    return ["--configfile", *map(str, copies)] if copies else []


def snakemake_command(python: str, repo: Path, workdir: Path, *args: str) -> list[str]:
    """``python -m snakemake`` with ``repo``'s Snakefile, run in ``workdir``, with ``args``."""
    return [
        python,
        "-m",
        "snakemake",
        "--snakefile",
        str(repo / "Snakefile"),
        "--directory",
        str(workdir),
        *args,
    ]


def snakemake(workdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    command = snakemake_command(PYTHON, REPO, workdir, *args)
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-4000:]}")
    return done


def run_once(workdir: Path, cores: int, extra: list[str]) -> dict:
    """Run the whole DAG on ``cores`` cores in ``workdir``; its figures."""
    before = children_cpu()
    started, started_at = time.perf_counter(), time.time()
    snakemake(workdir, "--cores", str(cores), *extra)
    wall = time.perf_counter() - started
    ended_at = time.time()
    total_cpu = children_cpu() - before
    bounds = log_bounds(workdir / "logs")
    jobs = job_cpu_table(workdir / "logs")
    summary = snakemake(workdir, "--detailed-summary", *extra).stdout
    cpu, needs, rule = simulate_cores.read_dag(summary, workdir / "logs")
    chain = simulate_cores.critical_path(cpu, needs)
    return {
        "cores": cores,
        "wall": wall,
        "jobs": len(jobs),
        "job_cpu": float(jobs["cpu"].sum()),
        "startup_cpu": float(jobs["startup"].sum()),
        "snakemake_cpu": total_cpu - float(jobs["cpu"].sum()),
        "ends": (bounds[0] - started_at, ended_at - bounds[1]) if bounds else None,
        "chain": [(job, rule[job], cpu[job]) for job in chain],
        "longest": sorted(((cpu[j], rule[j], j) for j in cpu), reverse=True)[:10],
        "rules": _per_rule(cpu, rule),
        "dag": (cpu, needs, simulate_cores.job_spans(workdir / "logs")),
        "startup": simulate_cores.startup_seconds(workdir / "logs"),
    }


def _per_rule(cpu: dict, rule: dict) -> list[tuple[str, int, float, float]]:
    """(rule, jobs, CPU of its lightest job, CPU of all its jobs), heaviest rule first; the
    rules of the CV plan's batches (one per batch) count as one, cross_validate_batch."""
    by_rule: dict[str, list[float]] = {}
    for job, seconds in cpu.items():
        by_rule.setdefault(rule_family(rule[job]), []).append(seconds)
    rows = [(name, len(v), min(v), sum(v)) for name, v in by_rule.items()]
    return sorted(rows, key=lambda row: -row[3])


def rule_family(rule: str) -> str:
    """The rule's name, or cross_validate_batch for a batch's rule (one per batch)."""
    return "cross_validate_batch" if rule.startswith("cross_validate_batch_") else rule


def report(result: dict) -> None:
    path = sum(seconds for _, _, seconds in result["chain"])
    print(
        f"--cores {result['cores']}: wall {result['wall']:.1f} s, {result['jobs']} jobs, "
        f"job CPU {result['job_cpu']:.1f} s (start-up and imports {result['startup_cpu']:.1f} s), "
        f"Snakemake's own CPU {result['snakemake_cpu']:.1f} s, critical path {path:.1f} s"
    )
    if result["ends"]:
        start, end = result["ends"]
        print(
            f"  {start:.1f} s from the command's start to the first line a job logged, "
            f"{end:.1f} s from the last write to a job's log to the command's end"
        )
    for job, rule, seconds in result["chain"]:
        print(f"    path {seconds:7.1f} s  {rule_family(rule):20s} {job}")
    print("  ten longest jobs (CPU s):")
    for seconds, rule, job in result["longest"]:
        print(f"    {seconds:7.1f}  {rule_family(rule):20s} {job}")
    print(f"  {'rule':20s} {'jobs':>5} {'lightest job (CPU s)':>21} {'all jobs (CPU s)':>17}")
    for name, count, lightest, total in result["rules"]:
        print(f"  {name:20s} {count:>5} {lightest:>21.2f} {total:>17.1f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--replay", type=int, nargs="*", default=[], help="core counts to replay the last run on"
    )
    parser.add_argument("--from", dest="source", type=Path, help="a folder to copy (e.g. .test)")
    parser.add_argument("--configfile", type=Path, nargs="*", default=[])
    parser.add_argument("--config", nargs="*", default=[], help="as snakemake --config")
    parser.add_argument(
        "--plan-cores", type=int, help="plan the CV for this many cores (cv.plan_cores)"
    )
    parser.add_argument("--keep", type=Path, help="keep the working folders under this folder")
    parser.add_argument("--repo", type=Path, help="run another checkout's Snakefile and config")
    parser.add_argument("--python", help="the interpreter with that checkout's environment")
    args = parser.parse_args(argv)
    global REPO, PYTHON
    REPO = (args.repo or REPO).resolve()
    PYTHON = args.python or PYTHON
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="pdmeasure-cores-", dir=args.keep))
    results = []
    try:
        for cores in args.cores:
            workdir = base / f"cores-{cores}"
            workdir.mkdir()
            configfiles = list(args.configfile)
            if args.plan_cores is not None:
                plan = workdir.parent / f"plan-{cores}.yaml"
                plan.write_text(f"cv:\n  plan_cores: {args.plan_cores}\n", encoding="utf-8")
                configfiles.append(plan)
            extra = prepare(workdir, args.source, configfiles)
            if args.config:
                extra += ["--config", *args.config]
            results.append(run_once(workdir, cores, extra))
            report(results[-1])
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    if args.replay and results:
        cpu, needs, spans = results[-1]["dag"]
        print(f"replay of the --cores {results[-1]['cores']} run (not a measurement):")
        start, spans = simulate_cores.with_start(cpu, spans)
        simulate_cores.print_replay(
            start, needs, args.replay, spans, startup=results[-1]["startup"]
        )
        if max(args.replay) >= TAIL_CORES and results[-1]["cores"] < TAIL_THREADS:
            print(
                f"  note: on {max(args.replay)} cores the jobs on the run's tail take up to "
                f"{TAIL_THREADS} threads; this run's --cores {results[-1]['cores']} gave them "
                f"fewer, so the replay gives them their busiest process's longer time. Run "
                f"with --cores {TAIL_THREADS} (also on fewer real cores: the replay reads CPU "
                "seconds)."
            )
    print(f"{'cores':>6} {'wall (s)':>9} {'jobs':>5} {'job CPU (s)':>12} {'Snakemake CPU (s)':>18}")
    for r in results:
        print(
            f"{r['cores']:>6} {r['wall']:>9.1f} {r['jobs']:>5} {r['job_cpu']:>12.1f} "
            f"{r['snakemake_cpu']:>18.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
