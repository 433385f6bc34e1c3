"""config/README.md: generated from the config schema, current, and naming every key."""

from __future__ import annotations

from helpers import REPO_ROOT, assert_check_flag, need_module

need_module("yaml")

from pdmeasure.render import config_doc  # noqa: E402


def _property_names(node, found: set[str]) -> set[str]:
    """Every name under any ``properties`` of the raw schema, found by plain recursion."""
    if isinstance(node, dict):
        for name, child in node.get("properties", {}).items():
            found.add(name)
            _property_names(child, found)
        for key, child in node.items():
            if key != "properties":
                _property_names(child, found)
    elif isinstance(node, list):
        for child in node:
            _property_names(child, found)
    return found


def test_committed_page_is_current():
    page = REPO_ROOT / "config" / "README.md"
    assert page.read_text(encoding="utf-8") == config_doc.render(), (
        "config/README.md is out of date: run python -m pdmeasure.render.config_doc"
    )


def test_every_schema_key_has_a_row_with_its_description():
    schema = config_doc.load_schema()
    page = config_doc.render(schema)
    documented = {path.rsplit(".", 1)[-1] for path, _ in config_doc.keys(schema)}
    assert _property_names(schema, set()) <= documented
    for path, node in config_doc.keys(schema):
        assert f"| `{path}` |" in page or f"## `{path}`" in page, path
        first_words = " ".join(node.get("description", "").split()[:3])
        assert config_doc._escape(first_words) in page, path


def test_defaults_are_shown():
    page = config_doc.render()
    assert "| `cv.folds` | integer in [2, inf] | `10` |" in page
    assert "Default of `classifiers.sklearn`:" in page


def test_a_new_key_changes_the_page():
    schema = config_doc.load_schema()
    schema["properties"]["cv"]["properties"]["shuffle"] = {
        "type": "boolean",
        "default": True,
        "description": "Shuffle before splitting.",
    }
    assert "| `cv.shuffle` | boolean | `true` | Shuffle before splitting. |" in config_doc.render(
        schema
    )


def test_check_flag(tmp_path):
    target = tmp_path / "README.md"
    assert_check_flag(config_doc.main, target)
