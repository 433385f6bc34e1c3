"""Wall time of a finished run replayed on N cores: its own DAG and job times, list-scheduled.

Run after a run, from the folder it ran in::

    snakemake --cores 2 --forceall
    python benchmarks/simulate_cores.py --cores 2 16 64 [--start 0.3]

The DAG is Snakemake's own (``snakemake --detailed-summary``: every output file with its rule,
log and input files; a job is a log file). A job's time is its CPU time from the last line of
its log (:func:`pdmeasure.pipeline.run.run_script`, the kernel's account: the time the job needs
on a core of its own) plus ``--start`` seconds for Snakemake to start it. A job that ran steps
side by side on p processes (its log's ``parallel steps`` line) takes min(p, N) cores, for its
busiest process's time plus the rest of its CPU (:func:`durations`). The schedule starts,
whenever cores are free, the ready jobs with the longest path to the end of the run (the
critical-path-first list schedule); it is an estimate of what N
dedicated cores can do, not a measurement: shared caches and memory bandwidth, file-system
latency and Snakemake's own CPU are left out. ``--cores 2`` next to the measured wall time of
the same run shows how far off it is.

Prints, per core count, the simulated wall time and its two lower bounds: the total work over
the cores, and the critical path (the longest chain of dependent jobs), which it also lists;
then the range a real run may take, from how far this replay was off for real 8- and 16-core
runs (:data:`CALIBRATION`: 1.1-1.6 times the replay).
"""

from __future__ import annotations

import argparse
import csv
import heapq
import io
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline_figures import job_cpu_table  # noqa: E402 (the sibling script of this folder)


def read_dag(summary: str, logs: Path) -> tuple[dict[str, float], dict[str, set[str]], dict]:
    """Jobs, their times and their dependencies from ``snakemake --detailed-summary`` output.

    Returns
    -------
    time : dict
        Job (its log file, relative to ``logs``) -> CPU seconds from its log.
    needs : dict
        Job -> the jobs whose outputs it reads.
    rule : dict
        Job -> its rule's name.
    """
    rows = list(csv.DictReader(io.StringIO(summary), delimiter="\t"))
    producer, rule, inputs = {}, {}, {}
    for row in rows:
        log = row["log-file(s)"].split(",")[0].strip()
        if not log or log == "-":
            continue
        job = Path(log).relative_to(logs.name).as_posix() if log.startswith(logs.name) else log
        producer[row["output_file"]] = job
        rule[job] = row["rule"]
        files = [f for f in row["input-file(s)"].split(",") if f and f != "-"]
        inputs.setdefault(job, set()).update(files)
    cpu = job_cpu_table(logs).set_index("file")["cpu"].to_dict()
    missing = sorted(job for job in rule if job not in cpu)
    if missing:
        raise SystemExit(
            f"{len(missing)} jobs have no CPU line in their log (first: {missing[0]}): "
            "run the whole pipeline with this version first"
        )
    needs = {
        job: {producer[f] for f in files if f in producer and producer[f] != job}
        for job, files in inputs.items()
    }
    return {job: float(cpu[job]) for job in rule}, needs, rule


def users_of(time: Mapping[str, float], needs: Mapping[str, set[str]]) -> dict[str, list[str]]:
    """Job -> the jobs that read its outputs (``needs`` turned around)."""
    users: dict[str, list[str]] = {job: [] for job in time}
    for job, before in needs.items():
        for other in before:
            users[other].append(job)
    return users


def longest_paths(time: Mapping[str, float], needs: Mapping[str, set[str]]) -> dict[str, float]:
    """Each job's longest path to the end of the run, its own time included."""
    users = users_of(time, needs)
    memo: dict[str, float] = {}

    def to_end(job: str) -> float:
        if job not in memo:
            memo[job] = time[job] + max((to_end(u) for u in users[job]), default=0.0)
        return memo[job]

    sys.setrecursionlimit(max(10_000, 4 * len(time)))
    return {job: to_end(job) for job in time}


def job_spans(logs: Path) -> dict[str, tuple[float, int]]:
    """Job -> (its time on its own processes, how many) for the jobs that ran steps side by
    side (:func:`pdmeasure.pipeline.run.run_parallel`); see :func:`pipeline_figures.job_cpu_table`.
    """
    table = job_cpu_table(logs)
    table = table[table["processes"] > 1]
    return {
        row.file: (float(row.span), int(row.processes)) for row in table.itertuples(index=False)
    }


def durations(
    time: Mapping[str, float],
    spans: Mapping[str, tuple[float, int]] | None,
    cores: int,
) -> tuple[dict[str, float], dict[str, int]]:
    """Each job's time and cores on a run of ``cores`` cores: a job that ran steps on p
    processes takes min(p, cores) of them, for max(its span, its CPU / those cores); every
    other job one core for its CPU time."""
    spans = spans or {}
    width = {job: min(spans[job][1], cores) if job in spans else 1 for job in time}
    took = {
        job: max(spans[job][0], time[job] / width[job]) if job in spans else time[job]
        for job in time
    }
    return took, width


def schedule(
    time: Mapping[str, float],
    needs: Mapping[str, set[str]],
    cores: int,
    spans: Mapping[str, tuple[float, int]] | None = None,
) -> dict[str, tuple[float, float]]:
    """Job -> (start, end) in the critical-path-first list schedule on ``cores`` cores.

    ``time`` is each job's CPU time; ``spans`` (:func:`job_spans`) the jobs that run steps on
    several processes, each then taking that many cores (:func:`durations`). Whenever cores
    are free, the ready jobs start in order of their longest path to the end, each that fits.
    """
    took, width = durations(time, spans, cores)
    rank = longest_paths(took, needs)
    waiting = {job: set(before) for job, before in needs.items()}
    users = users_of(time, needs)
    ready = sorted((job for job in time if not waiting[job]), key=lambda job: -rank[job])
    running: list[tuple[float, str]] = []
    when: dict[str, tuple[float, float]] = {}
    now, free = 0.0, cores
    while ready or running:
        for job in list(ready):
            if width[job] <= free:
                ready.remove(job)
                free -= width[job]
                when[job] = (now, now + took[job])
                heapq.heappush(running, (now + took[job], job))
        now, done = heapq.heappop(running)
        free += width[done]
        for user in users[done]:
            waiting[user].discard(done)
            if not waiting[user]:
                ready.append(user)
        ready.sort(key=lambda job: -rank[job])
    return when


def simulate(
    time: Mapping[str, float],
    needs: Mapping[str, set[str]],
    cores: int,
    spans: Mapping[str, tuple[float, int]] | None = None,
) -> float:
    """Makespan of :func:`schedule`."""
    return max(end for _, end in schedule(time, needs, cores, spans).values())


def critical_path(time: Mapping[str, float], needs: Mapping[str, set[str]]) -> list[str]:
    """The longest chain of dependent jobs, first job first."""
    rank = longest_paths(time, needs)
    users = users_of(time, needs)
    job = max((j for j in time if not needs[j]), key=rank.__getitem__)
    chain = [job]
    while users[job]:
        job = max(users[job], key=rank.__getitem__)
        chain.append(job)
    return chain


#: Real runs on a 16-core machine against replays of the same commit's 2-core runs on the
#: development machine, wall seconds by core count. Measured with ``../shared/device`` on
#: 2026-11-26 for commit 2d05d40: the full DAG (both engines) and the scikit-learn engine
#: alone (two runs at 16 cores). Replayed (--start 0.3) from ``benchmarks/cores.py --cores 2``
#: runs of 2d05d40 here: the full DAG in six sessions (the machine's speed varies between
#: sessions), the scikit-learn engine in one. Every replay was optimistic, by the ratio
#: measured / replay; a replay of another run is calibrated by the smallest and the largest of
#: those ratios (:func:`calibrated`).
CALIBRATION = {
    "full": {
        "measured": {8: (130.0,), 16: (96.2,)},
        "replays": (
            {8: 101.4, 16: 79.9},
            {8: 115.8, 16: 87.3},
            {8: 106.0, 16: 78.7},
            {8: 111.8, 16: 84.0},
            {8: 114.3, 16: 87.5},
            {8: 101.9, 16: 76.3},
        ),
    },
    "sklearn": {
        "measured": {8: (66.8,), 16: (61.3, 67.7)},
        "replays": ({8: 41.8, 16: 41.8},),
    },
}


def ratios(cores: int) -> list[float]:
    """Every measured / replay ratio of :data:`CALIBRATION` at ``cores`` cores."""
    return [
        wall / replay[cores]
        for dag in CALIBRATION.values()
        for wall in dag["measured"].get(cores, ())
        for replay in dag["replays"]
    ]


def calibrated(replayed: float, cores: int) -> tuple[float, float] | None:
    """The range of estimates of a real run from a replay on ``cores`` cores: the replay times
    the smallest and the largest ratio of :func:`ratios`; None where none was measured."""
    found = ratios(cores)
    if not found:
        return None
    return replayed * min(found), replayed * max(found)


def print_replay(
    time: Mapping[str, float],
    needs: Mapping[str, set[str]],
    cores_list: list[int],
    spans: Mapping[str, tuple[float, int]] | None = None,
    tail: int = 8,
) -> None:
    """The replay on each core count, its bounds, its calibrated range, and the ``tail`` jobs
    it ends on."""
    work = sum(time.values())
    print(
        f"{'cores':>6} {'replay (s)':>11} {'work / cores':>13} {'critical path':>14} "
        f"{'calibrated (s)':>15}"
    )
    for cores in cores_list:
        took, _ = durations(time, spans, cores)
        path = sum(took[job] for job in critical_path(took, needs))
        wall = simulate(time, needs, cores, spans)
        band = calibrated(wall, cores)
        text = f"{band[0]:.0f}-{band[1]:.0f}" if band else "not measured"
        print(f"{cores:>6} {wall:>11.1f} {work / cores:>13.1f} {path:>14.1f} {text:>15}")
    for cores in cores_list:
        when = schedule(time, needs, cores, spans)
        last = sorted(when, key=lambda job: when[job][1])[-tail:] if tail else []
        if last:
            print(f"  the replay's last {len(last)} jobs to end on {cores} cores (start, end):")
        for job in last:
            print(f"    {when[job][0]:6.1f} {when[job][1]:6.1f}  {job}")
    for cores in cores_list:
        found = ratios(cores)
        if found:
            print(
                f"  calibration at {cores} cores (real runs of 2d05d40 / replays): "
                f"{min(found):.2f}-{max(found):.2f}"
            )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, nargs="+", default=[2, 16])
    parser.add_argument(
        "--start", type=float, default=0.3, help="seconds for Snakemake to start a job"
    )
    parser.add_argument("--logs", type=Path, default=Path("logs"), help="the rules' log folder")
    parser.add_argument(
        "--summary", type=Path, help="a saved `snakemake --detailed-summary` (default: run it)"
    )
    args = parser.parse_args(argv)
    if args.summary:
        summary = args.summary.read_text(encoding="utf-8")
    else:
        summary = subprocess.run(
            [sys.executable, "-m", "snakemake", "--detailed-summary"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    cpu, needs, rule = read_dag(summary, args.logs)
    time = {job: seconds + args.start for job, seconds in cpu.items()}
    spans = {job: (span + args.start, n) for job, (span, n) in job_spans(args.logs).items()}
    work = sum(time.values())
    took, _ = durations(time, spans, max(args.cores))
    chain = critical_path(took, needs)
    path = sum(took[job] for job in chain)
    print(f"jobs: {len(time)}; work: {work:.0f} s ({args.start} s start per job included)")
    print(f"critical path at {max(args.cores)} cores: {path:.1f} s")
    for job in chain:
        print(f"  {took[job]:6.1f} s  {rule[job]:22s} {job}")
    print_replay(time, needs, args.cores, spans)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
