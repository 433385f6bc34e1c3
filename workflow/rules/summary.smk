# Module summary: everything across datasets and engines. Rule collect gathers the parts of
# every engine and dataset into the reported tables and computes what needs all of them (the
# statistics across datasets, the comparison with the papers), rule signed_rank the Bayesian
# signed-rank tests across datasets beside it;
# from those files, rule render_summary writes the statistics report and the reproduction
# summary, rule render_cd draws each engine's critical-difference diagrams (beside it: they
# take as long as the report) and rule render_figure7 each engine's Figure 7, over the
# configured grids and over the fine grid.


rule collect:
    input:
        **collect_inputs(),
    output:
        **collect_outputs(),
    log:
        "logs/collect.log",
    benchmark:
        benchmark_path("collect.tsv")
    priority: COLLECT_PRIORITY
    conda:
        CONDA_ENV
    # Its two branches (statistics across datasets; the gathered tables and the
    # reproduction) one after the other; `--set-threads collect=2` runs them side by side.
    threads: 1
    resources:
        **scaled(mem_mb=1024, runtime=10),
    params:
        # The confusion.csv of every classifier, inside the fitting folders (input `fits`).
        confusion=cv_files("confusion.csv"),
        kappa_vectors=all_kappa_vectors(),
        classifiers=all_classifiers(),
        alpha=RUN["stats"]["alpha"],
        comparisons=comparison_keys(all_kappa_vectors()),
        reproduction=reproduction_params() if paper_run() else None,
    script:
        "../scripts/collect.py"


# Beside rule collect, on another core: as long as collect's other steps together.
rule signed_rank:
    input:
        measures=per_engine_dataset("measures/{engine}/{dataset}.csv"),
    output:
        signed_rank=signed_rank_output(),
    log:
        "logs/signed_rank.log",
    benchmark:
        benchmark_path("signed_rank.tsv")
    priority: COLLECT_PRIORITY
    conda:
        CONDA_ENV
    threads: 1
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        classifiers=all_classifiers(),
        comparisons=comparison_keys(all_kappa_vectors()),
        rope=RUN["uncertainty"]["rope"],
        seed=RUN["uncertainty"]["seed"],
    script:
        "../scripts/signed_rank.py"


rule render_summary:
    input:
        **stats_across_files(),
        significance=per_engine_dataset("stats/{engine}/{dataset}/significance.csv"),
        # The Bayesian section of the report: signed-rank tests across datasets.
        bayesian=results_path("uncertainty/across_signed_rank.csv"),
        # The effect sizes the verdicts quote.
        effect_sizes=results_path("stats/effect_sizes.csv"),
        reproduction=reproduction_table_input(),
        # The fitting folders: their fits.csv lists the fits that failed.
        fits=cv_folders(),
    output:
        **render_summary_outputs(),
    log:
        "logs/render_summary.log",
    benchmark:
        benchmark_path("render_summary.tsv")
    priority: COLLECT_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        # The CD diagrams the report links to (rule render_cd draws them).
        figure_keys=cd_keys(),
        figures=cd_figures(),
        alpha=RUN["stats"]["alpha"],
        # The files set aside before the run (dataset_files.<i>.skip_invalid).
        skipped=RUN["skipped"],
        # The measures whose verdicts open the report (stats.result_matrix).
        verdict_keys=verdict_keys(),
    script:
        "../scripts/render_summary.py"


rule result_matrix:
    input:
        folds=expand(
            results_path("stats/{{engine}}/{dataset}/fold_measures.csv"),
            dataset=datasets(),
        ),
    output:
        **result_matrix_outputs(),
    log:
        "logs/result_matrix/{engine}.log",
    benchmark:
        benchmark_path("result_matrix/{engine}.tsv")
    priority: ANALYSIS_PRIORITY
    conda:
        CONDA_ENV
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        matrices=result_matrix_keys(),
        classifiers=engine_classifiers,
        datasets=datasets(),
        baseline=engine_baseline,
        alpha=RUN["stats"]["alpha"],
    script:
        "../scripts/result_matrix.py"


rule render_cd:
    input:
        cd=stats_across_files()["cd"],
    output:
        figures=cd_engine_figures(),
    log:
        "logs/render_cd/{engine}.log",
    benchmark:
        benchmark_path("render_cd/{engine}.tsv")
    priority: COLLECT_PRIORITY
    conda:
        CONDA_ENV
    # `--set-threads render_cd=N` draws its diagrams in N shares side by side.
    threads: 1
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        comparisons=cd_comparisons(),
    script:
        "../scripts/render_cd.py"


rule render_figure7:
    input:
        grids=expand(
            results_path("grids/{engine}/{dataset}/histogram.csv"),
            dataset=grid_datasets(),
            allow_missing=True,
        ),
        exact=expand(
            results_path("exact/{engine}/{dataset}/histogram.csv"),
            dataset=datasets(),
            allow_missing=True,
        ),
        # The fitting folders of {engine}: their fits.csv says which classifiers finished.
        fits=engine_cv_folders,
    output:
        **figure7_outputs(),
    log:
        "logs/render_figure7/{engine}.log",
    benchmark:
        benchmark_path("render_figure7/{engine}.tsv")
    priority: ANALYSIS_PRIORITY
    conda:
        CONDA_ENV
    # `--set-threads render_figure7=2` draws its two figures side by side.
    threads: 1
    resources:
        **scaled(mem_mb=512, runtime=10),
    params:
        classifiers=engine_classifiers,
        values=RUN["exact"]["fine_grid_values"],
    script:
        "../scripts/render_figure7.py"
