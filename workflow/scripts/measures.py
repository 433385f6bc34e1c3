"""Snakemake script of rule measures: pooled matrices of one engine and dataset -> its measures,
and the classes whose precision (never predicted) or recall (never actual) is 0/0."""

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import pooled_matrices, read_long, undefined_precision
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.measures import measures_table


def main(smk, log) -> None:
    dataset = smk.wildcards.dataset
    pooled = pooled_matrices(read_long(smk.input.confusion), {dataset: smk.params.classes})
    table = measures_table(
        pooled,
        {dataset: smk.params.kappa_vectors},
        zero_division=smk.params.zero_division,
    )
    undefined = undefined_precision(pooled, {dataset: smk.params.classes})
    for row in undefined.itertuples(index=False):
        log.warning(
            "%s/%s/%s: class %r %s; measures built on it take zero_division=%s",
            row.engine,
            row.dataset,
            row.classifier,
            row[3],
            row.reason,
            smk.params.zero_division,
        )
    write_csv(table, smk.output.measures)
    write_csv(undefined, smk.output.warnings)
    log.info(
        "%d rows for %d matrices -> %s; %d warnings",
        len(table),
        len(pooled),
        smk.output.measures,
        len(undefined),
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
