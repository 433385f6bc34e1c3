"""Data fetch: ucimlrepo first, then the mirror; one canonical table whatever the source."""

from __future__ import annotations

import io
import json
import logging

import pandas as pd
import pytest

import pdmeasure.pipeline.data.fetch as pddata
from helpers import mirror_block
from pdmeasure.pipeline.data.fetch import canonicalise_uci, fetch_dataset, parse_original
from pdmeasure.pipeline.data.mirror import load_manifest
from pdmeasure.pipeline.errors import ConfigError, DataFetchError
from pdmeasure.tables.io import write_csv


@pytest.fixture
def manifest(uci_mirror):
    return load_manifest(uci_mirror)


def raw_lines(path):
    return [line.split(",") for line in path.read_text().splitlines() if line]


@pytest.mark.parametrize("name", ["car", "nursery", "dermatology", "krkopt"])
def test_mirror_gives_the_original_cells(name, uci_mirror, manifest, offline, caplog):
    entry = manifest["datasets"][name]
    with caplog.at_level(logging.INFO):
        frame, source = fetch_dataset(name, mirror_block(manifest, name), mirror=uci_mirror)
    assert list(frame.columns) == entry["columns"]
    assert len(frame) == entry["rows"]
    assert frame.to_numpy(dtype=object).tolist() == raw_lines(uci_mirror / entry["file"])
    assert source == f"file {(uci_mirror / entry['file']).resolve()}"
    assert "ConnectionError" in caplog.text and "offline mirror" in caplog.text


def test_missing_marker_is_kept(uci_mirror, manifest, offline):
    frame, _ = fetch_dataset(
        "dermatology", mirror_block(manifest, "dermatology"), mirror=uci_mirror
    )
    assert (frame["age"] == "?").sum() == 8
    assert frame["class"].iloc[0] == "2"


def test_ucimlrepo_frame_is_canonicalised_like_the_mirror(uci_mirror, manifest, monkeypatch):
    """ucimlrepo's frame (header row, '?' parsed as NaN, ints widened to float) -> same table."""
    entry = manifest["datasets"]["dermatology"]
    text = (uci_mirror / entry["file"]).read_text()
    header = ",".join(c.replace("_", "-").title() for c in entry["columns"])
    original = pd.read_csv(io.StringIO(f"{header}\n{text}"), na_values="?")
    assert original.iloc[:, 33].dtype == float  # age became float because of the NaNs

    class Result:
        class data:
            pass

    Result.data.original = original
    monkeypatch.setattr(pddata.ucimlrepo, "fetch_ucirepo", lambda **kw: Result)
    frame, source = fetch_dataset(
        "dermatology", mirror_block(manifest, "dermatology"), mirror=uci_mirror
    )
    from_mirror, _ = pddata.read_mirror("dermatology", entry["uci_id"], uci_mirror)
    assert source.startswith("UCI id 33 via ucimlrepo")
    pd.testing.assert_frame_equal(frame, from_mirror)


def test_canonicalise_without_manifest_uses_snake_case():
    original = pd.DataFrame({"White-King-File": ["a", "b"], "depth of win": [1.0, None]})
    frame = canonicalise_uci(original, "toy", None, "?")
    assert list(frame.columns) == ["white_king_file", "depth_of_win"]
    assert frame["depth_of_win"].tolist() == ["1", "?"]
    with pytest.raises(DataFetchError, match=r"`datasets.toy.missing` is null"):
        canonicalise_uci(original, "toy", None, None)


def test_offline_without_mirror(manifest, offline):
    with pytest.raises(DataFetchError) as info:
        fetch_dataset("car", mirror_block(manifest, "car"), mirror=None)
    message = str(info.value)
    assert "dataset `car` (UCI id 19)" in message  # which dataset
    assert "ConnectionError" in message and "no offline mirror" in message  # why
    assert "UCI_MIRROR" in message and "`mirror`" in message  # how to fix


def test_checksum_mismatch(corrupt_mirror, manifest, offline):
    with pytest.raises(DataFetchError) as info:
        fetch_dataset("car", mirror_block(manifest, "car"), mirror=corrupt_mirror)
    message = str(info.value)
    assert f"dataset `car` (file {corrupt_mirror / 'car.data'})" in message
    assert "checksum mismatch" in message
    assert manifest["datasets"]["car"]["sha256"] in message
    assert "restore the original file" in message


def test_mirror_without_entry(tmp_path, manifest, offline):
    (tmp_path / "MANIFEST.json").write_text(json.dumps({"datasets": {}}))
    with pytest.raises(
        DataFetchError,
        match=r"dataset `car` \(file .*MANIFEST.json\): .*no "
        r"entry with uci_id 19",
    ):
        fetch_dataset("car", mirror_block(manifest, "car"), mirror=tmp_path)


def test_wrong_field_count_is_an_error():
    with pytest.raises(DataFetchError, match=r"line 2 has 2 fields, expected 3"):
        parse_original("a,b,c\nd,e\n", ["x", "y", "z"])
    assert len(parse_original("a,b,c\n\n", ["x", "y", "z"])) == 1


def test_local_csv(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "toy.csv").write_text("size,outcome\n01,no\nNA,yes\n?,no\n")
    ds = {"path": "toy.csv", "target": "outcome", "classes": ["no", "yes"], "missing": "?"}
    frame, source = fetch_dataset("toy", ds)
    assert frame["size"].tolist() == ["01", "NA", "?"]  # cells kept verbatim
    assert source.startswith("file ") and source.endswith("toy.csv")
    with pytest.raises(ConfigError, match=r"`datasets.toy.classes`"):
        fetch_dataset("toy", {**ds, "classes": ["yes", "no"]})
    with pytest.raises(ConfigError, match=r"`datasets.toy.target`"):
        fetch_dataset("toy", {**ds, "target": "label"})
    with pytest.raises(DataFetchError, match=r"dataset `toy` \(file missing.csv\): no such file"):
        fetch_dataset("toy", {**ds, "path": "missing.csv"})


def test_atomic_write_leaves_nothing_on_error(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(TypeError):
        write_csv(pd.DataFrame({"a": [1]}), target, no_such_option=True)
    assert list((tmp_path / "out").iterdir()) == []
    write_csv(pd.DataFrame({"a": [1]}), target)
    assert target.read_text() == "a\n1\n"


# --- through Snakemake: the fetch job fails, names dataset/reason/fix, writes nothing -------
