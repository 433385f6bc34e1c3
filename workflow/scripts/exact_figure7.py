"""Snakemake script: exact histograms of one engine -> Figure 7 over the fine kappa grid."""

import logging

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.exact_figures import fine_figure7, read_exact_table
from pdmeasure.render.figures import save_figure


def main(smk, log) -> None:
    histogram = pd.concat([read_exact_table(p) for p in smk.input], ignore_index=True)
    fig = fine_figure7(
        histogram,
        classifiers=smk.params.classifiers,
        title=f"Figure 7 over the fine kappa grid ({smk.params.values} values per class), "
        f"engine {smk.wildcards.engine}",
    )
    save_figure(fig, smk.output.figure)
    logging.info("wrote %s", smk.output.figure)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
