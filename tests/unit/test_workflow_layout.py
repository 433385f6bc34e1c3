"""The workflow's layout, read from its files without running Snakemake: every rule runs the
script of its own name and has a log and a benchmark file, every script belongs to a rule,
and the documentation's rule -> script -> function map lists every rule."""

from __future__ import annotations

import importlib
import re

import pytest

from helpers import REPO_ROOT

RULE_FILES = [REPO_ROOT / "Snakefile", *sorted((REPO_ROOT / "workflow" / "rules").glob("*.smk"))]
#: The target rule: it names the outputs of a run and runs nothing.
TARGET_RULES = {"all"}


def _rules() -> dict[str, str]:
    """Rule name -> its block's text, over the Snakefile and every rule file.

    A rule defined in a loop (``rule:`` with a ``name:`` directive, one rule per batch of the
    CV plan) counts under the name of its script, which each of its names starts with
    (test_procedural_rule_names_start_with_their_script)."""
    rules = {}
    for path in RULE_FILES:
        text = path.read_text(encoding="utf-8")
        starts = [
            (m.start(), m.group(1) or "") for m in re.finditer(r"(?m)^\s*rule(?: (\w+))?:", text)
        ]
        for (start, name), (end, _) in zip(starts, [*starts[1:], (len(text), "")]):
            block = text[start:end]
            if not name:
                name = re.search(r'script:\s*\n\s*"\.\./scripts/(\w+)\.py"', block).group(1)
            rules[name] = block
    return rules


RULES = _rules()
WORKING = sorted(set(RULES) - TARGET_RULES)


def test_the_rules_are_found():
    assert len(WORKING) >= 10 and "cross_validate_part" in WORKING and "analyse" in WORKING


@pytest.mark.parametrize("rule", WORKING)
def test_each_rule_runs_the_script_of_its_name_logs_and_benchmarks(rule):
    block = RULES[rule]
    assert re.search(r'script:\s*\n\s*"\.\./scripts/' + rule + r'\.py"', block), rule
    assert re.search(r"\n\s*log:\s*\n", block), f"rule {rule} has no log:"
    # One benchmark file per job log: benchmarks/pipeline_figures.py sums both.
    assert re.search(r"\n\s*benchmark:\s*\n", block), f"rule {rule} has no benchmark:"


def test_procedural_rule_names_start_with_their_script():
    block = RULES["cross_validate_batch"]
    assert re.search(r"\n\s*name:\s*\n\s*cv_batch_name\(batch\)", block)
    plan = (REPO_ROOT / "workflow" / "rules" / "plan.smk").read_text(encoding="utf-8")
    assert 'return f"cross_validate_batch_{engine}_{dataset}_' in plan


def test_every_script_belongs_to_a_rule():
    scripts = {p.stem for p in (REPO_ROOT / "workflow" / "scripts").glob("*.py")}
    assert scripts == set(WORKING)


def test_the_documented_map_lists_every_rule():
    text = (REPO_ROOT / "docs" / "pipeline.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"(?m)^\| `(\w+)` \| `workflow/scripts/(\w+)\.py` \|", text))
    assert set(rows) == set(WORKING)
    assert all(rule == script for rule, script in rows.items())


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` names a module or an attribute path of one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


def test_the_documented_functions_exist():
    text = (REPO_ROOT / "docs" / "pipeline.md").read_text(encoding="utf-8")
    rows = re.findall(r"(?m)^\| `\w+` \| `workflow/scripts/\w+\.py` \| (.*) \|$", text)
    names = [n for row in rows for n in re.findall(r"`(pdmeasure\.[\w.]+)`", row)]
    assert len(names) >= len(WORKING)
    assert [n for n in names if not _resolves(n)] == []
