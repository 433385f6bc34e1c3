"""Snakemake script of rule assemble_folds: the fold predictions of one engine x dataset x
classifier (``cv.per_fold``) -> the same predictions.csv and confusion.csv as rule
cross_validate writes.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import cv_tables
from pdmeasure.tables.folds import read_predictions
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    w = smk.wildcards
    keys = {"engine": w.engine, "dataset": w.dataset, "classifier": w.classifier}
    # The inputs come in (repeat, fold) order (input function cv_fold_files).
    folds = pd.concat([read_predictions(p) for p in smk.input], ignore_index=True)
    predictions, confusion = cv_tables(folds.drop(columns=list(keys)), smk.params.classes, **keys)
    write_csv(predictions, smk.output.predictions)
    write_csv(confusion, smk.output.confusion)
    log.info("%s: %d folds, %d predictions", keys, len(smk.input), len(predictions))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
