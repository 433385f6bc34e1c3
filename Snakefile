# Reproduction pipeline for the preference-driven measure papers.
# Table of contents: config -> validation -> modules -> final targets.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config.yaml"


# Description of the Snakemake report (`snakemake --report report.html`).
report: "workflow/report/workflow.rst"


# Schema validation, engine availability checks, paths, resources, input functions.
include: "workflow/rules/common.smk"
# Every rule's outputs, with their report captions.
include: "workflow/rules/outputs.smk"
# The final targets of `rule all`, one function per module below.
include: "workflow/rules/targets.smk"
# 1. UCI data (ucimlrepo, then the offline mirror) -> canonical tables.
include: "workflow/rules/data.smk"
# 2-3. Model fitting, one job per engine and dataset (a classifier cut into part jobs where
#      cv.parts says so) -> predictions, confusion matrices, 5 x 2-fold CV predictions.
include: "workflow/rules/cv.smk"
# 4-6 and the analyses per engine and dataset: measures, ranking tables (paper Tables 6-9),
#    pd over the dataset's full kappa grid (Figure 7's histograms), statistics within the
#    dataset, exact kappa-space analysis, uncertainty, the explorer; then their figures and
#    the explorer page.
include: "workflow/rules/dataset.smk"
# 7. Paper tables and figures that need no data (cm1..cm9, Pacc matrices).
include: "workflow/rules/paper.smk"
# 8. Across datasets: every table collected, statistics and Bayesian tests across datasets,
#    published numbers against reproduced ones; CD diagrams, reports, Figure 7.
include: "workflow/rules/summary.smk"


# On a cluster these run where Snakemake runs (the submitting node) instead of waiting in the
# queue: the downloads (a login node reaches the internet, compute nodes often do not) and
# every job that only reads the small tidy tables and writes tables, figures and pages from
# them, each a few seconds. The model fits (rules cross_validate, cross_validate_part) and
# the analyses that read every sample's prediction (rule analyse) go to the cluster
# (docs/cluster.md).
localrules:
    fetch_data,
    render,
    collect,
    signed_rank,
    result_matrix,
    render_summary,
    render_cd,
    render_figure7,
    paper_tables,
    paper_render,


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


# At the end of the run, whether it succeeded or not: the fits that failed (fits.csv of each
# fitting folder, `cv.on_failure: record`), each with its reason.
onsuccess:
    log_failed_fits()


onerror:
    log_failed_fits()
