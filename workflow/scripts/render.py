"""Snakemake script of rule render: the tables of one engine (rule analyse), dataset by
dataset -> each dataset's exact analysis figures, its ranking table with intervals in Markdown
with its forest and posterior figures, and its self-contained kappa explorer page; the figures
only where the rule's outputs name them (`render.dataset_figures`). Drawn from
the files only, of the classifiers they hold (those whose fits finished); when none finished,
each output says so (the explorer data's note).

The datasets are drawn one after the other in this one process (``--set-threads render=N``:
N side by side), so the imports are paid once per engine, not once per dataset.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import html
import textwrap
from dataclasses import dataclass
from functools import partial
from typing import Any

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


@dataclass(frozen=True)
class Page:
    """One dataset's share of the job: its input and output files by name, and settings."""

    label: str
    input: dict[str, str]
    output: dict[str, str]
    classifiers: list[str]
    kappa_vectors: dict[str, Any]

    @property
    def figures(self) -> bool:
        """Whether the rule's outputs name this dataset's figures (`render.dataset_figures`)."""
        return "forest" in self.output


def pages(smk) -> list[Page]:
    """The job's datasets, in run order (``params.datasets``; the i-th file of each named
    input and output list is the i-th dataset's)."""
    return [
        Page(
            label=f"{dataset} ({smk.wildcards.engine})",
            input={name: smk.input[name][i] for name in smk.input.keys()},
            output={name: smk.output[name][i] for name in smk.output.keys()},
            classifiers=list(smk.params.classifiers),
            kappa_vectors=dict(smk.params.kappa_vectors[dataset]),
        )
        for i, dataset in enumerate(smk.params.datasets)
    ]


def exact_figures(page: Page, why: str | None) -> None:
    """Win probabilities, the distribution of pd and first-place shares over kappa; without
    results (``why``: :func:`no_results`), figures that say why."""
    label, out = page.label, page.output
    if why is not None:
        for name in ("exact_win", "exact_cdf", "exact_share"):
            save_figure(no_results_figure(page, why), out[name])
        return
    win, cdf, share = (read_exact_table(page.input[name]) for name in ("win", "cdf", "share"))
    save_figure(win_heatmap(win, title=f"Win probabilities over kappa: {label}"), out["exact_win"])
    save_figure(cdf_figure(cdf, title=f"Distribution of pd over kappa: {label}"), out["exact_cdf"])
    save_figure(
        share_bars(share, title=f"Share of kappa space ranked first: {label}"), out["exact_share"]
    )


def analysed(classifiers, intervals):
    """The classifiers of ``classifiers`` (config order) that the intervals table has: those
    whose fits finished (rule analyse reads only those)."""
    present = set(intervals["classifier"])
    return [name for name in classifiers if name in present]


def no_results(page: Page):
    """Why the dataset has no results (the note rule analyse writes in the explorer data when
    no classifier finished its fit, and the intervals table has no rows); None when it has
    some."""
    if len(read_intervals(page.input["intervals"])):
        return None
    data = read_explorer_data(page.input["explorer"])
    return None if data["classifiers"] else str(data.get("note", "no classifier to show"))


def no_results_figure(page: Page, why: str):
    """A figure that says ``why`` the dataset has no results (:func:`no_results`)."""
    return placeholder_figure(textwrap.fill(why, 70), title=page.label, hint=None)


def uncertainty_figures(page: Page, why: str | None) -> None:
    """The ranking table with intervals in Markdown, the forest and the posterior figures;
    without results (``why``), a table and figures that say why."""
    label, out = page.label, page.output
    if why is not None:
        write_text(f"# {label}\n\n{why}\n", out["table_md"])
        for name in ("forest", "posterior_figure") if page.figures else ():
            save_figure(no_results_figure(page, why), out[name])
        return
    companion = companion_markdown(read_companion(page.input["table_csv"]), page.kappa_vectors)
    write_text(companion, out["table_md"])
    if not page.figures:
        return
    intervals = read_intervals(page.input["intervals"])
    forest = forest_figure(
        intervals,
        classifiers=analysed(page.classifiers, intervals),
        kappa_vectors=page.kappa_vectors,
        title=label,
    )
    save_figure(forest, out["forest"])
    posterior = read_posterior(page.input["posterior"])
    save_figure(
        posterior_figure(posterior, title=f"{label}: pd default, a - b"), out["posterior_figure"]
    )


def explorer_page(page: Page, why: str | None) -> None:
    """The self-contained kappa explorer page (a page that says ``why``, without results)."""
    if why is not None:
        text = html.escape(why)
        head = f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{text}</title>'
        write_text(f"{head}</head><body><p>{text}</p></body></html>\n", page.output["html"])
        return
    write_explorer(read_explorer_data(page.input["explorer"]), page.output["html"])


def draw(page: Page, log) -> None:
    """Every file of one dataset."""
    why = no_results(page)
    if page.figures:
        exact_figures(page, why)
    uncertainty_figures(page, why)
    explorer_page(page, why)
    log.info("%s: %d files", page.label, len(page.output))


def main(smk, log) -> None:
    # One branch per dataset, of equal cost: on one thread they run here in run order.
    run_parallel(
        [(1.0, [partial(draw, page, log)]) for page in pages(smk)],
        processes=smk.threads,
        logger=log,
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
