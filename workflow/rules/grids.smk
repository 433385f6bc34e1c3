# Module grids (DAG step 5): pd over each dataset's full kappa product grid (paper 000,
# Section 5.1), streamed in chunks -> histogram counts and summary statistics per engine and
# dataset; Figure 7 per engine, rendered from the histogram files only.


rule kappa_grid:
    input:
        confusion=engine_confusion_files,
    output:
        histogram=reported(
            results_path("grids/{engine}/{dataset}/histogram.csv"),
            "grid_histogram",
            "Kappa grids",
            "{engine}",
            dataset="{dataset}",
            output="histogram",
        ),
        summary=reported(
            results_path("grids/{engine}/{dataset}/summary.csv"),
            "grid_summary",
            "Kappa grids",
            "{engine}",
            dataset="{dataset}",
            output="summary",
        ),
    params:
        classes=dataset_classes,
        kappa_grid=dataset_kappa_grid,
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
        [results_path("grids", "{engine}", dataset, "histogram.csv") for dataset in GRID_DATASETS],
    output:
        figure=reported(
            results_path("figures/figure7_{engine}.png"),
            "figure7",
            "Kappa grids",
            "{engine}",
            dataset="all datasets",
            output="Figure 7",
        ),
    params:
        classifiers=engine_classifiers,
    log:
        "logs/figures/figure7_{engine}.log",
    conda:
        CONDA_ENV
    script:
        "../scripts/render_figure7.py"


GRIDS_TARGETS = [
    results_path("grids", engine, dataset, f"{name}.csv")
    for engine in ENGINES
    for dataset in GRID_DATASETS
    for name in ("histogram", "summary")
] + [results_path("figures", f"figure7_{engine}.png") for engine in ENGINES if GRID_DATASETS]
