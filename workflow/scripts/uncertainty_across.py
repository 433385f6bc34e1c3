"""Snakemake script of rule uncertainty_across: measures.csv -> the Bayesian signed-rank test
of every pair across datasets (thin wrapper)."""

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.measures import read_measures
from pdmeasure.tables.uncertainty import signed_rank_table


def main(smk, log) -> None:
    table = signed_rank_table(
        read_measures(smk.input.measures),
        comparisons=[tuple(key) for key in smk.params.comparisons],
        classifiers=smk.params.classifiers,
        rope=smk.params.rope,
        seed=smk.params.seed,
    )
    write_csv(table, smk.output.table)
    log.info("%d signed-rank tests -> %s", len(table), smk.output.table)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
