"""A study over a folder of files: every dataset is checked before any job, one message
lists every file that cannot run, `exclude` leaves files out, and `skip_invalid` sets the
bad ones aside, runs the rest and lists them at the top of the study's report. With the study
example's `render` settings (no per-dataset figures, no Figure 7) the tables and pages are
written, and turning the figures on later reruns only the drawing."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from helpers import REPO_ROOT, dry_run, run_snakemake

ARFF = REPO_ROOT / "tests" / "data" / "arff"

NUMERIC_CLASS = """@relation numeric
@attribute a numeric
@attribute b {x,y}
@attribute target numeric
@data
1,x,2.5
2,y,3.5
3,x,1.0
4,y,2.0
"""

ONE_CLASS = """@relation oneclass
@attribute a numeric
@attribute class {yes}
@data
1,yes
2,yes
3,yes
4,yes
"""


def _study(workdir, render=None, **entry) -> list[str]:
    """A folder of two ordinary files (glass, labor), a file with rows whose class is missing
    (bridges.version1: 2 of 107), a file named like the papers' UCI dataset `nursery`, a
    numeric-class file and a one-class file; the study config."""
    data = workdir / "data"
    data.mkdir(parents=True)
    for name in ("glass", "labor", "bridges.version1"):
        shutil.copy(ARFF / f"{name}.arff", data / f"{name}.arff")
    shutil.copy(ARFF / "labor.arff", data / "nursery.arff")
    (data / "numeric.arff").write_text(NUMERIC_CLASS)
    (data / "oneclass.arff").write_text(ONE_CLASS)
    shutil.copy(REPO_ROOT / "config.yaml", workdir / "config.yaml")
    study = {
        "run": {"datasets": ["dataset_files"], "engines": ["sklearn"]},
        "cv": {"folds": 3},
        "stats": {"cv5x2": False},
        "dataset_files": [{"glob": "data/*.arff", **entry}],
    }
    if render is not None:
        study["render"] = render
    (workdir / "study.yaml").write_text(yaml.safe_dump(study))
    return ["study.yaml"]


def test_one_message_lists_every_file_that_cannot_run(tmp_path):
    done = dry_run(tmp_path, configfiles=_study(tmp_path))
    assert not done.ok
    text = done.text
    assert "3 datasets of the run cannot run, so no job was started" in text
    for name in ("numeric", "nursery", "oneclass"):
        assert f"dataset `{name}` (file data/{name}.arff)" in text, name
    assert "NUMERIC, not nominal" in text
    assert "only one class" in text
    assert "the block `datasets.nursery` (uci_id: 76)" in text
    assert "`dataset_files.0.exclude: [nursery.arff]`" in text
    assert "set `dataset_files.0.skip_invalid: true`" in text


def test_exclude_leaves_files_out(tmp_path):
    configfiles = _study(tmp_path, exclude=["nursery.arff", "data/numeric.arff", "one*"])
    done = dry_run(tmp_path, configfiles=configfiles)
    assert done.ok, done.text[-3000:]
    fetched = {dict(w)["dataset"] for rule, w in done.jobs if rule == "fetch_data"}
    assert fetched == {"glass", "labor", "bridges_version1"}


@pytest.mark.slow
def test_skip_invalid_runs_the_rest_and_the_report_lists_what_it_set_aside(tmp_path):
    study = yaml.safe_load((REPO_ROOT / "config" / "examples" / "study.yaml").read_text())
    configfiles = _study(tmp_path, render=study["render"], skip_invalid=True)
    done = run_snakemake(tmp_path, "--configfile", *configfiles, "--cores", "2")
    assert done.returncode == 0, done.stderr[-4000:]
    assert "dataset `numeric` (file data/numeric.arff) is set aside" in done.stderr
    results = tmp_path / "results"
    assert sorted(p.name for p in (results / "cv" / "sklearn").iterdir()) == [
        "bridges_version1",
        "glass",
        "labor",
    ]
    about = json.loads((results / "data" / "bridges_version1.json").read_text())
    assert about["missing_class_rows"] == 2
    report = (results / "stats" / "report.md").read_text()
    top = report.split("## ")[0]
    assert "**Not run: 3 files set aside**" in top
    for name in ("numeric", "nursery", "oneclass"):
        assert f"- `{name}` (data/{name}.arff): " in top, name

    # The study example draws no per-dataset figures and no Figure 7; each dataset's tables,
    # Markdown ranking table and explorer page are there.
    assert study["render"] == {"dataset_figures": False, "figure7": False}
    drawn = sorted(str(p.relative_to(results)) for p in results.rglob("*.png"))
    assert drawn and all(path.startswith("figures/cd/") for path in drawn), drawn
    for name in ("bridges_version1", "glass", "labor"):
        assert (results / "explorer" / "sklearn" / f"{name}.html").stat().st_size > 1000
        assert (results / "tables" / f"table_{name}_sklearn_ci.md").read_text().strip()
        assert (results / "exact" / "sklearn" / name / "win.csv").exists()

    # Turning them on plans only the drawing: render (each dataset's figures, its tables
    # and pages again) and render_figure7.
    on = {"dataset_figures": True, "figure7": True}
    (tmp_path / "figures.yaml").write_text(yaml.safe_dump({"render": on}))
    planned = dry_run(tmp_path, configfiles=[*configfiles, "figures.yaml"])
    assert planned.ok, planned.text[-3000:]
    assert {rule for rule, _ in planned.jobs} == {"render", "render_figure7"}
