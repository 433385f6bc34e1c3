"""pdmeasure: the preference-driven classification measure and its reproduction pipeline.

Modules
-------
measures     every confusion-matrix measure of the papers, batched over ``(..., C, C)``.
published    the papers' printed numbers and the errata.
examples     the papers' example confusion matrices (cm1..cm9, Table 4, Pacc matrices).
data         fetching UCI datasets (ucimlrepo, then an offline mirror) into canonical tables.
engines      classifier engines (scikit-learn, Weka) behind one interface.
kappa        lazy, chunked kappa product grids (re-exported by measures).
confusion    predictions <-> confusion matrices (long format, configured class order).
config       config loading, schema-independent checks, DatasetSpec/CVSpec builders.
measure_table, grids, ranking, plotting
             measures.csv, pd over kappa grids (Figure 7), ranking tables (Tables 6-9).
paper, paper_figures, reproduction
             paper artefacts that need no data, and published-vs-reproduced comparison.
kappa_search search a kappa grid for vectors that reproduce a printed row.
stats, cd_diagram
             significance tests across and within datasets, critical-difference diagrams.
exact, exact_plots
             exact distributions of pd over kappa spaces, win probabilities, robustness.
io           atomic writes and logging for the workflow scripts.
scoring      scikit-learn style scores of label vectors (preference_driven_score, pacc_score,
             cen_score, iba_score, average_accuracy_score), re-exported here.
cli          the ``pdmeasure`` command (score, compare, explore).
"""

__version__ = "0.1.0"

#: Scores of label vectors re-exported from :mod:`pdmeasure.scoring`, loaded on first access so
#: that ``import pdmeasure`` imports neither NumPy nor scikit-learn.
_SCORERS = (
    "preference_driven_score",
    "pacc_score",
    "cen_score",
    "iba_score",
    "average_accuracy_score",
)

__all__ = ["__version__", *_SCORERS]


def __getattr__(name: str):
    """Load a re-exported scorer from :mod:`pdmeasure.scoring` on first access."""
    if name in _SCORERS:
        from . import scoring

        return getattr(scoring, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SCORERS))
