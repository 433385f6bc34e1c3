"""The import-linter contract of ``pyproject.toml`` holds, and it fails on an upward import
and on an import cycle (checked on a copy of the package with one import added)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO_ROOT

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint(root: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` with the repository's contract on the package under ``root/src``."""
    if not LINT_IMPORTS.exists():
        pytest.fail(f"{LINT_IMPORTS} is missing: install the lint extra (pip install -e '.[lint]')")
    env = {"PATH": str(LINT_IMPORTS.parent), "PYTHONPATH": str(root / "src")}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(REPO_ROOT / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )


@pytest.fixture
def package_copy(tmp_path) -> Path:
    """A copy of ``src/pdmeasure`` under ``tmp_path/src``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(REPO_ROOT / "src" / "pdmeasure", tmp_path / "src" / "pdmeasure", ignore=ignore)
    return tmp_path


def _append(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_package_keeps_its_layers_and_has_no_cycle(package_copy):
    done = _lint(package_copy)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_an_upward_import_breaks_the_layers(package_copy):
    # The library must not import the application: measures -> pipeline is upward.
    _append(package_copy / "src/pdmeasure/measures/averaged.py", "import pdmeasure.pipeline.run")
    done = _lint(package_copy)
    assert done.returncode != 0
    assert "Layers: cli, render, paper, pipeline, tables, scorers, library BROKEN" in done.stdout
    assert "pdmeasure.measures.averaged -> pdmeasure.pipeline.run" in done.stdout


def test_an_import_cycle_breaks_the_acyclic_contract(package_copy):
    # fetch imports sources; sources importing fetch closes a cycle inside one layer.
    _append(
        package_copy / "src/pdmeasure/pipeline/data/sources.py",
        "import pdmeasure.pipeline.data.fetch",
    )
    done = _lint(package_copy)
    assert done.returncode != 0
    assert "No import cycle between the modules of any package BROKEN" in done.stdout
