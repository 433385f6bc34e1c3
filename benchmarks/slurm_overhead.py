"""What a Slurm run costs over a local one: the ``.test`` experiment run locally and under a
Slurm profile, interleaved, in fresh copies, with wall times, their ratio and the
number of Slurm submissions, and how long after each Slurm job ended Snakemake saw it end
(the Slurm plugin's status checks, paced by the profile).

Run from the repository root on a machine with Slurm up (``bash .ci/slurm-up`` brings up a
single-node one)::

    python benchmarks/slurm_overhead.py [--repeat 2] [--cores 2] [--profile .ci/slurm-profile]

The local run uses ``--cores N`` (default: the cores of the machine, what the single-node
cluster has); the Slurm run uses the profile alone, as ``--workflow-profile`` (default
``.ci/slurm-profile``: the settings for the single-node Slurm of ``.ci/slurm-up``, which has
no job accounting; ``profiles/slurm`` is the one for a cluster with ``sacct``). Each pair runs
one after the other, so a change of the machine's load falls on both. Prints each pair and
the best ratio, which is the figure to compare (a slower pair was disturbed). Not part of
``make bench``: it needs Slurm.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cores import REPO, snakemake_command  # noqa: E402 (the sibling script of this folder)

SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+)")
#: A submission with its Slurm log, whose folder names the rules of the (group) job.
SUBMITTED_LOG = re.compile(r"has been submitted with SLURM jobid (\d+) \(log: (\S+)\)")
#: Snakemake's time stamp line, then the line of a job it saw end.
FINISHED = re.compile(
    r"^\[(\w{3} \w{3} +\d+ [\d:]+ \d{4})\]\nFinished jobid: \d+ \(Rule: (\S+)\)", re.M
)


def slurm_end(jobid: str) -> float | None:
    """When Slurm says a job ended (``scontrol show job``, to the second), or None once Slurm
    has forgotten it (``MinJobAge``)."""
    shown = subprocess.run(["scontrol", "show", "job", jobid], capture_output=True, text=True)
    end = re.search(r"EndTime=(\S+)", shown.stdout)
    try:
        return datetime.datetime.fromisoformat(end.group(1)).timestamp() if end else None
    except ValueError:  # "Unknown": not ended
        return None


def seen_after_end(text: str) -> list[float]:
    """Seconds from each Slurm job's end to Snakemake's report of its first job as finished
    (both to the second). A job is matched by a rule whose name only its log folder holds."""
    folders = {jobid: Path(log).parent.name for jobid, log in SUBMITTED_LOG.findall(text)}
    seen: dict[str, float] = {}
    for stamp, rule in FINISHED.findall(text):
        owners = [jobid for jobid, folder in folders.items() if rule in folder]
        if len(owners) == 1 and owners[0] not in seen:
            when = datetime.datetime.strptime(stamp, "%a %b %d %H:%M:%S %Y").timestamp()
            seen[owners[0]] = when
    delays = []
    for jobid, when in seen.items():
        end = slurm_end(jobid)
        if end is not None:
            delays.append(when - end)
    return delays


def run(workdir: Path, *args: str) -> tuple[float, str]:
    """Wall seconds and output of the .test experiment in ``workdir``."""
    command = snakemake_command(
        workdir, "--configfile", str(workdir / "config" / "config.yaml"), *args
    )
    started = time.perf_counter()
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "MPLBACKEND": "Agg"}
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-4000:]}")
    return wall, done.stdout + done.stderr


def fresh(base: Path, name: str) -> Path:
    workdir = base / name
    shutil.copytree(
        REPO / ".test", workdir, ignore=shutil.ignore_patterns("results", "logs", ".snakemake")
    )
    return workdir


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--profile", type=Path, default=REPO / ".ci" / "slurm-profile", help="the Slurm profile"
    )
    args = parser.parse_args(argv)
    if shutil.which("sbatch") is None:
        raise SystemExit("no sbatch on PATH: bring Slurm up first (bash .ci/slurm-up)")
    ratios = []
    with tempfile.TemporaryDirectory(prefix="pdmeasure-slurm-") as tmp:
        for attempt in range(1, args.repeat + 1):
            local, _ = run(fresh(Path(tmp), f"local{attempt}"), "--cores", str(args.cores))
            slurm, text = run(
                fresh(Path(tmp), f"slurm{attempt}"),
                "--workflow-profile",
                str(args.profile.resolve()),
            )
            jobs = len(SUBMITTED.findall(text))
            ratios.append(slurm / local)
            delays = seen_after_end(text)
            seen = (
                f"; seen {min(delays):.0f}-{max(delays):.0f} s after they ended" if delays else ""
            )
            print(
                f"pair {attempt}: local --cores {args.cores} {local:.1f} s, Slurm {slurm:.1f} s "
                f"({jobs} submissions{seen}): {slurm / local:.2f}x",
                flush=True,
            )
    print(f"best ratio {min(ratios):.2f}x over {len(ratios)} pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
