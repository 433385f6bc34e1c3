"""Snakemake script: 5 x 2-fold CV of one classifier on one dataset, for the 5x2cv tests."""
import logging

import pandas as pd

from pdmeasure.config import classifier_params, dataset_spec
from pdmeasure.io import write_csv
from pdmeasure.stats import cross_validate_5x2


def main(smk) -> None:
    engine, dataset, classifier = smk.wildcards.engine, smk.wildcards.dataset, smk.wildcards.classifier
    data = pd.read_csv(smk.input.data, dtype=str, keep_default_na=False)
    pred = cross_validate_5x2(
        engine,
        data,
        dataset_spec(smk.config, dataset, engine),
        classifier,
        classifier_params(smk.config, engine, classifier),
        seed=smk.params.seed,
    )
    write_csv(pred, smk.output.predictions)
    logging.info("%s/%s/%s: %d predictions (5 x 2-fold) -> %s", engine, dataset, classifier,
                 len(pred), smk.output.predictions)


if __name__ == "__main__":
    logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, force=True)  # noqa: F821
    logging.captureWarnings(True)
    main(snakemake)  # noqa: F821
