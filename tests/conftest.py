"""Fixtures of the test suite and its tiers.

Every test belongs to the tier of its folder, and gets that tier's marker here:

- ``tests/unit/`` (``unit``): the library, config and command line; no Snakemake run, JVM or
  browser;
- ``tests/workflow/`` (``workflow``): Snakemake runs on small configs and ``.test/``;
- ``tests/system/`` (``system``): Weka, the full paper run, Slurm, the browser, the docs site,
  the wheel and the lint tools.

``make test`` runs the first two tiers, ``make test-all`` all three; ``pytest -m unit`` (or a
folder, or a node id) runs one. Plain helpers live in ``helpers.py``.

``small_pipeline`` runs the real Snakemake DAG (``rule all``) once per test session on a small
config (car only, scikit-learn only, 3 folds, a coarse kappa grid) in a temporary directory
and returns its results folder; every test that needs pipeline outputs reuses it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from helpers import (
    REPO_ROOT,
    chrome_driver,
    mirror_or_missing,
    run_snakemake,
    small_config,
    weka_or_missing,
    write_config,
)

TESTS = Path(__file__).resolve().parent
TIERS = ("unit", "workflow", "system")

#: Set (``PDMEASURE_TESTS_HERMETIC=1``) by ``.ci/run``'s run in a clone with nothing beside
#: it: a test that opens a file beside the checkout (``../shared``, say) fails at once.
HERMETIC = os.environ.get("PDMEASURE_TESTS_HERMETIC", "").strip() not in {"", "0"}
_CHECKOUT = str(REPO_ROOT) + os.sep
_BESIDE = str(REPO_ROOT.parent) + os.sep


class ReadOutsideCheckout(RuntimeError):
    """A test opened a file beside the checkout; the project must carry what its tests
    need."""


def _refuse_reads_beside_the_checkout(event: str, args: tuple) -> None:
    if event != "open" or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    path = os.path.abspath(os.fsdecode(args[0]))
    if path.startswith(_BESIDE) and not (path + os.sep).startswith(_CHECKOUT):
        raise ReadOutsideCheckout(
            f"a test opened {path}, outside the checkout {REPO_ROOT}: ship what the test "
            "needs in the project (tests/data, or the package's data) instead"
        )


if HERMETIC:
    sys.addaudithook(_refuse_reads_beside_the_checkout)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line that counts the skipped tests by reason, whatever tier or worker ran them."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    if reasons:
        counted = "; ".join(
            f"{n} x {why}" for why, n in sorted(reasons.items(), key=lambda r: -r[1])
        )
        terminalreporter.write_line(f"skipped {sum(reasons.values())} by reason: {counted}")


#: Session fixtures behind which one expensive run or process stands, and the files of the
#: tests that use each. Under pytest-xdist (``-n``) each set of files runs on one worker
#: (:func:`pytest_xdist_make_scheduler`), so that the run or process starts once.
SHARED_FIXTURES = {
    "small_pipeline": (
        "workflow/test_pipeline_e2e.py",
        "workflow/test_report.py",
        "workflow/test_notebook.py",
        "workflow/test_uncertainty_pipeline.py",
    ),
    "weka": (
        "system/test_weka_runs.py",
        "system/test_weka_tables.py",
        "system/test_weka_own_classifiers.py",
        "system/test_weka_cli.py",
    ),
    "browser": (
        "system/test_explorer_browser.py",
        "system/test_explorer_uncertainty.py",
        "system/test_explorer_scale.py",
    ),
}


def work_unit(nodeid: str) -> str:
    """What runs on one xdist worker with this test: its shared fixture's files, else (above
    the unit tier, whose module-scoped runs are made once) its file; a unit test alone."""
    path = nodeid.split("::", 1)[0].removeprefix("tests/")
    for name, files in SHARED_FIXTURES.items():
        if path in files:
            return name
    return nodeid if path.startswith("unit/") else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under ``-n`` (xdist's default ``--dist load``): tests grouped by :func:`work_unit`.

    xdist's own ``--dist loadgroup`` would do this with marks, but it renames node ids through
    an attribute that pytest 9 no longer reads, so every group is split across the workers.
    """
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class WorkUnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return WorkUnitScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    """Mark each test with the tier of its folder. A test outside the tier folders, or one
    using a shared fixture from a file :data:`SHARED_FIXTURES` does not list, is an error."""
    for item in items:
        relative = Path(item.path).resolve().relative_to(TESTS)
        tier = relative.parts[0]
        if tier not in TIERS:
            raise pytest.UsageError(
                f"{relative} is outside the tier folders {TIERS}: move it into one of them"
            )
        item.add_marker(getattr(pytest.mark, tier))
        for name, files in SHARED_FIXTURES.items():
            if name in item.fixturenames and relative.as_posix() not in files:
                raise pytest.UsageError(
                    f"{relative} uses the shared fixture {name!r}: add it to "
                    f"SHARED_FIXTURES[{name!r}] in tests/conftest.py, so that it runs on the "
                    "worker that holds the run"
                )


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def uci_mirror() -> Path:
    """The UCI files in the mirror's layout: ucimlrepo first, then UCI_MIRROR (helpers.
    mirror_or_missing); missing() when neither has them."""
    return mirror_or_missing()


@pytest.fixture(scope="session")
def authors_reference() -> dict:
    """The paper authors' krkopt Weka matrices and worked pd example (shipped in the package)."""
    from pdmeasure.paper.examples import authors_reference as published

    return published()


@pytest.fixture(scope="session")
def authors_matrices(authors_reference) -> dict[str, np.ndarray]:
    """The authors' pooled krkopt matrices by classifier, as arrays."""
    return {name: np.array(cm) for name, cm in authors_reference["confusion_matrices"].items()}


#: Runs before any script of every page: records uncaught errors and alert() calls (the real
#: alert still opens, so selenium sees the dialog too).
PROBE = """
window.__errors = [];
window.__alerts = [];
window.onerror = function (message) { window.__errors.push(String(message)); };
const nativeAlert = window.alert.bind(window);
window.alert = function (message) { window.__alerts.push(String(message)); return nativeAlert(message); };
"""


@pytest.fixture(scope="module")
def browser():
    """A headless chromium with :data:`PROBE` installed; missing() without one."""
    driver = chrome_driver(probe=PROBE)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def weka():
    """The Weka engine with its JVM started (one JVM per test process); missing() without."""
    return weka_or_missing(start_jvm=True)


@pytest.fixture
def corrupt_mirror(tmp_path, uci_mirror) -> Path:
    """A copy of the mirror whose car.data has one byte changed (its checksum no longer holds)."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    shutil.copy(uci_mirror / "MANIFEST.json", mirror / "MANIFEST.json")
    data = bytearray((uci_mirror / "car.data").read_bytes())
    data[0:5] = b"vlow,"  # was "vhigh" ... -> different bytes
    (mirror / "car.data").write_bytes(bytes(data))
    return mirror


@pytest.fixture
def offline(monkeypatch):
    """ucimlrepo fails as it does without network."""
    import pdmeasure.pipeline.data.fetch as pddata

    def fail(**kwargs):
        raise ConnectionError("Error connecting to server")

    monkeypatch.setattr(pddata.ucimlrepo, "fetch_ucirepo", fail)


@pytest.fixture(scope="session")
def snakemake_runner() -> Callable[..., subprocess.CompletedProcess]:
    """:func:`run_snakemake`: ``runner(workdir, *args, env=None)``."""
    return run_snakemake


@pytest.fixture(scope="session")
def small_pipeline(tmp_path_factory, uci_mirror) -> Path:
    """Run ``rule all`` once on the small config; return the results folder.

    The working directory (``results.parent``) also holds ``config.yaml`` and ``logs/``, and
    ``.snakemake/log/`` the run's log with Snakemake's debug lines (``--verbose``: its
    scheduler's passes). Fails with Snakemake's output if the run fails.
    """
    workdir = tmp_path_factory.mktemp("small_pipeline")
    write_config(workdir, small_config(uci_mirror))
    done = run_snakemake(workdir, "--cores", "2", "--verbose")
    if done.returncode != 0:
        pytest.fail(
            f"the small pipeline failed (exit {done.returncode}):\n{done.stdout[-4000:]}\n"
            f"{done.stderr[-8000:]}",
            pytrace=False,
        )
    return workdir / "results"
