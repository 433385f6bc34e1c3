"""Formatting the command's outputs: numbers, aligned text tables, CSV and strict JSON."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Container, Sequence
from typing import TYPE_CHECKING, SupportsFloat

import numpy as np

from pdmeasure.cli.inputs import is_number

if TYPE_CHECKING:
    import pandas as pd


def full(value: SupportsFloat) -> str:
    """A value at full precision (shortest round-tripping decimal); NaN as ``NaN``."""
    value = float(value)
    return "NaN" if math.isnan(value) else repr(value)


def short(value: SupportsFloat) -> str:
    """A value with 6 significant digits; NaN as ``NaN``."""
    value = float(value)
    return "NaN" if math.isnan(value) else f"{value:.6g}"


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Rows as aligned text: columns of numbers right-aligned, others left-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    numeric = [all(is_number(row[j]) or row[j] == "" for row in rows) for j in range(len(header))]

    def line(cells):
        return "  ".join(
            (str(c).rjust(w) if num else str(c).ljust(w))
            for c, w, num in zip(cells, widths, numeric)
        ).rstrip()

    return "\n".join([line(header), *(line(row) for row in rows)]) + "\n"


def csv_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Rows as CSV text with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def json_value(value: object) -> object:
    """JSON-safe scalars: NaN and infinities as null, NumPy scalars as Python numbers."""
    if isinstance(value, (np.generic,)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def json_records(frame: pd.DataFrame, drop: Container[str] = ("engine", "dataset")) -> list[dict]:
    """Rows of a table as JSON-safe dicts, without the columns ``drop``."""
    return [
        {k: json_value(v) for k, v in row.items() if k not in drop}
        for row in frame.to_dict(orient="records")
    ]


def dump_json(data: object) -> str:
    """Indented, strict JSON (no NaN) with a final newline."""
    return json.dumps(data, indent=2, allow_nan=False) + "\n"
