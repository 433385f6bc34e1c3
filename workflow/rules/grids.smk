# Module grids (DAG step 5): pd over each dataset's full kappa product grid (paper 000,
# Section 5.1), streamed in chunks -> histogram counts and summary statistics per engine and
# dataset (`kappa_grid: null` skips a dataset); Figure 7 is drawn from these files by rule
# render_figure7 (module summary).


rule grid_histogram:
    input:
        unpack(engine_cv_inputs),
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
    priority: ANALYSIS_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        files=engine_cv_files,
        classes=dataset_classes,
        kappa_grid=dataset_kappa_grid,
        bin_width=RUN["histogram"]["bin_width"],
        chunk_size=RUN["histogram"]["chunk_size"],
        zero_division=RUN["zero_division"],
    script:
        "../scripts/grid_histogram.py"
