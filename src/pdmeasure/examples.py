"""Example confusion matrices printed in (or reconstructed from) the papers.

Rows = actual class, columns = predicted class.
"""
from __future__ import annotations

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
