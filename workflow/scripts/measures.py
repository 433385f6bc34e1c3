"""Snakemake script of rule measures: pooled matrices of one engine and dataset -> its measures."""
from pdmeasure.confusion import pooled_matrices, read_long
from pdmeasure.io import log_errors, script_logger, write_csv
from pdmeasure.measure_table import measures_table


def main(smk, log) -> None:
    dataset = smk.wildcards.dataset
    frame = read_long(smk.input.confusion)
    pooled = pooled_matrices(frame, {dataset: smk.params.classes})
    table = measures_table(
        pooled,
        {dataset: smk.params.kappa_vectors},
        zero_division=smk.params.zero_division,
    )
    write_csv(table, smk.output.measures)
    log.info("%d rows for %d matrices -> %s", len(table), len(pooled), smk.output.measures)


if __name__ == "__main__":
    LOG = script_logger(snakemake.log[0])  # noqa: F821
    with log_errors(LOG):
        main(snakemake, LOG)  # noqa: F821
