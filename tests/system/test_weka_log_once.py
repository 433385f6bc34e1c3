"""Every Snakemake log line prints once with the weka engine on.

The engine's checks run while the workflow is parsed, in Snakemake's own process; importing
python-weka-wrapper3 there used to give the root logger a handler, so every Snakemake message
printed twice: once plain, once as ``INFO:snakemake.logging:...``.
"""

from __future__ import annotations

import re
import shutil

import pytest

from helpers import REPO_ROOT, run_snakemake, weka_or_missing, write_config

pytestmark = pytest.mark.weka

#: A message printed a second time through the root logger's default handler.
ROOT_FORMAT = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:")

#: Lines Snakemake prints exactly once in a dry run.
ONCE = (
    "Assuming unrestricted shared filesystem usage.",
    "Building DAG of jobs...",
    "This was a dry-run (flag -n). The order of jobs does not reflect the order of execution.",
)


def test_dry_run_prints_each_log_line_once(tmp_path):
    weka_or_missing()
    (tmp_path / "data").mkdir()
    shutil.copy(REPO_ROOT / "tests" / "data" / "arff" / "glass.arff", tmp_path / "data")
    config = {
        "run": {"datasets": ["glass"], "engines": ["sklearn", "weka"]},
        "datasets": {"glass": {"path": "data/glass.arff", "kappa_grid": [0, 1]}},
        # A classifier with options is built while parsing: the JVM starts in Snakemake's
        # process too.
        "classifiers": {
            "weka": {"J48": {"class": "weka.classifiers.trees.J48", "options": "-C 0.2"}}
        },
    }
    write_config(tmp_path, config)
    done = run_snakemake(tmp_path, "--cores", "1", "-n")
    assert done.returncode == 0, done.stderr[-4000:]
    lines = (done.stdout + done.stderr).splitlines()
    doubled = [line for line in lines if ROOT_FORMAT.match(line)]
    assert not doubled, doubled[:5]
    for text in ONCE:
        assert lines.count(text) == 1, (text, lines.count(text))
