"""The facts of the two seed papers that code reads: identifiers, tables, classifiers, precision.

Every other module imports these names from here, so that a fact is written once.

Paper 000 is Kozak et al., *Preference-driven classification measure* (2022); paper 001 is
Sigdel and Aygun, *Pacc* (``../shared/papers/``).
"""

from __future__ import annotations

#: Identifiers of the papers in ``published.csv`` and every tidy paper table.
PD_PAPER = "preference-driven"
PACC_PAPER = "pacc"
PAPERS = (PD_PAPER, PACC_PAPER)

#: Paper 000, Tables 6-9: the ranking table of each dataset (Section 5).
PD_DATASET_TABLES = {"car": "6", "nursery": "7", "dermatology": "8", "krkopt": "9"}

#: Paper 000's classifiers (Weka 3.6), in the column order of Tables 6-9.
PD_CLASSIFIERS = ("Bagging", "BayesNet", "DecisionTable", "J48", "RandomForest")

#: Suffix of a rank column in ``published.csv`` (``"J48 rank"`` next to ``"J48"``).
RANK_SUFFIX = " rank"


def dataset_of_table(table: str) -> str | None:
    """The dataset of a paper-000 ranking table (``"6"`` -> ``"car"``), None for other tables."""
    return {number: name for name, number in PD_DATASET_TABLES.items()}.get(str(table))


def table_title(dataset: str, engine: str) -> str:
    """``Table 6: car (engine sklearn)`` for the paper's datasets, a generic title otherwise."""
    number = PD_DATASET_TABLES.get(dataset)
    prefix = f"Table {number}" if number is not None else "Ranking table"
    return f"{prefix}: {dataset} (engine {engine})"
