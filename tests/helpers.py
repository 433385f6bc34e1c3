"""Helpers of the test suite, imported as ``from helpers import ...`` (``tests/`` is on
``pythonpath``): repository paths, configs of small runs, a Snakemake runner, and the services
that some tests need (UCI data, Java, chromium, Slurm). No test reads a path outside the
checkout: the published numbers the tests need ship with the project.

A test whose service is missing calls :func:`missing`: it skips with the reason on a developer's
machine and fails under ``CI=true``, naming what is missing and how ``.ci/run`` installs it, so
that a CI machine that lost a service cannot go green.
"""

from __future__ import annotations

import copy
import itertools
import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[1]
TEST_DATA = REPO_ROOT / "tests" / "data"
SNAKEFILE = REPO_ROOT / "Snakefile"

#: The small experiment of ``.test/`` and its data files.
TEST_EXPERIMENT = REPO_ROOT / ".test"
WINE = TEST_EXPERIMENT / "data" / "wine.csv"
ZOO = TEST_EXPERIMENT / "data" / "zoo.arff"

#: The user file of the README and of config/examples/mydata.yaml, verbatim.
USER_FILE = """\
run:
  datasets: [mydata]
  engines: [sklearn]
datasets:
  mydata:
    path: data/mydata.csv
    target: first        # a column name, or first / last / a 0-based index
"""

#: A closed local port as HTTPS proxy: ucimlrepo fails at once ("Connection refused"), so runs
#: are hermetic (the offline mirror is always used) whether or not the machine is online.
OFFLINE_PROXY = "http://127.0.0.1:9"

#: Small config of the end-to-end run (overrides applied to the repository's config.yaml).
SMALL_FOLDS = 3
SMALL_KAPPA_GRID = [0, 0.5, 1]


def benchmark_module(name: str):
    """The script ``benchmarks/<name>.py`` as a module, its folder on ``sys.path`` while it
    loads (the scripts import their siblings)."""
    import importlib.util

    folder = str(REPO_ROOT / "benchmarks")
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    return module


def repo_config(*, parts: bool = False) -> dict:
    """The repository's config.yaml, parsed (no defaults filled in); without its `cv.parts`
    (they name the papers' datasets, which most tests replace) unless ``parts``."""
    with open(REPO_ROOT / "config.yaml", encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    if not parts:
        config["cv"].pop("parts", None)
    return config


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


#: A job of a planned DAG: (rule, frozenset of (wildcard, value)).
Job = tuple


def job_wildcards(job: Job) -> dict[str, str]:
    """A job's wildcards."""
    return dict(job[1])


@dataclass
class DryRun:
    """What a dry run reported: whether the workflow parsed and planned (``ok``), the jobs it
    would run (the ``all`` target left out), every message it logged (``text``, the errors
    included, as the command line prints them) and each job's threads (at most the run's
    cores)."""

    ok: bool
    jobs: set[Job]
    text: str
    threads: dict[Job, int] = field(default_factory=dict)


class _JobRecorder(logging.Handler):
    """Keeps the jobs (Snakemake's JOB_INFO events, the records behind the ``rule X:`` blocks
    of a printed dry run) and the text of every record of Snakemake's logger."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.jobs: set[Job] = set()
        self.threads: dict[Job, int] = {}
        self.lines: list[str] = []

    def emit(self, record):
        from snakemake_interface_logger_plugins.common import LogEvent

        if getattr(record, "event", None) == LogEvent.JOB_INFO:
            job = (record.rule_name, frozenset((record.wildcards or {}).items()))
            self.jobs.add(job)
            self.threads[job] = record.threads
        self.lines.append(record.getMessage())


def dry_run(
    workdir: Path, *, forceall: bool = False, configfiles: Sequence[str] = (), cores: int = 2
) -> DryRun:
    """``snakemake --dry-run --cores 2 [--forceall] [--configfile F ...]`` of the repository's
    Snakefile in ``workdir``, through Snakemake's Python API in this process (``cores``:
    another ``--cores``).

    A subprocess per dry run spent about 70 % of its time (cProfile) importing Snakemake,
    scikit-learn and SciPy again; here they are imported once, and each dry run parses the
    Snakefile with the current ``config.yaml`` and plans its DAG afresh (a new workflow object,
    the command line's default rerun triggers). As in :func:`run_snakemake`, the run
    is offline. Parse-time checks run here too: a Weka entry with options starts a JVM in
    this process, as the ``weka`` fixture does.
    """
    from snakemake.api import SnakemakeApi
    from snakemake.logging import logger
    from snakemake.settings.enums import Quietness
    from snakemake.settings.types import (
        ConfigSettings,
        DAGSettings,
        OutputSettings,
        ResourceSettings,
    )

    recorder = _JobRecorder()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MPLBACKEND", "Agg")
        for name in ("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"):
            patch.setenv(name, OFFLINE_PROXY)
        for name in ("no_proxy", "NO_PROXY"):
            patch.setenv(name, "")
        with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
            # added after SnakemakeApi() has set up (and cleared) the logger's handlers
            logger.addHandler(recorder)
            try:
                workflow = api.workflow(
                    resource_settings=ResourceSettings(cores=cores),
                    # Relative config files start at workdir, as with --directory.
                    config_settings=ConfigSettings(
                        configfiles=[workdir / name for name in configfiles]
                    ),
                    snakefile=SNAKEFILE,
                    workdir=workdir,
                )
                workflow.dag(DAGSettings(forceall=forceall)).execute_workflow(executor="dryrun")
                ok = True
            except Exception as exc:  # noqa: BLE001 - reported as the command line does
                api.print_exception(exc)
                ok = False
            finally:
                logger.removeHandler(recorder)
    jobs = {job for job in recorder.jobs if job[0] != "all"}
    threads = {job: recorder.threads[job] for job in jobs}
    return DryRun(ok, jobs, "\n".join(recorder.lines), threads)


def planned_jobs(
    workdir: Path, *, forceall: bool = False, configfiles: Sequence[str] = ()
) -> set[Job]:
    """The jobs a dry run plans (without the `all` target)."""
    done = dry_run(workdir, forceall=forceall, configfiles=configfiles)
    assert done.ok, done.text[-3000:]
    return done.jobs


def many_classes_config(classes: list[str], **dataset) -> dict:
    """The repository config on the local dataset ``many`` (many.csv, target ``label``) with
    ``classes`` and the ``dataset`` keys, sklearn only, no mirror."""
    config = copy.deepcopy(repo_config())
    config["mirror"] = None
    config["datasets"] = {
        "many": {
            "path": "many.csv",
            "target": "label",
            "classes": classes,
            "numeric_features": [],
            **dataset,
        }
    }
    return select(config, datasets=["many"], engines=["sklearn"])


def toy_block(**extra) -> dict:
    """A ``datasets`` block of the two-class local file data/toy.csv (target ``label``)."""
    return {
        "path": "data/toy.csv",
        "target": "label",
        "classes": ["yes", "no"],
        "missing": "?",
        "numeric_features": [],
        **extra,
    }


#: How errors name the dataset of :func:`toy_block`.
TOY = "dataset `toy` (file data/toy.csv)"


def dataset_spec(config, name: str, **override):
    """The engines' DatasetSpec of ``config``'s dataset ``name`` (Weka options overridden)."""
    from pdmeasure.pipeline.engines import DatasetSpec

    block = config["datasets"][name]
    return DatasetSpec(
        name=name,
        target=block["target"],
        classes=tuple(block["classes"]),
        numeric_features=tuple(block["numeric_features"]),
        missing=block["missing"],
        options={**block["weka"], **override},
    )


def mirror_block(manifest: dict, name: str, **extra) -> dict:
    """The ``datasets`` config block of the UCI mirror's dataset ``name`` from its parsed
    ``manifest`` (MANIFEST.json; classes in order of first appearance), with ``extra`` keys."""
    entry = manifest["datasets"][name]
    return {
        "uci_id": entry["uci_id"],
        "path": None,
        "target": entry["target"],
        "classes": entry["class_order_first_appearance"],
        "missing": entry["missing"],
        "numeric_features": [],
        **extra,
    }


def mirror_table(mirror: Path, name: str):
    """The canonical table of UCI dataset ``name`` (results/data/<name>.csv layout), read
    from the mirror's file by the pipeline's own reader (checksum checked), every value as
    text."""
    from pdmeasure.pipeline.data.fetch import read_mirror

    uci_id = json.loads((mirror / "MANIFEST.json").read_text())["datasets"][name]["uci_id"]
    return read_mirror(name, uci_id, mirror)[0]


#: A class or classifier name that would run script if a page did not escape it.
HOSTILE = "</script><img src=x onerror=alert(1)>"
#: The authors' worked example (paper 000): pd = 0.6642 at kappa (0.3, 0.1, 0.9).
EXPLORER_AUTHORS = np.array([[100, 10, 10], [10, 80, 30], [1, 10, 30]])
#: Three classifiers on the worked example's data, as the explorer tests show them.
EXPLORER_MATRICES = {
    "A": EXPLORER_AUTHORS,
    "B": np.array([[90, 20, 10], [5, 100, 15], [5, 5, 31]]),
    "C": np.array([[110, 5, 5], [20, 90, 10], [10, 10, 21]]),
}
EXPLORER_LABELS = ["a", "b", "c"]


def pd_value(cm, kappa, zero_division=0.0) -> float:
    """pd of one matrix as a Python float."""
    from pdmeasure import measures

    return float(measures.preference_driven(cm, kappa, zero_division=zero_division))


def assert_close(got, expected, name: str, rtol: float = 1e-12, atol: float = 1e-12) -> None:
    """``got`` equals ``expected`` within ``rtol`` and ``atol``, NaN exactly where it is NaN;
    a failure names ``name``."""
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=name)


def assert_check_flag(main, target: Path) -> None:
    """A page generator's ``main(argv)`` with ``--check --output target`` returns 1 while
    ``target`` is missing or edited by hand and 0 once the generator has written it."""
    assert main(["--check", "--output", str(target)]) == 1
    assert main(["--output", str(target)]) == 0
    assert main(["--check", "--output", str(target)]) == 0
    target.write_text(target.read_text() + "edit\n")
    assert main(["--check", "--output", str(target)]) == 1


#: The rows of a ranking table (paper 000, Tables 6-9) before one "pd NAME" row per kappa vector.
RANKING_ROWS = ("accuracy", "precision", "recall", "F1", "MCC", "pd default")

#: The first bytes of every PNG file.
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def raw_csv(path):
    """A CSV's cells exactly as written (all text, nothing parsed as missing)."""
    import pandas as pd

    return pd.read_csv(path, dtype=str, keep_default_na=False)


def pd_over_grid(cms, values, zero_division=0.0) -> np.ndarray:
    """pd of each matrix of ``cms`` at every kappa vector of the grid ``values`` ** C, one
    vector at a time: the slow reference of the grid histograms."""
    from pdmeasure import measures

    grid = np.array(list(itertools.product(values, repeat=cms.shape[-1])))
    return np.array(
        [
            [measures.preference_driven(cm, k, zero_division=zero_division) for k in grid]
            for cm in cms
        ]
    )


def no_data_tables(surface=None):
    """The published tables the pipeline computes without data, as one frame (index 0..n-1):
    paper 000's Tables 3, 4 and Section 4.2 (over ``surface``, by default
    ``paper.kappa_surface()``) and the Pacc paper's Tables 2, 4, 5 and 6."""
    import pandas as pd

    from pdmeasure.paper import example_tables as paper

    if surface is None:
        surface = paper.kappa_surface()
    return pd.concat(
        [
            paper.pd_table3(),
            paper.pd_table4(),
            paper.pd_section42(surface),
            paper.pacc_table2(),
            paper.pacc_table4(),
            paper.pacc_table5(),
            paper.pacc_table6(),
        ],
        ignore_index=True,
    )


def compare_with_published(config, measures, rankings, pooled, *, table=None, errata=True):
    """``compare_data_tables`` of a run's results against the published tables that need data:
    all of them, or paper 000's Table ``table`` alone; with the recorded errata when ``errata``."""
    from pdmeasure.paper import facts, published
    from pdmeasure.paper.reproduction import compare_data_tables

    return compare_data_tables(
        published.load() if table is None else published.load(facts.PD_PAPER, table),
        config=config,
        measures=measures,
        rankings=rankings,
        pooled=pooled,
        errata=published.errata() if errata else None,
    )


#: How CI provides each service a test may need (``.ci/run``).
SERVICES = {
    "uci data": "ucimlrepo online, or UCI_MIRROR naming the offline mirror (.ci/run sets it)",
    "java": "apt-get install openjdk-17-jre-headless (.ci/run does)",
    "chromium": "apt-get install chromium chromium-driver (.ci/run does)",
    "slurm": "bash .ci/slurm-up (.ci/run does)",
    "python package": "make setup (pip install -e '.[pipeline,arrow,weka,report,test,lint,docs,release]')",
}


def fresh_python(code: str) -> str:
    """The standard output, stripped, of ``code`` run by a fresh interpreter (this one's): for
    what a process imports or sets up on its own. A non-zero exit fails the test."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def in_ci() -> bool:
    """True when the environment says CI (``CI=true``, as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def missing(service: str, reason: str):
    """Skip this test for want of ``service``; under ``CI=true``, fail instead.

    ``service`` is a key of :data:`SERVICES`; the message names what is missing (``reason``)
    and how CI installs it.
    """
    message = f"{reason} [{service}: {SERVICES[service]}]"
    if in_ci():
        pytest.fail(f"CI=true and a service is missing: {message}", pytrace=False)
    pytest.skip(message, allow_module_level=True)


def need_module(name: str):
    """``import name``, or :func:`missing` (a package of the project's extras)."""
    try:
        return __import__(name, fromlist=["_"])
    except ImportError as exc:
        missing("python package", f"{name} cannot be imported ({exc})")


def mirror_or_missing() -> Path:
    """A folder with the UCI files in the mirror's layout (:func:`uci_data.uci_folder`:
    ucimlrepo first, then UCI_MIRROR), or :func:`missing`."""
    import uci_data

    path = uci_data.uci_folder()
    if path is None:
        missing("uci data", uci_data.reason)
    return path


def chromium_or_missing() -> tuple[str, str]:
    """Paths of Debian's chromium and its chromedriver, or :func:`missing`."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        absent = " and ".join(
            n for n, p in (("chromium", browser), ("chromedriver", driver)) if not p
        )
        missing("chromium", f"{absent} not on PATH")
    return browser, driver


def weka_or_missing(*, start_jvm: bool = False):
    """The Weka engine (``get_engine("weka")``), or :func:`missing` (no Java, no wrapper).

    ``start_jvm`` starts its JVM too, for tests that call Weka in this process.
    """
    try:
        from pdmeasure.pipeline.engines import get_engine
        from pdmeasure.pipeline.engines import weka_engine as weka_module
        from pdmeasure.pipeline.engines.base import EngineUnavailable

        engine = get_engine("weka")
        engine.check_available()
    except (ImportError, EngineUnavailable) as exc:
        missing("java", f"the weka engine is unavailable: {exc}")
    if start_jvm:
        weka_module.ensure_jvm()
    return engine


def chrome_driver(*, probe: str | None = None, size: tuple[int, int] = (1100, 1000)):
    """A headless Debian chromium driven by selenium, or :func:`missing`.

    ``probe`` is a script run before each page's own scripts (e.g. to record errors).
    The caller quits the driver.
    """
    webdriver = need_module("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    browser, driver_path = chromium_or_missing()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_window_size(*size)
    if probe is not None:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": probe})
    return driver


def slurm_down_reason() -> str | None:
    """Why a Slurm test cannot run here, or None when a node accepts jobs."""
    if shutil.which("sinfo") is None or shutil.which("sbatch") is None:
        return "Slurm is not installed (no sinfo/sbatch)"
    try:
        done = subprocess.run(
            ["sinfo", "--noheader", "--format=%T"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "sinfo did not answer within 30 s: slurmctld is not up"
    if done.returncode != 0:
        return f"Slurm is not up (sinfo: {done.stderr.strip()})"
    states = done.stdout.split()
    if not any(state in {"idle", "mixed", "allocated", "completing"} for state in states):
        return f"no Slurm node accepts jobs (sinfo states: {states})"
    return None


def slurm_or_missing() -> None:
    """Return when a Slurm node accepts jobs and the executor plugin imports; else :func:`missing`."""
    reason = slurm_down_reason()
    if reason is not None:
        missing("slurm", reason)
    need_module("snakemake_executor_plugin_slurm")


def grade_csv(path: Path, *, n: int = 90, seed: int = 3, second_label: bool = False) -> None:
    """The small local ``grade`` dataset: a categorical and a numeric feature (``?`` missing),
    the label ``grade`` (first appearances mid, lo, hi); with ``second_label`` also ``grade2``,
    the same labels shuffled after the first three rows."""
    rng = np.random.default_rng(seed)
    size = rng.integers(1, 50, n)
    label = np.where(size < 15, "lo", np.where(size < 35, "mid", "hi"))
    label[:3] = ["mid", "lo", "hi"]
    other = rng.permutation(label[3:]) if second_label else None
    header = "colour,size,grade" + (",grade2" if second_label else "")
    lines = [header]
    for i, (s, y) in enumerate(zip(size, label)):
        row = f"{rng.choice(['red', 'blue'])},{'?' if i % 17 == 5 else s},{y}"
        if other is not None:
            row += f",{y if i < 3 else other[i - 3]}"
        lines.append(row)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def grade_block() -> dict:
    """The config block of :func:`grade_csv`'s file ``toy.csv``."""
    return {
        "path": "toy.csv",
        "target": "grade",
        "classes": ["mid", "lo", "hi"],
        "missing": "?",
        "numeric_features": ["size"],
        "kappa_grid": [0, 1],
        "kappa_vectors": {"p1": [1, 0, 0.5]},
    }
