"""Shared assertion for the published-value tests of both papers."""

from __future__ import annotations

from pdmeasure.paper import published as P

#: Errata rows keyed by (paper, table, row, column).
ERRATA = {(r.paper, r.table, r.row, r.column): r for r in P.errata().itertuples(index=False)}


def check(cell, computed):
    """Printed value reproduces, or the cell is an erratum whose correct value reproduces."""
    key = (cell.paper, cell.table, cell.row, cell.column)
    if key in ERRATA:
        entry = ERRATA[key]
        assert P.reproduces(computed, entry.correct, cell.decimals), (computed, entry)
        assert not P.reproduces(computed, cell.value, cell.decimals), (
            f"{key} is listed as an erratum but the printed {cell.value} reproduces"
        )
    else:
        assert P.reproduces(computed, cell.value, cell.decimals), (
            f"{key}: computed {computed!r}, printed {cell.value}"
        )
