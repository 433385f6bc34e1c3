"""Snakemake script: every test across datasets, per engine and measure (thin wrapper)."""

import logging

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.measures import read_measures
from pdmeasure.tables.stats_across import compare_across_datasets


def main(smk, log) -> None:
    tables = compare_across_datasets(
        read_measures(smk.input.measures),
        alpha=smk.params.alpha,
        kappa_vectors=smk.params.kappa_vectors,
        classifiers=smk.params.classifiers,
    )
    for name in ("ranks", "omnibus", "posthoc", "cd"):
        write_csv(getattr(tables, name), smk.output[name])
    logging.info(
        "%d omnibus tests (%d significant), %d post-hoc comparisons",
        len(tables.omnibus),
        int(tables.omnibus["significant"].sum()),
        len(tables.posthoc),
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
