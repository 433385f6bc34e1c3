"""Ranking tables in the layout of paper 000, Tables 6-9 (pipeline step 6).

Classifiers are the columns (configured order); the rows are accuracy, macro precision, macro
recall, F1 (``f1_macro``, eq. 23), MCC (eq. 25), pd at the default kappa (eq. 31) and pd at
each configured kappa vector. Each cell reads ``value (rank)`` with 4 decimals. Rank 1 is the
best (largest) value; values equal at the printed precision share the best rank and the next
rank is skipped, as in Table 6's ``0.8600 (1) ... 0.8600 (1)`` followed by ``(3)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD

#: Decimals printed in the ranking tables, as in the papers' Tables 6-9; ranks are taken on
#: values rounded to them.
TABLE_DECIMALS = 4

#: (row label, registry measure) of the fixed rows, in the paper's order.
FIXED_ROWS = (
    ("accuracy", "accuracy"),
    ("precision", "precision_macro"),
    ("recall", "recall_macro"),
    ("F1", "f1_macro"),
    ("MCC", "mcc"),
)
RANKING_COLUMNS = ("engine", "dataset", "row", "classifier", "value", "rank")


def table_rows(kappa_vectors: Mapping[str, Sequence[float]]) -> list[tuple[str, str, str]]:
    """``(row label, measure, kappa name)`` of every table row, in order.

    The kappa name is the ``kappa`` cell of ``measures.csv``. Row labels match :func:`pdmeasure.paper.published.load`: ``pd default`` and ``pd <name>``.
    """
    rows = [(label, measure, NO_KAPPA) for label, measure in FIXED_ROWS]
    rows.append(("pd default", PD, DEFAULT_KAPPA))
    rows += [(f"pd {name}", PD, str(name)) for name in kappa_vectors]
    return rows


def competition_ranks(values: Sequence[float], decimals: int = TABLE_DECIMALS) -> np.ndarray:
    """Rank 1 = largest; ties at ``decimals`` share the best rank ("1 1 3"); NaN ranks NaN.

    Ties are judged on the printed numbers (``f"{v:.4f}"``), so two classifiers shown with the
    same value always show the same rank.
    """
    printed = np.array([float(f"{v:.{decimals}f}") for v in np.asarray(values, dtype=float)])
    # scipy.stats.rankdata(-printed, method="min", nan_policy="omit"), written out: rule
    # analyse ranks every dataset's tables, and scipy.stats costs its process 0.65 CPU-s to
    # import. The same numbers and dtype (tests/unit/test_ranking.py): rank = 1 + how many
    # values are larger (NaN is larger than nothing), int64, or float64 with NaN for NaN.
    ranks = 1 + (printed[None, :] > printed[:, None]).sum(axis=1)
    known = ~np.isnan(printed)
    return ranks if known.all() else np.where(known, ranks, np.nan)


def _looked_up(lookup: pd.Series, key: tuple[str, str, str], where: str) -> float:
    """The value of one ``(measure, kappa, classifier)``; ValueError naming it when missing."""
    try:
        return float(lookup.loc[key])
    except KeyError:
        raise ValueError(f"measures.csv has no {key[0]!r} (kappa {key[1]!r}) for {where}") from None


def ranking_table(
    measures: pd.DataFrame,
    *,
    engine: str,
    dataset: str,
    classifiers: Sequence[str],
    kappa_vectors: Mapping[str, Sequence[float]],
    decimals: int = TABLE_DECIMALS,
) -> pd.DataFrame:
    """Tidy ranking table of one engine and dataset from ``measures.csv`` rows.

    Parameters
    ----------
    measures : DataFrame
        ``measures.csv`` as read by :func:`pdmeasure.tables.measures.read_measures`.
    engine, dataset : str
    classifiers : sequence of str
        Column order (the configured classifiers of ``engine``).
    kappa_vectors : mapping
        Vector name -> kappa vector (config ``datasets.<dataset>.kappa_vectors``).

    Returns
    -------
    DataFrame
        Columns :data:`RANKING_COLUMNS`, rows in table order then classifier order.

    Raises
    ------
    ValueError
        If a (row, classifier) value is missing from or duplicated in ``measures``.
    """
    sub = measures[(measures["engine"] == engine) & (measures["dataset"] == dataset)]
    lookup = sub.set_index(["measure", "kappa", "classifier"])["value"]
    if not lookup.index.is_unique:
        raise ValueError(f"measures for {engine}/{dataset} contain duplicate rows")
    parts = []
    for label, measure, kappa in table_rows(kappa_vectors):
        values = [
            _looked_up(lookup, (measure, kappa, c), f"{engine}/{dataset}/{c}") for c in classifiers
        ]
        parts.append(
            pd.DataFrame(
                {
                    "engine": engine,
                    "dataset": dataset,
                    "row": label,
                    "classifier": list(classifiers),
                    "value": values,
                    "rank": competition_ranks(values, decimals),
                }
            )
        )
    table = pd.concat(parts, ignore_index=True)
    table["rank"] = table["rank"].astype("Int64")
    return table[list(RANKING_COLUMNS)]
