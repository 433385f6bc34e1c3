"""One default for the zero-division policy: every function and settings class of the library,
the tidy tables and the command that takes ``zero_division`` defaults to
:data:`pdmeasure._validation.ZERO_DIVISION_DEFAULT`; only the papers' home (their convention,
0) and the scikit-learn scorers (scikit-learn's ``"warn"``) differ, on purpose."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import math
import pkgutil
import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import pdmeasure
from pdmeasure import scoring
from pdmeasure._validation import ZERO_DIVISION_DEFAULT, check_zero_division
from pdmeasure.cli.app import build_parser

#: Packages whose defaults follow a convention of their own (see the module docstring).
OWN_CONVENTION = ("pdmeasure.paper", "pdmeasure.scoring")


def _modules():
    for info in pkgutil.walk_packages(pdmeasure.__path__, "pdmeasure."):
        if not info.name.startswith(OWN_CONVENTION) and info.name != "pdmeasure.__main__":
            yield importlib.import_module(info.name)


def _defaults():
    """(qualified name, default) of every ``zero_division`` parameter or field."""
    for module in _modules():
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__:
                continue  # imported from elsewhere: checked where it is defined
            if dataclasses.is_dataclass(obj):
                for field in dataclasses.fields(obj):
                    if field.name == "zero_division":
                        yield f"{module.__name__}.{name}", field.default
            callables = [obj]
            if inspect.isclass(obj):
                callables = [v for v in vars(obj).values() if inspect.isfunction(v)]
            for fn in callables:
                if not callable(fn):
                    continue
                try:
                    parameter = inspect.signature(fn).parameters.get("zero_division")
                except (TypeError, ValueError):
                    continue
                if parameter is not None and parameter.default is not inspect.Parameter.empty:
                    yield (
                        f"{module.__name__}.{getattr(fn, '__qualname__', name)}",
                        parameter.default,
                    )


DEFAULTS = sorted(set(_defaults()), key=lambda item: item[0])


def test_the_walk_finds_the_library_tables_and_command():
    names = {name for name, _ in DEFAULTS}
    for expected in (
        "pdmeasure.measures.preference.preference_driven",
        "pdmeasure.exact.analysis.ExactSettings",
        "pdmeasure.uncertainty.summaries",
        "pdmeasure.tables.measures.measures_table",
    ):
        assert any(name.startswith(expected) for name in names), expected
    assert len(DEFAULTS) > 30


@pytest.mark.parametrize(("name", "default"), DEFAULTS, ids=[name for name, _ in DEFAULTS])
def test_every_zero_division_default_is_the_one_default(name, default):
    assert math.isnan(check_zero_division(default)) and math.isnan(
        check_zero_division(ZERO_DIVISION_DEFAULT)
    ), f"{name} defaults to zero_division={default!r}, not {ZERO_DIVISION_DEFAULT!r}"


def test_the_command_defaults_to_the_one_default():
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command, sub in subparsers.choices.items():
        defaults = [a.default for a in sub._actions if a.dest == "zero_division"]
        assert defaults == [ZERO_DIVISION_DEFAULT], command


def test_model_selection_never_sees_nan():
    """A first shallow tree that never predicts a class scores 0 with a warning (scikit-learn's
    convention), so GridSearchCV gets finite scores only."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = np.repeat(["a", "b", "c"], 40)
    X[y == "a", 0] += 3
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 3]},
        scoring=make_scorer(scoring.preference_driven_score),
        cv=StratifiedKFold(3, shuffle=True, random_state=0),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # "non-finite test scores" would raise
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        search.fit(X, y)
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()
