"""Formatting the command's outputs: numbers, aligned text tables, CSV and strict JSON, and
the matrices of an input (shown, or saved as a matrix file)."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import tempfile
from collections.abc import Container, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, SupportsFloat

import numpy as np

from pdmeasure.cli.errors import CliError
from pdmeasure.cli.inputs import SINGLE, MatrixSet, is_number

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


#: A list of numbers as ``json.dumps(..., indent=2)`` writes it, one number a line. Its
#: line breaks can only be the layout's (a string holds them as ``\n``), so no string is
#: matched.
_NUMBERS = re.compile(r"\[\n\s*(-?[\d.eE+-]+(?:,\n\s*-?[\d.eE+-]+)*)\n\s*\]")


def dump_json(data: object) -> str:
    """Indented, strict JSON (no NaN) with a final newline; a list of numbers (a matrix row,
    a kappa vector) on one line."""
    text = json.dumps(data, indent=2, allow_nan=False)
    return _NUMBERS.sub(_one_line, text) + "\n"


def _one_line(numbers: re.Match) -> str:
    return "[" + ", ".join(number.strip() for number in numbers[1].split(",")) + "]"


def matrices_json(mset: MatrixSet) -> dict:
    """``{"labels": [...], "matrices": {name: [[...]]}}``: the JSON matrix file that
    ``score``, ``compare`` and ``explore`` read (:mod:`pdmeasure.cli.inputs`), counts as
    whole numbers when they are, rows actual, in the input's class order."""
    return {
        "labels": list(mset.labels),
        "matrices": {name: cm.tolist() for name, cm in mset.counts().items()},
    }


def write_matrices(mset: MatrixSet, path: str) -> None:
    """Write :func:`matrices_json` of ``mset`` to ``path``, whole or not at all (a temporary
    file in the same folder, renamed when written)."""
    target = Path(path)
    try:
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 (renamed or removed below)
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        )
        try:
            with handle:
                handle.write(dump_json(matrices_json(mset)))
            os.replace(handle.name, target)
        except BaseException:
            os.unlink(handle.name)
            raise
    except OSError as exc:
        raise CliError(f"cannot write the matrices to {path}: {exc.strerror or exc}") from None


def _count(value: float) -> str:
    """A count as a whole number when it is one, else at full precision."""
    return str(int(value)) if float(value).is_integer() else full(value)


def matrices_text(mset: MatrixSet) -> str:
    """Each matrix as an aligned table, rows actual (first column), columns predicted."""
    parts = []
    for name, cm in mset.matrices.items():
        title = "matrix" if name == SINGLE and len(mset.matrices) == 1 else f"matrix {name}"
        rows = [
            [label, *(_count(v) for v in row)] for label, row in zip(mset.labels, cm, strict=True)
        ]
        parts.append(f"\n# {title} (rows actual, columns predicted)\n")
        parts.append(text_table(["", *mset.labels], rows))
    return "".join(parts)


def matrix_cells(mset: MatrixSet) -> list[tuple[str, str, list[str]]]:
    """Every cell of the matrices, row by row: ``(actual, predicted, [count per matrix])``."""
    stack = mset.stack()
    return [
        (actual, predicted, [_count(v) for v in stack[:, i, j]])
        for i, actual in enumerate(mset.labels)
        for j, predicted in enumerate(mset.labels)
    ]
