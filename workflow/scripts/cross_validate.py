"""Snakemake script of rule cross_validate: every classifier of one engine and dataset,
fitted one after the other in this one process (one JVM for Weka).

Writes, for each classifier, ``<fits>/<classifier>/predictions.csv`` and ``confusion.csv``
(its k-fold CV) and, when the run has the 5 x 2-fold CV, ``<cv5x2>/<classifier>/
predictions.csv.gz``. A classifier that ``cv.parts`` cuts into part jobs (rule
cross_validate_part; ``params.parts``) is assembled from their files instead of fitted
(pdmeasure.pipeline.fitting). Last, ``<fits>/fits.csv``: each classifier's status; with
``cv.on_failure: record`` (``params.policy``) a classifier whose fit fails is a ``failed``
row there with its reason and has no files, and the others go on.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pathlib import Path

from pdmeasure.pipeline.config import dataset_spec_from_dict
from pdmeasure.pipeline.data.fetch import read_canonical
from pdmeasure.pipeline.engines import CVSpec, get_engine
from pdmeasure.pipeline.fitting import FitPolicy, UnitFiles, configure_engine, fit_or_record
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.fits import FAILED, fits_path, fits_table
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    w = smk.wildcards
    cv5x2 = smk.params.cv5x2
    data = read_canonical(smk.input.data)
    spec = dataset_spec_from_dict(smk.params.dataset)
    engine = get_engine(w.engine)
    configure_engine(engine, data, spec, threads=smk.threads, mem_mb=smk.resources.mem_mb)
    parts = list(smk.input.parts)
    # Both output folders exist even when every fit fails (the status table says why).
    for folder in (smk.output.fits, smk.output.get("cv5x2")):
        if folder is not None:
            Path(folder).mkdir(parents=True, exist_ok=True)
    rows = []
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
        rows.append(
            fit_or_record(
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
                policy=FitPolicy(**smk.params.policy),
                mem_mb=smk.resources.mem_mb,
                log_path=smk.log[0],
            )
        )
    table = fits_table(rows)
    write_csv(table, fits_path(smk.output.fits))
    failed = table[table["status"] == FAILED]
    if len(failed):
        log.warning(
            "%d of %d fits failed (%s); see %s",
            len(failed),
            len(table),
            ", ".join(failed["classifier"]),
            fits_path(smk.output.fits),
        )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
