"""Snakemake script: exact kappa-space analysis of one (engine, dataset) -> six tidy CSVs."""

import logging
import time

from pdmeasure.exact import ExactSettings
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.confusion import pooled_matrices, read_long
from pdmeasure.tables.exact import DatasetAnalysis
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    engine, dataset = smk.wildcards.engine, smk.wildcards.dataset
    pooled = pooled_matrices(read_long(smk.input.confusion), {dataset: smk.params.classes})
    matrices = {classifier: cm for (_, _, classifier), cm in pooled.items()}
    analysis = DatasetAnalysis(
        matrices,
        smk.params.kappa_grid,
        ExactSettings(**smk.params.settings),
        engine=engine,
        dataset=dataset,
        classes=smk.params.classes,
    )
    steps = {
        "summary": lambda: {"summary": analysis.summary()},
        "distributions": lambda: dict(zip(("cdf", "histogram"), analysis.distributions())),
        "win": lambda: {"win": analysis.win_probabilities()},
        "share": lambda: {"share": analysis.shares()},
        "robustness": lambda: {"robustness": analysis.robustness()},
    }
    for step, compute in steps.items():
        start = time.perf_counter()
        for name, table in compute().items():
            write_csv(table, smk.output[name])
        logging.info("%s/%s %s: %.2f s", engine, dataset, step, time.perf_counter() - start)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
