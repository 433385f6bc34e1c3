"""One table from many parts, each a block of rows given by its columns.

The tables of one engine and dataset are written a block at a time (a classifier, a measure
row, a pair). Building a frame per block and concatenating them costs more than the numbers
of a small dataset: :func:`frame_from_parts` builds the same table from the blocks' columns
at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

#: One block of rows: its number of rows, and per column either a sequence of that many
#: cells (list, tuple or 1-d array) or one value for all of them.
Part = tuple[int, Mapping[str, Any]]


def frame_from_parts(parts: Sequence[Part], columns: Sequence[str]) -> pd.DataFrame:
    """The rows of ``parts``, in order, as one frame with ``columns``.

    Parameters
    ----------
    parts : sequence of (int, mapping)
        Each block's number of rows and its columns: a sequence of one cell per row, or a
        single value repeated on every row.
    columns : sequence of str
        The frame's columns, in order; every part holds each of them.

    Returns
    -------
    DataFrame
        The table that concatenating a frame per part gives (``pd.concat(...,
        ignore_index=True)[columns]``), values and dtypes, when the cells of each column
        are of one kind in every part (floats, NaN among them; whole numbers; text;
        booleans) or whole numbers in some parts and text in others. Without parts, a frame
        with the columns and no rows.
    """
    data = {}
    for column in columns:
        cells: list = []
        for n, part in parts:
            value = part[column]
            if isinstance(value, np.ndarray):
                cells.extend(value.tolist())
            elif isinstance(value, (list, tuple)):
                cells.extend(value)
            else:
                cells.extend([value] * n)
        data[column] = cells
    return pd.DataFrame(data, columns=list(columns))
