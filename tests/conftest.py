"""Shared fixtures: where the dev datasets are (tests needing them skip without them)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HOST_DIR = REPO / "host"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def shared_datasets() -> Path | None:
    """The shared dev datasets beside the clone, or None (a user's fresh clone)."""
    override = os.environ.get("BLOCKSIFT_DATASETS")
    candidates = [Path(override)] if override else []
    candidates.append(REPO.parent / "shared" / "datasets")
    for candidate in candidates:
        if (candidate / "zh-cwce" / "pages.jsonl.gz").exists():
            return candidate
    return None


def pytest_configure(config: pytest.Config) -> None:
    # The tests never read or write the person's own blocksift folders: a farsw model they
    # had trained made the hostile-page tests find no main text. One temporary home for the
    # session (subprocesses inherit it); fixtures narrow it further per test.
    config._blocksift_home = tempfile.mkdtemp(prefix="blocksift-tests-")
    os.environ["BLOCKSIFT_HOME"] = config._blocksift_home


def pytest_unconfigure(config: pytest.Config) -> None:
    home = getattr(config, "_blocksift_home", None)
    if home:
        shutil.rmtree(home, ignore_errors=True)


SHARED = shared_datasets()
needs_shared = pytest.mark.skipif(
    SHARED is None, reason="needs ../shared/datasets beside the clone (CI has it; a fresh "
                           "clone does not)")


@pytest.fixture()
def blocksift_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every per-user directory (logs, stores, models, token) at a temp folder."""
    home = tmp_path / "blocksift-home"
    monkeypatch.setenv("BLOCKSIFT_HOME", str(home))
    return home
