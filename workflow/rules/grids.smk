# Module grids (DAG step 5): pd over each dataset's full kappa product grid (paper 000,
# Section 5.1), streamed in chunks -> histogram counts and summary statistics per engine and
# dataset; Figure 7 per engine, rendered from the histogram files only.


rule grid_histogram:
    input:
        confusion=engine_confusion_files,
    output:
        histogram=engine_report(
            "grids/{engine}/{dataset}/histogram.csv",
            "grid_histogram",
            "Kappa grids",
            output="histogram",
        ),
        summary=engine_report(
            "grids/{engine}/{dataset}/summary.csv",
            "grid_summary",
            "Kappa grids",
            output="summary",
        ),
    log:
        "logs/grids/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("grids/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        classes=dataset_classes,
        kappa_grid=dataset_kappa_grid,
        bin_width=RUN["histogram"]["bin_width"],
        chunk_size=RUN["histogram"]["chunk_size"],
        zero_division=RUN["zero_division"],
    script:
        "../scripts/grid_histogram.py"


rule grid_figure7:
    input:
        expand(
            results_path("grids/{engine}/{dataset}/histogram.csv"),
            dataset=grid_datasets(),
            allow_missing=True,
        ),
    output:
        figure=engine_report(
            "figures/figure7_{engine}.png",
            "figure7",
            "Kappa grids",
            dataset="all datasets",
            output="Figure 7",
        ),
    log:
        "logs/figures/figure7_{engine}.log",
    benchmark:
        benchmark_path("figures/figure7_{engine}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        classifiers=engine_classifiers,
    script:
        "../scripts/grid_figure7.py"
