"""Snakemake script of rule result_matrix: one engine's per-fold values of every dataset ->
its result matrices, as Weka's Experimenter prints them (one per measure and kappa of
``params.matrices``), tidy (CSV), with their (v/ /*) counts, and as Markdown and LaTeX.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.result_matrix import result_matrix_latex, result_matrix_markdown
from pdmeasure.tables.io import write_csv, write_text
from pdmeasure.tables.result_matrix import (
    COUNT_COLUMNS,
    RESULT_MATRIX_COLUMNS,
    result_counts,
    result_matrix,
)
from pdmeasure.tables.stats import read_stats_table


def _title(measure: str, kappa: str) -> str:
    return measure if not kappa else f"{measure} [{kappa}]"


def main(smk, log) -> None:
    p = smk.params
    folds = pd.concat([read_stats_table(path) for path in smk.input.folds], ignore_index=True)
    present = set(zip(folds["measure"], folds["kappa"])) if not folds.empty else set()
    matrices, markdown, latex = [], [], []
    for measure, kappa in p.matrices:
        if (measure, kappa) not in present:
            log.info("%s: no fold values (no classifier finished)", _title(measure, kappa))
            continue
        matrix = result_matrix(
            folds,
            measure=measure,
            kappa=kappa,
            baseline=p.baseline,
            alpha=p.alpha,
            classifiers=list(p.classifiers),
            datasets=list(p.datasets),
            engine=smk.wildcards.engine,
        )
        matrices.append(matrix)
        markdown += [f"## {_title(measure, kappa)}", "", result_matrix_markdown(matrix), ""]
        latex += [f"% {_title(measure, kappa)}", result_matrix_latex(matrix), ""]
    tidy = pd.concat(matrices, ignore_index=True) if matrices else None
    write_csv(
        tidy if tidy is not None else pd.DataFrame(columns=list(RESULT_MATRIX_COLUMNS)),
        smk.output.csv,
    )
    write_csv(
        result_counts(tidy) if tidy is not None else pd.DataFrame(columns=list(COUNT_COLUMNS)),
        smk.output.counts,
    )
    heading = f"# Result matrix: {smk.wildcards.engine}, baseline {p.baseline}"
    write_text("\n".join([heading, "", *markdown]).rstrip() + "\n", smk.output.markdown)
    write_text("\n".join(latex).rstrip() + "\n", smk.output.latex)
    log.info("%d result matrices, baseline %s", len(matrices), p.baseline)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
