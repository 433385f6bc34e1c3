"""Snakemake script of rule uncertainty: one engine and dataset's CV results -> intervals,
pairwise and rank probabilities, the correlated t-tests, the companion ranking table, the
explorer's draws and the two figures (thin wrapper of pdmeasure.tables.uncertainty)."""

import numpy as np

from pdmeasure.pipeline.run import run_script
from pdmeasure.render.figures import save_figure
from pdmeasure.render.uncertainty_figures import forest_figure, posterior_figure
from pdmeasure.render.uncertainty_markdown import companion_markdown
from pdmeasure.tables import uncertainty as ut
from pdmeasure.tables.confusion import pooled_matrices, read_long
from pdmeasure.tables.folds import read_predictions
from pdmeasure.tables.io import write_csv, write_json, write_text


def compute(smk) -> tuple[dict, np.ndarray]:
    """Every table of the job, by output name, and the matrix draws."""
    engine, dataset = smk.wildcards.engine, smk.wildcards.dataset
    p = smk.params
    settings, zd = p.settings, p.zero_division
    confusion = read_long(smk.input.confusion)
    by_key = pooled_matrices(confusion, {dataset: p.classes})
    pooled = np.stack([by_key[(engine, dataset, c)] for c in p.classifiers])
    predictions = None
    if settings["method"] == "bootstrap":
        predictions = read_predictions(smk.input.predictions)
    seed = ut.stream_seed(settings["seed"], engine, dataset)
    matrices = ut.draw_matrices(
        settings,
        pooled=pooled,
        predictions=predictions,
        classifiers=p.classifiers,
        classes=p.classes,
        seed=seed,
    )
    draws = ut.value_draws(matrices, p.kappa_vectors, zero_division=zd)
    common = {"keys": {"engine": engine, "dataset": dataset}, "classifiers": p.classifiers}
    tables = {
        "intervals": ut.interval_table(
            pooled,
            draws,
            **common,
            kappa_vectors=p.kappa_vectors,
            settings=settings,
            zero_division=zd,
        ),
        "ranks": ut.rank_table(draws, **common),
        "pairwise": ut.pairwise_table(
            matrices,
            draws,
            **common,
            kappa_grid=p.kappa_grid,
            settings=settings,
            seed=seed,
            zero_division=zd,
        ),
        "within": ut.within_table(
            *ut.fold_matrices(confusion, p.classifiers, p.classes),
            **common,
            kappa_vectors=p.kappa_vectors,
            rope=settings["rope"],
            zero_division=zd,
        ),
        "posterior": ut.posterior_table(
            draws[(ut.PD, ut.DEFAULT_KAPPA)], **common, rope=settings["rope"]
        ),
    }
    tables["table_csv"] = ut.companion_table(
        tables["intervals"],
        tables["ranks"],
        classifiers=p.classifiers,
        kappa_vectors=p.kappa_vectors,
    )
    return tables, matrices


def main(smk, log) -> None:
    p, out = smk.params, smk.output
    tables, matrices = compute(smk)
    for name, frame in tables.items():
        write_csv(frame, out[name])
    write_text(companion_markdown(tables["table_csv"], p.kappa_vectors), out.table_md)
    write_json(
        ut.explorer_draws(
            matrices, classifiers=p.classifiers, settings=p.settings, zero_division=p.zero_division
        ),
        out.explorer,
    )
    title = f"{smk.wildcards.dataset} ({smk.wildcards.engine})"
    forest = forest_figure(
        tables["intervals"], classifiers=p.classifiers, kappa_vectors=p.kappa_vectors, title=title
    )
    save_figure(forest, out.forest)
    posterior = posterior_figure(tables["posterior"], title=f"{title}: pd default, a - b")
    save_figure(posterior, out.posterior_figure)
    log.info(
        "%s: %s, %d draws of %d classifiers -> %d intervals, %d pairwise rows",
        title,
        p.settings["method"],
        len(matrices),
        len(p.classifiers),
        len(tables["intervals"]),
        len(tables["pairwise"]),
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
