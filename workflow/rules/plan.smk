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


#: Cores from which the jobs on a run's tail run their independent steps side by side.
TAIL_CORES = 8
#: Cores from which the jobs across datasets that end a run (collect, render_cd) take their
#: `wide` threads: the cores idle there, while on 8 a third core is still wanted by the last
#: analyses and renders (docs/scale-out.md).
WIDE_TAIL_CORES = 16


def tail_threads(threads, wide=None):
    """Threads of a job on the run's tail (the last analyses, collect and the renders after
    them): `threads` when the run is planned for TAIL_CORES cores or more (plan_cores), and
    `wide` (if given) for WIDE_TAIL_CORES or more; else 1.

    With few cores the others stay busy to the end and a job of several threads only waits
    for them: the `.test` run on 2 cores took 48-52 s with these jobs at 2-3 threads and
    38-42 s at one. `--set-threads` overrides either."""
    cores = plan_cores()
    if cores is None or cores < TAIL_CORES:
        return 1
    return wide if wide is not None and cores >= WIDE_TAIL_CORES else threads


@functools.cache
def _dataset_rows():
    """Dataset -> its rows where known without running anything (cvplan.known_rows); read
    once per process, for the plan's costs and for TAIL_DATASETS (a dataset given as a file
    and not yet fetched has its lines counted)."""
    mirror = pdconfig.mirror_path(RUN)
    manifest = None
    if mirror is not None and (mirror / "MANIFEST.json").is_file():
        try:
            manifest = load_manifest(mirror)
        except (OSError, pdconfig.ConfigError):
            manifest = None
    return {
        name: cvplan.known_rows(
            block, pdconfig.results_dir(RUN) / "data" / f"{name}.csv", manifest
        )
        for name, block in RUN["datasets"].items()
    }


def _estimated_cost(unit, scheme, rows):
    engine, dataset, classifier = unit
    return cvplan.estimate_cost(
        RUN["classifiers"][engine][classifier].get("class", ""),
        rows[dataset],
        len(RUN["datasets"][dataset]["classes"]),
        scheme,
    )


def _cv_costs(units):
    """Unit -> scheme -> estimated fitting CPU seconds: the last run's logs, else the size."""
    rows = _dataset_rows()
    measured = cvplan.measured_costs(Path("logs"), units)
    costs = {}
    for unit in units:
        known = measured.get(unit, {})
        costs[unit] = {
            scheme: (
                known[scheme]
                if scheme in known
                else _estimated_cost(unit, scheme, rows)
            )
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
    per_fold = RUN["cv"]["per_fold"]
    fresh = cvplan.choose_parts(costs, folds, per_fold, plan_cores())
    key = {unit: results_path("cv", *unit, "confusion.csv") for unit in units}
    recorded = cvplan.load_plan(CV_PLAN_FILE)
    recorded_batches = cvplan.load_batches(CV_PLAN_FILE)
    if PLANNING:
        finished = {
            unit: all(Path(path).exists() for path in cv_unit_outputs(unit))
            for unit in units
        }
    else:
        finished = {unit: True for unit in units}
    parts = cvplan.settle_parts(
        fresh, recorded, key, finished, {unit: folds for unit in units}
    )

    def fresh_batches(free):
        if not PLANNING or per_fold != "auto":
            return ()
        return cvplan.choose_batches(costs, plan_cores(), free)

    whole = [unit for unit in units if not parts[unit]]
    batches = cvplan.settle_batches(
        fresh_batches, recorded_batches, key, finished, whole
    )
    if PLANNING:
        record = {
            **recorded,
            **{key[unit]: [p.name for p in parts[unit]] for unit in units},
        }
        cvplan.save_plan(
            CV_PLAN_FILE,
            record,
            plan_cores(),
            cvplan.batch_record(batches, recorded_batches, key),
        )
    return cvplan.CVPlan(costs, parts, batches)


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


def cv_batch_name(batch):
    """Rule name of a batch: cross_validate_batch_<engine>_<dataset>_<k>, its k-th of that
    engine and dataset (engine names have no underscore, so the names are unique)."""
    engine, dataset = batch[0][:2]
    same = [b for b in CV_PLAN.batches if b[0][:2] == (engine, dataset)]
    return f"cross_validate_batch_{engine}_{dataset}_{same.index(batch) + 1}"


def cv_batch_log(batch, folder):
    """The batch's file under `folder` ("logs" or the benchmarks folder):
    cv/<engine>/<dataset>/batches/<k>.log (or .tsv)."""
    k = cv_batch_name(batch).rsplit("_", 1)[1]
    suffix = ".log" if folder == "logs" else ".tsv"
    return str(Path(folder, "cv", *batch[0][:2], "batches", k + suffix))


def cv_batch_params(batch):
    """Params of a batch's job: its engine and dataset, the dataset's DatasetSpec as a dict,
    each classifier's parameters in the batch's order, the cv block and the 5 x 2-fold CV.
    """
    engine, dataset = batch[0][:2]
    spec = pdconfig.dataset_spec(RUN, dataset, engine)
    return {
        "engine": engine,
        "dataset_name": dataset,
        "dataset": dataclasses.asdict(spec),
        "classifiers": {
            unit[2]: pdconfig.classifier_params(RUN, engine, unit[2]) for unit in batch
        },
        "cv": cv_params(),
        "cv5x2": cv5x2_params(),
    }


#: The job group of the batches on a cluster: the one profiles/slurm gives rules
#: cross_validate and analyse, so that a batch joins its engine and dataset's group job.
#: Snakemake applies --groups (a profile's `groups`) after parsing the Snakefile, and a
#: profile cannot name the batch rules, so the Snakefile names it; a local run has no groups.
CV_BATCH_GROUP = "dataset"


def cv_batch_group():
    """The job group of the batches: rule cross_validate's where --groups is known while the
    Snakefile is parsed, else CV_BATCH_GROUP."""
    settings = workflow.group_settings
    known = {} if settings is None else settings.overwrite_groups
    return known.get("cross_validate", CV_BATCH_GROUP)


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


# The CV plan of this run, decided once at parse time (see CV_PLAN_FILE).
CV_PLAN = _cv_plan()


def _tail_datasets():
    """The datasets whose fits end last (cvplan.tail_datasets), from the size estimates
    alone: every process that parses the workflow (a cluster job's too) finds the same ones,
    whatever logs it sees."""
    rows = _dataset_rows()
    return cvplan.tail_datasets(
        {
            unit: {s: _estimated_cost(unit, s, rows) for s in cv_schemes()}
            for unit in cv_jobs()
        }
    )


TAIL_DATASETS = _tail_datasets()


def dataset_tail_threads(threads):
    """Threads of a job of one dataset after its fits (rules analyse, render): tail_threads
    for a dataset whose fits end last (TAIL_DATASETS), else 1. Elsewhere the job is off the
    run's chain, and threads that wait for its busiest step hold cores other jobs need.
    """

    def value(wildcards):
        return tail_threads(threads) if wildcards.dataset in TAIL_DATASETS else 1

    return value
