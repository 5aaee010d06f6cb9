"""Drive the real extension in real browsers with the real host (see docs/extension.md).

* Chromium (Debian ``chromium``) through Playwright over CDP: unpacked extension loaded with
  ``--load-extension``, native host manifest in ``<user-data-dir>/NativeMessagingHosts``.
* Firefox ESR (Debian ``firefox-esr``) through its built-in WebDriver BiDi (no geckodriver):
  temporary add-on via ``webExtension.install``, host manifest in
  ``$HOME/.mozilla/native-messaging-hosts`` with a temporary ``HOME``.

Both expose the same small :class:`Browser`/:class:`Tab` interface so every test runs in
both. Actions are triggered the way a user does: the extension's popup page (opened in a
tab with ``?tabUrl=``) gets a click; tests then wait on the status the extension writes on
``<html data-blocksift-status>``, never on sleeps. The benchmark imports this module too.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

REPO = Path(__file__).resolve().parents[2]
EXTENSION_DIR = REPO / "extension"
HOST_NAME = "org.blocksift.host"
CHROMIUM_EXTENSION_ID = "ddhihlhollalmfcgjljfjkkgpdlgjdac"
GECKO_ID = "blocksift@blocksift.org"
#: Pinned through the ``extensions.webextensions.uuids`` pref so tests know the moz-extension URL.
FIREFOX_UUID = "6b1e5c1a-0b1d-4c3e-9a57-b10c5f7e0001"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FIREFOX = shutil.which("firefox-esr") or "/usr/bin/firefox-esr"

CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu",
    "--no-default-browser-check", "--disable-default-apps",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
]

FIREFOX_PREFS: dict[str, Any] = {
    "app.update.disabledForTesting": True,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "browser.safebrowsing.provider.google.updateURL": "",
    "browser.safebrowsing.provider.google4.updateURL": "",
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0,
    "network.trr.mode": 5,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False,
    "extensions.systemAddon.update.enabled": False,
    "browser.region.update.enabled": False,
    "services.settings.server": "data:,#remote-settings-dummy/v1",
    "media.gmp-manager.url": "",
    "media.gmp-manager.updateEnabled": False,
    "media.gmp-provider.enabled": False,
    "media.gmp-widevinecdm.enabled": False,
    "media.gmp-widevinecdm.visible": False,
    "media.gmp-widevinecdm.allow-chromium-update": False,
    "media.gmp-manager.chromium-update-url": "",
    "media.eme.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.page": 0,
    "browser.aboutwelcome.enabled": False,
    "extensions.webextensions.uuids": json.dumps({GECKO_ID: FIREFOX_UUID}),
}


def chromium_id_from_key(key_b64: str) -> str:
    """Chromium's extension id for a manifest ``key``: SHA-256 of the DER key, hex a-p."""
    digest = hashlib.sha256(base64.b64decode(key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


def browsers_available() -> dict[str, bool]:
    return {"chromium": Path(CHROMIUM).exists(), "firefox": Path(FIREFOX).exists()}


def build_extension(browser: str, out: Path) -> Path:
    """Build the unpacked extension with 127.0.0.1 granted (no user click in tests).

    For Firefox the popup/options/reader pages are also web-accessible to localhost: BiDi
    refuses to navigate to moz-extension:// itself, so a served page (the launchpad) opens them.
    """
    sys.path.insert(0, str(EXTENSION_DIR))
    try:
        import build as ext_build  # extension/build.py
    finally:
        sys.path.pop(0)
    # The launchpad that opens them is served as "localhost", another site than the pages
    # under test, so that a site rule a test sets for 127.0.0.1 never fires on it.
    expose = ("http://localhost/*",) if browser == "firefox" else ()
    return ext_build.build(browser, out, ("http://127.0.0.1/*",), expose)


# -- pages served on 127.0.0.1 ---------------------------------------------------------------


class Site:
    """A threaded static server over some folders; records hits on ``/__hit``."""

    def __init__(self, *roots: Path, headers: dict[str, str] | None = None):
        self.roots = [Path(r) for r in roots]
        self.headers = dict(headers or {})
        self.hits: list[dict[str, str]] = []
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def translate_path(self, path: str) -> str:
                rel = urlsplit(path).path.lstrip("/")
                for root in site.roots:
                    candidate = root / rel
                    if candidate.exists():
                        return str(candidate)
                return str(site.roots[0] / rel)

            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                parts = urlsplit(self.path)
                if parts.path == "/__hit":
                    site.hits.append({"query": parts.query, "referer": self.headers.get("Referer", ""),
                                      "origin": self.headers.get("Origin", "")})
                    self.send_response(204)
                    self.end_headers()
                    return
                super().do_GET()

            def guess_type(self, path: Any) -> str:
                kind = super().guess_type(path)
                return f"{kind}; charset=utf-8" if kind == "text/html" else kind

            def end_headers(self) -> None:
                self.send_header("Cache-Control", "no-store")
                for name, value in site.headers.items():
                    self.send_header(name, value)
                super().end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}/{path.lstrip('/')}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# -- the native host ---------------------------------------------------------------------


class HostInstall:
    """A launcher script for the real host plus the bookkeeping tests need (pids, logs)."""

    def __init__(self, workdir: Path):
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.pidfile = self.dir / "host.pids"
        self.home = self.dir / "blocksift-home"
        self.launcher = self.dir / "blocksift-host"
        self.launcher.write_text(
            "#!/bin/sh\n"
            f"echo $$ >> '{self.pidfile}'\n"
            f"export PYTHONPATH='{REPO / 'host'}'\n"
            f"export BLOCKSIFT_HOME='{self.home}'\n"
            f"exec '{sys.executable}' -m blocksift native\n", encoding="utf-8")
        self.launcher.chmod(0o755)

    def manifest(self, allowed: dict[str, list[str]]) -> dict[str, Any]:
        return {"name": HOST_NAME, "description": "blocksift host (tests)", "path": str(self.launcher),
                "type": "stdio", **allowed}

    def pids(self) -> list[int]:
        if not self.pidfile.exists():
            return []
        return [int(x) for x in self.pidfile.read_text().split()]

    def live_pids(self) -> list[int]:
        alive = []
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    state = fh.read().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    alive.append(pid)
            except OSError:
                pass
        return alive

    def signal_all(self, sig: int) -> list[int]:
        hit = []
        for pid in self.live_pids():
            try:
                os.kill(pid, sig)
                hit.append(pid)
            except ProcessLookupError:
                pass
        return hit


# -- a browser-independent interface --------------------------------------------------------


class Tab:
    """One browser tab: navigate, evaluate JS (JSON in, JSON out), wait, screenshot."""

    browser: Browser

    def navigate(self, url: str) -> None:
        raise NotImplementedError

    def evaluate(self, expression: str) -> Any:
        """Value of a JS expression (awaited), passed through JSON."""
        raise NotImplementedError

    def screenshot(self, path: Path) -> Path:
        raise NotImplementedError

    def activate(self) -> None:
        """Bring this tab to the front."""
        raise NotImplementedError

    def set_viewport(self, width: int, height: int) -> None:
        """Resize the page's viewport (CSS pixels)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    @property
    def url(self) -> str:
        return self.evaluate("location.href")

    def wait_for(self, expression: str, timeout: float = 30.0, interval: float = 0.01) -> Any:
        """Poll until ``expression`` is truthy (the extension's status); returns its value."""
        deadline = time.monotonic() + timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
                if value:
                    return value
            except Exception as err:  # navigation in progress: the context is being replaced
                last_error = err
            time.sleep(interval)
        raise TimeoutError(f"timed out after {timeout}s waiting for {expression!r}"
                           f" (last error: {last_error})")

    def status(self) -> dict[str, Any]:
        return self.evaluate(
            "Object.fromEntries([...document.documentElement.attributes]"
            ".filter(a => a.name.startsWith('data-blocksift-')).map(a => [a.name.slice(15), a.value]))")


class Browser:
    name: str
    extension_origin: str

    def new_tab(self, url: str | None = None) -> Tab:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def ext_url(self, path: str) -> str:
        return f"{self.extension_origin}/{path.lstrip('/')}"

    # -- actions, the way a user triggers them: a click in the popup --------------------

    def popup(self, target_url: str) -> Tab:
        tab = self.new_tab(self.ext_url(f"popup.html?tabUrl={quote(target_url, safe='')}"))
        tab.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
        return tab

    def act(self, page: Tab, action: str, *, timeout: float = 60.0,
            wait: bool = True) -> dict[str, Any]:
        """Click ``action`` (reader|hide|overlay) in the popup for ``page`` and wait for it.

        Returns the page's status attributes (for reader: the reader view's).
        """
        before = int(page.evaluate("+(document.documentElement.dataset.blocksiftSeq || 0)") or 0)
        target = page.url
        control = self.popup(target)
        try:
            control.evaluate(f"document.getElementById('act-{action}').click(), true")
            # The page's tab comes to the front, as after a real popup closes: a background
            # tab gets no animation frames in Firefox, and the reader view waits for one.
            page.activate()
            if not wait:
                return {}
            if action == "reader":
                # The tab becomes the reader view (or stays, with an error status).
                page.wait_for(
                    "(location.protocol.endsWith('extension:') && ['ready','error','missing','not-suitable']"
                    ".includes(document.documentElement.dataset.blocksiftStatus))"
                    f" || (+(document.documentElement.dataset.blocksiftSeq || 0) > {before}"
                    " && ['error','not-suitable'].includes(document.documentElement.dataset.blocksiftStatus))",
                    timeout=timeout)
            else:
                page.wait_for(f"+(document.documentElement.dataset.blocksiftSeq || 0) > {before}"
                              " && document.documentElement.dataset.blocksiftStatus !== 'working'",
                              timeout=timeout)
            return page.status()
        finally:
            control.close()

    def storage(self, area: str, key: str | None = None) -> Any:
        """Read the extension's storage from one of its pages."""
        tab = self.new_tab(self.ext_url("options.html"))
        try:
            tab.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
            arg = json.dumps(key)
            return tab.evaluate(f"(globalThis.browser ?? chrome).storage.{area}.get({arg})")
        finally:
            tab.close()


# -- Chromium via Playwright ------------------------------------------------------------------


class ChromiumTab(Tab):
    def __init__(self, browser: ChromiumBrowser, page: Any):
        self.browser = browser
        self.page = page

    def navigate(self, url: str) -> None:
        self.page.goto(url, wait_until="load")

    def evaluate(self, expression: str) -> Any:
        text = self.page.evaluate(f"async () => JSON.stringify(await ({expression}))")
        return None if text is None else json.loads(text)

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=False)
        return path

    def activate(self) -> None:
        self.page.bring_to_front()

    def set_viewport(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})

    def close(self) -> None:
        self.page.close()


class ChromiumBrowser(Browser):
    name = "chromium"

    def __init__(self, workdir: Path, host: HostInstall | None, *, register_host: bool = True,
                 launchpad: str = ""):
        from playwright.sync_api import sync_playwright

        self.workdir = workdir
        self.ext_dir = build_extension("chromium", workdir / "ext-chromium")
        self.profile = workdir / "chromium-profile"
        self.host = host
        self.manifest_path = self.profile / "NativeMessagingHosts" / f"{HOST_NAME}.json"
        if host and register_host:
            self.register_host()
        self._pw = sync_playwright().start()
        executable = "/usr/lib/chromium/chromium" if Path("/usr/lib/chromium/chromium").exists() else CHROMIUM
        try:
            self.context = self._pw.chromium.launch_persistent_context(
                str(self.profile), executable_path=executable, headless=True,
                viewport={"width": 1100, "height": 800},
                args=[*CHROMIUM_FLAGS, f"--disable-extensions-except={self.ext_dir}",
                      f"--load-extension={self.ext_dir}"])
            worker = next((w for w in self.context.service_workers
                           if w.url.startswith("chrome-extension://")), None)
            if worker is None:
                worker = self.context.wait_for_event("serviceworker", timeout=30000)
        except BaseException:
            self._pw.stop()
            raise
        self.extension_id = worker.url.split("/")[2]
        self.extension_origin = f"chrome-extension://{self.extension_id}"
        self._blank = self.context.pages[0] if self.context.pages else None

    def register_host(self) -> None:
        assert self.host is not None
        self.manifest_path.parent.mkdir(parents=True, exist_ok=True)
        manifest = self.host.manifest({"allowed_origins": [f"chrome-extension://{CHROMIUM_EXTENSION_ID}/"]})
        self.manifest_path.write_text(json.dumps(manifest), encoding="utf-8")

    def unregister_host(self) -> None:
        self.manifest_path.unlink(missing_ok=True)

    def new_tab(self, url: str | None = None) -> ChromiumTab:
        page = self.context.new_page()
        tab = ChromiumTab(self, page)
        if url:
            tab.navigate(url)
        return tab

    def stop_service_worker(self) -> None:
        """Stop the extension's service worker the way the browser does when idle."""
        page = self.context.new_page()
        try:
            cdp = self.context.new_cdp_session(page)
            cdp.send("ServiceWorker.enable")
            cdp.send("ServiceWorker.stopAllWorkers")
            cdp.detach()
        finally:
            page.close()

    def close(self) -> None:
        try:
            self.context.close()
        finally:
            self._pw.stop()


# -- Firefox via WebDriver BiDi ---------------------------------------------------------------


class Bidi:
    """A minimal synchronous WebDriver BiDi client (commands only; events ignored)."""

    def __init__(self, url: str):
        from websockets.sync.client import connect

        # websockets 17 wants connect() as a context manager; enter it by hand for a long-lived client.
        self._connection = connect(url, max_size=None, open_timeout=30)
        self.ws = self._connection.__enter__()
        self.next_id = 0
        self.lock = threading.Lock()

    def __call__(self, method: str, params: dict[str, Any] | None = None, timeout: float = 120) -> Any:
        with self.lock:
            self.next_id += 1
            ident = self.next_id
            self.ws.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
            deadline = time.monotonic() + timeout
            while True:
                message = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
                if message.get("id") != ident:
                    continue
                if message.get("type") == "error" or "error" in message and message.get("type") != "success":
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message.get("result")

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


class FirefoxTab(Tab):
    def __init__(self, browser: FirefoxBrowser, context: str):
        self.browser = browser
        self.context = context

    def navigate(self, url: str) -> None:
        if url.startswith("moz-extension:"):
            # BiDi refuses moz-extension:// targets; a served page navigates there instead.
            self.browser.bidi("browsingContext.navigate", {
                "context": self.context, "url": self.browser.launchpad, "wait": "complete"})
            for attempt in range(3):
                try:
                    self.evaluate(f"(location.href = {json.dumps(url)}, true)")
                    break
                except RuntimeError as err:
                    # Firefox now and then fails a script in a page that just loaded with an
                    # internal "unknown error"; the assignment is safe to repeat
                    if "unknown error" not in str(err) or attempt == 2:
                        raise
                    time.sleep(0.2)
            self.wait_for(f"location.href === {json.dumps(url)} && document.readyState === 'complete'")
            return
        try:
            self.browser.bidi("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})
        except RuntimeError as err:
            # A subframe the offline machine cannot load ("Address rejected") fails the
            # navigation command although the page itself loaded: check the page instead.
            if "Address rejected" not in str(err):
                raise
            self.wait_for(f"location.href === {json.dumps(url)} && document.readyState === 'complete'")

    def evaluate(self, expression: str) -> Any:
        result = self.browser.bidi("script.evaluate", {
            "expression": f"(async () => JSON.stringify(await ({expression})))()",
            "target": {"context": self.context}, "awaitPromise": True, "resultOwnership": "none"})
        if result.get("type") == "exception":
            details = result.get("exceptionDetails", {})
            raise RuntimeError(f"JS error: {details.get('text')}")
        value = result["result"]
        if value.get("type") != "string":
            return None
        return json.loads(value["value"])

    def screenshot(self, path: Path) -> Path:
        data = self.browser.bidi("browsingContext.captureScreenshot", {"context": self.context})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def activate(self) -> None:
        self.browser.bidi("browsingContext.activate", {"context": self.context})

    def set_viewport(self, width: int, height: int) -> None:
        self.browser.bidi("browsingContext.setViewport", {
            "context": self.context, "viewport": {"width": width, "height": height}})

    def close(self) -> None:
        self.browser.bidi("browsingContext.close", {"context": self.context})


class FirefoxBrowser(Browser):
    name = "firefox"

    def __init__(self, workdir: Path, host: HostInstall | None, *, register_host: bool = True,
                 extra_prefs: dict[str, Any] | None = None, launchpad: str = ""):
        self.workdir = workdir
        self.launchpad = launchpad  # any page served on 127.0.0.1
        self.ext_dir = build_extension("firefox", workdir / "ext-firefox")
        self.home = workdir / "firefox-home"
        self.profile = workdir / "firefox-profile"
        self.profile.mkdir(parents=True, exist_ok=True)
        self.host = host
        self.manifest_path = self.home / ".mozilla" / "native-messaging-hosts" / f"{HOST_NAME}.json"
        if host and register_host:
            self.register_host()
        prefs = {**FIREFOX_PREFS, **(extra_prefs or {})}
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items()),
            encoding="utf-8")
        port = _free_port()
        self.log = workdir / "firefox.log"
        self._log_file = self.log.open("wb")
        env = {**os.environ, "HOME": str(self.home), "MOZ_REMOTE_SETTINGS_DEVTOOLS": "1",
               "MOZ_CRASHREPORTER_DISABLE": "1"}
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--profile", str(self.profile), "--no-remote",
             f"--remote-debugging-port={port}", "--width=1100", "--height=800"],
            stdout=self._log_file, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            url = self._wait_for_bidi()
            self.bidi = Bidi(url + "/session")
            self.bidi("session.new", {"capabilities": {}})
            installed = self.bidi("webExtension.install",
                                  {"extensionData": {"type": "path", "path": str(self.ext_dir)}})
            assert installed["extension"] == GECKO_ID, installed
        except BaseException:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self._log_file.close()
            raise
        self.extension_origin = f"moz-extension://{FIREFOX_UUID}"

    def _wait_for_bidi(self, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace") if self.log.exists() else ""
            match = re.search(r"WebDriver BiDi listening on (ws://\S+)", text)
            if match:
                return match.group(1)
            if self.process.poll() is not None:
                raise RuntimeError(f"firefox exited early: {text[-2000:]}")
            time.sleep(0.05)
        raise TimeoutError("Firefox did not open WebDriver BiDi")

    def register_host(self) -> None:
        assert self.host is not None
        self.manifest_path.parent.mkdir(parents=True, exist_ok=True)
        manifest = self.host.manifest({"allowed_extensions": [GECKO_ID]})
        self.manifest_path.write_text(json.dumps(manifest), encoding="utf-8")

    def unregister_host(self) -> None:
        self.manifest_path.unlink(missing_ok=True)

    def new_tab(self, url: str | None = None) -> FirefoxTab:
        context = self.bidi("browsingContext.create", {"type": "tab"})["context"]
        tab = FirefoxTab(self, context)
        if url:
            tab.navigate(url)
        return tab

    def close(self) -> None:
        try:
            self.bidi("browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.bidi.close()
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self._log_file.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def launch(name: str, workdir: Path, host: HostInstall | None, **kwargs: Any) -> Iterator[Browser]:
    """Start ``chromium`` or ``firefox`` with the extension; close it (and its host) after."""
    browser: Browser = (ChromiumBrowser if name == "chromium" else FirefoxBrowser)(workdir, host, **kwargs)
    try:
        yield browser
    finally:
        browser.close()
        if host:
            host.signal_all(signal.SIGTERM)
