# Final targets of `rule all`, one function per module of the workflow.


def data_targets():
    """Canonical tables of the run's datasets, and what was resolved about each."""
    return [
        results_path("data", f"{name}.{ext}")
        for name in datasets()
        for ext in ("csv", "json")
    ]


def cv_targets():
    """The folder of every fitting job (predictions and confusion matrices of each
    classifier), and the matrices' aggregate."""
    return [*cv_folders(), results_path("confusion_matrices.csv")]


def measures_targets():
    """The aggregated measures and warnings tables."""
    return [results_path("measures.csv"), results_path("warnings.csv")]


def grids_targets():
    """Kappa-grid histograms and summaries, and the grid Figure 7 per engine (unless
    `render.figure7` is off)."""
    return [
        results_path("grids", engine, dataset, f"{name}.csv")
        for engine in engines()
        for dataset in grid_datasets()
        for name in ("histogram", "summary")
    ] + [
        results_path("figures", f"figure7_{engine}.png")
        for engine in engines()
        if grid_datasets() and figure7_drawn()
    ]


def tables_targets():
    """Ranking tables (CSV and Markdown) per dataset and engine."""
    return per_dataset_engine(
        "tables/table_{dataset}_{engine}.{ext}", ext=["csv", "md"]
    )


def paper_run():
    """Whether the run touches the papers: some dataset of the run is one of the pd paper's
    (by name). A run of one's own datasets builds no paper tables and no reproduction.
    """
    return any(name in PD_DATASET_TABLES for name in datasets())


def paper_targets():
    """Paper tables and figures computed from the papers' own example matrices (runs that
    touch the papers only)."""
    if not paper_run():
        return []
    return [
        *[
            results_path("paper", f"{name}.{ext}")
            for name in PAPER_TABLE_NAMES
            for ext in ("csv", "md")
        ],
        *[
            results_path("paper", f"pd_figure{n}.{ext}")
            for n in PAPER_FIGURES
            for ext in ("csv", "png")
        ],
        results_path("paper", "pd_figure2_points.csv"),
        results_path("paper", "pd_surfaces.csv"),
    ]


def reproduction_targets():
    """Published-against-reproduced comparison and its summary (runs that touch the papers
    only)."""
    if not paper_run():
        return []
    return [results_path("reproduction.csv"), results_path("reproduction.md")]


def stats_targets():
    """Statistical comparison tables, CD diagrams and the statistics report."""
    return [
        results_path("stats/report.md"),
        results_path("stats/effect_sizes.csv"),
        *stats_across_files().values(),
        *expand(
            results_path("stats/{engine}/{name}"),
            engine=engines(),
            name=[
                "result_matrix.csv",
                "result_counts.csv",
                "result_matrix.md",
                "result_matrix.tex",
            ],
        ),
        *cd_figures(),
        *per_engine_dataset(
            "stats/{engine}/{dataset}/{name}",
            name=[
                "fold_measures.csv",
                "pairwise.csv",
                "significance.csv",
                "significance.md",
            ],
        ),
    ]


def exact_targets():
    """Exact kappa-space tables, their collected versions and figures (each dataset's
    unless `render.dataset_figures` is off, Figure 7 unless `render.figure7` is)."""
    tables = [results_path("exact", file) for file in EXACT_COLLECTED.values()]
    figures = per_engine_dataset(
        "exact/figures/{engine}/{dataset}_{name}.png", name=EXACT_FIGURES
    )
    figure7 = [
        results_path("exact", "figures", f"figure7_fine_{engine}.png")
        for engine in engines()
    ]
    return [
        *tables,
        results_path("exact/robustness_summary.csv"),
        *(figures if dataset_figures() else []),
        *(figure7 if figure7_drawn() else []),
    ]


def explorer_targets():
    """One interactive kappa explorer page per engine and dataset."""
    return per_engine_dataset("explorer/{engine}/{dataset}.html")


def uncertainty_targets():
    """Intervals, pairwise and rank probabilities, fold tests, posteriors, companion ranking
    tables and figures (unless `render.dataset_figures` is off) per engine and dataset, and
    the signed-rank tests across datasets."""
    per_job = per_engine_dataset(
        "uncertainty/{engine}/{dataset}/{name}",
        name=[
            "intervals.csv",
            "pairwise.csv",
            "ranks.csv",
            "within.csv",
            "posterior.csv",
            "explorer.json",
        ],
    )
    tables = per_dataset_engine(
        "tables/table_{dataset}_{engine}_ci.{ext}", ext=["csv", "md"]
    )
    figures = per_engine_dataset(
        "figures/uncertainty/{engine}/{dataset}_{name}.png",
        name=["forest", "posterior"],
    )
    return [
        *per_job,
        *tables,
        *(figures if dataset_figures() else []),
        results_path("uncertainty/across_signed_rank.csv"),
    ]
