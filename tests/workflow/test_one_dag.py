"""The DAG is a function of the config and the input files alone: `snakemake -n` lists the
same jobs, with the same threads, at any --cores and before and after a finished run, and a
dry run writes nothing but Snakemake's own files."""

from __future__ import annotations

import shutil

import pytest

from helpers import TEST_EXPERIMENT, dry_run, repo_config, run_snakemake, select, write_config

#: What Snakemake itself keeps under .snakemake/.
SNAKEMAKE_OWN = {
    "log",
    "locks",
    "metadata",
    "incomplete",
    "auxiliary",
    "conda",
    "conda-archive",
    "shadow",
    "singularity",
    "scripts",
    "storage",
    "iocache",
}


def _planned(workdir, cores, **kwargs):
    done = dry_run(workdir, cores=cores, **kwargs)
    assert done.ok, done.text[-3000:]
    return done.jobs, done.threads


def test_the_papers_dag_is_the_same_at_any_cores(tmp_path, uci_mirror):
    config = select(repo_config(parts=True), engines=["sklearn"])
    config["mirror"] = str(uci_mirror)
    write_config(tmp_path, config)
    jobs, threads = _planned(tmp_path, 1)
    # The declared parts: RandomForest on krkopt, each scheme in one part job.
    parts = [dict(w) for rule, w in jobs if rule == "cross_validate_part"]
    assert len(parts) == 2 and {p["classifier"] for p in parts} == {"RandomForest"}
    assert len([j for j in jobs if j[0] == "cross_validate"]) == 4
    for cores in (2, 16):
        assert _planned(tmp_path, cores) == (jobs, threads), cores
    own = {p.name for p in (tmp_path / ".snakemake").iterdir()}
    assert own <= SNAKEMAKE_OWN, own - SNAKEMAKE_OWN
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_the_dag_is_the_same_after_a_finished_run(tmp_path):
    workdir = tmp_path / ".test"
    shutil.copytree(TEST_EXPERIMENT, workdir, ignore=shutil.ignore_patterns("results", "logs"))
    configfiles = ["config/config.yaml"]
    before = {
        cores: _planned(workdir, cores, forceall=True, configfiles=configfiles) for cores in (1, 16)
    }
    assert before[1] == before[16]
    done = run_snakemake(workdir, "--configfile", "config/config.yaml", "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    for cores in (1, 2, 16):
        assert _planned(workdir, cores, forceall=True, configfiles=configfiles) == before[1], cores
        assert _planned(workdir, cores, configfiles=configfiles)[0] == set(), cores
    own = {p.name for p in (workdir / ".snakemake").iterdir()}
    assert own <= SNAKEMAKE_OWN, own - SNAKEMAKE_OWN
