# Module tables (DAG step 6): ranking tables in the layout of paper 000, Tables 6-9
# (classifiers as columns, "value (rank)" cells, ties share the best rank), CSV and Markdown.


rule ranking_table:
    input:
        measures=results_path("measures/{engine}/{dataset}.csv"),
    output:
        csv=reported(
            results_path("tables/table_{dataset}_{engine}.csv"),
            "ranking_table",
            "Rankings",
            "{engine}",
            dataset="{dataset}",
            format="CSV",
        ),
        md=reported(
            results_path("tables/table_{dataset}_{engine}.md"),
            "ranking_table",
            "Rankings",
            "{engine}",
            dataset="{dataset}",
            format="Markdown",
        ),
    params:
        classifiers=engine_classifiers,
        kappa_vectors=dataset_kappa_vectors,
    log:
        "logs/tables/table_{dataset}_{engine}.log",
    conda:
        CONDA_ENV
    script:
        "../scripts/ranking_tables.py"


TABLES_TARGETS = [
    results_path("tables", f"table_{dataset}_{engine}.{ext}")
    for dataset in DATASETS
    for engine in ENGINES
    for ext in ("csv", "md")
]
