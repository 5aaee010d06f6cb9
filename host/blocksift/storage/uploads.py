"""Files a client sends the host in pieces: the options page's *Import* (``examples.import``).

A browser's native messaging carries a file only as the messages it sends, so the options
page sends the file's bytes in numbered chunks (base64 in JSON). Each upload's chunks are
appended, in order, to a file of its own in ``<data dir>/imports``; the last one hands the
file over (:meth:`Uploads.take`) and whoever took it deletes it when done.

Nothing is left behind for long: a refused chunk (out of order, not base64, past the size
cap) drops its upload and its file; an upload no chunk has come to for
:data:`IDLE_SECONDS` is dropped at the next chunk of any upload; a session that ends drops its
own (:meth:`Uploads.close`); and the files of a host that was killed mid-upload are deleted
when a later upload starts and they have not grown for :data:`STALE_SECONDS` (another host,
Chromium's beside Firefox's, still adding to its own touches it every few milliseconds).
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..wire.constants import IMPORT_MAX_BYTES as MAX_UPLOAD_BYTES

#: An upload of this session that no chunk came to for this long is dropped.
IDLE_SECONDS = 10 * 60
#: An upload file (of any host process) not written to for this long is deleted.
STALE_SECONDS = 60 * 60
#: Uploads one session may have open at once; a new one past it drops the least recent.
MAX_OPEN = 4
#: How the upload files are named in the imports folder (nothing else there is touched).
FILE_PREFIX = "upload-"
#: An upload id: safe to echo and to log.
UPLOAD_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
GZIP_MAGIC = b"\x1f\x8b"


class UploadError(ValueError):
    """A chunk refused; ``unknown`` is True when no such upload is open (or it was dropped)."""

    def __init__(self, message: str, unknown: bool = False):
        super().__init__(message)
        self.unknown = unknown


@dataclass
class Upload:
    """One file being received: where its bytes go, the chunk expected next, bytes so far."""

    upload_id: str
    path: Path
    name: str
    next_index: int = 0
    size: int = 0
    touched: float = 0.0


def imports_dir() -> Path:
    from ..paths import data_dir

    return data_dir() / "imports"


def sweep_stale(folder: Path, now: float | None = None, older: float = STALE_SECONDS) -> int:
    """Delete the upload files in ``folder`` not written to for ``older`` seconds (a host killed
    mid-upload left them); returns how many. Other files are left alone."""
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(folder.glob(FILE_PREFIX + "*"))
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.is_file() and now - entry.stat().st_mtime > older:
                entry.unlink()
                removed += 1
        except OSError:  # another host took it away first
            continue
    return removed


class Uploads:
    """The uploads of one session (one client connection). Thread-safe."""

    def __init__(self, folder: Path | None = None, max_bytes: int = MAX_UPLOAD_BYTES,
                 idle: float = IDLE_SECONDS, clock=time.monotonic):
        self._folder = folder
        self.max_bytes = max_bytes
        self.idle = idle
        self._clock = clock
        self._open: dict[str, Upload] = {}
        self._lock = threading.Lock()

    @property
    def folder(self) -> Path:
        return self._folder if self._folder is not None else imports_dir()

    def open_ids(self) -> list[str]:
        with self._lock:
            return list(self._open)

    def add(self, upload_id: str, index: int, data: str, name: str = "",
            size: int | None = None) -> Upload:
        """Append chunk ``index`` (base64 ``data``) of upload ``upload_id``. Index 0 starts the
        upload (one of the same id still open is dropped first); ``name`` is the file's own
        name (for messages, and a ``.gz`` one is read as gzip), ``size`` the whole file's
        bytes, when known, refused at once past the cap. Any refusal drops the upload."""
        if not UPLOAD_ID.match(upload_id):
            raise UploadError(f"an upload id is 1 to 64 letters, digits, '-' or '_', "
                              f"not {upload_id[:70]!r}")
        now = self._clock()
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raw = None
        with self._lock:
            self._drop_idle(now)
            if raw is None:
                self._remove(upload_id)
                raise UploadError(f"chunk {index} of upload {upload_id} is not base64; the "
                                  "upload is dropped: send the file again from its start")
            if index == 0:
                self._remove(upload_id)
                upload = self._start(upload_id, name, size, raw)
            else:
                upload = self._open.get(upload_id)
                if upload is None:
                    raise UploadError(
                        f"no upload {upload_id} is open here: it was never started (chunk 0), "
                        "was dropped after a refused chunk, went unfinished for "
                        f"{self.idle / 60:g} minutes, or the host restarted; send the file "
                        "again from its start", unknown=True)
                if index != upload.next_index:
                    self._remove(upload_id)
                    raise UploadError(
                        f"chunk {index} of upload {upload_id} came where chunk "
                        f"{upload.next_index} was expected; the upload is dropped: send the "
                        "file again from its start")
            if upload.size + len(raw) > self.max_bytes:
                self._remove(upload_id)
                raise UploadError(_too_large(upload.name, self.max_bytes))
            try:
                with open(upload.path, "ab") as handle:
                    handle.write(raw)
            except OSError:
                self._remove(upload_id)
                raise
            upload.size += len(raw)
            upload.next_index = index + 1
            upload.touched = now
            return upload

    def take(self, upload_id: str) -> Upload:
        """The upload, whole, handed over: its file is the caller's to delete."""
        with self._lock:
            upload = self._open.pop(upload_id, None)
        if upload is None:
            raise UploadError(f"no upload {upload_id} is open here", unknown=True)
        return upload

    def drop(self, upload_id: str) -> None:
        with self._lock:
            self._remove(upload_id)

    def close(self) -> None:
        """Drop every upload of the session (the client went away)."""
        with self._lock:
            for upload_id in list(self._open):
                self._remove(upload_id)

    # -- under the lock ---------------------------------------------------------------------

    def _start(self, upload_id: str, name: str, size: int | None, head: bytes) -> Upload:
        if size is not None and size > self.max_bytes:
            raise UploadError(_too_large(name, self.max_bytes))
        from ..paths import prepare_folder

        folder = prepare_folder(self.folder)
        sweep_stale(folder)  # files a killed host left
        while len(self._open) >= MAX_OPEN:
            oldest = min(self._open.values(), key=lambda upload: upload.touched)
            self._remove(oldest.upload_id)
        gzipped = name.lower().endswith(".gz") or head.startswith(GZIP_MAGIC)
        path = folder / f"{FILE_PREFIX}{secrets.token_hex(8)}.jsonl{'.gz' if gzipped else ''}"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        upload = Upload(upload_id, path, name or path.name, touched=self._clock())
        self._open[upload_id] = upload
        return upload

    def _remove(self, upload_id: str) -> None:
        upload = self._open.pop(upload_id, None)
        if upload is not None:
            try:
                upload.path.unlink()
            except FileNotFoundError:
                pass

    def _drop_idle(self, now: float) -> None:
        for upload in list(self._open.values()):
            if now - upload.touched > self.idle:
                self._remove(upload.upload_id)


def _too_large(name: str, limit: int) -> str:
    return (f"{name or 'the file'} is larger than the {limit // (1024 * 1024)} MiB the host "
            "takes in one import; split it (a datasets-format file is one page a line) or use "
            "`blocksift examples import FILE`")
