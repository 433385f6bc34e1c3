"""Snakemake script of rule aggregate_measures: per engine x dataset measures -> measures.csv."""
import pandas as pd

from pdmeasure.io import log_errors, script_logger, write_csv
from pdmeasure.measure_table import read_measures

log = script_logger(snakemake.log[0])  # noqa: F821
with log_errors(log):
    files = list(snakemake.input.measures)  # noqa: F821
    frame = pd.concat([read_measures(path) for path in files], ignore_index=True)
    write_csv(frame, snakemake.output.measures)  # noqa: F821
    log.info("%d files, %d rows -> %s", len(files), len(frame), snakemake.output.measures)  # noqa: F821
