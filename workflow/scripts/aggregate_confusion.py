"""Snakemake script of rule aggregate_confusion: every confusion.csv -> confusion_matrices.csv.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""
from pdmeasure.pipeline.confusion import LONG_COLUMNS, read_long
from pdmeasure.pipeline.io import log_errors, script_logger, write_csv

log = script_logger(snakemake.log[0])  # noqa: F821
with log_errors(log):
    files = list(snakemake.input)  # noqa: F821
    frame = read_long(files)
    write_csv(frame[list(LONG_COLUMNS)], snakemake.output[0])  # noqa: F821
    log.info("%d files, %d rows -> %s", len(files), len(frame), snakemake.output[0])  # noqa: F821
