"""Snakemake script of rule collect: the parts of every engine and dataset -> the reported
tables across them, and what needs all of them.

First the measures and warnings; then, as independent branches side by side on the job's
threads (:func:`pdmeasure.pipeline.run.run_parallel`): the statistics across datasets (ranks,
omnibus and post-hoc tests, critical differences, effect sizes); and every confusion matrix
in one long file, the exact analysis's tables and the ranking robustness summary and, for a
run that touches the papers, every published number against its reproduction. Each later
step reads the files the earlier ones wrote, as every other reader does. The Bayesian
signed-rank tests across datasets are rule signed_rank's, which runs beside this one.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from functools import partial

import pandas as pd

from pdmeasure.paper import published
from pdmeasure.paper.example_tables import read_table
from pdmeasure.paper.reproduction import reproduction_table, status_counts
from pdmeasure.pipeline.run import run_parallel, run_script
from pdmeasure.tables.confusion import LONG_COLUMNS, pooled_matrices, read_long
from pdmeasure.tables.effect_sizes import effect_size_table
from pdmeasure.tables.exact import robustness_summary
from pdmeasure.tables.fits import finished_unit_files
from pdmeasure.tables.io import read_csv, write_csv
from pdmeasure.tables.measures import read_measures
from pdmeasure.tables.stats_across import compare_across_datasets

#: Text columns of the exact analysis's tables (everything else is a number).
_EXACT_TEXT = {
    "engine": str,
    "dataset": str,
    "classifier": str,
    "classifier_a": str,
    "classifier_b": str,
    "winner": str,
    "challenger": str,
    "kappa_values": str,
    "default_kappa_values": str,
    "n_vectors": str,
}


def matrices(smk, log):
    # The matrices of the classifiers whose fits finished (each fitting folder's fits.csv).
    paths = finished_unit_files(smk.params.confusion)
    frame = read_long(paths)
    write_csv(frame[list(LONG_COLUMNS)], smk.output.confusion)
    log.info("%d matrix files, %d rows", len(paths), len(frame))


def measures(smk, log):
    frame = pd.concat([read_measures(path) for path in smk.input.measures], ignore_index=True)
    write_csv(frame, smk.output.measures)
    warnings = pd.concat([read_csv(path) for path in smk.input.warnings], ignore_index=True)
    write_csv(warnings, smk.output.warnings)
    log.info("%d measure rows, %d warnings", len(frame), len(warnings))


def exact(smk, log):
    for name in ("win", "share", "robustness", "summary"):
        paths = smk.input[f"exact_{name}"]
        frame = pd.concat(
            [pd.read_csv(path, dtype=_EXACT_TEXT, keep_default_na=False) for path in paths],
            ignore_index=True,
        )
        write_csv(frame, smk.output[f"exact_{name}"])
        if name == "robustness":
            frame["distance"] = frame["distance"].astype(float)
            write_csv(robustness_summary(frame), smk.output.exact_robustness_summary)
        log.info("exact %s: %d rows", name, len(frame))


def across(smk, log, table):
    p = smk.params
    tables = compare_across_datasets(
        table, alpha=p.alpha, kappa_vectors=p.kappa_vectors, classifiers=p.classifiers
    )
    for name in ("ranks", "omnibus", "posthoc", "cd"):
        write_csv(getattr(tables, name), smk.output[f"across_{name}"])
    effects = effect_size_table(
        table, classifiers=p.classifiers, comparisons=[tuple(key) for key in p.comparisons]
    )
    write_csv(effects, smk.output.effect_sizes)
    log.info(
        "%d omnibus tests (%d significant), %d post-hoc comparisons",
        len(tables.omnibus),
        int(tables.omnibus["significant"].sum()),
        len(tables.posthoc),
    )


def reproduction(smk, log):
    config = smk.params.reproduction
    computed = pd.concat([read_table(path) for path in smk.input.paper], ignore_index=True)
    rankings = [
        pd.read_csv(path, dtype={"row": str}, keep_default_na=False) for path in smk.input.rankings
    ]
    classes = {name: block["classes"] for name, block in config["datasets"].items()}
    frame = read_long(smk.output.confusion)
    frame = frame[frame["dataset"].isin(list(classes))]
    table = reproduction_table(
        published.load(),
        published.errata(),
        computed=computed,
        config=config,
        measures=read_measures(smk.output.measures),
        rankings=pd.concat(rankings, ignore_index=True) if rankings else None,
        pooled=pooled_matrices(frame, classes) if not frame.empty else None,
    )
    write_csv(table, smk.output.reproduction)
    log.info("reproduction: %d rows\n%s", len(table), status_counts(table, ["engine"]).to_string())


def main(smk, log) -> None:
    measures(smk, log)
    table = read_measures(smk.output.measures)
    # Two independent branches, on the job's threads (one: in this order). Costs are their
    # CPU seconds on the papers' run.
    gather = [partial(matrices, smk, log), partial(exact, smk, log)]
    if smk.params.reproduction is not None:
        gather.append(partial(reproduction, smk, log))
    run_parallel(
        [
            (1.0, [partial(across, smk, log, table)]),
            (0.5, gather),
        ],
        processes=smk.threads,
        logger=log,
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
