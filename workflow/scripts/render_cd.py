"""Snakemake script of rule render_cd: the critical differences across datasets (rule
collect, stats/cd.csv) -> one critical-difference diagram per measure (and kappa vector) of
one engine.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from functools import partial

from pdmeasure.pipeline.run import run_parallel, run_script
from pdmeasure.render.cd_diagram import read_cd_table, render_cd_diagrams


def main(smk, log) -> None:
    engine = smk.wildcards.engine
    keys = [(engine, measure, kappa) for measure, kappa in smk.params.comparisons]
    table, outputs = read_cd_table(smk.input.cd), list(zip(keys, smk.output.figures))
    # The diagrams in as many shares as the job has threads, side by side: the job starts
    # only when rule collect, at the end of the run, is done.
    shares = max(1, min(smk.threads, len(outputs)))
    run_parallel(
        [
            (1.0, [partial(render_cd_diagrams, table, dict(outputs[i::shares]))])
            for i in range(shares)
        ],
        processes=shares,
        logger=log,
    )
    log.info("%s: %d CD diagrams", engine, len(keys))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
