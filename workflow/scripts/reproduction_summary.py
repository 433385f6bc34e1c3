"""Snakemake script: reproduction.csv -> the short Markdown summary reproduction.md."""

import logging

from pdmeasure.paper.reproduction import read_reproduction, summary_tables
from pdmeasure.pipeline.io import run_script, write_text
from pdmeasure.render.reproduction_markdown import summary_markdown


def main(smk, log) -> None:
    write_text(summary_markdown(summary_tables(read_reproduction(smk.input[0]))), smk.output[0])
    logging.info("summary -> %s", smk.output[0])


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
