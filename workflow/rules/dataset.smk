# Module dataset (DAG steps 4-6, statistics within datasets, exact analysis, uncertainty,
# explorer): everything computed from the CV files of one dataset, in one job per dataset for
# all engines (rule analyse, tidy CSV and JSON), then the figures and the explorer pages drawn
# from those files only (rule render, one job per engine for all its datasets). One process
# per step instead of one per table, engine or dataset: each engine's tables of a dataset
# cost a second or two of work (pd over krkopt's 2^18 kappa grid, 12 ms), a process start
# and its imports (pandas, scipy.special) about one more; scipy.stats only where McNemar's
# exact test runs.

# The exact analysis's tables and figures, and the tables rule collect gathers from it.
EXACT_TABLES = ["summary", "cdf", "histogram", "win", "share", "robustness"]
EXACT_FIGURES = ["win", "cdf", "share"]
EXACT_COLLECTED = {
    "win": "win_probabilities.csv",
    "share": "best_shares.csv",
    "robustness": "robustness.csv",
    "summary": "summary.csv",
}


rule analyse:
    input:
        # The fitting folders of every engine, in run order.
        unpack(dataset_cv_inputs),
        # What the fetch step found in the data: the rows without a class (warnings.csv).
        about=results_path("data/{dataset}.json"),
    output:
        **analyse_outputs(),
    log:
        "logs/analyse/{dataset}.log",
    benchmark:
        benchmark_path("analyse/{dataset}.tsv")
    priority: ANALYSIS_PRIORITY
    conda:
        CONDA_ENV
    # Engine after engine, its four independent branches (measures and ranking; exact
    # analysis; uncertainty and explorer data; statistics within) run one after the other;
    # `--set-threads analyse=3` runs them side by side on up to 3 processes.
    threads: 1
    resources:
        **scaled(mem_mb=1536, runtime=20 * len(engines())),
    params:
        engines=engines(),
        files=dataset_cv_files,
        classes=dataset_classes,
        classifiers=all_classifiers(),
        kappa_vectors=dataset_kappa_vectors,
        kappa_grid=dataset_kappa_grid,
        bin_width=RUN["histogram"]["bin_width"],
        chunk_size=RUN["histogram"]["chunk_size"],
        zero_division=RUN["zero_division"],
        exact=exact_settings(),
        uncertainty=dict(RUN["uncertainty"]),
        alpha=RUN["stats"]["alpha"],
        mcnemar_exact_below=RUN["stats"]["mcnemar_exact_below"],
    script:
        "../scripts/analyse.py"


rule render:
    input:
        **render_inputs(),
    output:
        **render_outputs(),
    log:
        "logs/render/{engine}.log",
    benchmark:
        benchmark_path("render/{engine}.tsv")
    priority: ANALYSIS_PRIORITY
    conda:
        CONDA_ENV
    # One job per engine draws every dataset's files in one process, dataset after dataset:
    # each dataset's work is about 3 CPU-s, as much as a process's start-up and imports.
    # `--set-threads render=N` draws N datasets side by side.
    threads: 1
    resources:
        # A minute per dataset, with room to spare: each takes a few CPU-s.
        **scaled(mem_mb=512, runtime=5 + len(datasets())),
    params:
        datasets=datasets(),
        classifiers=engine_classifiers,
        kappa_vectors={dataset: kappa_vectors_of(dataset) for dataset in datasets()},
    script:
        "../scripts/render.py"
