"""pdmeasure: the preference-driven classification measure and its reproduction pipeline.

Layout
------
The library (numpy and scipy only):

measures   every confusion-matrix measure of the papers, batched over ``(..., C, C)``, their
           registry, and kappa vectors and product grids (``measures.weights``).
exact      exact distributions of pd over kappa spaces, win probabilities, robustness.
stats      omnibus, post-hoc and paired significance tests.

Built on it:

scoring    scikit-learn style scores of label vectors (needs scikit-learn), re-exported here.
cli        the ``pdmeasure`` command (score, compare, explore).
pipeline   the workflow's plumbing: config, fetching, engines, CV, tidy tables (``[pipeline]``).
paper      everything about the two seed papers: facts, published values, errata, examples,
           reproduction comparison.
render     every figure, Markdown table and HTML page, from tidy files.
"""

from importlib.metadata import PackageNotFoundError, version

# The version lives in one place, pyproject.toml's `version`; the installed metadata carries it.
try:
    __version__ = version("pdmeasure")
except PackageNotFoundError:  # a source tree on sys.path without an install
    __version__ = "0+unknown"

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
        from pdmeasure import scoring

        return getattr(scoring, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SCORERS))
