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
from collections.abc import Callable, Iterator
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
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
