r"""Statistical comparison of classifiers: omnibus, post-hoc and paired tests.

The procedure is the one reviewed by Stapor (2017, ``stapor-classifier-evaluation.md``),
itself after Demsar (2006, JMLR 7:1-30) and Garcia et al. (2010, Inf. Sci. 180:2044-2064):

* **Across datasets** (N datasets = blocks, K classifiers = treatments): average ranks,
  the Friedman chi-square with the Iman-Davenport F, Friedman aligned ranks and the Quade
  test; post-hoc Nemenyi (critical difference), Holm against the best-ranked classifier and
  pairwise Wilcoxon signed-rank tests with Holm's correction.
* **Within one dataset** (repeated cross-validation): the corrected resampled t-test of
  Nadeau and Bengio (2003), the 5x2cv paired t-test (Dietterich 1998) and its combined F
  version (Alpaydin 1999), and McNemar's test on per-sample predictions.

Every test returns its p-value *and* the smallest p-value it could possibly produce with the
given N and K (``min_p``), so that a table says plainly when N is too small for a test to
ever reach significance instead of silently reporting "not significant".

Distributions come from :mod:`scipy.stats` (``chi2``, ``f``, ``t``, ``norm``,
``studentized_range``, ``binomtest``, ``wilcoxon``, ``rankdata``). Two pieces are written out
because scipy has no function for them: the rank statistics of the aligned-ranks and Quade
tests, and Holm's step-down adjustment (scipy only offers Benjamini-Hochberg/Yekutieli in
``false_discovery_control``; statsmodels has Holm but is not a runtime dependency).

Ranks: rank 1 is the best classifier; ties get average ranks. Whether a measure is better
high or low comes from :func:`lower_is_better`.

Modules, by theme (everything public is re-exported here):

* ``ranks``: direction of a measure, ranks and average ranks;
* ``omnibus``: Friedman / Iman-Davenport, Friedman aligned ranks, Quade (across datasets);
* ``posthoc``: Holm's adjustment, Nemenyi and its critical difference, Holm against the
  best-ranked classifier, pairwise Wilcoxon (across datasets);
* ``paired``: corrected resampled t, 5x2cv t and F, McNemar (within one dataset);
* ``tables``: test names, column schemas, kappa names and which names are the same vector
  on every dataset (only those are pooled across datasets), file stems, reading tables back;
* ``across``: :func:`compare_across_datasets` (``measures.csv`` -> ranks, omnibus,
  post-hoc and CD tables);
* ``folds``: :func:`cross_validate_5x2` (the extra 5 x 2-fold CV through the engine
  interface) and :func:`fold_measure_values` (predictions -> per-fold measures);
* ``within``: :func:`compare_within_dataset` (per-fold measures -> paired tests) and
  :func:`significance_table`;
* ``report``: :func:`significance_markdown` and :func:`stats_report` (Markdown).

The pipeline layer (``across``, ``folds``, ``within``, ``report``) is what
``workflow/rules/stats.smk`` runs.
"""
from .across import AcrossTables, compare_across_datasets
from .folds import (
    CV5X2_FOLDS,
    CV5X2_REPEATS,
    PREDICTION_KEYS,
    check_paired_folds,
    cross_validate_5x2,
    fold_measure_values,
    read_predictions,
)
from .omnibus import (
    FRIEDMAN_MIN_K,
    FRIEDMAN_MIN_N,
    TestResult,
    friedman,
    friedman_aligned_ranks,
    quade,
)
from .paired import (
    PairedResult,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    mcnemar,
    paired_ttest_5x2cv,
)
from .posthoc import (
    holm,
    holm_control,
    nemenyi,
    nemenyi_critical_difference,
    wilcoxon_min_p,
    wilcoxon_pairwise,
    wilcoxon_signed_rank,
)
from .ranks import (
    LOWER_IS_BETTER_FALLBACK,
    average_ranks,
    better_classifier,
    check_scores,
    lower_is_better,
    rank_scores,
)
from .report import (
    HEADLINE,
    TEST_TITLES,
    headline_text,
    not_compared,
    power_table,
    significance_markdown,
    stats_report,
)
from .tables import (
    CD_COLUMNS,
    FOLD_COLUMNS,
    MCNEMAR_MEASURES,
    OMNIBUS_COLUMNS,
    OMNIBUS_TESTS,
    PAIRWISE_COLUMNS,
    POSTHOC_COLUMNS,
    POSTHOC_TESTS,
    RANK_COLUMNS,
    WITHIN_TESTS,
    NaNExcludedWarning,
    comparison_keys,
    describe,
    differing_kappa_vectors,
    drop_nan_rows,
    file_stem,
    format_vector,
    kappa_name,
    kappa_names,
    measure_label,
    name_kappas,
    not_pooled_note,
    read_stats_table,
    same_vector,
)
from .within import compare_within_dataset, significance_table

__all__ = [
    "CD_COLUMNS", "CV5X2_FOLDS", "CV5X2_REPEATS", "FOLD_COLUMNS", "FRIEDMAN_MIN_K",
    "FRIEDMAN_MIN_N", "HEADLINE", "LOWER_IS_BETTER_FALLBACK", "MCNEMAR_MEASURES",
    "OMNIBUS_COLUMNS", "OMNIBUS_TESTS", "PAIRWISE_COLUMNS", "POSTHOC_COLUMNS", "POSTHOC_TESTS",
    "PREDICTION_KEYS", "RANK_COLUMNS", "TEST_TITLES", "WITHIN_TESTS", "AcrossTables",
    "NaNExcludedWarning", "PairedResult", "TestResult", "average_ranks", "better_classifier",
    "check_paired_folds", "check_scores", "combined_ftest_5x2cv", "compare_across_datasets",
    "compare_within_dataset", "comparison_keys", "corrected_resampled_ttest",
    "cross_validate_5x2", "describe", "differing_kappa_vectors", "drop_nan_rows", "file_stem",
    "fold_measure_values", "format_vector", "friedman", "friedman_aligned_ranks",
    "headline_text", "holm", "holm_control", "kappa_name", "kappa_names", "lower_is_better",
    "mcnemar", "measure_label", "name_kappas", "nemenyi", "nemenyi_critical_difference",
    "not_compared", "not_pooled_note", "paired_ttest_5x2cv", "power_table", "quade",
    "rank_scores", "read_predictions", "read_stats_table", "same_vector",
    "significance_markdown", "significance_table", "stats_report", "wilcoxon_min_p",
    "wilcoxon_pairwise", "wilcoxon_signed_rank",
]
