"""Snakemake script of rule stats_cv5x2_fold: one fold of the 5 x 2-fold CV of one classifier
on one dataset (``cv.per_fold``), for the 5x2cv tests.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.cv5x2 import cross_validate_5x2
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import get_engine
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    w = smk.wildcards
    only = (int(w.repeat), int(w.fold))
    spec = dataset_spec_from_dict(smk.params.dataset)
    data = read_canonical(smk.input.data)
    get_engine(w.engine).configure(threads=smk.threads, mem_mb=smk.resources.mem_mb)
    pred = cross_validate_5x2(
        w.engine, data, spec, w.classifier, smk.params.classifier, seed=smk.params.seed, only=only
    )
    write_csv(pred, smk.output[0])
    log.info("%s/%s/%s repeat %d fold %d: %d predictions", *w[:3], *only, len(pred))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
