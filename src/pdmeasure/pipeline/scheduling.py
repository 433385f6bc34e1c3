"""How Snakemake's scheduler runs this workflow's jobs: hooks for the Snakefile's ``onstart``.

Snakemake limits how many jobs it starts per timespan (``--max-jobs-per-timespan``, 100/1s by
default). After each pass that selects jobs, its scheduler arms a timer of that timespan, and
the timer starts another pass. A job that ends starts a pass too, which arms a timer of its
own, so while jobs wait for cores every ended job adds one more pass per timespan, and each
pass reads the size of every ready job's input files. Every value of the option is a limit,
and a long timespan keeps Snakemake waiting that long at exit for its last timer, so the
limit cannot be turned off from the command line; :func:`lift_default_rate_limit` does it
for a local run (docs/scale-out.md has the measurements).

On Slurm, Snakemake learns that a job has ended only from the executor plugin's status checks.
The plugin waits 10 s longer after each check that sees no job end (up to 180 s), so a job
that ends just after a check is seen up to that much later: in the ``.test`` run, 20 of its
60 s. :func:`pace_status_checks` waits instead a share of the time since a job was last
submitted or seen to end (docs/cluster.md has the measurements).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

#: Snakemake's default ``--max-jobs-per-timespan`` (100/1s), as (jobs, seconds).
DEFAULT_RATE_LIMIT = (100, 1)


def lift_default_rate_limit(workflow: Any) -> bool:
    """Let a local run's scheduler select jobs only when a job ends.

    Called from the Snakefile's ``onstart`` hook, once the scheduler exists and before it
    starts any job. A local run starts at most ``--cores`` jobs at a time, so Snakemake's
    default rate limit only adds scheduler passes there: on 2 cores the papers' DAG planned for
    16 cores made 15,574 passes in 396 s with it. A cluster run keeps its limit, which spaces
    its submissions, and so does a local run given any other limit.

    Parameters
    ----------
    workflow : snakemake.workflow.Workflow
        The running workflow (the Snakefile's ``workflow``): its ``local_exec`` and its
        ``scheduler.job_rate_limiter`` (``max_jobs``, ``timespan`` in seconds).

    Returns
    -------
    bool
        Whether the limit was lifted: False on a cluster, for a limit other than the default,
        and where the scheduler has no rate limiter (``--dry-run``, ``--touch``, or a Snakemake
        whose scheduler keeps it elsewhere).
    """
    scheduler: Any = getattr(workflow, "scheduler", None)
    limiter = getattr(scheduler, "job_rate_limiter", None)
    if not getattr(workflow, "local_exec", False) or limiter is None:
        return False
    if (limiter.max_jobs, limiter.timespan) != DEFAULT_RATE_LIMIT:
        return False
    scheduler.job_rate_limiter = None
    return True


#: The module of the executor whose status checks :func:`pace_status_checks` paces.
SLURM_EXECUTOR_MODULE = "snakemake_executor_plugin_slurm"

#: The wait before a status check, as a share of the time since a job was last submitted or
#: seen to end: a job is then seen ending at most this share of its run time late.
STATUS_CHECK_SHARE = 0.25

#: The longest wait between two status checks: the Slurm plugin's own cap.
MAX_STATUS_CHECK_SECONDS = 180.0


def status_check_wait(
    since_change: float,
    floor: float,
    *,
    share: float = STATUS_CHECK_SHARE,
    cap: float = MAX_STATUS_CHECK_SECONDS,
) -> float:
    """Seconds to wait before the next status check.

    ``min(cap, max(floor, share * since_change))``: the checks come ``floor`` seconds apart
    while the jobs are young, then each ``1 + share`` times as long after the last change
    as the one before, up to ``cap`` seconds apart. A job that ends is seen at most
    ``share`` of its run time late (or ``floor`` or ``cap`` seconds).

    Examples
    --------
    >>> status_check_wait(4.0, 2.0)
    2.0
    >>> status_check_wait(40.0, 2.0)
    10.0
    >>> status_check_wait(3600.0, 2.0)
    180.0
    """
    return min(cap, max(floor, share * since_change))


class StatusCheckPacer:
    """The sleep between a remote executor's status checks, paced by
    :func:`status_check_wait`.

    It reads the executor's active jobs (``active_jobs``, each with an ``external_jobid``,
    under ``lock``): a job submitted or seen to end since the last check is a change, and the
    wait restarts from ``floor``. While it waits it looks at the active jobs every ``floor``
    seconds, and a job submitted meanwhile ends the wait, so a short job submitted during a
    long wait is checked on as soon as a young one.

    Parameters
    ----------
    executor : snakemake_interface_executor_plugins.executors.remote.RemoteExecutor
        The executor whose ``active_jobs`` and ``lock`` are read.
    floor : float
        The shortest wait in seconds (the plugin's first and shortest interval).
    clock : callable, optional
        Seconds of a monotonic clock (:func:`time.monotonic`).
    """

    def __init__(
        self, executor: Any, floor: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.executor = executor
        self.floor = float(floor)
        self.clock = clock
        self.jobs: frozenset[str] = frozenset()
        self.changed = clock()

    def active(self) -> frozenset[str]:
        """The external ids of the executor's active jobs."""
        with self.executor.lock:
            return frozenset(str(job.external_jobid) for job in self.executor.active_jobs)

    def wait(self) -> float:
        """Seconds until the next check, noting a change in the active jobs since the last."""
        jobs, now = self.active(), self.clock()
        if jobs != self.jobs:
            self.jobs, self.changed = jobs, now
        if not jobs:
            return self.floor
        return status_check_wait(now - self.changed, self.floor)

    def __str__(self) -> str:
        return (
            f"each wait {STATUS_CHECK_SHARE:.0%} of the time since a job was last submitted or "
            f"seen to end, {self.floor:g}-{MAX_STATUS_CHECK_SECONDS:g} s"
        )

    async def sleep(self) -> None:
        """Wait until the next status check (the executor's ``sleep``)."""
        deadline = self.clock() + self.wait()
        while (left := deadline - self.clock()) > 0:
            await asyncio.sleep(min(left, self.floor))
            if self.active() - self.jobs:
                return


def pace_status_checks(workflow: Any) -> StatusCheckPacer | None:
    """Let a Slurm run see its jobs end soon after they end.

    Called from the Snakefile's ``onstart`` hook, once the scheduler and its executor exist.
    The Slurm plugin checks its jobs' status ``slurm-init-seconds-before-status-checks``
    after a job ends, then 10 s later than the last time after each check that sees no job
    end. This replaces the executor's sleep between checks with a :class:`StatusCheckPacer`
    whose shortest wait is that same setting, so a busy cluster's setting still spaces the
    checks. The plugin's own checks (``squeue`` or ``sacct``, its retries) are unchanged; the
    plugin has no setting for the increment, so the sleep is replaced on the running executor.

    Parameters
    ----------
    workflow : snakemake.workflow.Workflow
        The running workflow (the Snakefile's ``workflow``): its ``scheduler._executor``.

    Returns
    -------
    StatusCheckPacer or None
        The pacer, or None where the checks are left as they are: for any executor but the
        Slurm plugin's (a local run, the job steps inside a Slurm job), where the scheduler
        has no executor, and where the executor lacks ``active_jobs``, ``lock`` or ``sleep``.
    """
    scheduler: Any = getattr(workflow, "scheduler", None)
    executor = getattr(scheduler, "_executor", None)
    if executor is None or type(executor).__module__.split(".")[0] != SLURM_EXECUTOR_MODULE:
        return None
    # What the pacer reads and replaces; a plugin or Snakemake without them keeps its checks.
    if not all(hasattr(executor, name) for name in ("active_jobs", "lock", "sleep")):
        return None
    settings = getattr(getattr(executor, "workflow", None), "executor_settings", None)
    floor = getattr(settings, "init_seconds_before_status_checks", None) or 40
    pacer = StatusCheckPacer(executor, floor)
    executor.sleep = pacer.sleep
    return pacer
