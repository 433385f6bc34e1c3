"""The confusion-matrix accumulator: batches, merges, learned label order and groups."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdmeasure.measures import ConfusionAccumulator, sorted_labels
from pdmeasure.measures.labels import confusion_matrix


def _whole(y_true, y_pred, labels):
    """The whole-array path: one count matrix of all samples."""
    return confusion_matrix(list(y_true), list(y_pred), labels)


def test_chunks_smaller_than_the_classes_equal_the_whole_array():
    rng = np.random.default_rng(3)
    classes = np.array([f"c{i}" for i in range(7)])
    y_true, y_pred = classes[rng.integers(0, 7, 500)], classes[rng.integers(0, 7, 500)]
    acc = ConfusionAccumulator()
    for start in range(0, 500, 3):  # 3 rows per batch, fewer than the 7 classes
        acc.update(y_true[start : start + 3], y_pred[start : start + 3])
    result = acc.result()
    assert result.labels == sorted(classes.tolist())
    np.testing.assert_array_equal(result.counts[0], _whole(y_true, y_pred, result.labels))
    assert acc.n_samples == 500


def test_a_label_first_seen_late_grows_the_matrix_in_sorted_place():
    acc = ConfusionAccumulator()
    acc.update(["b", "c"], ["c", "c"])
    acc.update(["a"], ["b"])
    result = acc.result()
    assert result.labels == ["a", "b", "c"]
    np.testing.assert_array_equal(result.counts[0], [[0, 1, 0], [0, 0, 1], [0, 0, 1]])


def test_learned_order_is_numeric_when_every_label_is_a_number():
    assert sorted_labels(["10", "2", "1", "2"]) == ["1", "2", "10"]
    assert sorted_labels(["10", "2", "x"]) == ["10", "2", "x"]
    assert sorted_labels([3, 1.5, 2]) == [1.5, 2, 3]
    acc = ConfusionAccumulator()
    acc.update(["10", "9"], ["9", "10"])
    assert acc.labels == ["9", "10"]


def test_given_labels_fix_the_order_and_reject_others():
    acc = ConfusionAccumulator(labels=["z", "a"])
    acc.update(["a", "z", "z"], ["z", "z", "a"])
    np.testing.assert_array_equal(acc.result().counts[0], [[1, 1], [1, 0]])
    with pytest.raises(ValueError, match="'q' is not one of the given labels"):
        acc.update(["q"], ["a"])


def test_groups_give_one_matrix_each_in_order_of_first_appearance():
    acc = ConfusionAccumulator()
    acc.update(["a", "b", "a"], ["a", "a", "b"], by=["m2", "m1", "m2"])
    acc.update(["b"], ["b"], by=["m3"])
    result = acc.result()
    assert result.groups == ["m2", "m1", "m3"]
    assert result.counts.shape == (3, 2, 2)
    np.testing.assert_array_equal(result.as_dict()["m2"], [[1, 1], [0, 0]])
    np.testing.assert_array_equal(result.as_dict()["m1"], [[0, 0], [1, 0]])
    np.testing.assert_array_equal(result.as_dict()["m3"], [[0, 0], [0, 1]])


def test_pre_encoded_batches_and_missing_codes():
    acc = ConfusionAccumulator()
    acc.update_codes([0, 1, 1], [1, 1, 0], ["y", "x"])
    # samples (y, x), (x, x), (x, y) in the order x, y
    np.testing.assert_array_equal(acc.result().counts[0], [[1, 1], [1, 0]])
    with pytest.raises(ValueError, match="sample 1 .* no label"):
        acc.update_codes([0, -1], [0, 0], ["x"])


def test_tallied_batches_equal_their_samples_one_by_one():
    rng = np.random.default_rng(4)
    y_true, y_pred = rng.integers(0, 4, 300), rng.integers(0, 4, 300)
    by = rng.integers(0, 3, 300)
    one = ConfusionAccumulator()
    one.update_codes(y_true, y_pred, list("abcd"), by, ["m0", "m1", "m2"])
    cells, counts = np.unique(np.stack([y_true, y_pred, by]), axis=1, return_counts=True)
    tallied = ConfusionAccumulator()
    tallied.update_codes(cells[0], cells[1], list("abcd"), cells[2], ["m0", "m1", "m2"], counts)
    tallied.update_codes([0], [3], list("abcd"), [1], ["m0", "m1", "m2"], counts=[0])
    assert tallied.n_samples == one.n_samples == 300
    assert tallied.result().groups == one.result().groups
    np.testing.assert_array_equal(tallied.result().counts, one.result().counts)


@pytest.mark.parametrize(
    ("counts", "message"),
    [([1, -1], "non-negative whole numbers"), ([1, 0.5], "non-negative whole numbers"),
     ([1], r"counts has shape \(1,\) but the batch has 2 entries")],
)  # fmt: skip
def test_bad_counts_are_rejected(counts, message):
    acc = ConfusionAccumulator()
    with pytest.raises(ValueError, match=message):
        acc.update_codes([0, 1], [1, 0], ["x", "y"], counts=counts)
    assert acc.n_samples == 0


def test_mismatched_lengths_are_rejected():
    with pytest.raises(ValueError, match="y_true has 2 labels but y_pred has 1"):
        ConfusionAccumulator().update(["a", "b"], ["a"])


batches = st.lists(
    st.lists(
        st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef"), st.sampled_from("PQR")),
        max_size=12,
    ),
    min_size=1,
    max_size=6,
)


def _filled(batch) -> ConfusionAccumulator:
    acc = ConfusionAccumulator()
    if batch:
        y_true, y_pred, by = (list(column) for column in zip(*batch, strict=True))
        acc.update(y_true, y_pred, by=by)
    return acc


@settings(max_examples=60, deadline=None)
@given(batches, st.randoms(use_true_random=False))
def test_merging_in_any_order_equals_accumulating_all_in_one(parts, random):
    one = _filled([row for part in parts for row in part]).result()
    order = list(range(len(parts)))
    random.shuffle(order)
    merged = ConfusionAccumulator()
    for i in order:
        merged.merge(_filled(parts[i]))
    result = merged.result()
    assert result.labels == one.labels
    assert set(result.groups) == set(one.groups)
    for group, counts in one.as_dict().items():
        np.testing.assert_array_equal(result.as_dict()[group], counts)
