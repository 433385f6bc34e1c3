"""The six checks of ``make lint`` are clean: ``snakemake --lint`` on the workflow and config,
``snakefmt --check``, ``ruff check``, ``ruff format --check``, ``mypy`` on the library and
``lint-imports`` (the package's layers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO_ROOT, repo_config, select, write_config
from pdmeasure.pipeline.engines import EngineUnavailable, get_engine


def _available(name: str) -> bool:
    try:
        get_engine(name).check_available()
    except (EngineUnavailable, ImportError):
        return False
    return True


def test_snakemake_lint_is_clean(tmp_path, uci_mirror, snakemake_runner):
    config = repo_config()
    config["mirror"] = str(uci_mirror)
    # Lint every configured engine this machine can run (Weka needs Java).
    select(config, engines=[e for e in config["run"]["engines"] if _available(e)])
    if not config["run"]["engines"]:
        pytest.skip("no configured engine is available")
    write_config(tmp_path, config)
    done = snakemake_runner(tmp_path, "--lint")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-6000:]
    assert "Lints for" not in output


#: The other four checks of ``make lint``, run from the repository root with the tools of the
#: running interpreter's environment (the ``lint`` extra).
CHECKS = {
    "snakefmt": ["snakefmt", "--check", "Snakefile", "workflow"],
    "ruff-check": ["ruff", "check", "."],
    "ruff-format": ["ruff", "format", "--check", "."],
    "mypy": ["mypy"],
    "import-linter": ["lint-imports"],
}


@pytest.mark.parametrize("check", list(CHECKS))
def test_check_is_clean(check):
    tool = Path(sys.executable).parent / CHECKS[check][0]
    if not tool.exists():
        pytest.fail(f"{tool} is missing: install the lint extra (pip install -e '.[lint]')")
    done = subprocess.run(
        [str(tool), *CHECKS[check][1:]], cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, (
        f"{' '.join(CHECKS[check])}:\n{done.stdout[-6000:]}{done.stderr[-3000:]}"
    )


def test_make_lint_runs_the_same_checks():
    makefile = (REPO_ROOT / "Makefile").read_text()
    recipe = makefile.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    for command in ["snakemake --lint", *(" ".join(c) for c in CHECKS.values())]:
        assert f"$(BIN)/{command}" in recipe, f"make lint does not run {command!r}"
