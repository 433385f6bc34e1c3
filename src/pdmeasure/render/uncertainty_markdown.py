"""Markdown of the uncertainty step: the companion ranking tables and the report's Bayesian
section. Every number is computed in ``pdmeasure.tables.uncertainty`` (verdicts
included); these functions only format it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from pdmeasure.paper.facts import table_title
from pdmeasure.render.markdown import ranking_grid
from pdmeasure.tables.io import require_columns
from pdmeasure.tables.rankings import FIXED_ROWS, TABLE_DECIMALS
from pdmeasure.tables.stats import measure_label
from pdmeasure.tables.uncertainty_schema import (
    ACROSS_COLUMNS,
    COMPANION_COLUMNS,
    VERDICT_THRESHOLD,
)


def companion_markdown(
    table: pd.DataFrame,
    kappa_vectors: Mapping[str, Sequence[float]],
    *,
    decimals: int = TABLE_DECIMALS,
) -> str:
    """The companion of a ranking table: ``value [lower, upper] (rank)`` cells, then each
    classifier's probability of ranking first, row by row."""
    require_columns(table.columns, COMPANION_COLUMNS, "companion table")
    engines, datasets = table["engine"].unique(), table["dataset"].unique()
    if len(engines) != 1 or len(datasets) != 1:
        raise ValueError("companion_markdown renders one engine and dataset at a time")
    cells = pd.Series(
        [
            f"{v:.{decimals}f} [{lo:.{decimals}f}, {hi:.{decimals}f}] "
            f"({'-' if pd.isna(r) else int(r)})"
            for v, lo, hi, r in zip(table["value"], table["lower"], table["upper"], table["rank"])
        ],
        index=table.index,
    )
    firsts = pd.Series([f"{p:.3f}" for p in table["p_first"]], index=table.index)
    level, method = float(table["level"].iloc[0]), str(table["method"].iloc[0])
    title = table_title(str(datasets[0]), str(engines[0]))
    note = (
        f"Value of each measure, its {level:g} interval ({method} draws) in square brackets and "
        f"the classifier's rank in round brackets; ties at {decimals} decimals share the best "
        "rank, as in the ranking table."
    )
    first_note = (
        "Probability that each classifier ranks first on the row's measure (over the same "
        "draws; ties share the rank)."
    )
    return (
        f"# {title}: intervals and ranks\n\n{note}\n\n"
        f"{ranking_grid(table, cells, kappa_vectors).to_markdown(disable_numparse=True)}\n\n"
        f"## Probability of ranking first\n\n{first_note}\n\n"
        f"{ranking_grid(table, firsts, kappa_vectors).to_markdown(disable_numparse=True)}\n"
    )


#: Measures the report's Bayesian section lists (the ranking tables' rows); the CSV has all.
REPORT_MEASURES = tuple(measure for _, measure in FIXED_ROWS)


def bayesian_markdown(across: pd.DataFrame) -> str:
    """The statistics report's section on the Bayesian signed-rank tests across datasets.

    One table per engine: per compared measure (the ranking tables' rows, and pd at every
    kappa compared across datasets) and pair, P(A better), P(equivalent) and P(B better) and
    the verdict of :func:`pdmeasure.tables.uncertainty_schema.verdict`.
    """
    require_columns(across.columns, ACROSS_COLUMNS, "signed-rank table")
    shown = across[across["measure"].isin(REPORT_MEASURES) | (across["kappa"] != "")]
    rope = float(across["rope"].iloc[0]) if len(across) else float("nan")
    lines = [
        "## Bayesian comparison across datasets",
        "",
        "Bayesian signed-rank test (Benavoli et al. 2014; 2017, JMLR 18(77)) on each pair's "
        f"values over the datasets, with a region of practical equivalence (ROPE) of {rope:g}: "
        "the probabilities that A is better by more than the ROPE, that the two are within it, "
        "and that B is better. Unlike a p-value, these say what the data support even with "
        f"few datasets: a verdict needs a probability of at least {VERDICT_THRESHOLD:g}, "
        "otherwise the pair is *undecided*. Every measure is in "
        "`uncertainty/across_signed_rank.csv`.",
        "",
    ]
    tested = shown[shown["n_datasets"] >= 2]
    if tested.empty:
        most = int(across["n_datasets"].max()) if len(across) else 0
        lines += [f"Only {most} dataset(s) per pair: nothing to compare across datasets.", ""]
    for engine, part in tested.groupby("engine", sort=False):
        frame = pd.DataFrame(
            {
                "measure": [measure_label(m, k) for m, k in zip(part["measure"], part["kappa"])],
                "A": part["classifier_a"],
                "B": part["classifier_b"],
                "datasets": part["n_datasets"].astype(int),
                "P(A better)": [_p(v) for v in part["p_a_better"]],
                "P(equivalent)": [_p(v) for v in part["p_equivalent"]],
                "P(B better)": [_p(v) for v in part["p_b_better"]],
                "verdict": part["verdict"],
            }
        )
        decided = int((~part["verdict"].isin(["undecided", "no data"])).sum())
        lines += [
            f"### {engine}",
            "",
            f"{decided} of {len(part)} comparisons reach a verdict.",
            "",
            frame.to_markdown(index=False, disable_numparse=True),
            "",
        ]
    return "\n".join(lines)


def _p(value: float) -> str:
    return "NaN" if pd.isna(value) else f"{value:.3f}"
