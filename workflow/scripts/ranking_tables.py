"""Snakemake script: measures.csv -> one ranking table (paper Tables 6-9), CSV and Markdown."""
import logging

from pdmeasure.io import write_csv, write_text
from pdmeasure.measure_table import read_measures
from pdmeasure.ranking import ranking_table, to_markdown


def main(smk) -> None:
    engine, dataset = smk.wildcards.engine, smk.wildcards.dataset
    vectors = smk.config["datasets"][dataset].get("kappa_vectors", {})
    table = ranking_table(
        read_measures(smk.input.measures),
        engine=engine,
        dataset=dataset,
        classifiers=smk.params.classifiers,
        kappa_vectors=vectors,
    )
    write_csv(table, smk.output.csv)
    write_text(to_markdown(table, vectors), smk.output.md)
    logging.info("%s/%s: %d cells", engine, dataset, len(table))


if __name__ == "__main__":
    logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, force=True)  # noqa: F821
    main(snakemake)  # noqa: F821
