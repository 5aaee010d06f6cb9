"""The examples database on a full disk or a read-only file system, against the real host.

The host runs in its own mount namespace (``unshare``) with its data folder on a small tmpfs
or bind-mounted read-only, so the disk is really full and the folder really read-only. Neither
is damage: the client hears what is wrong, nothing is reported as damaged or kept aside, and
every example already saved is still there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import HostProcess

from blocksift.storage.examples import Example, ExampleStore

#: Enough distinct words that a page's alignment with its gold stays quick.
WORDS = [f"w{i}x{i * 7 % 13}" for i in range(4000)]


def _namespace() -> tuple[str, ...]:
    """``unshare`` with a private mount namespace (a user namespace when not root)."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    command = ("unshare", "--mount", "--propagation", "private")
    if os.geteuid() != 0:
        command += ("--map-root-user",)
    if subprocess.run([*command, "true"], capture_output=True).returncode != 0:
        pytest.skip("this system does not allow a private mount namespace")
    return command


def _page(n: int) -> str:
    words = " ".join(WORDS[(n * 97 + i) % len(WORDS)] for i in range(3000))
    return f"<html><body><p data-bsid='1'>Page {n}. {words}</p></body></html>"


def _request(host: HostProcess, message: dict) -> dict:
    host.send(message)
    return host.recv_reply(timeout=120)


def _assert_not_damage(reply: dict, words: tuple[str, ...]) -> None:
    assert reply["type"] == "error", reply
    assert reply["code"] == 3004 and reply["id"], reply  # not 3006 store_damaged
    assert "is damaged" not in reply["message"] and "repair" not in reply["message"], reply
    assert "nothing saved is lost" in reply["message"], reply
    assert any(word in reply["message"] for word in words), reply


def test_a_full_disk_is_said_and_loses_no_saved_example(blocksift_home: Path):
    data = blocksift_home / "data"
    data.mkdir(parents=True)
    mount = 'mount -t tmpfs -o size=384k tmpfs "$0" && exec "$@"'
    host = HostProcess(blocksift_home, prefix=(*_namespace(), "sh", "-c", mount, str(data)))
    try:
        saved = []
        for n in range(40):
            reply = _request(host, {"type": "examples.save", "id": f"s{n}", "mainIds": ["1"],
                                    "url": f"https://ex.org/{n}", "html": _page(n)})
            if reply["type"] != "examples.saved":
                break
            saved.append(reply["exampleId"])
        else:
            pytest.fail("40 pages of 20 kB fitted on a 384 kB disk")
        assert saved, reply
        _assert_not_damage(reply, ("full",))
        listing = _request(host, {"type": "examples.list", "id": "l"})
        assert listing["type"] == "examples.list", listing
        assert sorted(item["exampleId"] for item in listing["items"]) == sorted(saved)
        hello = _request(host, {"type": "hello", "id": "h"})
        assert hello["storeProblems"] == []
        assert _request(host, {"type": "ping", "id": "p"}) == {"type": "pong", "id": "p"}
    finally:
        host.stop()


def test_a_read_only_folder_is_said_and_nothing_is_moved_aside(blocksift_home: Path):
    data = blocksift_home / "data"
    with ExampleStore(data / "examples.sqlite3") as store:
        for n in range(2):
            store.add(Example(html=_page(n), main_text=f"Page {n}.", url=f"https://ex.org/{n}"))
    before = sorted(path.name for path in data.iterdir())
    read_only = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
    host = HostProcess(blocksift_home, prefix=(*_namespace(), "sh", "-c", read_only, str(data)))
    try:
        for kind, extra in (("examples.list", {}),
                            ("examples.save", {"url": "https://ex.org/new", "html": _page(9),
                                               "mainIds": ["1"]}),
                            ("examples.repair", {})):
            reply = _request(host, {"type": kind, "id": kind, **extra})
            _assert_not_damage(reply, ("read-only", "cannot be opened"))
        hello = _request(host, {"type": "hello", "id": "h"})
        assert hello["storeProblems"] == []
    finally:
        host.stop()
    assert sorted(path.name for path in data.iterdir()) == before
    with ExampleStore(data / "examples.sqlite3") as store:
        assert store.count() == 2


def test_the_cli_says_a_read_only_folder_is_no_damage(tmp_path: Path):
    # `blocksift examples list` on a read-only folder told the user to repair a healthy file
    data = tmp_path / "data"
    with ExampleStore(data / "examples.sqlite3") as store:
        store.add(Example(html=_page(0), main_text="Page 0.", url="https://ex.org/0"))
    read_only = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
    done = subprocess.run(
        [*_namespace(), "sh", "-c", read_only, str(data), sys.executable, "-m", "blocksift",
         "examples", "--store", str(data / "examples.sqlite3"), "list"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode != 0, done
    assert "read-only" in done.stderr and "not damaged" in done.stderr, done.stderr
    assert "repair" not in done.stderr, done.stderr
