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
from types import SimpleNamespace

from snakemake.exceptions import WorkflowError
from snakemake.logging import logger
from snakemake.utils import validate

import pdmeasure.pipeline.config as pdconfig
from pdmeasure.paper.facts import PD_DATASET_TABLES
from pdmeasure.pipeline.data.mirror import load_manifest
from pdmeasure.pipeline.parts import SCHEMES, Part, classifier_parts, scheme_folds
from pdmeasure.tables.fits import failed_fits
from pdmeasure.tables.folds import CV5X2_FOLDS, CV5X2_REPEATS
from pdmeasure.tables.stats import comparison_keys, file_stem

try:
    validate(config, str(pdconfig.SCHEMA_PATH), set_default=True)
except WorkflowError as exc:
    raise pdconfig.schema_error(exc) from None
# The run: the selected datasets, engines and classifiers, each dataset resolved (class order,
# numeric features, kappa vectors by position, kappa grid). Every rule reads RUN, not config.
# Every dataset is checked before any job, each alone: one message lists every dataset that
# cannot run, or (dataset_files.<i>.skip_invalid) those files are set aside and listed.
RUN = pdconfig.resolve_run(config, collect=True)
pdconfig.settle_problems(
    RUN, {**RUN["problems"], **pdconfig.dataset_problems(RUN, read_data=True)}
)
for skipped in RUN["skipped"]:
    logger.warning(
        f"dataset `{skipped['dataset']}` (file {skipped['path']}) is set aside "
        f"(dataset_files.{skipped['entry']}.skip_invalid): {skipped['reason']}"
    )
# The checks that import the engines' libraries run where the run is planned (the
# `snakemake` command), not again in each cluster job's process.
if workflow.exec_mode.name == "DEFAULT":
    pdconfig.check_engines(RUN)

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


def dataset_figures():
    """Whether the run draws each dataset's figures (`render.dataset_figures`)."""
    return RUN["render"]["dataset_figures"]


def figure7_drawn():
    """Whether the run draws Figure 7 of each engine (`render.figure7`)."""
    return RUN["render"]["figure7"]


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


def result_matrix_keys():
    """(measure, kappa) of each result matrix (`stats.result_matrix`; params of the rule):
    preference_driven at the default kappa and at each named kappa vector of the run's
    datasets (in order of appearance); another measure once, with kappa ""."""
    keys = []
    names = list(
        dict.fromkeys(n for vectors in all_kappa_vectors().values() for n in vectors)
    )
    for measure in RUN["stats"]["result_matrix"]:
        if measure == "preference_driven":
            keys += [[measure, "default"], *([measure, name] for name in names)]
        else:
            keys.append([measure, ""])
    return keys


def verdict_keys():
    """The result matrix's (measure, kappa) that are compared across datasets: the
    verdicts that open the statistics report (rule params)."""
    across = {tuple(key) for key in comparison_keys(all_kappa_vectors())}
    return [key for key in result_matrix_keys() if tuple(key) in across]


def engine_baseline(wildcards):
    """The baseline of {engine}'s result matrix: `stats.baseline` where the engine has a
    classifier of that name, else its first classifier (rule params)."""
    names = list(RUN["classifiers"][wildcards.engine])
    chosen = RUN["stats"]["baseline"]
    return chosen if chosen in names else names[0]


def stats_across_files():
    """The files of the statistics across datasets, by name (rule inputs and final
    targets)."""
    return {name: results_path(path) for name, (path, _, _) in STATS_ACROSS.items()}


# Job order (Snakemake's greedy scheduler starts the ready jobs of highest priority first):
# the part jobs, which their dataset's fitting job waits for; then the fitting jobs, the
# largest datasets first (their priority is the size of the dataset's source file, times its
# classifiers), so that the run ends on small fits rather than on a long one started late.
# Each dataset is fetched (under a second) just before its first fit: its priority is one
# above that fit's. Every job after the fits runs as soon as its inputs exist; once the last
# analysis has ended, the longest chains left go first: rules collect and signed_rank, then
# the CD diagrams and the summary report drawn from them, while rules render and
# result_matrix, which no other job waits for, take the cores left.
COLLECT_PRIORITY = 10**8 + 1
ANALYSIS_PRIORITY = 10**8
PART_PRIORITY = 10**8 - 1


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
    """Cores of a model-fitting job: `resources.cv_threads` (Snakemake caps it at --cores)."""
    return RUN["resources"]["cv_threads"]


def cv_mem_mb(wildcards, attempt):
    """Memory (MB) of a model-fitting job of {engine}: `resources.cv_mem_mb` x
    `resources.scale` x the attempt (the Weka engine gives the JVM all but 512 MB of it as
    heap)."""
    base = RUN["resources"]["cv_mem_mb"].get(wildcards.engine, 1024)
    return math.ceil(base * RUN["resources"]["scale"] * attempt)


def fit_resources():
    """Resources of a model-fitting job (rules cross_validate, cross_validate_part): 30
    minutes, scaled(), and the memory of its engine (cv_mem_mb)."""
    return {**scaled(runtime=30), "mem_mb": cv_mem_mb}


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


def cv_folder(engine="{engine}", dataset="{dataset}"):
    """The folder of an engine and dataset's fitting job (of rule cross_validate), one
    subfolder per classifier with predictions.csv and confusion.csv."""
    return results_path("cv", engine, dataset)


def cv5x2_folder(engine="{engine}", dataset="{dataset}"):
    """The folder of the 5 x 2-fold CV predictions of an engine and dataset's fitting job:
    <classifier>/predictions.csv.gz."""
    return results_path("stats", "cv5x2", engine, dataset)


def cv_files(name):
    """File `name` (e.g. "confusion.csv") of every classifier of every fitting job:
    <results>/cv/{engine}/{dataset}/{classifier}/<name>, in configured order."""
    return [
        str(Path(cv_folder(engine, dataset), classifier, name))
        for engine, dataset, classifier in cv_jobs()
    ]


def cv_folders():
    """The folder of every fitting job (cv_folder), engine by engine, dataset by dataset."""
    return [
        cv_folder(engine, dataset) for engine in engines() for dataset in datasets()
    ]


def engine_cv_folders(wildcards):
    """The fitting folders of {engine}, dataset by dataset (their fits.csv says which
    classifiers finished)."""
    return [cv_folder(wildcards.engine, dataset) for dataset in datasets()]


def fit_policy():
    """What a fitting job does with a fit that fails or runs long: `cv.on_failure` and
    `cv.time_limit` (rule params; changing either reruns the fitting jobs, since a fit that
    failed may finish under the new setting)."""
    return {
        "time_limit": RUN["cv"]["time_limit"],
        "on_failure": RUN["cv"]["on_failure"],
    }


def log_failed_fits():
    """Log the failed fits that the fitting folders' fits.csv list (the Snakefile's
    onsuccess and onerror handlers): one line each, with its reason."""
    folders = [folder for folder in cv_folders() if Path(folder).is_dir()]
    failed = failed_fits(folders)
    if failed.empty:
        return
    logger.warning(
        f"{len(failed)} fit(s) failed and are left out of every result after the fits "
        "(results/stats/report.md lists them too):"
    )
    for row in failed.itertuples(index=False):
        logger.warning(f"  {row.engine}/{row.dataset}/{row.classifier}: {row.reason}")


def dataset_cv_inputs(wildcards):
    """The folders of {dataset}'s fitting jobs, one per engine of the run in run order:
    `fits` (and `cv5x2` with `stats.cv5x2`), the inputs of the rule that reads their files.
    """
    folders = {"fits": [cv_folder(engine, wildcards.dataset) for engine in engines()]}
    if RUN["stats"]["cv5x2"]:
        folders["cv5x2"] = [
            cv5x2_folder(engine, wildcards.dataset) for engine in engines()
        ]
    return folders


def cv_files_of(engine, dataset):
    """The files inside `engine`/`dataset`'s fitting folders that a rule reads,
    `confusion` and `predictions` of every classifier in config order, and `cv5x2` ([]
    when `stats.cv5x2` is off)."""
    classifiers = RUN["classifiers"][engine]
    fits = cv_folder(engine, dataset)
    files = {
        name: [str(Path(fits, c, f"{name}.csv")) for c in classifiers]
        for name in ("confusion", "predictions")
    }
    folder = cv5x2_folder(engine, dataset)
    files["cv5x2"] = (
        [str(Path(folder, c, "predictions.csv.gz")) for c in classifiers]
        if RUN["stats"]["cv5x2"]
        else []
    )
    return files


def dataset_cv_files(wildcards):
    """{engine: the files of :func:`cv_files_of`} for {dataset} and every engine of the run
    (rule params)."""
    return {engine: cv_files_of(engine, wildcards.dataset) for engine in engines()}


def split_parts(engine, dataset):
    """{classifier: its parts} of the classifiers of `engine` that `cv.parts` cuts out of
    `dataset`'s fitting job, in config order."""
    declared = RUN["cv"]["parts"].get(dataset, {})
    return {
        classifier: classifier_parts(
            declared[classifier], RUN["cv"], RUN["stats"]["cv5x2"]
        )
        for classifier in RUN["classifiers"][engine]
        if classifier in declared
    }


def part_file(engine, dataset, classifier, part):
    """The predictions of one part job (rule cross_validate_part), deleted once assembled."""
    return results_path("cv_parts", engine, dataset, classifier, f"{part}.csv")


def cv_part_files(wildcards):
    """The part files of {engine}/{dataset}'s split classifiers, classifier by classifier in
    scheme and fold order; [] when `cv.parts` splits none."""
    return [
        part_file(wildcards.engine, wildcards.dataset, classifier, part.name)
        for classifier, parts in split_parts(
            wildcards.engine, wildcards.dataset
        ).items()
        for part in parts
    ]


def part_names(wildcards):
    """{classifier: [part name, ...]} of {engine}/{dataset}'s split classifiers (rule
    params: the fitting job assembles these instead of fitting them)."""
    return {
        classifier: [part.name for part in parts]
        for classifier, parts in split_parts(
            wildcards.engine, wildcards.dataset
        ).items()
    }


@functools.cache
def source_bytes(dataset):
    """The size of a dataset's source file where it is known before any job runs (the UCI
    mirror's MANIFEST.json, or the local file); 0 otherwise. Once per dataset and process:
    the priority of each of its fitting jobs asks again."""
    block = RUN["datasets"][dataset]
    if block["path"] is not None:
        path = Path(block["path"])
        return path.stat().st_size if path.is_file() else 0
    mirror = pdconfig.mirror_path(RUN)
    if block["uci_id"] is None or mirror is None:
        return 0
    try:
        manifest = load_manifest(mirror)
    except (OSError, pdconfig.ConfigError):
        return 0
    for entry in manifest["datasets"].values():
        if entry.get("uci_id") == block["uci_id"]:
            return int(entry.get("bytes") or 0)
    return 0


def cv_priority(wildcards):
    """The larger datasets' fitting jobs first: the source file's kilobytes times the job's
    classifiers, below the part jobs' and the analyses' priorities."""
    kilobytes = source_bytes(wildcards.dataset) // 1024 + 1
    return min(kilobytes * len(RUN["classifiers"][wildcards.engine]), PART_PRIORITY - 1)


def fetch_priority(wildcards):
    """One above the first job that reads the dataset's table: a part job's, or the larger of
    its fitting jobs'. Fetching each dataset just before it is fitted, rather than all of them
    first, keeps Snakemake's scheduler light: it wakes up once per timespan of
    `max-jobs-per-timespan` for every job that has ended, and checks the inputs of every
    ready job each time (docs/performance.md)."""
    dataset = wildcards.dataset
    if any(split_parts(engine, dataset) for engine in engines()):
        return PART_PRIORITY + 1
    return 1 + max(
        cv_priority(SimpleNamespace(engine=engine, dataset=dataset))
        for engine in engines()
    )


def fitting_params(wildcards):
    """The classifiers a fitting job runs: {classifier: its configured parameters}, in
    config order (rule params)."""
    return {
        classifier: pdconfig.classifier_params(RUN, wildcards.engine, classifier)
        for classifier in RUN["classifiers"][wildcards.engine]
    }


def scheme_params(wildcards):
    """The settings of the scheme of {part} (a parameter): name, folds, repeats, seed."""
    scheme = Part.parse(wildcards.part).scheme
    repeats, folds = scheme_folds(scheme, RUN["cv"])
    return {
        "name": scheme,
        "folds": folds,
        "repeats": repeats,
        "seed": RUN["cv"]["seed"],
    }


def cv5x2_params():
    """The 5 x 2-fold CV of the statistics (a parameter): its seed, or None when off."""
    return {"seed": RUN["cv"]["seed"]} if RUN["stats"]["cv5x2"] else None


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


def kappa_vectors_of(dataset):
    """The named kappa vectors of `dataset`."""
    return dict(RUN["datasets"][dataset]["kappa_vectors"])


def dataset_kappa_vectors(wildcards):
    """The named kappa vectors of {dataset} (rule params)."""
    return kappa_vectors_of(wildcards.dataset)


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
