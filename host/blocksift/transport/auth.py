"""The WebSocket server's per-install secret token and Origin rules.

The token is 32 random bytes, URL-safe base64 without padding (43 characters from
``A-Z a-z 0-9 - _``, so it is also a valid WebSocket subprotocol token), kept in
``config_dir()/ws-token`` with 0600 permissions and created atomically on first use: two
processes starting at once end up with the same token.

Origins: a web page must never reach the host. Browsers always send ``Origin`` on a
WebSocket handshake and a page cannot forge it, so the rule is an allowlist: the Chromium
extension's fixed origin, any ``moz-extension://`` origin (Firefox gives each profile a
random UUID; pages cannot send that scheme), and origins the user adds. No ``Origin`` at all
means a non-browser client (a script, :mod:`blocksift.transport.client`), which still needs
the token.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import secrets
from collections.abc import Iterable
from pathlib import Path

from ..paths import config_dir, ensure_private_dir, write_atomic

log = logging.getLogger("blocksift.auth")

TOKEN_FILE_NAME = "ws-token"
#: Bytes of randomness in a token (256 bits).
TOKEN_BYTES = 32
#: The Chromium extension's id is fixed by the ``key`` in its manifest.
CHROMIUM_EXTENSION_ORIGIN = "chrome-extension://ddhihlhollalmfcgjljfjkkgpdlgjdac"
_FIREFOX_ORIGIN = re.compile(r"^moz-extension://[A-Za-z0-9{}-]+$")
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{43,}$")


class TokenError(Exception):
    """The token file cannot be read or written."""


def token_path() -> Path:
    """Where the WebSocket token lives (``BLOCKSIFT_HOME`` moves it for tests)."""
    return config_dir() / TOKEN_FILE_NAME


def new_token() -> str:
    """A fresh token: 32 random bytes, URL-safe base64, no padding."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def _valid(text: str) -> bool:
    return _TOKEN_SHAPE.match(text) is not None


def load_or_create_token(path: Path | None = None) -> str:
    """The install's token, created on first use (0600, atomically).

    A token file that is empty or not token-shaped (hand-edited, truncated) is replaced
    with a fresh token and a warning; one readable by others is narrowed to 0600.
    """
    path = path or token_path()
    try:
        ensure_private_dir(path.parent)
    except OSError as exc:
        raise TokenError(f"cannot create {path.parent}: {exc.strerror or exc}") from None
    for _attempt in range(3):
        existing = _read(path)
        if existing is not None:
            if _valid(existing):
                _narrow_permissions(path)
                return existing
            log.warning("token file %s is not a valid token; replacing it", path)
            return rotate_token(path)
        token = new_token()
        try:
            # exclusive: if the file appeared meanwhile, the other process's token wins
            # (without hard links, the last writer's does)
            write_atomic(path, token + "\n", mode=0o600, keep_mode=False, exclusive=True)
            return token
        except FileExistsError:
            continue
        except OSError as exc:
            raise TokenError(f"cannot write {path}: {exc.strerror or exc}") from None
    raise TokenError(f"cannot create the token file {path}")


def rotate_token(path: Path | None = None) -> str:
    """Replace the token with a fresh one (old clients are refused from now on)."""
    path = path or token_path()
    ensure_private_dir(path.parent)
    token = new_token()
    try:
        write_atomic(path, token + "\n", mode=0o600, keep_mode=False)
    except OSError as exc:
        raise TokenError(f"cannot write {path}: {exc.strerror or exc}") from None
    return token


def read_token(path: Path | None = None) -> str:
    """The existing token, for clients; :class:`TokenError` with advice when there is none."""
    path = path or token_path()
    text = _read(path)
    if text is None:
        raise TokenError(f"no WebSocket token at {path}: start `blocksift serve` once to "
                         "create it, or pass the token explicitly")
    if not _valid(text):
        raise TokenError(f"{path} does not hold a valid token; `blocksift serve --new-token` "
                         "writes a fresh one")
    return text


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise TokenError(f"cannot read {path}: {exc.strerror or exc}") from None


def _narrow_permissions(path: Path) -> None:
    if os.name != "posix":
        return
    try:
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            log.warning("token file %s was readable by others (%o); narrowing to 0600",
                        path, mode)
            path.chmod(0o600)
    except OSError:
        pass


def token_matches(presented: str | None, expected: str) -> bool:
    """Constant-time comparison; None or an empty token never matches."""
    if not presented:
        return False
    return hmac.compare_digest(presented.encode("utf-8"), expected.encode("utf-8"))


class OriginPolicy:
    """Which ``Origin`` header values may open a connection."""

    def __init__(self, extra: Iterable[str] = ()):
        self.extra = frozenset(o.rstrip("/") for o in extra if o)

    def allows(self, origin: str | None) -> bool:
        """True for no Origin (non-browser clients), the extension origins and ``extra``."""
        if origin is None:
            return True
        if origin == CHROMIUM_EXTENSION_ORIGIN or origin in self.extra:
            return True
        return _FIREFOX_ORIGIN.match(origin) is not None
