# Module reproduction (DAG step 8): every published number against its reproduction, per engine
# (pdmeasure.paper.reproduction), and a short Markdown summary with the counts per status.


rule reproduction:
    input:
        paper=[results_path("paper", f"{name}.csv") for name in PAPER_TABLE_NAMES],
        measures=results_path("measures.csv"),
        confusion=results_path("confusion_matrices.csv"),
        rankings=per_dataset_engine("tables/table_{dataset}_{engine}.csv"),
    output:
        reported(
            results_path("reproduction.csv"),
            "reproduction",
            "Paper reproduction",
            "Published vs reproduced",
            format="CSV, one row per number",
        ),
    log:
        "logs/reproduction/reproduction.log",
    benchmark:
        benchmark_path("reproduction/reproduction.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        config=reproduction_params(),
    script:
        "../scripts/reproduction.py"


rule reproduction_summary:
    input:
        results_path("reproduction.csv"),
    output:
        reported(
            results_path("reproduction.md"),
            "reproduction_summary",
            "Paper reproduction",
            "Published vs reproduced",
            format="Markdown summary",
        ),
    log:
        "logs/reproduction/reproduction_summary.log",
    benchmark:
        benchmark_path("reproduction/reproduction_summary.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    script:
        "../scripts/reproduction_summary.py"
