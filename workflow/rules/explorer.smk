# Module explorer: one interactive kappa explorer (self-contained HTML) per engine and dataset.
# Compute, then render: rule explorer_data gathers what the page shows (the pooled confusion
# matrices, the exact histograms over the dataset's kappa grid, the exact win probabilities,
# and the draws of per-class precision and recall that give pd's interval and probability of
# ranking first at any kappa) as JSON; rule explorer renders that file as the page.


rule explorer_data:
    input:
        confusion=engine_confusion_files,
        # pd's interval and probability of ranking first at the page's kappa (rule uncertainty).
        uncertainty=uncertainty_input("uncertainty/{engine}/{dataset}/explorer.json"),
    output:
        data=results_path("explorer/{engine}/{dataset}.json"),
    log:
        "logs/explorer_data/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("explorer_data/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        classes=dataset_classes,
        kappa_grid=dataset_kappa_grid,
        zero_division=RUN["zero_division"],
    script:
        "../scripts/explorer_data.py"


rule explorer:
    input:
        data=results_path("explorer/{engine}/{dataset}.json"),
    output:
        html=engine_report(
            "explorer/{engine}/{dataset}.html",
            "explorer",
            "Exact analysis",
            figure="kappa explorer (HTML)",
        ),
    log:
        "logs/explorer/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("explorer/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=256, runtime=5),
    script:
        "../scripts/explorer.py"
