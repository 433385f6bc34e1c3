# Module uncertainty: every number with its uncertainty (config block `uncertainty`).
#   per engine and dataset (rule uncertainty, from the CV's pooled matrices, or its predictions
#     for method bootstrap, and its per-fold matrices): intervals of every measure and pd
#     vector, pairwise and rank probabilities, the correlated Bayesian t-test on the folds, the
#     pairwise posteriors -> uncertainty/{engine}/{dataset}/; the companion of each ranking
#     table -> tables/table_{dataset}_{engine}_ci.csv; the draws the explorer page shows
#     (explorer.json);
#   rendered from those tables (rule uncertainty_figures): the companion in Markdown
#     (tables/table_{dataset}_{engine}_ci.md), the forest and posterior figures;
#   across datasets (rule uncertainty_across, from measures.csv): the Bayesian signed-rank
#     test of every pair -> uncertainty/across_signed_rank.csv, summarised in stats/report.md.


rule uncertainty:
    input:
        confusion=engine_confusion_files,
        predictions=uncertainty_prediction_files,
    output:
        intervals=engine_report(
            "uncertainty/{engine}/{dataset}/intervals.csv",
            "uncertainty_intervals",
            "Uncertainty",
            table="intervals",
        ),
        pairwise=engine_report(
            "uncertainty/{engine}/{dataset}/pairwise.csv",
            "uncertainty_pairwise",
            "Uncertainty",
            table="pairwise probabilities",
        ),
        ranks=engine_report(
            "uncertainty/{engine}/{dataset}/ranks.csv",
            "uncertainty_ranks",
            "Uncertainty",
            table="rank probabilities",
        ),
        within=engine_report(
            "uncertainty/{engine}/{dataset}/within.csv",
            "uncertainty_within",
            "Uncertainty",
            table="correlated t-tests (folds)",
        ),
        posterior=engine_report(
            "uncertainty/{engine}/{dataset}/posterior.csv",
            "uncertainty_posterior",
            "Uncertainty",
            table="pairwise posteriors",
        ),
        # Not in the report: the draws embedded in the reported explorer page.
        explorer=results_path("uncertainty/{engine}/{dataset}/explorer.json"),
        table_csv=engine_report(
            "tables/table_{dataset}_{engine}_ci.csv",
            "uncertainty_table",
            "Uncertainty",
            table="ranking table with intervals (CSV)",
        ),
    log:
        "logs/uncertainty/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("uncertainty/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=1024, runtime=10),
    params:
        settings=dict(RUN["uncertainty"]),
        classes=dataset_classes,
        classifiers=engine_classifiers,
        kappa_vectors=dataset_kappa_vectors,
        kappa_grid=dataset_kappa_grid,
        zero_division=RUN["zero_division"],
    script:
        "../scripts/uncertainty.py"


rule uncertainty_figures:
    input:
        intervals=results_path("uncertainty/{engine}/{dataset}/intervals.csv"),
        posterior=results_path("uncertainty/{engine}/{dataset}/posterior.csv"),
        table_csv=results_path("tables/table_{dataset}_{engine}_ci.csv"),
    output:
        table_md=engine_report(
            "tables/table_{dataset}_{engine}_ci.md",
            "uncertainty_table",
            "Uncertainty",
            table="ranking table with intervals (Markdown)",
        ),
        forest=engine_report(
            "figures/uncertainty/{engine}/{dataset}_forest.png",
            "uncertainty_forest",
            "Uncertainty",
            table="interval (forest) plot",
        ),
        posterior_figure=engine_report(
            "figures/uncertainty/{engine}/{dataset}_posterior.png",
            "uncertainty_posterior_figure",
            "Uncertainty",
            table="pairwise posterior plot",
        ),
    log:
        "logs/uncertainty_figures/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("uncertainty_figures/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        classifiers=engine_classifiers,
        kappa_vectors=dataset_kappa_vectors,
    script:
        "../scripts/uncertainty_figures.py"


rule uncertainty_across:
    input:
        measures=results_path("measures.csv"),
    output:
        table=reported(
            results_path("uncertainty/across_signed_rank.csv"),
            "uncertainty_across",
            "Uncertainty",
            "Across datasets",
            table="Bayesian signed-rank tests",
        ),
    log:
        "logs/uncertainty/across.log",
    benchmark:
        benchmark_path("uncertainty/across.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        comparisons=comparison_keys(all_kappa_vectors()),
        classifiers=all_classifiers(),
        rope=RUN["uncertainty"]["rope"],
        seed=RUN["uncertainty"]["seed"],
    script:
        "../scripts/uncertainty_across.py"
