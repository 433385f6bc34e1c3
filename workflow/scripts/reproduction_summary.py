"""Snakemake script: reproduction.csv -> the short Markdown summary reproduction.md."""

import logging

from pdmeasure.paper.reproduction import read_reproduction, summary_tables
from pdmeasure.pipeline.run import run_script
from pdmeasure.render.reproduction_markdown import summary_markdown
from pdmeasure.tables.io import write_text


def main(smk, log) -> None:
    write_text(summary_markdown(summary_tables(read_reproduction(smk.input[0]))), smk.output[0])
    logging.info("summary -> %s", smk.output[0])


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
