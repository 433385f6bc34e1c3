"""The pipeline's results are a pure function of its config and input files.

On one completed small run (car from UCI and a local CSV dataset ``toy``; both engines), every
leaf key of ``src/pdmeasure/pipeline/config/config.schema.yaml`` is changed in turn and Snakemake is asked
(dry run, in this process: see :func:`dry_run`) what it would rerun. The answer must equal
the expected jobs kept here: the jobs
that read the key (``seeds``, written by hand) and everything downstream of them (the hand
written consumer map :data:`CONSUMERS`). A schema key without an entry in :data:`CHANGES`
fails the test, so a new key cannot slip in unproven.

Jobs are compared per classifier: a fitting job (rule ``cross_validate``, every classifier
of one engine and dataset) counts as one ``cross_validate`` job per classifier
(:func:`unit_jobs`), and a change that reruns one classifier reruns the other classifiers of
its engine and dataset too (:func:`with_batchmates`).

Then a real incremental run after several changes must give the same results, byte for byte,
as a fresh run with the new config.
"""

from __future__ import annotations

import copy
import filecmp
import hashlib
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from helpers import (
    REPO_ROOT,
    Job,
    dry_run,
    grade_block,
    grade_csv,
    planned_jobs,
    run_snakemake,
    select,
    sklearn_entry,
    small_config,
    weka_or_missing,
    write_config,
)

pytestmark = [pytest.mark.slow, pytest.mark.weka]

SCHEMA = REPO_ROOT / "src" / "pdmeasure" / "pipeline" / "config" / "config.schema.yaml"

#: Which rules read the outputs of which (rule level, written from the rule files' intent).
#: A consumer job depends on a producer job when their shared wildcards agree.
CONSUMERS = {
    "fetch_data": ["cross_validate", "cross_validate_part"],
    "cross_validate_part": ["cross_validate"],
    "cross_validate": ["analyse", "collect"],
    "analyse": [
        "render",
        "collect",
        "signed_rank",
        "render_summary",
        "render_figure7",
        "result_matrix",
    ],
    "collect": ["render_summary", "render_cd"],
    "signed_rank": ["render_summary"],
    "paper_tables": ["paper_render", "collect"],
}

#: The jobs that read every engine's or dataset's results: they rerun when the run's
#: selection (engines, datasets, classifiers) changes.
COLLECTING = ["collect", "signed_rank", "render_summary", "render_cd"]


@dataclass
class Change:
    """One config change and what it must rerun.

    ``apply(config, workdir)`` edits the config (and, if needed, files) in place. ``seeds``
    are job patterns ``"rule"`` or ``"rule key=value ..."`` of the jobs that read the key;
    the expected plan is the seeds and everything downstream. ``refused`` instead names the
    text that the config-time error must contain (a value that no valid config can change
    alone). ``new_jobs`` marks changes that alter the set of jobs, so the job universe is
    taken from the new config.
    """

    apply: callable
    seeds: list = field(default_factory=list)
    refused: str | None = None
    new_jobs: bool = False
    everything: bool = False


def setter(path: str, value):
    """A change that sets the dotted config key ``path`` to ``value``."""

    def apply(config, workdir):
        *parents, last = path.split(".")
        node = config
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = copy.deepcopy(value)

    return apply


def both(*applies):
    def apply(config, workdir):
        for one in applies:
            one(config, workdir)

    return apply


def copy_toy(config, workdir):
    shutil.copy(workdir / "toy.csv", workdir / "toy_copy.csv")
    config["datasets"]["toy"]["path"] = "toy_copy.csv"


def files_not_selected(config, workdir):
    """A folder of one more dataset by `dataset_files`, which `run.datasets` does not name."""
    (workdir / "extra").mkdir(exist_ok=True)
    shutil.copy(workdir / "toy.csv", workdir / "extra" / "grade-b.csv")
    config["dataset_files"] = [{"glob": "extra/*.csv", "target": "grade"}]


def pin_toy(config, workdir):
    """Pin toy.csv by its sha256 (the file does not change; the pin is a new parameter)."""
    digest = hashlib.sha256((workdir / "toy.csv").read_bytes()).hexdigest()
    config["datasets"]["toy"]["sha256"] = digest


def mirror_copy(config, workdir):
    (workdir / "mirror_link").unlink(missing_ok=True)
    (workdir / "mirror_link").symlink_to(Path(config["mirror"]).resolve())
    config["mirror"] = str(workdir / "mirror_link")


#: Rule render draws every dataset of its engine: car's kappa vectors are its params.
CAR_SEEDS_KAPPA = ["analyse dataset=car", "render", "collect"]

#: Schema key ('*' for a name) -> the change made on the base run and what it must rerun.
CHANGES: dict[str, Change] = {
    "mirror": Change(mirror_copy, ["fetch_data dataset=car"]),
    "results": Change(setter("results", "results_other"), everything=True, new_jobs=True),
    "zero_division": Change(
        setter("zero_division", "nan"),
        ["analyse", "paper_tables", "collect"],
    ),
    # One engine fewer: one analysis job per dataset analyses all the run's engines, so with
    # other params and outputs it reruns (the kept engine's tables come out the same bytes),
    # and everything drawn from its tables after it.
    "run.engines": Change(
        setter("run.engines", ["sklearn"]),
        ["analyse", *COLLECTING],
        new_jobs=True,
    ),
    # Fewer datasets: besides the collecting jobs, each engine's pages, Figure 7 and result
    # matrix (all datasets) rerun.
    "run.datasets": Change(
        setter("run.datasets", ["car"]),
        ["render", "render_figure7", "result_matrix", *COLLECTING],
        new_jobs=True,
    ),
    # NaiveBayes was fitted in one batch with DecisionTree; alone in the run, it gets a job
    # of its own, with other params than the batch's: Snakemake fits it again.
    "run.classifiers": Change(
        setter("run.classifiers", {"sklearn": ["NaiveBayes"]}),
        [
            *COLLECTING,
            "analyse",
            "cross_validate engine=sklearn classifier=NaiveBayes",
        ],
        new_jobs=True,
    ),
    # No dataset of the run comes from OpenML: the OpenML folders change nothing.
    "openml.cache": Change(setter("openml.cache", "elsewhere"), []),
    "openml.mirror": Change(setter("openml.mirror", "elsewhere"), []),
    "cv.folds": Change(setter("cv.folds", 4), ["cross_validate", "collect"]),
    "cv.seed": Change(setter("cv.seed", 2), ["cross_validate", "collect"]),
    "cv.repeats": Change(setter("cv.repeats", 2), ["cross_validate", "collect"]),
    # What a fitting job does with a failing or long fit changes no finished fit: the
    # policy reaches the job as an object, which Snakemake's params trigger does not record.
    "cv.time_limit": Change(setter("cv.time_limit", 3600), ["cross_validate", "collect"]),
    "cv.on_failure": Change(setter("cv.on_failure", "stop"), ["cross_validate", "collect"]),
    # Cutting a classifier into part jobs changes the inputs of its dataset's fitting job,
    # which reruns (with byte-identical files, tests/system/test_parts.py).
    "cv.parts.*": Change(
        setter("cv.parts", {"car": {"J48": 2}}),
        ["cross_validate_part", "cross_validate engine=weka dataset=car"],
        new_jobs=True,
    ),
    # A classifier defined for an engine outside the run changes nothing.
    "classifiers.*.*": Change(setter("classifiers.orange.Tree", {"depth": 1}), []),
    "classifiers.sklearn.*.class": Change(
        setter("classifiers.sklearn.DecisionTree.class", "sklearn.tree.ExtraTreeClassifier"),
        ["cross_validate engine=sklearn classifier=DecisionTree", "collect"],
    ),
    "classifiers.sklearn.*.params": Change(
        setter("classifiers.sklearn.DecisionTree.params.min_samples_leaf", 3),
        ["cross_validate engine=sklearn classifier=DecisionTree", "collect"],
    ),
    "classifiers.sklearn.*.encoding": Change(
        setter("classifiers.sklearn.DecisionTree.encoding", "onehot"),
        ["cross_validate engine=sklearn classifier=DecisionTree", "collect"],
    ),
    "classifiers.weka.*.class": Change(
        setter("classifiers.weka.J48.class", "weka.classifiers.trees.REPTree"),
        ["cross_validate engine=weka classifier=J48", "collect"],
    ),
    "classifiers.weka.*.options": Change(
        setter("classifiers.weka.J48.options", ["-C", "0.2"]),
        ["cross_validate engine=weka classifier=J48", "collect"],
    ),
    # What the jobs ask of a scheduler changes no result.
    "resources.scale": Change(setter("resources.scale", 2.0), []),
    "resources.cv_mem_mb": Change(setter("resources.cv_mem_mb", {"weka": 4096}), []),
    "resources.cv_threads": Change(setter("resources.cv_threads", 2), []),
    # What is drawn: a figure turned off is no longer a target; rule render, whose outputs and
    # inputs shrink, writes its tables and pages again (the same bytes).
    "render.dataset_figures": Change(setter("render.dataset_figures", False), ["render"]),
    "render.figure7": Change(setter("render.figure7", False), []),
    "histogram.bin_width": Change(setter("histogram.bin_width", 0.05), ["analyse"]),
    # Only bounds memory: the histograms do not change, but the jobs that use it rerun.
    "histogram.chunk_size": Change(setter("histogram.chunk_size", 7), ["analyse"]),
    # A guard checked before any job: raising it changes no output.
    "histogram.max_grid_vectors": Change(setter("histogram.max_grid_vectors", 10**9), []),
    # Every dataset of the run has an explicit grid: the budget of `auto` changes nothing.
    "histogram.auto_grid_vectors": Change(setter("histogram.auto_grid_vectors", 100), []),
    # Defining datasets runs none of them: `run.datasets` (car, toy) selects what runs.
    "dataset_files": Change(files_not_selected, []),
    "datasets.*.uci_id": Change(setter("datasets.car.uci_id", 76), refused="datasets.car.classes"),
    "datasets.*.openml_id": Change(setter("datasets.toy.openml_id", 61), refused="datasets.toy"),
    "datasets.*.path": Change(copy_toy, ["fetch_data dataset=toy"]),
    # The values that the defaults resolve to: stating them changes nothing.
    "datasets.*.format": Change(setter("datasets.toy.format", "csv"), []),
    "datasets.*.separator": Change(setter("datasets.toy.separator", ","), []),
    "datasets.*.header": Change(
        setter("datasets.toy.header", False), refused="datasets.toy.target"
    ),
    "datasets.*.sha256": Change(pin_toy, ["fetch_data dataset=toy"]),
    "datasets.*.target": Change(
        setter("datasets.toy.target", "grade2"), ["fetch_data dataset=toy"]
    ),
    "datasets.*.classes": Change(
        setter("datasets.toy.classes", ["lo", "mid", "hi"]), refused="datasets.toy.classes"
    ),
    "datasets.*.missing": Change(setter("datasets.car.missing", "?"), ["fetch_data dataset=car"]),
    "datasets.*.numeric_features": Change(
        setter("datasets.toy.numeric_features", []), ["fetch_data dataset=toy"]
    ),
    "datasets.*.kappa_grid": Change(
        setter("datasets.car.kappa_grid", [0, 1]),
        ["analyse dataset=car", "collect"],
    ),
    "datasets.*.kappa_vectors": Change(
        setter("datasets.car.kappa_vectors.p1", [0, 0.8, 0.6, 0.9]), CAR_SEEDS_KAPPA
    ),
    "datasets.*.weka.all_nominal": Change(
        setter("datasets.toy.weka.all_nominal", True), ["cross_validate engine=weka dataset=toy"]
    ),
    "datasets.*.weka.value_order": Change(
        setter("datasets.toy.weka.value_order", "first_appearance"),
        ["cross_validate engine=weka dataset=toy"],
    ),
    "datasets.*.weka.missing_as_category": Change(
        setter("datasets.toy.weka.missing_as_category", True),
        ["cross_validate engine=weka dataset=toy"],
    ),
    "datasets.*.weka.keep_file_order": Change(
        setter("datasets.toy.weka.keep_file_order", False),
        ["cross_validate engine=weka dataset=toy"],
    ),
    "stats.alpha": Change(
        setter("stats.alpha", 0.1), ["analyse", "collect", "render_summary", "result_matrix"]
    ),
    # The measures of the result matrices, whose verdicts open the report.
    "stats.result_matrix": Change(
        setter("stats.result_matrix", ["accuracy"]), ["result_matrix", "render_summary"]
    ),
    # Another baseline: the result matrices are tested against it (sklearn's first classifier
    # is NaiveBayes already).
    "stats.baseline": Change(setter("stats.baseline", "NaiveBayes"), ["result_matrix engine=weka"]),
    # The 5 x 2-fold CV is written by each classifier's cross_validate job: a new output.
    "stats.cv5x2": Change(setter("stats.cv5x2", True), ["cross_validate"], new_jobs=True),
    "stats.mcnemar_exact_below": Change(setter("stats.mcnemar_exact_below", 10), ["analyse"]),
    **{
        f"exact.{key}": Change(setter(f"exact.{key}", value), ["analyse"])
        for key, value in {
            "fine_grid_values": 6,
            "monte_carlo_samples": 1000,
            "seed": 5,
            "confidence": 0.9,
            "enumeration_limit": 10,
            "lattice_size": 4096,
            "uniform_max_terms": 100,
            "bin_width": 0.01,
            "cdf_points": 51,
        }.items()
    },
    # The draws and their intervals: the analyses per dataset (and the explorer pages that
    # show them); the ROPE and the seed also reach the signed-rank tests across datasets.
    "uncertainty.method": Change(setter("uncertainty.method", "bootstrap"), ["analyse"]),
    "uncertainty.draws": Change(setter("uncertainty.draws", 500), ["analyse"]),
    "uncertainty.prior": Change(setter("uncertainty.prior", 1.0), ["analyse"]),
    "uncertainty.level": Change(setter("uncertainty.level", 0.9), ["analyse"]),
    "uncertainty.rope": Change(setter("uncertainty.rope", 0.02), ["analyse", "signed_rank"]),
    "uncertainty.seed": Change(setter("uncertainty.seed", 1), ["analyse", "signed_rank"]),
}


def schema_leaves(schema: dict) -> set[str]:
    """Every leaf key of the config schema, '*' standing for a user-chosen name."""
    defs = schema.get("$defs", {})

    def resolve(node):
        ref = node.get("$ref", "")
        return defs[ref.rsplit("/", 1)[-1]] if ref.startswith("#/$defs/") else node

    leaves: set[str] = set()

    def walk(node, path):
        node = resolve(node)
        children = node.get("properties", {})
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and "object" in str(resolve(extra).get("type", "")):
            extra = resolve(extra)
        else:
            extra = None
        if not children and extra is None:
            leaves.add(".".join(path))
            return
        for key, sub in children.items():
            walk(sub, path + [key])
        if extra is not None:
            walk(extra, path + ["*"])

    walk(schema, [])
    return leaves


def base_config(mirror: Path) -> dict:
    config = small_config(mirror)
    car = config["datasets"]["car"]
    car["kappa_vectors"] = {"p1": car["kappa_vectors"]["p1"]}
    config["datasets"] = {
        "car": car,
        "toy": grade_block(),
    }
    select(config, datasets=["car", "toy"], engines=["sklearn", "weka"])
    config["classifiers"] = {
        "sklearn": {
            "NaiveBayes": sklearn_entry("NaiveBayes", alpha=1.0),
            "DecisionTree": sklearn_entry("DecisionTree", criterion="entropy", min_samples_leaf=2),
        },
        "weka": {
            "J48": {"class": "weka.classifiers.trees.J48", "options": []},
            "NaiveBayes": {"class": "weka.classifiers.bayes.NaiveBayes", "options": []},
        },
    }
    config["stats"] = {**config.get("stats", {}), "cv5x2": False}
    return config


def fitting_batches(workdir: Path) -> list[list[Job]]:
    """The classifiers of each fitting job (an engine and dataset) of the config in
    ``workdir``, each as a per-classifier ``cross_validate`` job."""
    config = yaml.safe_load((workdir / "config.yaml").read_text(encoding="utf-8"))
    run = config["run"]
    batches = []
    for engine in run["engines"]:
        chosen = (run.get("classifiers") or {}).get(engine) or list(config["classifiers"][engine])
        for dataset in run["datasets"]:
            batches.append(
                [
                    (
                        "cross_validate",
                        frozenset(
                            {"engine": engine, "dataset": dataset, "classifier": name}.items()
                        ),
                    )
                    for name in chosen
                ]
            )
    return batches


def unit_jobs(jobs: set[Job], workdir: Path) -> set[Job]:
    """``jobs`` with each fitting job replaced by a ``cross_validate`` job per classifier."""
    batches = {
        (dict(batch[0][1])["engine"], dict(batch[0][1])["dataset"]): batch
        for batch in fitting_batches(workdir)
        if batch
    }
    result = set()
    for job in jobs:
        if job[0] == "cross_validate":
            wildcards = dict(job[1])
            result.update(batches[wildcards["engine"], wildcards["dataset"]])
        else:
            result.add(job)
    return result


def with_batchmates(seeds: set[Job], batches: list[list[Job]], universe: set[Job]) -> set[Job]:
    """``seeds`` and the other classifiers of the batches they are in (those in ``universe``)."""
    mates = {mate for batch in batches if set(batch) & seeds for mate in batch}
    return seeds | (mates & universe)


def planned_units(workdir: Path, **kwargs) -> set[Job]:
    """planned_jobs, per classifier (unit_jobs)."""
    return unit_jobs(planned_jobs(workdir, **kwargs), workdir)


def matches(job: Job, pattern: str) -> bool:
    rule, *conditions = pattern.split()
    wildcards = dict(job[1])
    return job[0] == rule and all(
        wildcards.get(k) == v for k, v in (c.split("=", 1) for c in conditions)
    )


def downstream(seeds: set[Job], universe: set[Job]) -> set[Job]:
    """``seeds`` and every job of ``universe`` that (transitively) consumes their outputs."""
    result, frontier = set(seeds), list(seeds)
    while frontier:
        rule, wildcards = frontier.pop()
        for job in universe:
            if job in result or job[0] not in CONSUMERS.get(rule, []):
                continue
            shared = dict(wildcards).keys() & dict(job[1]).keys()
            if all(dict(wildcards)[k] == dict(job[1])[k] for k in shared):
                result.add(job)
                frontier.append(job)
    return result


def describe(jobs) -> list[str]:
    return sorted(
        f"{rule} {' '.join(f'{k}={v}' for k, v in sorted(wc))}".strip() for rule, wc in jobs
    )


@pytest.fixture(scope="module")
def base_run(tmp_path_factory, uci_mirror):
    """A completed run of the base config; returns (workdir, config, every job)."""
    weka_or_missing()
    workdir = tmp_path_factory.mktemp("rerun")
    grade_csv(workdir / "toy.csv", second_label=True)
    config = base_config(uci_mirror)
    write_config(workdir, config)
    universe = planned_units(workdir)
    done = run_snakemake(workdir, "--cores", "2")
    assert done.returncode == 0, done.stderr[-5000:]
    batches = fitting_batches(workdir)
    # The small run's classifiers share jobs: a change to one reruns the others.
    assert batches and all(len(batch) > 1 for batch in batches)
    return workdir, config, universe, batches


def test_every_schema_key_has_an_expected_rerun_set():
    leaves = schema_leaves(yaml.safe_load(SCHEMA.read_text(encoding="utf-8")))
    assert leaves == set(CHANGES), (
        f"schema keys without an entry in CHANGES: {sorted(leaves - set(CHANGES))}; "
        f"entries that are not schema keys: {sorted(set(CHANGES) - leaves)}"
    )


def test_base_run_is_up_to_date(base_run):
    workdir, _, _, _ = base_run
    assert planned_jobs(workdir) == set()


@pytest.mark.parametrize("key", sorted(CHANGES))
def test_a_changed_key_reruns_exactly_its_jobs(base_run, key):
    workdir, config, universe, batches = base_run
    change = CHANGES[key]
    new = copy.deepcopy(config)
    change.apply(new, workdir)
    write_config(workdir, new)
    try:
        if change.refused is not None:
            done = dry_run(workdir)
            assert not done.ok, f"{key}: the changed config was accepted"
            assert f"config key `{change.refused}`" in done.text, done.text[-2000:]
            return
        if change.new_jobs:
            universe = planned_units(workdir, forceall=True)
        planned = planned_units(workdir)
    finally:
        write_config(workdir, config)
    if change.everything:
        expected = universe
    else:
        patterns = list(change.seeds)
        seeds = {job for job in universe if any(matches(job, p) for p in patterns)}
        assert len(seeds) >= len(patterns), f"{key}: a seed pattern matches no job"
        expected = downstream(with_batchmates(seeds, batches, universe), universe)
    assert describe(planned) == describe(expected), key


def test_editing_a_local_csv_reruns_its_dataset(base_run):
    workdir, _, universe, _ = base_run
    path = workdir / "toy.csv"
    original = path.read_bytes()
    try:
        lines = original.decode().splitlines()
        lines[10] = (
            lines[10].replace("red", "green")
            if "red" in lines[10]
            else lines[10].replace("blue", "green")
        )
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        planned = planned_units(workdir)
    finally:
        path.write_bytes(original)
    seeds = {job for job in universe if matches(job, "fetch_data dataset=toy")}
    assert describe(planned) == describe(downstream(seeds, universe))
    assert not any(dict(job[1]).get("dataset") == "car" for job in planned)


def result_files(results: Path) -> dict[str, Path]:
    """Every table of a results folder by relative path (benchmarks and figures left out:
    timings differ, and figures are rendered from these tables)."""
    return {
        str(p.relative_to(results)): p
        for p in results.rglob("*")
        if p.is_file() and p.suffix in {".csv", ".md", ".html"} and "benchmarks" not in p.parts
    }


def test_incremental_run_equals_a_fresh_run(base_run, tmp_path):
    """After several changes at once, rerunning what Snakemake plans gives the same tables as
    a fresh run of the new config (the completed run is copied first, metadata included)."""
    source, config, _, _ = base_run
    workdir = tmp_path / "incremental"
    shutil.copytree(source, workdir, symlinks=True)
    new = copy.deepcopy(config)
    for key in (
        "zero_division",
        "datasets.*.kappa_vectors",
        "datasets.*.kappa_grid",
        "exact.fine_grid_values",
        "histogram.bin_width",
    ):
        CHANGES[key].apply(new, workdir)
    grade_csv(workdir / "toy.csv", seed=4, second_label=True)
    write_config(workdir, new)
    done = run_snakemake(workdir, "--cores", "2")
    assert done.returncode == 0, done.stderr[-5000:]
    assert "fetch_data" in done.stderr + done.stdout
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(workdir / "toy.csv", fresh / "toy.csv")
    write_config(fresh, new)
    done = run_snakemake(fresh, "--cores", "2")
    assert done.returncode == 0, done.stderr[-5000:]
    ours, theirs = result_files(workdir / "results"), result_files(fresh / "results")
    assert sorted(ours) == sorted(theirs)
    differ = [name for name in ours if not filecmp.cmp(ours[name], theirs[name], shallow=False)]
    assert differ == []
