"""Snakemake script: one tidy paper table CSV -> Markdown."""
import logging

from pdmeasure.pipeline.io import log_errors, script_logger, write_text
from pdmeasure.paper.example_tables import read_table, render_markdown


def main(smk) -> None:
    write_text(render_markdown(read_table(smk.input[0])), smk.output[0])
    logging.info("rendered %s", smk.output[0])


if __name__ == "__main__":
    with log_errors(script_logger(snakemake.log[0])):  # noqa: F821
        main(snakemake)  # noqa: F821
