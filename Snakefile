# Reproduction pipeline for the preference-driven measure papers.
# Table of contents: config -> validation -> modules -> final targets.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config.yaml"


# Description of the Snakemake report (`snakemake --report report.html`).
report: "workflow/report/workflow.rst"


# Schema validation, engine availability checks, paths and input functions.
include: "workflow/rules/common.smk"
# 1. UCI data (ucimlrepo, then the offline mirror) -> canonical tables.
include: "workflow/rules/data.smk"
# 2-3. Cross-validation per engine, dataset and classifier -> predictions, confusion matrices.
include: "workflow/rules/cv.smk"
# 4. Every registry measure and pd at every configured kappa vector.
include: "workflow/rules/measures.smk"
# 5. pd over each dataset's full kappa grid -> histograms, Figure 7.
include: "workflow/rules/grids.smk"
# 6. Ranking tables (paper Tables 6-9).
include: "workflow/rules/tables.smk"
# 7. Paper tables and figures that need no data (cm1..cm9, Pacc matrices).
include: "workflow/rules/paper.smk"
# 8. Published numbers against reproduced ones.
include: "workflow/rules/reproduction.smk"
# Statistical comparison of classifiers.
include: "workflow/rules/stats.smk"
# Exact analysis of the kappa space.
include: "workflow/rules/exact.smk"
# Interactive kappa explorer per engine and dataset (self-contained HTML).
include: "workflow/rules/explorer.smk"
# Intervals, probabilities of winning and ranking, Bayesian tests (config `uncertainty`).
include: "workflow/rules/uncertainty.smk"


# Jobs of a few seconds that only collect or reformat tables: on a cluster they run on the
# submitting node instead of waiting in the queue.
localrules:
    aggregate_confusion,
    aggregate_measures,
    ranking_table,
    paper_markdown,
    reproduction_summary,
    exact_collect,


rule all:
    default_target: True
    input:
        data_targets(),
        cv_targets(),
        measures_targets(),
        grids_targets(),
        tables_targets(),
        paper_targets(),
        reproduction_targets(),
        stats_targets(),
        exact_targets(),
        explorer_targets(),
        uncertainty_targets(),
