"""Snakemake script of rule uncertainty_figures: one engine and dataset's uncertainty tables ->
the companion ranking table in Markdown, the interval (forest) plot and the posterior plot."""

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.figures import save_figure
from pdmeasure.render.uncertainty_figures import forest_figure, posterior_figure
from pdmeasure.render.uncertainty_markdown import companion_markdown
from pdmeasure.tables.io import write_text
from pdmeasure.tables.uncertainty_schema import read_companion, read_intervals, read_posterior


def main(smk, log) -> None:
    p, out = smk.params, smk.output
    companion = companion_markdown(read_companion(smk.input.table_csv), p.kappa_vectors)
    write_text(companion, out.table_md)
    title = f"{smk.wildcards.dataset} ({smk.wildcards.engine})"
    forest = forest_figure(
        read_intervals(smk.input.intervals),
        classifiers=p.classifiers,
        kappa_vectors=p.kappa_vectors,
        title=title,
    )
    save_figure(forest, out.forest)
    posterior = read_posterior(smk.input.posterior)
    save_figure(
        posterior_figure(posterior, title=f"{title}: pd default, a - b"), out.posterior_figure
    )
    log.info("%s -> %s, %s, %s", title, out.table_md, out.forest, out.posterior_figure)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
