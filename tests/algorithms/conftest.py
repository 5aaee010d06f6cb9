"""Fixtures of the algorithm tests: hand-made linkblocks pages and the shared dev datasets."""

from __future__ import annotations

from pathlib import Path

import pytest

LINKBLOCKS_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "linkblocks"


def _shared_zh_cwce() -> Path | None:
    """The zh-cwce dev set when the shared datasets are reachable, else None."""
    from blocksift.evaluation.datasets import resolve

    try:
        return resolve("zh-cwce")
    except FileNotFoundError:
        return None


@pytest.fixture(scope="session")
def zh_cwce_path() -> Path:
    """Path of the zh-cwce dev set; skips the test when the shared datasets are absent."""
    path = _shared_zh_cwce()
    if path is None:
        pytest.skip("needs the shared dev datasets (zh-cwce): set BLOCKSIFT_DATASETS or put "
                    "../shared/datasets beside the clone")
    return path


@pytest.fixture(scope="session")
def linkblocks_fixtures() -> Path:
    """Folder of the hand-made linkblocks golden pages."""
    return LINKBLOCKS_FIXTURES
