"""Snakemake script of rule cross_validate: one engine x dataset x classifier.

Writes the per-sample predictions and the per-fold and pooled confusion matrices.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import cv_tables
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    w = smk.wildcards
    keys = {"engine": w.engine, "dataset": w.dataset, "classifier": w.classifier}
    spec = dataset_spec_from_dict(smk.params.dataset)
    cv = CVSpec(**smk.params.cv)
    params = dict(smk.params.classifier)
    data = read_canonical(smk.input.data)
    log.info("%s: %d rows, %s, params %s", keys, len(data), cv, params)
    engine = get_engine(w.engine)
    engine.configure(threads=smk.threads, mem_mb=smk.resources.mem_mb)
    predictions = engine.cross_validate(data, spec, w.classifier, params, cv)
    predictions, confusion = cv_tables(predictions, spec.classes, **keys)
    write_csv(predictions, smk.output.predictions)
    write_csv(confusion, smk.output.confusion)
    log.info("accuracy %.4f", (predictions["actual"] == predictions["predicted"]).mean())


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
