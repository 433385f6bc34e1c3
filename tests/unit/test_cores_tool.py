"""``benchmarks/cores.py`` without a run: the working folder it prepares, the command it runs,
where it reads the jobs' benchmark files and what it prints of them."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from helpers import REPO_ROOT, benchmark_module

cores = benchmark_module("cores")

#: The columns of a Snakemake benchmark file, as the rules' ``benchmark:`` write them.
HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def test_a_fresh_folder_gets_the_config_and_the_config_files(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("results: elsewhere\n", encoding="utf-8")
    workdir = tmp_path / "cores-2"
    workdir.mkdir()
    copies = cores.prepare(workdir, None, [extra])
    assert (workdir / "config.yaml").read_bytes() == (REPO_ROOT / "config.yaml").read_bytes()
    assert [path.parent for path in copies] == [workdir]
    # A later config file's results folder wins, as in Snakemake.
    assert cores.results_folder(workdir, copies) == workdir / "elsewhere"
    assert cores.results_folder(workdir, []).parent == workdir


def test_the_command_runs_the_repositorys_snakefile_in_the_folder_offline(tmp_path):
    command = cores.snakemake_command(tmp_path, "--cores", "3")
    assert command[:3] == [sys.executable, "-m", "snakemake"]
    assert command[command.index("--snakefile") + 1] == str(REPO_ROOT / "Snakefile")
    assert command[command.index("--directory") + 1] == str(tmp_path)
    assert command[-2:] == ["--cores", "3"]
    assert set(cores.OFFLINE) == {"https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"}


def test_the_report_sums_the_jobs_and_lists_the_longest_first(tmp_path, capsys):
    folder = tmp_path / "results" / "benchmarks" / "cv" / "sklearn"
    folder.mkdir(parents=True)
    for number in range(12):
        row = f"{number + 0.5}\t0:00:0{number % 10}\t{10 * number}\t0\t0\t0\t0\t0\t50\t{number}\n"
        (folder / f"job{number}.tsv").write_text(HEADER + row, encoding="utf-8")
    jobs = cores.benchmark_table(tmp_path / "results")
    cores.report({"cores": 2, "wall": 30.0, "jobs": jobs})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("--cores 2: wall 30.0 s, 12 jobs, job seconds 72.0, job CPU seconds 66.0")
    listed = [line.split()[-1] for line in lines[3:]]
    assert listed == [f"cv/sklearn/job{number}.tsv" for number in range(11, 1, -1)]


def test_jobs_group_by_rule_and_engine_folder():
    figures = benchmark_module("pipeline_figures")
    groups = [
        figures.job_group(name)
        for name in ("cv/weka/iris.log", "cv_parts/weka/iris/J48/cv_1-2.log", "analyse/iris.log")
    ]
    assert groups == ["cv/weka", "cv_parts/weka", "analyse"]
    assert [figures.job_group(name) for name in ("render/weka.tsv", "collect.tsv")] == [
        "render",
        "collect",
    ]


def test_the_cpu_account_splits_fitting_other_jobs_and_snakemake():
    jobs = pd.DataFrame(
        {
            "group": ["cv/weka", "cv_parts/weka", "analyse", "render", "data"],
            "cpu": [30.0, 10.0, 6.0, 3.0, 1.0],
        }
    )
    account = cores.cpu_account(jobs, run_cpu=58.0, cores=2, wall=30.0)
    assert account == {
        "fitting": 40.0,
        "other": 10.0,
        "snakemake": 8.0,
        "floor": 20.0,
        "ratio": 1.5,
    }
    # Without a fitting job there is no floor to compare with.
    assert np.isnan(cores.cpu_account(jobs.iloc[2:], 12.0, 2, 5.0)["ratio"])


def test_the_report_gives_the_wall_as_a_multiple_of_the_fitting_floor(tmp_path, capsys):
    folder = tmp_path / "results" / "benchmarks" / "cv" / "sklearn"
    folder.mkdir(parents=True)
    (folder / "job.tsv").write_text(HEADER + "1\t0:00:01\t1\t0\t0\t0\t0\t0\t50\t1\n")
    account = {"fitting": 40.0, "other": 10.0, "snakemake": 8.0, "floor": 20.0, "ratio": 1.5}
    jobs = cores.benchmark_table(tmp_path / "results")
    cores.report({"cores": 2, "wall": 30.0, "jobs": jobs, "account": account})
    out = capsys.readouterr().out
    assert "fitting jobs 40.0, other jobs 10.0 (0.25x the fitting), Snakemake's own 8.0" in out
    assert "fitting floor (fitting CPU / 2 cores) 20.0 s: the wall is 1.50x it" in out
