"""Snakemake script of rule cross_validate_part: some folds of one scheme (the k-fold CV, or
the 5 x 2-fold CV of the statistics) of one engine x dataset x classifier -> their
predictions, exactly those folds' rows of the whole cross-validation.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.cv5x2 import cross_validate_5x2
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.fitting import configure_engine
from pdmeasure.pipeline.parts import Part, fit_log_line
from pdmeasure.pipeline.run import process_cpu_seconds, run_script
from pdmeasure.tables.confusion import with_keys
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    w = smk.wildcards
    scheme = smk.params.scheme
    part = Part.parse(w.part)
    only = part.pairs(scheme["folds"])
    spec = dataset_spec_from_dict(smk.params.dataset)
    params = dict(smk.params.classifier)
    data = read_canonical(smk.input.data)
    engine = get_engine(w.engine)
    configure_engine(engine, data, spec, threads=smk.threads, mem_mb=smk.resources.mem_mb)
    engine.prepare(params)
    started = process_cpu_seconds()
    if scheme["name"] == "cv5x2":
        pred = cross_validate_5x2(
            w.engine, data, spec, w.classifier, params, seed=scheme["seed"], only=only
        )
    else:
        cv = CVSpec(folds=scheme["folds"], seed=scheme["seed"], repeats=scheme["repeats"])
        pred = engine.cross_validate(data, spec, w.classifier, params, cv, only=only)
        keys = {"engine": w.engine, "dataset": w.dataset, "classifier": w.classifier}
        pred = with_keys(pred, **keys)
    total = scheme["folds"] * scheme["repeats"]
    log.info(fit_log_line(scheme["name"], process_cpu_seconds() - started, part.size, total))
    write_csv(pred, smk.output[0])
    log.info("%s/%s/%s %s: %d predictions", *w[:3], part.name, len(pred))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
