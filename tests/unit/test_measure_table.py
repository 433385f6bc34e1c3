"""measures.csv rows: one per registry measure, pd at default and at each kappa vector."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pdmeasure import measures
from pdmeasure.measures.weights import format_kappa, parse_kappa
from pdmeasure.tables.confusion import pooled_matrices, predictions_to_long
from pdmeasure.tables.measures import MEASURE_COLUMNS, measures_table, read_measures

CLASSES = ["b", "a", "c"]  # deliberately not sorted: the order is positional for kappa
VECTORS = {"p1": [0, 0.8, 1], "p2": [0.33, 0.66, 0.5]}


@pytest.fixture
def pooled():
    rng = np.random.default_rng(3)
    frames = []
    for classifier in ("X", "Y"):
        actual = rng.choice(CLASSES, size=60)
        predicted = np.where(rng.random(60) < 0.7, actual, rng.choice(CLASSES, size=60))
        pred = pd.DataFrame(
            {"repeat": 0, "fold": np.arange(60) % 3, "actual": actual, "predicted": predicted}
        )
        frames.append(
            predictions_to_long(pred, CLASSES, engine="e", dataset="toy", classifier=classifier)
        )
    return pooled_matrices(pd.concat(frames), {"toy": CLASSES})


def test_rows_equal_direct_measure_calls(pooled):
    table = measures_table(pooled, {"toy": VECTORS}, zero_division=0.0)
    assert tuple(table.columns) == MEASURE_COLUMNS
    for (_, _, classifier), cm in pooled.items():
        rows = table[table["classifier"] == classifier].set_index(["measure", "kappa"])["value"]
        for name, func in measures.REGISTRY.items():
            if name == "preference_driven":
                continue
            assert rows[(name, "")] == pytest.approx(func(cm, zero_division=0.0), nan_ok=True)
        assert rows[("preference_driven", "default")] == pytest.approx(
            measures.preference_driven(cm, None, zero_division=0.0)
        )
        for name, vector in VECTORS.items():
            assert rows[("preference_driven", name)] == pytest.approx(
                measures.preference_driven(cm, vector, zero_division=0.0)
            )
        written = table[table["classifier"] == classifier].set_index("kappa")["kappa_values"]
        for name, vector in VECTORS.items():
            assert written[name] == format_kappa(vector)
        shares = cm.sum(axis=1) / cm.sum()
        np.testing.assert_allclose(parse_kappa(written["default"]), shares, rtol=1e-15)
    n_rows = len(measures.REGISTRY) - 1 + 1 + len(VECTORS)
    assert len(table) == n_rows * len(pooled)


def test_kappa_written_like_the_contract():
    assert format_kappa([0, 0.8, 0.6, 1]) == "0;0.8;0.6;1"
    assert format_kappa([0.33, 0.166, 1.0]) == "0.33;0.166;1"
    np.testing.assert_array_equal(parse_kappa("0;0.8;0.6;1"), [0, 0.8, 0.6, 1])
    with pytest.raises(ValueError, match="kappa vector"):
        parse_kappa("0,0.8")


def test_wrong_vector_length_names_the_key(pooled):
    with pytest.raises(
        ValueError,
        match=r"datasets\.toy\.kappa_vectors\.bad: kappa has 2 value\(s\) but there are 3 classes",
    ):
        measures_table(pooled, {"toy": {"bad": [0, 1]}})


def test_round_trip_keeps_empty_kappa_as_text(pooled, tmp_path):
    table = measures_table(pooled, {"toy": VECTORS}, zero_division=0.0)
    path = tmp_path / "measures.csv"
    table.to_csv(path, index=False)
    back = read_measures(path)
    assert (back["kappa"] == table["kappa"]).all()
    assert (back["kappa_values"] == table["kappa_values"]).all()
    np.testing.assert_allclose(back["value"], table["value"], rtol=0, atol=0)


def test_two_names_for_one_vector_give_a_row_each(pooled):
    table = measures_table(pooled, {"toy": {"a": [0, 1, 0.5], "b": [0.0, 1.0, 0.5]}})
    pd_rows = table[(table["measure"] == "preference_driven") & (table["classifier"] == "X")]
    assert list(pd_rows["kappa"]) == ["default", "a", "b"]
    assert list(pd_rows["kappa_values"])[1:] == ["0;1;0.5", "0;1;0.5"]
    assert pd_rows["value"].iloc[1] == pd_rows["value"].iloc[2]
