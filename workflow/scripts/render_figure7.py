"""Snakemake script of rule render_figure7: Figure 7 of one engine, pd over each dataset's
configured kappa grid (from the grid histograms; when some dataset has a grid) and over the
fine grid of the exact analysis. Drawn from the files only; a classifier whose fits failed on
every dataset (the fitting folders' fits.csv) has no column, one that failed on some has a
panel there that says so.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from functools import partial

import pandas as pd

from pdmeasure.pipeline.run import run_parallel, run_script
from pdmeasure.render.exact_figures import fine_figure7, placeholder_figure, read_exact_table
from pdmeasure.render.figures import figure7, save_figure
from pdmeasure.tables.fits import failed_fits, finished
from pdmeasure.tables.histograms import read_histogram

#: The text of the panel of a (dataset, classifier) whose fit failed.
FIT_FAILED = "no results:\nits fit failed\n(see fits.csv)"


def fitted_classifiers(smk) -> list[str]:
    """The engine's classifiers (config order) whose fit finished on some dataset."""
    done = {name for folder in smk.input.fits for name in finished(folder, smk.params.classifiers)}
    return [name for name in smk.params.classifiers if name in done]


def failed_panels(smk) -> dict[tuple[str, str], str]:
    """(dataset, classifier) -> :data:`FIT_FAILED`, for every fit of the engine that failed."""
    failed = failed_fits(smk.input.fits)
    return {key: FIT_FAILED for key in zip(failed["dataset"], failed["classifier"])}


def grid_figure(smk, log) -> None:
    engine = smk.wildcards.engine
    histogram = pd.concat([read_histogram(p) for p in smk.input.grids], ignore_index=True)
    title = f"Figure 7: pd over the kappa grids (engine {engine})"
    if histogram.empty:
        # No classifier of the engine finished a fit on a dataset with a grid.
        fig = placeholder_figure(f"no finished fit of engine {engine}", title=title, hint=None)
    else:
        fig = figure7(
            histogram,
            classifiers=fitted_classifiers(smk),
            title=title,
            panel_notes=failed_panels(smk),
        )
    save_figure(fig, smk.output.grid)
    log.info("%s: %d datasets -> %s", engine, histogram["dataset"].nunique(), smk.output.grid)


def fine_figure(smk, log) -> None:
    histogram = pd.concat([read_exact_table(p) for p in smk.input.exact], ignore_index=True)
    fig = fine_figure7(
        histogram,
        classifiers=fitted_classifiers(smk),
        panel_notes=failed_panels(smk),
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
