"""Taking away the lock files a run leaves beside the files it wrote.

The per-site adaptation files (``<site>.json``) are written under an inter-process lock, a
``<site>.json.lock`` file beside each (:func:`blocksift.algorithms.segmenter.adapt.site_lock`,
a :mod:`filelock` lock: ``flock`` on Unix). The lock file stays when the lock is released, so
``train auto --per-site`` left one beside every site's file, thousands on a large set.

A lock file is removed only while this process holds its lock: opened, locked without
waiting (another process holding it is left alone), checked to still be the file of that
name (not one a peer made after another remover took the name), then unlinked. A peer that
opened the old file before it went finds it unlinked once it gets the lock and takes the
lock of a new file (filelock checks this), so no two processes ever hold a site's lock at
once. A site file's temporary left by a write cut short (``<site>.json.tmp``: a Ctrl-C, a
crash) is written only under that lock, so it goes with it. Where ``flock`` is missing
(Windows, some network file systems, where filelock's lock *is* the file) nothing is
removed.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from pathlib import Path

#: The suffix of a lock file, and of the temporaries written under it, beside a site file.
LOCK_SUFFIX = ".lock"
TEMPORARY_SUFFIX = ".tmp"


def remove_idle_lock(lock: Path) -> bool:
    """Remove ``lock`` (and its file's ``.tmp`` beside it) when no process holds it; False
    when it is held, replaced meanwhile, or cannot be locked here (it stays)."""
    try:
        import fcntl
    except ImportError:  # Windows: the lock is of another kind
        return False
    flags = os.O_RDWR | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(lock, flags)
    except FileNotFoundError:
        return True
    except OSError:  # not ours to open, a link, a FIFO held open
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, errno.ENOSYS,
                             errno.ENOLCK, errno.EOPNOTSUPP):
                return False  # held by a live process, or no flock here
            raise
        try:
            if not os.path.samestat(os.lstat(lock), os.fstat(fd)):
                return False  # another process's new lock file took the name
        except FileNotFoundError:
            return True
        guarded = lock.with_name(lock.name.removesuffix(LOCK_SUFFIX) + TEMPORARY_SUFFIX)
        try:
            guarded.unlink(missing_ok=True)  # written only under this lock: half a file
        except OSError:  # a folder of that name (the write failed on it): not ours
            pass
        os.unlink(lock)
        return True
    finally:
        os.close(fd)  # releases the lock


def remove_idle_locks(folder: Path, sites: Iterable[str] | None = None) -> list[Path]:
    """:func:`remove_idle_lock` for every ``*.json.lock`` in ``folder`` (blocksift's own), or
    for those of ``sites`` alone (``<site>.json.lock``: a folder the user named may hold
    other programs' lock files); those left (held)."""
    if sites is not None:
        locks = sorted(folder / f"{site}.json{LOCK_SUFFIX}" for site in set(sites))
    else:
        try:
            locks = sorted(folder.glob(f"*.json{LOCK_SUFFIX}"))
        except OSError:
            return []
    left = []
    for lock in locks:
        try:
            if not remove_idle_lock(lock):
                left.append(lock)
        except OSError:  # a read-only folder: the file stays, as it did
            left.append(lock)
    return left
