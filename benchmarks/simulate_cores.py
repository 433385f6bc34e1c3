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
then the same schedule with each job's time as the 16-core ``device`` machine would take it
(:func:`on_device`, :data:`DEVICE`): once with the device kit as it is, whose jobs compile
their libraries from source, and once with the bytecode compiled, as after a ``pip install``.
That model is fitted to real runs of 2d05d40 on that machine (:data:`DEVICE_RUNS`,
``benchmarks/device_model.py``); its figures are estimates, not measurements.
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

#: Seconds for Snakemake to start a job, added to each job's CPU time in a replay.
START = 0.3


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


def startup_seconds(logs: Path) -> dict[str, float]:
    """Job (its log file, relative to ``logs``) -> the CPU seconds it took to start: the
    interpreter and the imports, before its work (:func:`pipeline_figures.job_cpu_table`)."""
    table = job_cpu_table(logs)
    return dict(zip(table["file"], table["startup"].astype(float)))


def with_start(
    cpu: Mapping[str, float],
    spans: Mapping[str, tuple[float, int]],
    start: float = START,
) -> tuple[dict[str, float], dict[str, tuple[float, int]]]:
    """Each job's time in a replay, its CPU plus ``start`` seconds for Snakemake to start it,
    and likewise the busiest-process time of each job in ``spans`` (:func:`job_spans`)."""
    return (
        {job: seconds + start for job, seconds in cpu.items()},
        {job: (span + start, n) for job, (span, n) in spans.items()},
    )


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


#: Real runs of commit 2d05d40 on the 16-core ``device`` machine, measured with
#: ``../shared/device`` on 2026-11-26: wall seconds by core count, for the full DAG (both
#: engines) and the scikit-learn engine alone (two runs at 16 cores).
#: ``benchmarks/device_model.py`` fits :data:`DEVICE` to them.
DEVICE_RUNS = {
    "full": {8: (130.0,), 16: (96.2,)},
    "sklearn": {8: (66.8,), 16: (61.3, 67.7)},
}

#: A job on the device against the same job here (:func:`on_device`).
#:
#: - ``kit_start``: how many times longer a job takes to start (interpreter and imports) when
#:   the device runs the kit as it is. The kit installs its wheels without bytecode, so every
#:   job compiles pandas, Snakemake's modules and scikit-learn from source. Measured here, not
#:   fitted: each DAG run again with the kit's packages stripped of their bytecode
#:   (docs/scale-out.md). This version's three DAGs started their jobs in 2.21-2.32 times
#:   the CPU (2.27 all together), 2d05d40's two in 2.45 and 2.78 (2.65).
#: - ``speed``: the device's seconds per CPU second here of Python's work, and ``jvm_speed``
#:   of a JVM's (the jobs that fit Weka models). This machine's speed varies between
#:   sessions, and not alike for both: in the session of 2026-11-29 a 2-core run of 2d05d40's
#:   full DAG took 17 % longer than in the session before, and its Weka RandomForest on krkopt
#:   28 % more CPU. ``benchmarks/device_model.py`` fits ``speed`` to the scikit-learn engine's
#:   runs on the device and then ``jvm_speed`` to the full DAG's (:data:`DEVICE_RUNS`),
#:   replaying 2d05d40's 2-core runs of that session with its own start-up factor, 2.65: root
#:   mean square log ratio 0.094, against 0.160 for one speed fitted to both DAGs. Compare
#:   another version's runs with a fit from the same session (its ``--model-full``).
DEVICE = {"speed": 1.19, "jvm_speed": 0.67, "kit_start": 2.27}


#: Where the logs of the jobs that fit Weka models lie: ``cross_validate`` and its parts and
#: batches, and 2d05d40's ``stats_cv5x2``. The job that assembles a split classifier's parts
#: lies there too and counts as one, though it starts no JVM (about 1 CPU-s of work).
JVM_JOBS = ("cv/weka/", "stats/cv5x2/weka/")


def jvm_job(job: str) -> bool:
    """Whether ``job`` (its log's path under ``logs/``) fits Weka models: a JVM's work, whose
    speed against this machine's differs from the Python jobs' (:data:`DEVICE`)."""
    return job.startswith(JVM_JOBS)


def on_device(
    time: Mapping[str, float],
    startup: Mapping[str, float],
    *,
    compiled: bool = False,
    device: Mapping[str, float] = DEVICE,
    start: float = START,
) -> dict[str, float]:
    """Each job's time on the device from its time here (its CPU plus ``start``).

    ``speed * s * startup + v * work + start``, where ``s`` is ``kit_start`` (the device kit
    as it is: no bytecode) or 1 (``compiled``: bytecode compiled before the run, as a ``pip
    install`` leaves it), and ``v`` is ``jvm_speed`` for a job that fits Weka models
    (:func:`jvm_job`; ``speed`` where ``device`` has none) and ``speed`` for every other.
    ``startup`` maps a job to its start-up CPU here (interpreter and imports: Python's, also
    in a Weka job); a job that has none starts for free.
    """
    factor = 1.0 if compiled else device["kit_start"]
    python = device["speed"]
    jvm = device.get("jvm_speed", python)
    times = {}
    for job, seconds in time.items():
        begin = startup.get(job, 0.0)
        work = seconds - start - begin
        times[job] = python * factor * begin + (jvm if jvm_job(job) else python) * work + start
    return times


def device_spans(
    spans: Mapping[str, tuple[float, int]],
    startup: Mapping[str, float],
    **kwargs,
) -> dict[str, tuple[float, int]]:
    """:func:`on_device` for the jobs that run steps side by side: their busiest process's
    time (which includes the job's start-up) scaled the same way."""
    scaled = on_device({job: span for job, (span, _) in spans.items()}, startup, **kwargs)
    return {job: (scaled[job], n) for job, (_, n) in spans.items()}


def print_replay(
    time: Mapping[str, float],
    needs: Mapping[str, set[str]],
    cores_list: list[int],
    spans: Mapping[str, tuple[float, int]] | None = None,
    tail: int = 8,
    startup: Mapping[str, float] | None = None,
    start: float = START,
) -> None:
    """The replay on each core count, its bounds, the ``tail`` jobs it ends on, and with
    ``startup`` (job -> its start-up CPU) the device model's estimates (:func:`on_device`;
    ``time`` and ``spans`` include ``start`` per job)."""
    work = sum(time.values())
    head = f"{'cores':>6} {'replay (s)':>11} {'work / cores':>13} {'critical path':>14}"
    if startup is not None:
        head += f" {'device, kit (s)':>16} {'device, compiled (s)':>21}"
    print(head)
    for cores in cores_list:
        took, _ = durations(time, spans, cores)
        path = sum(took[job] for job in critical_path(took, needs))
        wall = simulate(time, needs, cores, spans)
        text = f"{cores:>6} {wall:>11.1f} {work / cores:>13.1f} {path:>14.1f}"
        if startup is not None:
            kit, compiled = (
                simulate(
                    on_device(time, startup, compiled=flag, start=start),
                    needs,
                    cores,
                    device_spans(spans or {}, startup, compiled=flag, start=start),
                )
                for flag in (False, True)
            )
            text += f" {kit:>16.1f} {compiled:>21.1f}"
        print(text)
    for cores in cores_list:
        when = schedule(time, needs, cores, spans)
        last = sorted(when, key=lambda job: when[job][1])[-tail:] if tail else []
        if last:
            print(f"  the replay's last {len(last)} jobs to end on {cores} cores (start, end):")
        for job in last:
            print(f"    {when[job][0]:6.1f} {when[job][1]:6.1f}  {job}")
    if startup is not None:
        print(
            f"  device: each job {DEVICE['speed']:.2f} x s x start-up + v x work + {start} s, "
            f"v = {DEVICE['jvm_speed']:.2f} for a Weka fit and {DEVICE['speed']:.2f} otherwise, "
            f"s = {DEVICE['kit_start']} with the device kit as it is (no bytecode), 1 compiled "
            "(simulate_cores.DEVICE; benchmarks/device_model.py)"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, nargs="+", default=[2, 16])
    parser.add_argument(
        "--start", type=float, default=START, help="seconds for Snakemake to start a job"
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
    time, spans = with_start(cpu, job_spans(args.logs), args.start)
    work = sum(time.values())
    took, _ = durations(time, spans, max(args.cores))
    chain = critical_path(took, needs)
    path = sum(took[job] for job in chain)
    print(f"jobs: {len(time)}; work: {work:.0f} s ({args.start} s start per job included)")
    print(f"critical path at {max(args.cores)} cores: {path:.1f} s")
    for job in chain:
        print(f"  {took[job]:6.1f} s  {rule[job]:22s} {job}")
    print_replay(
        time, needs, args.cores, spans, startup=startup_seconds(args.logs), start=args.start
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
