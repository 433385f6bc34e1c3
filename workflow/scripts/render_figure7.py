"""Snakemake script: grid histograms of one engine -> Figure 7 (rendered from the CSVs only)."""
import logging

import pandas as pd

from pdmeasure.plotting import figure7, save_figure


def main(smk) -> None:
    histogram = pd.concat([pd.read_csv(p, dtype={"engine": str, "dataset": str, "classifier": str}) for p in smk.input],
                          ignore_index=True)
    fig = figure7(histogram, classifiers=smk.params.classifiers,
                  title=f"Figure 7: pd over the kappa grids (engine {smk.wildcards.engine})")
    save_figure(fig, smk.output.figure)
    logging.info("wrote %s", smk.output.figure)


if __name__ == "__main__":
    logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, force=True)  # noqa: F821
    main(snakemake)  # noqa: F821
