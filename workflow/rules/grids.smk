# Module grids (DAG step 5): pd over each dataset's full kappa product grid (paper 000,
# Section 5.1), streamed in chunks -> histogram counts and summary statistics per engine and
# dataset; Figure 7 per engine, rendered from the histogram files only.


rule kappa_grid:
    input:
        # Per-classifier confusion files of {engine} on {dataset}, in configured order.
        confusion=lambda wildcards: [
            results_path("cv", wildcards.engine, wildcards.dataset, classifier, "confusion.csv")
            for classifier in config["classifiers"][wildcards.engine]
        ],
    output:
        histogram=results_path("grids/{engine}/{dataset}/histogram.csv"),
        summary=results_path("grids/{engine}/{dataset}/summary.csv"),
    params:
        bin_width=config["histogram"]["bin_width"],
        chunk_size=config["histogram"]["chunk_size"],
        zero_division=config["zero_division"],
    log:
        "logs/grids/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("grids/{engine}/{dataset}.tsv")
    conda:
        CONDA_ENV
    script:
        "../scripts/kappa_grid_hist.py"


rule figure7:
    input:
        [results_path("grids", "{engine}", dataset, "histogram.csv") for dataset in DATASETS],
    output:
        figure=results_path("figures/figure7_{engine}.png"),
    params:
        classifiers=lambda wildcards: list(config["classifiers"][wildcards.engine]),
    log:
        "logs/figures/figure7_{engine}.log",
    conda:
        CONDA_ENV
    script:
        "../scripts/render_figure7.py"


GRIDS_TARGETS = [
    results_path("grids", engine, dataset, f"{name}.csv")
    for engine in ENGINES
    for dataset in DATASETS
    for name in ("histogram", "summary")
] + [results_path("figures", f"figure7_{engine}.png") for engine in ENGINES]
