"""A job's independent steps side by side (``pdmeasure.pipeline.run.run_parallel``), and how
``benchmarks/pipeline_figures.py`` reads such a job's log."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest

from helpers import benchmark_module
from pdmeasure.pipeline.run import (
    CPU_LOG_LABEL,
    PARALLEL_LOG_LABEL,
    process_cpu_seconds,
    run_parallel,
    script_logger,
)


@pytest.fixture
def logger(tmp_path):
    log = script_logger(tmp_path / "job.log", name="pdmeasure.test_run_parallel")
    yield log
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()


def _write(path: Path, text: str = ""):
    def step():
        path.write_text(f"{os.getpid()} {text}", encoding="utf-8")

    step.__name__ = f"write {path.name}"
    return step


def _burn(seconds: float):
    def step():
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    return step


def _pid(path: Path) -> int:
    return int(path.read_text(encoding="utf-8").split()[0])


def test_one_process_runs_every_step_here_in_the_order_given(tmp_path, logger):
    order = []
    run_parallel(
        [
            (1.0, [lambda: order.append("a"), lambda: order.append("b")]),
            (5.0, [lambda: order.append("c")]),
        ],
        processes=1,
        logger=logger,
    )
    assert order == ["a", "b", "c"]
    assert PARALLEL_LOG_LABEL not in (tmp_path / "job.log").read_text(encoding="utf-8")


def test_branches_run_in_forked_processes_largest_first_to_the_least_loaded(tmp_path, logger):
    files = {name: tmp_path / f"{name}.txt" for name in "abcd"}
    # costs 4, 3, 2, 1 on two processes: {4, 1} and {3, 2}; this process takes the largest
    run_parallel(
        [
            (2.0, [_write(files["c"])]),
            (4.0, [_write(files["a"])]),
            (1.0, [_write(files["d"])]),
            (3.0, [_write(files["b"])]),
        ],
        processes=2,
        logger=logger,
    )
    pids = {name: _pid(path) for name, path in files.items()}
    assert pids["a"] == pids["d"] == os.getpid()
    assert pids["b"] == pids["c"] != os.getpid()
    text = (tmp_path / "job.log").read_text(encoding="utf-8")
    assert f"{PARALLEL_LOG_LABEL}: 2 processes, the busiest" in text


def test_processes_are_capped_by_the_branches(tmp_path, logger):
    run_parallel([(1.0, [_write(tmp_path / "a.txt")])], processes=8, logger=logger)
    assert _pid(tmp_path / "a.txt") == os.getpid()


def test_the_childrens_cpu_counts_in_the_jobs_and_in_the_busiest_figure(tmp_path, logger):
    before = process_cpu_seconds()
    run_parallel(
        [(1.0, [_burn(0.3)]), (1.0, [_burn(0.3)]), (1.0, [_burn(0.3)])],
        processes=3,
        logger=logger,
    )
    assert process_cpu_seconds() - before >= 0.85
    line = next(
        row
        for row in (tmp_path / "job.log").read_text(encoding="utf-8").splitlines()
        if PARALLEL_LOG_LABEL in row
    )
    busiest, total = (float(x) for x in line.split("busiest ")[1].split(" CPU-s of "))
    assert 0.28 <= busiest < total and total >= 0.85


def test_a_failed_step_in_a_child_is_logged_and_fails_the_job_after_the_others(tmp_path, logger):
    def broken():
        raise ValueError("column 'value' is missing from measures.csv")

    with pytest.raises(RuntimeError, match="1 of the job's 2 forked step processes failed"):
        run_parallel(
            [
                (3.0, [_burn(0.2), _write(tmp_path / "here.txt")]),
                (2.0, [broken, _write(tmp_path / "after.txt")]),
                (1.0, [_write(tmp_path / "other.txt")]),
            ],
            processes=3,
            logger=logger,
        )
    text = (tmp_path / "job.log").read_text(encoding="utf-8")
    assert "column 'value' is missing from measures.csv" in text and "Traceback" in text
    assert (tmp_path / "here.txt").exists() and (tmp_path / "other.txt").exists()
    assert not (tmp_path / "after.txt").exists()


def test_a_failed_step_here_raises_its_own_error_once_the_children_end(tmp_path, logger):
    def broken():
        raise KeyError("kappa")

    with pytest.raises(KeyError, match="kappa"):
        run_parallel(
            [(5.0, [broken]), (1.0, [_burn(0.2), _write(tmp_path / "child.txt")])],
            processes=2,
            logger=logger,
        )
    assert (tmp_path / "child.txt").exists()


def test_the_job_table_reads_a_jobs_span_from_its_parallel_line(tmp_path):
    figures = benchmark_module("pipeline_figures")
    (tmp_path / "a.log").write_text(
        f"x INFO pdmeasure: {PARALLEL_LOG_LABEL}: 3 processes, the busiest 2.00 CPU-s of 5.00\n"
        f"x INFO pdmeasure: {CPU_LOG_LABEL} 7.00 s (start-up and imports 1.50 s, work 5.50 s)\n",
        encoding="utf-8",
    )
    (tmp_path / "b.log").write_text(
        f"x INFO pdmeasure: {CPU_LOG_LABEL} 1.25 s (start-up and imports 1.00 s, work 0.25 s)\n",
        encoding="utf-8",
    )
    table = figures.job_cpu_table(tmp_path).set_index("file")
    assert table.loc["a.log", ["cpu", "span", "processes"]].tolist() == [7.0, 4.0, 3]
    assert table.loc["b.log", ["cpu", "span", "processes"]].tolist() == [1.25, 1.25, 1]
