"""Where blocksift keeps its files: per-OS user dirs (platformdirs), one override for tests.

``BLOCKSIFT_HOME`` puts every directory under one folder (tests, portable installs).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

APP_NAME = "blocksift"
HOME_ENV = "BLOCKSIFT_HOME"


def _base(kind: str) -> Path:
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override) / kind
    import platformdirs  # lazy: keeps host start-up small

    getter = {
        "config": platformdirs.user_config_dir,
        "data": platformdirs.user_data_dir,
        "state": platformdirs.user_state_dir,
        "cache": platformdirs.user_cache_dir,
    }[kind]
    return Path(getter(APP_NAME, appauthor=False))


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` readable by the user only (0700) and return it."""
    path.mkdir(parents=True, exist_ok=True)
    try:
        path.chmod(0o700)
    except OSError:
        pass
    return path


def is_own_folder(path: Path) -> bool:
    """Whether ``path`` is blocksift's data dir or inside it: only such folders are made
    private (:func:`ensure_private_dir`) or get blocksift's notes when they already exist;
    a folder the user named (``--store FILE``) keeps its mode and holds only what was asked."""
    try:
        own = data_dir().resolve()
        return Path(path).resolve() == own or own in Path(path).resolve().parents
    except (OSError, RuntimeError):  # a symlink loop: not ours to decide on
        return False


def prepare_folder(path: Path) -> Path:
    """The folder of a file blocksift is about to write: blocksift's own (:func:`is_own_folder`)
    or a new one is made private (0700); another existing folder is left as it is."""
    if is_own_folder(path) or not path.exists():
        return ensure_private_dir(path)
    return path


#: How every SQLite database file starts.
SQLITE_HEADER = b"SQLite format 3\x00"


def not_sqlite(path: Path) -> str | None:
    """Why ``path``, which is there, cannot be an SQLite database (a folder, a file of other
    bytes), or None: a database, an empty file (SQLite takes it as a new one), a path not
    there or one that cannot be read (SQLite says why when it opens it)."""
    try:
        if path.is_dir():
            return "it is a folder"
        with open(path, "rb") as handle:
            start = handle.read(len(SQLITE_HEADER))
    except OSError:
        return None
    return "it is no SQLite file" if start and start != SQLITE_HEADER else None


def config_dir() -> Path:
    """Settings and the WebSocket token."""
    return _base("config")


def data_dir() -> Path:
    """Stores (site templates, labeled examples) and trained models."""
    return _base("data")


def state_dir() -> Path:
    """Logs."""
    return _base("state")


def cache_dir() -> Path:
    """Derived data that can be rebuilt at any time (the hello description cache)."""
    return _base("cache")


def model_path(algorithm: str) -> Path:
    """Where the user's trained model of ``algorithm`` lives (used when it exists)."""
    return data_dir() / "models" / f"{algorithm}.json"


class PathOutsideFolder(ValueError):
    """A file name that would land outside the folder it must stay in."""


def path_within(folder: Path, name: str | Path) -> Path:
    """``folder / name``, refused unless it stays inside ``folder`` once ``..``, absolute
    parts and symbolic links are resolved. The one rule for any file the host writes where a
    client asked (exports)."""
    base = Path(folder).resolve()
    target = (base / name).resolve()
    if target == base or base not in target.parents:
        raise PathOutsideFolder(f"{name} is outside {base}")
    return target


def move_aside(path: Path) -> list[Path]:
    """Rename ``path`` and its WAL/SHM sidecars to ``<name>.corrupt-<time>``; never deletes
    (a damaged store or file is kept for the user to look at)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while Path(f"{aside}").exists():
        counter += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    moved = []
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            target = Path(f"{aside}{suffix}")
            source.rename(target)
            moved.append(target)
    return moved


@contextlib.contextmanager
def atomic_file(path: Path | str, *, mode: int | None = None, keep_mode: bool = True,
                exclusive: bool = False) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, for a writer that streams (one that has the
    whole data calls :func:`write_atomic`): a temporary beside ``path``, flushed to the disk
    and renamed over it once the ``with`` block ends, so that a reader, a crash, a full disk
    or a Ctrl-C finds the earlier file whole or the new one whole, never half of either. Any
    exception (KeyboardInterrupt too) takes the temporary away and leaves ``path`` as it was.

    The file's mode: that of the file it replaces, with ``keep_mode`` and where there is one;
    else ``mode`` exactly (``0o600``: private), whatever the umask; else the one ``open()``
    gives a new file (``0o666`` less the umask). A temporary with a mode to come is private
    (0600) while it is written.

    ``exclusive``: made only when ``path`` is not there yet (two processes creating the same
    file, the first one's stays): :class:`FileExistsError` when it is. A hard link makes it;
    on a file system without hard links it is renamed over, so there the last writer wins.

    An OSError of these steps names ``path`` (not the temporary, whose name means nothing to
    the user); one the ``with`` block raises is left as it is.
    """
    path = Path(path)
    if keep_mode and not exclusive:
        with contextlib.suppress(OSError):
            mode = os.stat(path).st_mode & 0o777
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.part")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(temporary, flags, 0o666 if mode is None else 0o600)
    except OSError as exc:
        raise _naming(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            try:
                out.flush()
                os.fsync(out.fileno())  # on the disk before the name moves to it
            except OSError as exc:
                raise _naming(exc, path) from None
        try:
            if mode is not None:
                os.chmod(temporary, mode)
            _publish(temporary, path, exclusive)
        except OSError as exc:
            raise _naming(exc, path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_atomic(path: Path | str, data: bytes | str, *, mode: int | None = None,
                 keep_mode: bool = True, exclusive: bool = False,
                 encoding: str = "utf-8") -> Path:
    """Write ``data`` (text: in ``encoding``, its line ends as they are) to ``path`` whole or
    not at all; the mode, ``exclusive`` and errors as :func:`atomic_file` has them. The
    folder must exist. Returns ``path``."""
    payload = data.encode(encoding) if isinstance(data, str) else data
    with atomic_file(path, mode=mode, keep_mode=keep_mode, exclusive=exclusive) as out:
        try:
            out.write(payload)
        except OSError as exc:
            raise _naming(exc, Path(path)) from None
    return Path(path)


def _publish(temporary: Path, path: Path, exclusive: bool) -> None:
    if not exclusive:
        os.replace(temporary, path)
        return
    try:
        os.link(temporary, path)  # fails when path is there
    except FileExistsError:
        raise
    except OSError:  # no hard links on this file system: a rename is atomic too
        os.replace(temporary, path)
        return
    with contextlib.suppress(OSError):
        os.unlink(temporary)


def _naming(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path`` (of the same class: FileExistsError stays one)."""
    if exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror, str(path))
