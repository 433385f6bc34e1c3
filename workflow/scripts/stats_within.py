"""Snakemake script: paired tests of every classifier pair within one dataset (thin wrapper)."""

import logging

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.stats_report import significance_markdown
from pdmeasure.tables.folds import check_paired_folds, fold_measure_values, read_predictions
from pdmeasure.tables.io import write_csv, write_text
from pdmeasure.tables.stats_within import compare_within_dataset, significance_table


def _values(paths, smk, scheme):
    pred = pd.concat([read_predictions(p) for p in paths], ignore_index=True)
    check_paired_folds(pred)
    values = fold_measure_values(
        pred,
        classes=smk.params.classes,
        kappa_vectors=smk.params.kappa_vectors,
        zero_division=smk.params.zero_division,
        scheme=scheme,
    )
    return pred, values


def main(smk, log) -> None:
    cv_pred, cv_values = _values(smk.input.cv, smk, "cv")
    cv5x2_values = _values(smk.input.cv5x2, smk, "cv5x2")[1] if smk.input.cv5x2 else None
    pairwise = compare_within_dataset(
        cv_values,
        alpha=smk.params.alpha,
        cv_predictions=cv_pred,
        cv5x2_values=cv5x2_values,
        classifiers=smk.params.classifiers,
        mcnemar_exact_below=smk.params.mcnemar_exact_below,
    )
    table = significance_table(pairwise)
    folds = cv_values if cv5x2_values is None else pd.concat([cv_values, cv5x2_values])
    write_csv(folds, smk.output.folds)
    write_csv(pairwise, smk.output.pairwise)
    write_csv(table, smk.output.significance)
    write_text(significance_markdown(table, alpha=smk.params.alpha), smk.output.markdown)
    logging.info(
        "%d pairwise tests, %d significant after Holm",
        len(pairwise),
        int(pairwise["significant"].sum()),
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
