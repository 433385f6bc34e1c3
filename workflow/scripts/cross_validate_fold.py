"""Snakemake script of rule cross_validate_fold: one fold of one repeat of one engine x
dataset x classifier (``cv.per_fold``) -> that fold's predictions.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import with_keys
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    w = smk.wildcards
    only = (int(w.repeat), int(w.fold))
    spec = dataset_spec_from_dict(smk.params.dataset)
    cv = CVSpec(**smk.params.cv)
    data = read_canonical(smk.input.data)
    engine = get_engine(w.engine)
    engine.configure(threads=smk.threads, mem_mb=smk.resources.mem_mb)
    predictions = engine.cross_validate(
        data, spec, w.classifier, dict(smk.params.classifier), cv, only=only
    )
    keys = {"engine": w.engine, "dataset": w.dataset, "classifier": w.classifier}
    write_csv(with_keys(predictions, **keys), smk.output[0])
    log.info("%s/%s/%s repeat %d fold %d: %d predictions", *w[:3], *only, len(predictions))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
