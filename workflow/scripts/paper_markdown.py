"""Snakemake script: one tidy paper table CSV -> Markdown."""

import logging

from pdmeasure.paper.example_tables import read_table, render_markdown
from pdmeasure.pipeline.io import run_script, write_text


def main(smk, log) -> None:
    write_text(render_markdown(read_table(smk.input[0])), smk.output[0])
    logging.info("rendered %s", smk.output[0])


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
