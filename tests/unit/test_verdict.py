"""Cliff's delta, the effect-size table, and the verdicts in words written from the tables
across datasets (small synthetic studies)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from pdmeasure.render.verdict import measure_verdict, verdict_markdown
from pdmeasure.stats.effect_size import cliffs_delta, cliffs_delta_magnitude
from pdmeasure.tables.effect_sizes import (
    EFFECT_COLUMNS,
    effect_size_table,
    read_effect_sizes,
)
from pdmeasure.tables.io import write_csv
from pdmeasure.tables.stats import AcrossTables, read_stats_table
from pdmeasure.tables.stats_across import compare_across_datasets
from pdmeasure.tables.uncertainty_schema import ACROSS_COLUMNS

NAMES = ["J48", "BayesNet", "RandomForest"]


def study(n_datasets: int, gains=(0.0, 0.02, 0.05), noise=0.01, seed=0) -> pd.DataFrame:
    """measures.csv rows of three classifiers: accuracy = a dataset's level + the classifier's
    gain + noise, and error rate = 1 - accuracy."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_datasets):
        level = rng.uniform(0.6, 0.9)
        for name, gain in zip(NAMES, gains):
            accuracy = level + gain + rng.normal(0, noise)
            for measure, value in (("accuracy", accuracy), ("error_rate", 1 - accuracy)):
                rows.append(
                    {
                        "engine": "weka",
                        "dataset": f"d{d}",
                        "classifier": name,
                        "measure": measure,
                        "kappa": "",
                        "kappa_values": "",
                        "value": value,
                    }
                )
    return pd.DataFrame(rows)


def bayes_rows(probs: dict[tuple[str, str], tuple[float, float, float]], rope=0.01):
    """A signed-rank table of accuracy with the given (P(a), P(equal), P(b)) per pair."""
    return pd.DataFrame(
        [
            {
                "engine": "weka",
                "measure": "accuracy",
                "kappa": "",
                "classifier_a": a,
                "classifier_b": b,
                "p_a_better": p[0],
                "p_equivalent": p[1],
                "p_b_better": p[2],
                "rope": rope,
                "n_datasets": 5,
                "verdict": "",
            }
            for (a, b), p in probs.items()
        ],
        columns=list(ACROSS_COLUMNS),
    )


# --- Cliff's delta ----------------------------------------------------------------------


def test_cliffs_delta_counts_dominance_over_all_pairs():
    assert cliffs_delta([4, 5], [1, 2]) == 1.0
    assert cliffs_delta([1, 2], [4, 5]) == -1.0
    assert cliffs_delta([1, 2, 3], [3, 2, 1]) == 0.0
    # 10 x 6 pairs: 22 wins, 26 losses
    x = [10, 20, 20, 20, 30, 30, 30, 40, 50, 100]
    y = [10, 20, 30, 40, 40, 50]
    assert cliffs_delta(x, y) == pytest.approx(-4 / 60, abs=1e-15)
    assert cliffs_delta(y, x) == -cliffs_delta(x, y)


def test_cliffs_delta_refuses_empty_and_missing_values():
    with pytest.raises(ValueError, match="at least one value"):
        cliffs_delta([], [1.0])
    with pytest.raises(ValueError, match="NaN"):
        cliffs_delta([math.nan], [1.0])


@pytest.mark.parametrize(
    ("delta", "label"),
    [
        (0.0, "negligible"),
        (-0.1469, "negligible"),
        (0.147, "small"),
        (-0.3299, "small"),
        (0.33, "medium"),
        (0.474, "large"),
        (-1.0, "large"),
        (math.nan, ""),
    ],
)
def test_magnitudes_of_romano_et_al(delta, label):
    assert cliffs_delta_magnitude(delta) == label


def test_effect_table_says_positive_for_the_better_classifier(tmp_path):
    frame = study(4)
    table = effect_size_table(frame, classifiers={"weka": NAMES})
    assert tuple(table.columns) == EFFECT_COLUMNS
    by = table.set_index(["measure", "classifier_a", "classifier_b"])["value"]
    # error rate is better low: its delta is negated, so both measures agree
    assert by["accuracy", "J48", "RandomForest"] == by["error_rate", "J48", "RandomForest"] < 0
    write_csv(table, tmp_path / "effects.csv")
    back = read_effect_sizes(tmp_path / "effects.csv")
    pd.testing.assert_frame_equal(back, table, check_dtype=False)


def test_effect_table_uses_the_datasets_where_both_have_a_value():
    frame = study(4)
    frame.loc[(frame["dataset"] == "d0") & (frame["classifier"] == "J48"), "value"] = np.nan
    table = effect_size_table(frame, comparisons=[("accuracy", ""), ("kappa", "")])
    counts = table.set_index(["measure", "classifier_a", "classifier_b"])["n_datasets"]
    assert counts["accuracy", "J48", "BayesNet"] == 3
    assert counts["accuracy", "BayesNet", "RandomForest"] == 4
    missing = table[table["measure"] == "kappa"]
    assert missing["value"].isna().all() and (missing["n_datasets"] == 0).all()


# --- verdicts ---------------------------------------------------------------------------


def test_clear_winner_is_significantly_better_than_every_other():
    frame = study(12, gains=(0.0, 0.04, 0.08), noise=0.005)
    across = compare_across_datasets(frame, alpha=0.05, classifiers={"weka": NAMES})
    effects = effect_size_table(frame, classifiers={"weka": NAMES})
    text = measure_verdict(across, engine="weka", measure="accuracy", effects=effects)
    assert text.startswith(
        "**accuracy (weka)**: On 12 datasets, RandomForest is best by accuracy (mean rank "
        "1.00); significantly better than every other classifier (Iman-Davenport p < 0.001, "
        "Nemenyi)."
    )
    assert "Iman-Davenport's F on the ranks" in text and "no normality is assumed" in text
    assert "Mean ranks (1 = best): RandomForest 1.00, BayesNet 2.00, J48 3.00." in text
    assert "RandomForest better than J48 (rank difference 2.00)" in text
    assert "Cliff's delta" in text and "J48 +" in text
    assert "(large)" in text or "(medium)" in text or "(small)" in text


def test_error_rate_verdict_names_the_same_best():
    frame = study(12, gains=(0.0, 0.04, 0.08), noise=0.005)
    across = compare_across_datasets(frame, alpha=0.05)
    text = measure_verdict(across, engine="weka", measure="error_rate")
    assert "RandomForest is best by error_rate (mean rank 1.00)" in text


def test_noise_alone_gives_no_significant_difference():
    frame = study(8, gains=(0.0, 0.0, 0.0), noise=0.02, seed=3)
    across = compare_across_datasets(frame, alpha=0.05)
    text = measure_verdict(across, engine="weka", measure="accuracy")
    assert "; no significant difference among the classifiers (Iman-Davenport p = " in text
    assert "not significant at alpha = 0.05" in text
    assert "Nemenyi's critical difference CD = " in text


def test_bayesian_clause_names_equivalent_better_and_undecided():
    frame = study(5)
    across = compare_across_datasets(frame, alpha=0.05)
    best = across.ranks.query("measure == 'accuracy'").sort_values("average_rank")
    first, second, third = best["classifier"]
    bayes = bayes_rows(
        {
            (second, first): (0.01, 0.97, 0.02),  # the best second in the pair: reoriented
            (first, third): (0.50, 0.30, 0.20),
        }
    )
    text = measure_verdict(across, engine="weka", measure="accuracy", bayesian=bayes)
    assert (
        f"the Bayesian signed-rank test (ROPE 0.01, P >= 0.95) finds {first} practically "
        f"equivalent to {second}; undecided against {third}."
    ) in text
    assert f"{first} vs {second}: P({first} better) = 0.020, P(equivalent) = 0.970" in text
    everything = bayes_rows({(first, second): (0.96, 0.04, 0.0), (first, third): (1, 0, 0)})
    text = measure_verdict(across, engine="weka", measure="accuracy", bayesian=everything)
    assert f"finds {first} better than {second} and {third}." in text


def test_a_single_dataset_allows_no_test():
    across = compare_across_datasets(study(1), alpha=0.05)
    text = measure_verdict(across, engine="weka", measure="accuracy")
    assert "On 1 dataset, RandomForest is best by accuracy" in text
    assert "a single dataset allows no test across datasets" in text
    assert "Test:" not in text


def test_a_comparison_not_run_says_why():
    omnibus = pd.DataFrame(
        [
            {
                "engine": "weka",
                "measure": "preference_driven",
                "kappa": "p1",
                "test": "iman_davenport",
                "p_value": math.nan,
                "significant": False,
                "note": "p1 differs across datasets (a: [0, 1], b: [1, 0, 1]); not pooled",
            }
        ]
    )
    empty = pd.DataFrame(columns=["engine", "measure", "kappa"])
    across = AcrossTables(empty, omnibus, empty, empty)
    text = measure_verdict(across, engine="weka", measure="preference_driven", kappa="p1")
    assert text == (
        "**preference_driven [p1] (weka)**: not compared across datasets: p1 differs across "
        "datasets (a: [0, 1], b: [1, 0, 1]); not pooled."
    )


def test_tied_best_classifiers_are_named_together():
    frame = study(6, gains=(0.0, 0.05, 0.05), noise=0.0)
    frame.loc[frame["classifier"] == "RandomForest", "value"] = frame.loc[
        frame["classifier"] == "BayesNet", "value"
    ].to_numpy()
    across = compare_across_datasets(frame, alpha=0.05)
    text = measure_verdict(across, engine="weka", measure="accuracy")
    assert "BayesNet and RandomForest (tied) are best by accuracy (mean rank 1.50)" in text


def test_verdicts_from_the_csv_files_read_back(tmp_path):
    frame = study(6)
    across = compare_across_datasets(frame, alpha=0.05)
    read = []
    for name, table in zip(AcrossTables._fields, across):
        write_csv(table, tmp_path / f"{name}.csv")
        read.append(read_stats_table(tmp_path / f"{name}.csv"))
    back = AcrossTables(*read)
    for measure in ("accuracy", "error_rate"):
        fresh = measure_verdict(across, engine="weka", measure=measure)
        assert measure_verdict(back, engine="weka", measure=measure) == fresh


def test_markdown_has_one_paragraph_per_measure():
    across = compare_across_datasets(study(6), alpha=0.05)
    text = verdict_markdown(across, keys=[("error_rate", ""), ("accuracy", "")])
    assert text.startswith("## Verdicts\n\n### weka\n\n**error_rate (weka)**")
    assert text.count("**accuracy (weka)**") == 1
