"""Snakemake script: critical-difference diagrams rendered from stats/cd.csv (thin wrapper)."""
import logging

from pdmeasure.cd_diagram import read_cd_table, render_cd_diagrams


def main(smk) -> None:
    keys = [tuple(key) for key in smk.params["keys"]]
    render_cd_diagrams(read_cd_table(smk.input.cd), dict(zip(keys, smk.output.figures)))
    logging.info("%d CD diagrams", len(keys))


if __name__ == "__main__":
    logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, force=True)  # noqa: F821
    main(snakemake)  # noqa: F821
