"""Snakemake script: exact-analysis CSVs of one (engine, dataset) -> win, CDF and share figures."""

import logging

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.exact_figures import cdf_figure, read_exact_table, share_bars, win_heatmap
from pdmeasure.render.figures import save_figure


def main(smk, log) -> None:
    label = f"{smk.wildcards.dataset} ({smk.wildcards.engine})"
    win, cdf, share = (read_exact_table(smk.input[name]) for name in ("win", "cdf", "share"))
    save_figure(win_heatmap(win, title=f"Win probabilities over kappa: {label}"), smk.output.win)
    save_figure(cdf_figure(cdf, title=f"Distribution of pd over kappa: {label}"), smk.output.cdf)
    save_figure(
        share_bars(share, title=f"Share of kappa space ranked first: {label}"), smk.output.share
    )
    logging.info("wrote %s, %s, %s", smk.output.win, smk.output.cdf, smk.output.share)


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
