"""Shared test fixtures: repository paths, the offline UCI mirror, and Snakemake runs.

``small_pipeline`` runs the real Snakemake DAG (``rule all``) once per test session on a small
config (car only, scikit-learn only, 3 folds, a coarse kappa grid) in a temporary directory
and returns its results folder; every test that needs pipeline outputs reuses it.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
SNAKEFILE = REPO_ROOT / "Snakefile"

#: A closed local port as HTTPS proxy: ucimlrepo fails at once ("Connection refused"), so runs
#: are hermetic (the offline mirror is always used) whether or not the machine is online.
OFFLINE_PROXY = "http://127.0.0.1:9"

#: Small config of the end-to-end run (overrides applied to the repository's config.yaml).
SMALL_FOLDS = 3
SMALL_KAPPA_GRID = [0, 0.5, 1]


def _mirror() -> Path | None:
    candidate = os.environ.get("UCI_MIRROR") or str(SHARED / "data" / "uci")
    path = Path(candidate)
    return path if (path / "MANIFEST.json").is_file() else None


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slurm: runs the workflow through a real Slurm (profiles/slurm; .ci/slurm-up)"
    )


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED


@pytest.fixture(scope="session")
def uci_mirror() -> Path:
    """The offline UCI mirror (UCI_MIRROR, else ../shared/data/uci); skip if absent."""
    path = _mirror()
    if path is None:
        pytest.skip("no UCI mirror: set UCI_MIRROR to a folder with MANIFEST.json")
    return path


def repo_config() -> dict:
    """The repository's config.yaml, parsed (no defaults filled in)."""
    with open(REPO_ROOT / "config.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def small_config(mirror: Path | None) -> dict:
    """The repository config cut down for a fast end-to-end run.

    car only, the sklearn engine only (fewer trees), ``SMALL_FOLDS`` folds, the kappa grid
    ``SMALL_KAPPA_GRID`` and a small Monte Carlo sample; every other key as in config.yaml.
    """
    config = copy.deepcopy(repo_config())
    car = config["datasets"]["car"]
    car["kappa_grid"] = list(SMALL_KAPPA_GRID)
    config["datasets"] = {"car": car}
    select(config, datasets=["car"], engines=["sklearn"])
    sklearn = config["classifiers"]["sklearn"]
    for entry in sklearn.values():
        params = entry.get("params", {})
        if "n_estimators" in params:
            params["n_estimators"] = min(int(params["n_estimators"]), 10)
    config["classifiers"] = {"sklearn": sklearn}
    config["cv"] = {**config.get("cv", {}), "folds": SMALL_FOLDS, "repeats": 1}
    exact = config.setdefault("exact", {})
    exact["monte_carlo_samples"] = min(int(exact.get("monte_carlo_samples", 2000)), 2000)
    config["results"] = "results"
    config["mirror"] = str(mirror) if mirror is not None else None
    return config


#: The class attribute of .test/data/zoo.arff (OpenML 62): its declared value order, which
#: differs from the order of first appearance in the data.
ZOO_CLASSES = ("mammal", "bird", "reptile", "fish", "amphibian", "insect", "invertebrate")


def select(config: dict, *, datasets=None, engines=None) -> dict:
    """Point ``config``'s ``run`` block at these datasets and engines (None keeps the list),
    as a user's ``--configfile`` does; returns ``config``."""
    run = config.setdefault("run", {})
    if datasets is not None:
        run["datasets"] = list(datasets)
    if engines is not None:
        run["engines"] = list(engines)
    return config


def sklearn_entry(cls: str, **params) -> dict:
    """A ``classifiers.sklearn`` entry of the scikit-learn class ``cls`` (short name of one of
    the paper's four, or an import path) with ``params``."""
    paths = {
        "NaiveBayes": "sklearn.naive_bayes.CategoricalNB",
        "DecisionTree": "sklearn.tree.DecisionTreeClassifier",
        "RandomForest": "sklearn.ensemble.RandomForestClassifier",
        "Bagging": "sklearn.ensemble.BaggingClassifier",
    }
    entry = {"class": paths.get(cls, cls), "params": params}
    if cls == "NaiveBayes":
        entry["encoding"] = "categorical"
    return entry


def write_config(workdir: Path, config: dict) -> Path:
    """Write ``config`` as ``workdir/config.yaml`` (the Snakefile's ``configfile:``)."""
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


def run_snakemake(
    workdir: Path,
    *args: str,
    env: dict | None = None,
    timeout: float = 900,
    prefix: Sequence[str] = (),
) -> subprocess.CompletedProcess:
    """Run the repository's Snakefile in ``workdir`` (its ``config.yaml``) in a subprocess.

    Output is captured as text (``stdout`` + ``stderr``). ``env`` entries are added to (or,
    when None, removed from) the current environment; the run is always offline (see
    :data:`OFFLINE_PROXY`) and headless. ``prefix`` is put before the command, e.g.
    ``("timeout", "600")`` to stop a run with SIGTERM (Snakemake then cancels its cluster jobs).
    """
    full_env = dict(
        os.environ,
        MPLBACKEND="Agg",
        https_proxy=OFFLINE_PROXY,
        HTTPS_PROXY=OFFLINE_PROXY,
        http_proxy=OFFLINE_PROXY,
        HTTP_PROXY=OFFLINE_PROXY,
        no_proxy="",
        NO_PROXY="",
    )
    for key, value in (env or {}).items():
        if value is None:
            full_env.pop(key, None)
        else:
            full_env[key] = value
    command = [
        *prefix,
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(SNAKEFILE),
        "--directory",
        str(workdir),
        *args,
    ]
    return subprocess.run(
        command,
        cwd=workdir,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def offline(monkeypatch):
    """ucimlrepo fails as it does without network."""
    import pdmeasure.pipeline.fetch as pddata

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

    The working directory (``results.parent``) also holds ``config.yaml`` and ``logs/``.
    Fails with Snakemake's output if the run fails.
    """
    workdir = tmp_path_factory.mktemp("small_pipeline")
    write_config(workdir, small_config(uci_mirror))
    done = run_snakemake(workdir, "--cores", "2")
    if done.returncode != 0:
        pytest.fail(
            f"the small pipeline failed (exit {done.returncode}):\n{done.stdout[-4000:]}\n"
            f"{done.stderr[-8000:]}",
            pytrace=False,
        )
    return workdir / "results"
