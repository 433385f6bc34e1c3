"""Snakemake script of rule analyse: the CV files of one dataset -> its tidy tables, engine
after engine in one process (the imports, pandas and scipy.special, paid once per dataset).

For each engine, in order: every measure on the pooled matrices, and as warnings the
dataset's rows without a class (when the rule gives the fetch step's description) and the
classes whose precision (never predicted) or recall (never actual) is 0/0; the ranking table
(paper Tables 6-9); pd over the dataset's kappa grid (Figure 7's histograms); the exact
analysis of the kappa space; the uncertainty tables and the draws the explorer shows; the
explorer's data; the statistical comparisons within the dataset. One step per function
below, each the work of a former rule of its own (the map in docs/pipeline.md). The steps
form four independent branches, which run side by side on the job's threads
(:func:`pdmeasure.pipeline.run.run_parallel`), or in this order on one. Only the classifiers
whose fits finished (the fitting folder's fits.csv) are analysed; when none did, every table
is written without rows, and the Markdown and the explorer's data say why.
``snakemake`` is the object injected by Snakemake's ``script:`` directive.
"""

import json
import logging
import time
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from pdmeasure.exact import ExactSettings
from pdmeasure.pipeline.run import run_parallel, run_script
from pdmeasure.render.markdown import ranking_table_markdown
from pdmeasure.render.stats_report import significance_markdown
from pdmeasure.tables import exact as et
from pdmeasure.tables import uncertainty as ut
from pdmeasure.tables import uncertainty_schema as us
from pdmeasure.tables.confusion import (
    missing_class_warning,
    pooled_matrices,
    read_long,
    undefined_precision,
)
from pdmeasure.tables.exact import DatasetAnalysis
from pdmeasure.tables.explorer import explorer_data, write_explorer_data
from pdmeasure.tables.fits import finished, finished_files, fits_path
from pdmeasure.tables.folds import check_paired_folds, fold_measure_values, read_predictions
from pdmeasure.tables.histograms import GRID_HISTOGRAM_COLUMNS, GRID_SUMMARY_COLUMNS, grid_tables
from pdmeasure.tables.io import write_csv, write_json, write_text
from pdmeasure.tables.measures import MEASURE_COLUMNS, measures_table, read_measures
from pdmeasure.tables.rankings import RANKING_COLUMNS, ranking_table
from pdmeasure.tables.stats import FOLD_COLUMNS, PAIRWISE_COLUMNS
from pdmeasure.tables.stats_within import compare_within_dataset, significance_table


def measures(smk, log, pooled):
    """Every registry measure and pd at each kappa vector; the 0/0 classes, and the rows
    without a class, as warnings."""
    dataset, p = smk.wildcards.dataset, smk.params
    table = measures_table(pooled, {dataset: p.kappa_vectors}, zero_division=p.zero_division)
    undefined = undefined_precision(pooled, {dataset: p.classes})
    for row in undefined.itertuples(index=False):
        log.warning(
            "%s/%s/%s: class %r %s; measures built on it take zero_division=%s",
            row.engine,
            row.dataset,
            row.classifier,
            row[3],
            row.reason,
            p.zero_division,
        )
    ignored = missing_class_rows(smk)
    if not ignored.empty:
        log.warning("%s/%s: %s", ignored.engine[0], ignored.dataset[0], ignored.reason[0])
        undefined = pd.concat([ignored, undefined], ignore_index=True)
    write_csv(table, smk.output.measures)
    write_csv(undefined, smk.output.warnings)
    log.info(
        "%d measure rows for %d matrices; %d warnings", len(table), len(pooled), len(undefined)
    )


def missing_class_rows(smk) -> pd.DataFrame:
    """The warning about the dataset's rows without a class, counted by the fetch step in
    its description (input ``about``, results/data/<dataset>.json); empty without it."""
    about = getattr(smk.input, "about", None)
    if about is None:
        return missing_class_warning(
            smk.wildcards.engine, smk.wildcards.dataset, count=0, rows=0, marker=None
        )
    described = json.loads(Path(about).read_text(encoding="utf-8"))
    return missing_class_warning(
        smk.wildcards.engine,
        smk.wildcards.dataset,
        count=int(described.get("missing_class_rows", 0)),
        rows=int(described["rows"]),
        marker=described.get("missing"),
    )


def grid(smk, log, pooled):
    """pd over the dataset's kappa grid (paper 000, Section 5.1; the data of Figure 7):
    histogram and summary per classifier, the grid streamed in chunks; both tables without
    rows under `kappa_grid: null`."""
    p, out = smk.params, smk.output
    if p.kappa_grid is None:
        write_csv(pd.DataFrame(columns=list(GRID_HISTOGRAM_COLUMNS)), out.grid_histogram)
        write_csv(pd.DataFrame(columns=list(GRID_SUMMARY_COLUMNS)), out.grid_summary)
        log.info("kappa_grid: null: no grid histogram")
        return
    histogram, summary = grid_tables(
        pooled,
        p.kappa_grid,
        bin_width=p.bin_width,
        chunk_size=p.chunk_size,
        zero_division=p.zero_division,
    )
    write_csv(histogram, out.grid_histogram)
    write_csv(summary, out.grid_summary)
    log.info(
        "grid: %d matrices x %d kappa vectors (%s quantiles)",
        len(pooled),
        summary["n"].iloc[0],
        summary["quantile_method"].iloc[0],
    )


def rankings(smk, log, fitted):
    """The ranking table in the layout of Tables 6-9, as CSV and Markdown, from the measures
    file just written (the values as every later reader sees them)."""
    w, p = smk.wildcards, smk.params
    ranks = ranking_table(
        read_measures(smk.output.measures),
        engine=w.engine,
        dataset=w.dataset,
        classifiers=fitted.classifiers,
        kappa_vectors=p.kappa_vectors,
    )
    write_csv(ranks, smk.output.ranking_csv)
    write_text(ranking_table_markdown(ranks, p.kappa_vectors), smk.output.ranking_md)
    log.info("ranking table: %d cells", len(ranks))


def exact(smk, log, matrices):
    """The exact analysis of the kappa space: distributions, win probabilities, shares,
    ranking robustness."""
    w, p = smk.wildcards, smk.params
    analysis = DatasetAnalysis(
        matrices,
        p.kappa_grid,
        ExactSettings(**p.exact),
        engine=w.engine,
        dataset=w.dataset,
        classes=p.classes,
    )
    steps = {
        "summary": lambda: {"summary": analysis.summary()},
        "distributions": lambda: dict(zip(("cdf", "histogram"), analysis.distributions())),
        "win": lambda: {"win": analysis.win_probabilities()},
        "share": lambda: {"share": analysis.shares()},
        "robustness": lambda: {"robustness": analysis.robustness()},
    }
    for step, compute in steps.items():
        start = time.perf_counter()
        for name, frame in compute().items():
            write_csv(frame, smk.output[f"exact_{name}"])
        log.info("exact %s: %.2f s", step, time.perf_counter() - start)


def uncertainty(smk, log, fitted, confusion):
    """Intervals, pairwise and rank probabilities, fold tests, posteriors, the companion of
    the ranking table, and the draws the explorer page shows, from the fitted classifiers'
    matrices (``confusion``, long format) or their predictions."""
    w, p, out = smk.wildcards, smk.params, smk.output
    bootstrap = p.uncertainty["method"] == "bootstrap"
    tables, matrices = ut.dataset_tables(
        confusion,
        all_predictions(fitted.files["predictions"]) if bootstrap else None,
        engine=w.engine,
        dataset=w.dataset,
        classes=p.classes,
        classifiers=fitted.classifiers,
        kappa_vectors=p.kappa_vectors,
        kappa_grid=p.kappa_grid,
        settings=p.uncertainty,
        zero_division=p.zero_division,
    )
    for name, frame in tables.items():
        write_csv(frame, out["unc_table" if name == "table_csv" else f"unc_{name}"])
    draws = ut.explorer_draws(
        matrices,
        classifiers=fitted.classifiers,
        settings=p.uncertainty,
        zero_division=p.zero_division,
    )
    write_json(draws, out.unc_explorer)
    log.info(
        "uncertainty: %s, %d draws of %d classifiers -> %d intervals, %d pairwise rows",
        p.uncertainty["method"],
        len(matrices),
        len(fitted.classifiers),
        len(tables["intervals"]),
        len(tables["pairwise"]),
    )


def explorer(smk, log, matrices):
    """What the explorer page shows: matrices, exact histograms, win probabilities, draws."""
    p = smk.params
    drawn = json.loads(Path(smk.output.unc_explorer).read_text(encoding="utf-8"))
    data = explorer_data(
        matrices,
        p.classes,
        dataset=smk.wildcards.dataset,
        grid_values=p.kappa_grid,
        zero_division=p.zero_division,
        uncertainty=drawn,
    )
    write_explorer_data(data, smk.output.explorer)
    log.info("explorer data: %d classifiers", len(matrices))


def all_predictions(paths):
    """The predictions of every classifier (one file each) in one frame."""
    return pd.concat([read_predictions(path) for path in paths], ignore_index=True)


def fold_values(smk, paths, scheme):
    """The predictions of ``paths`` and the measures of each of their folds."""
    pred = all_predictions(paths)
    check_paired_folds(pred)
    values = fold_measure_values(
        pred,
        classes=smk.params.classes,
        kappa_vectors=smk.params.kappa_vectors,
        zero_division=smk.params.zero_division,
        scheme=scheme,
    )
    return pred, values


def within(smk, log, fitted):
    """Corrected resampled t-test, McNemar and the 5x2cv tests of every pair of classifiers."""
    p, out = smk.params, smk.output
    files = fitted.files
    cv_pred, cv_values = fold_values(smk, files["predictions"], "cv")
    cv5x2 = fold_values(smk, files["cv5x2"], "cv5x2")[1] if files["cv5x2"] else None
    pairwise = compare_within_dataset(
        cv_values,
        alpha=p.alpha,
        cv_predictions=cv_pred,
        cv5x2_values=cv5x2,
        classifiers=fitted.classifiers,
        mcnemar_exact_below=p.mcnemar_exact_below,
    )
    table = significance_table(pairwise)
    write_csv(cv_values if cv5x2 is None else pd.concat([cv_values, cv5x2]), out.stats_folds)
    write_csv(pairwise, out.stats_pairwise)
    write_csv(table, out.stats_significance)
    write_text(significance_markdown(table, alpha=p.alpha), out.stats_markdown)
    log.info(
        "%d pairwise tests, %d significant after Holm",
        len(pairwise),
        int(pairwise["significant"].sum()),
    )


def fitted_classifiers(smk, log):
    """The classifiers whose fits finished (in config order) and their files (each of
    ``params.files``' lists cut to them)."""
    p = smk.params
    classifiers = finished(smk.input.fits, p.classifiers)
    left_out = [name for name in p.classifiers if name not in classifiers]
    if left_out:
        log.warning("left out, their fits failed: %s (see fits.csv)", ", ".join(left_out))
    files = {name: finished_files(paths, classifiers) for name, paths in p.files.items()}
    return SimpleNamespace(classifiers=classifiers, files=files)


def no_results(smk, log):
    """The outputs of a dataset on which no classifier of the engine finished its fit:
    every table with its columns and no rows (the rows without a class still among the
    warnings), the Markdown and the explorer's data saying why."""
    w, out = smk.wildcards, smk.output
    why = (
        f"No classifier of engine {w.engine} finished its fit on {w.dataset} (the reasons are "
        f"in {fits_path(smk.input.fits)}): nothing to analyse."
    )
    log.warning(why)
    columns = {
        "measures": MEASURE_COLUMNS,
        "ranking_csv": RANKING_COLUMNS,
        "exact_summary": et.SUMMARY_COLUMNS,
        "exact_cdf": et.CDF_COLUMNS,
        "exact_histogram": et.HISTOGRAM_COLUMNS,
        "exact_win": et.WIN_COLUMNS,
        "exact_share": et.SHARE_COLUMNS,
        "exact_robustness": et.ROBUSTNESS_COLUMNS,
        "grid_histogram": GRID_HISTOGRAM_COLUMNS,
        "grid_summary": GRID_SUMMARY_COLUMNS,
        "unc_intervals": us.INTERVAL_COLUMNS,
        "unc_pairwise": us.PROBABILITY_COLUMNS,
        "unc_ranks": us.RANK_PROBABILITY_COLUMNS,
        "unc_within": us.WITHIN_COLUMNS,
        "unc_posterior": us.POSTERIOR_COLUMNS,
        "unc_table": us.COMPANION_COLUMNS,
        "stats_folds": FOLD_COLUMNS,
        "stats_pairwise": PAIRWISE_COLUMNS,
    }
    for name, names in columns.items():
        write_csv(pd.DataFrame(columns=list(names)), out[name])
    write_csv(missing_class_rows(smk), out.warnings)
    write_csv(
        significance_table(pd.DataFrame(columns=list(PAIRWISE_COLUMNS))), out.stats_significance
    )
    write_text(f"# Ranking table: {w.dataset} (engine {w.engine})\n\n{why}\n", out.ranking_md)
    write_text(f"# Significance of classifier differences\n\n{why}\n", out.stats_markdown)
    note = {"engine": w.engine, "dataset": w.dataset, "classifiers": [], "note": why}
    write_json(note, out.unc_explorer)
    write_json(note, out.explorer)


class Files(dict):
    """Named files, read as attributes or items, as Snakemake's input and output lists."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class EngineLog(logging.LoggerAdapter):
    """The job's log, each message headed by the engine it is about."""

    def process(self, msg, kwargs):
        return f"{self.extra['engine']}: {msg}", kwargs


def engine_jobs(smk):
    """The job's share of each engine of the run, in run order, as the job of one engine
    and dataset: its wildcards, its fitting folders, its outputs (the i-th file of each named
    output list is the i-th engine's), and the params of that engine."""
    params = {name: smk.params[name] for name in smk.params.keys()}
    for i, engine in enumerate(smk.params.engines):
        inputs = Files(
            {name: smk.input[name][i] for name in ("fits", "cv5x2") if name in smk.input.keys()}
        )
        if "about" in smk.input.keys():
            inputs["about"] = smk.input.about
        yield SimpleNamespace(
            wildcards=SimpleNamespace(engine=engine, dataset=smk.wildcards.dataset),
            input=inputs,
            output=Files({name: smk.output[name][i] for name in smk.output.keys()}),
            params=SimpleNamespace(
                **{
                    **params,
                    "files": params["files"][engine],
                    "classifiers": params["classifiers"][engine],
                }
            ),
            threads=smk.threads,
        )


def main(smk, log) -> None:
    for job in engine_jobs(smk):
        analyse_engine(job, EngineLog(log, {"engine": job.wildcards.engine}))


def analyse_engine(smk, log) -> None:
    """Every table of one engine and dataset (``smk``: :func:`engine_jobs`)."""
    dataset = smk.wildcards.dataset
    fitted = fitted_classifiers(smk, log)
    if not fitted.classifiers:
        no_results(smk, log)
        return
    confusion = read_long(fitted.files["confusion"])
    pooled = pooled_matrices(confusion, {dataset: smk.params.classes})
    matrices = {classifier: cm for (_, _, classifier), cm in pooled.items()}
    # Four independent branches, on the job's threads (one: in the module docstring's
    # order). Costs are the branches' CPU seconds on krkopt (weka engine, the largest of the
    # papers' datasets).
    run_parallel(
        [
            (
                0.5,
                [
                    partial(measures, smk, log, pooled),
                    partial(rankings, smk, log, fitted),
                    partial(grid, smk, log, pooled),
                ],
            ),
            (2.5, [partial(exact, smk, log, matrices)]),
            (
                3.4,
                [
                    partial(uncertainty, smk, log, fitted, confusion),
                    partial(explorer, smk, log, matrices),
                ],
            ),
            (4.3, [partial(within, smk, log, fitted)]),
        ],
        processes=smk.threads,
        logger=log,
    )


if __name__ == "__main__":
    run_script(main, snakemake)  # noqa: F821
