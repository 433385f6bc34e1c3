"""Intervals for the command: ``--ci`` and its options, and the draws behind them.

``--method posterior`` (the default) draws each matrix from the posterior of its counts
(:func:`pdmeasure.uncertainty.posterior_draws`); ``--method bootstrap`` resamples the samples
within each actual class, each classifier (``--by`` group) on its own rows, from the matrices
(:func:`pdmeasure.uncertainty.matrix_bootstrap_draws`: the distribution of resampling the
rows they count), so a ``--predictions`` file of any size and format, or standard input, is
read once, and a matrix file of whole counts (such as ``--save-matrices`` writes) gives the
same draws as the predictions it was tallied from.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pdmeasure import uncertainty as unc
from pdmeasure.cli.errors import CliError, one_line
from pdmeasure.cli.inputs import MatrixSet

#: Fewest ``--draws``: an interval's tails read off fewer draws are mostly noise.
MIN_DRAWS = 100
METHODS = ("posterior", "bootstrap")


@dataclass(frozen=True)
class CiOptions:
    """The parsed ``--ci``, ``--draws``, ``--seed``, ``--method`` and ``--prior``."""

    level: float
    draws: int
    seed: int
    method: str
    prior: float | None


def _level(text: str) -> float:
    try:
        return unc.check_level(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a level strictly between 0 and 1, e.g. --ci 0.95"
        ) from None


def _draws(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < MIN_DRAWS:
        raise argparse.ArgumentTypeError(f"at least {MIN_DRAWS} draws, got {value}")
    return value


def _prior(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(
            f"the prior must be > 0 (default 1/(2(C-1)); 0.5: Jeffreys per cell), got {value}"
        )
    return value


def add_ci_arguments(parser: argparse.ArgumentParser, *, seed: bool = True) -> None:
    """``--ci [LEVEL]``, ``--draws``, ``--seed`` (unless the command has one), ``--method``
    and ``--prior``."""
    group = parser.add_argument_group("intervals")
    group.add_argument(
        "--ci",
        nargs="?",
        const=unc.DEFAULT_LEVEL,
        type=_level,
        metavar="LEVEL",
        help="add lower and upper bounds of an equal-tailed interval at LEVEL "
        f"(default {unc.DEFAULT_LEVEL}) to every value",
    )
    group.add_argument(
        "--draws",
        type=_draws,
        default=unc.DEFAULT_DRAWS,
        help=f"draws behind the interval (default {unc.DEFAULT_DRAWS}, at least {MIN_DRAWS})",
    )
    if seed:
        group.add_argument("--seed", type=int, default=0, help="seed of the draws (default 0)")
    group.add_argument(
        "--method",
        choices=METHODS,
        default="posterior",
        help="posterior of the counts (default), or a stratified bootstrap of the samples "
        "(from --predictions, or whole counts)",
    )
    group.add_argument(
        "--prior",
        type=_prior,
        default=None,
        help="Dirichlet prior per cell of the posterior method (default 1/(2(C-1)): a mass "
        "of 1/2 over each class's errors)",
    )


def ci_options(args: argparse.Namespace) -> CiOptions | None:
    """The interval options of ``args``, or None without ``--ci``."""
    if args.ci is None:
        return None
    return CiOptions(args.ci, args.draws, args.seed, args.method, args.prior)


def matrix_draws(mset: MatrixSet, options: CiOptions) -> np.ndarray:
    """Draws of every matrix of the input, shape ``(draws, M, C, C)``."""
    if options.method == "bootstrap":
        # Resampling each class's samples and counting their predictions needs only the
        # counts: the same draws from a matrix file as from the predictions it was tallied
        # from, provided the counts are whole.
        try:
            return unc.matrix_bootstrap_draws(mset.stack(), options.draws, seed=options.seed)
        except ValueError as exc:
            raise CliError(
                f"--method bootstrap resamples samples, so it needs whole counts: "
                f"{one_line(exc)}; use --method posterior"
            ) from None
    try:
        return unc.posterior_draws(
            mset.stack(), options.draws, prior=options.prior, seed=options.seed
        )
    except ValueError as exc:
        raise CliError(f"--ci: {one_line(exc)}") from None


def bounds(values: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds along the draws axis."""
    return unc.interval(values, level, axis=0)


def describe(options: CiOptions, *, level: bool = True) -> str:
    """One line naming how the intervals (or, without ``level``, the draws) were made."""
    how = (
        "posterior of the counts, Dirichlet prior "
        + ("1/(2(C-1))" if options.prior is None else f"{options.prior:g}")
        if options.method == "posterior"
        else "stratified bootstrap of the samples"
    )
    what = f"{options.level:g} intervals from " if level else ""
    return f"{what}{options.draws} draws ({how}; seed {options.seed})"


def interval_columns(names: Sequence[str]) -> list[str]:
    """``A, A lower, A upper, B, ...``: each matrix's value and its bounds."""
    return [column for name in names for column in (name, f"{name} lower", f"{name} upper")]
