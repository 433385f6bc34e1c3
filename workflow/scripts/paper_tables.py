"""Snakemake script: the papers' example matrices -> tidy tables and figure data (no data needed)."""

import logging

from pdmeasure.paper import example_tables as paper
from pdmeasure.pipeline.run import run_script
from pdmeasure.tables.io import write_csv


def main(smk, log) -> None:
    zd = smk.params.zero_division
    out = smk.output
    surface = paper.kappa_surface(zero_division=zd)
    table3 = paper.pd_table3(zero_division=zd)
    tables = {
        "pd_table3": table3,
        "pd_table4": paper.pd_table4(zero_division=zd),
        "pd_section42": paper.pd_section42(surface, zero_division=zd),
        "pacc_table2": paper.pacc_table2(),
        "pacc_table4": paper.pacc_table4(),
        "pacc_table5": paper.pacc_table5(),
        "pacc_table6": paper.pacc_table6(),
    }
    for name, frame in tables.items():
        write_csv(frame, out[name])
        logging.info("%s: %d cells", name, len(frame))
    write_csv(surface, out.surfaces)
    for figure in paper.FIGURE_MATRICES:
        write_csv(paper.figure_surface(surface, figure), out[f"figure{figure}"])
    write_csv(paper.figure2_points(surface, zero_division=zd), out.figure2_points)
    write_csv(paper.figure6_values(table3), out.figure6)
    logging.info(
        "kappa surfaces: %d matrices x %d vectors",
        surface["matrix"].nunique(),
        len(surface) // surface["matrix"].nunique(),
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
