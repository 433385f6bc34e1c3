# Module cv (DAG steps 2-3): cross-validation per engine, dataset and classifier -> predictions
# and per-fold/pooled confusion matrices (one job each, or for the datasets `cv.per_fold`
# lists -- all with `true` -- one job per fold and repeat, assembled into the same files);
# then every matrix in one long-format file.


if per_fold_datasets():

    rule cross_validate_fold:
        input:
            data=results_path("data/{dataset}.csv"),
        output:
            # One fold's predictions, deleted once assembled.
            temp(
                results_path(
                    "cv/{engine}/{dataset}/{classifier}/folds/{repeat}_{fold}.csv"
                )
            ),
        log:
            "logs/cv/{engine}/{dataset}/{classifier}/{repeat}_{fold}.log",
        benchmark:
            benchmark_path("cv/{engine}/{dataset}/{classifier}/{repeat}_{fold}.tsv")
        wildcard_constraints:
            dataset=one_of(per_fold_datasets()),
        conda:
            CONDA_ENV
        threads: cv_threads()
        resources:
            **fit_resources(),
        params:
            **fit_params(cv=cv_params()),
        script:
            "../scripts/cross_validate_fold.py"

    rule assemble_folds:
        input:
            cv_fold_files,
        output:
            # predictions.csv and confusion.csv, the same files as rule cross_validate writes.
            **cv_outputs(),
        log:
            "logs/cv/{engine}/{dataset}/{classifier}.log",
        benchmark:
            benchmark_path("cv/{engine}/{dataset}/{classifier}.tsv")
        wildcard_constraints:
            dataset=one_of(per_fold_datasets()),
        priority: SUMMARY_PRIORITY
        conda:
            CONDA_ENV
        resources:
            **scaled(mem_mb=512, runtime=5),
        params:
            classes=dataset_classes,
        script:
            "../scripts/assemble_folds.py"


if whole_cv_datasets():

    rule cross_validate:
        input:
            data=results_path("data/{dataset}.csv"),
        output:
            # predictions.csv and confusion.csv, the same files as rule assemble_folds writes.
            **cv_outputs(),
        log:
            "logs/cv/{engine}/{dataset}/{classifier}.log",
        benchmark:
            benchmark_path("cv/{engine}/{dataset}/{classifier}.tsv")
        wildcard_constraints:
            dataset=one_of(whole_cv_datasets()),
        conda:
            CONDA_ENV
        threads: cv_threads()
        resources:
            **fit_resources(),
        params:
            **fit_params(cv=cv_params()),
        script:
            "../scripts/cross_validate.py"


rule aggregate_confusion:
    input:
        cv_files("confusion.csv"),
    output:
        reported(
            results_path("confusion_matrices.csv"),
            "confusion_matrices",
            "Cross-validation",
            "All engines",
        ),
    log:
        "logs/cv/aggregate_confusion.log",
    benchmark:
        benchmark_path("cv/aggregate_confusion.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    script:
        "../scripts/aggregate_confusion.py"
