"""``pdmeasure score``: every registry measure and pd at each ``--kappa``, per matrix."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

import numpy as np

from pdmeasure import measures
from pdmeasure import uncertainty as unc
from pdmeasure._validation import ZeroDivision
from pdmeasure.cli.arguments import (
    add_input_arguments,
    add_save_matrices,
    add_zero_division,
    save_matrices,
    subparser,
    zero_division_value,
)
from pdmeasure.cli.errors import CliError, one_line
from pdmeasure.cli.inputs import MatrixSet, load_input
from pdmeasure.cli.intervals import (
    CiOptions,
    add_ci_arguments,
    bounds,
    ci_options,
    describe,
    interval_columns,
    matrix_draws,
)
from pdmeasure.cli.outputs import (
    csv_table,
    dump_json,
    full,
    json_value,
    matrices_json,
    matrices_text,
    matrix_cells,
    text_table,
)
from pdmeasure.measures.labels import kappa_vector
from pdmeasure.measures.weights import DEFAULT_KAPPA, NO_KAPPA, PD, format_kappa


def parse_kappa_option(text: str) -> list[float] | dict[str, float]:
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
    mapping: dict[str, float] = {}
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


def score_values(
    mset: MatrixSet, kappas: Sequence[str], zero_division: ZeroDivision
) -> tuple[dict[str, np.ndarray], list[tuple[np.ndarray, np.ndarray]]]:
    """Every registry measure, and pd at each ``--kappa``, of every matrix.

    Returns
    -------
    values : dict of str to numpy.ndarray
        Registry measure -> one value per matrix (``preference_driven`` at eq. 31).
    pd_rows : list of (numpy.ndarray, numpy.ndarray)
        Per ``--kappa``: the vector in class order and pd of every matrix.
    """
    stack = mset.stack()
    try:
        values = measures.evaluate(stack, zero_division=zero_division)
    except ValueError as exc:
        raise CliError(one_line(exc)) from None
    pd_rows = []
    for text in kappas:
        try:
            vector = kappa_vector(parse_kappa_option(text), mset.labels)
            pd_values = measures.preference_driven(stack, vector, zero_division=zero_division)
        except ValueError as exc:
            raise CliError(f"--kappa {text}: {one_line(exc)}") from None
        pd_rows.append((vector, np.atleast_1d(pd_values)))
    return {name: np.atleast_1d(v) for name, v in values.items()}, pd_rows


def score_intervals(
    mset: MatrixSet,
    pd_rows: Sequence[tuple[np.ndarray, np.ndarray]],
    zero_division: ZeroDivision,
    options: CiOptions,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Lower and upper bounds of every value of :func:`score_values`, from draws.

    Returns
    -------
    dict of str to (numpy.ndarray, numpy.ndarray)
        Registry measure -> bounds per matrix; pd at each ``--kappa`` under its position
        in ``pd_rows`` (``0``, ``1``, ...).
    """
    draws = matrix_draws(mset, options)
    kappas = {str(i): vector for i, (vector, _) in enumerate(pd_rows)}
    values = unc.measure_draws(draws, kappas=kappas, zero_division=zero_division)
    out = {name: bounds(v, options.level) for name, v in values.items() if "[" not in name}
    out.update({key: bounds(values[unc.pd_key(key)], options.level) for key in kappas})
    return out


def run_score(args: argparse.Namespace) -> str:
    """``pdmeasure score``: the measures table as text, CSV or JSON (with the matrices:
    always in JSON, with ``--matrices`` in text and CSV)."""
    mset = load_input(args)
    zero_division = zero_division_value(args.zero_division)
    values, pd_rows = score_values(mset, args.kappa, zero_division)
    options = ci_options(args)
    ci = score_intervals(mset, pd_rows, zero_division, options) if options else None
    output = _score_output(args, mset, values, pd_rows, ci, options)
    save_matrices(mset, args)
    return output


def _score_output(args, mset: MatrixSet, values, pd_rows, ci, options) -> str:
    """The report of :func:`run_score` in ``args.format``."""
    if args.format == "json":
        return dump_json(_score_json(mset, values, pd_rows, args.zero_division, ci, options))
    rows = [
        (name, DEFAULT_KAPPA if name == PD else NO_KAPPA, v, name) for name, v in values.items()
    ]
    rows += [(PD, format_kappa(vector), v, str(i)) for i, (vector, v) in enumerate(pd_rows)]
    names = list(mset.matrices)
    header = ["measure", "kappa", *(interval_columns(names) if ci else names)]
    body = [
        [measure, kappa, *_cells(v, ci[key] if ci else None)] for measure, kappa, v, key in rows
    ]
    if args.format == "csv":
        if args.matrices:
            header, body = _with_cells(header, body, mset, 3 if ci else 1)
        return csv_table(header, body)
    intro = (
        f"# classes (rows actual, columns predicted): {', '.join(mset.labels)}\n"
        f"# zero_division: {args.zero_division}; kappa {DEFAULT_KAPPA!r} = actual-class "
        "shares (paper 000, eq. 31)\n"
    )
    if options:
        intro += f"# {describe(options)}\n"
    text = intro + text_table(header, body)
    return text + matrices_text(mset) if args.matrices else text


def _with_cells(header: list[str], body: list[list[str]], mset: MatrixSet, width: int):
    """The CSV table with the matrices: the columns ``actual`` and ``predicted`` after
    ``kappa`` (empty in the measures' rows), and one row ``count`` per cell of the matrices,
    row by row, its count under each matrix's value (``width`` columns per matrix: a value,
    or a value and its two bounds, left empty)."""
    cells = [
        ["count", "", actual, predicted, *(x for n in counts for x in [n] + [""] * (width - 1))]
        for actual, predicted, counts in matrix_cells(mset)
    ]
    header = [*header[:2], "actual", "predicted", *header[2:]]
    return header, [[*row[:2], "", "", *row[2:]] for row in body] + cells


def _cells(values, ci) -> list[str]:
    """Each matrix's value, followed by its bounds when there are intervals."""
    if ci is None:
        return [full(x) for x in values]
    lower, upper = (np.atleast_1d(b) for b in ci)
    return [full(x) for triple in zip(values, lower, upper) for x in triple]


def _score_json(mset: MatrixSet, values, pd_rows, zero_division: str, ci=None, options=None):
    """``{"labels", "zero_division", "results": {matrix: {"measures", "default_kappa",
    "preference_driven": [{"kappa", "value"}, ...]}}, "matrices": {matrix: [[...]]}}``; NaN
    as null. With intervals, each result also has ``"intervals": {measure: [lower, upper]}``,
    each pd row ``"lower"`` and ``"upper"``, and the top level ``"ci"`` (level, method,
    draws, seed, prior). ``labels`` and ``matrices`` make it a matrix file that ``score``,
    ``compare`` and ``explore`` read (the other keys are left aside)."""
    results = {}
    for m, (name, cm) in enumerate(mset.matrices.items()):
        support = cm.sum(axis=1)
        rows = []
        for i, (vector, v) in enumerate(pd_rows):
            row = {"kappa": [float(x) for x in vector], "value": json_value(float(v[m]))}
            if ci:
                row.update(_json_bounds(ci[str(i)], m))
            rows.append(row)
        results[name] = {
            "measures": {key: json_value(float(v[m])) for key, v in values.items()},
            "default_kappa": [float(x) for x in support / support.sum()],
            "preference_driven": rows,
        }
        if ci:
            results[name]["intervals"] = {
                key: list(_json_bounds(ci[key], m).values()) for key in values
            }
    out = {"labels": mset.labels, "zero_division": zero_division, "results": results}
    if options:
        out["ci"] = dict(vars(options))
    out["matrices"] = matrices_json(mset)["matrices"]
    return out


def _json_bounds(ci, m: int) -> dict:
    lower, upper = (np.atleast_1d(b) for b in ci)
    return {"lower": json_value(float(lower[m])), "upper": json_value(float(upper[m]))}


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparser(
        subparsers,
        "score",
        "every measure of one or several confusion matrices",
        "Print every registry measure and the preference-driven measure (pd) at the "
        "default kappa (actual-class shares, paper 000 eq. 31) and at each --kappa.",
    )
    add_input_arguments(p, "confusion matrix file (JSON or CSV), - for standard input")
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
        "in text and CSV, null in JSON; JSON has the matrices too, under 'matrices')",
    )
    p.add_argument(
        "--matrices",
        action="store_true",
        help="also show the matrices in text and CSV: in text one table per matrix after "
        "the measures, rows actual; in CSV one row 'count' per cell, with its classes in "
        "the added columns actual and predicted",
    )
    add_save_matrices(p)
    add_zero_division(p, "")
    add_ci_arguments(p)
    p.set_defaults(run=run_score)
