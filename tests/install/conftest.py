"""Fixtures for registration tests: a throw-away HOME and data dir."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty HOME; BLOCKSIFT_HOME beside it, XDG_CONFIG_HOME unset."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("BLOCKSIFT_HOME", str(tmp_path / "bs"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return home


@pytest.fixture
def data_dir(home: Path) -> Path:
    from blocksift import paths

    return paths.data_dir()
