"""OpenML datasets: scikit-learn downloads them into its cache folder, and the table is read from
the cached files.

scikit-learn's ``fetch_openml`` fills the cache (``data_home``) with three files per dataset:
the description, the features and the ARFF file. The table is read from them here, not from
scikit-learn's frame, for two reasons:

- the class order and nominal values are the ARFF header's declared ones, classes without a
  sample included, as for an ARFF file and as Weka reads it (scikit-learn's frame has
  categoricals of the values present, sorted);
- every Snakemake process parses the workflow and describes each dataset, a Slurm job's
  processes included: reading a filled cache needs neither a download attempt nor the import
  of scikit-learn.

When the download fails, the same files are read from the mirror, a folder laid out like a
filled cache (a copy of one from a machine with network).
"""

from __future__ import annotations

import gzip
import http.client
import json
import logging
from pathlib import Path
from urllib.parse import urlparse

from pdmeasure.pipeline.data import sources
from pdmeasure.pipeline.errors import DataFetchError

#: A failed download: no network, an HTTP error, a truncated response.
DOWNLOAD_ERRORS = (OSError, EOFError, http.client.HTTPException)

_log = logging.getLogger(__name__)


def fetch_openml(
    name: str,
    openml_id: int,
    *,
    target: str | int | None = None,
    cache_dir: str | Path | None = None,
    mirror: str | Path | None = None,
    logger: logging.Logger | None = None,
    prefer_mirror: bool = False,
) -> sources.SourceTable:
    """An OpenML dataset: downloaded into the cache, else read from the mirror.

    scikit-learn's ``fetch_openml`` fills ``cache_dir`` (its ``data_home``; a dataset already
    there is not downloaded again) and :func:`read_cached` reads the table. When the download
    fails, the mirror is read.

    Parameters
    ----------
    name : str
        Dataset key (for messages).
    openml_id : int
        The OpenML dataset id.
    target : str or int, optional
        The class column (:func:`~pdmeasure.pipeline.data.sources.resolve_target`); None is
        OpenML's default target.
    cache_dir : path-like, optional
        scikit-learn's cache folder; None is scikit-learn's default (``~/scikit_learn_data``).
    mirror : path-like, optional
        The offline fallback folder.
    logger : logging.Logger, optional
        Receives a failed download.
    prefer_mirror : bool
        Read the cache, else the mirror, when one holds the dataset, before any download (to
        describe the data while the workflow is parsed).

    Returns
    -------
    SourceTable
        As :func:`read_cached` reads it.

    Raises
    ------
    DataFetchError
        Both the download and the mirror failed (naming both reasons and the fix), or the
        target is not nominal.
    ConfigError
        ``target`` names no column.
    """
    if prefer_mirror:
        for folder, kind in ((cache_dir, "cache"), (mirror, "mirror")):
            held = read_cached(name, openml_id, folder, target, kind=kind)
            if held is not None:
                return held
    try:
        cache = _download(openml_id, cache_dir)
    except DOWNLOAD_ERRORS as exc:
        return _from_mirror(name, openml_id, target, mirror, exc, logger or _log)
    table = read_cached(name, openml_id, cache, target)
    if table is None:
        raise DataFetchError(
            f"dataset `{name}` (OpenML id {openml_id}): scikit-learn read the dataset, but its "
            f"cache folder {cache} has no description, features and ARFF file for it; to "
            "fix: delete the folder's copy of this dataset so that it is downloaded again"
        )
    return table


def _download(openml_id: int, data_home: str | Path | None) -> Path:
    """Fill ``data_home`` with the dataset (scikit-learn's ``fetch_openml``); the folder."""
    from sklearn.datasets import fetch_openml, get_data_home

    fetch_openml(
        data_id=openml_id,
        data_home=None if data_home is None else str(data_home),
        as_frame=True,
        target_column=None,
        parser="liac-arff",
        n_retries=1,
        delay=0.1,
    )
    return Path(get_data_home(None if data_home is None else str(data_home)))


def _from_mirror(
    name: str,
    openml_id: int,
    target: str | int | None,
    mirror: str | Path | None,
    exc: Exception,
    log: logging.Logger,
) -> sources.SourceTable:
    """The dataset read from the mirror, after the download failed with ``exc``."""
    reason = f"{type(exc).__name__}: {exc}"
    if mirror is None:
        raise DataFetchError(
            f"dataset `{name}` (OpenML id {openml_id}): cannot fetch it ({reason}) and no "
            "OpenML mirror is configured; to fix: connect to the internet, or set config "
            "key `openml.mirror` to a copy of a filled OpenML cache folder"
        ) from None
    log.warning(
        "dataset %s: fetch_openml(data_id=%d) failed (%s); reading the mirror %s",
        name,
        openml_id,
        reason,
        mirror,
    )
    table = read_cached(name, openml_id, mirror, target, kind="mirror")
    if table is None:
        raise DataFetchError(
            f"dataset `{name}` (OpenML id {openml_id}): the download failed ({reason}) and "
            f"the mirror {mirror} does not hold it (no description, features and ARFF file "
            "for this id); to fix: connect to the internet, or copy a filled OpenML cache "
            "(with this id) into config key `openml.mirror`"
        ) from None
    return table


def _json(path: Path) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def cached_files(folder: str | Path | None, openml_id: int) -> tuple[dict, Path, Path] | None:
    """The dataset's description (read), and its features and ARFF files, in ``folder`` (laid
    out as scikit-learn's cache: ``openml/openml.org/<the URL's path>.gz``), or None when one
    of them is not there."""
    if folder is None:
        return None
    root = Path(folder) / "openml" / "openml.org"
    description = root / "api" / "v1" / "json" / "data" / f"{openml_id}.gz"
    features = description.parent / "features" / f"{openml_id}.gz"
    if not (description.is_file() and features.is_file()):
        return None
    details = _json(description)["data_set_description"]
    arff = root / (urlparse(details.get("url", "")).path.lstrip("/") + ".gz")
    return (details, features, arff) if arff.is_file() else None


def read_cached(
    name: str,
    openml_id: int,
    folder: str | Path | None,
    target: str | int | None,
    *,
    kind: str = "cache",
) -> sources.SourceTable | None:
    """The dataset read from the cached files in ``folder``, or None when one is missing (or
    ``folder`` is None).

    The columns are the ARFF file's, less those that OpenML flags as ignored or as row
    identifiers (as scikit-learn leaves them out); the default target is the description's
    ``default_target_attribute``; the class order and every nominal attribute's values are the
    header's declared ones; the numeric features are those of a numeric type
    (:func:`~pdmeasure.pipeline.data.sources.arff_table`).
    ``kind`` (``"cache"`` or ``"mirror"``) names the folder in the table's origin.

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
    details, features, arff = files
    dropped = {
        f["name"]
        for f in _json(features)["data_features"]["feature"]
        if f.get("is_ignore") == "true" or f.get("is_row_identifier") == "true"
    }
    origin = f"OpenML id {openml_id} ({kind} {folder})"
    with gzip.open(arff, "rt", encoding="utf-8") as handle:
        attributes, data = sources.parse_arff(handle.read(), origin)
    keep = [i for i, (column, _) in enumerate(attributes) if column not in dropped]
    attributes = [attributes[i] for i in keep]
    data = [[row[i] for i in keep] for row in data]
    columns = [str(a[0]) for a in attributes]
    default = details.get("default_target_attribute") or columns[-1]
    resolved = sources.resolve_target(
        name, columns, default if target is None else target, origin=origin
    )
    kind_of_target = dict(zip(columns, (a[1] for a in attributes)))[resolved]
    if not isinstance(kind_of_target, list):
        raise DataFetchError(
            f"dataset `{name}` ({origin}): the class column {resolved!r} is "
            f"{kind_of_target}, not nominal; to fix: point `datasets.{name}.target` at a "
            "nominal attribute"
        )
    return sources.arff_table(attributes, data, resolved, origin, None)
