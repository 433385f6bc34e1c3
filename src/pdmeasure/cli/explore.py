"""``pdmeasure explore``: the self-contained HTML kappa explorer of the input's matrices."""

from __future__ import annotations

import argparse

from pdmeasure.cli.arguments import (
    add_input_arguments,
    add_save_matrices,
    add_zero_division,
    save_matrices,
    subparser,
    zero_division_value,
)
from pdmeasure.cli.compare import parse_grid
from pdmeasure.cli.errors import CliError, one_line
from pdmeasure.cli.inputs import load_input


def run_explore(args: argparse.Namespace) -> str:
    """``pdmeasure explore``: compute the page's data, then write the HTML explorer."""
    # The page's data are computed from pandas tables (the pipeline extra): imported when the
    # command runs, so that a bare install can still run ``score`` and report the missing
    # extra here (cli/app.py).
    from pdmeasure.render.explorer import write_explorer
    from pdmeasure.tables.explorer import explorer_data

    mset = load_input(args)
    grid = parse_grid(args.grid) if args.grid else None
    try:
        data = explorer_data(
            mset.counts(),
            mset.labels,
            dataset=args.dataset or mset.dataset,
            grid_values=grid,
            zero_division=zero_division_value(args.zero_division),
        )
        write_explorer(data, args.output)
    except OSError as exc:
        raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise CliError(one_line(exc)) from None
    save_matrices(mset, args)
    return f"wrote {args.output}\n"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparser(
        subparsers,
        "explore",
        "write the interactive HTML kappa explorer",
        "Write a self-contained HTML page to explore pd of the classifiers as "
        "kappa moves (pdmeasure.tables.explorer.explorer_data, then "
        "pdmeasure.render.explorer.write_explorer).",
    )
    add_input_arguments(p, "matrices of one or several classifiers (JSON or CSV)")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="the HTML file to write")
    p.add_argument("--dataset", help="dataset name shown in the page (default: FILE's stem)")
    p.add_argument("--grid", metavar="V,V,...", help="kappa values of a product grid, e.g. 0,0.5,1")
    add_zero_division(p, "Under nan a 0/0 precision or recall makes pd undefined where it counts.")
    add_save_matrices(p)
    p.set_defaults(run=run_explore)
