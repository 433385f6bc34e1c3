"""Snakemake script: published numbers vs reproduced ones -> reproduction.csv."""

import logging

import pandas as pd

from pdmeasure.paper import published
from pdmeasure.paper.example_tables import read_table
from pdmeasure.paper.reproduction import reproduction_table, status_counts
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import pooled_matrices, read_long
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.measures import read_measures


def main(smk, log) -> None:
    config = smk.params.config
    computed = pd.concat([read_table(p) for p in smk.input.paper], ignore_index=True)
    rankings = [
        pd.read_csv(p, dtype={"row": str}, keep_default_na=False) for p in smk.input.rankings
    ]
    rankings = pd.concat(rankings, ignore_index=True) if rankings else None
    classes = {name: block["classes"] for name, block in config["datasets"].items()}
    frame = read_long(smk.input.confusion)
    frame = frame[frame["dataset"].isin(list(classes))]
    table = reproduction_table(
        published.load(),
        published.errata(),
        computed=computed,
        config=config,
        measures=read_measures(smk.input.measures),
        rankings=rankings,
        pooled=pooled_matrices(frame, classes) if not frame.empty else None,
    )
    write_csv(table, smk.output[0])
    logging.info("%d rows\n%s", len(table), status_counts(table, ["engine"]).to_string())


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
