"""The Snakefile's onstart hook on Snakemake's own rate limiter: lifted for a local run with
Snakemake's default limit, kept on a cluster and for a limit the user chose.

The limiter is Snakemake's own class, so a Snakemake that renames the limiter's ``max_jobs`` or
``timespan`` fails here; the scheduler is a stand-in, so
tests/workflow/test_pipeline_e2e.py checks the hook's effect on a real run.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from snakemake.scheduling.job_scheduler import JobRateLimiter
from snakemake.settings.types import MaxJobsPerTimespan

from pdmeasure.pipeline.scheduling import lift_default_rate_limit


def workflow(limit: str | None, *, local: bool = True) -> SimpleNamespace:
    """A workflow whose scheduler has a rate limiter of ``limit`` (as on the command line)."""
    limiter = None if limit is None else JobRateLimiter(MaxJobsPerTimespan.parse_choice(limit))
    return SimpleNamespace(local_exec=local, scheduler=SimpleNamespace(job_rate_limiter=limiter))


def test_a_local_run_with_snakemakes_default_runs_without_a_limit():
    from snakemake.cli import get_argument_parser

    default = get_argument_parser().get_default("max_jobs_per_timespan")
    run = workflow(default)
    assert lift_default_rate_limit(run) is True
    assert run.scheduler.job_rate_limiter is None


@pytest.mark.parametrize(
    "limit, local",
    [
        ("100/1s", False),  # a cluster keeps the limit that spaces its submissions
        ("10/1s", True),  # a limit the user chose
        ("100/1m", True),
        (None, True),  # --dry-run, --touch: no limiter
    ],
)
def test_any_other_limit_stays(limit, local):
    run = workflow(limit, local=local)
    before = run.scheduler.job_rate_limiter
    assert lift_default_rate_limit(run) is False
    assert run.scheduler.job_rate_limiter is before


def test_a_workflow_without_a_scheduler_is_left_alone():
    assert lift_default_rate_limit(SimpleNamespace(local_exec=True)) is False
