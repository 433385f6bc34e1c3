"""The ``pdmeasure`` parser and entry point: subcommands, exit status, error lines."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from pdmeasure import __version__
from pdmeasure.cli import compare, explore, score
from pdmeasure.cli.arguments import ArgumentParser
from pdmeasure.cli.errors import PROG, CliError, one_line

#: Top-level packages of the ``[pipeline]`` extra that a subcommand may import.
PIPELINE_PACKAGES = frozenset({"pandas", "matplotlib", "sklearn", "snakemake", "yaml"})


def build_parser() -> argparse.ArgumentParser:
    """The ``pdmeasure`` argument parser with its subcommands."""
    parser = ArgumentParser(
        prog=PROG,
        description="The preference-driven classification measure: "
        "score, compare and explore confusion matrices.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in (score, compare, explore):
        command.add_parser(subparsers)
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
        print(f"{PROG}: error: {one_line(exc)}", file=sys.stderr)
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
