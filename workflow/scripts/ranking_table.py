"""Snakemake script: measures.csv -> one ranking table (paper Tables 6-9), CSV and Markdown."""

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.markdown import ranking_table_markdown
from pdmeasure.tables.io import write_csv, write_text
from pdmeasure.tables.measures import read_measures
from pdmeasure.tables.rankings import ranking_table


def main(smk, log) -> None:
    engine, dataset = smk.wildcards.engine, smk.wildcards.dataset
    vectors = smk.params.kappa_vectors
    table = ranking_table(
        read_measures(smk.input.measures),
        engine=engine,
        dataset=dataset,
        classifiers=smk.params.classifiers,
        kappa_vectors=vectors,
    )
    write_csv(table, smk.output.csv)
    write_text(ranking_table_markdown(table, vectors), smk.output.md)
    log.info("%s/%s: %d cells", engine, dataset, len(table))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
