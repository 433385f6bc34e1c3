"""``pdmeasure compare``: the exact kappa-space analysis of several classifiers."""

from __future__ import annotations

import argparse
import re
from itertools import combinations

from pdmeasure import uncertainty as unc
from pdmeasure._validation import ZeroDivision
from pdmeasure.cli.arguments import (
    add_input_arguments,
    add_save_matrices,
    add_zero_division,
    positive_int,
    save_matrices,
    subparser,
    zero_division_value,
)
from pdmeasure.cli.errors import CliError, one_line
from pdmeasure.cli.inputs import MatrixSet, load_input
from pdmeasure.cli.intervals import (
    CiOptions,
    add_ci_arguments,
    ci_options,
    describe,
    matrix_draws,
)
from pdmeasure.cli.outputs import dump_json, json_records, short, text_table
from pdmeasure.exact import ExactSettings


def parse_grid(text: str) -> list[float]:
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
    zero_division: ZeroDivision,
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
    # The tables are pandas frames (the pipeline extra): imported when the command runs, so
    # that a bare install can still run ``score`` and report the missing extra here.
    from pdmeasure.tables.exact import DatasetAnalysis

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
            spaces=[space],  # the other spaces' tables would be computed and dropped
        )
        tables = {
            "summary": analysis.summary(),
            "win": analysis.win_probabilities(),
            "share": analysis.shares(),
        }
        if with_cdf:
            tables["cdf"] = analysis.distributions()[0]
    except ValueError as exc:
        raise CliError(one_line(exc)) from None
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
    values = ",".join(short(v) for v in grid)
    return f"kappa grid {{{values}}}^{n_classes} ({len(grid) ** n_classes} vectors)"


def _table_section(title: str, frame, header: list[str], columns: list[str]) -> list[str]:
    """One titled text table of a result frame: text columns as they are, numbers shortened."""
    rows = [
        [value if isinstance(value, str) else short(value) for value in (r[c] for c in columns)]
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


def robust_wins(
    mset: MatrixSet,
    grid: list[float] | None,
    zero_division: ZeroDivision,
    options: CiOptions,
) -> list[dict]:
    """P(A beats B) jointly over the matrices' draws and the kappa space, per pair.

    Every pair (A before B in input order): ``p_greater`` = P(pd_A > pd_B), ``p_less`` the
    reverse, ``p_tie`` the rest (:func:`pdmeasure.uncertainty.preference_robust`).
    """
    draws = matrix_draws(mset, options)
    region = "grid" if grid is not None else "uniform"
    wins = unc.preference_robust(
        draws, region=region, grid=grid, seed=options.seed, zero_division=zero_division
    )
    names = list(mset.matrices)
    return [
        {
            "classifier_a": names[a],
            "classifier_b": names[b],
            "p_greater": float(wins[a, b]),
            # rounded: the three shares of the same draws sum to 1 up to float error
            "p_tie": round(max(0.0, 1.0 - wins[a, b] - wins[b, a]), 12),
            "p_less": float(wins[b, a]),
        }
        for a, b in combinations(range(len(names)), 2)
    ]


def _robust_text(rows: list[dict], options: CiOptions) -> list[str]:
    header = ["A", "B", "P(A>B)", "P(tie)", "P(A<B)"]
    body = [
        [
            r["classifier_a"],
            r["classifier_b"],
            *(short(r[k]) for k in ("p_greater", "p_tie", "p_less")),
        ]
        for r in rows
    ]
    title = (
        "P(A beats B) over the kappa space and the matrices' uncertainty "
        f"({describe(options, level=False)})"
    )
    return [f"\n{title}\n", text_table(header, body)]


def run_compare(args: argparse.Namespace) -> str:
    """``pdmeasure compare``: the text or JSON report, and the plot if asked for."""
    mset = load_input(args)
    grid = parse_grid(args.grid) if args.grid else None
    zd = zero_division_value(args.zero_division)
    options = ci_options(args)
    tables, excluded = compare_tables(
        mset, grid, zd, samples=args.samples, seed=args.seed, with_cdf=bool(args.plot)
    )
    robust = robust_wins(mset, grid, zd, options) if options else None
    space = _space_text(grid, len(mset.labels))
    if args.plot:
        _plot_cdf(tables["cdf"], args.plot, f"{mset.dataset}: pd over {space}")
    save_matrices(mset, args)
    if args.format == "json":
        data = {
            "labels": mset.labels,
            "zero_division": args.zero_division,
            "space": "grid" if grid is not None else "uniform",
            "grid_values": grid,
            **{key: json_records(tables[key]) for key in ("summary", "win", "share")},
            "excluded": excluded,
        }
        if options:
            data["win_under_uncertainty"] = robust
            data["ci"] = dict(vars(options))
        return dump_json(data)
    text = compare_text(mset, tables, excluded, space, args.zero_division)
    if robust is None or options is None:
        return text
    return text + "".join(_robust_text(robust, options))


def _plot_cdf(cdf, path: str, title: str) -> None:
    """The CDF of pd per classifier (:func:`pdmeasure.render.exact_figures.cdf_figure`), saved headless."""
    # matplotlib (the pipeline extra), only when a plot is asked for.
    from pdmeasure.render.exact_figures import cdf_figure
    from pdmeasure.render.figures import save_figure

    try:
        save_figure(cdf_figure(cdf, title=title), path)
    except (OSError, ValueError) as exc:
        raise CliError(f"cannot write the plot {path}: {one_line(exc)}") from None


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparser(
        subparsers,
        "compare",
        "compare classifiers over the whole kappa space",
        "Exact analysis of pd over a kappa space for classifiers evaluated on the "
        "same data: pd distribution per classifier, pairwise win probabilities, "
        "and the share of the space where each ranks first. The space is kappa "
        "uniform on [0,1]^C, or the product grid of --grid.",
    )
    add_input_arguments(p, "matrices of several classifiers (JSON 'matrices' or long CSV)")
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
        type=positive_int,
        default=200_000,
        help="Monte Carlo samples of the share ranked first when the space is "
        "too large to enumerate (default 200000)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of those samples (default 0)")
    add_zero_division(
        p,
        "Under nan a classifier with a 0/0 precision or recall is left out of the "
        "analysis, with a warning that names it.",
    )
    add_save_matrices(p)
    add_ci_arguments(p, seed=False)
    p.set_defaults(run=run_compare)
