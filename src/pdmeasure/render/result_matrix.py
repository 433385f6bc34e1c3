r"""The result matrix of Weka's Experimenter as Markdown, LaTeX and Weka's plain text.

Every function formats a table of :func:`pdmeasure.tables.result_matrix.result_matrix` (read
back from its CSV or fresh); nothing is recomputed but the ``(v/ /*)`` counts
(:func:`~pdmeasure.tables.result_matrix.result_counts`). A cell reads ``mean (std)``,
followed by ``v`` where the classifier is significantly better than the baseline and ``*``
where it is significantly worse; the last row counts, per classifier, the datasets where it
is better, not different and worse (``(wins/ties/losses)``).

Numbers are printed as Weka prints them (:func:`weka_number`): the exact binary value of the
double rounded half up (Java's ``DecimalFormat`` with ``RoundingMode.HALF_UP``), then padded
with zeros to the requested decimals. Python's ``round`` and ``%.2f`` round the binary value
half to even and print 67.585 (stored as 67.58499999...) like Weka, but 0.125 as 0.12 where
Weka prints 0.13.

:func:`result_matrix_plain` is Weka's ``ResultMatrixPlainText`` with ``-show-stddev`` (the
Experimenter's ``-V``) and its default widths, to the character.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal

import pandas as pd

from pdmeasure.tables.io import require_columns
from pdmeasure.tables.result_matrix import RESULT_MATRIX_COLUMNS, result_counts
from pdmeasure.tables.stats import measure_label

#: The text of each marker in LaTeX, as Weka's ``ResultMatrixLatex`` prints them.
LATEX_MARKERS = {"v": r"$\circ$", "*": r"$\bullet$", "": ""}

#: Characters LaTeX reads as commands, and how they print as text.
_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def weka_number(value: float, decimals: int) -> str:
    """``value`` with ``decimals`` decimals, as Weka's ``ResultMatrix.doubleToString`` prints it.

    The exact binary value is rounded half up (``decimal.Decimal(value)``, Java's
    ``DecimalFormat`` with ``RoundingMode.HALF_UP``), so ``0.125`` prints ``0.13`` and
    ``67.585`` (stored as ``67.584999...``) ``67.58``; a negative value that rounds to zero
    keeps its sign (``-0.00``); NaN prints ``NaN``, infinities ``Infinity`` and ``-Infinity``.
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    rounded = Decimal(value).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    text = format(rounded, "f")
    if decimals > 0 and "." not in text:
        text += "."
    return text


def default_decimals(matrix: pd.DataFrame) -> int:
    """2 decimals for a matrix of percentages (``scale`` 100, Weka's precision), else 4."""
    scale = float(matrix["scale"].iloc[0]) if len(matrix) else 1.0
    return 2 if scale >= 100 else 4


def _check(matrix: pd.DataFrame) -> tuple[list[str], list[str], str]:
    """The classifiers (column order), the datasets (row order) and the baseline of one
    result matrix."""
    require_columns(matrix.columns, RESULT_MATRIX_COLUMNS, "result matrix")
    keys = matrix[["engine", "measure", "kappa", "scheme", "baseline", "alpha"]].drop_duplicates()
    if len(keys) != 1:
        raise ValueError(
            f"a result matrix renders one engine, measure, scheme, baseline and alpha at a "
            f"time, got {len(keys)}: select one with result_matrix(...) first"
        )
    names = list(matrix.sort_values("column", kind="stable")["classifier"].drop_duplicates())
    return names, list(pd.unique(matrix["dataset"])), str(keys["baseline"].iloc[0])


def _cells(matrix: pd.DataFrame) -> dict[tuple[str, str], pd.Series]:
    return {(str(r["dataset"]), str(r["classifier"])): r for _, r in matrix.iterrows()}


def _mean_std(cell: pd.Series, decimals: int, std_decimals: int, sep: str) -> str:
    """``mean (std)``; the mean alone when the std is undefined; empty without a result."""
    if int(cell["n"]) == 0 or math.isnan(float(cell["mean"])):
        return ""
    mean = weka_number(float(cell["mean"]), decimals)
    std = float(cell["std"])
    return mean if math.isnan(std) else f"{mean}{sep}{weka_number(std, std_decimals)}"


def _grid_cell(cell: pd.Series, decimals: int, std_decimals: int) -> str:
    """``mean (std)`` and the marker (`` v``, `` *``); ``mean`` alone without a std."""
    text = _mean_std(cell, decimals, std_decimals, " (")
    if text and not math.isnan(float(cell["std"])):
        text += ")"
    return text + (f" {cell['marker']}" if text and cell["marker"] else "")


def _row_count(cells: list[pd.Series]) -> str:
    """The pairs behind a row: ``100``, or ``70-100`` where its cells differ."""
    counts = sorted({int(c["n"]) for c in cells if int(c["n"]) > 0})
    if not counts:
        return "0"
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


def _wtl(counts: pd.DataFrame) -> dict[str, str]:
    return {
        str(r["classifier"]): f"({int(r['wins'])}/{int(r['ties'])}/{int(r['losses'])})"
        for _, r in counts.iterrows()
    }


def result_matrix_grid(
    matrix: pd.DataFrame, *, decimals: int | None = None, std_decimals: int | None = None
) -> pd.DataFrame:
    """The matrix as printed cells: one row per dataset (``name (n)``) and the ``(v/ /*)``
    row; one column per classifier, ``(1) name`` in column order.

    A cell is ``mean (std)`` followed by `` v`` or `` *``; ``n`` is the number of paired
    results (a range where the row's cells differ). ``decimals`` defaults to
    :func:`default_decimals`, ``std_decimals`` to ``decimals``.
    """
    names, datasets, baseline = _check(matrix)
    decimals = default_decimals(matrix) if decimals is None else decimals
    std_decimals = decimals if std_decimals is None else std_decimals
    cells = _cells(matrix)
    wtl = _wtl(result_counts(matrix))
    columns = [f"({i}) {name}" for i, name in enumerate(names, 1)]
    rows, index = [], []
    for dataset in datasets:
        row = [cells[dataset, name] for name in names]
        index.append(f"{dataset} ({_row_count(row)})")
        rows.append([_grid_cell(c, decimals, std_decimals) for c in row])
    index.append("(v/ /*)")
    rows.append(["" if name == baseline else wtl.get(name, "") for name in names])
    grid = pd.DataFrame(rows, index=index, columns=columns)
    grid.index.name = "Dataset"
    return grid


def _key(matrix: pd.DataFrame, names: list[str], baseline: str) -> str:
    """The sentence under a table: baseline, measure, test, alpha and what the markers mean."""
    first = matrix.iloc[0]
    label = measure_label(str(first["measure"]), str(first["kappa"]))
    scale = float(first["scale"])
    lower = bool(first["lower_is_better"])
    direction = "lower is better, so `v` marks a lower mean" if lower else "higher is better"
    scaled = f" (x {scale:g})" if scale != 1 else ""
    listed = ", ".join(f"({i}) {name}" for i, name in enumerate(names, 1))
    return (
        f"Key: {listed}. Mean (standard deviation) of {label}{scaled} over the repeats x folds "
        f"of {first['scheme']} ({first['engine']}); (n) = the paired results per dataset. "
        f"`v` / `*`: significantly better / worse than the baseline ({names.index(baseline) + 1})"
        f" {baseline} by the corrected resampled t-test (Nadeau and Bengio 2003, as Weka's "
        f"Experimenter computes it), two-tailed, alpha = {float(first['alpha']):g}; "
        f"{direction}. (v/ /*): the datasets where each classifier is better / not "
        "significantly different / worse."
    )


def result_matrix_markdown(
    matrix: pd.DataFrame, *, decimals: int | None = None, std_decimals: int | None = None
) -> str:
    """The matrix as a Markdown table followed by its key.

    Example (accuracy x 100 of three Weka classifiers, 10 x 10-fold CV)::

        | Dataset | (1) J48 | (2) BayesNet | (3) RandomForest |
        |:---|---:|---:|---:|
        | glass (100) | 67.58 (9.30) | 71.56 (8.79) | 79.72 (8.72) v |
        | (v/ /*) |  | (1/2/0) | (2/1/0) |

        Key: (1) J48, (2) BayesNet, (3) RandomForest. Mean (standard deviation) ...
    """
    names, _, baseline = _check(matrix)
    grid = result_matrix_grid(matrix, decimals=decimals, std_decimals=std_decimals)
    lines = [
        "| " + " | ".join(_md(x) for x in ["Dataset", *grid.columns]) + " |",
        "|:---|" + "---:|" * len(grid.columns),
    ]
    for label, row in grid.iterrows():
        lines.append("| " + " | ".join(_md(x) for x in [label, *row]) + " |")
    return "\n".join(lines) + "\n\n" + _key(matrix, names, baseline) + "\n"


def _md(text: object) -> str:
    """A Markdown table cell: a ``|`` of a name would end the cell, so it is escaped."""
    return str(text).replace("|", "\\|")


def latex_escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped (``&`` -> ``\&``, ``_`` -> ``\_``, ...)."""
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in str(text))


def result_matrix_latex(
    matrix: pd.DataFrame, *, decimals: int | None = None, std_decimals: int | None = None
) -> str:
    r"""The matrix as a booktabs ``tabular`` (``\usepackage{booktabs}``).

    Each classifier takes two columns, ``mean $\pm$ std`` (right-aligned) and its marker:
    ``$\circ$`` for ``v`` (significantly better than the baseline) and ``$\bullet$`` for
    ``*`` (worse), the symbols of Weka's ``ResultMatrixLatex``; the baseline has no marker
    column. The ``(v/ /*)`` counts close the table, then a line naming baseline, test and
    alpha. Names are escaped (:func:`latex_escape`).
    """
    names, datasets, baseline = _check(matrix)
    decimals = default_decimals(matrix) if decimals is None else decimals
    std_decimals = decimals if std_decimals is None else std_decimals
    cells = _cells(matrix)
    wtl = _wtl(result_counts(matrix))
    spec = "l" + "".join("r" if name == baseline else "rl" for name in names)
    width = 1 + sum(1 if name == baseline else 2 for name in names)

    def span(name: str, text: str) -> str:
        return text if name == baseline else rf"\multicolumn{{2}}{{c}}{{{text}}}"

    head = [span(n, f"({i}) {latex_escape(n)}") for i, n in enumerate(names, 1)]
    lines = [
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(["Dataset", *head]) + r" \\",
        r"\midrule",
    ]
    for dataset in datasets:
        row = [cells[dataset, name] for name in names]
        parts = [f"{latex_escape(dataset)} ({_row_count(row)})"]
        for name, cell in zip(names, row):
            parts.append(_mean_std(cell, decimals, std_decimals, r" $\pm$ "))
            if name != baseline:
                parts.append(LATEX_MARKERS[str(cell["marker"])])
        lines.append(" & ".join(parts) + r" \\")
    counts = [span(n, "" if n == baseline else wtl.get(n, "")) for n in names]
    first = matrix.iloc[0]
    label = latex_escape(measure_label(str(first["measure"]), str(first["kappa"])))
    lines += [
        r"\midrule",
        " & ".join([r"($\circ$/ /$\bullet$)", *counts]) + r" \\",
        r"\bottomrule",
        rf"\multicolumn{{{width}}}{{l}}{{\footnotesize {label}: mean $\pm$ std; $\circ$, "
        rf"$\bullet$ significantly better, worse than ({names.index(baseline) + 1}) "
        rf"{latex_escape(baseline)} (corrected resampled t-test, "
        rf"$\alpha = {float(first['alpha']):g}$)}} \\",
        r"\end{tabular}",
    ]
    return "\n".join(lines) + "\n"


def _pad(text: str, length: int, left: bool = False) -> str:
    """Weka's ``ResultMatrix.padString``: pad with spaces (on the left when ``left``) to
    ``length``, and cut what is longer."""
    if len(text) < length:
        text = " " * (length - len(text)) + text if left else text + " " * (length - len(text))
    return text[:length] if length > 0 and len(text) > length else text


def _plain_cells(matrix: pd.DataFrame, names, datasets, mean_decimals, std_decimals):
    """Per dataset: the mean, std and marker texts of each classifier, and Weka's count."""
    cells = _cells(matrix)
    symbol = {"v": "v", "*": "*", "": " "}
    out = []
    for dataset in datasets:
        row = []
        for name in names:
            cell = cells[dataset, name]
            exists = int(cell["n"]) > 0 and not math.isnan(float(cell["mean"]))
            std = float(cell["std"])
            row.append(
                (
                    weka_number(float(cell["mean"]), mean_decimals) if exists else "",
                    ""
                    if not exists
                    else "Inf"
                    if math.isinf(std)
                    else weka_number(std, std_decimals),
                    symbol[str(cell["marker"])] if exists else "",
                )
            )
        # Weka prints the count of the last classifier in the experiment's order.
        out.append((dataset, row, int(cells[dataset, names[-1]]["n"])))
    return out


def result_matrix_plain(
    matrix: pd.DataFrame,
    *,
    mean_decimals: int = 2,
    std_decimals: int = 2,
    row_name_width: int = 25,
    count_width: int = 5,
    labels: Mapping[str, str] | None = None,
) -> str:
    """The matrix as Weka's ``ResultMatrixPlainText`` prints it with ``-show-stddev``.

    The layout of ``PairedCorrectedTTester -V`` with the default widths, to the character:
    the baseline first, then `` |``, then the other classifiers in column order, each as
    ``mean(std)`` and its marker (``v``, ``*`` or a blank); ``(n)`` after the dataset is the
    number of paired results of the last classifier of the experiment (Weka's rule), the
    column headings ``(i) name`` are cut to the columns' widths, and a ``Key:`` lists the
    full names. For the numbers of Weka's ``Percent_correct``, build the matrix with
    ``scale=100``. ``labels`` maps a classifier to the name printed for it (Weka prints
    the scheme, its options and version, e.g. ``trees.J48 '-C 0.25 -M 2' -2177...``).
    """
    names, datasets, baseline = _check(matrix)
    label = {name: (labels or {}).get(name, name) for name in names}
    order = [baseline] + [n for n in names if n != baseline]
    at = [names.index(n) for n in order]
    rows = _plain_cells(matrix, names, datasets, mean_decimals, std_decimals)
    # every field is right-aligned to the widest of its column
    widths = {
        (j, part): max([len(r[1][j][part]) for r in rows] or [0])
        for j in range(len(names))
        for part in range(3)
    }
    start_means: list[int] = []
    start_sigs: list[int] = []
    body = []
    for i, (dataset, row, count) in enumerate(rows):
        line = _pad(dataset[:row_name_width] if row_name_width > 0 else dataset, row_name_width)
        line += _pad(f"({count})", count_width, True)
        for k, j in enumerate(at):
            mean, std, sig = (_pad(row[j][p], widths[j, p], True) for p in range(3))
            if i == 0:
                start_means.append(len(line))
            line += "   " + mean
            line += f"({std})" if std.strip() else f" {std} "
            if k == 0:
                line += " |"
            else:
                if i == 0:
                    start_sigs.append(len(line))
                line += " " + sig
        body.append(line)
    length = len(body[0]) if body else 0
    head = _pad("Dataset", start_means[0] if start_means else row_name_width)
    for k, j in enumerate(at):
        # each heading starts where its column does, cutting the one before it
        if k == 0:
            head = _pad(head, start_means[0] - count_width)
        elif k == 1:
            head = _pad(head, start_means[1] - 2) + " |"
        else:
            head = _pad(head, start_means[k])
        head += f" ({j + 1}) {label[names[j]]}"
    head = _pad(head, length)
    wtl = _wtl(result_counts(matrix))
    if len(names) > 1:
        last = _pad("(v/ /*)", start_means[1] - 2, True) + " |"
        for k, j in enumerate(at[1:]):
            text = wtl.get(names[j], "(0/0/0)")
            last = _pad(last, start_sigs[k] + 1 - len(text)) + " " + text
        last = _pad(last, length)
    else:
        last = _pad("(v/ /*)", len(head) - 2) + " |"
    rule = "-" * len(head)
    key = "".join(f"({i}) {label[name]}\n" for i, name in enumerate(names, 1))
    return "\n".join([head, rule, *body, rule, last]) + "\n\n\nKey:\n" + key
