# Module cv (DAG steps 2-3): model fitting -> predictions and per-fold and pooled confusion
# matrices, and the 5 x 2-fold CV predictions of the statistics. One job per engine and
# dataset (rule cross_validate) fits its classifiers one after the other in one process (one
# JVM for Weka). A classifier that `cv.parts` cuts out runs as part jobs of contiguous folds
# (rule cross_validate_part), which the dataset's job assembles into the same files. A
# classifier whose fit fails is a `failed` row of the job's fits.csv (`cv.on_failure:
# record`), and the job goes on with the others; a part job whose fit fails writes its reason
# to its part file instead of predictions, and the dataset's job records it the same way.


rule cross_validate_part:
    input:
        data=results_path("data/{dataset}.csv"),
    output:
        temp(part_file("{engine}", "{dataset}", "{classifier}", "{part}")),
    log:
        "logs/cv_parts/{engine}/{dataset}/{classifier}/{part}.log",
    benchmark:
        benchmark_path("cv_parts/{engine}/{dataset}/{classifier}/{part}.tsv")
    priority: PART_PRIORITY
    conda:
        CONDA_ENV
    threads: cv_threads()
    resources:
        **fit_resources(),
    params:
        dataset=engine_dataset_params,
        classifier=classifier_params,
        scheme=scheme_params,
        policy=fit_policy(),
        # The dataset's fitting folder: deleting it fits the part again.
        folder=lambda wildcards: cv_folder(wildcards.engine, wildcards.dataset),
    script:
        "../scripts/cross_validate_part.py"


rule cross_validate:
    input:
        data=results_path("data/{dataset}.csv"),
        # The part files of the classifiers cv.parts splits, in order; none by default.
        parts=cv_part_files,
    output:
        **cv_outputs(),
    log:
        "logs/cv/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("cv/{engine}/{dataset}.tsv")
    priority: cv_priority
    conda:
        CONDA_ENV
    threads: cv_threads()
    resources:
        **fit_resources(),
    params:
        dataset=engine_dataset_params,
        classifiers=fitting_params,
        parts=part_names,
        cv=cv_params(),
        cv5x2=cv5x2_params(),
        policy=fit_policy(),
    script:
        "../scripts/cross_validate.py"
