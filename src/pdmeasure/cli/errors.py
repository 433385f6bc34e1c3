"""The command's one error type: a usage or input problem, reported in one line."""

from __future__ import annotations

PROG = "pdmeasure"


class CliError(Exception):
    """An input or usage problem, reported as one line on standard error (exit status 2)."""


def one_line(exc: Exception) -> str:
    """The message of ``exc`` on one line (line breaks and runs of spaces as one space)."""
    return " ".join(str(exc).split())
