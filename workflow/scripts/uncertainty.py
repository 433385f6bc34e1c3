"""Snakemake script of rule uncertainty: one engine and dataset's CV results -> intervals,
pairwise and rank probabilities, the correlated t-tests, the posterior of each pair, the
companion ranking table and the explorer's draws (pdmeasure.tables.uncertainty)."""

from pdmeasure.pipeline.run import run_script
from pdmeasure.tables import uncertainty as ut
from pdmeasure.tables.confusion import read_long
from pdmeasure.tables.folds import read_predictions
from pdmeasure.tables.io import write_csv, write_json


def main(smk, log) -> None:
    p, out = smk.params, smk.output
    bootstrap = p.settings["method"] == "bootstrap"
    tables, matrices = ut.dataset_tables(
        read_long(smk.input.confusion),
        read_predictions(smk.input.predictions) if bootstrap else None,
        engine=smk.wildcards.engine,
        dataset=smk.wildcards.dataset,
        classes=p.classes,
        classifiers=p.classifiers,
        kappa_vectors=p.kappa_vectors,
        kappa_grid=p.kappa_grid,
        settings=p.settings,
        zero_division=p.zero_division,
    )
    for name, frame in tables.items():
        write_csv(frame, out[name])
    draws = ut.explorer_draws(
        matrices, classifiers=p.classifiers, settings=p.settings, zero_division=p.zero_division
    )
    write_json(draws, out.explorer)
    log.info(
        "%s/%s: %s, %d draws of %d classifiers -> %d intervals, %d pairwise rows",
        smk.wildcards.engine,
        smk.wildcards.dataset,
        p.settings["method"],
        len(matrices),
        len(p.classifiers),
        len(tables["intervals"]),
        len(tables["pairwise"]),
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
