"""The documentation of the measures: generated page up to date, complete docstrings."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re

import pytest

import pdmeasure._validation
import pdmeasure.measures.weights
from helpers import assert_check_flag
from pdmeasure import measures as M
from pdmeasure.render import measures_doc as docs

EXPECTED_KEYS = [
    "accuracy",
    "error_rate",
    "average_accuracy",
    "precision_macro",
    "recall_macro",
    "f1_macro",
    "f1_macro_mean",
    "precision_micro",
    "recall_micro",
    "f1_micro",
    "specificity_macro",
    "balanced_accuracy",
    "mcc",
    "kappa",
    "cen",
    "pacc",
    "g_mean",
    "iba",
    "preference_driven",
]
CITATION = re.compile(r"paper 00[01]|Sokolova|Espindola|Garcia")


def test_registry_keys_are_exactly_the_contract():
    assert list(M.REGISTRY) == EXPECTED_KEYS
    assert list(M.INFO) == EXPECTED_KEYS
    for name, func in M.REGISTRY.items():
        assert M.INFO[name].function is func
        params = inspect.signature(func).parameters
        assert params["zero_division"].kind is inspect.Parameter.KEYWORD_ONLY
        assert params["zero_division"].default == "nan"


def test_committed_docs_page_is_up_to_date(repo_root):
    page = repo_root / "docs" / "measures.md"
    assert page.read_text(encoding="utf-8") == docs.render(), (
        "docs/measures.md is out of date: run python -m pdmeasure.render.measures_doc"
    )


def test_docs_check_flag(tmp_path):
    target = tmp_path / "measures.md"
    assert_check_flag(docs.main, target)


def test_docs_page_lists_every_measure():
    page = docs.render()
    for name, info in M.INFO.items():
        assert f"### `{name}`" in page
        assert f"| [`{name}`](#{name}) |" in page
        assert info.source in page


@pytest.mark.parametrize("name", EXPECTED_KEYS)
def test_measure_docstring_is_complete(name):
    doc = inspect.getdoc(M.REGISTRY[name])
    for section in ("Parameters", "Returns", "Raises"):
        assert re.search(rf"^{section}\n-+$", doc, re.M), f"{name}: no {section} section"
    assert CITATION.search(doc.splitlines()[0]), f"{name}: summary line cites no source"
    returns = docs._section(M.REGISTRY[name], "Returns")
    assert "Range" in returns or "range" in returns, f"{name}: no range"
    direction = "higher is better" if M.INFO[name].higher_is_better else "lower is better"
    assert direction in returns, f"{name}: direction must read '{direction}'"
    assert "zero_division" in doc


MEASURE_MODULES = [
    importlib.import_module(f"{M.__name__}.{info.name}")
    for info in pkgutil.iter_modules(M.__path__)
]


@pytest.mark.parametrize(
    "module",
    [M, *MEASURE_MODULES, pdmeasure.measures.weights, pdmeasure._validation],
    ids=lambda m: m.__name__,
)
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_docstring_examples_are_found():
    """The examples live in the submodules; make sure doctest still sees them."""
    attempted = {
        module.__name__: doctest.testmod(module, optionflags=doctest.ELLIPSIS).attempted
        for module in MEASURE_MODULES
    }
    assert attempted[f"{M.__name__}.preference"] >= 5, attempted


def test_measure_functions_keep_their_signature_and_names():
    """@measure builds the public functions: plain signatures, names and modules."""
    for name, func in M.REGISTRY.items():
        assert func.__name__ == name
        assert func.__module__.startswith(M.__name__)
        assert "cm" in inspect.signature(func).parameters
        assert not hasattr(func, "__wrapped__")
