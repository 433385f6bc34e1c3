"""The status table of a fitting job: which classifiers finished, which failed and why.

The job of one engine and dataset (rule ``cross_validate``) writes ``fits.csv`` into its
output folder, ``results/cv/<engine>/<dataset>/``: one row per configured classifier, in
config order, with its status (:data:`OK` or :data:`FAILED`), the reason of a failure (which
names the setting that fixes it) and the CPU seconds of its fitting. A classifier that failed
has no files; everything after the fits is built from the classifiers that finished, which
the readers here select.

A fitting folder without ``fits.csv`` was written before the table existed, when a failing
fit still failed its job: every classifier in it finished.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from pdmeasure.tables.io import read_csv

#: The table's name inside a fitting folder.
FITS_FILE = "fits.csv"
#: Its columns: the unit, ``status`` and the ``reason`` of a failure (empty when it finished).
#: No timing (it would differ between identical runs): the fitting CPU time is in the job's
#: log and benchmark file.
FITS_COLUMNS = ("engine", "dataset", "classifier", "status", "reason")
#: The values of ``status``.
OK, FAILED = "ok", "failed"


def fits_table(rows: Iterable[Mapping[str, object]]) -> pd.DataFrame:
    """The status table of ``rows`` (each with the keys :data:`FITS_COLUMNS`), in their order.

    Raises
    ------
    ValueError
        A row whose ``status`` is neither :data:`OK` nor :data:`FAILED`.
    """
    frame = pd.DataFrame(list(rows), columns=list(FITS_COLUMNS))
    unknown = set(frame["status"]) - {OK, FAILED}
    if unknown:
        raise ValueError(f"fit status {sorted(unknown)} is neither {OK!r} nor {FAILED!r}")
    return frame


def fits_path(folder: str | os.PathLike) -> Path:
    """The status table of the fitting folder ``folder``."""
    return Path(folder, FITS_FILE)


def read_fits(folder: str | os.PathLike) -> pd.DataFrame | None:
    """The status table of the fitting folder ``folder``; None when it has none (a folder
    written before the table existed, in which every classifier finished).

    Raises
    ------
    ValueError
        The table lacks a column of :data:`FITS_COLUMNS`.
    """
    path = fits_path(folder)
    if not path.is_file():
        return None
    frame = read_csv(path, required=FITS_COLUMNS)
    return frame[list(FITS_COLUMNS)]


def finished(folder: str | os.PathLike, classifiers: Sequence[str]) -> list[str]:
    """The classifiers among ``classifiers`` (in that order) whose fit in ``folder``
    finished: status :data:`OK` in its table, or every one when it has no table."""
    table = read_fits(folder)
    if table is None:
        return list(classifiers)
    done = set(table.loc[table["status"] == OK, "classifier"])
    return [name for name in classifiers if name in done]


def finished_files(paths: Iterable[str], classifiers: Iterable[str]) -> list[str]:
    """The paths, each ``<folder>/<classifier>/<file>``, of the classifiers in
    ``classifiers``, in their order in ``paths``."""
    keep = set(classifiers)
    return [str(path) for path in paths if Path(path).parent.name in keep]


def finished_unit_files(paths: Iterable[str]) -> list[str]:
    """The paths, each ``<fitting folder>/<classifier>/<file>``, whose classifier finished
    in its fitting folder (:func:`finished`), in their order in ``paths``."""
    tables: dict[Path, pd.DataFrame | None] = {}
    kept = []
    for path in paths:
        folder, classifier = Path(path).parent.parent, Path(path).parent.name
        if folder not in tables:
            tables[folder] = read_fits(folder)
        table = tables[folder]
        if table is None or _status(table, classifier) == OK:
            kept.append(str(path))
    return kept


def _status(table: pd.DataFrame, classifier: str) -> str | None:
    """The status of ``classifier`` in a status table; None when it has no row."""
    rows = table.loc[table["classifier"] == classifier, "status"]
    return str(rows.iloc[0]) if len(rows) else None


def failed_fits(folders: Iterable[str | os.PathLike]) -> pd.DataFrame:
    """The failed rows of the status tables of ``folders`` (folders without one have none),
    folder by folder in their order: columns :data:`FITS_COLUMNS`."""
    frames = [table for folder in folders if (table := read_fits(folder)) is not None]
    if not frames:
        return pd.DataFrame(columns=list(FITS_COLUMNS))
    table = pd.concat(frames, ignore_index=True)
    return table[table["status"] == FAILED].reset_index(drop=True)
