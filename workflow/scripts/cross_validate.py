"""Snakemake script of rule cross_validate: one engine x dataset x classifier.

Writes the per-sample predictions and the per-fold and pooled confusion matrices of its
k-fold CV and, when the rule asks for them (``stats.cv5x2``), the predictions of its 5 x 2-fold
CV. A scheme whose part files are inputs (the CV plan split it: rule cross_validate_part) is
assembled from them in order; otherwise it is fitted here (pdmeasure.pipeline.fitting).
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.fitting import UnitFiles, configure_engine, fit_unit
from pdmeasure.pipeline.plan import Part
from pdmeasure.pipeline.run import run_script


def main(smk, log) -> None:
    w = smk.wildcards
    keys = {"engine": w.engine, "dataset": w.dataset, "classifier": w.classifier}
    parts = list(smk.input.parts)
    cv5x2 = smk.params.cv5x2
    fitted = {"cv", "cv5x2"} - {Part.parse(path).scheme for path in parts}
    if cv5x2 is None:
        fitted.discard("cv5x2")
    engine = get_engine(w.engine)
    spec = dataset_spec_from_dict(smk.params.dataset)
    data = None
    if fitted:
        data = read_canonical(smk.input.data)
        configure_engine(engine, data, spec, threads=smk.threads, mem_mb=smk.resources.mem_mb)
    files = UnitFiles(
        smk.output.predictions,
        smk.output.confusion,
        smk.output.cv5x2 if cv5x2 is not None else None,
    )
    fit_unit(
        engine,
        data,
        spec,
        keys,
        dict(smk.params.classifier),
        CVSpec(**smk.params.cv),
        None if cv5x2 is None else cv5x2["seed"],
        parts,
        files,
        log,
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
