"""Snakemake script of rule paper_render: the papers' tidy tables and figure data (rule
paper_tables) -> every table in Markdown and Figures 2-6 of paper 000 as PNG.

``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

from pdmeasure.paper.example_tables import read_table
from pdmeasure.pipeline.run import run_script
from pdmeasure.render import paper_figures as F
from pdmeasure.render.figures import save_figure
from pdmeasure.render.markdown import paper_table_markdown
from pdmeasure.tables.io import write_text


def figure(number, data, points):
    """Figure ``number`` of paper 000 from its data file (and Figure 2's marked points)."""
    if number == 2:
        return F.figure2(F.read_surface(data), F.read_points(points))
    if number == 6:
        return F.figure6(F.read_figure6(data))
    return {3: F.figure3, 4: F.figure4, 5: F.figure5}[number](F.read_surface(data))


def main(smk, log) -> None:
    for source, target in zip(smk.input.tables, smk.output.tables):
        write_text(paper_table_markdown(read_table(source)), target)
    for number, data, target in zip(smk.params.figures, smk.input.figures, smk.output.figures):
        save_figure(figure(int(number), data, smk.input.figure2_points), target)
        log.info("figure %s -> %s", number, target)
    log.info("%d tables, %d figures", len(smk.output.tables), len(smk.output.figures))


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
