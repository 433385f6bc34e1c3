"""An OpenML dataset read from a filled scikit-learn OpenML cache folder, without scikit-learn.

Every Snakemake process parses the workflow and describes each dataset (class order, numeric
features), a Slurm job's processes included. Importing scikit-learn to read a cached OpenML
dataset costs about a second and a half of each parse; the cache holds the same three files
that scikit-learn reads (the description, the features and the ARFF file), so they are read
here directly. :func:`pdmeasure.pipeline.data.sources.fetch_openml` stays the reader of the
fetch step; the test suite checks that both give the same table.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from urllib.parse import urlparse

from pdmeasure.pipeline.data import sources
from pdmeasure.pipeline.errors import DataFetchError


#: The ARFF types that scikit-learn reads as numbers.
NUMERIC_TYPES = ("NUMERIC", "REAL", "INTEGER")


def _json(path: Path) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def description_path(folder: str | Path, openml_id: int) -> Path:
    """Where scikit-learn caches the dataset's description under ``folder`` (its
    ``data_home``)."""
    return (
        Path(folder) / "openml" / "openml.org" / "api" / "v1" / "json" / "data" / f"{openml_id}.gz"
    )


def cached_files(folder: str | Path | None, openml_id: int) -> tuple[Path, Path, Path] | None:
    """The description, features and ARFF files of the dataset in ``folder``, or None when
    one of them is not there."""
    if folder is None:
        return None
    description = description_path(folder, openml_id)
    features = description.parent / "features" / f"{openml_id}.gz"
    if not (description.is_file() and features.is_file()):
        return None
    url = _json(description)["data_set_description"].get("url", "")
    arff = Path(folder) / "openml" / "openml.org" / (urlparse(url).path.lstrip("/") + ".gz")
    return (description, features, arff) if arff.is_file() else None


def read_cached(
    name: str,
    openml_id: int,
    folder: str | Path,
    target: str | int | None,
    *,
    kind: str = "cache",
) -> sources.SourceTable | None:
    """The dataset as ``fetch_openml`` reads it from ``folder``, or None when the folder does
    not hold all its files.

    As scikit-learn does: the columns that OpenML flags as ignored or as row identifiers are
    left out, the default target is the description's ``default_target_attribute``, nominal
    values are those present, sorted (scikit-learn's categoricals), and the numeric features
    are the ARFF's numeric attributes. ``kind`` (``"cache"`` or ``"mirror"``) names the folder in the table's origin,
    as :func:`~pdmeasure.pipeline.data.sources.fetch_openml` does.

    Raises
    ------
    DataFetchError
        The ARFF file is not valid, or the class attribute is not nominal.
    ConfigError
        ``target`` names no column.
    """
    files = cached_files(folder, openml_id)
    if files is None:
        return None
    description, features, arff = files
    details = _json(description)["data_set_description"]
    dropped = {
        f["name"]
        for f in _json(features)["data_features"]["feature"]
        if f.get("is_ignore") == "true" or f.get("is_row_identifier") == "true"
    }
    origin = f"OpenML id {openml_id} ({kind} {folder})"
    with gzip.open(arff, "rt", encoding="utf-8") as handle:
        attributes, data = sources.parse_arff(handle.read(), origin)
    keep = [i for i, (column, _) in enumerate(attributes) if column not in dropped]
    columns = [str(attributes[i][0]) for i in keep]
    kinds = {str(attributes[i][0]): attributes[i][1] for i in keep}
    default = details.get("default_target_attribute") or columns[-1]
    resolved = sources.resolve_target(
        name, columns, default if target is None else target, origin=origin
    )
    if not isinstance(kinds[resolved], list):
        raise DataFetchError(
            f"dataset `{name}` ({origin}): the class column {resolved!r} is "
            f"{kinds[resolved]}, not nominal; to fix: point `datasets.{name}.target` at a "
            "nominal attribute"
        )
    rows = [[sources.cell_text(row[i]) for i in keep] for row in data]
    # scikit-learn's liac-arff parser makes each nominal column a pandas categorical of the
    # values present, sorted (not the header's declared list).
    nominal = {
        c: tuple(sorted({row[i] for row in data if row[i] is not None}))
        for c, i in zip(columns, keep)
        if isinstance(kinds[c], list)
    }
    numeric = tuple(c for c in columns if c != resolved and str(kinds[c]).upper() in NUMERIC_TYPES)
    return sources.SourceTable(
        sources.string_frame(rows, columns),
        resolved,
        nominal[resolved],
        numeric,
        origin,
        None,
        nominal,
    )
