"""Shared test fixtures: repository paths and the offline UCI mirror."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"


def _mirror() -> Path | None:
    candidate = os.environ.get("UCI_MIRROR") or str(SHARED / "data" / "uci")
    path = Path(candidate)
    return path if (path / "MANIFEST.json").is_file() else None


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED


@pytest.fixture(scope="session")
def uci_mirror() -> Path:
    """The offline UCI mirror (UCI_MIRROR, else ../shared/data/uci); skip if absent."""
    path = _mirror()
    if path is None:
        pytest.skip("no UCI mirror: set UCI_MIRROR to a folder with MANIFEST.json")
    return path
