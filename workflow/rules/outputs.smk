# The outputs of the rules, each wrapped for the report with its caption; the rule files
# call these (needs common.smk).


# Report: `snakemake --report report.html` (or report.zip) collects every output wrapped in
# reported(...); the captions are workflow/report/<caption>.rst.
def reported(path, caption, category, subcategory=None, **labels):
    """`path` marked for the Snakemake report, captioned by workflow/report/<caption>.rst.

    category and subcategory group the results in the report's menu; labels (name -> text)
    are the columns of a subcategory's result table, so the results of one subcategory share
    the same label names and differ in at least one value. Wildcards in braces, e.g.
    subcategory="{engine}" or dataset="{dataset}", are filled in per job.
    """
    return report(
        path,
        # Relative to the rule file that calls this (workflow/rules/), like any rule path.
        caption=f"../report/{caption}.rst",
        category=category,
        subcategory=subcategory,
        labels=labels or None,
    )


def engine_report(
    path, caption, category, dataset="{dataset}", engine="{engine}", **labels
):
    """reported(...) of the output `path` (under the results folder) of `engine` (by default
    the job's {engine}) and {dataset}: in the subcategory of its engine, labelled by its
    dataset ("all datasets" for a job per engine), then `labels`."""
    return reported(
        results_path(path.replace("{engine}", engine)),
        caption,
        category,
        engine,
        dataset=dataset,
        **labels,
    )


def cv_outputs():
    """The outputs of rule cross_validate for {engine}/{dataset}, the folder of its
    classifiers' predictions and matrices of the k-fold CV (each confusion.csv in the
    report), and with `stats.cv5x2` the folder of their 5 x 2-fold CV predictions.

    The per-sample predictions stay out of the report: one row per sample and fold of every
    classifier (tens of MB over a full run, base64-inflated in a self-contained HTML report),
    summarised by the reported confusion matrices and statistics; the 5 x 2-fold ones are
    gzipped (91 MB of CSV -> 6 MB over the papers' run).
    """
    outputs = {
        "fits": report(
            directory(cv_folder()),
            patterns=["{classifier}/confusion.csv"],
            caption="../report/cv_confusion.rst",
            category="Cross-validation",
            subcategory="{engine}",
            labels={"dataset": "{dataset}", "classifier": "{classifier}"},
        ),
    }
    if RUN["stats"]["cv5x2"]:
        outputs["cv5x2"] = directory(cv5x2_folder())
    return outputs


def analyse_outputs():
    """The outputs of rule analyse for {dataset}, by name, each a list with one file per
    engine of the run, in run order (:func:`analyse_engine_outputs`)."""
    files = [analyse_engine_outputs(engine) for engine in engines()]
    return {name: [outputs[name] for outputs in files] for name in files[0]}


def analyse_engine_outputs(engine):
    """The outputs of rule analyse for `engine` and {dataset}, by name.

    Not in the report: the measures and warnings parts (the rows of the reported
    measures.csv and warnings.csv of rule collect), the exact analysis's tables (summary, win,
    share and robustness are the rows of the collected tables; cdf and histogram, about 1 MB
    per engine and dataset, are drawn by the reported figures), and the JSON the explorer
    page embeds.
    """
    return {
        "measures": results_path(f"measures/{engine}/{{dataset}}.csv"),
        "warnings": results_path(f"warnings/{engine}/{{dataset}}.csv"),
        "ranking_csv": engine_report(
            "tables/table_{dataset}_{engine}.csv",
            "ranking_table",
            "Rankings",
            format="CSV",
            engine=engine,
        ),
        "ranking_md": engine_report(
            "tables/table_{dataset}_{engine}.md",
            "ranking_table",
            "Rankings",
            format="Markdown",
            engine=engine,
        ),
        **{
            f"exact_{name}": results_path(f"exact/{engine}/{{dataset}}/{name}.csv")
            for name in EXACT_TABLES
        },
        # pd over the dataset's kappa grid (Figure 7's data); without rows for `kappa_grid:
        # null`, whose dataset has no grid (rule render_figure7 reads only grid_datasets()).
        "grid_histogram": engine_report(
            "grids/{engine}/{dataset}/histogram.csv",
            "grid_histogram",
            "Kappa grids",
            output="histogram",
            engine=engine,
        ),
        "grid_summary": engine_report(
            "grids/{engine}/{dataset}/summary.csv",
            "grid_summary",
            "Kappa grids",
            output="summary",
            engine=engine,
        ),
        **{
            f"unc_{name}": engine_report(
                f"uncertainty/{{engine}}/{{dataset}}/{name}.csv",
                f"uncertainty_{name}",
                "Uncertainty",
                table=table,
                engine=engine,
            )
            for name, table in (
                ("intervals", "intervals"),
                ("pairwise", "pairwise probabilities"),
                ("ranks", "rank probabilities"),
                ("within", "correlated t-tests (folds)"),
                ("posterior", "pairwise posteriors"),
            )
        },
        "unc_explorer": results_path(f"uncertainty/{engine}/{{dataset}}/explorer.json"),
        "unc_table": engine_report(
            "tables/table_{dataset}_{engine}_ci.csv",
            "uncertainty_table",
            "Uncertainty",
            table="ranking table with intervals (CSV)",
            engine=engine,
        ),
        "explorer": results_path(f"explorer/{engine}/{{dataset}}.json"),
        "stats_folds": engine_report(
            "stats/{engine}/{dataset}/fold_measures.csv",
            "stats_fold_measures",
            "Statistics",
            table="fold measures",
            format="CSV",
            engine=engine,
        ),
        "stats_pairwise": engine_report(
            "stats/{engine}/{dataset}/pairwise.csv",
            "stats_pairwise",
            "Statistics",
            table="pairwise tests",
            format="CSV",
            engine=engine,
        ),
        "stats_significance": engine_report(
            "stats/{engine}/{dataset}/significance.csv",
            "stats_significance",
            "Statistics",
            table="significance",
            format="CSV",
            engine=engine,
        ),
        "stats_markdown": engine_report(
            "stats/{engine}/{dataset}/significance.md",
            "stats_significance",
            "Statistics",
            table="significance",
            format="Markdown",
            engine=engine,
        ),
    }


def render_outputs():
    """The outputs of render for {engine}, by name, each a list with one file per dataset of
    the run, in run order (the exact analysis's figures, the ranking table with intervals in
    Markdown and its figures, the explorer page); each labelled by its dataset in the
    report."""
    files = {
        **{
            f"exact_{name}": (
                f"exact/figures/{{engine}}/{{dataset}}_{name}.png",
                f"exact_figure_{name}",
                "Exact analysis",
                {"figure": name},
            )
            for name in EXACT_FIGURES
        },
        "table_md": (
            "tables/table_{dataset}_{engine}_ci.md",
            "uncertainty_table",
            "Uncertainty",
            {"table": "ranking table with intervals (Markdown)"},
        ),
        "forest": (
            "figures/uncertainty/{engine}/{dataset}_forest.png",
            "uncertainty_forest",
            "Uncertainty",
            {"table": "interval (forest) plot"},
        ),
        "posterior_figure": (
            "figures/uncertainty/{engine}/{dataset}_posterior.png",
            "uncertainty_posterior_figure",
            "Uncertainty",
            {"table": "pairwise posterior plot"},
        ),
        "html": (
            "explorer/{engine}/{dataset}.html",
            "explorer",
            "Exact analysis",
            {"figure": "kappa explorer (HTML)"},
        ),
    }
    if not dataset_figures():
        # Without figures (`render.dataset_figures`): the Markdown table and explorer page.
        files = {name: files[name] for name in ("table_md", "html")}
    return {
        name: [
            engine_report(
                expand(path, dataset=dataset, allow_missing=True)[0],
                caption,
                category,
                dataset=dataset,
                **labels,
            )
            for dataset in datasets()
        ]
        for name, (path, caption, category, labels) in files.items()
    }


def render_inputs():
    """The inputs of render for {engine}, by name, each a list with one file per dataset of
    the run, in run order: the tables of rule analyse that it draws."""
    files = {
        **{name: f"exact/{{engine}}/{{dataset}}/{name}.csv" for name in EXACT_FIGURES},
        "intervals": "uncertainty/{engine}/{dataset}/intervals.csv",
        "posterior": "uncertainty/{engine}/{dataset}/posterior.csv",
        "table_csv": "tables/table_{dataset}_{engine}_ci.csv",
        "explorer": "explorer/{engine}/{dataset}.json",
    }
    if not dataset_figures():
        # Without figures: the Markdown table and the explorer page (and the intervals that
        # tell whether the dataset has results).
        files = {name: files[name] for name in ("intervals", "table_csv", "explorer")}
    return {
        name: expand(results_path(path), dataset=datasets(), allow_missing=True)
        for name, path in files.items()
    }


def collect_inputs():
    """What collect gathers (every CV matrix, the measures, warnings and exact-analysis
    parts of every engine and dataset, and for a run that touches the papers their example
    tables and the ranking tables, for the comparison with the printed numbers)."""
    inputs = {
        "fits": cv_folders(),
        "measures": per_engine_dataset("measures/{engine}/{dataset}.csv"),
        "warnings": per_engine_dataset("warnings/{engine}/{dataset}.csv"),
        **{
            f"exact_{name}": per_engine_dataset(
                f"exact/{{engine}}/{{dataset}}/{name}.csv"
            )
            for name in EXACT_COLLECTED
        },
    }
    if paper_run():
        inputs["paper"] = [
            results_path("paper", f"{name}.csv") for name in PAPER_TABLE_NAMES
        ]
        inputs["rankings"] = per_dataset_engine("tables/table_{dataset}_{engine}.csv")
    return inputs


def signed_rank_output():
    """The output of rule signed_rank, in the report."""
    return reported(
        results_path("uncertainty/across_signed_rank.csv"),
        "uncertainty_across",
        "Uncertainty",
        "Across datasets",
        table="Bayesian signed-rank tests",
    )


def collect_outputs():
    """The outputs of rule collect, by name, each in the report."""
    outputs = {
        "confusion": reported(
            results_path("confusion_matrices.csv"),
            "confusion_matrices",
            "Cross-validation",
            "All engines",
        ),
        "measures": reported(
            results_path("measures.csv"), "measures", "Measures", table="measures"
        ),
        "warnings": reported(
            results_path("warnings.csv"), "warnings", "Measures", table="warnings"
        ),
        **{
            f"exact_{name}": reported(
                results_path("exact", file),
                f"exact_{name}",
                "Exact analysis",
                "All engines and datasets",
                table=name,
            )
            for name, file in EXACT_COLLECTED.items()
        },
        "exact_robustness_summary": reported(
            results_path("exact/robustness_summary.csv"),
            "exact_robustness_summary",
            "Exact analysis",
            "All engines and datasets",
            table="robustness summary",
        ),
        **{
            f"across_{name}": reported(
                results_path(path),
                caption,
                "Statistics",
                "Across datasets",
                table=table,
            )
            for name, (path, caption, table) in STATS_ACROSS.items()
        },
        "effect_sizes": reported(
            results_path("stats/effect_sizes.csv"),
            "stats_effect_sizes",
            "Statistics",
            "Across datasets",
            table="effect sizes",
        ),
    }
    if paper_run():
        outputs["reproduction"] = reported(
            results_path("reproduction.csv"),
            "reproduction",
            "Paper reproduction",
            "Published vs reproduced",
            format="CSV, one row per number",
        )
    return outputs


def reproduction_table_input():
    """reproduction.csv as an input of rule render_summary (runs that touch the papers)."""
    return [results_path("reproduction.csv")] if paper_run() else []


def result_matrix_outputs():
    """The outputs of rule result_matrix for {engine}, the tidy matrix and its (v/ /*)
    counts (CSV), and the matrices as Markdown (a page of the report) and LaTeX."""
    formats = {
        "csv": ("stats/{engine}/result_matrix.csv", "CSV"),
        "counts": ("stats/{engine}/result_counts.csv", "CSV, (v/ /*) counts"),
        "markdown": ("stats/{engine}/result_matrix.md", "Markdown"),
        "latex": ("stats/{engine}/result_matrix.tex", "LaTeX"),
    }
    return {
        name: reported(
            results_path(path),
            "result_matrix",
            "Statistics",
            "Result matrix",
            engine="{engine}",
            format=label,
        )
        for name, (path, label) in formats.items()
    }


def render_summary_outputs():
    """The outputs of the render_summary rule, by name: the statistics report,
    and for a run that touches the papers the reproduction summary."""
    outputs = {
        "report": reported(
            results_path("stats/report.md"), "stats_report", "Statistics", "Report"
        ),
    }
    if paper_run():
        outputs["reproduction"] = reported(
            results_path("reproduction.md"),
            "reproduction_summary",
            "Paper reproduction",
            "Published vs reproduced",
            format="Markdown summary",
        )
    return outputs


def figure7_outputs():
    """The outputs of render_figure7 for {engine} (Figure 7 over the configured grids,
    when some dataset has one, and over the fine grid)."""
    outputs = {}
    if grid_datasets():
        outputs["grid"] = engine_report(
            "figures/figure7_{engine}.png",
            "figure7",
            "Kappa grids",
            dataset="all datasets",
            output="Figure 7",
        )
    outputs["fine"] = engine_report(
        "exact/figures/figure7_fine_{engine}.png",
        "exact_figure7",
        "Exact analysis",
        dataset="all datasets",
        figure="Figure 7 (fine grid)",
    )
    return outputs
