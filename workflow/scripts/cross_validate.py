"""Snakemake script of rule cross_validate: every classifier of one engine and dataset,
fitted one after the other in this one process (one JVM for Weka).

Writes, for each classifier, ``<fits>/<classifier>/predictions.csv`` and ``confusion.csv``
(its k-fold CV) and, when the run has the 5 x 2-fold CV, ``<cv5x2>/<classifier>/
predictions.csv.gz``. A classifier that ``cv.parts`` cuts into part jobs (rule
cross_validate_part; ``params.parts``) is assembled from their files instead of fitted
(pdmeasure.pipeline.fitting). ``snakemake`` is the object injected by Snakemake's
``script:`` directive.
"""

from pathlib import Path

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.fitting import UnitFiles, configure_engine, fit_unit
from pdmeasure.pipeline.run import run_script


def main(smk, log) -> None:
    w = smk.wildcards
    cv5x2 = smk.params.cv5x2
    data = read_canonical(smk.input.data)
    spec = dataset_spec_from_dict(smk.params.dataset)
    engine = get_engine(w.engine)
    configure_engine(engine, data, spec, threads=smk.threads, mem_mb=smk.resources.mem_mb)
    parts = list(smk.input.parts)
    for classifier, params in smk.params.classifiers.items():
        names = smk.params.parts.get(classifier, [])
        own = [path for path in parts if Path(path).parent.name == classifier]
        if sorted(Path(path).stem for path in own) != sorted(names):
            raise ValueError(f"{classifier}: part files {own} are not the parts {names}")
        folder = Path(smk.output.fits, classifier)
        files = UnitFiles(
            str(folder / "predictions.csv"),
            str(folder / "confusion.csv"),
            str(Path(smk.output.cv5x2, classifier, "predictions.csv.gz"))
            if cv5x2 is not None
            else None,
        )
        keys = {"engine": w.engine, "dataset": w.dataset, "classifier": classifier}
        fit_unit(
            engine,
            data,
            spec,
            keys,
            dict(params),
            CVSpec(**smk.params.cv),
            None if cv5x2 is None else cv5x2["seed"],
            own,
            files,
            log,
        )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
