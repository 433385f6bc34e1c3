"""Snakemake script of rule cross_validate_part: some folds of one scheme (the k-fold CV, or
the 5 x 2-fold CV of the statistics) of one engine x dataset x classifier -> their
predictions, exactly those folds' rows of the whole cross-validation. With ``cv.on_failure:
record`` (``params.policy``) a fit that fails or passes ``cv.time_limit`` writes its reason to
the part file instead, and the dataset's job (rule cross_validate) records the classifier as
failed while its other classifiers go on.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import get_engine
from pdmeasure.pipeline.fitting import FitPolicy, PartFit, configure_engine, fit_part_or_record
from pdmeasure.pipeline.parts import Part
from pdmeasure.pipeline.run import run_script


def main(smk, log) -> None:
    w = smk.wildcards
    spec = dataset_spec_from_dict(smk.params.dataset)
    data = read_canonical(smk.input.data)
    engine = get_engine(w.engine)
    configure_engine(engine, data, spec, threads=smk.threads, mem_mb=smk.resources.mem_mb)
    job = PartFit(
        engine,
        data,
        spec,
        {"engine": w.engine, "dataset": w.dataset, "classifier": w.classifier},
        dict(smk.params.classifier),
        smk.params.scheme,
        Part.parse(w.part),
    )
    fit_part_or_record(
        job,
        smk.output[0],
        log,
        policy=FitPolicy(**smk.params.policy),
        mem_mb=smk.resources.mem_mb,
        log_path=smk.log[0],
        folder=smk.params.folder,
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
