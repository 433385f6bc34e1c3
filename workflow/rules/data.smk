# Module data (DAG step 1): each configured dataset -> its canonical table.
# UCI (ucimlrepo, then the offline mirror), OpenML (scikit-learn's cache, then its mirror), or a
# local CSV, TSV or ARFF file.


rule fetch_data:
    input:
        local_data_file,
    output:
        table=reported(
            results_path("data/{dataset}.csv"), "data", "Data", dataset="{dataset}"
        ),
        # The class order (positional for every kappa vector), the rule that gave it, the
        # target and the feature types, as resolved from the config and the data.
        about=results_path("data/{dataset}.json"),
    log:
        "logs/data/{dataset}.log",
    benchmark:
        benchmark_path("data/{dataset}.tsv")
    priority: fetch_priority
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        fetch=fetch_params,
    script:
        "../scripts/fetch_data.py"
