"""Snakemake script: one figure's data CSV(s) -> paper 000 Figure 2, 3, 4, 5 or 6 (PNG)."""

import logging

from pdmeasure.pipeline.run import run_script
from pdmeasure.render import paper_figures as F
from pdmeasure.render.figures import save_figure


def main(smk, log) -> None:
    figure = int(smk.wildcards.n)
    if figure == 2:
        fig = F.figure2(F.read_surface(smk.input.data), F.read_points(smk.input.points))
    elif figure == 6:
        fig = F.figure6(F.read_figure6(smk.input.data))
    else:
        fig = {3: F.figure3, 4: F.figure4, 5: F.figure5}[figure](F.read_surface(smk.input.data))
    save_figure(fig, smk.output[0])
    logging.info("figure %d -> %s", figure, smk.output[0])


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
