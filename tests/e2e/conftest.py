"""Fixtures for the end-to-end tests: served pages, the real host, both browsers.

Each test gets a fresh browser profile and a fresh host launcher (so host processes,
storage and site rules never leak between tests). Screenshots go to ``out/e2e/`` (ignored
by git); look at them after a run.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_harness as harness  # noqa: E402
from e2e_pages import generate_pages  # noqa: E402

PAGES = Path(__file__).resolve().parent / "pages"
ARTIFACTS = harness.REPO / "out" / "e2e"
HAVE_PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
HAVE_WEBSOCKETS = importlib.util.find_spec("websockets") is not None
AVAILABLE = harness.browsers_available()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.Site]:
    generated = tmp_path_factory.mktemp("generated-pages")
    server = harness.Site(PAGES, generated)
    generate_pages(generated, hit_url=server.url("__hit"))
    yield server
    server.close()


def _skip_reason(name: str) -> str | None:
    if not AVAILABLE[name]:
        return f"{name} is not installed (apt-get install {'chromium' if name == 'chromium' else 'firefox-esr'})"
    if name == "chromium" and not HAVE_PLAYWRIGHT:
        return "playwright is not installed (pip install playwright; never `playwright install`)"
    if name == "firefox" and not HAVE_WEBSOCKETS:
        return "websockets is not installed"
    return None


def _host_has_linkblocks() -> bool:
    sys.path.insert(0, str(harness.REPO / "host"))
    try:
        from blocksift import algorithms
    finally:
        sys.path.pop(0)
    return "linkblocks" in algorithms.names()


@pytest.fixture(params=["chromium", "firefox"])
def browser_name(request: pytest.FixtureRequest) -> str:
    if not _host_has_linkblocks():
        pytest.skip("the host of this checkout has no linkblocks algorithm, which the E2E pages "
                    "are written for")
    reason = _skip_reason(request.param)
    if reason:
        pytest.skip(reason)
    return request.param


@pytest.fixture()
def host(tmp_path: Path) -> harness.HostInstall:
    return harness.HostInstall(tmp_path / "host")


@pytest.fixture()
def browser(browser_name: str, tmp_path: Path, host: harness.HostInstall,
            site: harness.Site) -> Iterator[harness.Browser]:
    with harness.launch(browser_name, tmp_path, host, launchpad=site.url("blank.html", host="localhost")) as b:
        yield b


@pytest.fixture()
def artifacts(request: pytest.FixtureRequest, browser_name: str) -> Path:
    path = ARTIFACTS / browser_name / request.node.originalname
    path.mkdir(parents=True, exist_ok=True)
    return path
