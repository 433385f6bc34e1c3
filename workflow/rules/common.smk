# Config validation, engine checks, shared paths and input functions (no rules here).
#
# Everything below runs when the workflow is parsed, i.e. before any job: a misspelt key, a
# wrong type, a kappa vector of the wrong length, a class order that does not match the data
# or an unavailable engine stops Snakemake with a message naming the config key.
import dataclasses
import math
import re
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

import pdmeasure.pipeline.config as pdconfig
from pdmeasure.pipeline import plan as cvplan
from pdmeasure.paper.facts import PD_DATASET_TABLES
from pdmeasure.pipeline.data.mirror import load_manifest
from pdmeasure.tables.folds import CV5X2_FOLDS, CV5X2_REPEATS
from pdmeasure.tables.stats import comparison_keys, file_stem

#: Whether this process plans the run (the `snakemake` command), rather than running some of
#: its jobs (a cluster job's process, which parses the workflow again).
PLANNING = workflow.exec_mode.name == "DEFAULT"
#: The resolved run of the planning process, read back by the processes that run its jobs
#: (pdmeasure.pipeline.config.cache).
RUN_FILE = Path(".snakemake", "pdmeasure", "run.json")
RUN_KEY = pdconfig.run_key(config)
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
    pdconfig.check_engines(RUN)
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


def cd_figures():
    """The figure file of every key of cd_keys(), in the same order."""
    return [
        results_path("figures", "cd", engine, f"{file_stem(measure, kappa)}.png")
        for engine, measure, kappa in cd_keys()
    ]


def cd_comparisons():
    """(measure, kappa) of the CD diagrams of each engine with two classifiers or more."""
    return [list(key) for key in comparison_keys(all_kappa_vectors())]


def cd_engine_figures():
    """The CD diagrams of {engine}, one per cd_comparisons() in the same order (outputs of
    the render_cd rule, each in the report)."""
    return [
        reported(
            results_path(
                "figures", "cd", "{engine}", f"{file_stem(measure, kappa)}.png"
            ),
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


def cv_mem_mb(wildcards, attempt):
    """Memory (MB) of a model-fitting job of {engine}: `resources.cv_mem_mb` (the Weka
    engine gives the JVM all but 512 MB of it as heap)."""
    base = RUN["resources"]["cv_mem_mb"].get(wildcards.engine, 1024)
    return math.ceil(base * RUN["resources"]["scale"] * attempt)


def fit_resources():
    """Resources of a model-fitting job (rule cross_validate_part, and cross_validate when it
    fits): 30 minutes, scaled(), and the memory of its engine, cv_mem_mb()."""
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


# The CV plan (pdmeasure.pipeline.plan): which classifiers run as one job and which as part
# jobs of one or more folds. Decided once, by the Snakemake process that plans the run, from
# the estimated costs and the cores at hand (`cv.per_fold: auto`), and recorded in
# CV_PLAN_FILE: a classifier whose files exist keeps the parts it was made with (so a run on
# other cores reruns nothing), and the processes that run jobs on a cluster read the record
# instead of planning again.
CV_PLAN_FILE = Path(".snakemake", "pdmeasure", "cv_plan.json")


def cv_schemes():
    """The cross-validation schemes of every classifier: its k-fold CV, and the 5 x 2-fold
    CV of the statistics (`stats.cv5x2`)."""
    return ["cv", "cv5x2"] if RUN["stats"]["cv5x2"] else ["cv"]


def scheme_fold_counts():
    """Scheme -> its number of folds over all repeats."""
    return {
        scheme: math.prod(cvplan.scheme_folds(scheme, RUN["cv"]))
        for scheme in cv_schemes()
    }


def plan_cores():
    """The jobs that run at once, which `cv.per_fold: auto` plans for: `cv.plan_cores`, else
    --cores, else --jobs (on a cluster without --cores)."""
    if RUN["cv"].get("plan_cores") is not None:
        return RUN["cv"]["plan_cores"]
    cores = workflow.global_resources["_cores"].value
    nodes = workflow.global_resources["_nodes"].value
    return nodes if nodes is not None and (cores is None or cores <= 1) else cores


def _cv_costs(units):
    """Unit -> scheme -> estimated fitting CPU seconds: the last run's logs, else the size."""
    mirror = pdconfig.mirror_path(RUN)
    manifest = None
    if mirror is not None and (mirror / "MANIFEST.json").is_file():
        try:
            manifest = load_manifest(mirror)
        except (OSError, pdconfig.ConfigError):
            manifest = None
    rows = {
        name: cvplan.known_rows(
            block, pdconfig.results_dir(RUN) / "data" / f"{name}.csv", manifest
        )
        for name, block in RUN["datasets"].items()
    }
    measured = cvplan.measured_costs(Path("logs"), units)
    costs = {}
    for unit in units:
        engine, dataset, classifier = unit
        estimate = cvplan.estimate_cost(
            RUN["classifiers"][engine][classifier].get("class", ""),
            rows[dataset],
            len(RUN["datasets"][dataset]["classes"]),
        )
        costs[unit] = {
            scheme: measured.get(unit, {}).get(scheme, estimate)
            for scheme in cv_schemes()
        }
    return costs


def _cv_plan():
    """The CV plan of this run (see CV_PLAN_FILE)."""
    units = cv_jobs()
    # A job's process only needs the parts; the costs order the jobs of the planning one.
    costs = (
        _cv_costs(units)
        if PLANNING
        else {unit: {s: 0.0 for s in cv_schemes()} for unit in units}
    )
    folds = scheme_fold_counts()
    fresh = cvplan.choose_parts(costs, folds, RUN["cv"]["per_fold"], plan_cores())
    key = {unit: results_path("cv", *unit, "confusion.csv") for unit in units}
    recorded = cvplan.load_plan(CV_PLAN_FILE)
    if PLANNING:
        finished = {
            unit: all(Path(path).exists() for path in cv_unit_outputs(unit))
            for unit in units
        }
        parts = cvplan.settle_parts(
            fresh, recorded, key, finished, {unit: folds for unit in units}
        )
        record = {
            **recorded,
            **{key[unit]: [p.name for p in parts[unit]] for unit in units},
        }
        cvplan.save_plan(CV_PLAN_FILE, record, plan_cores())
    else:
        everything = {unit: True for unit in units}
        parts = cvplan.settle_parts(
            fresh, recorded, key, everything, {unit: folds for unit in units}
        )
    return cvplan.CVPlan(costs, parts)


def cv_unit_outputs(unit):
    """The files of one classifier's fitting: (engine, dataset, classifier) -> paths."""
    engine, dataset, classifier = unit
    paths = [
        results_path("cv", engine, dataset, classifier, "predictions.csv"),
        results_path("cv", engine, dataset, classifier, "confusion.csv"),
    ]
    if RUN["stats"]["cv5x2"]:
        paths.append(
            results_path(
                "stats", "cv5x2", engine, dataset, classifier, "predictions.csv.gz"
            )
        )
    return paths


def _unit(wildcards):
    return (wildcards.engine, wildcards.dataset, wildcards.classifier)


def cv_part_files(wildcards):
    """The part files {engine}/{dataset}/{classifier} is assembled from, in order; [] when it
    runs whole."""
    return [
        results_path("cv", *_unit(wildcards), "parts", f"{part.name}.csv")
        for part in CV_PLAN.parts.get(_unit(wildcards), ())
    ]


def cv_split(wildcards):
    """Whether {engine}/{dataset}/{classifier} runs as parts."""
    return bool(CV_PLAN.parts.get(_unit(wildcards)))


def _fit_priority(seconds):
    return min(int(seconds * 10), MAX_FIT_PRIORITY)


def cv_priority(wildcards):
    """The longest fits first; a split classifier's assembling job as soon as it can run."""
    if cv_split(wildcards):
        return SUMMARY_PRIORITY
    return _fit_priority(CV_PLAN.job_cost(_unit(wildcards)))


def part_priority(wildcards):
    """The longest parts first."""
    part = cvplan.Part.parse(wildcards.part)
    folds = scheme_fold_counts().get(part.scheme, part.last)
    return _fit_priority(CV_PLAN.part_cost(_unit(wildcards), part, folds))


def cv_job_threads(wildcards):
    """Cores of a cross_validate job: resources.cv_threads when it fits, one to assemble."""
    return 1 if cv_split(wildcards) else cv_threads()


def cv_job_resources():
    """Resources of a cross_validate job: those of a fit, or a little to assemble parts."""
    fit = fit_resources()
    light = scaled(mem_mb=512, runtime=5)

    def pick(name):
        def value(wildcards, attempt):
            chosen = light if cv_split(wildcards) else fit
            return chosen[name](wildcards, attempt)

        return value

    return {name: pick(name) for name in ("mem_mb", "runtime")}


def scheme_params(wildcards):
    """The settings of the scheme of {part} (a parameter): name, folds, repeats, seed."""
    scheme = cvplan.Part.parse(wildcards.part).scheme
    repeats, folds = cvplan.scheme_folds(scheme, RUN["cv"])
    return {
        "name": scheme,
        "folds": folds,
        "repeats": repeats,
        "seed": RUN["cv"]["seed"],
    }


def cv5x2_params():
    """The 5 x 2-fold CV of the statistics (a parameter): its seed, or None when off."""
    return {"seed": RUN["cv"]["seed"]} if RUN["stats"]["cv5x2"] else None


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
    """The outputs of rule cross_validate for {engine}/{dataset}/{classifier}, whether it fits
    them or assembles them from part jobs: the predictions and matrices of its k-fold CV, and
    with `stats.cv5x2` the predictions of its 5 x 2-fold CV.

    The per-sample predictions stay out of the report: one row per sample and fold of every
    job (tens of MB over a full run, base64-inflated in a self-contained HTML report),
    summarised by the reported confusion matrices and statistics; the 5 x 2-fold ones are
    gzipped (91 MB of CSV -> 6 MB over the papers' run).
    """
    outputs = {
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
    if RUN["stats"]["cv5x2"]:
        outputs["cv5x2"] = results_path(
            "stats/cv5x2/{engine}/{dataset}/{classifier}/predictions.csv.gz"
        )
    return outputs


def analyse_outputs():
    """The outputs of rule analyse for {engine}/{dataset}, by name.

    Not in the report: the measures and warnings parts (the rows of the reported
    measures.csv and warnings.csv of rule collect), the exact analysis's tables (summary, win,
    share and robustness are the rows of the collected tables; cdf and histogram, about 1 MB
    per engine and dataset, are drawn by the reported figures), and the JSON the explorer
    page embeds.
    """
    return {
        "measures": results_path("measures/{engine}/{dataset}.csv"),
        "warnings": results_path("warnings/{engine}/{dataset}.csv"),
        "ranking_csv": engine_report(
            "tables/table_{dataset}_{engine}.csv",
            "ranking_table",
            "Rankings",
            format="CSV",
        ),
        "ranking_md": engine_report(
            "tables/table_{dataset}_{engine}.md",
            "ranking_table",
            "Rankings",
            format="Markdown",
        ),
        **{
            f"exact_{name}": results_path(f"exact/{{engine}}/{{dataset}}/{name}.csv")
            for name in EXACT_TABLES
        },
        **{
            f"unc_{name}": engine_report(
                f"uncertainty/{{engine}}/{{dataset}}/{name}.csv",
                f"uncertainty_{name}",
                "Uncertainty",
                table=table,
            )
            for name, table in (
                ("intervals", "intervals"),
                ("pairwise", "pairwise probabilities"),
                ("ranks", "rank probabilities"),
                ("within", "correlated t-tests (folds)"),
                ("posterior", "pairwise posteriors"),
            )
        },
        "unc_explorer": results_path("uncertainty/{engine}/{dataset}/explorer.json"),
        "unc_table": engine_report(
            "tables/table_{dataset}_{engine}_ci.csv",
            "uncertainty_table",
            "Uncertainty",
            table="ranking table with intervals (CSV)",
        ),
        "explorer": results_path("explorer/{engine}/{dataset}.json"),
        "stats_folds": engine_report(
            "stats/{engine}/{dataset}/fold_measures.csv",
            "stats_fold_measures",
            "Statistics",
            table="fold measures",
            format="CSV",
        ),
        "stats_pairwise": engine_report(
            "stats/{engine}/{dataset}/pairwise.csv",
            "stats_pairwise",
            "Statistics",
            table="pairwise tests",
            format="CSV",
        ),
        "stats_significance": engine_report(
            "stats/{engine}/{dataset}/significance.csv",
            "stats_significance",
            "Statistics",
            table="significance",
            format="CSV",
        ),
        "stats_markdown": engine_report(
            "stats/{engine}/{dataset}/significance.md",
            "stats_significance",
            "Statistics",
            table="significance",
            format="Markdown",
        ),
    }


def render_outputs():
    """The outputs of render for {engine}/{dataset}, by name (the exact analysis's
    figures, the ranking table with intervals in Markdown and its figures, the explorer
    page)."""
    return {
        **{
            f"exact_{name}": engine_report(
                f"exact/figures/{{engine}}/{{dataset}}_{name}.png",
                f"exact_figure_{name}",
                "Exact analysis",
                figure=name,
            )
            for name in EXACT_FIGURES
        },
        "table_md": engine_report(
            "tables/table_{dataset}_{engine}_ci.md",
            "uncertainty_table",
            "Uncertainty",
            table="ranking table with intervals (Markdown)",
        ),
        "forest": engine_report(
            "figures/uncertainty/{engine}/{dataset}_forest.png",
            "uncertainty_forest",
            "Uncertainty",
            table="interval (forest) plot",
        ),
        "posterior_figure": engine_report(
            "figures/uncertainty/{engine}/{dataset}_posterior.png",
            "uncertainty_posterior_figure",
            "Uncertainty",
            table="pairwise posterior plot",
        ),
        "html": engine_report(
            "explorer/{engine}/{dataset}.html",
            "explorer",
            "Exact analysis",
            figure="kappa explorer (HTML)",
        ),
    }


def collect_inputs():
    """What collect gathers (every CV matrix, the measures, warnings and exact-analysis
    parts of every engine and dataset, and for a run that touches the papers their example
    tables and the ranking tables, for the comparison with the printed numbers)."""
    inputs = {
        "confusion": cv_files("confusion.csv"),
        "measures": per_engine_dataset("measures/{engine}/{dataset}.csv"),
        "warnings": per_engine_dataset("warnings/{engine}/{dataset}.csv"),
        **{
            f"exact_{name}": per_engine_dataset(
                f"exact/{{engine}}/{{dataset}}/{name}.csv"
            )
            for name in EXACT_COLLECTED
        },
    }
    if paper_run():
        inputs["paper"] = [
            results_path("paper", f"{name}.csv") for name in PAPER_TABLE_NAMES
        ]
        inputs["rankings"] = per_dataset_engine("tables/table_{dataset}_{engine}.csv")
    return inputs


def collect_outputs():
    """The outputs of rule collect, by name, each in the report."""
    outputs = {
        "confusion": reported(
            results_path("confusion_matrices.csv"),
            "confusion_matrices",
            "Cross-validation",
            "All engines",
        ),
        "measures": reported(
            results_path("measures.csv"), "measures", "Measures", table="measures"
        ),
        "warnings": reported(
            results_path("warnings.csv"), "warnings", "Measures", table="warnings"
        ),
        **{
            f"exact_{name}": reported(
                results_path("exact", file),
                f"exact_{name}",
                "Exact analysis",
                "All engines and datasets",
                table=name,
            )
            for name, file in EXACT_COLLECTED.items()
        },
        "exact_robustness_summary": reported(
            results_path("exact/robustness_summary.csv"),
            "exact_robustness_summary",
            "Exact analysis",
            "All engines and datasets",
            table="robustness summary",
        ),
        **{
            f"across_{name}": reported(
                results_path(path),
                caption,
                "Statistics",
                "Across datasets",
                table=table,
            )
            for name, (path, caption, table) in STATS_ACROSS.items()
        },
        "signed_rank": reported(
            results_path("uncertainty/across_signed_rank.csv"),
            "uncertainty_across",
            "Uncertainty",
            "Across datasets",
            table="Bayesian signed-rank tests",
        ),
    }
    if paper_run():
        outputs["reproduction"] = reported(
            results_path("reproduction.csv"),
            "reproduction",
            "Paper reproduction",
            "Published vs reproduced",
            format="CSV, one row per number",
        )
    return outputs


def reproduction_table_input():
    """reproduction.csv as an input of rule render_summary (runs that touch the papers)."""
    return [results_path("reproduction.csv")] if paper_run() else []


def render_summary_outputs():
    """The outputs of the render_summary rule, by name: the statistics report,
    and for a run that touches the papers the reproduction summary."""
    outputs = {
        "report": reported(
            results_path("stats/report.md"), "stats_report", "Statistics", "Report"
        ),
    }
    if paper_run():
        outputs["reproduction"] = reported(
            results_path("reproduction.md"),
            "reproduction_summary",
            "Paper reproduction",
            "Published vs reproduced",
            format="Markdown summary",
        )
    return outputs


def figure7_outputs():
    """The outputs of render_figure7 for {engine} (Figure 7 over the configured grids,
    when some dataset has one, and over the fine grid)."""
    outputs = {}
    if grid_datasets():
        outputs["grid"] = engine_report(
            "figures/figure7_{engine}.png",
            "figure7",
            "Kappa grids",
            dataset="all datasets",
            output="Figure 7",
        )
    outputs["fine"] = engine_report(
        "exact/figures/figure7_fine_{engine}.png",
        "exact_figure7",
        "Exact analysis",
        dataset="all datasets",
        figure="Figure 7 (fine grid)",
    )
    return outputs


# The CV plan of this run, decided once at parse time (see CV_PLAN_FILE).
CV_PLAN = _cv_plan()


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
