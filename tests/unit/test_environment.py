"""environment.yml (the conda route) installs what pyproject.toml's extras install."""

from __future__ import annotations

import tomllib

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from helpers import REPO_ROOT


def _pyproject() -> dict:
    with open(REPO_ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)


def _environment() -> dict[str, Requirement]:
    """Every package of environment.yml, conda's and pip's, by canonical name."""
    with open(REPO_ROOT / "environment.yml", encoding="utf-8") as handle:
        dependencies = yaml.safe_load(handle)["dependencies"]
    specs: list[str] = []
    for entry in dependencies:
        if isinstance(entry, dict):
            specs += [s for s in entry["pip"] if not s.startswith("-e")]
        elif entry != "pip":
            specs.append(entry)
    found = {}
    for spec in specs:
        # conda's "name=version" pins a version as "==version*"; only openjdk uses it.
        requirement = Requirement(
            spec.replace("=17", "==17") if spec.startswith("openjdk") else spec
        )
        found[canonicalize_name(requirement.name)] = requirement
    return found


def _extras() -> list[tuple[str, Requirement]]:
    project = _pyproject()["project"]
    rows = [("dependencies", Requirement(spec)) for spec in project["dependencies"]]
    for extra, specs in project["optional-dependencies"].items():
        rows += [(extra, Requirement(spec)) for spec in specs]
    return rows


@pytest.mark.parametrize(
    ("extra", "requirement"), _extras(), ids=lambda value: str(value).split(";")[0]
)
def test_every_package_of_pyproject_is_in_environment_yml_at_the_same_versions(extra, requirement):
    environment = _environment()
    name = canonicalize_name(requirement.name)
    assert name in environment, (
        f"{requirement} (pyproject.toml, {extra}) is missing from environment.yml: add it, "
        "under pip: when conda-forge and bioconda do not have it"
    )
    assert environment[name].specifier == requirement.specifier, (
        f"{name}: environment.yml asks for {environment[name].specifier or 'any version'}, "
        f"pyproject.toml ({extra}) for {requirement.specifier or 'any version'}"
    )


def test_environment_yml_asks_for_the_python_that_pyproject_supports():
    python = _environment()["python"].specifier
    assert python == Requirement(f"python{_pyproject()['project']['requires-python']}").specifier


def test_environment_yml_holds_nothing_that_pyproject_lacks():
    declared = {canonicalize_name(r.name) for _, r in _extras()}
    extra = set(_environment()) - declared - {"python", "pip", "openjdk"}
    assert not extra, f"environment.yml has {sorted(extra)}, which no extra of pyproject.toml has"
