"""Snakemake script of rule render_summary: the tables across datasets (rule collect) and
the significance tables of every engine and dataset -> the statistics report
(stats/report.md, linking the critical-difference diagrams of rule render_cd, and listing the
fits that failed, from the fitting folders' fits.csv) and, for a run
that touches the papers, the Markdown summary of the reproduction. Written from the files
only.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import os

import pandas as pd

from pdmeasure.paper.reproduction import read_reproduction, summary_tables
from pdmeasure.pipeline.run import run_script
from pdmeasure.render.reproduction_markdown import summary_markdown
from pdmeasure.render.stats_report import stats_report
from pdmeasure.render.verdict import verdict_markdown
from pdmeasure.tables.effect_sizes import read_effect_sizes
from pdmeasure.tables.fits import failed_fits
from pdmeasure.tables.io import write_text
from pdmeasure.tables.stats import AcrossTables, read_stats_table
from pdmeasure.tables.uncertainty_schema import read_signed_rank


def report(smk):
    """The statistics report, with the CD diagrams linked relative to it."""
    across = AcrossTables(
        *(read_stats_table(smk.input[name]) for name in ("ranks", "omnibus", "posthoc", "cd"))
    )
    significance = pd.concat(
        [read_stats_table(path) for path in smk.input.significance], ignore_index=True
    )
    folder = os.path.dirname(smk.output.report)
    keys = [tuple(key) for key in smk.params.figure_keys]
    figures = {key: os.path.relpath(path, folder) for key, path in zip(keys, smk.params.figures)}
    # The verdicts of the result matrix's measures open the report.
    keys_ = [tuple(key) for key in smk.params.verdict_keys]
    tables = {
        "bayesian": read_signed_rank(smk.input.bayesian),
        "effects": read_effect_sizes(smk.input.effect_sizes),
        "alpha": smk.params.alpha,
    }
    text = stats_report(
        across,
        significance,
        alpha=smk.params.alpha,
        figures=figures,
        bayesian=read_signed_rank(smk.input.bayesian),
        skipped=smk.params.skipped,
        failed=failed_fits(smk.input.fits).to_dict("records"),
        summary=verdict_markdown(across, keys=keys_, short=True, **tables),
        verdict=verdict_markdown(across, keys=keys_, **tables),
    )
    write_text(text, smk.output.report)


def main(smk, log) -> None:
    report(smk)
    if smk.input.reproduction:
        table = read_reproduction(smk.input.reproduction[0])
        write_text(summary_markdown(summary_tables(table)), smk.output.reproduction)
    log.info("report -> %s", smk.output.report)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
