"""UCI data for the tests, got as the pipeline gets it: ucimlrepo first, then the mirror.

:func:`uci_folder` returns a folder in the offline mirror's layout (``MANIFEST.json`` and
the original UCI files), for the tests that read the raw files and for the Snakemake runs
of the tests (their config's ``mirror:``). It tries, once per test process:

1. a folder built from ucimlrepo by an earlier test run (``.pytest_cache/uci-mirror``);
2. ucimlrepo: each dataset's ``data.original`` frame written back as the original
   comma-separated file; kept (in that cache folder) only when every file's lines have the
   SHA-256 of the original UCI file's, so that every published number stays reproducible;
3. the offline mirror named by ``UCI_MIRROR`` (``make`` points it at ``../shared/data/uci``).

Where all fail, :data:`reason` says what would make the tests run.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

REPO_ROOT = Path(__file__).resolve().parents[1]
#: Where a folder built from ucimlrepo is kept between test runs.
CACHE = REPO_ROOT / ".pytest_cache" / "uci-mirror"


class UciFile(NamedTuple):
    """One original UCI file: its dataset's id, the file's name, rows, missing marker,
    SHA-256 of its lines (each ending in a newline; nursery.data's trailing blank line,
    which ucimlrepo does not keep, left out) and column names (the class last)."""

    uci_id: int
    file: str
    rows: int
    missing: str | None
    sha256: str
    columns: tuple[str, ...]


#: The papers' four datasets as the UCI archive serves them.
UCI_FILES = {
    "car": UciFile(
        uci_id=19,
        file="car.data",
        rows=1728,
        missing=None,
        sha256="b703a9ac69f11e64ce8c223c0a40de4d2e9d769f7fb20be5f8f2e8a619893d83",
        columns=("buying", "maint", "doors", "persons", "lug_boot", "safety", "class"),
    ),
    "nursery": UciFile(
        uci_id=76,
        file="nursery.data",
        rows=12960,
        missing=None,
        sha256="1f2ff809b36c4524f8619d9cf0952e9937ff9e281eab7b2784acf604b45df879",
        columns=(
            "parents",
            "has_nurs",
            "form",
            "children",
            "housing",
            "finance",
            "social",
            "health",
            "class",
        ),
    ),
    "dermatology": UciFile(
        uci_id=33,
        file="dermatology.data",
        rows=366,
        missing="?",
        sha256="455eba77f72cd087ce54a5a266c514c5f34e85000c8689ad09e796d68ad45742",
        columns=(
            "erythema",
            "scaling",
            "definite_borders",
            "itching",
            "koebner_phenomenon",
            "polygonal_papules",
            "follicular_papules",
            "oral_mucosal_involvement",
            "knee_and_elbow_involvement",
            "scalp_involvement",
            "family_history",
            "melanin_incontinence",
            "eosinophils_in_the_infiltrate",
            "pnl_infiltrate",
            "fibrosis_of_the_papillary_dermis",
            "exocytosis",
            "acanthosis",
            "hyperkeratosis",
            "parakeratosis",
            "clubbing_of_the_rete_ridges",
            "elongation_of_the_rete_ridges",
            "thinning_of_the_suprapapillary_epidermis",
            "spongiform_pustule",
            "munro_microabcess",
            "focal_hypergranulosis",
            "disappearance_of_the_granular_layer",
            "vacuolisation_and_damage_of_basal_layer",
            "spongiosis",
            "saw_tooth_appearance_of_retes",
            "follicular_horn_plug",
            "perifollicular_parakeratosis",
            "inflammatory_mononuclear_infiltrate",
            "band_like_infiltrate",
            "age",
            "class",
        ),
    ),
    "krkopt": UciFile(
        uci_id=23,
        file="krkopt.data",
        rows=28056,
        missing=None,
        sha256="497b61d20d3d9e2ce310f9f4d2ca92dbdb0691d9e449d983ec6f7baf387dc7a9",
        columns=(
            "white_king_file",
            "white_king_rank",
            "white_rook_file",
            "white_rook_rank",
            "black_king_file",
            "black_king_rank",
            "white_depth_of_win",
        ),
    ),
}


def original_text(frame: Any, missing: str | None) -> str:
    """ucimlrepo's ``data.original`` frame as the original UCI file: values comma-separated,
    no header, a missing cell written as ``missing``, integral numbers without a decimal
    point (pandas reads an integer column with a missing cell as floats)."""

    def cell(value: Any) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "" if missing is None else missing
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)

    rows = frame.astype(object).itertuples(index=False, name=None)
    return "".join(",".join(cell(value) for value in row) + "\n" for row in rows)


def manifest_entry(name: str, spec: UciFile, text: str) -> dict[str, Any]:
    """The mirror's ``MANIFEST.json`` entry of a file with this ``text``."""
    classes: list[str] = []
    for line in text.splitlines():
        label = line.rsplit(",", 1)[-1]
        if label not in classes:
            classes.append(label)
    return {
        "uci_id": spec.uci_id,
        "uci_name": name,
        "columns": list(spec.columns),
        "target": spec.columns[-1],
        "class_order_first_appearance": classes,
        "missing": spec.missing,
        "rows": len(text.splitlines()),
        "file": spec.file,
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "bytes": len(text.encode()),
    }


def build_from_ucimlrepo(
    folder: Path, fetch: Callable[..., Any], files: Mapping[str, UciFile] = UCI_FILES
) -> str | None:
    """Write a mirror of ``files`` into ``folder`` from ``fetch`` (ucimlrepo's
    ``fetch_ucirepo``); None when done, else why not (nothing is left in ``folder``)."""
    staging = Path(tempfile.mkdtemp(prefix=".uci-", dir=folder.parent))
    try:
        entries = {}
        for name, spec in files.items():
            try:
                frame = fetch(id=spec.uci_id).data.original
            except Exception as exc:  # ucimlrepo raises ConnectionError, ValueError, ...
                return f"ucimlrepo.fetch_ucirepo(id={spec.uci_id}) failed ({type(exc).__name__}: {exc})"
            text = original_text(frame, spec.missing)
            entry = manifest_entry(name, spec, text)
            if entry["sha256"] != spec.sha256:
                return (
                    f"ucimlrepo's {name} differs from the original UCI file {spec.file} "
                    f"(SHA-256 {entry['sha256'][:12]}..., expected {spec.sha256[:12]}...)"
                )
            (staging / spec.file).write_text(text, encoding="utf-8")
            entries[name] = entry
        (staging / "MANIFEST.json").write_text(
            json.dumps({"about": "Built from ucimlrepo by the tests.", "datasets": entries}),
            encoding="utf-8",
        )
        try:
            staging.rename(folder)
        except OSError:  # another test process built it first
            pass
        return None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _complete(folder: Path) -> bool:
    return (folder / "MANIFEST.json").is_file() and all(
        (folder / spec.file).is_file() for spec in UCI_FILES.values()
    )


#: Why no UCI data was found (set by :func:`uci_folder` when it returns None).
reason = ""


@functools.cache
def uci_folder() -> Path | None:
    """A folder with ``MANIFEST.json`` and the UCI files, or None (see :data:`reason`)."""
    global reason
    if _complete(CACHE):
        return CACHE
    try:
        import ucimlrepo
    except ImportError as exc:
        tried = f"ucimlrepo cannot be imported ({exc})"
    else:
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        tried = build_from_ucimlrepo(CACHE, ucimlrepo.fetch_ucirepo) or ""
        if not tried and _complete(CACHE):
            return CACHE
    mirror = os.environ.get("UCI_MIRROR")
    if mirror and (Path(mirror) / "MANIFEST.json").is_file():
        return Path(mirror)
    where = f"UCI_MIRROR={mirror} has no MANIFEST.json" if mirror else "UCI_MIRROR is unset"
    reason = (
        f"no UCI data: {tried}, and {where}; connect to the internet (ucimlrepo), or set "
        "UCI_MIRROR to a folder with the original UCI files and MANIFEST.json "
        "(make sets ../shared/data/uci when it exists)"
    )
    return None
