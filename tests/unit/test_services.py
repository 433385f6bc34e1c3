"""A test whose service is missing skips on a developer's machine and fails under CI=true.

pytest's skip and fail are exceptions; each check catches any outcome and asserts which one it
was, so that a skip where a failure is due fails these tests instead of skipping them."""

from __future__ import annotations

import hashlib
import json
from types import SimpleNamespace

import pytest
import uci_data

import helpers


def outcome(function, *args) -> pytest.ExceptionInfo:
    """The skip or fail (or any other exception) that ``function(*args)`` raises."""
    with pytest.raises(BaseException) as info:
        function(*args)
    return info


@pytest.mark.parametrize("ci", ["true", "1", "True"])
def test_a_missing_service_fails_under_ci(monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    info = outcome(helpers.missing, "chromium", "chromium not on PATH")
    assert info.type is pytest.fail.Exception
    message = str(info.value)
    assert "CI=true and a service is missing: chromium not on PATH" in message
    assert "apt-get install chromium chromium-driver" in message


@pytest.mark.parametrize("ci", [None, "", "false", "0"])
def test_a_missing_service_skips_outside_ci(monkeypatch, ci):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    info = outcome(helpers.missing, "slurm", "no sinfo")
    assert info.type is pytest.skip.Exception
    assert "no sinfo [slurm: bash .ci/slurm-up" in str(info.value)


def test_every_service_names_how_ci_provides_it():
    for service, how in helpers.SERVICES.items():
        assert how.strip(), service


def test_chromium_missing_from_path_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CI", "true")
    info = outcome(helpers.chromium_or_missing)
    assert info.type is pytest.fail.Exception
    assert "chromium and chromedriver not on PATH" in str(info.value)


def test_missing_uci_data_says_what_would_make_the_tests_run(monkeypatch):
    monkeypatch.setattr(uci_data, "uci_folder", lambda: None)
    monkeypatch.setattr(
        uci_data, "reason", "no UCI data: ucimlrepo failed, and UCI_MIRROR is unset"
    )
    monkeypatch.delenv("CI", raising=False)
    info = outcome(helpers.mirror_or_missing)
    assert info.type is pytest.skip.Exception
    assert "UCI_MIRROR is unset [uci data: ucimlrepo online" in str(info.value)


def _frame(text: str, missing: str | None):
    """A frame as ucimlrepo parses a UCI file: numbers inferred, missing cells NaN."""
    import io

    import pandas as pd

    na = [missing] if missing else []
    return pd.read_csv(io.StringIO(text), header=None, na_values=na, keep_default_na=False)


def _fetch(frames):
    def fetch(id):  # noqa: A002 (ucimlrepo's keyword)
        if id not in frames:
            raise ConnectionError("Error connecting to server")
        return SimpleNamespace(data=SimpleNamespace(original=frames[id]))

    return fetch


def test_a_folder_built_from_ucimlrepo_holds_the_original_bytes(tmp_path):
    text = "a,1,?,x\nb,2,3.5,y\nc,?,4,x\n"
    spec = uci_data.UciFile(
        7, "t.data", 3, "?", hashlib.sha256(text.encode()).hexdigest(), ("p", "q", "r", "class")
    )
    folder = tmp_path / "mirror"
    why = uci_data.build_from_ucimlrepo(folder, _fetch({7: _frame(text, "?")}), {"t": spec})
    assert why is None
    assert (folder / "t.data").read_bytes() == text.encode()
    entry = json.loads((folder / "MANIFEST.json").read_text())["datasets"]["t"]
    assert entry["class_order_first_appearance"] == ["x", "y"]
    assert (entry["rows"], entry["target"], entry["sha256"]) == (3, "class", spec.sha256)


def test_ucimlrepo_data_that_differs_from_the_original_file_is_not_used(tmp_path):
    spec = uci_data.UciFile(7, "t.data", 1, None, "0" * 64, ("p", "class"))
    folder = tmp_path / "mirror"
    why = uci_data.build_from_ucimlrepo(folder, _fetch({7: _frame("a,x\n", None)}), {"t": spec})
    assert "differs from the original UCI file t.data" in why
    assert not folder.exists() and list(tmp_path.iterdir()) == []
    why = uci_data.build_from_ucimlrepo(folder, _fetch({}), {"t": spec})
    assert why.startswith("ucimlrepo.fetch_ucirepo(id=7) failed (ConnectionError")


def test_ucimlrepo_frames_of_the_papers_datasets_give_their_original_files(tmp_path, uci_mirror):
    """The UCI files parsed as ucimlrepo parses them and written back are byte-identical."""
    frames = {
        spec.uci_id: _frame((uci_mirror / spec.file).read_text(), spec.missing)
        for spec in uci_data.UCI_FILES.values()
    }
    assert uci_data.build_from_ucimlrepo(tmp_path / "built", _fetch(frames)) is None
