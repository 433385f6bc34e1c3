"""Snakemake script of rule fetch_data: one dataset -> results/data/{dataset}.csv.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""
from pdmeasure.pipeline.fetch import fetch_dataset
from pdmeasure.pipeline.io import log_errors, script_logger, write_csv

smk = snakemake  # noqa: F821
log = script_logger(smk.log[0])
with log_errors(log):
    name = smk.wildcards.dataset
    fetch = smk.params.fetch
    frame, source = fetch_dataset(name, fetch["dataset"], mirror=fetch["mirror"], logger=log)
    write_csv(frame, smk.output[0])
    log.info("dataset %s: source %s -> %s", name, source, smk.output[0])
