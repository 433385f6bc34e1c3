"""Snakemake script: reproduction.csv -> the short Markdown summary reproduction.md."""
import logging

from pdmeasure.pipeline.io import log_errors, script_logger, write_text
from pdmeasure.paper.reproduction import read_reproduction, summary_markdown


def main(smk) -> None:
    write_text(summary_markdown(read_reproduction(smk.input[0])), smk.output[0])
    logging.info("summary -> %s", smk.output[0])


if __name__ == "__main__":
    with log_errors(script_logger(snakemake.log[0])):  # noqa: F821
        main(snakemake)  # noqa: F821
