"""Sphinx configuration of the pdmeasure documentation (``make docs``).

Why Sphinx with the PyData theme, numpydoc and MyST: the library's docstrings are numpydoc
(the convention of NumPy, SciPy and scikit-learn), and numpydoc renders them as written,
with their formulas and references; Sphinx's autodoc/autosummary build the API reference
from the packages' ``__all__`` and nitpicky mode turns every reference to a name that does
not exist into an error. The PyData theme is the one SciPy, pandas and scikit-learn use, so
the site reads like the rest of the scientific Python stack. MyST lets the hand-written pages
stay Markdown (``docs/*.md``, readable on a code host too). mkdocs-material with
mkdocstrings is the other common choice, but it renders numpydoc less completely and has
no equivalent of nitpicky cross-reference checking.

The build runs offline: no intersphinx inventories are fetched, so references to names of
other projects (numpy, scipy, scikit-learn, ...) cannot be resolved and are ignored by
``nitpick_ignore_regex`` below; every reference to a ``pdmeasure`` name must resolve.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

from pdmeasure import __version__  # noqa: E402

project = "pdmeasure"
author = "The pdmeasure developers"
copyright = "2026, The pdmeasure developers"  # noqa: A001 (Sphinx's name)
version = release = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.doctest",
    "numpydoc",
    "myst_parser",
    "pdmeasure_docs",  # docs/_ext: the API pages from __all__, the CLI's --help texts
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_generated/run", "_tools", "_ext", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# Every reference must resolve (-n on the command line does the same).
nitpicky = True
nitpick_ignore_regex = [
    # Other projects' names: offline build, no intersphinx inventories.
    (r"py:.*", r"(numpy|np|scipy|sklearn|pandas|pd|matplotlib|jsonschema|snakemake)(\..*)?"),
    (r"py:.*", r"(collections\.abc|typing|pathlib|os|io|argparse|logging|fractions|itertools)\..*"),
]

# The packages whose public names (their ``__all__``) the API reference lists; a package that
# does not exist yet is left out without a warning (pdmeasure_docs.api_packages).
api_packages = [
    "pdmeasure.measures",
    "pdmeasure.exact",
    "pdmeasure.stats",
    "pdmeasure.scoring",
    "pdmeasure.uncertainty",
]

autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # the numpydoc sections carry the types
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_fence_as_directive = ["math"]  # docs/measures.md writes its equations as ```math
myst_heading_anchors = 3  # [`mcc`](#mcc) links of the generated pages
# The pages of the index's toctree (its line ``pdmeasure-pages``), in this order when they
# exist, followed by every other ``docs/*.md`` in name order (pdmeasure_docs.page_list): a
# page added by another change comes in without editing the index, and a page named here
# that does not exist yet is left out.
page_order = [
    "getting-started",
    "library",
    "cli",
    "pipeline",
    "own-experiment",
    "study",
    "config",
    "cluster",
    "scale-out",
    "own-results",
    "uncertainty",
    "uncertainty-pipeline",
    "measures",
    "figures",
    "reproduction",
    "errata",
    "performance",
]

html_theme = "pydata_sphinx_theme"
html_title = f"pdmeasure {__version__}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_static_path: list[str] = []
html_extra_path = [p for p in ["_generated/explorer_wine.html"] if (DOCS / p).exists()]


def _check_importable() -> None:
    """The reference is built from the installed package: fail early when it is missing."""
    importlib.import_module("pdmeasure.measures")


_check_importable()
