"""The scale-out figures of a completed pipeline run, read from its own records.

Run after a run, from the folder it ran in::

    /usr/bin/time -v snakemake --cores 2 --forceall     # wall time and peak RSS of the run
    python benchmarks/pipeline_figures.py [--results results] [--log .snakemake/log/<run>.log]

Prints, from the ``benchmark:`` file of every job (``<results>/benchmarks/**/*.tsv``): the
number of files, the CPU seconds summed over them, the largest job RSS, and the sums per
rule group; and from Snakemake's log of the run (default: the newest one): the run's span,
the time from the last cross-validation job to the end, and the jobs that finished after it;
and from the jobs' own logs (``logs/**/*.log``, last line written by
:func:`pdmeasure.pipeline.run.run_script`): the kernel's CPU account of every job, split into
start-up (interpreter, imports, JVM not yet started) and work. The benchmark files sample CPU
time every 0.5 s for 30 s and every 30 s after, so they miss short jobs and the end of long
ones; the logs' figures are exact.
Not part of ``make bench``: it needs a finished run, and its figures are times, not ratios.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from pathlib import Path

import pandas as pd

from pdmeasure.pipeline.run import CPU_LOG_LABEL, PARALLEL_LOG_LABEL

#: Rules whose jobs fit models or assemble their parts (the model-fitting stage).
CV_RULES = ("cross_validate", "cross_validate_part")

_FINISHED = re.compile(
    r"\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]\n(?:Finished jobid: \d+ \(Rule: (\w+)\))?"
)


def job_group(name: str) -> str:
    """The group of a job's benchmark or log file (relative path): its rule's folder, and the
    folder below it when there is one (``cv/weka/iris.tsv`` -> ``cv/weka``; ``analyse/iris.tsv``
    -> ``analyse``; ``collect.tsv`` -> ``collect``)."""
    parts = name.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0].split(".")[0]


def benchmark_table(results: Path) -> pd.DataFrame:
    """One row per benchmark file: ``file, group, s, cpu_time, max_rss``."""
    rows = []
    root = results / "benchmarks"
    for path in sorted(root.rglob("*.tsv")):
        record = pd.read_csv(path, sep="\t").iloc[0]
        name = path.relative_to(root).as_posix()
        rows.append(
            (
                name,
                job_group(name),
                record["s"],
                record["cpu_time"],
                record["max_rss"],
            )
        )
    if not rows:
        raise SystemExit(f"no benchmark files under {root}: run the pipeline first")
    return pd.DataFrame(rows, columns=["file", "group", "s", "cpu_time", "max_rss"])


_JOB_CPU = re.compile(
    re.escape(CPU_LOG_LABEL)
    + r" ([0-9.]+) s \(start-up and imports ([0-9.]+) s, work ([0-9.]+) s\)"
)
_PARALLEL = re.compile(
    re.escape(PARALLEL_LOG_LABEL) + r": (\d+) processes, the busiest ([0-9.]+) CPU-s of ([0-9.]+)"
)


def job_cpu_table(logs: Path) -> pd.DataFrame:
    """One row per job log with a CPU line: ``file, group, cpu, startup, work, span,
    processes``.

    ``span`` is the job's time on ``processes`` cores of its own: its CPU time, less the
    steps it ran side by side (:func:`pdmeasure.pipeline.run.run_parallel`), plus the busiest
    of their processes; ``cpu`` and 1 for a job that ran none.
    """
    rows = []
    for path in sorted(logs.rglob("*.log")):
        text = path.read_text(encoding="utf-8", errors="replace")
        found = _JOB_CPU.findall(text)
        if found:
            name = path.relative_to(logs).as_posix()
            cpu, startup, work = map(float, found[-1])
            span, processes = cpu, 1
            for count, busiest, steps in _PARALLEL.findall(text):
                span -= float(steps) - float(busiest)
                processes = max(processes, int(count))
            rows.append((name, job_group(name), cpu, startup, work, span, processes))
    columns = ["file", "group", "cpu", "startup", "work", "span", "processes"]
    return pd.DataFrame(rows, columns=columns)


def log_events(log: Path) -> tuple[list[dt.datetime], list[tuple[dt.datetime, str]]]:
    """Every timestamp of a Snakemake log, and ``(time, rule)`` of every finished job."""
    text = log.read_text(encoding="utf-8", errors="replace")
    stamps, finished = [], []
    for when, rule in _FINISHED.findall(text):
        time = dt.datetime.strptime(when, "%a %b %d %H:%M:%S %Y")
        stamps.append(time)
        if rule:
            finished.append((time, rule))
    return stamps, finished


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--logs", type=Path, default=Path("logs"), help="the rules' log folder")
    parser.add_argument(
        "--log", type=Path, default=None, help="default: the newest log of a run that finished jobs"
    )
    args = parser.parse_args(argv)

    table = benchmark_table(args.results)
    print(f"benchmark files: {len(table)}")
    print(f"CPU seconds summed over them: {table['cpu_time'].sum():.1f}")
    print(f"job seconds summed over them: {table['s'].sum():.1f}")
    print(f"largest job RSS: {table['max_rss'].max():.0f} MB")
    groups = table.groupby("group").agg(
        jobs=("s", "size"), seconds=("s", "sum"), cpu=("cpu_time", "sum"), longest=("s", "max")
    )
    print(groups.sort_values("cpu", ascending=False).round(1).to_string())

    jobs = job_cpu_table(args.logs)
    if len(jobs):
        print(f"job logs with a CPU line: {len(jobs)}")
        print(
            f"CPU seconds of the jobs (kernel account): {jobs['cpu'].sum():.1f} "
            f"(start-up and imports {jobs['startup'].sum():.1f}, work {jobs['work'].sum():.1f})"
        )
        by_group = jobs.groupby("group").agg(
            jobs=("cpu", "size"),
            cpu=("cpu", "sum"),
            startup=("startup", "sum"),
            work=("work", "sum"),
        )
        print(by_group.sort_values("cpu", ascending=False).round(1).to_string())

    # The newest log of a run that finished jobs (a run refused at start, e.g. by a locked
    # folder, writes a log too).
    logs = [
        path
        for path in sorted(Path(".snakemake/log").glob("*.snakemake.log"))
        if "Finished jobid" in path.read_text(encoding="utf-8", errors="replace")
    ]
    log = args.log or (logs[-1] if logs else None)
    if log is None:
        print("no Snakemake log found: pass --log", file=sys.stderr)
        return 0
    stamps, finished = log_events(log)
    cv = [time for time, rule in finished if rule in CV_RULES]
    print(f"log: {log}")
    if stamps:
        print(f"span of the log: {(max(stamps) - min(stamps)).total_seconds():.0f} s")
    if cv and finished:
        end = max(time for time, _ in finished)
        print(f"last CV job to the end: {(end - max(cv)).total_seconds():.0f} s")
        after = sorted((time, rule) for time, rule in finished if time > max(cv))
        print(
            "finished after it: "
            + ", ".join(f"{rule} (+{(t - max(cv)).seconds} s)" for t, rule in after)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
