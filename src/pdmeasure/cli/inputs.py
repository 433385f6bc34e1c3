"""Reading the command's inputs: matrix files (JSON, square or long CSV) and predictions.

FILE is recognised by its content:

* JSON (text starting with ``[`` or ``{``): a list of lists (one matrix); an object
  ``{"labels": [...], "matrix": [[...]]}`` (one matrix); or an object
  ``{"labels": [...], "matrices": {"A": [[...]], "B": [[...]]}}`` (one matrix per
  classifier). ``labels`` is optional. ``pdmeasure score --format json`` and
  ``--save-matrices`` write the last form (the report has other keys too, left aside here).
* a long CSV whose header has the columns ``actual``, ``predicted`` and ``count`` (and
  ``classifier`` for several matrices); absent cells count 0. This is the layout of the
  pipeline's confusion-matrix files, with one row per cell.
* a square CSV (``,``, ``;`` or tab separated): the counts, optionally with a header row of
  class labels and/or a first column of class labels. The first row is a header when it
  holds a cell that is not a number (an empty corner cell counts); the first column holds
  labels when a data row starts with a cell that is not a number, or when the header has an
  empty corner cell or one cell fewer than the data rows. If both give labels they must name
  the same classes; columns are reordered to the row order.

Rows are actual classes, columns predicted classes. Without labels the classes are named
``0, 1, ..., C-1``.

The class order is the order of the rows of a matrix (JSON ``labels``, CSV labels). For a
predictions table and a long CSV it is ``--labels`` if given, else the sorted union of the
actual and predicted labels (numerically when every label is a number, else as text), the
convention of scikit-learn's ``unique_labels``. All matrices of one input share that order,
so a positional ``--kappa`` always means the same classes. ``--labels`` on a matrix file
names unlabelled classes, or reorders labelled ones.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pdmeasure._validation import check_confusion
from pdmeasure.cli.errors import CliError, one_line
from pdmeasure.cli.stream import stream_predictions

#: Name of the matrix of an input holding one matrix (the column header of its values).
SINGLE = "value"
_LONG_COLUMNS = ("actual", "predicted", "count")


@dataclass
class MatrixSet:
    """Confusion matrices over one class order.

    Attributes
    ----------
    labels : list of str
        Class names, in row (and column) order.
    matrices : dict of str to numpy.ndarray
        Name -> (C, C) float64 counts, rows actual, columns predicted.
    name : str
        Where they come from (the path as given, or ``stdin``), named in messages.
    """

    labels: list[str]
    matrices: dict[str, np.ndarray]
    name: str

    @property
    def dataset(self) -> str:
        """Default dataset name: the file name without directory and suffix."""
        return Path(self.name).stem

    def stack(self) -> np.ndarray:
        """The matrices as one ``(M, C, C)`` array, in ``matrices`` order."""
        return np.stack(list(self.matrices.values()))

    def counts(self) -> dict[str, np.ndarray]:
        """The matrices as int64 counts when every count is a whole number, else as floats."""
        return {name: _integral(cm) for name, cm in self.matrices.items()}


def _integral(cm: np.ndarray) -> np.ndarray:
    """``cm`` as int64 if all its counts are whole numbers that int64 holds exactly."""
    whole = np.all(cm == np.round(cm)) and np.all(cm < 2.0**53)
    return cm.astype(np.int64) if whole else cm


def read_text(path: str) -> tuple[str, str]:
    """The text of ``path`` (``-``: standard input) and its display name."""
    if path == "-":
        return sys.stdin.read(), "stdin"
    try:
        return Path(path).read_text(encoding="utf-8-sig"), path
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"cannot read {path}: not UTF-8 text ({exc.reason})") from None


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def sorted_labels(values: Iterable[str]) -> list[str]:
    """Distinct labels sorted numerically when all are numbers, else as text."""
    distinct = set(values)
    key = float if all(is_number(v) for v in distinct) else str
    return sorted(distinct, key=key)


def parse_labels(text: str) -> list[str]:
    """``--labels a,b,c`` -> ``['a', 'b', 'c']`` (distinct, non-empty)."""
    labels = [part.strip() for part in text.split(",")]
    if any(not label for label in labels):
        raise CliError(f"--labels {text!r} has an empty label")
    check_distinct(labels, "--labels")
    return labels


def check_distinct(labels: Sequence[str], where: str) -> None:
    seen = set()
    for label in labels:
        if label in seen:
            raise CliError(f"{where} repeats the label {label!r}")
        seen.add(label)


def _checked(rows, what: str) -> np.ndarray:
    """Counts as a validated float64 ``(C, C)`` matrix (the measures library's checks)."""
    try:
        arr = np.asarray(rows, dtype=object)
        if arr.ndim != 2:
            raise ValueError(
                f"confusion matrix must be a list of rows of equal length, got {rows!r:.60}"
            )
        return check_confusion(arr.astype(np.float64))
    except (TypeError, ValueError) as exc:
        raise CliError(f"{what}: {one_line(exc)}") from None


def parse_matrices(text: str, name: str, labels: list[str] | None = None) -> MatrixSet:
    """Matrices from the text of a JSON or CSV file (see the module docstring).

    Parameters
    ----------
    text : str
        File content.
    name : str
        Display name (used in messages and as the default dataset name).
    labels : list of str, optional
        ``--labels``: class order of a long CSV; names or reorders the classes of a matrix.

    Returns
    -------
    MatrixSet

    Raises
    ------
    CliError
        Naming the problem.
    """
    stripped = text.lstrip()
    if not stripped:
        raise CliError(f"{name}: the input is empty")
    if stripped[0] in "[{":
        mset = _from_json(stripped, name)
    else:
        rows = _csv_rows(stripped)
        header = [cell.lower() for cell in rows[0]]
        if all(column in header for column in _LONG_COLUMNS):
            return _from_long_csv(rows, name, labels)
        mset = _from_square_csv(rows, name)
    return mset if labels is None else _relabel(mset, labels)


def _from_json(text: str, name: str) -> MatrixSet:
    """Matrices of a JSON list of rows or object with ``matrix`` or ``matrices``."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CliError(f"{name}: invalid JSON: {exc}") from None
    if isinstance(data, list):
        data = {"matrix": data}
    if not isinstance(data, dict) or ("matrix" in data) == ("matrices" in data):
        raise CliError(
            f"{name}: expected a JSON list of rows, or an object with a 'matrix' or a "
            "'matrices' key"
        )
    if "matrix" in data:
        matrices = {SINGLE: _checked(data["matrix"], name)}
    else:
        matrices = _json_matrices(data["matrices"], name)
    return MatrixSet(_json_labels(data.get("labels"), matrices, name), matrices, name)


def _json_matrices(raw, name: str) -> dict[str, np.ndarray]:
    """The validated matrices of a JSON ``matrices`` object, all of one shape."""
    if not isinstance(raw, dict) or not raw:
        raise CliError(f"{name}: 'matrices' must be a non-empty object {{name: matrix}}")
    matrices = {str(key): _checked(rows, f"{name}: matrix {key!r}") for key, rows in raw.items()}
    shapes = {cm.shape for cm in matrices.values()}
    if len(shapes) > 1:
        raise CliError(f"{name}: the matrices have different shapes {sorted(shapes)}")
    return matrices


def _json_labels(raw, matrices: Mapping[str, np.ndarray], name: str) -> list[str]:
    """JSON ``labels`` as distinct text, one per class; ``0..C-1`` when absent."""
    n = next(iter(matrices.values())).shape[0]
    if raw is None:
        return [str(i) for i in range(n)]
    if not isinstance(raw, list) or len(raw) != n:
        raise CliError(f"{name}: 'labels' must be a list of {n} class names, got {raw!r}")
    labels = [str(label) for label in raw]
    check_distinct(labels, f"{name}: 'labels'")
    return labels


def _csv_rows(text: str) -> list[list[str]]:
    """Non-blank rows of a CSV, cells stripped; the separator is ``,``, ``;`` or tab."""
    first = text.splitlines()[0]
    delimiter = next((d for d in (",", ";", "\t") if d in first), ",")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows = [[cell.strip() for cell in row] for row in reader]
    return [row for row in rows if any(row)]


def _from_square_csv(rows: list[list[str]], name: str) -> MatrixSet:
    """One matrix from a square CSV, its header row and label column detected."""
    first = rows[0]
    # A header has a label after its first cell, or an empty corner cell; a row of counts
    # with a class label in front has numbers only after its first cell.
    is_header = first[0] == "" or any(not is_number(cell) for cell in first[1:])
    header = first if is_header else None
    data = rows[1:] if header is not None else rows
    if not data:
        raise CliError(f"{name}: the CSV has a header but no rows of counts")
    width = max(len(row) for row in data)
    label_column = any(row and not is_number(row[0]) for row in data) or (
        header is not None and (header[0] == "" or len(header) == width - 1)
    )
    row_labels = [row[0] for row in data] if label_column else None
    counts = [row[1:] for row in data] if label_column else data
    matrix = _checked(_csv_counts(counts, name), name)
    labels, matrix = _square_labels(header, row_labels, matrix, name)
    return MatrixSet(labels, {SINGLE: matrix}, name)


def _csv_counts(rows: list[list[str]], name: str) -> list[list[float]]:
    """Counts of the CSV cells; a cell that is not a number is named with its position."""
    out = []
    for i, row in enumerate(rows):
        try:
            out.append([float(cell) for cell in row])
        except ValueError:
            bad = next(cell for cell in row if not is_number(cell))
            raise CliError(f"{name}: row {i + 1} of counts has {bad!r}, not a number") from None
    widths = {len(row) for row in out}
    if len(widths) > 1:
        raise CliError(f"{name}: rows of counts have different lengths {sorted(widths)}")
    return out


def _square_labels(header, row_labels, matrix: np.ndarray, name: str):
    """Class labels of a square CSV, and the matrix with columns in row-label order."""
    n = matrix.shape[0]
    columns = None
    if header is not None:
        columns = header[1:] if len(header) == n + 1 else header
        if len(columns) != n:
            raise CliError(f"{name}: the header names {len(columns)} classes, the matrix has {n}")
        check_distinct(columns, f"{name}: the header")
    if row_labels is not None:
        check_distinct(row_labels, f"{name}: the first column")
    if columns is None or row_labels is None:
        labels = columns or row_labels or [str(i) for i in range(n)]
        return list(labels), matrix
    if set(columns) != set(row_labels):
        raise CliError(
            f"{name}: the header labels {columns} and the row labels {row_labels} differ"
        )
    order = [columns.index(label) for label in row_labels]
    return list(row_labels), matrix[:, order]


def _from_long_csv(rows: list[list[str]], name: str, labels: list[str] | None) -> MatrixSet:
    """Matrices of a long CSV (one row per cell, one matrix per ``classifier``)."""
    header = [cell.lower() for cell in rows[0]]
    col = {key: header.index(key) for key in ("classifier", *_LONG_COLUMNS) if key in header}
    cells: dict[str, dict[tuple[str, str], float]] = {}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise CliError(f"{name}: line {line} has {len(row)} cells, the header {len(header)}")
        group = row[col["classifier"]] if "classifier" in col else SINGLE
        key = (row[col["actual"]], row[col["predicted"]])
        if key in cells.setdefault(group, {}):
            raise CliError(f"{name}: line {line} repeats the cell {key} of {group!r}")
        if not is_number(row[col["count"]]):
            raise CliError(f"{name}: line {line} has the count {row[col['count']]!r}, not a number")
        cells[group][key] = float(row[col["count"]])
    if not cells:
        raise CliError(f"{name}: the CSV has a header but no rows")
    seen = [label for group in cells.values() for key in group for label in key]
    order = labels if labels is not None else sorted_labels(seen)
    return MatrixSet(order, _long_matrices(cells, order, name), name)


def _long_matrices(cells, order: list[str], name: str) -> dict[str, np.ndarray]:
    """Cells ``{group: {(actual, predicted): count}}`` as validated matrices in ``order``."""
    index = {label: i for i, label in enumerate(order)}
    matrices = {}
    for group, group_cells in cells.items():
        cm = np.zeros((len(order), len(order)))
        for (actual, predicted), count in group_cells.items():
            for label in (actual, predicted):
                if label not in index:
                    raise CliError(f"{name}: label {label!r} is not one of --labels {order}")
            cm[index[actual], index[predicted]] = count
        what = name if group == SINGLE else f"{name}: matrix {group!r}"
        matrices[group] = _checked(cm, what)
    return matrices


def _relabel(mset: MatrixSet, labels: list[str]) -> MatrixSet:
    """Name the classes of an unlabelled input by ``--labels``, or reorder labelled ones."""
    n = len(mset.labels)
    if len(labels) != n:
        raise CliError(f"--labels names {len(labels)} classes, the matrices have {n}")
    if mset.labels == [str(i) for i in range(n)] and set(labels) != set(mset.labels):
        return MatrixSet(labels, mset.matrices, mset.name)
    if set(labels) != set(mset.labels):
        raise CliError(f"--labels {labels} are not the classes {mset.labels} of {mset.name}")
    order = [mset.labels.index(label) for label in labels]
    matrices = {key: cm[np.ix_(order, order)] for key, cm in mset.matrices.items()}
    return MatrixSet(labels, matrices, mset.name)


def read_predictions(
    path: str, true: str, pred: str, by: str | None, labels: list[str] | None
) -> MatrixSet:
    """One confusion matrix per ``by`` group of a predictions file (one row per sample).

    The file (CSV, TSV, Parquet or Arrow IPC; ``-``: standard input) is streamed in batches,
    so memory does not grow with its length (:mod:`pdmeasure.cli.stream`). Groups keep the
    order of their first appearance. The class order is ``labels``, else the sorted union of
    both label columns over the whole file (:func:`pdmeasure.measures.sorted_labels`, the
    rule of :func:`sorted_labels`), so every group's matrix has the same classes.
    """
    matrices, order, name = stream_predictions(path, true, pred, by, labels)
    return MatrixSet(order, matrices, name)


def load_input(args: argparse.Namespace) -> MatrixSet:
    """The matrices of a subcommand's input arguments (FILE or ``--predictions``)."""
    labels = parse_labels(args.labels) if args.labels else None
    if args.predictions is not None:
        if args.file is not None:
            raise CliError("give either a matrix FILE or --predictions, not both")
        if not (args.true and args.pred):
            raise CliError("--predictions needs --true COL and --pred COL")
        return read_predictions(args.predictions, args.true, args.pred, args.by, labels)
    if args.file is None:
        raise CliError("give a matrix FILE (or - for standard input), or --predictions")
    if args.true or args.pred or args.by:
        raise CliError("--true, --pred and --by apply to --predictions only")
    text, name = read_text(args.file)
    return parse_matrices(text, name, labels)
