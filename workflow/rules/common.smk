# Config validation, engine checks, shared paths and input functions (no rules here).
#
# Everything below runs when the workflow is parsed, i.e. before any job: a misspelt key, a
# wrong type, a kappa vector of the wrong length, a class order that does not match the data
# or an unavailable engine stops Snakemake with a message naming the config key.
import dataclasses
import functools
import math
import re
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.logging import logger
from snakemake.utils import validate

import pdmeasure.pipeline.config as pdconfig
from pdmeasure.pipeline import plan as cvplan
from pdmeasure.paper.facts import PD_DATASET_TABLES
from pdmeasure.pipeline.data.mirror import load_manifest
from pdmeasure.pipeline.scheduling import lift_default_rate_limit, pace_status_checks
from pdmeasure.tables.folds import CV5X2_FOLDS, CV5X2_REPEATS
from pdmeasure.tables.stats import comparison_keys, file_stem

#: Whether this process plans the run (the `snakemake` command), rather than running some of
#: its jobs (a cluster job's process, which parses the workflow again).
PLANNING = workflow.exec_mode.name == "DEFAULT"
#: The resolved run of the planning process, read back by the processes that run its jobs
#: (pdmeasure.pipeline.config.cache).
RUN_FILE = Path(".snakemake", "pdmeasure", "run.json")
RUN_KEY = pdconfig.run_key(config)
#: The classifier entries whose check passed, so that the next command skips the checks that
#: import the engines' libraries (pdmeasure.pipeline.config.check_engines).
CHECKED_FILE = Path(".snakemake", "pdmeasure", "checked-classifiers.json")
# The run: the selected datasets, engines and classifiers, each dataset resolved (class order,
# numeric features, kappa vectors by position, kappa grid). Every rule reads RUN, not config.
RUN = None if PLANNING else pdconfig.load_run(RUN_FILE, RUN_KEY)
if RUN is None:
    try:
        validate(config, str(pdconfig.SCHEMA_PATH), set_default=True)
    except WorkflowError as exc:
        raise pdconfig.schema_error(exc) from None
    RUN = pdconfig.resolve_run(config)
    pdconfig.check_config(RUN)
    pdconfig.check_engines(RUN, checked=CHECKED_FILE)
    pdconfig.check_data(RUN)
    if PLANNING:
        pdconfig.save_run(RUN_FILE, RUN_KEY, RUN)

# Every rule's software: the conda environment of the whole project (`snakemake --sdm conda`).
CONDA_ENV = "../../environment.yml"


def datasets():
    """The datasets of the run (`run.datasets`), in that order."""
    return list(RUN["datasets"])


def engines():
    """The engines of the run (`run.engines`), in that order."""
    return list(RUN["engines"])


def one_of(names):
    """A wildcard constraint that matches exactly these names."""
    return "|".join(re.escape(name) for name in names)


wildcard_constraints:
    dataset=one_of(datasets()),
    engine=one_of(engines()),
    classifier="[A-Za-z0-9_]+",
    part="(cv|cv5x2)_[0-9]+-[0-9]+",


def grid_datasets():
    """Datasets with a kappa grid histogram (`kappa_grid: null` skips it)."""
    return [
        name for name in datasets() if RUN["datasets"][name]["kappa_grid"] is not None
    ]


def all_kappa_vectors():
    """Every dataset's named kappa vectors: {dataset: {name: vector}}."""
    return {
        name: dict(block["kappa_vectors"]) for name, block in RUN["datasets"].items()
    }


def cd_keys():
    """(engine, measure, kappa) of every critical-difference diagram.

    A CD diagram compares two classifiers or more: an engine with one classifier gets none.
    """
    return [
        (engine, measure, kappa)
        for engine in engines()
        if len(RUN["classifiers"][engine]) >= 2
        for measure, kappa in comparison_keys(all_kappa_vectors())
    ]


def cd_figure(engine, measure, kappa):
    """The critical-difference diagram of one engine, measure and kappa vector."""
    return results_path("figures", "cd", engine, f"{file_stem(measure, kappa)}.png")


def cd_figures():
    """The figure file of every key of cd_keys(), in the same order."""
    return [cd_figure(*key) for key in cd_keys()]


def cd_comparisons():
    """(measure, kappa) of the CD diagrams of each engine with two classifiers or more."""
    return [list(key) for key in comparison_keys(all_kappa_vectors())]


def cd_engine_figures():
    """The CD diagrams of {engine}, one per cd_comparisons() in the same order (outputs of
    the render_cd rule, each in the report)."""
    return [
        reported(
            cd_figure("{engine}", measure, kappa),
            "stats_cd_diagram",
            "Statistics",
            "Critical-difference diagrams",
            measure=file_stem(measure, kappa),
            engine="{engine}",
        )
        for measure, kappa in cd_comparisons()
    ]


# The tables of the statistics across datasets (rule collect), by name -> the file (under the
# results folder), its report caption and its table label.
STATS_ACROSS = {
    "ranks": ("stats/across_ranks.csv", "stats_across_ranks", "average ranks"),
    "omnibus": ("stats/across_omnibus.csv", "stats_across_omnibus", "omnibus tests"),
    "posthoc": ("stats/across_posthoc.csv", "stats_across_posthoc", "post-hoc tests"),
    "cd": ("stats/cd.csv", "stats_cd", "critical differences"),
}


def stats_across_files():
    """The files of the statistics across datasets, by name (rule inputs and final
    targets)."""
    return {name: results_path(path) for name, (path, _, _) in STATS_ACROSS.items()}


# Job order. profiles/default selects Snakemake's greedy scheduler, which starts the ready jobs
# of highest priority first. Every dataset is fetched first (a fetch takes under a second);
# every job that is not a model fit runs as soon as its inputs exist; the model fits
# (cross_validate and cross_validate_part) fill the cores otherwise, the longest first (their
# priority is their estimated CPU seconds x 10, from the CV plan): the run then ends on short
# fits and the little work that follows them, not on a long fit started late.
# Among the summary jobs, the chain after the last fit goes first: analyse -> collect ->
# render_summary.
FETCH_PRIORITY = 10**8
CHAIN_PRIORITY = 10**7 + 1
SUMMARY_PRIORITY = 10**7
#: The fits' priorities stay below the summary jobs'.
MAX_FIT_PRIORITY = 10**7 - 1


def scaled(**measured):
    """Resources of a rule's jobs from their measured needs, e.g. `mem_mb=512` (MB) and
    `runtime=5` (minutes): each need x `resources.scale` x the attempt (a job retried with
    --retries asks for more)."""

    def need(base):
        def value(wildcards, attempt):
            return math.ceil(base * RUN["resources"]["scale"] * attempt)

        return value

    return {name: need(base) for name, base in measured.items()}


def cv_threads():
    """Cores of a model-fitting job: `resources.cv_threads`."""
    return RUN["resources"]["cv_threads"]


def engine_mem_mb(engine, attempt):
    """Memory (MB) of a model-fitting job of `engine`: `resources.cv_mem_mb` (the Weka
    engine gives the JVM all but 512 MB of it as heap)."""
    base = RUN["resources"]["cv_mem_mb"].get(engine, 1024)
    return math.ceil(base * RUN["resources"]["scale"] * attempt)


def cv_mem_mb(wildcards, attempt):
    """Memory (MB) of a model-fitting job of {engine} (engine_mem_mb)."""
    return engine_mem_mb(wildcards.engine, attempt)


def fit_resources(engine=None):
    """Resources of a model-fitting job (rule cross_validate_part, and cross_validate when it
    fits): 30 minutes, scaled(), and the memory of its engine: {engine}'s (cv_mem_mb), or
    that of `engine` for a rule without wildcards (a batch's)."""
    if engine is None:
        return {**scaled(runtime=30), "mem_mb": cv_mem_mb}
    return {
        **scaled(runtime=30),
        "mem_mb": lambda wildcards, attempt: engine_mem_mb(engine, attempt),
    }


def results_path(*parts):
    """A path under the configured results folder (wildcards in braces are kept)."""
    return str(pdconfig.results_dir(RUN).joinpath(*parts))


def benchmark_path(*parts):
    """A benchmark file under <results>/benchmarks/."""
    return results_path("benchmarks", *parts)


def per_engine_dataset(pattern, **more):
    """`pattern` (under the results folder) for every engine and dataset of the run: engine by
    engine, dataset by dataset within, then every value of each wildcard in `more` within.
    """
    return expand(results_path(pattern), engine=engines(), dataset=datasets(), **more)


def per_dataset_engine(pattern, **more):
    """As per_engine_dataset, dataset by dataset and engine within (the ranking tables)."""
    return expand(results_path(pattern), dataset=datasets(), engine=engines(), **more)


def cv_jobs():
    """Every (engine, dataset, classifier) to cross-validate, in configured order."""
    return pdconfig.cv_jobs(RUN)


def cv_files(name):
    """File `name` (e.g. "confusion.csv") of every CV job.

    <results>/cv/{engine}/{dataset}/{classifier}/<name>
    """
    return [
        results_path("cv", engine, dataset, classifier, name)
        for engine, dataset, classifier in cv_jobs()
    ]


def engine_cv_files(wildcards, name):
    """File `name` of the CV job of every configured classifier of {engine} on {dataset}, in
    config order."""
    return [
        results_path("cv", wildcards.engine, wildcards.dataset, classifier, name)
        for classifier in RUN["classifiers"][wildcards.engine]
    ]


def engine_confusion_files(wildcards):
    """confusion.csv of every classifier of {engine} on {dataset} (input function of the
    per-(engine, dataset) rules: measures, grids, exact, explorer)."""
    return engine_cv_files(wildcards, "confusion.csv")


def engine_prediction_files(wildcards):
    """predictions.csv of every classifier of {engine} on {dataset} (stats within datasets)."""
    return engine_cv_files(wildcards, "predictions.csv")


def engine_cv5x2_files(wildcards):
    """The 5 x 2-fold CV predictions of every classifier of {engine} on {dataset}; [] when
    `stats.cv5x2` is off."""
    if not RUN["stats"]["cv5x2"]:
        return []
    return [
        results_path(
            "stats",
            "cv5x2",
            wildcards.engine,
            wildcards.dataset,
            classifier,
            "predictions.csv.gz",
        )
        for classifier in RUN["classifiers"][wildcards.engine]
    ]


def local_data_file(wildcards):
    """The local data file of {dataset} (`path:`), so that editing it reruns the fetch; [] for UCI."""
    path = RUN["datasets"][wildcards.dataset]["path"]
    return [path] if path is not None else []


def fetch_params(wildcards):
    """The keys of a dataset block that decide its canonical table, and where to read it
    (rule params).

    The UCI mirror (the config's `mirror`, else $UCI_MIRROR) and the OpenML cache and mirror
    are resolved here so that the job sees them as parameters rather than reading the
    environment; a source that does not use one gets None.
    """
    block = RUN["datasets"][wildcards.dataset]
    keys = (
        *pdconfig.SOURCE_KEYS,
        "format",
        "separator",
        "header",
        "sha256",
        "target",
        "classes",
        "class_order",
        "missing",
        "numeric_features",
    )
    locations = pdconfig.data_locations(RUN)
    if block["uci_id"] is None:
        locations["mirror"] = None
    if block["openml_id"] is None:
        locations["openml_cache"] = locations["openml_mirror"] = None
    return {"dataset": {key: block[key] for key in keys}, **locations}


def engine_dataset_params(wildcards):
    """DatasetSpec of {dataset} for {engine}, as a plain dict (rule params)."""
    spec = pdconfig.dataset_spec(RUN, wildcards.dataset, wildcards.engine)
    return dataclasses.asdict(spec)


def classifier_params(wildcards):
    """Parameters of classifiers.{engine}.{classifier} (rule params)."""
    return pdconfig.classifier_params(RUN, wildcards.engine, wildcards.classifier)


def cv_params():
    """The cv block as a plain dict (rule params); how it is cut into jobs left out."""
    return dataclasses.asdict(pdconfig.cv_spec(RUN))


def fit_params(**scheme):
    """Params of a model-fitting job: the DatasetSpec of {dataset} for {engine} (`dataset`),
    the parameters of {classifier} (`classifier`), then `scheme`, the settings of the
    cross-validation it runs (the cv block, or the 5 x 2-fold CV's seed)."""
    return {"dataset": engine_dataset_params, "classifier": classifier_params, **scheme}


def all_classifiers():
    """Every engine's classifier names, in configured order: {engine: [name, ...]} (rule
    params)."""
    return {engine: list(RUN["classifiers"][engine]) for engine in engines()}


def engine_classifiers(wildcards):
    """The classifier names of {engine}, in configured order (rule params)."""
    return list(RUN["classifiers"][wildcards.engine])


def dataset_classes(wildcards):
    """The configured class order of {dataset} (rule params; kappa is positional)."""
    return list(RUN["datasets"][wildcards.dataset]["classes"])


def dataset_kappa_vectors(wildcards):
    """The named kappa vectors of {dataset} (rule params)."""
    return dict(RUN["datasets"][wildcards.dataset]["kappa_vectors"])


def dataset_kappa_grid(wildcards):
    """The kappa grid values of {dataset}, or None (`kappa_grid: null`) (rule params)."""
    grid = RUN["datasets"][wildcards.dataset]["kappa_grid"]
    return list(grid) if grid is not None else None


def exact_settings():
    """The exact block and the zero-division policy (rule params of the exact analysis)."""
    return {**RUN["exact"], "zero_division": RUN["zero_division"]}


def reproduction_params():
    """The part of the config that the comparison with the papers reads (rule params).

    Engines, their classifiers, the cv block and zero-division policy (quoted in reasons and
    used to recompute), and per dataset its classes, kappa vectors and kappa grid (searched
    for a misprinted vector). Histogram chunking only bounds memory and how the fitting is cut
    into jobs changes no result: both are left out.
    """
    keys = ("classes", "kappa_vectors", "kappa_grid")
    return {
        "engines": engines(),
        "classifiers": {engine: RUN["classifiers"][engine] for engine in engines()},
        "cv": cv_params(),
        "zero_division": RUN["zero_division"],
        "datasets": {
            name: {key: block[key] for key in keys}
            for name, block in RUN["datasets"].items()
        },
    }
