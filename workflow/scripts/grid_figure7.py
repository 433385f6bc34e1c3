"""Snakemake script: grid histograms of one engine -> Figure 7 (rendered from the CSVs only)."""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.figures import figure7, save_figure
from pdmeasure.tables.histograms import read_histogram


def main(smk, log) -> None:
    histogram = pd.concat([read_histogram(path) for path in smk.input], ignore_index=True)
    engine = smk.wildcards.engine
    fig = figure7(
        histogram,
        classifiers=smk.params.classifiers,
        title=f"Figure 7: pd over the kappa grids (engine {engine})",
    )
    save_figure(fig, smk.output.figure)
    log.info("%s: %d datasets -> %s", engine, histogram["dataset"].nunique(), smk.output.figure)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
