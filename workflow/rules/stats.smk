# Module stats: statistical comparison of classifiers (Stapor's procedure).
#   across datasets (from measures.csv): ranks, Friedman / Iman-Davenport, aligned ranks,
#     Quade, Nemenyi, Holm vs best, Wilcoxon-Holm -> stats/across_*.csv, stats/cd.csv,
#     CD diagrams rendered from cd.csv -> figures/cd/{engine}/*.png
#   within each dataset (from the CV predictions): corrected resampled t-test, McNemar, and
#     the 5x2cv t / F tests on their own 5 x 2-fold CV jobs -> stats/{engine}/{dataset}/
#   report: stats/report.md collects everything.


if per_fold_datasets():

    rule stats_cv5x2_fold:
        input:
            data=results_path("data/{dataset}.csv"),
        output:
            # One fold's predictions, deleted once assembled.
            temp(
                results_path(
                    "stats/cv5x2/{engine}/{dataset}/{classifier}/folds/{repeat}_{fold}.csv"
                )
            ),
        log:
            "logs/stats/cv5x2/{engine}/{dataset}/{classifier}/{repeat}_{fold}.log",
        benchmark:
            benchmark_path(
                "stats/cv5x2/{engine}/{dataset}/{classifier}/{repeat}_{fold}.tsv"
            )
        wildcard_constraints:
            dataset=one_of(per_fold_datasets()),
        conda:
            CONDA_ENV
        threads: cv_threads()
        resources:
            **fit_resources(),
        params:
            **fit_params(seed=RUN["cv"]["seed"]),
        script:
            "../scripts/stats_cv5x2_fold.py"

    rule assemble_cv5x2:
        input:
            cv5x2_fold_files,
        output:
            predictions=results_path(
                "stats/cv5x2/{engine}/{dataset}/{classifier}/predictions.csv.gz"
            ),
        log:
            "logs/stats/cv5x2/{engine}/{dataset}/{classifier}.log",
        benchmark:
            benchmark_path("stats/cv5x2/{engine}/{dataset}/{classifier}.tsv")
        wildcard_constraints:
            dataset=one_of(per_fold_datasets()),
        priority: SUMMARY_PRIORITY
        conda:
            CONDA_ENV
        resources:
            **scaled(mem_mb=512, runtime=5),
        script:
            "../scripts/assemble_cv5x2.py"


if whole_cv_datasets():

    rule stats_cv5x2:
        input:
            data=results_path("data/{dataset}.csv"),
        output:
            # Not in the report: per-sample predictions (the largest files of a run, so gzipped:
            # 91 MB of CSV -> 6 MB), summarised by the reported within-dataset tests.
            predictions=results_path(
                "stats/cv5x2/{engine}/{dataset}/{classifier}/predictions.csv.gz"
            ),
        log:
            "logs/stats/cv5x2/{engine}/{dataset}/{classifier}.log",
        benchmark:
            benchmark_path("stats/cv5x2/{engine}/{dataset}/{classifier}.tsv")
        wildcard_constraints:
            dataset=one_of(whole_cv_datasets()),
        conda:
            CONDA_ENV
        threads: cv_threads()
        resources:
            **fit_resources(),
        params:
            **fit_params(seed=RUN["cv"]["seed"]),
        script:
            "../scripts/stats_cv5x2.py"


rule stats_within:
    input:
        cv=engine_prediction_files,
        cv5x2=engine_cv5x2_files,
    output:
        folds=engine_report(
            "stats/{engine}/{dataset}/fold_measures.csv",
            "stats_fold_measures",
            "Statistics",
            table="fold measures",
            format="CSV",
        ),
        pairwise=engine_report(
            "stats/{engine}/{dataset}/pairwise.csv",
            "stats_pairwise",
            "Statistics",
            table="pairwise tests",
            format="CSV",
        ),
        significance=engine_report(
            "stats/{engine}/{dataset}/significance.csv",
            "stats_significance",
            "Statistics",
            table="significance",
            format="CSV",
        ),
        markdown=engine_report(
            "stats/{engine}/{dataset}/significance.md",
            "stats_significance",
            "Statistics",
            table="significance",
            format="Markdown",
        ),
    log:
        "logs/stats/within/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("stats/within/{engine}/{dataset}.tsv")
    priority: SUMMARY_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=1024, runtime=10),
    params:
        classes=dataset_classes,
        kappa_vectors=dataset_kappa_vectors,
        classifiers=engine_classifiers,
        zero_division=RUN["zero_division"],
        alpha=RUN["stats"]["alpha"],
        mcnemar_exact_below=RUN["stats"]["mcnemar_exact_below"],
    script:
        "../scripts/stats_within.py"


rule stats_across:
    input:
        measures=results_path("measures.csv"),
    output:
        **{
            name: reported(
                results_path(path),
                caption,
                "Statistics",
                "Across datasets",
                table=table,
            )
            for name, (path, caption, table) in STATS_ACROSS.items()
        },
    log:
        "logs/stats/across.log",
    benchmark:
        benchmark_path("stats/across.tsv")
    priority: CHAIN_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        kappa_vectors=all_kappa_vectors(),
        classifiers=all_classifiers(),
        alpha=RUN["stats"]["alpha"],
    script:
        "../scripts/stats_across.py"


rule stats_cd_diagrams:
    input:
        cd=stats_across_files()["cd"],
    output:
        figures=[
            reported(
                figure,
                "stats_cd_diagram",
                "Statistics",
                "Critical-difference diagrams",
                measure=file_stem(measure, kappa),
                engine=engine,
            )
            for figure, (engine, measure, kappa) in zip(cd_figures(), cd_keys())
        ],
    log:
        "logs/stats/cd_diagrams.log",
    benchmark:
        benchmark_path("stats/cd_diagrams.tsv")
    priority: CHAIN_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        figure_keys=cd_keys(),
    script:
        "../scripts/stats_cd_diagrams.py"


rule stats_report:
    input:
        **stats_across_files(),
        significance=per_engine_dataset("stats/{engine}/{dataset}/significance.csv"),
        figures=cd_figures(),
        # The Bayesian section: signed-rank tests across datasets (rule uncertainty_across).
        bayesian=uncertainty_input("uncertainty/across_signed_rank.csv"),
    output:
        report=reported(
            results_path("stats/report.md"), "stats_report", "Statistics", "Report"
        ),
    log:
        "logs/stats/report.log",
    benchmark:
        benchmark_path("stats/report.tsv")
    priority: CHAIN_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=5),
    params:
        figure_keys=cd_keys(),
        alpha=RUN["stats"]["alpha"],
    script:
        "../scripts/stats_report.py"
