"""The Snakefile's onstart hooks: Snakemake's own rate limiter lifted for a local run with
Snakemake's default limit, kept on a cluster and for a limit the user chose; a Slurm run's
status checks paced by the time since its jobs last changed.

The limiter is Snakemake's own class, so a Snakemake that renames the limiter's ``max_jobs`` or
``timespan`` fails here; the scheduler is a stand-in, so
tests/workflow/test_pipeline_e2e.py checks the hook's effect on a real run.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from types import SimpleNamespace

import pytest
from snakemake.scheduling.job_scheduler import JobRateLimiter
from snakemake.settings.types import MaxJobsPerTimespan

from pdmeasure.pipeline.scheduling import (
    SLURM_EXECUTOR_MODULE,
    STATUS_CHECK_SHARE,
    StatusCheckPacer,
    lift_default_rate_limit,
    pace_status_checks,
    status_check_wait,
)


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


# --- the pace of a Slurm run's status checks -------------------------------------------------


class Clock:
    """A clock that moves only when ``asyncio.sleep`` (patched) or the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Executor:
    """A stand-in of a remote executor: its active jobs, under a lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active_jobs: list[SimpleNamespace] = []

    async def sleep(self) -> None:  # the remote executor's own wait, replaced by the hook
        raise AssertionError("the executor's own sleep ran")

    def submit(self, jobid: str) -> None:
        with self.lock:
            self.active_jobs.append(SimpleNamespace(external_jobid=jobid))

    def end(self, jobid: str) -> None:
        with self.lock:
            self.active_jobs = [j for j in self.active_jobs if j.external_jobid != jobid]


@pytest.mark.parametrize(
    "since, expected",
    [(0.0, 2.0), (8.0, 2.0), (40.0, 10.0), (720.0, 180.0), (36_000.0, 180.0)],
)
def test_the_wait_is_a_share_of_the_time_since_the_last_change(since, expected):
    assert status_check_wait(since, 2.0) == pytest.approx(expected)


def test_a_users_longer_first_interval_stays_the_shortest_wait():
    assert status_check_wait(100.0, 40.0) == 40.0
    assert status_check_wait(400.0, 40.0) == pytest.approx(100.0)


def test_a_job_is_seen_ending_at_most_the_share_of_its_run_time_late():
    """Checks paced from a submission at 0 s: a job ending at any time up to an hour is seen
    within 25 % of its run time (or the 2 s floor, or the 180 s cap) of its end."""
    clock, executor = Clock(), Executor()
    pacer = StatusCheckPacer(executor, 2.0, clock=clock)
    start = clock.now
    executor.submit("1")
    checks = []
    while clock.now - start < 3600:
        clock.now += pacer.wait()
        checks.append(clock.now - start)
    for ends in [0.5, 3.0, 13.0, 37.0, 100.0, 1000.0, 3000.0]:
        seen = min(c for c in checks if c >= ends)
        assert seen - ends <= max(2.0, min(180.0, STATUS_CHECK_SHARE * seen)) + 1e-9
    # the plugin's own schedule (2 s, then 10 s longer each time, up to 180 s) checks 30
    # times in the hour; this one 41 times, the extra ones in the first 12 minutes
    plugin, wait, t = 0, 2.0, 0.0
    while t < 3600:
        t, wait, plugin = t + wait, min(wait + 10.0, 180.0), plugin + 1
    assert (plugin, len(checks)) == (30, 41)


def test_a_change_in_the_active_jobs_restarts_the_wait_from_the_floor():
    clock, executor = Clock(), Executor()
    pacer = StatusCheckPacer(executor, 2.0, clock=clock)
    assert pacer.wait() == 2.0  # no job: the floor
    executor.submit("1")
    executor.submit("2")
    assert pacer.wait() == 2.0
    clock.now += 80.0
    assert pacer.wait() == pytest.approx(20.0)
    executor.end("1")
    assert pacer.wait() == 2.0
    clock.now += 40.0
    assert pacer.wait() == pytest.approx(10.0)


def test_a_job_submitted_during_a_long_wait_ends_the_wait(monkeypatch):
    clock, executor = Clock(), Executor()
    pacer = StatusCheckPacer(executor, 2.0, clock=clock)
    executor.submit("1")
    pacer.wait()
    clock.now += 400.0  # the next wait would be 100 s
    slept = []

    async def sleep(seconds):
        slept.append(seconds)
        clock.now += seconds
        if len(slept) == 3:
            executor.submit("2")

    monkeypatch.setattr(asyncio, "sleep", sleep)
    asyncio.run(pacer.sleep())
    assert slept == [2.0, 2.0, 2.0]


def test_a_wait_without_submissions_lasts_its_length(monkeypatch):
    clock, executor = Clock(), Executor()
    pacer = StatusCheckPacer(executor, 2.0, clock=clock)
    executor.submit("1")
    pacer.wait()
    clock.now += 21.0  # a wait of 5.25 s
    slept = []

    async def sleep(seconds):
        slept.append(seconds)
        clock.now += seconds

    monkeypatch.setattr(asyncio, "sleep", sleep)
    asyncio.run(pacer.sleep())
    assert sum(slept) == pytest.approx(5.25)
    assert max(slept) <= 2.0


def slurm_workflow(executor, init_seconds):
    settings = SimpleNamespace(init_seconds_before_status_checks=init_seconds)
    executor.workflow = SimpleNamespace(executor_settings=settings)
    return SimpleNamespace(scheduler=SimpleNamespace(_executor=executor))


def test_the_slurm_executors_sleep_is_replaced():
    slurm_executor = type("Executor", (Executor,), {"__module__": SLURM_EXECUTOR_MODULE})()
    pacer = pace_status_checks(slurm_workflow(slurm_executor, 2))
    assert isinstance(pacer, StatusCheckPacer)
    assert pacer.floor == 2.0
    assert slurm_executor.sleep == pacer.sleep
    assert "2-180 s" in str(pacer)
    # the plugin's own default first interval, where the profile sets none
    assert pace_status_checks(slurm_workflow(slurm_executor, None)).floor == 40.0


@pytest.mark.parametrize(
    "module", ["snakemake_executor_plugin_slurm_jobstep", "snakemake.executors.local"]
)
def test_other_executors_keep_their_sleep(module):
    other = type("Executor", (Executor,), {"__module__": module})()
    assert pace_status_checks(slurm_workflow(other, 2)) is None
    assert "sleep" not in vars(other)
    assert pace_status_checks(SimpleNamespace(scheduler=None)) is None


def test_a_slurm_executor_without_what_the_pacer_reads_keeps_its_sleep():
    changed = type("Executor", (), {"__module__": SLURM_EXECUTOR_MODULE, "lock": None})()
    assert pace_status_checks(slurm_workflow(changed, 2)) is None
    assert "sleep" not in vars(changed)


def test_the_slurm_plugin_sleeps_between_checks_through_the_replaced_method():
    """What the hook relies on in the installed Snakemake and Slurm plugin: the executor's
    wait loop awaits ``self.sleep()`` after each check, and keeps ``active_jobs`` and
    ``lock``; the scheduler holds the executor as ``_executor``."""
    slurm = pytest.importorskip(SLURM_EXECUTOR_MODULE)
    from snakemake.scheduling import job_scheduler

    loop = inspect.getsource(slurm.Executor._wait_for_jobs)
    assert "await self.sleep()" in loop
    assert "self.active_jobs" in loop and "self.lock" in loop
    assert "self._executor = executor_plugin.executor(" in inspect.getsource(
        job_scheduler.JobScheduler.__init__
    )
