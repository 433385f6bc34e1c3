"""Snakemake script of rule render_cd: the critical differences across datasets (rule
collect, stats/cd.csv) -> one critical-difference diagram per measure (and kappa vector) of
one engine.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.cd_diagram import read_cd_table, render_cd_diagrams


def main(smk, log) -> None:
    engine = smk.wildcards.engine
    keys = [(engine, measure, kappa) for measure, kappa in smk.params.comparisons]
    render_cd_diagrams(read_cd_table(smk.input.cd), dict(zip(keys, smk.output.figures)))
    log.info("%s: %d CD diagrams", engine, len(keys))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
