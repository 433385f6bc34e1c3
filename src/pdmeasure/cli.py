"""The ``pdmeasure`` command: score confusion matrices, compare classifiers over kappa.

Subcommands
-----------
``score``    every registry measure and the preference-driven measure (pd) at the default
             kappa and at each ``--kappa``, for one or several matrices.
``compare``  the exact kappa-space analysis (:class:`pdmeasure.exact.DatasetAnalysis`) of
             several classifiers: pd distribution, pairwise win probabilities, share of the
             kappa space where each classifier ranks first.
``explore``  the interactive HTML kappa explorer (:func:`pdmeasure.render.explorer.write_explorer`).

Inputs
------
Every subcommand reads its matrices from FILE (``-`` is standard input) or from a predictions
table (``--predictions``). FILE is recognised by its content:

* JSON (text starting with ``[`` or ``{``): a list of lists (one matrix); an object
  ``{"labels": [...], "matrix": [[...]]}`` (one matrix); or an object
  ``{"labels": [...], "matrices": {"A": [[...]], "B": [[...]]}}`` (one matrix per
  classifier). ``labels`` is optional.
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

Class order
-----------
The class order is the order of the rows of a matrix (JSON ``labels``, CSV labels). For a
predictions table and a long CSV it is ``--labels`` if given, else the sorted union of the
actual and predicted labels (numerically when every label is a number, else as text), the
convention of scikit-learn's ``unique_labels``. All matrices of one input share that order,
so a positional ``--kappa`` always means the same classes. ``--labels`` on a matrix file
names unlabelled classes, or reorders labelled ones.

Errors
------
Invalid input (a non-square or negative matrix, a kappa of the wrong length or with an
unknown label, an unreadable file, ...) ends with exit status 2 and one line on standard
error, ``pdmeasure: error: <what is wrong>``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import logging
import math
import os
import re
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PROG = "pdmeasure"
#: Name of the matrix of an input holding one matrix (the column header of its values).
SINGLE = "value"
_LONG_COLUMNS = ("actual", "predicted", "count")


class CliError(Exception):
    """An input or usage problem, reported as one line on standard error (exit status 2)."""


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


# --------------------------------------------------------------------------------------
# Reading inputs
# --------------------------------------------------------------------------------------
def _read_text(path: str) -> tuple[str, str]:
    """The text of ``path`` (``-``: standard input) and its display name."""
    if path == "-":
        return sys.stdin.read(), "stdin"
    try:
        return Path(path).read_text(encoding="utf-8-sig"), path
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"cannot read {path}: not UTF-8 text ({exc.reason})") from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def sorted_labels(values) -> list[str]:
    """Distinct labels sorted numerically when all are numbers, else as text."""
    distinct = set(values)
    key = float if all(_is_number(v) for v in distinct) else str
    return sorted(distinct, key=key)


def _parse_labels(text: str) -> list[str]:
    """``--labels a,b,c`` -> ``['a', 'b', 'c']`` (distinct, non-empty)."""
    labels = [part.strip() for part in text.split(",")]
    if any(not label for label in labels):
        raise CliError(f"--labels {text!r} has an empty label")
    _check_distinct(labels, "--labels")
    return labels


def _check_distinct(labels: Sequence[str], where: str) -> None:
    seen = set()
    for label in labels:
        if label in seen:
            raise CliError(f"{where} repeats the label {label!r}")
        seen.add(label)


def _checked(rows, what: str) -> np.ndarray:
    """Counts as a validated float64 ``(C, C)`` matrix (the measures library's checks)."""
    from pdmeasure._validation import check_confusion

    try:
        arr = np.asarray(rows, dtype=object)
        if arr.ndim != 2:
            raise ValueError(
                f"confusion matrix must be a list of rows of equal length, got {rows!r:.60}"
            )
        return check_confusion(arr.astype(np.float64))
    except (TypeError, ValueError) as exc:
        raise CliError(f"{what}: {_one_line(exc)}") from None


def _one_line(exc: Exception) -> str:
    """The message of ``exc`` on one line (line breaks and runs of spaces as one space)."""
    return " ".join(str(exc).split())


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
    _check_distinct(labels, f"{name}: 'labels'")
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
    is_header = first[0] == "" or any(not _is_number(cell) for cell in first[1:])
    header = first if is_header else None
    data = rows[1:] if header is not None else rows
    if not data:
        raise CliError(f"{name}: the CSV has a header but no rows of counts")
    width = max(len(row) for row in data)
    label_column = any(row and not _is_number(row[0]) for row in data) or (
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
            bad = next(cell for cell in row if not _is_number(cell))
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
        _check_distinct(columns, f"{name}: the header")
    if row_labels is not None:
        _check_distinct(row_labels, f"{name}: the first column")
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
        if not _is_number(row[col["count"]]):
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
    """One confusion matrix per ``by`` group of a predictions CSV (one row per sample).

    Groups keep the order of their first appearance. The class order is ``labels``, else the
    sorted union of both label columns over the whole table (:func:`sorted_labels`), so
    every group's matrix has the same classes.
    """
    from pdmeasure.measures.labels import confusion_matrix

    text, name = _read_text(path)
    table = _predictions_table(text, name, [true, pred] + ([by] if by else []))
    order = labels if labels is not None else sorted_labels(table[true] + table[pred])
    groups: dict[str, list[int]] = {}
    for i, group in enumerate(table[by] if by else [SINGLE] * len(table[true])):
        groups.setdefault(group, []).append(i)
    matrices = {}
    for group, rows in groups.items():
        try:
            cm = confusion_matrix(
                [table[true][i] for i in rows], [table[pred][i] for i in rows], order
            )
        except ValueError as exc:
            raise CliError(f"{name}: {_one_line(exc)} (--labels)") from None
        matrices[group] = _checked(cm, name if group == SINGLE else f"{name}: group {group!r}")
    return MatrixSet(list(order), matrices, name)


def _predictions_table(text: str, name: str, columns: list[str]) -> dict[str, list[str]]:
    """The named columns of a predictions CSV, as text."""
    reader = csv.DictReader(io.StringIO(text))
    fields = [field.strip() for field in reader.fieldnames or []]
    missing = [column for column in columns if column not in fields]
    if missing:
        raise CliError(f"{name}: no column {missing[0]!r} (the columns are {fields})")
    reader.fieldnames = fields
    table: dict[str, list[str]] = {column: [] for column in columns}
    for row in reader:
        for column in columns:
            table[column].append((row[column] or "").strip())
    if not table[columns[0]]:
        raise CliError(f"{name}: the predictions table has no rows")
    return table


def load_input(args: argparse.Namespace) -> MatrixSet:
    """The matrices of a subcommand's input arguments (FILE or ``--predictions``)."""
    labels = _parse_labels(args.labels) if args.labels else None
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
    text, name = _read_text(args.file)
    return parse_matrices(text, name, labels)


# --------------------------------------------------------------------------------------
# Output helpers
# --------------------------------------------------------------------------------------
def _zero_division(text: str):
    """``--zero-division`` value: ``"nan"``, 0.0 or 1.0."""
    return {"nan": "nan", "0": 0.0, "1": 1.0}[text]


def _full(value) -> str:
    """A value at full precision (shortest round-tripping decimal); NaN as ``NaN``."""
    value = float(value)
    return "NaN" if math.isnan(value) else repr(value)


def _short(value) -> str:
    """A value with 6 significant digits; NaN as ``NaN``."""
    value = float(value)
    return "NaN" if math.isnan(value) else f"{value:.6g}"


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Rows as aligned text: columns of numbers right-aligned, others left-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    numeric = [all(_is_number(row[j]) or row[j] == "" for row in rows) for j in range(len(header))]

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


def _json_value(value):
    """JSON-safe scalars: NaN and infinities as null, NumPy scalars as Python numbers."""
    if isinstance(value, (np.generic,)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _json_records(frame, drop=("engine", "dataset")) -> list[dict]:
    """Rows of a table as JSON-safe dicts, without the columns ``drop``."""
    return [
        {k: _json_value(v) for k, v in row.items() if k not in drop}
        for row in frame.to_dict(orient="records")
    ]


def _dump_json(data) -> str:
    """Indented, strict JSON (no NaN) with a final newline."""
    return json.dumps(data, indent=2, allow_nan=False) + "\n"


# --------------------------------------------------------------------------------------
# score
# --------------------------------------------------------------------------------------
def parse_kappa(text: str):
    """``--kappa`` text -> list of weights (``0.3,0.1,0.9``) or ``{label: weight}``.

    Entries are separated by ``,`` (or ``;``); ``label=weight`` entries give a mapping.
    """
    parts = [part.strip() for part in re.split(r"[,;]", text)]
    if any(not part for part in parts):
        raise CliError(f"--kappa {text!r} has an empty entry")
    named = ["=" in part for part in parts]
    if any(named) and not all(named):
        raise CliError(f"--kappa {text!r} mixes label=weight and plain weights")
    if not any(named):
        return [_weight(part, text) for part in parts]
    mapping = {}
    for part in parts:
        label, _, weight = (s.strip() for s in part.partition("="))
        if label in mapping:
            raise CliError(f"--kappa {text!r} gives the label {label!r} twice")
        mapping[label] = _weight(weight, text)
    return mapping


def _weight(text: str, whole: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise CliError(f"--kappa {whole!r}: {text!r} is not a number") from None


def score_values(mset: MatrixSet, kappas: Sequence[str], zero_division):
    """Every registry measure, and pd at each ``--kappa``, of every matrix.

    Returns
    -------
    values : dict of str to numpy.ndarray
        Registry measure -> one value per matrix (``preference_driven`` at eq. 31).
    pd_rows : list of (numpy.ndarray, numpy.ndarray)
        Per ``--kappa``: the vector in class order and pd of every matrix.
    """
    from pdmeasure import measures
    from pdmeasure.measures.labels import kappa_vector

    stack = mset.stack()
    try:
        values = measures.evaluate(stack, zero_division=zero_division)
    except ValueError as exc:
        raise CliError(_one_line(exc)) from None
    pd_rows = []
    for text in kappas:
        try:
            vector = kappa_vector(parse_kappa(text), mset.labels)
            pd_values = measures.preference_driven(stack, vector, zero_division=zero_division)
        except ValueError as exc:
            raise CliError(f"--kappa {text}: {_one_line(exc)}") from None
        pd_rows.append((vector, np.atleast_1d(pd_values)))
    return {name: np.atleast_1d(v) for name, v in values.items()}, pd_rows


def run_score(args: argparse.Namespace) -> str:
    """``pdmeasure score``: the measures table as text, CSV or JSON."""
    from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD, format_kappa

    mset = load_input(args)
    values, pd_rows = score_values(mset, args.kappa, _zero_division(args.zero_division))
    if args.format == "json":
        return _dump_json(_score_json(mset, values, pd_rows, args.zero_division))
    rows = [(name, DEFAULT_KAPPA if name == PD else NO_KAPPA, v) for name, v in values.items()]
    rows += [(PD, format_kappa(vector), v) for vector, v in pd_rows]
    header = ["measure", "kappa", *mset.matrices]
    body = [[measure, kappa, *(_full(x) for x in v)] for measure, kappa, v in rows]
    if args.format == "csv":
        return csv_table(header, body)
    intro = (
        f"# classes (rows actual, columns predicted): {', '.join(mset.labels)}\n"
        f"# zero_division: {args.zero_division}; kappa {DEFAULT_KAPPA!r} = actual-class "
        "shares (paper 000, eq. 31)\n"
    )
    return intro + text_table(header, body)


def _score_json(mset: MatrixSet, values, pd_rows, zero_division: str) -> dict:
    """``{"labels", "zero_division", "results": {matrix: {"measures", "default_kappa",
    "preference_driven": [{"kappa", "value"}, ...]}}}``; NaN as null."""
    results = {}
    for m, (name, cm) in enumerate(mset.matrices.items()):
        support = cm.sum(axis=1)
        results[name] = {
            "measures": {key: _json_value(float(v[m])) for key, v in values.items()},
            "default_kappa": [float(x) for x in support / support.sum()],
            "preference_driven": [
                {"kappa": [float(x) for x in vector], "value": _json_value(float(v[m]))}
                for vector, v in pd_rows
            ],
        }
    return {"labels": mset.labels, "zero_division": zero_division, "results": results}


# --------------------------------------------------------------------------------------
# compare
# --------------------------------------------------------------------------------------
def _parse_grid(text: str) -> list[float]:
    """``--grid 0,0.5,1`` -> the kappa values of every class, each in [0, 1]."""
    parts = [part.strip() for part in re.split(r"[,;]", text)]
    try:
        values = [float(part) for part in parts]
    except ValueError:
        raise CliError(f"--grid {text!r}: give kappa values like 0,0.5,1") from None
    bad = [v for v in values if not 0.0 <= v <= 1.0]
    if bad:
        raise CliError(f"--grid {text!r}: kappa values must lie in [0, 1], got {bad[0]!r}")
    return values


def compare_tables(
    mset: MatrixSet,
    grid: list[float] | None,
    zero_division,
    *,
    samples: int,
    seed: int,
    with_cdf: bool = False,
) -> tuple[dict, dict]:
    """The exact analysis of the matrices, restricted to the chosen kappa space.

    The space is the product grid ``grid**C`` when a grid is given, else kappa uniform on
    [0, 1]^C.

    Returns
    -------
    tables : dict of str to DataFrame
        ``summary``, ``win`` and ``share`` (and ``cdf`` if ``with_cdf``).
    excluded : dict
        Classifier left out -> ``[{"class": label, "ratio": "precision" | "recall"}]``: under
        ``zero_division="nan"`` a 0/0 precision or recall leaves pd undefined on part of
        the space, and the analysis leaves that classifier out.
    """
    from pdmeasure.exact import ExactSettings
    from pdmeasure.pipeline.exact_tables import DatasetAnalysis

    space = "grid" if grid is not None else "uniform"
    settings = ExactSettings(zero_division=zero_division, monte_carlo_samples=samples, seed=seed)
    try:
        analysis = DatasetAnalysis(
            mset.counts(),
            grid,
            settings,
            engine="compare",
            dataset=mset.dataset,
            classes=mset.labels,
        )
        tables = {
            "summary": analysis.summary(),
            "win": analysis.win_probabilities(),
            "share": analysis.shares(),
        }
        if with_cdf:
            tables["cdf"] = analysis.distributions()[0]
    except ValueError as exc:
        raise CliError(_one_line(exc)) from None
    excluded = {
        name: [{"class": mset.labels[i], "ratio": ratio} for i, ratio in ratios]
        for name, ratios in getattr(analysis, "excluded", {}).items()
    }
    tables = {
        key: frame[frame["space"] == space].reset_index(drop=True) for key, frame in tables.items()
    }
    return tables, excluded


def _excluded_text(excluded: dict) -> str:
    """Comment lines naming the classifiers the analysis left out, and why."""
    lines = []
    for name, ratios in excluded.items():
        why = "; ".join(
            f"class {r['class']!r} is never "
            f"{'predicted' if r['ratio'] == 'precision' else 'actual'}"
            for r in ratios
        )
        lines.append(
            f"# left out: {name} ({why}: pd is undefined on part of the space under "
            "zero_division nan; use --zero-division 0 or 1)\n"
        )
    return "".join(lines)


def _space_text(grid: list[float] | None, n_classes: int) -> str:
    """The kappa space in words, for titles and the text report."""
    if grid is None:
        return f"kappa uniform on [0, 1]^{n_classes}"
    values = ",".join(_short(v) for v in grid)
    return f"kappa grid {{{values}}}^{n_classes} ({len(grid) ** n_classes} vectors)"


def _table_section(title: str, frame, header: list[str], columns: list[str]) -> list[str]:
    """One titled text table of a result frame: text columns as they are, numbers shortened."""
    rows = [
        [value if isinstance(value, str) else _short(value) for value in (r[c] for c in columns)]
        for _, r in frame.iterrows()
    ]
    return [f"\n{title}\n", text_table(header, rows)]


def compare_text(
    mset: MatrixSet, tables: dict, excluded: dict, space: str, zero_division: str
) -> str:
    """The text report of ``compare``: summary, pairwise wins, share ranked first."""
    parts = [
        f"# {len(mset.matrices)} classifiers; classes {', '.join(mset.labels)}; {space}; "
        f"zero_division {zero_division}\n",
        _excluded_text(excluded),
    ]
    parts += _table_section(
        "pd over the kappa space (default: kappa = actual-class shares, eq. 31)",
        tables["summary"],
        ["classifier", "default", "min", "mean", "std", "max", "argmin", "argmax"],
        ["classifier", "pd_default", "min", "mean", "std", "max", "argmin", "argmax"],
    )
    win = tables["win"]
    if not win.empty:
        order = {name: i for i, name in enumerate(mset.matrices)}
        pairs = win[[order[a] < order[b] for a, b in zip(win.classifier_a, win.classifier_b)]]
        parts += _table_section(
            "P(A beats B) over the kappa space",
            pairs,
            ["A", "B", "P(A>B)", "P(tie)", "P(A<B)", "method"],
            ["classifier_a", "classifier_b", "p_greater", "p_tie", "p_less", "method"],
        )
    parts += _table_section(
        "Share of the kappa space where each classifier ranks first",
        tables["share"],
        ["classifier", "P(first)", "P(tied first)", "ci_low", "ci_high", "method"],
        ["classifier", "p_first", "p_tied_first", "ci_low", "ci_high", "method"],
    )
    return "".join(parts)


def run_compare(args: argparse.Namespace) -> str:
    """``pdmeasure compare``: the text or JSON report, and the plot if asked for."""
    mset = load_input(args)
    grid = _parse_grid(args.grid) if args.grid else None
    zd = _zero_division(args.zero_division)
    tables, excluded = compare_tables(
        mset, grid, zd, samples=args.samples, seed=args.seed, with_cdf=bool(args.plot)
    )
    space = _space_text(grid, len(mset.labels))
    if args.plot:
        _plot_cdf(tables["cdf"], args.plot, f"{mset.dataset}: pd over {space}")
    if args.format == "json":
        return _dump_json(
            {
                "labels": mset.labels,
                "zero_division": args.zero_division,
                "space": "grid" if grid is not None else "uniform",
                "grid_values": grid,
                **{key: _json_records(tables[key]) for key in ("summary", "win", "share")},
                "excluded": excluded,
            }
        )
    return compare_text(mset, tables, excluded, space, args.zero_division)


def _plot_cdf(cdf, path: str, title: str) -> None:
    """The CDF of pd per classifier (:func:`pdmeasure.render.exact_figures.cdf_figure`), saved headless."""
    from pdmeasure.render.exact_figures import cdf_figure
    from pdmeasure.render.figures import save_figure

    try:
        save_figure(cdf_figure(cdf, title=title), path)
    except (OSError, ValueError) as exc:
        raise CliError(f"cannot write the plot {path}: {_one_line(exc)}") from None


# --------------------------------------------------------------------------------------
# explore
# --------------------------------------------------------------------------------------
def run_explore(args: argparse.Namespace) -> str:
    """``pdmeasure explore``: write the HTML explorer (module imported only here)."""
    mset = load_input(args)
    grid = _parse_grid(args.grid) if args.grid else None
    try:
        from pdmeasure.render.explorer import write_explorer
    except ImportError as exc:
        raise CliError(
            f"the kappa explorer is not available: pdmeasure.render.explorer cannot be imported ({exc})"
        ) from None
    try:
        write_explorer(
            mset.counts(),
            mset.labels,
            args.output,
            dataset=args.dataset or mset.dataset,
            grid_values=grid,
            zero_division=_zero_division(args.zero_division),
        )
    except OSError as exc:
        raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise CliError(_one_line(exc)) from None
    return f"wrote {args.output}\n"


# --------------------------------------------------------------------------------------
# Parser
# --------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors become one-line :class:`CliError`."""

    def error(self, message: str):
        raise CliError(f"{message} (see '{self.prog} --help')")


_FORMATS_HELP = """\
FILE formats (FILE may be - for standard input):
  JSON  [[...], ...]  |  {"labels": [...], "matrix": [[...]]}
        | {"labels": [...], "matrices": {"A": [[...]], "B": [[...]]}}
  CSV   a square matrix of counts, with or without a header row and a first
        column of class labels (detected); or a long table with the columns
        classifier, actual, predicted, count (absent cells count 0).
  Rows are actual classes, columns predicted classes.
--predictions FILE: a CSV with one row per sample; --true and --pred name the
  columns of actual and predicted labels, --by the column of the classifier
  (one matrix per value, in order of first appearance).
Class order: the rows of a matrix; for --predictions and a long CSV, --labels
  if given, else the sorted union of the actual and predicted labels
  (numerically if every label is a number, else as text), as scikit-learn's
  unique_labels. --labels names or reorders the classes of a matrix file.
"""


def _add_input_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """FILE, or --predictions with --true, --pred and --by; and --labels."""
    parser.add_argument("file", nargs="?", metavar="FILE", help=what)
    parser.add_argument(
        "--predictions",
        metavar="FILE",
        help="a predictions CSV (one row per sample) instead of FILE",
    )
    parser.add_argument("--true", metavar="COL", help="column of actual labels (--predictions)")
    parser.add_argument("--pred", metavar="COL", help="column of predicted labels (--predictions)")
    parser.add_argument(
        "--by", metavar="COL", help="column of the classifier: one matrix per value (--predictions)"
    )
    parser.add_argument("--labels", metavar="A,B,C", help="class order (see 'Class order' below)")


def _add_zero_division(parser: argparse.ArgumentParser, default: str, note: str) -> None:
    parser.add_argument(
        "--zero-division",
        choices=("nan", "0", "1"),
        default=default,
        help=f"value of a 0/0 (e.g. the precision of a class never predicted); default "
        f"{default}, {note}",
    )


def _subparser(subparsers, name: str, help_text: str, description: str):
    """A subcommand parser; its description is wrapped, the formats epilog kept as written."""
    return subparsers.add_parser(
        name,
        help=help_text,
        description=textwrap.fill(description, 78),
        epilog=_FORMATS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _score_parser(subparsers) -> None:
    p = _subparser(
        subparsers,
        "score",
        "every measure of one or several confusion matrices",
        "Print every registry measure and the preference-driven measure (pd) at the "
        "default kappa (actual-class shares, paper 000 eq. 31) and at each --kappa.",
    )
    _add_input_arguments(p, "confusion matrix file (JSON or CSV), - for standard input")
    p.add_argument(
        "--kappa",
        action="append",
        default=[],
        metavar="K",
        help="a preference vector, one weight of precision per class in [0, 1]: "
        "0.3,0.1,0.9 in class order, or label=weight,... naming every class; "
        "repeatable",
    )
    p.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="output format (default text; values at full precision, NaN as NaN "
        "in text and CSV, null in JSON)",
    )
    _add_zero_division(p, "nan", "the measures library's default (paper 000 uses 0)")
    p.set_defaults(run=run_score)


def _compare_parser(subparsers) -> None:
    p = _subparser(
        subparsers,
        "compare",
        "compare classifiers over the whole kappa space",
        "Exact analysis of pd over a kappa space for classifiers evaluated on the "
        "same data: pd distribution per classifier, pairwise win probabilities, "
        "and the share of the space where each ranks first. The space is kappa "
        "uniform on [0,1]^C, or the product grid of --grid.",
    )
    _add_input_arguments(p, "matrices of several classifiers (JSON 'matrices' or long CSV)")
    p.add_argument(
        "--grid",
        metavar="V,V,...",
        help="kappa values of a product grid, e.g. 0,0.5,1 (default: uniform kappa)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text", help="default text")
    p.add_argument(
        "--plot",
        metavar="PATH",
        help="also write the CDF of pd per classifier (PNG, PDF or SVG by suffix)",
    )
    p.add_argument(
        "--samples",
        type=_positive_int,
        default=200_000,
        help="Monte Carlo samples of the share ranked first when the space is "
        "too large to enumerate (default 200000)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of those samples (default 0)")
    _add_zero_division(
        p,
        "0",
        "the exact analysis's default (under nan a classifier with a "
        "0/0 precision or recall is left out, with a warning)",
    )
    p.set_defaults(run=run_compare)


def _explore_parser(subparsers) -> None:
    p = _subparser(
        subparsers,
        "explore",
        "write the interactive HTML kappa explorer",
        "Write a self-contained HTML page to explore pd of the classifiers as "
        "kappa moves (pdmeasure.render.explorer.write_explorer).",
    )
    _add_input_arguments(p, "matrices of one or several classifiers (JSON or CSV)")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="the HTML file to write")
    p.add_argument("--dataset", help="dataset name shown in the page (default: FILE's stem)")
    p.add_argument("--grid", metavar="V,V,...", help="kappa values of a product grid, e.g. 0,0.5,1")
    _add_zero_division(p, "0", "the explorer's default")
    p.set_defaults(run=run_explore)


#: Top-level packages of the ``[pipeline]`` extra that a subcommand may import.
PIPELINE_PACKAGES = frozenset({"pandas", "matplotlib", "sklearn", "snakemake", "yaml"})


def build_parser() -> argparse.ArgumentParser:
    """The ``pdmeasure`` argument parser with its subcommands."""
    from pdmeasure import __version__

    parser = _Parser(
        prog=PROG,
        description="The preference-driven classification measure: "
        "score, compare and explore confusion matrices.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _score_parser(subparsers)
    _compare_parser(subparsers)
    _explore_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pdmeasure`` with ``argv`` (default: the command line); return the exit status.

    Output goes to standard output; an input or usage error prints one line,
    ``pdmeasure: error: ...``, on standard error and returns 2.
    """
    # Library warnings (e.g. a classifier left out of the exact analysis) as one line each.
    logging.basicConfig(format=f"{PROG}: warning: %(message)s", level=logging.WARNING)
    try:
        args = build_parser().parse_args(argv)
        output = args.run(args)
    except CliError as exc:
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        # The library needs numpy and scipy only; reading predictions, figures and the
        # explorer need the pipeline extra. Say which package is missing and how to add it.
        if (exc.name or "").split(".")[0] not in PIPELINE_PACKAGES:
            raise
        print(
            f"{PROG}: error: this command needs {exc.name!r}, which is part of the "
            f"pipeline extra: pip install 'pdmeasure[pipeline]'",
            file=sys.stderr,
        )
        return 2
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (e.g. ``head``) closed the pipe: stop quietly, and point stdout at
        # devnull so that the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
