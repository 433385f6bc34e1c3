"""Which jobs after the fits take several threads: on 8 cores or more, rules analyse and
render only for the datasets whose fits end last (the heaviest), the jobs across datasets
always, collect and render_cd one more on 16 cores or more; below 8 cores every such job one.
A dry run of the papers' config says so."""

from __future__ import annotations

import pytest

from helpers import dry_run, repo_config, select, write_config

RULE_THREADS = {"analyse": 3, "render": 2, "collect": 2, "render_cd": 2, "render_figure7": 2}
#: The jobs that end a run, on 16 cores or more.
WIDE_THREADS = {"collect": 3, "render_cd": 3}


def _threads(done, rule):
    """Dataset (or None for a job across datasets) -> threads of ``rule``'s jobs."""
    return {
        dict(wildcards).get("dataset"): done.threads[(name, wildcards)]
        for name, wildcards in done.jobs
        if name == rule
    }


@pytest.fixture(scope="module")
def papers_sklearn(tmp_path_factory, uci_mirror):
    workdir = tmp_path_factory.mktemp("tail")
    config = select(repo_config(), engines=["sklearn"])
    config["mirror"] = str(uci_mirror)
    write_config(workdir, config)
    return workdir


def test_on_16_cores_only_the_heaviest_datasets_analyses_take_threads(papers_sklearn):
    done = dry_run(papers_sklearn, cores=16)
    assert done.ok, done.text[-3000:]
    for rule in ("analyse", "render"):
        threads = _threads(done, rule)
        assert threads == {
            "car": 1,
            "nursery": 1,
            "dermatology": 1,
            "krkopt": RULE_THREADS[rule],
        }, rule
    for rule in ("collect", "render_cd", "render_figure7"):
        expected = WIDE_THREADS.get(rule, RULE_THREADS[rule])
        assert set(_threads(done, rule).values()) == {expected}, rule


def test_on_8_cores_the_jobs_across_datasets_keep_their_narrow_threads(papers_sklearn):
    done = dry_run(papers_sklearn, cores=8)
    assert done.ok, done.text[-3000:]
    assert _threads(done, "analyse")["krkopt"] == RULE_THREADS["analyse"]
    for rule in ("collect", "render_cd", "render_figure7"):
        assert set(_threads(done, rule).values()) == {RULE_THREADS[rule]}, rule


def test_below_8_cores_every_job_after_the_fits_has_one_thread(papers_sklearn):
    done = dry_run(papers_sklearn, cores=4)
    assert done.ok, done.text[-3000:]
    for rule in RULE_THREADS:
        assert set(_threads(done, rule).values()) == {1}, rule
