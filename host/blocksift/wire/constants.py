"""Wire-protocol constants and error codes, importable without pydantic.

The native host answers ``ping`` and frame errors before the message models are loaded,
which keeps its cold start small; :mod:`blocksift.wire.protocol` builds on it.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any

PROTOCOL_VERSION = 1
#: Longest request id accepted; ids are echoed in every reply.
MAX_ID_LENGTH = 128
#: Attribute the extension stamps on every element of its snapshot (see PROTOCOL.md).
ID_ATTR = "data-bsid"
#: Attribute the extension's snapshot sets on the outermost elements the live page does not
#: draw (computed ``display: none``: a layout's copy for another screen width, a closed tab);
#: the reader leaves out such a copy of what it shows already (see PROTOCOL.md).
HIDDEN_ATTR = "data-bshidden"

#: The actions an ``extract`` request may name (protocol.ExtractRequest.action; the hello
#: reply lists them, so a client knows what this host offers before asking).
EXTRACT_ACTIONS = ("extract", "hide", "reader")

#: ``examples.import``: the largest file one upload may be (the sum of its chunks' bytes)...
IMPORT_MAX_BYTES = 512 * 1024 * 1024
#: ... and the most base64 characters one chunk may carry: far under the host's frame cap
#: (64 MiB); the extension sends 512 KiB of base64 a chunk.
IMPORT_CHUNK_MAX_CHARS = 1024 * 1024
#: ``examples.imported`` / ``examples.undoImport``: the most [first, last] runs of example
#: ids one import's ids are given as. One import's ids are consecutive (one transaction): one
#: run; at this cap, with ids of 19 digits, the reply holds 42 KB of them, far under the
#: browsers' 1 MiB cap of a host's message.
UNDO_IMPORT_MAX_RANGES = 1000


class ErrorCode(IntEnum):
    """Numbered error codes; stable across versions (PROTOCOL.md tabulates them)."""

    # 1xxx: the frame or message itself is bad
    FRAME_EMPTY = 1001
    FRAME_TOO_LARGE = 1002
    FRAME_TRUNCATED = 1003
    INVALID_UTF8 = 1004
    INVALID_JSON = 1005
    LONE_SURROGATE = 1006
    INVALID_MESSAGE = 1007
    UNKNOWN_TYPE = 1008
    UNSUPPORTED_PROTOCOL = 1009
    DUPLICATE_ID = 1010
    # 2xxx: the request is well formed but cannot be served as asked
    UNKNOWN_ALGORITHM = 2001
    INVALID_PARAMS = 2002
    PAGE_ERROR = 2003
    NOT_FOUND = 2004
    # 3xxx: the host could not finish the work
    TIMEOUT = 3001
    CANCELLED = 3002
    BUSY = 3003
    INTERNAL = 3004
    MEMORY_LIMIT = 3005
    STORE_DAMAGED = 3006
    PRIVATE_WINDOW = 2005
    # 4xxx: transport-level refusals (WebSocket server)
    UNAUTHORIZED = 4001
    FORBIDDEN_ORIGIN = 4002


def error_payload(code: ErrorCode, message: str, request_id: str | None = None
                  ) -> dict[str, Any]:
    """The ``error`` reply as a plain dict (same shape as ``protocol.ErrorReply``)."""
    return {"type": "error", "id": request_id, "code": int(code), "name": code.name.lower(),
            "message": message}


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def encode_reply(text: str) -> bytes:
    """UTF-8 bytes of a serialized reply, always valid UTF-8.

    Replies are serialized with ``ensure_ascii=False``; a lone surrogate that reached one (an
    echoed string) is written as its JSON escape, which stands for the same string.
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return well_formed_reply(text).encode("utf-8")


def well_formed_reply(text: str) -> str:
    """``text`` (serialized JSON) with each lone surrogate replaced by its ``\\uXXXX`` escape."""
    return _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
