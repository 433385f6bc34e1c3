"""Snakemake script: the statistics report (Markdown) from the stats tables (thin wrapper)."""

import logging
import os

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.stats_report import stats_report
from pdmeasure.tables.io import write_text
from pdmeasure.tables.stats import read_stats_table
from pdmeasure.tables.stats_across import AcrossTables
from pdmeasure.tables.uncertainty_schema import read_signed_rank


def main(smk, log) -> None:
    across = AcrossTables(
        *(read_stats_table(smk.input[name]) for name in ("ranks", "omnibus", "posthoc", "cd"))
    )
    significance = pd.concat(
        [read_stats_table(p) for p in smk.input.significance], ignore_index=True
    )
    folder = os.path.dirname(smk.output.report)
    figures = {
        tuple(key): os.path.relpath(path, folder)
        for key, path in zip(smk.params.figure_keys, smk.input.figures)
    }
    bayesian = smk.input.get("bayesian")  # signed-rank tests of the uncertainty module, if run
    write_text(
        stats_report(
            across,
            significance,
            alpha=smk.params.alpha,
            figures=figures,
            bayesian=read_signed_rank(bayesian) if bayesian else None,
        ),
        smk.output.report,
    )
    logging.info("report -> %s", smk.output.report)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
