# Module tables (DAG step 6): ranking tables in the layout of paper 000, Tables 6-9
# (classifiers as columns, "value (rank)" cells, ties share the best rank), CSV and Markdown.


rule ranking_table:
    input:
        measures=results_path("measures/{engine}/{dataset}.csv"),
    output:
        csv=engine_report(
            "tables/table_{dataset}_{engine}.csv",
            "ranking_table",
            "Rankings",
            format="CSV",
        ),
        md=engine_report(
            "tables/table_{dataset}_{engine}.md",
            "ranking_table",
            "Rankings",
            format="Markdown",
        ),
    log:
        "logs/tables/table_{dataset}_{engine}.log",
    benchmark:
        benchmark_path("tables/table_{dataset}_{engine}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        classifiers=engine_classifiers,
        kappa_vectors=dataset_kappa_vectors,
    script:
        "../scripts/ranking_table.py"
