"""How Snakemake's scheduler runs this workflow's jobs: a hook for the Snakefile's ``onstart``.

Snakemake limits how many jobs it starts per timespan (``--max-jobs-per-timespan``, 100/1s by
default). After each pass that selects jobs, its scheduler arms a timer of that timespan, and
the timer starts another pass. A job that ends starts a pass too, which arms a timer of its
own, so while jobs wait for cores every ended job adds one more pass per timespan, and each
pass reads the size of every ready job's input files. Every value of the option is a limit,
and a long timespan keeps Snakemake waiting that long at exit for its last timer, so the
limit cannot be turned off from the command line; :func:`lift_default_rate_limit` does it
for a local run (docs/scale-out.md has the measurements).
"""

from __future__ import annotations

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
