"""The tables that need no data (paper 000 Tables 3, 4, Section 4.2; the Pacc tables)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pdmeasure.paper.reproduction.verdicts import (
    NO_DATA_ENGINE,
    NOT_RUN,
    REPRODUCTION_COLUMNS,
    TRUNCATED,
    cell_row,
    errata_index,
    judge,
)


def compare_no_data(
    published: pd.DataFrame, computed: pd.DataFrame, errata: pd.DataFrame
) -> pd.DataFrame:
    """Reproduction rows of the tables that need no data (engine :data:`NO_DATA_ENGINE`).

    Parameters
    ----------
    published : DataFrame
        The published numbers of these tables (``paper, table, row, column, value, decimals``).
    computed : DataFrame
        The reproduced tables (:mod:`pdmeasure.paper.example_tables` format: ``paper, table, row, column,
        value``).
    errata : DataFrame
        :func:`pdmeasure.paper.published.errata`.
    """
    lookup = {
        (str(r.paper), str(r.table), str(r.row), str(r.column)): float(r.value)
        for r in computed.itertuples(index=False)
    }
    index = errata_index(errata)
    rows = []
    for pub in published.itertuples(index=False):
        key = (str(pub.paper), str(pub.table), str(pub.row), str(pub.column))
        reproduced = lookup.get(key)
        if reproduced is None:
            rows.append(
                cell_row(
                    pub,
                    NO_DATA_ENGINE,
                    np.nan,
                    NOT_RUN,
                    "not run: no reproduced value for this cell",
                )
            )
            continue
        truncated = (key[0], key[1], key[3]) in TRUNCATED
        cause = (
            f"no erratum recorded: the paper's formulas give {reproduced:.6g} from the "
            "paper's own inputs"
        )
        status, reason = judge(
            float(pub.value),
            reproduced,
            int(pub.decimals),
            index.get(key),
            cause,
            truncated=truncated,
        )
        rows.append(cell_row(pub, NO_DATA_ENGINE, reproduced, status, reason))
    return pd.DataFrame(rows, columns=list(REPRODUCTION_COLUMNS))
