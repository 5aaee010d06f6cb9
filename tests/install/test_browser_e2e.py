"""Registration seen by real browsers: what ``blocksift install`` writes lets our extension
(id fixed by its ``key`` / gecko id) start the real host, and no other extension.

A tiny extension is generated in tmp_path (the product extension is tested in tests/e2e);
it only calls ``connectNative("org.blocksift.host")`` and sends a hello frame.
Recipe: /work/shared/notes/browser-testing.md sections 2, 3 and 6.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from install_support import PUBLIC_KEY_B64, posix_only

from blocksift.registration import (
    CHROMIUM_EXTENSION_ID,
    FIREFOX_EXTENSION_ID,
    HOST_NAME,
    apply_install,
    plan_install,
)
from blocksift.registration.apply import launcher_pythonpath

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox") or "/usr/bin/firefox-esr"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--disable-quic", "--disable-gpu", "--no-default-browser-check",
                  "--disable-default-apps",
                  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost"]

pytestmark = [pytest.mark.e2e, pytest.mark.slow, posix_only]

HELLO_JS = """
const api = globalThis.browser ?? globalThis.chrome;
function askHost() {
  return new Promise((resolve) => {
    let port;
    try { port = api.runtime.connectNative("org.blocksift.host"); }
    catch (e) { resolve({error: String(e)}); return; }
    port.onMessage.addListener((m) => { resolve(m); port.disconnect(); });
    port.onDisconnect.addListener((p) => resolve({
      error: (p && p.error && p.error.message) ||
             (api.runtime.lastError && api.runtime.lastError.message) || "disconnected"}));
    port.postMessage({type: "hello", id: "e2e-hello", client: "registration-e2e"});
  });
}
"""


def write_extension(root: Path, *, key: str | None, report_url: str | None = None) -> Path:
    manifest: dict[str, Any] = {
        "manifest_version": 3, "name": "blocksift registration probe", "version": "0.0.1",
        "permissions": ["nativeMessaging"],
        "background": {"service_worker": "background.js", "scripts": ["background.js"]},
        "browser_specific_settings": {"gecko": {"id": FIREFOX_EXTENSION_ID}},
    }
    if key is not None:
        manifest["key"] = key
    root.mkdir(parents=True)
    (root / "manifest.json").write_text(json.dumps(manifest))
    script = HELLO_JS
    if report_url:  # Firefox: report the answer to the test's HTTP server
        script += (f"askHost().then((m) => fetch({json.dumps(report_url)}, "
                   "{method: 'POST', body: JSON.stringify(m)}));\n")
    (root / "background.js").write_text(script)
    return root


def register(home: Path, data_dir: Path, browser: str, user_data_dir: Path | None = None) -> None:
    plan = plan_install([browser], platform="linux", home=home, data_dir=data_dir,
                        python=sys.executable, pythonpath=launcher_pythonpath(sys.executable),
                        env={}, user_data_dir=user_data_dir)
    apply_install(plan, data_dir)


def chromium_answer(ext_dir: Path, profile: Path) -> tuple[str, dict[str, Any]]:
    """Start Chromium with the extension; return its id and the host's answer."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True,
            args=[*CHROMIUM_FLAGS, f"--disable-extensions-except={ext_dir}",
                  f"--load-extension={ext_dir}"])
        try:
            worker = next((w for w in ctx.service_workers
                           if w.url.startswith("chrome-extension://")), None) \
                or ctx.wait_for_event("serviceworker", timeout=30_000)
            ext_id = worker.url.split("/")[2]
            answer = worker.evaluate(HELLO_JS + "askHost()")
        finally:
            ctx.close()
    return ext_id, answer


@pytest.fixture
def chromium_ready() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="pip install playwright")


def test_chromium_user_data_dir_registration_reaches_the_host(
        chromium_ready: None, home: Path, data_dir: Path, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    register(home, data_dir, "chromium", user_data_dir=profile)
    ext_id, answer = chromium_answer(write_extension(tmp_path / "ext", key=PUBLIC_KEY_B64),
                                     profile)
    assert ext_id == CHROMIUM_EXTENSION_ID
    assert answer.get("type") == "hello", answer
    assert answer.get("id") == "e2e-hello" and answer.get("protocol") == 1


def test_chromium_refuses_an_extension_with_another_id(
        chromium_ready: None, home: Path, data_dir: Path, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    register(home, data_dir, "chromium", user_data_dir=profile)
    ext_id, answer = chromium_answer(write_extension(tmp_path / "ext", key=None), profile)
    assert ext_id != CHROMIUM_EXTENSION_ID
    assert "forbidden" in answer.get("error", ""), answer


def test_chromium_is_told_how_to_fix_a_removed_virtualenv(
        chromium_ready: None, home: Path, data_dir: Path, tmp_path: Path) -> None:
    """The venv that ran install is gone: the extension gets the launcher's error frame
    (which command fixes it), not just "Native host has exited"."""
    profile = tmp_path / "profile"
    gone = tmp_path / "removed-venv" / "bin" / "python3"
    plan = plan_install(["chromium"], platform="linux", home=home, data_dir=data_dir,
                        python=str(gone), env={}, user_data_dir=profile)
    apply_install(plan, data_dir)
    _, answer = chromium_answer(write_extension(tmp_path / "ext", key=PUBLIC_KEY_B64), profile)
    assert answer.get("type") == "error", answer
    assert str(gone) in answer["message"] and "blocksift install" in answer["message"]


def test_chromium_without_registration_finds_no_host(
        chromium_ready: None, tmp_path: Path) -> None:
    _, answer = chromium_answer(write_extension(tmp_path / "ext", key=PUBLIC_KEY_B64),
                                tmp_path / "profile")
    assert "not found" in answer.get("error", ""), answer


# -- Firefox (WebDriver BiDi, no geckodriver; browser-testing.md section 6) -----------------

FIREFOX_PREFS = {
    "app.update.disabledForTesting": True, "browser.shell.checkDefaultBrowser": False,
    "browser.startup.page": 0, "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False, "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False, "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False, "network.dns.disablePrefetch": True,
    "network.prefetch-next": False, "network.http.speculative-parallel-limit": 0,
    "network.trr.mode": 5, "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False, "extensions.blocklist.enabled": False,
    "extensions.systemAddon.update.enabled": False, "browser.region.update.enabled": False,
    "services.settings.server": "data:,#remote-settings-dummy/v1",
    "media.gmp-manager.url": "", "media.gmp-manager.updateEnabled": False,
    "media.gmp-provider.enabled": False, "media.eme.enabled": False,
    "browser.safebrowsing.malware.enabled": False, "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def report_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A loopback HTTP server collecting what the probe extension POSTs."""
    received: list[dict[str, Any]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            received.append(json.loads(body or b"{}"))
            self.send_response(204)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/report", received
    finally:
        server.shutdown()
        server.server_close()


def firefox_install_and_wait(home: Path, profile: Path, ext_dir: Path,
                             received: list[dict[str, Any]], wait_s: float = 30.0,
                             data_type: str = "path") -> str:
    """Start Firefox with HOME=home, install the probe as a temporary add-on over BiDi, wait
    for its report; returns the add-on id Firefox gave."""
    from websockets.sync.client import connect

    profile.mkdir()
    (profile / "user.js").write_text("".join(
        f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items()))
    port = _free_port()
    env = dict(os.environ, HOME=str(home), MOZ_REMOTE_SETTINGS_DEVTOOLS="1",
               MOZ_CRASHREPORTER_DISABLE="1")
    proc = subprocess.Popen([FIREFOX, "--headless", "--profile", str(profile), "--no-remote",
                             f"--remote-debugging-port={port}"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        ws = None
        while ws is None:
            try:
                ws = connect(f"ws://127.0.0.1:{port}/session", open_timeout=5)
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.3)
        with ws:
            counter = iter(range(1, 1000))

            def call(method: str, params: dict[str, Any]) -> dict[str, Any]:
                msg_id = next(counter)
                ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
                while True:
                    reply = json.loads(ws.recv(timeout=60))
                    if reply.get("id") == msg_id:
                        if reply.get("type") == "error":
                            raise RuntimeError(f"{method}: {reply}")
                        return reply["result"]

            call("session.new", {"capabilities": {}})
            added = call("webExtension.install",
                         {"extensionData": {"type": data_type, "path": str(ext_dir)}})
            end = time.monotonic() + wait_s
            while not received and time.monotonic() < end:
                time.sleep(0.2)
            with contextlib.suppress(Exception):
                call("browser.close", {})
        return str(added.get("extension"))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 9)
        proc.wait(timeout=30)


@pytest.mark.parametrize("packed", [False, True], ids=["unpacked", "packed-xpi"])
def test_firefox_home_registration_reaches_the_host(home: Path, data_dir: Path,
                                                    tmp_path: Path, packed: bool) -> None:
    """Firefox with HOME holding our manifest lets the add-on start the host; the packed
    variant installs the .xpi that install/pack.py made from the same folder."""
    if not Path(FIREFOX).exists():
        pytest.skip("Firefox is not installed (apt-get install firefox-esr)")
    pytest.importorskip("websockets.sync.client")
    register(home, data_dir, "firefox")
    assert (home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json").is_file()
    with report_server() as (url, received):
        ext = write_extension(tmp_path / "ext", key=PUBLIC_KEY_B64, report_url=url)
        data_type = "path"
        if packed:
            from test_pack import pack_module

            ext = pack_module.pack("firefox", tmp_path / "dist", ext)
            data_type = "archivePath"
        gecko_id = firefox_install_and_wait(home, tmp_path / "ff-profile", ext, received,
                                            data_type=data_type)
    assert gecko_id == FIREFOX_EXTENSION_ID
    assert received, "the probe extension never reported"
    assert received[0].get("type") == "hello", received[0]
    assert received[0].get("id") == "e2e-hello"


def test_firefox_is_told_how_to_fix_a_removed_virtualenv(home: Path, data_dir: Path,
                                                        tmp_path: Path) -> None:
    """As for Chromium: the add-on gets the launcher's error frame, which the launcher must
    not race by exiting before Firefox has written the hello and read the frame."""
    if not Path(FIREFOX).exists():
        pytest.skip("Firefox is not installed (apt-get install firefox-esr)")
    pytest.importorskip("websockets.sync.client")
    gone = tmp_path / "removed-venv" / "bin" / "python3"
    apply_install(plan_install(["firefox"], platform="linux", home=home, data_dir=data_dir,
                               python=str(gone), env={}), data_dir)
    with report_server() as (url, received):
        ext = write_extension(tmp_path / "ext", key=PUBLIC_KEY_B64, report_url=url)
        firefox_install_and_wait(home, tmp_path / "ff-profile", ext, received)
    assert received, "the probe extension never reported"
    assert received[0].get("type") == "error", received[0]
    assert str(gone) in received[0]["message"]
    assert "blocksift install" in received[0]["message"]
