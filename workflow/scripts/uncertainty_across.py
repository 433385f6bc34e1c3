"""Snakemake script of rule uncertainty_across: measures.csv -> the Bayesian signed-rank test
of every pair across datasets (thin wrapper)."""

from pdmeasure.pipeline.io import run_script, write_csv
from pdmeasure.pipeline.measure_table import read_measures
from pdmeasure.pipeline.uncertainty_tables import signed_rank_table


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
