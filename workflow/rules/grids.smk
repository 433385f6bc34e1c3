# Module grids (step 5): pd over each dataset's full kappa product grid (paper 000, Section
# 5.1), streamed in chunks -> histogram counts and summary statistics; Figure 7 per engine,
# rendered from the histogram CSVs only.


rule kappa_grid:
    input:
        confusion=lambda wc: expand(
            "{results}/cv/{engine}/{dataset}/{classifier}/confusion.csv",
            results=config["results"],
            engine=wc.engine,
            dataset=wc.dataset,
            classifier=list(config["classifiers"][wc.engine]),
        ),
    output:
        histogram=f"{config['results']}/grids/{{engine}}/{{dataset}}/histogram.csv",
        summary=f"{config['results']}/grids/{{engine}}/{{dataset}}/summary.csv",
    params:
        bin_width=config["histogram"]["bin_width"],
        chunk_size=config["histogram"]["chunk_size"],
        zero_division=config.get("zero_division", 0.0),
    wildcard_constraints:
        engine="|".join(config["engines"]),
        dataset="|".join(config["datasets"]),
    log:
        "logs/grids/{engine}/{dataset}.log",
    benchmark:
        f"{config['results']}/benchmarks/grids/{{engine}}/{{dataset}}.tsv"
    script:
        "../scripts/kappa_grid_hist.py"


rule figure7:
    input:
        expand(
            "{results}/grids/{{engine}}/{dataset}/histogram.csv",
            results=config["results"],
            dataset=list(config["datasets"]),
        ),
    output:
        figure=f"{config['results']}/figures/figure7_{{engine}}.png",
    params:
        classifiers=lambda wc: list(config["classifiers"][wc.engine]),
    wildcard_constraints:
        engine="|".join(config["engines"]),
    log:
        "logs/figures/figure7_{engine}.log",
    script:
        "../scripts/render_figure7.py"


GRIDS_TARGETS = expand(
    "{results}/grids/{engine}/{dataset}/{name}.csv",
    results=config["results"],
    engine=config["engines"],
    dataset=list(config["datasets"]),
    name=["histogram", "summary"],
) + expand(
    "{results}/figures/figure7_{engine}.png",
    results=config["results"],
    engine=config["engines"],
)
