# Module measures (DAG step 4): every registry measure, and pd at the default kappa (eq. 31)
# and at each configured kappa vector, on the pooled confusion matrices of one engine and
# dataset (so a dataset's settings rerun only its own part), with a warning row for every
# class whose precision or recall is 0/0; then all parts in measures.csv and warnings.csv.


rule measures:
    input:
        confusion=engine_confusion_files,
    output:
        # Not in the report: these parts are the rows of the reported measures.csv and
        # warnings.csv (rule aggregate_measures).
        measures=results_path("measures/{engine}/{dataset}.csv"),
        warnings=results_path("warnings/{engine}/{dataset}.csv"),
    log:
        "logs/measures/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("measures/{engine}/{dataset}.tsv")
    priority: CHAIN_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        classes=dataset_classes,
        kappa_vectors=dataset_kappa_vectors,
        zero_division=RUN["zero_division"],
    script:
        "../scripts/measures.py"


rule aggregate_measures:
    input:
        measures=per_engine_dataset("measures/{engine}/{dataset}.csv"),
        warnings=per_engine_dataset("warnings/{engine}/{dataset}.csv"),
    output:
        measures=reported(
            results_path("measures.csv"), "measures", "Measures", table="measures"
        ),
        warnings=reported(
            results_path("warnings.csv"), "warnings", "Measures", table="warnings"
        ),
    log:
        "logs/measures/aggregate_measures.log",
    benchmark:
        benchmark_path("measures/aggregate_measures.tsv")
    priority: CHAIN_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    script:
        "../scripts/aggregate_measures.py"
