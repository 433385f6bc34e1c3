"""Snakemake script of rule signed_rank: the measures of every engine and dataset -> the
Bayesian signed-rank tests across datasets of every configured comparison.

A rule of its own beside rule collect rather than a step of it: the tests (50,000 Dirichlet
draws each) cost as much as every other table across datasets together, and both are the
last computations of a run, so the two run side by side on two cores.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.measures import read_measures
from pdmeasure.tables.uncertainty import signed_rank_table


def main(smk, log) -> None:
    p = smk.params
    table = pd.concat([read_measures(path) for path in smk.input.measures], ignore_index=True)
    tests = signed_rank_table(
        table,
        comparisons=[tuple(key) for key in p.comparisons],
        classifiers=p.classifiers,
        rope=p.rope,
        seed=p.seed,
    )
    write_csv(tests, smk.output.signed_rank)
    log.info("%d signed-rank tests", len(tests))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
