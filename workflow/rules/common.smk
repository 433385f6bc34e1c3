# Config validation, engine checks, shared paths and input functions (no rules here).
#
# Everything below runs when the workflow is parsed, i.e. before any job: a misspelt key, a
# wrong type, a kappa vector of the wrong length, a class order that does not match the data
# or an unavailable engine stops Snakemake with a message naming the config key.
import dataclasses
import math
import re

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

import pdmeasure.pipeline.config as pdconfig
from pdmeasure.paper.facts import PD_DATASET_TABLES
from pdmeasure.tables.folds import CV5X2_FOLDS, CV5X2_REPEATS
from pdmeasure.tables.stats import comparison_keys, file_stem

try:
    validate(config, str(pdconfig.SCHEMA_PATH), set_default=True)
except WorkflowError as exc:
    raise pdconfig.schema_error(exc) from None
# The run: the selected datasets, engines and classifiers, each dataset resolved (class order,
# numeric features, kappa vectors by position, kappa grid). Every rule reads RUN, not config.
RUN = pdconfig.resolve_run(config)
pdconfig.check_config(RUN)
pdconfig.check_engines(RUN)
pdconfig.check_data(RUN)

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


def per_fold_datasets():
    """Datasets whose CVs run as one job per fold (`cv.per_fold`), in run order."""
    return list(RUN["cv"]["per_fold"])


def whole_cv_datasets():
    """Datasets whose CVs run as one job per classifier: the others."""
    return [name for name in datasets() if name not in RUN["cv"]["per_fold"]]


wildcard_constraints:
    dataset=one_of(datasets()),
    engine=one_of(engines()),
    classifier="[A-Za-z0-9_]+",
    repeat="[0-9]+",
    fold="[0-9]+",


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


def cd_figures():
    """The figure file of every key of cd_keys(), in the same order."""
    return [
        results_path("figures", "cd", engine, f"{file_stem(measure, kappa)}.png")
        for engine, measure, kappa in cd_keys()
    ]


# The tables that stats_across writes, by output name -> the file (under the results folder),
# its report caption and its table label.
STATS_ACROSS = {
    "ranks": ("stats/across_ranks.csv", "stats_across_ranks", "average ranks"),
    "omnibus": ("stats/across_omnibus.csv", "stats_across_omnibus", "omnibus tests"),
    "posthoc": ("stats/across_posthoc.csv", "stats_across_posthoc", "post-hoc tests"),
    "cd": ("stats/cd.csv", "stats_cd", "critical differences"),
}


def stats_across_files():
    """The files of the tables that stats_across writes, by output name (rule inputs and
    final targets)."""
    return {name: results_path(path) for name, (path, _, _) in STATS_ACROSS.items()}


def paper_figure_points(wildcards):
    """The marked points of Figure 2 (the other paper figures have none)."""
    return results_path("paper", "pd_figure2_points.csv") if wildcards.n == "2" else []


# Job order. profiles/default selects Snakemake's greedy scheduler, which starts the ready jobs
# of highest priority first and, among equals, those with the largest input. Every dataset is
# fetched first (a fetch takes under a second); every job that is not a model fit runs as soon
# as its inputs exist; the model fits (cross_validate, stats_cv5x2 and their per-fold jobs,
# priority 0) fill the cores otherwise, largest dataset first. The run then ends on small
# datasets' short fits and the little work that follows them, not on a large dataset's fit
# with every summary still to do.
# Among the summary jobs, the longest chain after the last fit goes first: measures ->
# aggregate_measures -> stats_across -> stats_cd_diagrams -> stats_report (about 7 CPU-s
# measured, against about 4 for the exact-analysis chain).
FETCH_PRIORITY = 20
CHAIN_PRIORITY = 11
SUMMARY_PRIORITY = 10


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
    """Cores of a cross-validation job: `resources.cv_threads`."""
    return RUN["resources"]["cv_threads"]


def cv_mem_mb(wildcards, attempt):
    """Memory (MB) of a cross-validation job of {engine}: `resources.cv_mem_mb` (the Weka
    engine gives the JVM all but 512 MB of it as heap)."""
    base = RUN["resources"]["cv_mem_mb"].get(wildcards.engine, 1024)
    return math.ceil(base * RUN["resources"]["scale"] * attempt)


def fit_resources():
    """Resources of a model-fitting job (rules cross_validate, stats_cv5x2 and their per-fold
    rules): 30 minutes, scaled(), and the memory of its engine, cv_mem_mb()."""
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


def fold_files(wildcards, stage, repeats, folds):
    """The fold predictions under `stage` of {engine}/{dataset}/{classifier}, in
    (repeat, fold) order: the order of the whole cross-validation (`cv.per_fold`)."""
    folder = results_path(
        *stage, wildcards.engine, wildcards.dataset, wildcards.classifier, "folds"
    )
    return [
        f"{folder}/{repeat}_{fold}.csv"
        for repeat in range(1, repeats + 1)
        for fold in range(1, folds + 1)
    ]


def cv_fold_files(wildcards):
    """The fold predictions of the configured CV of {engine}/{dataset}/{classifier}."""
    return fold_files(wildcards, ["cv"], RUN["cv"]["repeats"], RUN["cv"]["folds"])


def cv5x2_fold_files(wildcards):
    """The fold predictions of the 5 x 2-fold CV of {engine}/{dataset}/{classifier}."""
    return fold_files(wildcards, ["stats", "cv5x2"], CV5X2_REPEATS, CV5X2_FOLDS)


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
    """The cv block as a plain dict (rule params)."""
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
    for a misprinted vector). Histogram chunking only bounds memory and is left out.
    """
    keys = ("classes", "kappa_vectors", "kappa_grid")
    return {
        "engines": engines(),
        "classifiers": {engine: RUN["classifiers"][engine] for engine in engines()},
        "cv": dict(RUN["cv"]),
        "zero_division": RUN["zero_division"],
        "datasets": {
            name: {key: block[key] for key in keys}
            for name, block in RUN["datasets"].items()
        },
    }


# Report: `snakemake --report report.html` (or report.zip) collects every output wrapped in
# reported(...); the captions are workflow/report/<caption>.rst.
def reported(path, caption, category, subcategory=None, **labels):
    """`path` marked for the Snakemake report, captioned by workflow/report/<caption>.rst.

    category and subcategory group the results in the report's menu; labels (name -> text)
    are the columns of a subcategory's result table, so the results of one subcategory share
    the same label names and differ in at least one value. Wildcards in braces, e.g.
    subcategory="{engine}" or dataset="{dataset}", are filled in per job.
    """
    return report(
        path,
        # Relative to the rule file that calls this (workflow/rules/), like any rule path.
        caption=f"../report/{caption}.rst",
        category=category,
        subcategory=subcategory,
        labels=labels or None,
    )


def engine_report(path, caption, category, dataset="{dataset}", **labels):
    """reported(...) of the output `path` (under the results folder) of a job per {engine}
    (and {dataset}): in the subcategory of its engine, labelled by its dataset ("all
    datasets" for a job per engine), then `labels`."""
    return reported(
        results_path(path),
        caption,
        category,
        "{engine}",
        dataset=dataset,
        **labels,
    )


def cv_outputs():
    """The outputs of the CV of {engine}/{dataset}/{classifier}, whether one job writes them
    (rule cross_validate) or they are assembled from its folds (rule assemble_folds).

    The per-sample predictions stay out of the report: one row per sample and fold of every
    job (tens of MB over a full run, base64-inflated in a self-contained HTML report),
    summarised by the reported confusion matrices and statistics.
    """
    return {
        "predictions": results_path(
            "cv/{engine}/{dataset}/{classifier}/predictions.csv"
        ),
        "confusion": engine_report(
            "cv/{engine}/{dataset}/{classifier}/confusion.csv",
            "cv_confusion",
            "Cross-validation",
            classifier="{classifier}",
        ),
    }


# Final targets of `rule all`, one function per module of the workflow.


def data_targets():
    """Canonical tables of the run's datasets, and what was resolved about each."""
    return [
        results_path("data", f"{name}.{ext}")
        for name in datasets()
        for ext in ("csv", "json")
    ]


def cv_targets():
    """Predictions and confusion matrices of every CV job, and their aggregate."""
    return [
        *cv_files("predictions.csv"),
        *cv_files("confusion.csv"),
        results_path("confusion_matrices.csv"),
    ]


def measures_targets():
    """The aggregated measures and warnings tables."""
    return [results_path("measures.csv"), results_path("warnings.csv")]


def grids_targets():
    """Kappa-grid histograms and summaries, and the grid Figure 7 per engine."""
    return [
        results_path("grids", engine, dataset, f"{name}.csv")
        for engine in engines()
        for dataset in grid_datasets()
        for name in ("histogram", "summary")
    ] + [
        results_path("figures", f"figure7_{engine}.png")
        for engine in engines()
        if grid_datasets()
    ]


def tables_targets():
    """Ranking tables (CSV and Markdown) per dataset and engine."""
    return per_dataset_engine(
        "tables/table_{dataset}_{engine}.{ext}", ext=["csv", "md"]
    )


def paper_run():
    """Whether the run touches the papers: some dataset of the run is one of the pd paper's
    (by name). A run of one's own datasets builds no paper tables and no reproduction.
    """
    return any(name in PD_DATASET_TABLES for name in datasets())


def paper_targets():
    """Paper tables and figures computed from the papers' own example matrices (runs that
    touch the papers only)."""
    if not paper_run():
        return []
    return [
        *[
            results_path("paper", f"{name}.{ext}")
            for name in PAPER_TABLE_NAMES
            for ext in ("csv", "md")
        ],
        *[
            results_path("paper", f"pd_figure{n}.{ext}")
            for n in PAPER_FIGURES
            for ext in ("csv", "png")
        ],
        results_path("paper", "pd_figure2_points.csv"),
        results_path("paper", "pd_surfaces.csv"),
    ]


def reproduction_targets():
    """Published-against-reproduced comparison and its summary (runs that touch the papers
    only)."""
    if not paper_run():
        return []
    return [results_path("reproduction.csv"), results_path("reproduction.md")]


def stats_targets():
    """Statistical comparison tables, CD diagrams and the statistics report."""
    return [
        results_path("stats/report.md"),
        *stats_across_files().values(),
        *cd_figures(),
        *per_engine_dataset(
            "stats/{engine}/{dataset}/{name}",
            name=[
                "fold_measures.csv",
                "pairwise.csv",
                "significance.csv",
                "significance.md",
            ],
        ),
    ]


def exact_targets():
    """Exact kappa-space tables, their collected versions and figures."""
    return (
        [results_path("exact", file) for file in EXACT_COLLECTED.values()]
        + [results_path("exact/robustness_summary.csv")]
        + per_engine_dataset(
            "exact/figures/{engine}/{dataset}_{name}.png", name=EXACT_FIGURES
        )
        + [
            results_path("exact", "figures", f"figure7_fine_{engine}.png")
            for engine in engines()
        ]
    )


def explorer_targets():
    """One interactive kappa explorer page per engine and dataset."""
    return per_engine_dataset("explorer/{engine}/{dataset}.html")


def uncertainty_prediction_files(wildcards):
    """predictions.csv of every classifier of {engine} on {dataset} for method bootstrap; []
    for method posterior (the pooled matrices suffice)."""
    if RUN["uncertainty"]["method"] != "bootstrap":
        return []
    return engine_prediction_files(wildcards)


def uncertainty_input(*parts):
    """The uncertainty output at `parts` as a rule input."""
    return results_path(*parts)


def uncertainty_targets():
    """Intervals, pairwise and rank probabilities, fold tests, posteriors, companion ranking
    tables and figures per engine and dataset, and the signed-rank tests across datasets.
    """
    per_job = per_engine_dataset(
        "uncertainty/{engine}/{dataset}/{name}",
        name=[
            "intervals.csv",
            "pairwise.csv",
            "ranks.csv",
            "within.csv",
            "posterior.csv",
            "explorer.json",
        ],
    )
    tables = per_dataset_engine(
        "tables/table_{dataset}_{engine}_ci.{ext}", ext=["csv", "md"]
    )
    figures = per_engine_dataset(
        "figures/uncertainty/{engine}/{dataset}_{name}.png",
        name=["forest", "posterior"],
    )
    return [
        *per_job,
        *tables,
        *figures,
        results_path("uncertainty/across_signed_rank.csv"),
    ]
