"""Snakemake script: critical-difference diagrams rendered from stats/cd.csv (thin wrapper)."""

import logging

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.cd_diagram import read_cd_table, render_cd_diagrams


def main(smk, log) -> None:
    keys = [tuple(key) for key in smk.params.figure_keys]
    render_cd_diagrams(read_cd_table(smk.input.cd), dict(zip(keys, smk.output.figures)))
    logging.info("%d CD diagrams", len(keys))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
