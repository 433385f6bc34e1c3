"""Snakemake script: pd over one dataset's kappa grid -> histogram.csv, summary.csv."""
import logging

import pandas as pd

from pdmeasure.confusion import pooled_matrices, read_long
from pdmeasure.grids import grid_tables
from pdmeasure.io import write_csv


def main(smk) -> None:
    dataset = smk.wildcards.dataset
    block = smk.config["datasets"][dataset]
    frame = pd.concat([read_long(path) for path in smk.input.confusion], ignore_index=True)
    pooled = pooled_matrices(frame, {dataset: block["classes"]})
    histogram, summary = grid_tables(
        pooled,
        block["kappa_grid"],
        bin_width=smk.params.bin_width,
        chunk_size=smk.params.chunk_size,
        zero_division=smk.params.zero_division,
    )
    write_csv(histogram, smk.output.histogram)
    write_csv(summary, smk.output.summary)
    logging.info("%s/%s: %d matrices x %d kappa vectors", smk.wildcards.engine, dataset,
                 len(pooled), int(summary["n"].iloc[0]))


if __name__ == "__main__":
    logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, force=True)  # noqa: F821
    main(snakemake)  # noqa: F821
