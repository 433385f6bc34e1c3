"""The `uncertainty:` config block: defaults from the schema, range errors naming key and fix."""

from __future__ import annotations

import pytest

from pdmeasure.pipeline.config import check_uncertainty, validate_schema
from pdmeasure.pipeline.errors import ConfigError


def test_schema_fills_the_defaults():
    config = validate_schema({"datasets": {"toy": {"path": "toy.csv"}}})
    assert config["uncertainty"] == {
        "method": "posterior",
        "draws": 4000,
        "prior": None,
        "level": 0.95,
        "rope": 0.01,
        "seed": 0,
    }


def test_unknown_method_names_the_key():
    config = {"datasets": {"toy": {"path": "toy.csv"}}, "uncertainty": {"method": "jackknife"}}
    with pytest.raises(ConfigError, match=r"`uncertainty.method`"):
        validate_schema(config)


@pytest.mark.parametrize(
    ("block", "key", "fix"),
    [
        ({"level": 1.0}, "level", "0.95"),
        ({"level": 0.0}, "level", "0.95"),
        ({"level": 95}, "level", "not 95"),
        ({"level": 0.5, "draws": 50}, "draws", "`uncertainty.draws: 100`"),
        ({"draws": 150}, "draws", "`uncertainty.draws: 200`"),
        ({"level": 0.99, "draws": 500}, "draws", "`uncertainty.draws: 1000`"),
        ({"prior": -0.5}, "prior", "Jeffreys"),
        ({"prior": 0}, "prior", "Jeffreys"),
        ({"rope": -0.01}, "rope", "turn equivalence off"),
        ({"seed": -3}, "seed", "non-negative"),
    ],
)
def test_out_of_range_values_name_the_key_and_the_fix(block, key, fix):
    with pytest.raises(ConfigError) as caught:
        check_uncertainty(block)
    message = str(caught.value)
    assert message.startswith(f"config key `uncertainty.{key}`")
    assert "to fix" in message and fix in message


@pytest.mark.parametrize(
    "block",
    [{}, {"draws": 200, "level": 0.95}, {"draws": 1000, "level": 0.99}, {"prior": 1, "rope": 0}],
)
def test_valid_blocks_pass(block):
    check_uncertainty(block)
