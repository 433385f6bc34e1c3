"""A test whose service is missing skips on a developer's machine and fails under CI=true.

pytest's skip and fail are exceptions; each check catches any outcome and asserts which one it
was, so that a skip where a failure is due fails these tests instead of skipping them."""

from __future__ import annotations

import pytest

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


def test_a_missing_shared_file_is_named(monkeypatch, tmp_path):
    monkeypatch.setattr(helpers, "SHARED", tmp_path)
    monkeypatch.setenv("CI", "true")
    info = outcome(helpers.shared_file, "reference", "x.json")
    assert info.type is pytest.fail.Exception
    assert "x.json is missing [shared:" in str(info.value)
