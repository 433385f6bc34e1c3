# Module exact: exact analysis of the whole kappa space per engine and dataset
# (distributions, win probabilities, best-classifier shares, ranking robustness by LP), the
# figures rendered from its CSVs, and Figure 7 over the fine kappa grid.

EXACT_TABLES = ["summary", "cdf", "histogram", "win", "share", "robustness"]
EXACT_FIGURES = ["win", "cdf", "share"]
EXACT_COLLECTED = {
    "win": "win_probabilities.csv",
    "share": "best_shares.csv",
    "robustness": "robustness.csv",
    "summary": "summary.csv",
}


rule exact_analysis:
    input:
        confusion=engine_confusion_files,
    output:
        # Not in the report: summary, win, share and robustness are the rows of the reported
        # tables of rule exact_collect; cdf and histogram (about 1 MB per engine and dataset)
        # are drawn by the reported figures.
        **{
            name: results_path(f"exact/{{engine}}/{{dataset}}/{name}.csv")
            for name in EXACT_TABLES
        },
    log:
        "logs/exact/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("exact/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=1024, runtime=10),
    params:
        classes=dataset_classes,
        kappa_grid=dataset_kappa_grid,
        settings=exact_settings(),
    script:
        "../scripts/exact_analysis.py"


rule exact_figures:
    input:
        **{
            name: results_path(f"exact/{{engine}}/{{dataset}}/{name}.csv")
            for name in EXACT_FIGURES
        },
    output:
        **{
            name: engine_report(
                f"exact/figures/{{engine}}/{{dataset}}_{name}.png",
                f"exact_figure_{name}",
                "Exact analysis",
                figure=name,
            )
            for name in EXACT_FIGURES
        },
    log:
        "logs/exact/figures/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("exact/figures/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    script:
        "../scripts/exact_figures.py"


rule exact_figure7:
    input:
        expand(
            results_path("exact/{engine}/{dataset}/histogram.csv"),
            dataset=datasets(),
            allow_missing=True,
        ),
    output:
        figure=engine_report(
            "exact/figures/figure7_fine_{engine}.png",
            "exact_figure7",
            "Exact analysis",
            dataset="all datasets",
            figure="Figure 7 (fine grid)",
        ),
    log:
        "logs/exact/figures/figure7_fine_{engine}.log",
    benchmark:
        benchmark_path("exact/figures/figure7_fine_{engine}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        classifiers=engine_classifiers,
        values=RUN["exact"]["fine_grid_values"],
    script:
        "../scripts/exact_figure7.py"


rule exact_collect:
    input:
        **{
            name: per_engine_dataset(f"exact/{{engine}}/{{dataset}}/{name}.csv")
            for name in EXACT_COLLECTED
        },
    output:
        **{
            name: reported(
                results_path("exact", file),
                f"exact_{name}",
                "Exact analysis",
                "All engines and datasets",
                table=name,
            )
            for name, file in EXACT_COLLECTED.items()
        },
        robustness_summary=reported(
            results_path("exact/robustness_summary.csv"),
            "exact_robustness_summary",
            "Exact analysis",
            "All engines and datasets",
            table="robustness summary",
        ),
    log:
        "logs/exact/collect.log",
    benchmark:
        benchmark_path("exact/collect.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    script:
        "../scripts/exact_collect.py"
