"""CI regresses every published number through the real pipeline.

The repository's own ``config.yaml`` (the four paper datasets, both engines) runs end to end
with ``snakemake --cores 2`` in a temporary folder; then ``results/reproduction.csv`` is
compared row by row with ``tests/expected/reproduction.csv``: each published number's status
and its reproduced value rounded to the published precision. Any moved cell fails the test and
is listed.

Updating the expected file is a deliberate act, reviewed in its own commit that says why the
cells moved::

    PYTHONPATH=tests python tests/system/test_paper_reproduction.py results/reproduction.csv
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest

from helpers import REPO_ROOT, weka_or_missing

EXPECTED = REPO_ROOT / "tests" / "expected" / "reproduction.csv"
KEYS = ["paper", "table", "row", "column", "engine"]

pytestmark = [pytest.mark.slow, pytest.mark.weka, pytest.mark.paper]


def at_published_precision(frame: pd.DataFrame) -> pd.DataFrame:
    """Key columns, status and the reproduced value rounded to the published precision (the
    digits the paper prints, from ``pdmeasure.paper.published``); text, empty where nothing was
    reproduced."""
    from pdmeasure.paper import published

    digits = published.load().set_index(["paper", "table", "row", "column"])["decimals"]
    places = digits.reindex(pd.MultiIndex.from_frame(frame[["paper", "table", "row", "column"]]))
    if places.isna().any():
        raise ValueError(
            f"reproduction rows without a published number: "
            f"{places[places.isna()].index.tolist()[:5]}"
        )

    def rounded(text: str, decimals: int) -> str:
        return "" if text == "" else f"{float(text):.{int(decimals)}f}"

    out = frame[KEYS + ["status"]].copy()
    out["reproduced"] = [rounded(t, d) for t, d in zip(frame["reproduced"], places.to_numpy())]
    return out.sort_values(KEYS, kind="stable").reset_index(drop=True)


def read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def moved_cells(ours: pd.DataFrame, expected: pd.DataFrame) -> list[str]:
    """One line per published number whose status or rounded value moved, or that appeared
    or disappeared."""
    merged = ours.merge(
        expected, on=KEYS, how="outer", suffixes=("", "_expected"), indicator="side"
    )
    lines = []
    for row in merged.itertuples(index=False):
        key = "/".join(str(getattr(row, k)) for k in KEYS)
        if row.side == "left_only":
            lines.append(f"{key}: new row ({row.status} {row.reproduced})")
        elif row.side == "right_only":
            lines.append(
                f"{key}: missing (expected {row.status_expected} {row.reproduced_expected})"
            )
        elif (row.status, row.reproduced) != (row.status_expected, row.reproduced_expected):
            lines.append(
                f"{key}: {row.status_expected} {row.reproduced_expected!r} -> "
                f"{row.status} {row.reproduced!r}"
            )
    return lines


@pytest.fixture(scope="module")
def paper_run(tmp_path_factory, repo_root, uci_mirror, snakemake_runner):
    weka_or_missing()
    workdir = tmp_path_factory.mktemp("paper_run")
    shutil.copy(repo_root / "config.yaml", workdir / "config.yaml")
    done = snakemake_runner(
        workdir, "--cores", "2", env={"UCI_MIRROR": str(uci_mirror)}, timeout=3600
    )
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-5000:])
    return workdir / "results"


def test_every_published_number_is_where_it_was(paper_run):
    ours = at_published_precision(read(paper_run / "reproduction.csv"))
    expected = read(EXPECTED)
    moved = moved_cells(ours, expected)
    assert not moved, f"{len(moved)} published numbers moved:\n" + "\n".join(moved)


def test_expected_file_is_in_canonical_form():
    expected = read(EXPECTED)
    assert list(expected.columns) == KEYS + ["status", "reproduced"]
    assert not expected.duplicated(KEYS).any()
    assert expected.equals(expected.sort_values(KEYS, kind="stable").reset_index(drop=True))


def test_moved_cells_are_listed():
    """The comparison itself: a moved value, a moved status and a lost row are each named."""
    base = pd.DataFrame(
        {
            "paper": ["p"] * 3,
            "table": ["t"] * 3,
            "row": ["a", "b", "c"],
            "column": ["x"] * 3,
            "engine": ["weka"] * 3,
            "status": ["match"] * 3,
            "reproduced": ["0.5000"] * 3,
        }
    )
    changed = base.copy()
    changed.loc[0, "reproduced"] = "0.5001"
    changed.loc[1, "status"] = "differs"
    changed = changed.drop(index=2)
    assert moved_cells(changed, base) == [
        "p/t/a/x/weka: match '0.5000' -> match '0.5001'",
        "p/t/b/x/weka: match '0.5000' -> differs '0.5000'",
        "p/t/c/x/weka: missing (expected match 0.5000)",
    ]


if __name__ == "__main__":
    # Rewrite the expected file from a run's reproduction.csv (a reviewed, deliberate commit).
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "results/reproduction.csv")
    EXPECTED.parent.mkdir(parents=True, exist_ok=True)
    at_published_precision(read(source)).to_csv(EXPECTED, index=False)
    print(f"{EXPECTED}: {sum(1 for _ in EXPECTED.open()) - 1} rows from {source}")
