"""Which browsers blocksift registers with, and where each looks for a native-messaging host.

Sources for the locations (user level; no administrator rights needed):

* Chrome / Chromium: https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging
  ("Native messaging host location": ``~/.config/google-chrome/NativeMessagingHosts``,
  ``~/.config/chromium/NativeMessagingHosts``, ``~/Library/Application Support/Google/Chrome/
  NativeMessagingHosts``, ``.../Chromium/NativeMessagingHosts``; Windows:
  ``HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\<name>`` whose default value is the
  manifest's full path). Chromium keeps the user-level directory inside its user-data
  directory, so a browser started with ``--user-data-dir=D`` reads ``D/NativeMessagingHosts``
  only (verified: /work/shared/notes/browser-testing.md, section 3).
* Edge: learn.microsoft.com "Native messaging" (microsoft-edge/extensions/developer-guide);
  Linux ``~/.config/microsoft-edge``, macOS ``~/Library/Application Support/Microsoft Edge``,
  Windows ``HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts``.
* Brave: ``~/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts`` (reported working in
  asamuzaK/withExEditorHost#61 and osnr/TabFS#95), macOS ``~/Library/Application Support/
  BraveSoftware/Brave-Browser``, Windows ``HKCU\\Software\\BraveSoftware\\Brave-Browser``.
* Firefox: MDN "Native manifests" (``~/.mozilla/native-messaging-hosts``, ``~/Library/
  Application Support/Mozilla/NativeMessagingHosts``, ``HKCU\\Software\\Mozilla\\
  NativeMessagingHosts\\<name>``); Firefox's own NativeManifests.sys.mjs uses the dashed
  ``native-messaging-hosts`` slug on Linux only.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Literal

#: Name the extension passes to ``runtime.connectNative``; also the manifest's file name.
HOST_NAME = "org.blocksift.host"
#: Chromium extension id, fixed by the ``key`` in the extension's manifest.json.
CHROMIUM_EXTENSION_ID = "ddhihlhollalmfcgjljfjkkgpdlgjdac"
#: The only origin allowed to start the host in Chromium-family browsers.
CHROMIUM_ORIGIN = f"chrome-extension://{CHROMIUM_EXTENSION_ID}/"
#: Firefox add-on id (``browser_specific_settings.gecko.id``).
FIREFOX_EXTENSION_ID = "blocksift@blocksift.org"
HOST_DESCRIPTION = "blocksift: link blocks and main text of the page you are reading"

Platform = Literal["linux", "darwin", "win32"]
Family = Literal["chromium", "firefox"]
PLATFORMS: tuple[Platform, ...] = ("linux", "darwin", "win32")


def current_platform() -> Platform:
    """``sys.platform`` folded onto the three platforms that have a registration scheme."""
    import sys

    if sys.platform.startswith("win"):
        return "win32"
    if sys.platform == "darwin":
        return "darwin"
    return "linux"


def path_class(platform: Platform) -> type[PurePath]:
    """Pure path flavour of ``platform`` (plans for other OSes are built on Linux CI)."""
    return PureWindowsPath if platform == "win32" else PurePosixPath


def extension_id_from_key(key_b64: str) -> str:
    """Chromium extension id of a manifest ``key``: SHA-256 of the DER public key, first 32
    hex digits mapped 0-f -> a-p (verified in browser-testing.md section 2)."""
    digest = hashlib.sha256(base64.b64decode(key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


@dataclass(frozen=True)
class Browser:
    """One browser's user-level registration scheme on every OS."""

    name: str
    label: str
    family: Family
    #: Linux: profile root under $XDG_CONFIG_HOME (Chromium family) or under $HOME (Firefox).
    linux_root: str
    #: macOS: root under ``~/Library/Application Support``.
    mac_root: str
    #: Windows: HKCU subkey holding ``NativeMessagingHosts``.
    windows_key: str
    #: Windows: profile root under %LOCALAPPDATA% (Chromium) or %APPDATA% (Firefox), detection.
    windows_profile: str
    #: Commands whose presence on PATH means the browser is installed (Linux).
    commands: tuple[str, ...]
    #: macOS application bundle, for detection.
    mac_app: str

    @property
    def supports_user_data_dir(self) -> bool:
        return self.family == "chromium"


BROWSERS: tuple[Browser, ...] = (
    Browser("chrome", "Google Chrome", "chromium", "google-chrome", "Google/Chrome",
            r"Software\Google\Chrome", r"Google\Chrome\User Data",
            ("google-chrome", "google-chrome-stable"), "Google Chrome.app"),
    Browser("chromium", "Chromium", "chromium", "chromium", "Chromium",
            r"Software\Chromium", r"Chromium\User Data",
            ("chromium", "chromium-browser"), "Chromium.app"),
    Browser("edge", "Microsoft Edge", "chromium", "microsoft-edge", "Microsoft Edge",
            r"Software\Microsoft\Edge", r"Microsoft\Edge\User Data",
            ("microsoft-edge", "microsoft-edge-stable"), "Microsoft Edge.app"),
    Browser("brave", "Brave", "chromium", "BraveSoftware/Brave-Browser",
            "BraveSoftware/Brave-Browser", r"Software\BraveSoftware\Brave-Browser",
            r"BraveSoftware\Brave-Browser\User Data", ("brave-browser", "brave"),
            "Brave Browser.app"),
    Browser("firefox", "Firefox", "firefox", ".mozilla", "Mozilla",
            r"Software\Mozilla", r"Mozilla\Firefox", ("firefox", "firefox-esr"), "Firefox.app"),
)
BROWSER_NAMES: tuple[str, ...] = tuple(b.name for b in BROWSERS)
_BY_NAME = {b.name: b for b in BROWSERS}


def browser(name: str) -> Browser:
    """The browser called ``name``; ValueError naming the choices otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        choices = ", ".join(BROWSER_NAMES)
        raise ValueError(f"unknown browser {name!r}; choose from {choices}") from None


def _config_home(home: PurePath, env: Mapping[str, str]) -> PurePath:
    xdg = env.get("XDG_CONFIG_HOME", "")
    # XDG says relative values are invalid and must be ignored.
    return type(home)(xdg) if xdg and PurePosixPath(xdg).is_absolute() else home / ".config"


def manifest_dir(b: Browser, platform: Platform, home: PurePath,
                 env: Mapping[str, str] | None = None) -> PurePath | None:
    """User-level manifest directory of ``b`` on ``platform``; None on Windows (registry)."""
    env = env if env is not None else {}
    if platform == "win32":
        return None
    if platform == "darwin":
        sub = "NativeMessagingHosts"
        return home / "Library" / "Application Support" / b.mac_root / sub
    if b.family == "firefox":
        return home / ".mozilla" / "native-messaging-hosts"
    return _config_home(home, env) / b.linux_root / "NativeMessagingHosts"


def registry_key(b: Browser) -> str:
    """HKEY_CURRENT_USER subkey whose default value names the manifest file (Windows)."""
    return rf"{b.windows_key}\NativeMessagingHosts\{HOST_NAME}"


def profile_root(b: Browser, platform: Platform, home: PurePath,
                 env: Mapping[str, str] | None = None) -> PurePath:
    """Where the browser keeps its profiles; its existence means the browser was used."""
    env = env if env is not None else {}
    if platform == "darwin":
        return home / "Library" / "Application Support" / b.mac_root
    if platform == "win32":
        if b.family == "firefox":
            base = env.get("APPDATA") or str(home / "AppData" / "Roaming")
        else:
            base = env.get("LOCALAPPDATA") or str(home / "AppData" / "Local")
        return PureWindowsPath(base) / b.windows_profile
    if b.family == "firefox":
        return home / ".mozilla" / "firefox"
    return _config_home(home, env) / b.linux_root


def _used(root: Path, manifests: PurePath | None) -> bool:
    """Whether ``root`` shows the browser was used: it exists and holds more than the
    manifest folder that ``blocksift install`` itself may have created there (else one
    ``install --browser edge`` would make Edge "look installed" from then on)."""
    if not root.is_dir():
        return False
    ours = None
    if manifests is not None and Path(manifests).parent == root:
        ours = Path(manifests).name
    try:
        return any(child.name != ours for child in root.iterdir())
    except OSError:
        return True


def detect(platform: Platform, home: Path, env: Mapping[str, str] | None = None,
           which: Callable[[str], str | None] | None = None,
           candidates: Iterable[Browser] = BROWSERS) -> list[str]:
    """Browsers that look installed: a profile directory exists or (Linux) a command is on
    the PATH of ``env`` (none without one) or (macOS) the app bundle is in /Applications or
    ~/Applications."""
    env = env if env is not None else dict(os.environ)
    search = env.get("PATH", "")
    if which is None:
        which = (lambda command: shutil.which(command, path=search)) if search \
            else (lambda command: None)
    found = []
    for b in candidates:
        seen = _used(Path(profile_root(b, platform, home, env)),
                     manifest_dir(b, platform, home, env))
        if not seen and platform == "linux":
            seen = any(which(cmd) for cmd in b.commands)
        if not seen and platform == "darwin":
            seen = any((root / b.mac_app).is_dir() for root in (Path("/Applications"),
                                                                  home / "Applications"))
        if seen:
            found.append(b.name)
    return found


#: Sandboxed Linux packages of the browsers: (directory under $HOME, label, what works).
#: Sources are cited in docs/install.md, section "Flatpak and Snap browsers".
SANDBOXED: tuple[tuple[str, str, str], ...] = (
    ("snap/firefox", "Firefox (Snap)",
     ("native messaging goes through the WebExtensions portal, which reads the manifest "
      "install writes in ~/.mozilla/native-messaging-hosts; approve the prompt on first use")),
    ("snap/chromium", "Chromium (Snap)",
     "cannot start native hosts; use the WebSocket transport (`blocksift serve`)"),
    (".var/app/org.mozilla.firefox", "Firefox (Flatpak)",
     ("cannot start hosts outside its sandbox unless xdg-native-messaging-proxy runs "
      "(Firefox 157+); otherwise use `blocksift serve`")),
    (".var/app/org.chromium.Chromium", "Chromium (Flatpak)",
     "cannot start hosts outside its sandbox; use `blocksift serve`"),
    (".var/app/com.google.Chrome", "Google Chrome (Flatpak)",
     "cannot start hosts outside its sandbox; use `blocksift serve`"),
    (".var/app/com.microsoft.Edge", "Microsoft Edge (Flatpak)",
     "cannot start hosts outside its sandbox; use `blocksift serve`"),
    (".var/app/com.brave.Browser", "Brave (Flatpak)",
     "cannot start hosts outside its sandbox; use `blocksift serve`"),
)


def sandboxed_browsers(platform: Platform, home: Path) -> list[str]:
    """Notes on Snap/Flatpak browsers found under ``home`` (Linux only)."""
    if platform != "linux":
        return []
    return [f"{label} found in ~/{where}: {what} (see docs/install.md)"
            for where, label, what in SANDBOXED if (home / where).is_dir()]
