"""Snakemake script of rule cross_validate: one engine x dataset x classifier.

Writes the per-sample predictions and the per-fold and pooled confusion matrices of its
k-fold CV and, when the rule asks for them (``stats.cv5x2``), the predictions of its 5 x 2-fold
CV. A scheme whose part files are inputs (the CV plan split it: rule cross_validate_part) is
assembled from them in order; otherwise it is fitted here.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import pandas as pd

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.cv5x2 import cross_validate_5x2
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.plan import Part, fit_log_line
from pdmeasure.pipeline.run import process_cpu_seconds, run_script
from pdmeasure.tables.confusion import cv_tables
from pdmeasure.tables.folds import read_predictions
from pdmeasure.tables.io import write_csv


def assembled(paths, scheme):
    """The predictions of ``scheme``'s part files, concatenated in fold order."""
    own = [path for path in paths if Part.parse(path).scheme == scheme]
    return pd.concat([read_predictions(path) for path in own], ignore_index=True)


def main(smk, log) -> None:
    w = smk.wildcards
    keys = {"engine": w.engine, "dataset": w.dataset, "classifier": w.classifier}
    spec = dataset_spec_from_dict(smk.params.dataset)
    cv = CVSpec(**smk.params.cv)
    params = dict(smk.params.classifier)
    parts = list(smk.input.parts)
    split = {Part.parse(path).scheme for path in parts}
    fitted = {"cv", "cv5x2"} - split
    if "cv" in fitted or (smk.params.cv5x2 is not None and "cv5x2" in fitted):
        data = read_canonical(smk.input.data)
        log.info("%s: %d rows, %s, params %s", keys, len(data), cv, params)
        engine = get_engine(w.engine)
        engine.configure(threads=smk.threads, mem_mb=smk.resources.mem_mb)
        engine.prepare(params)

    if "cv" in split:
        folds = assembled(parts, "cv")
        predictions, confusion = cv_tables(folds.drop(columns=list(keys)), spec.classes, **keys)
        log.info("cv: %d predictions from %d parts", len(predictions), len(parts))
    else:
        started = process_cpu_seconds()
        predictions = engine.cross_validate(data, spec, w.classifier, params, cv)
        total = cv.folds * cv.repeats
        log.info(fit_log_line("cv", process_cpu_seconds() - started, total, total))
        predictions, confusion = cv_tables(predictions, spec.classes, **keys)
    write_csv(predictions, smk.output.predictions)
    write_csv(confusion, smk.output.confusion)
    log.info("accuracy %.4f", (predictions["actual"] == predictions["predicted"]).mean())

    if smk.params.cv5x2 is None:
        return
    if "cv5x2" in split:
        pred = assembled(parts, "cv5x2")
    else:
        started = process_cpu_seconds()
        pred = cross_validate_5x2(
            w.engine, data, spec, w.classifier, params, seed=smk.params.cv5x2["seed"]
        )
        log.info(fit_log_line("cv5x2", process_cpu_seconds() - started, 10, 10))
    write_csv(pred, smk.output.cv5x2)
    log.info("cv5x2: %d predictions -> %s", len(pred), smk.output.cv5x2)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
