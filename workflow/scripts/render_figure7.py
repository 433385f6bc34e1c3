"""Snakemake script of rule render_figure7: Figure 7 of one engine, pd over each dataset's
configured kappa grid (from the grid histograms; when some dataset has a grid) and over the
fine grid of the exact analysis. Drawn from the files only.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from functools import partial

import pandas as pd

from pdmeasure.pipeline.run import run_parallel, run_script
from pdmeasure.render.exact_figures import fine_figure7, read_exact_table
from pdmeasure.render.figures import figure7, save_figure
from pdmeasure.tables.histograms import read_histogram


def grid_figure(smk, log) -> None:
    engine = smk.wildcards.engine
    histogram = pd.concat([read_histogram(p) for p in smk.input.grids], ignore_index=True)
    fig = figure7(
        histogram,
        classifiers=smk.params.classifiers,
        title=f"Figure 7: pd over the kappa grids (engine {engine})",
    )
    save_figure(fig, smk.output.grid)
    log.info("%s: %d datasets -> %s", engine, histogram["dataset"].nunique(), smk.output.grid)


def fine_figure(smk, log) -> None:
    histogram = pd.concat([read_exact_table(p) for p in smk.input.exact], ignore_index=True)
    fig = fine_figure7(
        histogram,
        classifiers=smk.params.classifiers,
        title=f"Figure 7 over the fine kappa grid ({smk.params.values} values per class), "
        f"engine {smk.wildcards.engine}",
    )
    save_figure(fig, smk.output.fine)
    log.info("wrote %s", smk.output.fine)


def main(smk, log) -> None:
    # The two figures side by side on the job's threads (each is seconds of matplotlib
    # layout), or one after the other on one.
    branches = [(1.0, [partial(fine_figure, smk, log)])]
    if smk.input.grids:
        branches.insert(0, (1.0, [partial(grid_figure, smk, log)]))
    run_parallel(branches, processes=smk.threads, logger=log)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
