"""Snakemake script of the cross_validate_batch rules: several classifiers of one engine and
dataset (a batch of the CV plan, pdmeasure.pipeline.plan.choose_batches), fitted one after
the other in this one process, so that they share its start (and, for Weka, one JVM).

Writes, for each classifier, exactly the files that rule cross_validate writes for it
(pdmeasure.pipeline.fitting). ``params.classifiers`` lists the batch's classifiers in order;
the outputs of the i-th are named ``predictions_<i>``, ``confusion_<i>`` and ``cv5x2_<i>``.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.fitting import UnitFiles, configure_engine, fit_unit
from pdmeasure.pipeline.run import run_script


def main(smk, log) -> None:
    engine_name, dataset = smk.params.engine, smk.params.dataset_name
    cv5x2 = smk.params.cv5x2
    data = read_canonical(smk.input.data)
    spec = dataset_spec_from_dict(smk.params.dataset)
    engine = get_engine(engine_name)
    configure_engine(engine, data, spec, threads=smk.threads, mem_mb=smk.resources.mem_mb)
    for index, (classifier, params) in enumerate(smk.params.classifiers.items()):
        files = UnitFiles(
            smk.output[f"predictions_{index}"],
            smk.output[f"confusion_{index}"],
            smk.output[f"cv5x2_{index}"] if cv5x2 is not None else None,
        )
        keys = {"engine": engine_name, "dataset": dataset, "classifier": classifier}
        fit_unit(
            engine,
            data,
            spec,
            keys,
            dict(params),
            CVSpec(**smk.params.cv),
            None if cv5x2 is None else cv5x2["seed"],
            [],
            files,
            log,
            batched=True,
        )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
