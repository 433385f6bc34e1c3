"""The argument parser's shared pieces: one-line usage errors, input and policy options."""

from __future__ import annotations

import argparse
import textwrap
from typing import NoReturn

from pdmeasure._validation import ZERO_DIVISION_DEFAULT, ZeroDivision
from pdmeasure.cli.errors import CliError
from pdmeasure.cli.inputs import MatrixSet
from pdmeasure.cli.outputs import write_matrices


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors become one-line :class:`CliError`."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see '{self.prog} --help')")


FORMATS_HELP = """\
FILE formats (FILE may be - for standard input):
  JSON  [[...], ...]  |  {"labels": [...], "matrix": [[...]]}
        | {"labels": [...], "matrices": {"A": [[...]], "B": [[...]]}}
        (the form --save-matrices and score --format json write)
  CSV   a square matrix of counts, with or without a header row and a first
        column of class labels (detected); or a long table with the columns
        classifier, actual, predicted, count (absent cells count 0).
  Rows are actual classes, columns predicted classes.
--predictions FILE: one row per sample, as CSV, TSV, Parquet or Arrow IPC, also
  compressed (gzip, bzip2, xz, zstd); --true and --pred name the columns of
  actual and predicted labels, --by the column of the classifier (one matrix
  per value, in order of first appearance).
Class order: the rows of a matrix; for --predictions and a long CSV, --labels
  if given, else the sorted union of the actual and predicted labels
  (numerically if every label is a number, else as text), as scikit-learn's
  unique_labels. --labels names or reorders the classes of a matrix file.
"""


def add_input_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """FILE, or --predictions with --true, --pred and --by; and --labels."""
    parser.add_argument("file", nargs="?", metavar="FILE", help=what)
    parser.add_argument(
        "--predictions",
        metavar="FILE",
        help=(
            "a predictions file, one row per sample, instead of FILE: CSV, TSV, Parquet or "
            "Arrow IPC, also compressed (gzip, bzip2, xz, zstd); - for stdin"
        ),
    )
    parser.add_argument("--true", metavar="COL", help="column of actual labels (--predictions)")
    parser.add_argument("--pred", metavar="COL", help="column of predicted labels (--predictions)")
    parser.add_argument(
        "--by", metavar="COL", help="column of the classifier: one matrix per value (--predictions)"
    )
    parser.add_argument("--labels", metavar="A,B,C", help="class order (see 'Class order' below)")


def add_save_matrices(parser: argparse.ArgumentParser) -> None:
    """``--save-matrices FILE``: the input's matrices as a JSON matrix file."""
    parser.add_argument(
        "--save-matrices",
        metavar="FILE",
        help="also write the matrices (tallied from --predictions, or read from FILE) to "
        'this file as JSON {"labels": [...], "matrices": {...}}, which score, compare and '
        "explore read as FILE with the same results; written when the command succeeds",
    )


def save_matrices(mset: MatrixSet, args: argparse.Namespace) -> None:
    """Write the matrices to ``--save-matrices`` when it is given."""
    if args.save_matrices is not None:
        write_matrices(mset, args.save_matrices)


def add_zero_division(parser: argparse.ArgumentParser, note: str) -> None:
    """``--zero-division {nan,0,1}``, default :data:`pdmeasure._validation.ZERO_DIVISION_DEFAULT`, with ``note``."""
    parser.add_argument(
        "--zero-division",
        choices=("nan", "0", "1"),
        default=ZERO_DIVISION_DEFAULT,
        help="value of a 0/0 (e.g. the precision of a class never predicted); default "
        f"{ZERO_DIVISION_DEFAULT}, the measures library's; the papers use 0. {note}",
    )


def subparser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help_text: str,
    description: str,
) -> argparse.ArgumentParser:
    """A subcommand parser; its description is wrapped, the formats epilog kept as written."""
    return subparsers.add_parser(
        name,
        help=help_text,
        description=textwrap.fill(description, 78),
        epilog=FORMATS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def zero_division_value(text: str) -> ZeroDivision:
    """``--zero-division`` value: ``"nan"``, 0.0 or 1.0."""
    values: dict[str, ZeroDivision] = {"nan": "nan", "0": 0.0, "1": 1.0}
    return values[text]
