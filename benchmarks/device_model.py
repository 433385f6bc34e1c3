"""Fit the device model of ``benchmarks/simulate_cores.py`` to the real runs on the device.

The model (:func:`simulate_cores.on_device`) times each job on the 16-core ``device`` machine
as ``speed * kit_start * start-up + v * work + start`` from its CPU here, split by its log
into start-up (interpreter and imports) and work, with ``v`` the JVM's speed for a Weka fit
and ``speed`` for every other job. ``kit_start`` is measured here (the same DAG run
with the device kit's packages stripped of their bytecode); ``speed`` is what this script
fits, once for Python's work and once for a JVM's (``jvm_speed``, the jobs that fit Weka
models): the values whose replays of the landed commit's 2-core runs come closest, in squared
log ratio, to that commit's runs on the device (:data:`simulate_cores.DEVICE_RUNS`).
``speed`` comes from the scikit-learn engine's runs, which start no JVM, and ``jvm_speed``
from the full DAG's at that ``speed``. It also prints the best ``speed`` and ``kit_start``
when both are free, as a check that the measured ``kit_start`` is what the device's figures
ask for.

Run after 2-core runs of the commit measured on the device (2d05d40), kept with
``benchmarks/cores.py --keep``::

    python benchmarks/cores.py --cores 2 --repo ../base --python ../base.py --keep runs/full
    python benchmarks/cores.py --cores 2 --repo ../base --python ../base.py --keep runs/sk \\
        --config 'run={engines: [sklearn]}'
    python benchmarks/device_model.py --repo ../base --python ../base.py \\
        --full runs/full/*/cores-2 --sklearn runs/sk/*/cores-2   # --kit-start 2.65

The machine's speed varies between sessions (its 2-core runs of one DAG by 17 % from one day
to the next), and the fitted speeds carry the speed of the session whose runs of 2d05d40
they were fitted to.
``--model-full`` and ``--model-sklearn`` model kept runs of this checkout with the speeds just
fitted, so that runs of both versions from one session are set against the device together::

    python benchmarks/device_model.py --repo ../base --python ../base.py \\
        --full runs/full/*/cores-2 --sklearn runs/sk/*/cores-2 \\
        --model-full runs/new16/*/cores-3 --model-sklearn runs/sk16/*/cores-3 --model-cores 16

Not part of ``make bench``: it replays runs that take minutes to make.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import simulate_cores as sc  # noqa: E402 (the sibling scripts of this folder)
from cores import snakemake_command  # noqa: E402

#: This checkout, whose kept runs ``--model-full`` and ``--model-sklearn`` read (with this
#: interpreter), while ``--repo`` and ``--python`` read the runs of 2d05d40 that the fit uses.
THIS_REPO = Path(__file__).resolve().parents[1]

#: The ``--config`` of the scikit-learn engine alone, as the device's runs used it.
SKLEARN_ONLY = ["--config", "run={engines: [sklearn]}"]

#: The start-up factor of 2d05d40's DAGs without the kit's bytecode, measured here
#: (docs/scale-out.md: 427.1 + 229.2 CPU-s against 153.8 + 93.6 for its full and scikit-learn
#: DAGs). The device's runs were of 2d05d40, so the fit uses its factor, not this version's.
KIT_START_2D05D40 = 2.65


def load_run(workdir: Path, repo: Path, python: str, extra: list[str]) -> dict:
    """A kept run's DAG and its jobs' times: ``time`` (CPU plus :data:`simulate_cores.START`),
    ``startup``, ``needs`` and ``spans``."""
    configs = sorted(workdir.glob("configfile_*"))
    command = snakemake_command(
        python,
        repo,
        workdir,
        "--detailed-summary",
        *(["--configfile", *map(str, configs)] if configs else []),
        *extra,
    )
    summary = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    cpu, needs, _ = sc.read_dag(summary, workdir / "logs")
    time, spans = sc.with_start(cpu, sc.job_spans(workdir / "logs"))
    return {
        "time": time,
        "startup": sc.startup_seconds(workdir / "logs"),
        "needs": needs,
        "spans": spans,
    }


def modelled(
    run: Mapping, cores: int, device: Mapping[str, float], *, compiled: bool = False
) -> float:
    """The run's replay on ``cores`` cores with its jobs timed by ``device``: the kit as is,
    or with its bytecode ``compiled`` first (:func:`simulate_cores.on_device`)."""
    return sc.simulate(
        sc.on_device(run["time"], run["startup"], compiled=compiled, device=device),
        run["needs"],
        cores,
        sc.device_spans(run["spans"], run["startup"], compiled=compiled, device=device),
    )


def model_rows(
    runs: Mapping[str, Mapping], cores_list: list[int], fitted: Mapping[str, float]
) -> list[tuple]:
    """``(name, cores, replay, compiled with DEVICE, compiled with fitted)`` for each run
    and core count: the replay as measured here, and the device model, compiled, with the
    stored :data:`simulate_cores.DEVICE` and with the ``fitted`` speed of this session."""
    rows = []
    for name, run in runs.items():
        for cores in cores_list:
            rows.append(
                (
                    name,
                    cores,
                    sc.simulate(run["time"], run["needs"], cores, run["spans"]),
                    modelled(run, cores, sc.DEVICE, compiled=True),
                    modelled(run, cores, fitted, compiled=True),
                )
            )
    return rows


def errors(runs: Mapping[str, Mapping], device: Mapping[str, float]) -> list[tuple]:
    """``(dag, cores, measured, modelled, log(measured / modelled))`` for every device run."""
    rows = []
    for dag, run in runs.items():
        for cores, walls in sc.DEVICE_RUNS[dag].items():
            estimate = modelled(run, cores, device)
            rows += [(dag, cores, wall, estimate, math.log(wall / estimate)) for wall in walls]
    return rows


def loss(runs: Mapping[str, Mapping], device: Mapping[str, float]) -> float:
    return sum(row[-1] ** 2 for row in errors(runs, device))


def best_on_grid(
    runs: Mapping[str, Mapping], grid: np.ndarray, device_of: Callable[[float], dict]
) -> float:
    """The value of ``grid`` whose device, ``device_of(value)``, has the least :func:`loss`.
    A grid, not an optimiser: the replay is a step function of the job times."""
    return float(min(grid, key=lambda value: loss(runs, device_of(value))))


def fit_speed(runs: Mapping[str, Mapping], kit_start: float, grid: np.ndarray) -> float:
    """The one ``speed`` of ``grid`` (Python's and the JVM's alike) with the least
    :func:`loss` at this ``kit_start``."""
    return best_on_grid(runs, grid, lambda s: {"speed": s, "kit_start": kit_start})


def fit_speeds(runs: Mapping[str, Mapping], kit_start: float, grid: np.ndarray) -> dict[str, float]:
    """The device's ``speed`` and ``jvm_speed`` (:func:`simulate_cores.on_device`).

    ``speed`` from the scikit-learn engine's runs, which start no JVM; then ``jvm_speed``
    from the full DAG's, at that ``speed``, over the same ``grid``. With the runs of one DAG
    only, one speed for both (:func:`fit_speed`)."""
    if set(runs) != {"full", "sklearn"}:
        speed = fit_speed(runs, kit_start, grid)
        return {"speed": speed, "jvm_speed": speed, "kit_start": kit_start}
    speed = fit_speed({"sklearn": runs["sklearn"]}, kit_start, grid)
    jvm = best_on_grid(
        {"full": runs["full"]},
        grid,
        lambda v: {"speed": speed, "jvm_speed": v, "kit_start": kit_start},
    )
    return {"speed": speed, "jvm_speed": jvm, "kit_start": kit_start}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", type=Path, help="a kept 2-core run of the full DAG")
    parser.add_argument("--sklearn", type=Path, help="a kept run of the scikit-learn engine")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--kit-start", type=float, default=KIT_START_2D05D40)
    parser.add_argument(
        "--model-full",
        type=Path,
        nargs="*",
        default=[],
        help="kept runs of this checkout's full DAG to model with the speed fitted here",
    )
    parser.add_argument(
        "--model-sklearn",
        type=Path,
        nargs="*",
        default=[],
        help="the same for runs of its scikit-learn engine alone",
    )
    parser.add_argument("--model-cores", type=int, nargs="+", default=[8, 16])
    args = parser.parse_args(argv)
    kept = {"full": (args.full, []), "sklearn": (args.sklearn, SKLEARN_ONLY)}
    runs = {
        dag: load_run(folder.resolve(), args.repo.resolve(), args.python, extra)
        for dag, (folder, extra) in kept.items()
        if folder is not None
    }
    if not runs:
        parser.error("give --full or --sklearn (or both)")
    speeds = np.round(np.arange(0.5, 2.5001, 0.01), 2)
    device = fit_speeds(runs, args.kit_start, speeds)
    speed, jvm = device["speed"], device["jvm_speed"]
    print(f"kit_start {args.kit_start} (measured): best speed {speed:.2f}, jvm_speed {jvm:.2f}")
    print(f"  {'DAG':8s} {'cores':>5} {'measured (s)':>13} {'model (s)':>10} {'log ratio':>10}")
    rows = errors(runs, device)
    for dag, cores, wall, estimate, error in rows:
        print(f"  {dag:8s} {cores:>5} {wall:>13.1f} {estimate:>10.1f} {error:>+10.3f}")
    print(
        f"  root mean square log ratio {math.sqrt(sum(r[-1] ** 2 for r in rows) / len(rows)):.3f}"
    )
    pairs = [
        (loss(runs, {"speed": s, "jvm_speed": s * jvm / speed, "kit_start": k}), s, k)
        for s in np.round(np.arange(0.8, 1.6001, 0.05), 2)
        for k in np.round(np.arange(1.0, 4.0001, 0.25), 2)
    ]
    best = min(pairs)
    print(
        f"both free (a check on kit_start; jvm_speed / speed held): speed {best[1]:.2f}, "
        f"kit_start {best[2]:.2f}, "
        f"root mean square log ratio {math.sqrt(best[0] / len(rows)):.3f}"
    )
    own = {
        f"{dag} {folder}": load_run(folder.resolve(), THIS_REPO, sys.executable, extra)
        for dag, folders, extra in (
            ("full", args.model_full, []),
            ("sklearn", args.model_sklearn, SKLEARN_ONLY),
        )
        for folder in folders
    }
    if own:
        stored = sc.DEVICE
        print(
            "this checkout's runs, compiled (a model, not a measurement): speed and jvm_speed "
            f"{stored['speed']:.2f} and {stored['jvm_speed']:.2f} (simulate_cores.DEVICE), "
            f"{speed:.2f} and {jvm:.2f} (fitted above)"
        )
        print(f"  {'cores':>5} {'replay (s)':>11} {'stored (s)':>11} {'fitted (s)':>11}  run")
        for name, cores, replay, with_stored, with_fitted in model_rows(
            own, args.model_cores, device
        ):
            print(f"  {cores:>5} {replay:>11.1f} {with_stored:>11.1f} {with_fitted:>11.1f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
