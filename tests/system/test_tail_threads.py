"""The jobs on a run's tail (analyse, render, collect, render_cd, render_figure7) run their
independent steps side by side when the run is planned for 8 cores or more, in processes
forked from the job's own: every file is the same as when they run their steps in order."""

from __future__ import annotations

import filecmp

import pytest

from helpers import run_snakemake, small_config, write_config

pytestmark = pytest.mark.slow

TAIL_RULES = ("analyse", "render", "collect", "render_cd", "render_figure7")


def _logs(workdir, rule):
    """The logs of ``rule``'s jobs: ``logs/<rule>/...`` or ``logs/<rule>.log``."""
    logs = workdir / "logs"
    return sorted((logs / rule).rglob("*.log")) + sorted(logs.glob(f"{rule}.log"))


def _files(results):
    return sorted(
        path.relative_to(results)
        for path in results.rglob("*")
        if path.is_file() and "benchmarks" not in path.relative_to(results).parts
    )


def test_steps_side_by_side_write_the_same_files_as_in_order(tmp_path, uci_mirror):
    runs = {}
    for plan_cores in (2, 16):
        workdir = tmp_path / f"plan_{plan_cores}"
        config = small_config(uci_mirror)
        # Planned for 16 cores the tail's jobs get 2-3 threads (--cores 2 caps them at 2); car's
        # classifiers are far too small to be cut into parts either way.
        config["cv"] = {**config.get("cv", {}), "plan_cores": plan_cores}
        write_config(workdir, config)
        done = run_snakemake(workdir, "--cores", "2")
        assert done.returncode == 0, done.stderr[-3000:]
        runs[plan_cores] = workdir
    for rule in TAIL_RULES:
        threaded, in_order = _logs(runs[16], rule), _logs(runs[2], rule)
        assert threaded and len(threaded) == len(in_order), rule
        for log in threaded:
            assert "parallel steps: 2 processes" in log.read_text(encoding="utf-8"), log
        for log in in_order:
            assert "parallel steps" not in log.read_text(encoding="utf-8"), log
    assert not list((runs[16] / "results" / "benchmarks" / "cv").rglob("parts/*.tsv"))
    files = _files(runs[2] / "results")
    assert files == _files(runs[16] / "results") and len(files) > 50
    differ = [
        str(f)
        for f in files
        if not filecmp.cmp(runs[2] / "results" / f, runs[16] / "results" / f, shallow=False)
    ]
    assert not differ, differ
