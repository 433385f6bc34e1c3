"""Snakemake script of rule aggregate_measures: per engine x dataset measures and warnings ->
measures.csv and warnings.csv."""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import read_csv, write_csv
from pdmeasure.tables.measures import read_measures


def main(smk, log) -> None:
    frame = pd.concat([read_measures(path) for path in smk.input.measures], ignore_index=True)
    write_csv(frame, smk.output.measures)
    warnings = pd.concat([read_csv(path) for path in smk.input.warnings], ignore_index=True)
    write_csv(warnings, smk.output.warnings)
    log.info("%d measure rows, %d warnings", len(frame), len(warnings))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
