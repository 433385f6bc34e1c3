"""How a workflow script runs: its rule's log, its errors logged before they stop the job, and
its CPU time as the log's last line.

Every script under ``workflow/scripts`` ends in :func:`run_script`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import resource
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any


def script_logger(log_path: str | os.PathLike, name: str = "pdmeasure") -> logging.Logger:
    """Logging for a Snakemake script job: everything to ``log_path``, warnings also to stderr.

    Python warnings (``warnings.warn``) are routed into the log as well.

    Parameters
    ----------
    log_path : path-like
        The rule's ``log:`` file (overwritten).
    name : str
        Name of the returned logger.
    """
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    to_file = logging.FileHandler(log_path, mode="w", encoding="utf-8")
    to_file.setFormatter(fmt)
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setLevel(logging.WARNING)
    to_stderr.setFormatter(fmt)
    root.addHandler(to_file)
    root.addHandler(to_stderr)
    logging.captureWarnings(True)
    return logging.getLogger(name)


@contextlib.contextmanager
def log_errors(logger: logging.Logger) -> Iterator[None]:
    """Log an exception escaping the block (so it lands in the rule's log), then re-raise it."""
    try:
        yield
    except Exception:
        logger.exception("failed")
        raise


def run_script(main: Callable[[Any, logging.Logger], None], smk: Any) -> None:
    """Run a workflow script's ``main(smk, logger)`` with its rule's log, then end the process.

    The one entry point of every script under ``workflow/scripts``: logging goes to the rule's
    ``log:`` file (:func:`script_logger`), and an exception is logged there before it stops
    the job (:func:`log_errors`). The log's last line is the job's CPU time
    (:data:`CPU_LOG_LABEL`).

    After a successful ``main`` every output is written and closed (the writers of :mod:`pdmeasure.tables.io`
    rename complete files into place), so the process ends at once with status 0 once the log
    and the standard streams are flushed: the interpreter's teardown (finalising pandas,
    matplotlib, scikit-learn; stopping a JVM) frees nothing the operating system does not free
    anyway, and costs 0.05-0.25 CPU-s per job, summed over every job of a run.
    """
    started = process_cpu_seconds()
    logger = script_logger(smk.log[0])
    with log_errors(logger):
        main(smk, logger)
    total = process_cpu_seconds()
    logger.info(
        "%s %.2f s (start-up and imports %.2f s, work %.2f s)",
        CPU_LOG_LABEL,
        total,
        started,
        total - started,
    )
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


#: How :func:`run_script` starts its last log line: the job's CPU time, which
#: ``benchmarks/pipeline_figures.py`` sums over a run's logs.
CPU_LOG_LABEL = "job CPU time"


def process_cpu_seconds() -> float:
    """User + system CPU seconds of this process (all its threads, a JVM's included) and of
    its finished children, since it started.

    Snakemake's ``benchmark:`` files sample a job's CPU time every 0.5 s for 30 s, then every
    30 s, so they miss jobs shorter than one sample and the end of longer ones; the kernel's
    own account (:func:`resource.getrusage`) has neither gap.
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    return _seconds(own) + _seconds(resource.getrusage(resource.RUSAGE_CHILDREN))


#: How :func:`run_parallel` starts its log line: the processes a job ran its steps on and the
#: CPU time of the busiest, which ``benchmarks/pipeline_figures.py`` reads back.
PARALLEL_LOG_LABEL = "parallel steps"

#: A branch of :func:`run_parallel`: its relative cost and its steps, run in order.
Branch = tuple[float, Sequence[Callable[[], object]]]


def run_parallel(branches: Sequence[Branch], *, processes: int, logger: logging.Logger) -> None:
    """Run independent branches of a job's steps side by side, on up to ``processes``
    processes: this one and children forked from it (which share its imports and data).

    Each branch's steps run in order, in one process; the branches go, largest cost first, to
    the process with the least cost so far. With one process (a job given one thread) every
    step runs here, in the order given. A failed step is logged with its traceback by the
    process that ran it; the job then fails once every process has ended. The children's CPU
    time counts in the job's (:func:`process_cpu_seconds` includes finished children).

    The standard library's process pools start their workers afresh or need picklable
    tasks; a fork shares what the job has already read, and its steps write their own files.

    Parameters
    ----------
    branches : sequence of (cost, steps)
        ``steps`` are callables without arguments; ``cost`` any positive relative figure.
    processes : int
        Most processes to use (the job's ``threads``).
    logger : logging.Logger
        The job's logger (its file handler is shared by the children).
    """
    count = max(1, min(int(processes), len(branches)))
    if count == 1:
        for _, steps in branches:
            for step in steps:
                step()
        return
    bins: list[list[Callable[[], object]]] = [[] for _ in range(count)]
    load = [0.0] * count
    for cost, steps in sorted(branches, key=lambda branch: -branch[0]):
        target = load.index(min(load))
        bins[target].extend(steps)
        load[target] += cost
    _flush()
    children = [_fork(steps, logger) for steps in bins[1:]]
    started = resource.getrusage(resource.RUSAGE_SELF)
    try:
        for step in bins[0]:
            step()
    finally:
        ended = [os.wait4(pid, 0) for pid in children]
    done = resource.getrusage(resource.RUSAGE_SELF)
    cpu = [_seconds(done) - _seconds(started)] + [_seconds(usage) for _, _, usage in ended]
    failed = sum(os.waitstatus_to_exitcode(status) != 0 for _, status, _ in ended)
    if failed:
        raise RuntimeError(
            f"{failed} of the job's {count - 1} forked step processes failed; "
            "their errors are logged above"
        )
    logger.info(
        "%s: %d processes, the busiest %.2f CPU-s of %.2f",
        PARALLEL_LOG_LABEL,
        count,
        max(cpu),
        sum(cpu),
    )


def _seconds(usage: resource.struct_rusage) -> float:
    """User + system CPU seconds of a resource usage record."""
    return usage.ru_utime + usage.ru_stime


def _flush() -> None:
    """Flush the log handlers and the standard streams, so that a fork copies no buffered
    output and a child's output is out before it ends."""
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stdout.flush()
    sys.stderr.flush()


def _fork(steps: Sequence[Callable[[], object]], logger: logging.Logger) -> int:
    """Run ``steps`` in a child process; return its pid. The child logs a failure and ends
    with status 1, else 0, without the interpreter's teardown (as :func:`run_script`)."""
    pid = os.fork()
    if pid:
        return pid
    code = 0
    try:
        for step in steps:
            step()
    except BaseException:
        logger.exception("failed")
        code = 1
    _flush()
    os._exit(code)
