"""Release readiness: CITATION.cff validates, the sdist and wheel build, and twine accepts them.

``cffconvert`` runs in a virtual environment of its own (its only release pins jsonschema < 4,
the pipeline needs jsonschema >= 4), installed from the package index like ``make
release-check`` does; ``python -m build`` and ``twine`` come from the ``release`` extra.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from helpers import REPO_ROOT, need_module

BIN = Path(sys.executable).parent


def run(command: list, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    need_module("build")
    out = tmp_path_factory.mktemp("dist")
    done = run([sys.executable, "-m", "build", "--outdir", out, REPO_ROOT], REPO_ROOT)
    # setuptools warns of metadata that later releases will refuse to build.
    assert "Warning" not in done.stdout + done.stderr, (done.stdout + done.stderr)[-3000:]
    return out


def test_citation_cff_validates(tmp_path):
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    run([python, "-m", "pip", "install", "--quiet", "cffconvert==2.0.0"], tmp_path)
    done = run(
        [tmp_path / "venv" / "bin" / "cffconvert", "--validate", "-i", REPO_ROOT / "CITATION.cff"],
        tmp_path,
    )
    assert "valid" in done.stdout + done.stderr


def test_the_version_lives_in_pyproject_only():
    version = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]
    import pdmeasure

    assert pdmeasure.__version__ == importlib.metadata.version("pdmeasure") == version
    assert not re.search(r"^version:", (REPO_ROOT / "CITATION.cff").read_text(), re.M)
    assert f'"{version}"' not in (REPO_ROOT / "src/pdmeasure/__init__.py").read_text()
    assert "## [Unreleased]" in (REPO_ROOT / "CHANGELOG.md").read_text()


def test_build_makes_an_sdist_and_a_wheel_that_twine_accepts(dist):
    need_module("twine")
    files = sorted(dist.iterdir())
    assert sorted(f.suffix for f in files) == [".gz", ".whl"], files
    done = run([BIN / "twine", "check", "--strict", *files], REPO_ROOT)
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_the_distributions_carry_the_licence_and_package_data(dist):
    sdist = next(dist.glob("*.tar.gz"))
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert any(name.endswith("/LICENSE") for name in names)
    wheel = next(dist.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(
            next(n for n in names if n.endswith(".dist-info/METADATA"))
        ).decode()
    assert any(name.endswith("pdmeasure/pipeline/config/config.schema.yaml") for name in names)
    assert any("licenses/LICENSE" in name or name.endswith("/LICENSE") for name in names), names
    assert "Description-Content-Type: text/markdown" in metadata
    assert "License-Expression: MIT" in metadata
