"""The pipeline on real cores: wall time, jobs, job CPU and the longest jobs of a fresh run of
the repository's DAG at each given core count.

Each core count runs ``snakemake --cores N`` with the repository's Snakefile in a fresh
temporary folder of its own (``--directory``): the repository's ``config.yaml`` is copied in,
or the whole folder given with ``--from``, and the results, logs and ``.snakemake/`` are
written there, so no run reuses another's files. The run is offline: the proxy variables point
to a closed port, so ``ucimlrepo`` fails at once and the data come from ``UCI_MIRROR``.

For each core count it prints the wall time of the command, the number of jobs, the seconds
and CPU seconds summed over the jobs, and the ten longest jobs; the run's CPU account: the
fitting jobs', the other jobs' and Snakemake's own, and the wall time as a multiple of the
fitting floor (the fitting jobs' CPU seconds / cores, the least wall time the fits allow);
then a table of all counts.
Not part of ``make bench``: minutes per core count, and its figures are times, not ratios.

Examples
--------
From the repository root, with ``UCI_MIRROR`` set to the offline copy of the UCI data::

    python benchmarks/cores.py --cores 1 2
    python benchmarks/cores.py --cores 2 --config 'run={engines: [sklearn]}'
    python benchmarks/cores.py --cores 2 --configfile my-config.yaml
    python benchmarks/cores.py --cores 2 --from .test --configfile .test/config/config.yaml
    python benchmarks/cores.py --cores 2 --keep runs    # keep the working folders

Notes
-----
The job figures come from the ``benchmark:`` file each job writes
(``<results>/benchmarks/**/*.tsv``, columns ``s``, ``cpu_time``, ``max_rss``:
:func:`pipeline_figures.benchmark_table`), one per job. Snakemake samples a job's CPU time
while it runs (every 0.5 s for 30 s, then every 30 s), so ``cpu_time`` misses what a job used
after its last sample; the wall seconds ``s`` are exact.

The CPU account is exact: each job's own, from the last line of its log
(:func:`pipeline_figures.job_cpu_table`), and the whole run's, from the kernel's account of
this process's finished children (:func:`resource.getrusage`), which holds Snakemake's process
and every process it waited for. Snakemake's own CPU is the difference: its scheduler, its
bookkeeping of each job, and the shell that starts each job.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline_figures import (  # noqa: E402 (the sibling script of this folder)
    benchmark_table,
    job_cpu_table,
)

#: The repository whose Snakefile and config.yaml run.
REPO = Path(__file__).resolve().parents[1]

#: A closed local port for every proxy variable: a download fails at once instead of waiting
#: for a network that is not there, and the pipeline reads the offline mirror.
OFFLINE = {
    name: "http://127.0.0.1:9"
    for name in ("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY")
}


#: The log folders of the model-fitting jobs (rules cross_validate and cross_validate_part).
FIT_LOGS = ("cv", "cv_parts")


def children_cpu_seconds() -> float:
    """User + system CPU seconds of this process's finished children and of everything they
    waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_account(jobs: pd.DataFrame, run_cpu: float, cores: int, wall: float) -> dict:
    """The run's CPU by kind, from its jobs' logs (``jobs``, :func:`job_cpu_table`) and the
    whole run's CPU seconds ``run_cpu``: ``fitting`` (the jobs logged under
    :data:`FIT_LOGS`), ``other`` (every other job), ``snakemake`` (the rest of the run:
    Snakemake's own process and the shells that start the jobs), and ``floor``, the fitting
    floor ``fitting / cores``, with ``ratio``, the wall time as a multiple of it (``nan``
    without fitting)."""
    fitting_job = jobs["group"].str.split("/").str[0].isin(FIT_LOGS)
    fitting = float(jobs.loc[fitting_job, "cpu"].sum())
    other = float(jobs.loc[~fitting_job, "cpu"].sum())
    floor = fitting / cores
    return {
        "fitting": fitting,
        "other": other,
        "snakemake": run_cpu - fitting - other,
        "floor": floor,
        "ratio": wall / floor if floor > 0 else float("nan"),
    }


def snakemake_command(workdir: Path, *args: str) -> list[str]:
    """``snakemake`` with the repository's Snakefile, run in ``workdir``, with ``args``."""
    return [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        *args,
    ]


def prepare(workdir: Path, source: Path | None, configfiles: list[Path]) -> list[Path]:
    """Fill a fresh working folder: ``source`` copied (without its results, logs and
    .snakemake), else the repository's config.yaml; the config files are copied in too, and
    their copies returned."""
    if source is not None:
        ignore = shutil.ignore_patterns("results", "logs", ".snakemake")
        shutil.copytree(source, workdir, ignore=ignore, dirs_exist_ok=True)
    else:
        shutil.copy(REPO / "config.yaml", workdir / "config.yaml")
    copies = []
    for number, path in enumerate(configfiles):
        copies.append(workdir / f"configfile_{number}_{path.name}")
        shutil.copy(path, copies[-1])
    return copies


def results_folder(workdir: Path, configfiles: list[Path]) -> Path:
    """The run's results folder: the ``results`` key of the last config file that sets it
    (Snakemake lets a later file override an earlier one), else ``results``."""
    folder = "results"
    for path in [workdir / "config.yaml", *configfiles]:
        if path.is_file():
            config = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            folder = config.get("results", folder)
    return workdir / folder


def run_once(workdir: Path, cores: int, configfiles: list[Path], config: list[str]) -> dict:
    """Run the whole DAG on ``cores`` cores in ``workdir``; its wall time and job table."""
    extra = ["--configfile", *map(str, configfiles)] if configfiles else []
    extra += ["--config", *config] if config else []
    command = snakemake_command(workdir, "--cores", str(cores), *extra)
    env = {**os.environ, "MPLBACKEND": "Agg", **OFFLINE}
    cpu_before = children_cpu_seconds()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-4000:]}")
    jobs = benchmark_table(results_folder(workdir, configfiles))
    account = cpu_account(
        job_cpu_table(workdir / "logs"), children_cpu_seconds() - cpu_before, cores, wall
    )
    return {"cores": cores, "wall": wall, "jobs": jobs, "account": account}


def report(result: dict) -> None:
    """Print one run's figures and its ten longest jobs."""
    jobs = result["jobs"]
    print(
        f"--cores {result['cores']}: wall {result['wall']:.1f} s, {len(jobs)} jobs, "
        f"job seconds {jobs['s'].sum():.1f}, job CPU seconds {jobs['cpu_time'].sum():.1f}"
    )
    print(f"  the ten longest jobs:\n  {'s':>8} {'CPU s':>8} {'MB':>6}  benchmark file")
    for row in jobs.sort_values("s", ascending=False).head(10).itertuples():
        print(f"  {row.s:>8.1f} {row.cpu_time:>8.1f} {row.max_rss:>6.0f}  {row.file}")
    account = result.get("account")
    if account is not None:
        fitting = account["fitting"]
        print(
            f"  CPU seconds (the kernel's account): fitting jobs {fitting:.1f}, other jobs "
            f"{account['other']:.1f} ({account['other'] / fitting if fitting else float('nan'):.2f}x "
            f"the fitting), Snakemake's own {account['snakemake']:.1f}"
        )
        print(
            f"  fitting floor (fitting CPU / {result['cores']} cores) {account['floor']:.1f} s: "
            f"the wall is {account['ratio']:.2f}x it"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--from", dest="source", type=Path, help="a folder to copy (e.g. .test)")
    parser.add_argument("--configfile", type=Path, nargs="*", default=[])
    parser.add_argument("--config", nargs="*", default=[], help="as snakemake --config")
    parser.add_argument("--keep", type=Path, help="keep the working folders under this folder")
    args = parser.parse_args(argv)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="pdmeasure-cores-", dir=args.keep))
    results = []
    try:
        for cores in args.cores:
            workdir = base / f"cores-{cores}"
            workdir.mkdir()
            configfiles = prepare(workdir, args.source, args.configfile)
            results.append(run_once(workdir, cores, configfiles, args.config))
            report(results[-1])
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print(f"working folders kept under {base}")
    print(
        f"{'cores':>6} {'wall (s)':>9} {'jobs':>5} {'job s':>8} {'job CPU s':>10} "
        f"{'floor (s)':>10} {'wall/floor':>11}"
    )
    for r in results:
        jobs, account = r["jobs"], r["account"]
        print(
            f"{r['cores']:>6} {r['wall']:>9.1f} {len(jobs):>5} {jobs['s'].sum():>8.1f} "
            f"{jobs['cpu_time'].sum():>10.1f} {account['floor']:>10.1f} {account['ratio']:>11.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
