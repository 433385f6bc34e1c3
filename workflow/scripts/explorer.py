"""Snakemake script of rule explorer: the explorer's data (JSON) -> the self-contained HTML page."""

import logging

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.explorer import write_explorer
from pdmeasure.tables.explorer import read_explorer_data


def main(smk, log) -> None:
    write_explorer(read_explorer_data(smk.input.data), smk.output.html)
    logging.info("%s -> %s", smk.input.data, smk.output.html)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
