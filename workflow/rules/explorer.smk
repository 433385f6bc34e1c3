# Module explorer: one interactive kappa explorer (self-contained HTML) per engine and dataset,
# from the pooled confusion matrices, with the exact histograms over the dataset's kappa grid
# and the exact win probabilities embedded, and the draws of per-class precision and recall
# that give pd's interval and probability of ranking first at any kappa.


rule explorer:
    input:
        confusion=engine_confusion_files,
        # pd's interval and probability of ranking first at the page's kappa (rule uncertainty).
        uncertainty=uncertainty_input("uncertainty/{engine}/{dataset}/explorer.json"),
    output:
        html=reported(
            results_path("explorer/{engine}/{dataset}.html"),
            "explorer",
            "Exact analysis",
            "{engine}",
            dataset="{dataset}",
            figure="kappa explorer (HTML)",
        ),
    log:
        "logs/explorer/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("explorer/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    threads: 1
    resources:
        mem_mb=mem_mb(512),
        runtime=runtime(5),
    params:
        classes=dataset_classes,
        kappa_grid=dataset_kappa_grid,
        zero_division=RUN["zero_division"],
    script:
        "../scripts/explorer.py"
