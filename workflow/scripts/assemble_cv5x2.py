"""Snakemake script of rule assemble_cv5x2: the fold predictions of one 5 x 2-fold CV
(``cv.per_fold``) -> the same predictions.csv.gz as rule stats_cv5x2 writes.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.folds import read_predictions
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    # The inputs come in (repeat, fold) order (input function cv5x2_fold_files).
    pred = pd.concat([read_predictions(p) for p in smk.input], ignore_index=True)
    write_csv(pred, smk.output.predictions)
    log.info("%d folds, %d predictions -> %s", len(smk.input), len(pred), smk.output.predictions)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
