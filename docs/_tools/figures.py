"""Regenerate the documentation's figures from a real run of the small test experiment.

Usage (``make docs-figures`` runs it; ``make docs`` runs it when the figures are missing)::

    python docs/_tools/figures.py [--cores N] [--workdir DIR]

Copies ``.test/config`` and ``.test/data`` into a work folder (default: a temporary one, so
the checkout's ``.test/results`` is left alone), runs the workflow there up to the figures
the site shows, and copies them into ``docs/_generated/``:

- ``figure7_sklearn.png``: paper Figure 7 (pd over each dataset's kappa grid);
- ``cd_diagram.png``: the critical-difference diagram of pd at the default kappa;
- ``explorer_wine.html``: the interactive kappa explorer of the Wine dataset;
- ``run.txt``: the command that made them, written last (``make docs`` looks for it).

Every figure is written to a temporary name and renamed, so an interrupted run leaves no
half-written figure behind.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "docs" / "_generated"
#: (file in the run's results, name in docs/_generated)
FIGURES = [
    ("figures/figure7_sklearn.png", "figure7_sklearn.png"),
    ("figures/cd/sklearn/preference_driven_default.png", "cd_diagram.png"),
    ("explorer/sklearn/wine.html", "explorer_wine.html"),
]


def run(workdir: Path, cores: str) -> list[str]:
    """Run the small experiment in ``workdir`` up to the figures; return the command."""
    for part in ("config", "data"):
        shutil.copytree(REPO / ".test" / part, workdir / part, dirs_exist_ok=True)
    command = [
        str(Path(sys.executable).parent / "snakemake"),
        "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(workdir),
        "--configfile", str(workdir / "config" / "config.yaml"),
        "--cores", cores,
        *(f"results/{source}" for source, _ in FIGURES),
    ]  # fmt: skip
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-3000:] + done.stderr[-6000:])
        raise SystemExit(f"docs figures: the workflow run failed (exit {done.returncode})")
    return command


def copy(workdir: Path) -> None:
    """Copy each figure into docs/_generated (temporary name, then rename)."""
    OUT.mkdir(parents=True, exist_ok=True)
    for source, name in FIGURES:
        tmp = OUT / f".{name}.tmp"
        shutil.copyfile(workdir / "results" / source, tmp)
        os.replace(tmp, OUT / name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default="2", help="snakemake --cores (default 2)")
    parser.add_argument("--workdir", type=Path, help="run folder (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pdmeasure-docs-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        command = run(workdir, args.cores)
        copy(workdir)
    shown = " ".join(Path(c).name if i == 0 else c for i, c in enumerate(command))
    (OUT / "run.txt").write_text(shown.replace(str(workdir), "<workdir>") + "\n")
    print(f"docs figures written to {OUT.relative_to(REPO)}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
