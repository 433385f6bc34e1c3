"""The built wheel, installed into fresh virtual environments outside the repository.

A bare install must bring numpy and scipy and nothing heavier, and give a working library and
``pdmeasure score``; commands that need the ``[pipeline]`` extra say so in one line. With the
extra, the pipeline's config validation reads its schema from the package data (not from a
source tree) and ``pdmeasure compare`` runs. Every command runs with a temporary directory as
its working directory, so nothing can be imported from the checkout by accident.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from helpers import REPO_ROOT

CM = [[100, 10, 10], [10, 80, 30], [1, 10, 30]]
#: What a bare install may hold besides pdmeasure: its two dependencies and the installers.
ALLOWED = {"pdmeasure", "numpy", "scipy", "pip", "setuptools", "wheel"}

pytestmark = pytest.mark.slow


def run(cmd, cwd, **kwargs) -> subprocess.CompletedProcess:
    """Run ``cmd`` outside the repository; fail with its output if it fails."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, **kwargs
    )
    assert done.returncode == 0, (
        f"{cmd}\nstdout:\n{done.stdout[-4000:]}\nstderr:\n{done.stderr[-4000:]}"
    )
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, REPO_ROOT], out)
    (built,) = out.glob("pdmeasure-*.whl")
    return built


@pytest.fixture(scope="module")
def bare(tmp_path_factory, wheel) -> Path:
    """A fresh virtual environment with the wheel installed, no extras."""
    root = tmp_path_factory.mktemp("bare")
    venv.create(root / "venv", with_pip=True)
    python = root / "venv" / "bin" / "python"
    run([python, "-m", "pip", "install", "--quiet", wheel], root)
    return python


def installed(python: Path) -> set[str]:
    listing = run([python, "-m", "pip", "list", "--format", "json"], python.parent)
    return {row["name"].lower() for row in json.loads(listing.stdout)}


def test_bare_install_brings_numpy_and_scipy_only(bare):
    names = installed(bare)
    assert {"pdmeasure", "numpy", "scipy"} <= names
    assert names <= ALLOWED, f"a bare install brought {sorted(names - ALLOWED)}"


def test_library_runs_from_the_bare_install(bare, tmp_path):
    script = tmp_path / "use_library.py"
    script.write_text(
        textwrap.dedent(f"""
        import sys
        import numpy as np
        import pdmeasure
        from pdmeasure import measures, exact, stats

        cm = np.array({CM})
        print(round(float(measures.preference_driven(cm, [0.3, 0.1, 0.9])), 6))
        form = exact.pd_form(cm, 0.0)
        grid = exact.ProductGrid.regular([0, 0.5, 1], 3)
        dist = exact.distribution(form, grid, exact.ExactSettings())
        print(int(sum(dist.histogram([0, 0.5, 1.0]))))
        print(stats.friedman(np.array([[1.0, 2.0, 3.0], [1.0, 3.0, 2.0], [2.0, 1.0, 3.0]]))[0].p_value < 1)
        heavy = sorted(m for m in ("pandas", "matplotlib", "sklearn", "snakemake") if m in sys.modules)
        print(heavy)
        print(pdmeasure.__file__)
    """)
    )
    out = run([bare, script], tmp_path).stdout.split("\n")
    assert out[0] == "0.664163"  # the authors' worked example (shared/reference) gives 0.66416287
    assert out[1] == "27"  # every vector of the 3**3 grid falls in [0, 1]
    assert out[2] == "True"
    assert out[3] == "[]"
    assert str(REPO_ROOT) not in out[4]


def test_score_command_from_the_bare_install(bare, tmp_path):
    matrix = tmp_path / "authors.json"
    matrix.write_text(json.dumps(CM))
    command = bare.parent / "pdmeasure"
    done = run([command, "score", matrix, "--kappa", "0.3,0.1,0.9", "--format", "json"], tmp_path)
    (result,) = json.loads(done.stdout)["results"].values()
    values = {tuple(r["kappa"]): r["value"] for r in result["preference_driven"]}
    assert values[(0.3, 0.1, 0.9)] == 0.6641628736750688, done.stdout


def test_pipeline_command_without_the_extra_names_it(bare, tmp_path):
    matrices = tmp_path / "two.json"
    matrices.write_text(
        json.dumps({"matrices": {"A": CM, "B": [[90, 20, 10], [10, 90, 20], [5, 6, 30]]}})
    )
    done = subprocess.run(
        [str(bare.parent / "pdmeasure"), "compare", str(matrices)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2, done.stderr
    assert "pip install 'pdmeasure[pipeline]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_pipeline_extra_validates_the_config_from_package_data(tmp_path_factory, wheel):
    root = tmp_path_factory.mktemp("pipeline")
    venv.create(root / "venv", with_pip=True)
    python = root / "venv" / "bin" / "python"
    run([python, "-m", "pip", "install", "--quiet", f"{wheel}[pipeline]"], root)
    config = root / "config.yaml"
    config.write_text((REPO_ROOT / "config.yaml").read_text())
    script = root / "validate.py"
    script.write_text(
        textwrap.dedent("""
        import sys
        from pdmeasure.pipeline import config as pdconfig

        loaded = pdconfig.load_config(sys.argv[1])
        print(sorted(loaded["datasets"]))
        print(pdconfig.SCHEMA_PATH)
        bad = dict(loaded, histogramm={})
        try:
            pdconfig.validate_schema(bad)
        except pdconfig.ConfigError as exc:
            print("refused:", exc)
    """)
    )
    out = run([python, script, config], root).stdout.splitlines()
    assert out[0] == "['car', 'dermatology', 'krkopt', 'nursery']"
    assert str(REPO_ROOT) not in out[1] and out[1].endswith("config.schema.yaml")
    assert out[2].startswith("refused:") and "histogramm" in out[2]
    matrices = root / "two.json"
    matrices.write_text(
        json.dumps({"matrices": {"A": CM, "B": [[90, 20, 10], [10, 90, 20], [5, 6, 30]]}})
    )
    done = run(
        [root / "venv" / "bin" / "pdmeasure", "compare", matrices, "--grid", "0,0.5,1"], root
    )
    assert "A" in done.stdout and "B" in done.stdout
