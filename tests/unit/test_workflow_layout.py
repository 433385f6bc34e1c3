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
    """Rule name -> its block's text, over the Snakefile and every rule file."""
    rules = {}
    for path in RULE_FILES:
        text = path.read_text(encoding="utf-8")
        starts = [(m.start(), m.group(1)) for m in re.finditer(r"(?m)^\s*rule(?: (\w+))?:", text)]
        for (start, name), (end, _) in zip(starts, [*starts[1:], (len(text), "")]):
            assert name, f"{path.name}: a rule without a name (every rule is written out, named)"
            assert name not in rules, f"rule {name} is defined twice"
            rules[name] = text[start:end]
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


def test_no_rule_is_made_in_a_loop_or_from_python():
    """Every rule is written out in a rule file: none is defined inside a Python block
    (indented ``rule``) or with a ``name:`` directive."""
    for path in RULE_FILES:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?m)^[ \t]+rule\b.*:", text), path.name
        assert not re.search(r"(?m)^\s*name:\s*$", text), path.name


def test_the_workflow_uses_no_private_snakemake_internals():
    pattern = re.compile(r"_executor|job_rate_limiter|executor\.sleep")
    for path in [
        *RULE_FILES,
        *(REPO_ROOT / "src").rglob("*.py"),
        *(REPO_ROOT / "workflow").rglob("*.py"),
    ]:
        assert not pattern.search(path.read_text(encoding="utf-8")), path


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
