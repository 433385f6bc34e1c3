"""Snakemake script of rule render: the tables of one engine and dataset (rule analyse) ->
the exact analysis's figures, the ranking table with intervals in Markdown with its forest and
posterior figures, and the self-contained kappa explorer page. Drawn from the files only, of
the classifiers they hold (those whose fits finished); when none finished, each output says
so (the explorer data's note).

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import html
import textwrap
from functools import partial

from pdmeasure.pipeline.run import run_parallel, run_script
from pdmeasure.render.exact_figures import (
    cdf_figure,
    placeholder_figure,
    read_exact_table,
    share_bars,
    win_heatmap,
)
from pdmeasure.render.explorer import write_explorer
from pdmeasure.render.figures import save_figure
from pdmeasure.render.uncertainty_figures import forest_figure, posterior_figure
from pdmeasure.render.uncertainty_markdown import companion_markdown
from pdmeasure.tables.explorer import read_explorer_data
from pdmeasure.tables.io import write_text
from pdmeasure.tables.uncertainty_schema import read_companion, read_intervals, read_posterior


def exact_figures(smk, label):
    """Win probabilities, the distribution of pd and first-place shares over kappa."""
    if no_results(smk) is not None:
        for name in ("exact_win", "exact_cdf", "exact_share"):
            save_figure(no_results_figure(smk, label), smk.output[name])
        return
    win, cdf, share = (read_exact_table(smk.input[name]) for name in ("win", "cdf", "share"))
    out = smk.output
    save_figure(win_heatmap(win, title=f"Win probabilities over kappa: {label}"), out.exact_win)
    save_figure(cdf_figure(cdf, title=f"Distribution of pd over kappa: {label}"), out.exact_cdf)
    save_figure(
        share_bars(share, title=f"Share of kappa space ranked first: {label}"), out.exact_share
    )


def analysed(classifiers, intervals):
    """The classifiers of ``classifiers`` (config order) that the intervals table has: those
    whose fits finished (rule analyse reads only those)."""
    present = set(intervals["classifier"])
    return [name for name in classifiers if name in present]


def no_results(smk):
    """Why the dataset has no results (the note rule analyse writes in the explorer data when
    no classifier finished its fit, and the intervals table has no rows); None when it has
    some."""
    if len(read_intervals(smk.input.intervals)):
        return None
    data = read_explorer_data(smk.input.explorer)
    return None if data["classifiers"] else str(data.get("note", "no classifier to show"))


def no_results_figure(smk, label):
    """A figure that says why the dataset has no results (:func:`no_results`)."""
    return placeholder_figure(textwrap.fill(no_results(smk), 70), title=label, hint=None)


def uncertainty_figures(smk, label):
    """The ranking table with intervals in Markdown, the forest and the posterior figures."""
    p, out = smk.params, smk.output
    why = no_results(smk)
    if why is not None:
        write_text(f"# {label}\n\n{why}\n", out.table_md)
        for name in ("forest", "posterior_figure"):
            save_figure(no_results_figure(smk, label), out[name])
        return
    companion = companion_markdown(read_companion(smk.input.table_csv), p.kappa_vectors)
    write_text(companion, out.table_md)
    intervals = read_intervals(smk.input.intervals)
    forest = forest_figure(
        intervals,
        classifiers=analysed(p.classifiers, intervals),
        kappa_vectors=p.kappa_vectors,
        title=label,
    )
    save_figure(forest, out.forest)
    posterior = read_posterior(smk.input.posterior)
    save_figure(
        posterior_figure(posterior, title=f"{label}: pd default, a - b"), out.posterior_figure
    )


def explorer_page(smk):
    """The self-contained kappa explorer page (a page that says why, without results)."""
    why = no_results(smk)
    if why is not None:
        text = html.escape(why)
        page = f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{text}</title>'
        write_text(f"{page}</head><body><p>{text}</p></body></html>\n", smk.output.html)
        return
    write_explorer(read_explorer_data(smk.input.explorer), smk.output.html)


def main(smk, log) -> None:
    label = f"{smk.wildcards.dataset} ({smk.wildcards.engine})"
    # Two branches side by side on the job's threads (one: in this order): the last
    # dataset's render is on the run's tail. Costs are their CPU seconds on krkopt.
    run_parallel(
        [
            (1.7, [partial(exact_figures, smk, label)]),
            (1.5, [partial(uncertainty_figures, smk, label), partial(explorer_page, smk)]),
        ],
        processes=smk.threads,
        logger=log,
    )
    log.info("%s: %d files", label, len(smk.output))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
