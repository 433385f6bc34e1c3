"""Snakemake script: pd over one dataset's kappa grid -> histogram.csv, summary.csv, for the
classifiers whose fits finished (the fitting folder's fits.csv); without any, both tables
have no rows."""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import pooled_matrices, read_long
from pdmeasure.tables.fits import finished_unit_files
from pdmeasure.tables.histograms import GRID_HISTOGRAM_COLUMNS, GRID_SUMMARY_COLUMNS, grid_tables
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    dataset = smk.wildcards.dataset
    confusion = finished_unit_files(smk.params.files["confusion"])
    if not confusion:
        # No classifier finished its fit here (fits.csv says why): tables without rows.
        log.warning("%s/%s: no finished fit, no histogram", smk.wildcards.engine, dataset)
        write_csv(pd.DataFrame(columns=list(GRID_HISTOGRAM_COLUMNS)), smk.output.histogram)
        write_csv(pd.DataFrame(columns=list(GRID_SUMMARY_COLUMNS)), smk.output.summary)
        return
    pooled = pooled_matrices(read_long(confusion), {dataset: smk.params.classes})
    histogram, summary = grid_tables(
        pooled,
        smk.params.kappa_grid,
        bin_width=smk.params.bin_width,
        chunk_size=smk.params.chunk_size,
        zero_division=smk.params.zero_division,
    )
    write_csv(histogram, smk.output.histogram)
    write_csv(summary, smk.output.summary)
    log.info(
        "%s/%s: %d matrices x %d kappa vectors (%s quantiles)",
        smk.wildcards.engine,
        dataset,
        len(pooled),
        summary["n"].iloc[0],
        summary["quantile_method"].iloc[0],
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
