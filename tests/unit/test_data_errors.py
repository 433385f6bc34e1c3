"""Bad data files: every error names the dataset, the file and the fix, and nothing is written.

Each bad file is checked twice, as the pipeline meets it: when the config is checked
(:func:`pdmeasure.pipeline.config.check_data`, run while Snakemake parses the workflow, a
:class:`ConfigError`) and in the fetch step (:func:`pdmeasure.pipeline.data.fetch.fetch_dataset` followed by
the atomic write of the canonical table, as ``workflow/scripts/fetch_data.py`` does).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

import pdmeasure.pipeline.config as pdconfig
import pdmeasure.pipeline.data.fetch as pddata
from helpers import REPO_ROOT, TOY, mirror_block, repo_config, select, toy_block
from pdmeasure.pipeline.config import ConfigError
from pdmeasure.pipeline.data.fetch import fetch_dataset
from pdmeasure.pipeline.data.mirror import load_manifest
from pdmeasure.pipeline.errors import DataFetchError
from pdmeasure.tables.io import write_csv

FIX_EMPTY = "to fix: give a CSV with a header row and at least one data row"
GLASS = REPO_ROOT / "tests" / "data" / "arff" / "glass.arff"


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """An empty working directory without a mirror (neither config key nor UCI_MIRROR)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(pdconfig.MIRROR_ENV, raising=False)
    (tmp_path / "data").mkdir()
    return tmp_path


def checked_config(datasets: dict, mirror: Path | None = None) -> dict:
    """The repository config with ``datasets`` replaced, through the schema and key checks."""
    config = repo_config()
    config["datasets"] = {
        name: {"kappa_vectors": {}, "kappa_grid": [0, 1], **block}
        for name, block in datasets.items()
    }
    config["mirror"] = str(mirror) if mirror is not None else None
    select(config, datasets=list(config["datasets"]))
    return pdconfig.prepare_config(config)


def fetch_to(out: Path, name: str, dataset: dict, mirror: Path | None = None) -> None:
    """The fetch step: fetch the dataset, then write its canonical table atomically to ``out``."""
    frame, _ = fetch_dataset(name, dataset, mirror=mirror)
    write_csv(frame, out)


def assert_nothing_written(out: Path) -> None:
    """Neither the table nor a temporary file of the atomic write is left behind."""
    assert not out.exists()
    assert not out.parent.exists() or list(out.parent.iterdir()) == []


# --- a local CSV (config `path`) -----------------------------------------------------------

#: (file bytes, the message after "dataset `toy` (file data/toy.csv): ") of bad files.
BAD_FILES = {
    "empty": (b"", f"the file is empty; {FIX_EMPTY}"),
    "blank lines only": (b"\n \n\n", f"the file is empty; {FIX_EMPTY}"),
    "header only": (
        b"x,label\n",
        f"the file has a header row (x, label) but no data rows; {FIX_EMPTY}",
    ),
    "not UTF-8": (
        "x,label\nsmall,yes\ncaf\u00e9,no\n".encode("latin-1"),
        "the file is not UTF-8 text (byte 0xe9 at offset 21, line 3); to fix: save it as UTF-8",
    ),
    "too many fields": (
        b"x,label\na,yes\nb,no,extra\n",
        "line 3 has 3 fields, expected 2 (x, label); to fix: give that row one value per column",
    ),
    "repeated column": (
        b"x,x,label\na,b,yes\n",
        "the header row repeats the column name(s) ['x']; to fix: give every column its own name",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_local_file_at_config_check(case, workdir):
    content, message = BAD_FILES[case]
    (workdir / "data" / "toy.csv").write_bytes(content)
    config = checked_config({"toy": toy_block()})
    with pytest.raises(ConfigError) as info:
        pdconfig.check_data(config)
    assert str(info.value).startswith(f"config key `datasets.toy.path`: {TOY}: {message}")


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_local_file_in_fetch_writes_nothing(case, workdir):
    content, message = BAD_FILES[case]
    (workdir / "data" / "toy.csv").write_bytes(content)
    out = workdir / "results" / "data" / "toy.csv"
    with pytest.raises(DataFetchError) as info:
        fetch_to(out, "toy", toy_block())
    assert str(info.value).startswith(f"{TOY}: {message}")
    assert_nothing_written(out)


def test_utf8_byte_order_mark_is_not_part_of_the_header(workdir):
    (workdir / "data" / "toy.csv").write_bytes("\ufeffx,label\na,yes\nb,no\n".encode("utf-8"))
    frame, _ = fetch_dataset("toy", toy_block())
    assert list(frame.columns) == ["x", "label"]


def test_missing_local_file_names_the_key(workdir):
    config = checked_config({"toy": toy_block(path="data/absent.csv")})
    with pytest.raises(ConfigError) as info:
        pdconfig.check_data(config)
    message = str(info.value)
    assert message.startswith(
        "config key `datasets.toy.path`: dataset `toy` (file data/absent.csv): no such file"
    )
    assert "to fix: correct config key `datasets.toy.path` or create the file" in message


#: (file text, config block changes, key, the message after the key and "dataset ... : ")
#: of files that do not match their config block.
MISMATCHES = {
    "no target column": (
        "x,outcome\na,yes\nb,no\n",
        {},
        "target",
        "no column 'label'; the columns are ['x', 'outcome']; to fix: set "
        "`datasets.toy.target` to the class column",
    ),
    "class not configured": (
        "x,label\na,yes\nb,maybe\nc,no\n",
        {},
        "classes",
        "the data have labels ['maybe'] that are not configured; the data's classes in order "
        "of first appearance are ['yes', 'maybe', 'no'] -- to fix: set `datasets.toy.classes` "
        "to that list",
    ),
    "one class": (
        "x,label\na,yes\nb,yes\n",
        {},
        "classes",
        "the data have only one class, 'yes'; a classifier needs at least two classes -- to "
        "fix: check that `datasets.toy.target` names the class column, or give data with at "
        "least two classes",
    ),
    "one class, one configured label missing": (
        "x,label\na,no\n",
        {},
        "classes",
        "the data have only one class, 'no'",
    ),
}


@pytest.mark.parametrize("case", list(MISMATCHES))
def test_data_not_matching_config_at_config_check(case, workdir):
    text, changes, key, message = MISMATCHES[case]
    (workdir / "data" / "toy.csv").write_text(text, encoding="utf-8")
    config = checked_config({"toy": toy_block(**changes)})
    with pytest.raises(ConfigError) as info:
        pdconfig.check_data(config)
    assert str(info.value).startswith(f"config key `datasets.toy.{key}`: {TOY}: {message}")


@pytest.mark.parametrize("case", list(MISMATCHES))
def test_data_not_matching_config_in_fetch_writes_nothing(case, workdir):
    text, changes, key, message = MISMATCHES[case]
    (workdir / "data" / "toy.csv").write_text(text, encoding="utf-8")
    out = workdir / "results" / "data" / "toy.csv"
    with pytest.raises(ConfigError) as info:
        fetch_to(out, "toy", toy_block(**changes))
    assert str(info.value).startswith(f"config key `datasets.toy.{key}`: {TOY}: {message}")
    assert_nothing_written(out)


# --- a declared class with no sample: data, not an error -----------------------------------


def test_configured_class_without_a_sample_is_kept_and_named(workdir, caplog):
    """`maybe` is configured but no row has it: the config check passes, the fetch writes the
    table and its log names the class; it may stand anywhere in the order (it has no first
    appearance), the classes that occur keep theirs."""
    (workdir / "data" / "toy.csv").write_text("x,label\na,yes\nb,no\n", encoding="utf-8")
    block = toy_block(classes=["yes", "maybe", "no"])
    config = checked_config({"toy": block})
    pdconfig.check_data(config)
    out = workdir / "results" / "data" / "toy.csv"
    with caplog.at_level("WARNING"):
        fetch_to(out, "toy", config["datasets"]["toy"])
    assert out.is_file()
    assert "dataset toy: class(es) ['maybe'] have no sample among the 2 rows" in caplog.text
    assert "set `datasets.toy.classes` to the classes that occur" in caplog.text
    swapped = checked_config({"toy": toy_block(classes=["no", "maybe", "yes"])})
    with pytest.raises(
        ConfigError, match=r"\['no', 'maybe', 'yes'\] is not the data's class order"
    ):
        pdconfig.check_data(swapped)


def test_arff_class_declared_without_a_row_is_kept(workdir, caplog):
    """Weka's glass.arff declares 7 classes and has rows of 6: all 7 are the class order."""
    shutil.copy(GLASS, workdir / "data" / "glass.arff")
    config = checked_config({"glass": {"path": "data/glass.arff"}})
    glass = config["datasets"]["glass"]
    assert len(glass["classes"]) == 7 and glass["classes"][3] == "vehic wind non-float"
    assert glass["class_order"] == "declared order in file data/glass.arff"
    pdconfig.check_data(config)
    with caplog.at_level("WARNING"):
        frame, _ = fetch_dataset("glass", glass)
    assert len(frame) == 214 and "vehic wind non-float" not in set(frame["Type"])
    assert "class(es) ['vehic wind non-float'] have no sample among the 214 rows" in caplog.text


def test_label_not_among_the_declared_classes_names_the_key(workdir):
    """Classes configured for an ARFF file must hold every label of the data."""
    shutil.copy(GLASS, workdir / "data" / "glass.arff")
    block = {"path": "data/glass.arff", "classes": ["build wind float", "build wind non-float"]}
    with pytest.raises(ConfigError) as info:
        pdconfig.check_data(checked_config({"glass": block}))
    assert str(info.value).startswith(
        "config key `datasets.glass.classes`: dataset `glass` (file data/glass.arff): the data "
        "have labels ['vehic wind float', 'tableware', 'headlamps', 'containers'] that are not "
        "configured"
    )


def test_label_not_among_the_source_classes_says_where_they_come_from():
    from pdmeasure.pipeline.data.classes import check_class_order

    with pytest.raises(ConfigError) as info:
        check_class_order("x", ["a", "b"], ["a", "c"], declared_by="declared order in file x.arff")
    assert (
        "the data have labels ['c'] that are not among the classes of the declared order in "
        "file x.arff ['a', 'b'] (`datasets.x.classes` is not set)"
    ) in str(info.value)
    assert check_class_order("x", ["a", "b", "c"], ["c", "a"], ordered=False) == ["b"]


def test_bad_fetched_table_at_config_check(workdir, monkeypatch):
    """A UCI dataset without a mirror is checked against its fetched table, if there is one."""
    for module in (pdconfig.resolve, pdconfig.checks):
        monkeypatch.setattr(module, "mirror_path", lambda config: None)
    fetched = workdir / "results" / "data" / "car.csv"
    fetched.parent.mkdir(parents=True)
    fetched.write_bytes(b"")
    car = {"uci_id": 19, "target": "class", "classes": ["unacc", "acc", "vgood", "good"]}
    # Without a mirror, the fetched table also gives the numeric features the config leaves
    # out, so the bad table is found while the config is resolved.
    with pytest.raises(ConfigError) as info:
        checked_config({"car": car})
    assert str(info.value) == (
        "config key `datasets.car`: dataset `car` (file results/data/car.csv): the file is "
        f"empty; {FIX_EMPTY}; or delete this fetched table so that the fetch step writes it "
        "again"
    )


# --- the offline mirror ----------------------------------------------------------------------


@pytest.fixture
def mirror_copy(tmp_path, uci_mirror) -> Path:
    """A writable copy of the mirror's MANIFEST.json and car.data."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for name in ("MANIFEST.json", "car.data"):
        shutil.copy(uci_mirror / name, mirror / name)
    return mirror


def car_block(mirror: Path, **extra) -> dict:
    """The config block of car as ``mirror``'s own MANIFEST.json describes it."""
    return mirror_block(json.loads((mirror / "MANIFEST.json").read_text()), "car", **extra)


def truncate(path: Path) -> None:
    """Cut a file in the middle, as an interrupted copy would."""
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


CORRUPT_MANIFESTS = {
    "truncated": (truncate, "the mirror manifest is not valid JSON ("),
    "not UTF-8": (
        lambda p: p.write_bytes(b"\xff\xfe{\x00"),
        "the mirror manifest is not UTF-8 text (byte offset 0); it is corrupt",
    ),
    "no datasets mapping": (
        lambda p: p.write_text("[1, 2]"),
        "the mirror manifest has no `datasets` mapping",
    ),
    "entry without sha256": (
        lambda p: p.write_text(
            json.dumps(
                {
                    "datasets": {
                        "car": {
                            k: v
                            for k, v in json.loads(p.read_text())["datasets"]["car"].items()
                            if k != "sha256"
                        }
                    }
                }
            )
        ),
        "the mirror manifest's entry `car` lacks ['sha256']",
    ),
}
FIX_MANIFEST = "to fix: restore MANIFEST.json from an intact copy of the mirror"


@pytest.mark.parametrize("case", list(CORRUPT_MANIFESTS))
def test_corrupt_manifest_at_config_check(case, mirror_copy, workdir):
    corrupt, message = CORRUPT_MANIFESTS[case]
    block = car_block(mirror_copy)
    corrupt(mirror_copy / "MANIFEST.json")
    (workdir / "data" / "toy.csv").write_text("x,label\na,yes\nb,no\n", encoding="utf-8")
    config = checked_config({"car": block, "toy": toy_block()}, mirror=mirror_copy)
    with pytest.raises(ConfigError) as info:
        pdconfig.check_data(config)
    text = str(info.value)
    # only the UCI datasets read the manifest, so only they are named
    assert text.startswith(f"dataset `car` (file {mirror_copy / 'MANIFEST.json'}): {message}")
    assert FIX_MANIFEST in text and "UCI_MIRROR" in text


def test_truncated_manifest_names_line_and_column(mirror_copy):
    truncate(mirror_copy / "MANIFEST.json")
    with pytest.raises(
        ConfigError,
        match=r"not valid JSON \(.* at line \d+, column \d+\); it is "
        r"truncated or corrupt",
    ):
        load_manifest(mirror_copy)


def test_corrupt_manifest_is_not_read_for_local_datasets(mirror_copy, workdir):
    truncate(mirror_copy / "MANIFEST.json")
    (workdir / "data" / "toy.csv").write_text("x,label\na,yes\nb,no\n", encoding="utf-8")
    pdconfig.check_data(checked_config({"toy": toy_block()}, mirror=mirror_copy))


@pytest.mark.parametrize("case", list(CORRUPT_MANIFESTS))
def test_corrupt_manifest_in_fetch_writes_nothing(case, mirror_copy, tmp_path, offline):
    corrupt, message = CORRUPT_MANIFESTS[case]
    block = car_block(mirror_copy)
    corrupt(mirror_copy / "MANIFEST.json")
    out = tmp_path / "results" / "data" / "car.csv"
    with pytest.raises(DataFetchError) as info:
        fetch_to(out, "car", block, mirror=mirror_copy)
    text = str(info.value)
    assert text.startswith(f"dataset `car` (file {mirror_copy / 'MANIFEST.json'}): {message}")
    assert FIX_MANIFEST in text
    assert_nothing_written(out)


def test_corrupt_manifest_fails_the_fetch_from_uci_too(mirror_copy, tmp_path, monkeypatch):
    """The manifest names the columns of ucimlrepo's frame: a corrupt one is not skipped."""

    class Result:
        class data:
            original = pd.DataFrame({"a": ["x", "y"], "class": ["unacc", "acc"]})

    monkeypatch.setattr(pddata.ucimlrepo, "fetch_ucirepo", lambda **kw: Result)
    block = car_block(mirror_copy)
    truncate(mirror_copy / "MANIFEST.json")
    out = tmp_path / "results" / "data" / "car.csv"
    with pytest.raises(
        DataFetchError,
        match=r"dataset `car` \(file .*MANIFEST.json\): the "
        r"mirror manifest is not valid JSON",
    ):
        fetch_to(out, "car", block, mirror=mirror_copy)
    assert_nothing_written(out)


def test_mirror_file_not_utf8_with_matching_checksum(mirror_copy, tmp_path, offline):
    """A file added to the mirror with its own sha256 must still be UTF-8."""
    latin = "vhigh,vhigh,2,2,small,low,unacc\nlow,low,4,4,big,high,acc\xe9\n".encode("latin-1")
    (mirror_copy / "car.data").write_bytes(latin)
    manifest = json.loads((mirror_copy / "MANIFEST.json").read_text())
    manifest["datasets"]["car"].update(sha256=hashlib.sha256(latin).hexdigest(), rows=2)
    (mirror_copy / "MANIFEST.json").write_text(json.dumps(manifest))
    out = tmp_path / "results" / "data" / "car.csv"
    with pytest.raises(DataFetchError) as info:
        fetch_to(out, "car", car_block(mirror_copy), mirror=mirror_copy)
    assert str(info.value) == (
        f"dataset `car` (file {mirror_copy / 'car.data'}): the file is not UTF-8 text (byte 0xe9 "
        "at offset 56, line 2); to fix: convert it to UTF-8 and record its new sha256 in "
        "MANIFEST.json"
    )
    assert_nothing_written(out)


def test_mirror_class_not_configured_names_dataset_and_file(mirror_copy, tmp_path, offline):
    out = tmp_path / "results" / "data" / "car.csv"
    block = car_block(mirror_copy, classes=["unacc", "acc", "vgood"])
    with pytest.raises(ConfigError) as info:
        fetch_to(out, "car", block, mirror=mirror_copy)
    assert str(info.value).startswith(
        f"config key `datasets.car.classes`: dataset `car` (file "
        f"{(mirror_copy / 'car.data').resolve()}): the data have labels ['good'] that are not "
        "configured"
    )
    assert_nothing_written(out)


def test_uci_class_not_configured_names_dataset_and_source(mirror_copy, tmp_path, monkeypatch):
    columns = json.loads((mirror_copy / "MANIFEST.json").read_text())["datasets"]["car"]["columns"]

    class Result:
        class data:
            original = pd.DataFrame(
                [["v"] * 6 + ["unacc"], ["v"] * 6 + ["excellent"]],
                columns=[c.upper() for c in columns],
            )

    monkeypatch.setattr(pddata.ucimlrepo, "fetch_ucirepo", lambda **kw: Result)
    out = tmp_path / "results" / "data" / "car.csv"
    block = car_block(mirror_copy, classes=["unacc", "acc"])
    with pytest.raises(ConfigError) as info:
        fetch_to(out, "car", block, mirror=mirror_copy)
    assert str(info.value).startswith(
        "config key `datasets.car.classes`: dataset `car` (UCI id 19 via ucimlrepo): the data "
        "have labels ['excellent'] that are not configured; the data's classes in order of "
        "first appearance are ['unacc', 'excellent']"
    )
    assert_nothing_written(out)


# --- through Snakemake: the workflow stops while parsing, before any job --------------------
