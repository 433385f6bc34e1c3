"""Snakemake script: 5 x 2-fold CV of one classifier on one dataset, for the 5x2cv tests."""

import logging

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.cv5x2 import cross_validate_5x2
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import get_engine
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    engine, classifier = smk.wildcards.engine, smk.wildcards.classifier
    spec = dataset_spec_from_dict(smk.params.dataset)
    data = read_canonical(smk.input.data)
    get_engine(engine).configure(threads=smk.threads, mem_mb=smk.resources.mem_mb)
    pred = cross_validate_5x2(
        engine, data, spec, classifier, smk.params.classifier, seed=smk.params.seed
    )
    write_csv(pred, smk.output.predictions)
    logging.info(
        "%s/%s/%s: %d predictions (5 x 2-fold CV) -> %s",
        engine,
        spec.name,
        classifier,
        len(pred),
        smk.output.predictions,
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
