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

Distributions come from :mod:`scipy.stats` (``chi2``, ``f``, ``norm``, ``studentized_range``,
``binomtest``, ``wilcoxon``, ``rankdata``), imported inside the functions that use them:
:mod:`scipy.stats` costs a process about 0.65 CPU-s to import, and rule analyse imports this
package for its within-dataset tests and helpers, which take the t, F and chi-square tails
from the :mod:`scipy.special` functions that those of :mod:`scipy.stats` evaluate
(``paired``). Two pieces are written out
because scipy has no function for them: the rank statistics of the aligned-ranks and Quade
tests, and Holm's step-down adjustment (scipy only offers Benjamini-Hochberg/Yekutieli in
``false_discovery_control``; statsmodels has Holm but is not a runtime dependency).

Ranks: rank 1 is the best classifier; ties get average ranks. Whether a measure is better
high or low comes from :func:`lower_is_better`.

Modules, by theme (everything public is re-exported here; numpy and scipy only):

* ``ranks``: direction of a measure, ranks and average ranks;
* ``omnibus``: Friedman / Iman-Davenport, Friedman aligned ranks, Quade (across datasets);
* ``posthoc``: Holm's adjustment, Nemenyi and its critical difference, Holm against the
  best-ranked classifier, pairwise Wilcoxon (across datasets), as one record per pair;
* ``paired``: corrected resampled t, 5x2cv t and F, McNemar (within one dataset).

The tidy tables the workflow writes from these tests (``measures.csv`` -> ranks, omnibus,
post-hoc and CD tables; per-fold measures -> paired tests) are built by
:mod:`pdmeasure.tables.stats_across` and :mod:`pdmeasure.tables.stats_within`.
"""

from pdmeasure.stats.omnibus import (
    FRIEDMAN_MIN_K,
    FRIEDMAN_MIN_N,
    TestResult,
    friedman,
    friedman_aligned_ranks,
    quade,
)
from pdmeasure.stats.paired import (
    PairedResult,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    mcnemar,
    paired_ttest_5x2cv,
)
from pdmeasure.stats.posthoc import (
    holm,
    holm_control,
    nemenyi,
    nemenyi_critical_difference,
    wilcoxon_min_p,
    wilcoxon_pairwise,
    wilcoxon_signed_rank,
)
from pdmeasure.stats.ranks import (
    LOWER_IS_BETTER_FALLBACK,
    average_ranks,
    better_classifier,
    check_scores,
    lower_is_better,
    rank_scores,
)

__all__ = [
    "FRIEDMAN_MIN_K",
    "FRIEDMAN_MIN_N",
    "LOWER_IS_BETTER_FALLBACK",
    "PairedResult",
    "TestResult",
    "average_ranks",
    "better_classifier",
    "check_scores",
    "combined_ftest_5x2cv",
    "corrected_resampled_ttest",
    "friedman",
    "friedman_aligned_ranks",
    "holm",
    "holm_control",
    "lower_is_better",
    "mcnemar",
    "nemenyi",
    "nemenyi_critical_difference",
    "paired_ttest_5x2cv",
    "quade",
    "rank_scores",
    "wilcoxon_min_p",
    "wilcoxon_pairwise",
    "wilcoxon_signed_rank",
]
