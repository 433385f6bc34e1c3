"""The ``pdmeasure`` command: score confusion matrices, compare classifiers over kappa.

Subcommands, one module each:

``score`` (:mod:`pdmeasure.cli.score`)
    every registry measure and the preference-driven measure (pd) at the default kappa and at
    each ``--kappa``, for one or several matrices.
``compare`` (:mod:`pdmeasure.cli.compare`)
    the exact kappa-space analysis of several classifiers: pd distribution, pairwise win
    probabilities, share of the kappa space where each classifier ranks first.
``explore`` (:mod:`pdmeasure.cli.explore`)
    the interactive HTML kappa explorer (:func:`pdmeasure.render.explorer.write_explorer`).

Shared pieces: :mod:`pdmeasure.cli.inputs` reads matrix files and predictions tables (formats
and class order are documented there), :mod:`pdmeasure.cli.outputs` formats text, CSV and
JSON, :mod:`pdmeasure.cli.arguments` holds the options every subcommand shares, and
:mod:`pdmeasure.cli.app` builds the parser and runs it.

Errors
------
Invalid input (a non-square or negative matrix, a kappa of the wrong length or with an
unknown label, an unreadable file, ...) ends with exit status 2 and one line on standard
error, ``pdmeasure: error: <what is wrong>``.
"""

from pdmeasure.cli.app import build_parser, main
from pdmeasure.cli.errors import CliError

__all__ = ["CliError", "build_parser", "main"]
