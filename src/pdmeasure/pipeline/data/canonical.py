"""The canonical table of a dataset: made from ucimlrepo's frame, read back, checked.

The canonical table (``results/data/<name>.csv``) has one row per sample in the original
file order and every cell a string exactly as in the source file (see
:mod:`pdmeasure.pipeline.data.fetch`):

- :func:`canonicalise_uci` -- ucimlrepo's ``data.original`` frame as the canonical table;
- :func:`read_local_csv`, :func:`read_canonical` -- a CSV file read with every cell a string;
- :func:`check_table` -- the table against its config block (target, classes, numeric
  features);
- :func:`count_missing_class` -- the rows without a class, which the table keeps;
- :func:`data_subject` -- the subject of every data error message,
  ``dataset `name` (file path)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from pdmeasure.pipeline.data import sources
from pdmeasure.pipeline.data.classes import check_class_order, class_is_missing, first_appearance
from pdmeasure.pipeline.data.sources import string_frame
from pdmeasure.pipeline.errors import ConfigError, DataFetchError


def data_subject(name: str, source: str | Path) -> str:
    """The subject of a data error: ``dataset `name` (file data/name.csv)``.

    ``source`` is a :class:`~pathlib.Path` (shown as ``file <path>``) or a description of
    the origin (``"UCI id 19 via ucimlrepo"``).
    """
    origin = f"file {source}" if isinstance(source, Path) else source
    return f"dataset `{name}` ({origin})"


def snake_case(name: str) -> str:
    """``"white-king-file"`` -> ``"white_king_file"`` (column names without a manifest)."""
    return re.sub(r"[^0-9a-z]+", "_", str(name).strip().lower()).strip("_")


def canonicalise_uci(
    original: pd.DataFrame, name: str, columns: list[str] | None, missing: str | None
) -> pd.DataFrame:
    """Turn ucimlrepo's ``data.original`` frame into the canonical table.

    Parameters
    ----------
    original : DataFrame
        As parsed by ucimlrepo (pandas type inference, missing cells as NaN).
    name : str
        Dataset key (for messages).
    columns : list of str or None
        Column names by position (the manifest's); None keeps ucimlrepo's names in snake_case.
    missing : str or None
        The dataset's missing marker, written where ucimlrepo has NaN.

    Raises
    ------
    DataFetchError
        The column count differs from ``columns``, or there are NaN cells and ``missing`` is
        None.
    """
    if columns is None:
        columns = [snake_case(c) for c in original.columns]
    elif len(columns) != original.shape[1]:
        raise DataFetchError(
            f"{data_subject(name, 'UCI via ucimlrepo')}: ucimlrepo returned {original.shape[1]} "
            f"columns ({list(original.columns)}), MANIFEST.json names {len(columns)}; to fix: "
            "correct the `columns` of the mirror's manifest entry"
        )
    out = np.empty(original.shape, dtype=object)
    for i, column in enumerate(original.columns):
        values = original[column]
        isna = values.isna().to_numpy()
        if isna.any() and missing is None:
            raise DataFetchError(
                f"{data_subject(name, 'UCI via ucimlrepo')}: column {column!r} has "
                f"{int(isna.sum())} missing cells but config key `datasets.{name}.missing` is "
                "null; to fix: set it to the missing marker"
            )
        out[:, i] = [
            missing if na else sources.cell_text(v) for v, na in zip(values.tolist(), isna)
        ]
    return string_frame(out, list(columns))


def read_local_csv(name: str, path: str | Path) -> pd.DataFrame:
    """A local CSV (one header row) with every cell kept as a string.

    Parsed with the ``csv`` module like the mirror's files: no cell is re-typed, and a row
    with more or fewer fields than the header is an error rather than shifted or padded
    (:func:`pdmeasure.pipeline.data.sources.delimited_frame`).

    Raises
    ------
    DataFetchError
        Naming the dataset, the file and the fix: the file does not exist, is empty, has a
        header row only, is not UTF-8, repeats a column name or has a row with the wrong
        number of fields.
    """
    return sources.delimited_frame(name, path)[0]


def check_table(
    name: str,
    frame: pd.DataFrame,
    dataset: Mapping,
    *,
    source: str | Path = "fetched data",
    ordered: bool = True,
) -> list[str]:
    """Check the target column, class labels and numeric features of a dataset's table.

    Parameters
    ----------
    name, ordered
        As for :func:`~pdmeasure.pipeline.data.classes.check_class_order`, which checks the
        classes (``ordered``: a source without a declared class order).
    frame : DataFrame
        The table (all cells ``str``).
    dataset : mapping
        Its config block (``target``, ``classes``, ``numeric_features``, ``missing``). Rows
        whose class cell is the missing marker have no class and are not checked
        (:func:`~pdmeasure.pipeline.data.classes.class_is_missing`).
    source : str or Path
        Where the table came from, for messages (see :func:`data_subject`).

    Returns
    -------
    list of str
        The classes of ``dataset["classes"]`` with no row (declared, but absent from the data:
        they stay in the class order).

    Raises
    ------
    ConfigError
        Naming ``datasets.<name>.target``, ``.classes`` or ``.numeric_features``, the
        dataset, the source and the fix: no target column, a class in the data that is not
        declared (configured, or declared by the source), another order, a single class, a
        numeric feature that is not a column.
    """
    subject = data_subject(name, source)
    target = dataset.get("target", "class")
    columns = list(frame.columns)
    if target not in columns:
        raise ConfigError(
            f"config key `datasets.{name}.target`: {subject}: no column {target!r}; the columns "
            f"are {columns}; to fix: set `datasets.{name}.target` to the class column"
        )
    unknown = [f for f in dataset.get("numeric_features") or [] if f not in columns]
    if unknown:
        raise ConfigError(
            f"config key `datasets.{name}.numeric_features`: {unknown} are not columns of "
            f"{subject}; its columns are {columns} -- to fix: list only column names"
        )
    labels = frame[target].to_numpy(dtype=object)
    # A row without a class (its cell the missing marker) is no class of the class order.
    labels = labels[~class_is_missing(labels, dataset["classes"], dataset.get("missing"))]
    rule = dataset.get("class_order") or "configured"
    return check_class_order(
        name,
        dataset["classes"],
        first_appearance(labels),
        source=subject,
        ordered=ordered,
        declared_by=None if rule == "configured" else rule,
    )


def count_missing_class(frame: pd.DataFrame, dataset: Mapping) -> int:
    """The number of rows of ``frame`` without a class (class cell = the missing marker).

    ``dataset`` is the resolved config block (``target``, ``classes``, ``missing``); see
    :func:`~pdmeasure.pipeline.data.classes.class_is_missing`.
    """
    labels = frame[dataset.get("target", "class")].to_numpy(dtype=object)
    return int(class_is_missing(labels, dataset["classes"], dataset.get("missing")).sum())


def read_canonical(path: str | Path) -> pd.DataFrame:
    """Read a canonical table ``results/data/<name>.csv`` with every cell as a string."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)
