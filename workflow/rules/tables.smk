# Module tables (step 6): ranking tables in the layout of paper 000, Tables 6-9 (classifiers as
# columns, "value (rank)" cells, ties share the best rank), as CSV and Markdown.


rule ranking_table:
    input:
        measures=f"{config['results']}/measures.csv",
    output:
        csv=f"{config['results']}/tables/table_{{dataset}}_{{engine}}.csv",
        md=f"{config['results']}/tables/table_{{dataset}}_{{engine}}.md",
    params:
        classifiers=lambda wc: list(config["classifiers"][wc.engine]),
    wildcard_constraints:
        engine="|".join(config["engines"]),
        dataset="|".join(config["datasets"]),
    log:
        "logs/tables/table_{dataset}_{engine}.log",
    script:
        "../scripts/ranking_tables.py"


TABLES_TARGETS = expand(
    "{results}/tables/table_{dataset}_{engine}.{ext}",
    results=config["results"],
    dataset=list(config["datasets"]),
    engine=config["engines"],
    ext=["csv", "md"],
)
