# Module stats: statistical comparison of classifiers (Stapor's procedure).
#   across datasets (from measures.csv): ranks, Friedman / Iman-Davenport, aligned ranks,
#     Quade, Nemenyi, Holm vs best, Wilcoxon-Holm -> stats/across_*.csv, stats/cd.csv,
#     CD diagrams rendered from cd.csv -> figures/cd/{engine}/*.png
#   within each dataset (from the CV predictions): corrected resampled t-test, McNemar, and
#     the 5x2cv t / F tests on their own 5 x 2-fold CV jobs -> stats/{engine}/{dataset}/
#   report: stats/report.md collects everything.
from pdmeasure.pipeline.stats_tables import comparison_keys, file_stem

STATS_DIR = results_path("stats")
STATS_CFG = config["stats"]
STATS_KAPPA_VECTORS = {
    name: dict(block["kappa_vectors"]) for name, block in config["datasets"].items()
}
# CD diagrams compare two classifiers or more: an engine with one classifier gets none.
STATS_CD_KEYS = [
    (engine, measure, kappa)
    for engine in config["engines"]
    if len(config["classifiers"][engine]) >= 2
    for measure, kappa in comparison_keys(STATS_KAPPA_VECTORS)
]
STATS_CD_FIGURES = [
    results_path("figures", "cd", engine, f"{file_stem(measure, kappa)}.png")
    for engine, measure, kappa in STATS_CD_KEYS
]
STATS_CV5X2_PREDICTIONS = results_path("stats/cv5x2/{engine}/{dataset}/{classifier}/predictions.csv")


rule stats_cv5x2:
    input:
        data=results_path("data/{dataset}.csv"),
    output:
        # Not in the report: per-sample predictions (the largest files of a run), summarised
        # by the reported within-dataset tests.
        predictions=STATS_CV5X2_PREDICTIONS,
    params:
        dataset=engine_dataset_params,
        classifier=classifier_params,
        seed=config["cv"]["seed"],
    log:
        "logs/stats/cv5x2/{engine}/{dataset}/{classifier}.log",
    benchmark:
        benchmark_path("stats/cv5x2/{engine}/{dataset}/{classifier}.tsv")
    threads: 1
    conda:
        CONDA_ENV
    script:
        "../scripts/stats_cv5x2.py"


rule stats_within:
    input:
        cv=engine_prediction_files,
        cv5x2=engine_cv5x2_files,
    output:
        folds=reported(
            f"{STATS_DIR}/{{engine}}/{{dataset}}/fold_measures.csv",
            "stats_fold_measures",
            "Statistics",
            "{engine}",
            dataset="{dataset}",
            table="fold measures",
            format="CSV",
        ),
        pairwise=reported(
            f"{STATS_DIR}/{{engine}}/{{dataset}}/pairwise.csv",
            "stats_pairwise",
            "Statistics",
            "{engine}",
            dataset="{dataset}",
            table="pairwise tests",
            format="CSV",
        ),
        significance=reported(
            f"{STATS_DIR}/{{engine}}/{{dataset}}/significance.csv",
            "stats_significance",
            "Statistics",
            "{engine}",
            dataset="{dataset}",
            table="significance",
            format="CSV",
        ),
        markdown=reported(
            f"{STATS_DIR}/{{engine}}/{{dataset}}/significance.md",
            "stats_significance",
            "Statistics",
            "{engine}",
            dataset="{dataset}",
            table="significance",
            format="Markdown",
        ),
    params:
        classes=dataset_classes,
        kappa_vectors=dataset_kappa_vectors,
        classifiers=engine_classifiers,
        zero_division=config["zero_division"],
        alpha=STATS_CFG["alpha"],
        mcnemar_exact_below=STATS_CFG["mcnemar_exact_below"],
    log:
        "logs/stats/within/{engine}/{dataset}.log",
    benchmark:
        benchmark_path("stats/within/{engine}/{dataset}.tsv")
    conda:
        CONDA_ENV
    script:
        "../scripts/stats_within.py"


rule stats_across:
    input:
        measures=results_path("measures.csv"),
    output:
        ranks=reported(
            f"{STATS_DIR}/across_ranks.csv",
            "stats_across_ranks",
            "Statistics",
            "Across datasets",
            table="average ranks",
        ),
        omnibus=reported(
            f"{STATS_DIR}/across_omnibus.csv",
            "stats_across_omnibus",
            "Statistics",
            "Across datasets",
            table="omnibus tests",
        ),
        posthoc=reported(
            f"{STATS_DIR}/across_posthoc.csv",
            "stats_across_posthoc",
            "Statistics",
            "Across datasets",
            table="post-hoc tests",
        ),
        cd=reported(
            f"{STATS_DIR}/cd.csv",
            "stats_cd",
            "Statistics",
            "Across datasets",
            table="critical differences",
        ),
    params:
        kappa_vectors=STATS_KAPPA_VECTORS,
        classifiers={engine: list(config["classifiers"][engine]) for engine in config["engines"]},
        alpha=STATS_CFG["alpha"],
    log:
        "logs/stats/across.log",
    benchmark:
        benchmark_path("stats/across.tsv")
    conda:
        CONDA_ENV
    script:
        "../scripts/stats_across.py"


rule stats_cd_diagrams:
    input:
        cd=f"{STATS_DIR}/cd.csv",
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
            for figure, (engine, measure, kappa) in zip(STATS_CD_FIGURES, STATS_CD_KEYS)
        ],
    params:
        figure_keys=STATS_CD_KEYS,
    log:
        "logs/stats/cd_diagrams.log",
    conda:
        CONDA_ENV
    script:
        "../scripts/stats_cd.py"


rule stats_report:
    input:
        ranks=f"{STATS_DIR}/across_ranks.csv",
        omnibus=f"{STATS_DIR}/across_omnibus.csv",
        posthoc=f"{STATS_DIR}/across_posthoc.csv",
        cd=f"{STATS_DIR}/cd.csv",
        significance=expand(
            "{stats}/{engine}/{dataset}/significance.csv",
            stats=STATS_DIR,
            engine=config["engines"],
            dataset=list(config["datasets"]),
        ),
        figures=STATS_CD_FIGURES,
    output:
        report=reported(f"{STATS_DIR}/report.md", "stats_report", "Statistics", "Report"),
    params:
        figure_keys=STATS_CD_KEYS,
        alpha=STATS_CFG["alpha"],
    log:
        "logs/stats/report.log",
    conda:
        CONDA_ENV
    script:
        "../scripts/stats_report.py"


STATS_TARGETS = [
    f"{STATS_DIR}/report.md",
    f"{STATS_DIR}/across_ranks.csv",
    f"{STATS_DIR}/across_omnibus.csv",
    f"{STATS_DIR}/across_posthoc.csv",
    f"{STATS_DIR}/cd.csv",
    *STATS_CD_FIGURES,
    *expand(
        "{stats}/{engine}/{dataset}/{name}",
        stats=STATS_DIR,
        engine=config["engines"],
        dataset=list(config["datasets"]),
        name=["fold_measures.csv", "pairwise.csv", "significance.csv", "significance.md"],
    ),
]
