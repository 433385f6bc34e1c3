"""Snakemake script of rule render_figure7: Figure 7 of one engine, pd over each dataset's
configured kappa grid (from the grid histograms; when some dataset has a grid) and over the
fine grid of the exact analysis. Drawn from the files only.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import pandas as pd

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.exact_figures import fine_figure7, read_exact_table
from pdmeasure.render.figures import figure7, save_figure
from pdmeasure.tables.histograms import read_histogram


def main(smk, log) -> None:
    engine, classifiers = smk.wildcards.engine, smk.params.classifiers
    if smk.input.grids:
        histogram = pd.concat([read_histogram(p) for p in smk.input.grids], ignore_index=True)
        fig = figure7(
            histogram,
            classifiers=classifiers,
            title=f"Figure 7: pd over the kappa grids (engine {engine})",
        )
        save_figure(fig, smk.output.grid)
        log.info("%s: %d datasets -> %s", engine, histogram["dataset"].nunique(), smk.output.grid)
    histogram = pd.concat([read_exact_table(p) for p in smk.input.exact], ignore_index=True)
    fig = fine_figure7(
        histogram,
        classifiers=classifiers,
        title=f"Figure 7 over the fine kappa grid ({smk.params.values} values per class), "
        f"engine {engine}",
    )
    save_figure(fig, smk.output.fine)
    log.info("wrote %s", smk.output.fine)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
