"""pdmeasure.tables.uncertainty: the uncertainty step's tables, without a Snakemake run."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from helpers import RANKING_ROWS

# The library package lands separately; until it is installed these tests have nothing to test.
from pdmeasure.tables import uncertainty as ut
from pdmeasure.tables.confusion import POOLED, from_long, pooled_matrices, predictions_to_long
from pdmeasure.tables.frames import frame_from_parts
from pdmeasure.tables.measures import measures_table

CLASSES = ["x", "y", "z"]
CLASSIFIERS = ["A", "B", "C"]
KAPPAS = {"p1": [0.0, 1.0, 0.5]}
KEYS = {"engine": "e", "dataset": "toy"}


def predictions(repeats: int = 1, n: int = 240, seed: int = 0) -> pd.DataFrame:
    """Predictions of three classifiers of rising accuracy, 3 folds per repeat."""
    rng = np.random.default_rng(seed)
    actual = rng.choice(CLASSES, n, p=[0.6, 0.3, 0.1])
    parts = []
    for r in range(1, repeats + 1):
        for i, name in enumerate(CLASSIFIERS):
            right = rng.random(n) < 0.6 + 0.15 * i
            parts.append(
                pd.DataFrame(
                    {
                        "engine": "e",
                        "dataset": "toy",
                        "classifier": name,
                        "repeat": r,
                        "fold": rng.permutation(np.arange(n) % 3 + 1),
                        "row": np.arange(n),
                        "actual": actual,
                        "predicted": np.where(right, actual, rng.choice(CLASSES, n)),
                    }
                )
            )
    return pd.concat(parts, ignore_index=True)


def point_values(cms: np.ndarray, kappas: dict) -> pd.DataFrame:
    """The measures table of the classifiers' pooled matrices: the intervals' point values."""
    return measures_table(
        {("e", "toy", name): cm for name, cm in zip(CLASSIFIERS, cms)},
        {"toy": kappas},
        zero_division=0.0,
    )


def confusion(pred: pd.DataFrame) -> pd.DataFrame:
    return pd.concat(
        [
            predictions_to_long(
                group[["repeat", "fold", "actual", "predicted"]],
                CLASSES,
                engine="e",
                dataset="toy",
                classifier=name,
            )
            for name, group in pred.groupby("classifier", sort=False)
        ],
        ignore_index=True,
    )


def test_fold_matrices_equal_each_folds_matrix_from_its_rows():
    pred = predictions(repeats=2)
    long = confusion(pred).sample(frac=1.0, random_state=4)
    matrices, repeats = ut.fold_matrices(long, CLASSIFIERS, CLASSES)
    folds = long[long["fold"] != POOLED].assign(fold=lambda f: f["fold"].astype(int))
    expected = [
        [from_long(group, CLASSES) for _, group in part.groupby(["repeat", "fold"], sort=True)]
        for part in (folds[folds["classifier"] == name] for name in CLASSIFIERS)
    ]
    np.testing.assert_array_equal(matrices, np.array(expected))
    assert matrices.dtype == np.int64 and repeats == 2
    unknown = long.assign(actual=long["actual"].replace(CLASSES[0], "w"))
    with pytest.raises(ValueError, match=r"labels \['w'\] are not among the classes"):
        ut.fold_matrices(unknown, CLASSIFIERS, CLASSES)


def pooled(pred: pd.DataFrame) -> np.ndarray:
    by_key = pooled_matrices(confusion(pred), {"toy": CLASSES})
    return np.stack([by_key[("e", "toy", name)] for name in CLASSIFIERS])


def settings(**changes) -> dict:
    base = {"method": "posterior", "draws": 400, "prior": 0.5, "level": 0.9, "rope": 0.01}
    return {**base, "seed": 0, **changes}


def test_stream_seed_depends_on_the_seed_and_every_name_only():
    seed = ut.stream_seed(0, "sklearn", "car")
    assert seed == ut.stream_seed(0, "sklearn", "car")
    others = {
        ut.stream_seed(1, "sklearn", "car"),
        ut.stream_seed(0, "weka", "car"),
        ut.stream_seed(0, "sklearn", "nursery"),
        ut.stream_seed(0, "car", "sklearn"),
    }
    assert seed not in others and len(others) == 4


@pytest.mark.parametrize(
    ("probs", "expected"),
    [
        ((0.96, 0.04, 0.0), "A better"),
        ((0.0, 0.04, 0.96), "B better"),
        ((0.02, 0.96, 0.02), "equivalent"),
        ((0.5, 0.45, 0.05), "undecided"),
        ((0.949, 0.051, 0.0), "undecided"),
        ((np.nan, np.nan, np.nan), "no data"),
    ],
)
def test_verdict_needs_a_probability_of_095(probs, expected):
    assert ut.verdict(*probs, "A", "B") == expected


@pytest.mark.parametrize("method", ["posterior", "bootstrap"])
def test_intervals_have_the_measures_values_and_the_draws_are_paired(method):
    pred = predictions(repeats=2)
    cms = pooled(pred)
    chosen = settings(method=method)
    matrices = ut.draw_matrices(
        chosen, pooled=cms, predictions=pred, classifiers=CLASSIFIERS, classes=CLASSES, seed=3
    )
    assert matrices.shape == (400, 3, 3, 3)
    # each draw keeps every actual-class total of the pooled matrices (both repeats)
    np.testing.assert_allclose(matrices.sum(axis=-1), np.broadcast_to(cms.sum(-1), (400, 3, 3)))
    draws = ut.value_draws(matrices, KAPPAS, zero_division=0.0)
    table = ut.interval_table(cms, draws, ut.Scope(KEYS, CLASSIFIERS, KAPPAS, 0.0), settings=chosen)
    expected = point_values(cms, KAPPAS)
    assert table[["classifier", "measure", "kappa"]].equals(
        expected[["classifier", "measure", "kappa"]]
    )
    np.testing.assert_array_equal(table["value"], expected["value"])
    assert (table["lower"] <= table["upper"]).all()
    assert (table["method"] == method).all() and (table["level"] == 0.9).all()


@pytest.mark.parametrize("method", ["posterior", "bootstrap"])
def test_a_declared_class_without_samples_keeps_its_empty_row(method):
    """A class the source declares but no sample has ("w"): its row is zero in the pooled
    matrices and in every draw, and the intervals are those of the 4-class matrices."""
    pred = predictions()
    classes = [*CLASSES, "w"]
    kappas = {"p1": [0.0, 1.0, 0.5, 0.25]}
    by_key = pooled_matrices(confusion(pred), {"toy": classes})
    cms = np.stack([by_key[("e", "toy", name)] for name in CLASSIFIERS])
    assert cms.shape == (3, 4, 4) and not cms[:, 3, :].any()
    chosen = settings(method=method)
    matrices = ut.draw_matrices(
        chosen, pooled=cms, predictions=pred, classifiers=CLASSIFIERS, classes=classes, seed=3
    )
    assert matrices.shape == (400, 3, 4, 4)
    np.testing.assert_array_equal(matrices[..., 3, :], 0)
    draws = ut.value_draws(matrices, kappas, zero_division=0.0)
    table = ut.interval_table(cms, draws, ut.Scope(KEYS, CLASSIFIERS, kappas, 0.0), settings=chosen)
    expected = point_values(cms, kappas)
    np.testing.assert_array_equal(table["value"], expected["value"])
    assert (table["lower"] <= table["upper"]).all()


def test_bootstrap_refuses_a_missing_prediction():
    pred = predictions()
    pred = pred.drop(index=pred.index[(pred["classifier"] == "B") & (pred["row"] == 5)])
    with pytest.raises(ValueError, match="B, repeat 1: not every sample once"):
        ut.prediction_arrays(pred, CLASSIFIERS)


def test_pairwise_ranks_and_companion_agree():
    pred = predictions()
    cms = pooled(pred)
    chosen = settings()
    matrices = ut.draw_matrices(
        chosen, pooled=cms, predictions=None, classifiers=CLASSIFIERS, classes=CLASSES, seed=1
    )
    draws = ut.value_draws(matrices, KAPPAS, zero_division=0.0)
    scope = ut.Scope(KEYS, CLASSIFIERS, KAPPAS, 0.0)
    pairwise = ut.pairwise_table(matrices, draws, scope, kappa_grid=[0, 1], settings=chosen, seed=1)
    total = pairwise[["p_better", "p_equivalent", "p_worse"]].sum(axis=1)
    np.testing.assert_allclose(total, 1.0, atol=1e-9)
    # the error rate is better when lower: C (most accurate) beats A on it
    row = pairwise[
        (pairwise["measure"] == "error_rate")
        & (pairwise["classifier_a"] == "C")
        & (pairwise["classifier_b"] == "A")
    ]
    assert float(row["p_better"].iloc[0]) > 0.95
    ranks = ut.rank_table(draws, scope)
    intervals = ut.interval_table(cms, draws, scope, settings=chosen)
    companion = ut.companion_table(intervals, ranks, classifiers=CLASSIFIERS, kappa_vectors=KAPPAS)
    assert list(companion["row"].unique()) == [*RANKING_ROWS, "pd p1"]
    np.testing.assert_allclose(companion.groupby("row")["p_first"].sum(), 1.0, atol=1e-9)
    accuracy = companion[companion["row"] == "accuracy"].set_index("classifier")
    assert accuracy.loc["C", "rank"] == 1 and accuracy.loc["A", "rank"] == 3


def test_within_table_orients_the_correlated_t_test():
    pred = predictions(n=600)
    folds, runs = ut.fold_matrices(confusion(pred), CLASSIFIERS, CLASSES)
    assert folds.shape == (3, 3, 3, 3) and runs == 1
    table = ut.within_table(folds, runs, ut.Scope(KEYS, CLASSIFIERS, KAPPAS, 0.0), rope=0.01)
    total = table[["p_a_better", "p_equivalent", "p_b_better"]].sum(axis=1)
    np.testing.assert_allclose(total, 1.0, atol=1e-6)
    pick = table.set_index(["measure", "classifier_a", "classifier_b"])
    # C is more accurate than A on every fold: better on accuracy, better on the error rate
    assert pick.loc[("accuracy", "A", "C"), "p_b_better"] > 0.9
    assert pick.loc[("error_rate", "A", "C"), "p_b_better"] > 0.9


def measures_frame(values: dict[str, list[float]], measure="accuracy") -> pd.DataFrame:
    rows = [
        {
            "engine": "e",
            "dataset": f"d{i}",
            "classifier": name,
            "measure": measure,
            "kappa": "",
            "kappa_values": "",
            "value": v,
        }
        for name, series in values.items()
        for i, v in enumerate(series)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("measure", "sign"), [("accuracy", 1.0), ("error_rate", -1.0)])
def test_signed_rank_table_says_which_is_better_by_the_measures_direction(measure, sign):
    base = np.array([0.70, 0.80, 0.85, 0.90, 0.75, 0.95])
    frame = measures_frame({"A": list(base), "B": list(base + sign * 0.1)}, measure)
    table = ut.signed_rank_table(
        frame, comparisons=[(measure, "")], classifiers={"e": ["A", "B"]}, rope=0.01, seed=0
    )
    row = table.iloc[0]
    assert row["n_datasets"] == 6 and row["verdict"] == "B better"
    assert row["p_b_better"] > 0.95
    again = ut.signed_rank_table(
        frame, comparisons=[(measure, "")], classifiers={"e": ["A", "B"]}, rope=0.01, seed=0
    )
    pd.testing.assert_frame_equal(table, again)


def test_signed_rank_table_on_one_dataset_says_no_data():
    frame = measures_frame({"A": [0.8], "B": [0.9]})
    table = ut.signed_rank_table(
        frame, comparisons=[("accuracy", "")], classifiers={"e": ["A", "B"]}, rope=0.01, seed=0
    )
    assert table["verdict"].tolist() == ["no data"] and table["p_a_better"].isna().all()


def test_within_table_on_identical_folds_is_certain_equivalence():
    pred = predictions()
    folds, runs = ut.fold_matrices(confusion(pred), CLASSIFIERS, CLASSES)
    same = np.stack([folds[0], folds[0]])
    table = ut.within_table(same, runs, ut.Scope(KEYS, ["A", "A2"], KAPPAS, 0.0), rope=0.01)
    assert (table["verdict"] == "equivalent").all() and (table["p_equivalent"] == 1.0).all()


#: The kinds of column the tables' parts hold: the cells of one column are of one kind in
#: every part (floats, NaN among them; whole numbers; text; booleans), or, as the exact
#: histogram's counts under uniform kappa, whole numbers in some parts and "" in others.
_KINDS = {
    "float": st.floats(allow_nan=True, allow_infinity=False, width=64),
    "int": st.integers(-(2**40), 2**40),
    "text": st.text(max_size=3),
    "bool": st.booleans(),
    "count or empty": st.one_of(st.integers(0, 2**40), st.just("")),
}


@st.composite
def _parts(draw):
    """Blocks of rows over three columns, each column in each block a value for all of its
    rows or one cell per row (a list, or a 1-d array of numbers)."""
    kinds = {column: draw(st.sampled_from(sorted(_KINDS))) for column in ("a", "b", "c")}
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 4))
        part = {}
        for column, kind in kinds.items():
            if kind == "count or empty" and draw(st.booleans()):
                part[column] = ""
                continue
            cells = _KINDS["int" if kind == "count or empty" else kind]
            shape = draw(st.sampled_from(["value", "list", "array"]))
            if shape == "value":
                part[column] = draw(cells)
            elif shape == "list" or kind == "text":
                part[column] = draw(st.lists(cells, min_size=n, max_size=n))
            else:
                part[column] = np.array(draw(st.lists(cells, min_size=n, max_size=n)))
        parts.append((n, part))
    return parts


@hypothesis_settings(deadline=None)  # pandas builds a frame per part for the expected table
@given(_parts())
def test_frame_from_parts_equals_a_frame_per_part_concatenated(parts):
    columns = ["c", "a", "b"]
    frames = [pd.DataFrame(part, index=range(n)) for n, part in parts]
    expected = pd.concat(frames, ignore_index=True)[columns]
    got = frame_from_parts(parts, columns)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert got.to_csv(index=False) == expected.to_csv(index=False)
