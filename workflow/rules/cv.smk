# Module cv (DAG steps 2-3): model fitting per engine, dataset and classifier -> predictions
# and per-fold/pooled confusion matrices, and the 5 x 2-fold CV predictions of the statistics.
# One job per classifier and dataset (rule cross_validate), or, where the plan (`cv.per_fold`,
# pdmeasure.pipeline.plan) splits it, part jobs of one or more folds (rule
# cross_validate_part) that its cross_validate job assembles into the same files. Small
# classifiers of one engine and dataset that the plan batches run one after the other in one
# job (rules cross_validate_batch_<engine>_<dataset>_<k>, one per batch, below), which writes
# each classifier's files; being rules without wildcards, Snakemake prefers them to rule
# cross_validate for those files.


rule cross_validate_part:
    input:
        data=results_path("data/{dataset}.csv"),
    output:
        # Predictions of the part's folds, deleted once assembled.
        temp(results_path("cv/{engine}/{dataset}/{classifier}/parts/{part}.csv")),
    log:
        "logs/cv/{engine}/{dataset}/{classifier}/parts/{part}.log",
    benchmark:
        benchmark_path("cv/{engine}/{dataset}/{classifier}/parts/{part}.tsv")
    priority: part_priority
    conda:
        CONDA_ENV
    threads: cv_threads()
    resources:
        **fit_resources(),
    params:
        **fit_params(scheme=scheme_params),
    script:
        "../scripts/cross_validate_part.py"


rule cross_validate:
    input:
        data=results_path("data/{dataset}.csv"),
        # The part files of a split classifier, in scheme and fold order; none when whole.
        parts=cv_part_files,
    output:
        **cv_outputs(),
    log:
        "logs/cv/{engine}/{dataset}/{classifier}.log",
    benchmark:
        benchmark_path("cv/{engine}/{dataset}/{classifier}.tsv")
    priority: cv_priority
    conda:
        CONDA_ENV
    threads: cv_job_threads
    resources:
        **cv_job_resources(),
    params:
        **fit_params(cv=cv_params(), cv5x2=cv5x2_params()),
    script:
        "../scripts/cross_validate.py"


for batch in CV_PLAN.batches:

    rule:
        name:
            cv_batch_name(batch)
        input:
            data=results_path("data", f"{batch[0][1]}.csv"),
        output:
            **cv_batch_outputs(batch),
        log:
            cv_batch_log(batch, "logs"),
        benchmark:
            cv_batch_log(batch, benchmark_path())
        priority: _fit_priority(CV_PLAN.batch_cost(batch))
        group:
            cv_batch_group()
        conda:
            CONDA_ENV
        threads: cv_threads()
        resources:
            **fit_resources(batch[0][0]),
        params:
            **cv_batch_params(batch),
        script:
            "../scripts/cross_validate_batch.py"
