"""Snakemake script: one tidy paper table CSV -> Markdown."""

import logging

from pdmeasure.paper.example_tables import read_table
from pdmeasure.pipeline.run import run_script
from pdmeasure.render.markdown import paper_table_markdown
from pdmeasure.tables.io import write_text


def main(smk, log) -> None:
    write_text(paper_table_markdown(read_table(smk.input[0])), smk.output[0])
    logging.info("rendered %s", smk.output[0])


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
