"""Snakemake script of rule aggregate_measures: per engine x dataset measures and warnings ->
measures.csv and warnings.csv."""
import pandas as pd

from pdmeasure.pipeline.io import log_errors, read_csv, script_logger, write_csv
from pdmeasure.pipeline.measure_table import read_measures

log = script_logger(snakemake.log[0])  # noqa: F821
with log_errors(log):
    smk = snakemake  # noqa: F821
    frame = pd.concat([read_measures(path) for path in smk.input.measures], ignore_index=True)
    write_csv(frame, smk.output.measures)
    warnings = pd.concat([read_csv(path) for path in smk.input.warnings], ignore_index=True)
    write_csv(warnings, smk.output.warnings)
    log.info("%d measure rows, %d warnings", len(frame), len(warnings))
