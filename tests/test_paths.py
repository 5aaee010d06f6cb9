"""Writing a file whole or not at all (blocksift.paths.write_atomic and atomic_file), the one
writer behind every file the host replaces: settings, notes, caches, the token, exports,
models and install's files."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from blocksift.paths import atomic_file, write_atomic

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def full_disk(*_args):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_text_and_bytes_are_written_whole_and_nothing_else_is_left(tmp_path):
    target = tmp_path / "notes.json"
    assert write_atomic(target, "é\r\nline\n") == target
    assert target.read_bytes() == "é\r\nline\n".encode()  # UTF-8, line ends as given
    write_atomic(target, b"\x00\xffbytes")
    assert target.read_bytes() == b"\x00\xffbytes"
    write_atomic(str(target), "ascii", encoding="ascii")
    assert target.read_bytes() == b"ascii"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.json"]


def test_a_stream_is_written_whole_when_the_block_ends(tmp_path):
    target = tmp_path / "pages.jsonl"
    target.write_bytes(b"earlier\n")
    with atomic_file(target) as out:
        for n in range(3):
            out.write(f"{n}\n".encode())
        assert target.read_bytes() == b"earlier\n"  # not yet: the temporary is written
        temporaries = [p for p in tmp_path.iterdir() if p != target]
        assert len(temporaries) == 1 and temporaries[0].name.startswith(".pages.jsonl.")
    assert target.read_bytes() == b"0\n1\n2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["pages.jsonl"]


@pytest.mark.parametrize("failing", ["fsync", "replace", "chmod"])
def test_a_failure_leaves_the_earlier_file_and_no_temporary(tmp_path, monkeypatch, failing):
    target = tmp_path / "model.npz"
    target.write_bytes(b"the earlier file")
    monkeypatch.setattr(os, failing, full_disk)
    with pytest.raises(OSError) as raised:
        write_atomic(target, b"x" * 100_000, mode=0o644)
    monkeypatch.undo()
    assert raised.value.errno == errno.ENOSPC
    assert raised.value.filename == str(target)  # the file the user knows, not the temporary
    assert target.read_bytes() == b"the earlier file"
    assert [p.name for p in tmp_path.iterdir()] == ["model.npz"]


def test_a_failure_before_any_file_leaves_none(tmp_path, monkeypatch):
    target = tmp_path / "new.json"
    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError):
        write_atomic(target, "{}")
    assert list(tmp_path.iterdir()) == []


def test_an_error_opening_the_temporary_names_the_file(tmp_path):
    target = tmp_path / "missing-folder" / "x.json"
    with pytest.raises(FileNotFoundError) as raised:
        write_atomic(target, "{}")
    assert raised.value.filename == str(target)


@pytest.mark.parametrize("error", [ValueError("a bad record"), KeyboardInterrupt()])
def test_an_exception_of_the_writer_leaves_the_earlier_file(tmp_path, error):
    """A generator that raises part way, or a Ctrl-C: the exception goes on unchanged."""
    target = tmp_path / "pages.jsonl.gz"
    target.write_bytes(b"an earlier export\n")

    def records():
        yield b"first\n"
        raise error

    with pytest.raises(type(error)) as raised:
        with atomic_file(target) as out:
            for record in records():
                out.write(record)
    assert raised.value is error
    assert target.read_bytes() == b"an earlier export\n"
    assert [p.name for p in tmp_path.iterdir()] == ["pages.jsonl.gz"]


def test_a_ctrl_c_while_the_file_goes_to_the_disk_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "ws-token"

    def interrupted(_fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "token\n", mode=0o600)
    assert list(tmp_path.iterdir()) == []


@posix_only
def test_a_new_file_gets_the_umasks_mode_unless_a_mode_is_given(tmp_path, umask_022):
    assert mode_of(write_atomic(tmp_path / "plain", "x")) == 0o644  # as open() makes it
    os.umask(0o077)
    assert mode_of(write_atomic(tmp_path / "launcher", "x", mode=0o755)) == 0o755  # exactly
    assert mode_of(write_atomic(tmp_path / "private", "x", mode=0o600)) == 0o600


@posix_only
def test_the_replaced_files_mode_is_kept_unless_told_not_to(tmp_path, umask_022):
    target = tmp_path / "model.npz"
    write_atomic(target, "1", mode=0o644)
    target.chmod(0o640)
    write_atomic(target, "2", mode=0o644)
    assert mode_of(target) == 0o640 and target.read_text() == "2"
    write_atomic(target, "3")
    assert mode_of(target) == 0o640
    write_atomic(target, "4", mode=0o600, keep_mode=False)  # private, whatever it was
    assert mode_of(target) == 0o600
    target.chmod(0o664)
    write_atomic(target, "5", keep_mode=False)  # replaced as a new file: the umask's mode
    assert mode_of(target) == 0o644 and target.read_text() == "5"


@posix_only
def test_a_file_with_a_mode_to_come_is_private_while_it_is_written(tmp_path, umask_022):
    target = tmp_path / "manifest.json"
    with atomic_file(target, mode=0o644) as out:
        out.write(b"{}")
        (temporary,) = tmp_path.iterdir()
        assert mode_of(temporary) == 0o600
    assert mode_of(target) == 0o644


def test_exclusive_makes_the_file_only_when_it_is_not_there(tmp_path):
    target = tmp_path / "ws-token"
    write_atomic(target, "first\n", mode=0o600, exclusive=True)
    with pytest.raises(FileExistsError) as raised:
        write_atomic(target, "second\n", mode=0o600, exclusive=True)
    assert raised.value.filename == str(target)
    assert target.read_text() == "first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["ws-token"]


def test_exclusive_without_hard_links_renames_over(tmp_path, monkeypatch):
    def no_links(_source, _target):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "ws-token"
    write_atomic(target, "first\n", exclusive=True)
    write_atomic(target, "second\n", exclusive=True)  # the last writer wins there
    assert target.read_text() == "second\n"
    assert [p.name for p in tmp_path.iterdir()] == ["ws-token"]


def test_an_oserror_without_errno_is_left_as_it_is(tmp_path, monkeypatch):
    target = tmp_path / "x"
    problem = OSError("no errno")
    monkeypatch.setattr(os, "replace", lambda *_: (_ for _ in ()).throw(problem))
    with pytest.raises(OSError) as raised:
        write_atomic(target, "x")
    assert raised.value is problem
    assert list(tmp_path.iterdir()) == []

