# Module data (DAG step 1): each configured dataset -> its canonical table.
# ucimlrepo first, then the offline mirror (config `mirror` or $UCI_MIRROR), or a local CSV.


rule fetch_data:
    input:
        local_data_file,
    output:
        reported(
            results_path("data/{dataset}.csv"), "data", "Data", dataset="{dataset}"
        ),
    log:
        "logs/data/{dataset}.log",
    conda:
        CONDA_ENV
    params:
        fetch=fetch_params,
    script:
        "../scripts/fetch_data.py"
