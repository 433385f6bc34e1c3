# Module data (DAG step 1): each configured dataset -> its canonical table.
# ucimlrepo first, then the offline mirror (config `mirror` or $UCI_MIRROR), or a local CSV.


rule fetch_data:
    input:
        local_data_file,
    output:
        reported(results_path("data/{dataset}.csv"), "data", "Data", dataset="{dataset}"),
    params:
        fetch=fetch_params,
    log:
        "logs/data/{dataset}.log",
    conda:
        CONDA_ENV
    script:
        "../scripts/fetch_data.py"


DATA_TARGETS = [results_path("data", f"{name}.csv") for name in DATASETS]
