# Config validation, engine checks, shared paths and input functions (no rules here).
#
# Everything below runs when the workflow is parsed, i.e. before any job: a misspelt key, a
# wrong type, a kappa vector of the wrong length, a class order that does not match the data
# or an unavailable engine stops Snakemake with a message naming the config key.
import dataclasses
import re

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

import pdmeasure.config as pdconfig


try:
    validate(config, "../schemas/config.schema.yaml", set_default=True)
except WorkflowError as exc:
    raise pdconfig.schema_error(exc) from None
pdconfig.check_config(config)
pdconfig.check_engines(config)
pdconfig.check_data(config)

DATASETS = list(config["datasets"])
ENGINES = list(config["engines"])
# Every rule's software: the conda environment of the whole project (`snakemake --sdm conda`).
CONDA_ENV = "../../environment.yml"


wildcard_constraints:
    dataset="|".join(re.escape(name) for name in DATASETS),
    engine="|".join(re.escape(name) for name in ENGINES),
    classifier="[A-Za-z0-9_]+",


def results_path(*parts):
    """A path under the configured results folder (wildcards in braces are kept)."""
    return str(pdconfig.results_dir(config).joinpath(*parts))


def benchmark_path(*parts):
    """A benchmark file under <results>/benchmarks/."""
    return results_path("benchmarks", *parts)


def cv_jobs():
    """Every (engine, dataset, classifier) to cross-validate, in configured order."""
    return pdconfig.cv_jobs(config)


def cv_files(name):
    """File `name` (e.g. "confusion.csv") of every CV job.

    <results>/cv/{engine}/{dataset}/{classifier}/<name>
    """
    return [
        results_path("cv", engine, dataset, classifier, name)
        for engine, dataset, classifier in cv_jobs()
    ]


def engine_confusion_files(wildcards):
    """confusion.csv of every configured classifier of {engine} on {dataset}, in config order.

    Input function for per-(engine, dataset) rules (grids, exact, stats).
    """
    return [
        results_path("cv", wildcards.engine, wildcards.dataset, classifier, "confusion.csv")
        for classifier in config["classifiers"][wildcards.engine]
    ]


def fetch_params(wildcards):
    """The keys of a dataset block that decide its canonical table (rule params)."""
    block = config["datasets"][wildcards.dataset]
    keys = ("uci_id", "path", "target", "classes", "missing", "numeric_features")
    return {key: block.get(key) for key in keys}


def engine_dataset_params(wildcards):
    """DatasetSpec of {dataset} for {engine}, as a plain dict (rule params)."""
    spec = pdconfig.dataset_spec(config, wildcards.dataset, wildcards.engine)
    return dataclasses.asdict(spec)


def classifier_params(wildcards):
    """Parameters of classifiers.{engine}.{classifier} (rule params)."""
    return pdconfig.classifier_params(config, wildcards.engine, wildcards.classifier)


def cv_params():
    """The cv block as a plain dict (rule params)."""
    return dataclasses.asdict(pdconfig.cv_spec(config))
