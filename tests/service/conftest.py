"""A running native host for the tests of this folder that ask for ``host``."""

from __future__ import annotations

import pytest
from native_host import Host


@pytest.fixture()
def host(tmp_path):
    running = Host(tmp_path / "home")
    yield running
    running.stop()
