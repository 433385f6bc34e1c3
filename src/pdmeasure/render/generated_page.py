"""The command line of a documentation page generated from the code: write it, or check it.

``python -m pdmeasure.render.measures_doc`` and ``python -m pdmeasure.render.config_doc`` both
run :func:`page_command`: without options they write the page (atomically); with ``--check``
they exit 1, naming the command that regenerates it, when the file differs from the code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pdmeasure.tables.io import write_text


def page_command(
    argv: Sequence[str] | None,
    *,
    render: Callable[[], str],
    default_output: Path,
    module: str,
    description: str,
) -> int:
    """Write the page ``render()`` to ``--output``, or ``--check`` that it is current.

    Returns
    -------
    int
        The exit status: 0, or 1 when ``--check`` finds the file out of date.
    """
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    parser.add_argument("--output", type=Path, default=default_output)
    parser.add_argument("--check", action="store_true", help="fail if the file is out of date")
    args = parser.parse_args(argv)
    page = render()
    if not args.check:
        write_text(page, args.output)
        return 0
    current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
    if current != page:
        print(f"{args.output} is out of date: run python -m {module}", file=sys.stderr)
        return 1
    return 0


def page_main(
    render: Callable[[], str], default_output: Path, module: str, doc: str | None
) -> Callable[..., int]:
    """The ``main(argv)`` of a page module: :func:`page_command` with the module's settings
    (its ``render``, its page, its name, the first line of its docstring)."""

    def main(argv: Sequence[str] | None = None) -> int:
        """Write the page, or ``--check`` that it is current (:func:`page_command`)."""
        return page_command(
            argv,
            render=render,
            default_output=default_output,
            module=module,
            description=(doc or "").splitlines()[0],
        )

    return main
