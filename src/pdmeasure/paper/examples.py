"""Example confusion matrices printed in (or reconstructed from) the papers.

Rows = actual class, columns = predicted class.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

#: Paper 000 (preference-driven), Figure 1: nine 2-class matrices with 10 samples per class.
#: Figure 1 is only an image; these follow from Table 3 and the text of Section 4.2.
PD_FIGURE1: dict[str, np.ndarray] = {
    "cm1": np.array([[10, 0], [0, 10]]),
    "cm2": np.array([[10, 0], [2, 8]]),
    "cm3": np.array([[10, 0], [4, 6]]),
    "cm4": np.array([[10, 0], [5, 5]]),
    "cm5": np.array([[8, 2], [4, 6]]),
    "cm6": np.array([[8, 2], [5, 5]]),
    "cm7": np.array([[6, 4], [5, 5]]),
    "cm8": np.array([[5, 5], [0, 10]]),
    "cm9": np.array([[10, 0], [10, 0]]),
}

#: Paper 000, Table 4: 3 classes with 50, 20 and 30 samples.
PD_TABLE4 = np.array([[40, 7, 3], [8, 10, 2], [9, 1, 20]])

#: The grid of Section 4.2: every kappa in {0, 0.1, ..., 1}^2 (121 vectors).
PD_SECTION42_VALUES = tuple(round(0.1 * i, 1) for i in range(11))

#: The authors' public example (github.com/jankozak/preference-driven, example.py): this matrix
#: with kappa [0.3, 0.1, 0.9] gives pd = 0.6641628736750688 (:func:`authors_reference` holds it
#: with the authors' krkopt matrices).
PD_AUTHORS_EXAMPLE = np.array([[100, 10, 10], [10, 80, 30], [1, 10, 30]])
PD_AUTHORS_EXAMPLE_KAPPA = (0.3, 0.1, 0.9)

# Pacc paper (Sigdel and Aygun), Tables 1 and 3. Each printed row of those tables holds several
# matrices side by side (Table 1: five 2-class matrices per row, two columns O_0 O_1 each;
# Table 3: four 3-class matrices per row, three columns O_0 O_1 O_2 each). Rows C_i = actual.

#: Pacc Table 1: the 2-class matrices A..J (Table 2 prints their measures).
PACC_TABLE1: dict[str, np.ndarray] = {
    "A": np.array([[50, 0], [0, 50]]),
    "B": np.array([[25, 25], [25, 25]]),
    "C": np.array([[50, 0], [50, 0]]),
    "D": np.array([[10, 40], [40, 10]]),
    "E": np.array([[0, 50], [50, 0]]),
    "F": np.array([[80, 0], [0, 20]]),
    "G": np.array([[70, 10], [10, 10]]),
    "H": np.array([[80, 0], [20, 0]]),
    "I": np.array([[40, 40], [10, 10]]),
    "J": np.array([[0, 80], [20, 0]]),
}

#: Pacc Table 3: the 3-class matrices A..H, 60 items per actual class (Table 4 prints their
#: measures).
PACC_TABLE3: dict[str, np.ndarray] = {
    "A": np.array([[60, 0, 0], [0, 60, 0], [0, 0, 60]]),
    "B": np.array([[40, 0, 20], [0, 60, 0], [0, 0, 60]]),
    "C": np.array([[30, 30, 0], [0, 60, 0], [0, 0, 60]]),
    "D": np.array([[30, 15, 15], [0, 60, 0], [0, 0, 60]]),
    "E": np.array([[40, 10, 10], [10, 40, 10], [10, 10, 40]]),
    "F": np.array([[0, 30, 30], [0, 60, 0], [0, 0, 60]]),
    "G": np.array([[20, 20, 20], [20, 20, 20], [20, 20, 20]]),
    "H": np.array([[0, 0, 60], [0, 60, 0], [60, 0, 0]]),
}

#: Pacc Table 6: row factors applied to Table 3's matrices (2nd row x2, 3rd row x5).
PACC_TABLE6_ROW_FACTORS = (1, 2, 5)

#: Pacc Table 6: Table 3's matrices with the 2nd row doubled and the 3rd row times 5.
PACC_TABLE6: dict[str, np.ndarray] = {
    name: cm * np.array(PACC_TABLE6_ROW_FACTORS)[:, None] for name, cm in PACC_TABLE3.items()
}


def compositions(total: int, parts: int) -> np.ndarray:
    """Every way to split ``total`` items into ``parts`` ordered non-negative counts.

    Parameters
    ----------
    total : int
        Number of items (>= 0).
    parts : int
        Number of cells (>= 1).

    Returns
    -------
    numpy.ndarray
        Integer array ``(comb(total + parts - 1, parts - 1), parts)``, rows in lexicographic
        order (the order of ``itertools.product(range(total + 1), repeat=parts)`` filtered by
        sum).
    """
    if isinstance(total, bool) or not isinstance(total, (int, np.integer)) or total < 0:
        raise ValueError(f"total must be a non-negative integer, got {total!r}")
    if isinstance(parts, bool) or not isinstance(parts, (int, np.integer)) or parts < 1:
        raise ValueError(f"parts must be a positive integer, got {parts!r}")
    if parts == 1:
        return np.array([[total]])
    blocks = []
    for first in range(total + 1):
        rest = compositions(total - first, parts - 1)
        blocks.append(np.column_stack([np.full(len(rest), first), rest]))
    return np.concatenate(blocks, axis=0)


def all_matrices(per_class: int = 5, n_classes: int = 3) -> np.ndarray:
    """Every confusion matrix with ``per_class`` items in each actual class (Pacc Table 5).

    Each row of the matrix is independently one of the compositions of ``per_class`` into
    ``n_classes`` cells, so there are ``comb(per_class + n_classes - 1, n_classes - 1) **
    n_classes`` matrices: 21**3 = 9261 for the Pacc paper's 3-class problem with 5 items per
    class (Section 5.3).

    Parameters
    ----------
    per_class : int
        Items per actual class (row sum).
    n_classes : int
        Number of classes.

    Returns
    -------
    numpy.ndarray
        Integer array ``(n_matrices, n_classes, n_classes)``, in ``itertools.product`` order
        over the rows (last row fastest).
    """
    rows = compositions(per_class, n_classes)
    n = len(rows)
    index = np.indices((n,) * n_classes).reshape(n_classes, -1).T  # product order
    return rows[index]


#: Pacc Table 5: 3 classes, 5 items per actual class -> 9261 matrices.
PACC_TABLE5_PER_CLASS = 5
PACC_TABLE5_CLASSES = 3


def pacc_table5_matrices() -> np.ndarray:
    """The 9261 matrices of Pacc Table 5 (:func:`all_matrices` with 5 items, 3 classes)."""
    return all_matrices(PACC_TABLE5_PER_CLASS, PACC_TABLE5_CLASSES)


#: The package file with the paper authors' published krkopt matrices and worked pd example.
AUTHORS_REFERENCE_FILE = "authors-krkopt-weka.json"


@cache
def _authors_reference_text() -> str:
    path = resources.files("pdmeasure.paper").joinpath("data", AUTHORS_REFERENCE_FILE)
    return path.read_text(encoding="utf-8")


def authors_reference() -> dict[str, Any]:
    """The paper authors' published krkopt Weka matrices and their worked pd example.

    Confusion matrices of Weka 3.6's 10-fold cross-validation on krkopt (Bagging, BayesNet,
    DecisionTable, J48 and RandomForest, the columns of Table 9 of the preference-driven
    paper), and the matrix, kappa vector and pd value of the authors' example, as published
    in their repository (github.com/jankozak/preference-driven, ``example.py``, commit
    a5679e3; the file's ``source`` key).

    Returns
    -------
    dict
        ``about``, ``source``, ``dataset``, ``class_order`` (rows and columns of every
        matrix), ``confusion_matrices`` (classifier -> nested lists, rows actual, columns
        predicted) and ``authors_example`` (``matrix``, ``kappa``, ``preference_driven``).
        A fresh copy on every call.
    """
    return json.loads(_authors_reference_text())
