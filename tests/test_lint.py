"""`snakemake --lint` is clean on the repository's workflow and config."""
from __future__ import annotations

import pytest
from conftest import repo_config, write_config

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
    config["engines"] = [e for e in config["engines"] if _available(e)]
    if not config["engines"]:
        pytest.skip("no configured engine is available")
    write_config(tmp_path, config)
    done = snakemake_runner(tmp_path, "--lint")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-6000:]
    assert "Lints for" not in output
