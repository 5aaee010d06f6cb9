"""Privileged messages come only from the extension's own pages (real Chromium, real host).

Each privileged message is sent from the extension's content-script world inside a web page
and from the web page itself, and must be refused; the labeler must ignore events the page
synthesizes. Chromium only: Playwright reaches the extension's service worker there.
"""

from __future__ import annotations

import re
from pathlib import Path

import e2e_harness as harness
import pytest
from test_labeling import UI, start_labeling, status, wait_status

PROTOCOL = {"RUN": "blocksift/run", "TAB_STATE": "blocksift/tab-state",
            "HOST_INFO": "blocksift/host-info", "READER_BACK": "blocksift/reader-back",
            "LABEL": "blocksift/label", "LABEL_SAVE": "blocksift/label-save",
            "EXAMPLES": "blocksift/examples", "EXPORT": "blocksift/export",
            "READER_OPENING": "blocksift/reader-opening"}


def privileged_messages(tab_id: int, export_to: Path) -> dict[str, dict]:
    return {
        "run": {"type": PROTOCOL["RUN"], "action": "hide", "tabId": tab_id},
        "tab-state": {"type": PROTOCOL["TAB_STATE"], "tabId": tab_id},
        "host-info": {"type": PROTOCOL["HOST_INFO"]},
        "reader-back": {"type": PROTOCOL["READER_BACK"], "tabId": tab_id, "url": "http://x/"},
        "label": {"type": PROTOCOL["LABEL"], "tabId": tab_id},
        "examples-list": {"type": PROTOCOL["EXAMPLES"], "op": "list"},
        "examples-get": {"type": PROTOCOL["EXAMPLES"], "op": "get", "exampleId": 1},
        "examples-delete": {"type": PROTOCOL["EXAMPLES"], "op": "delete", "exampleId": 1},
        "examples-export": {"type": PROTOCOL["EXAMPLES"], "op": "export",
                            "path": str(export_to)},
        # a page planting examples of its own making through the options page's Import
        "examples-import": {"type": PROTOCOL["EXAMPLES"], "op": "import", "uploadId": "planted",
                            "index": 0, "last": True, "name": "pages.jsonl",
                            "data": "eyJ1cmwiOiAiaHR0cDovL3gvIiwgImh0bWwiOiAiPHA+eDwvcD4iLCAiZ29s"
                                    "ZCI6ICJ4In0K"},
        # a page deleting the user's examples (and bringing back replaced labels) by
        # taking back an "import" of every id
        "examples-undo-import": {"type": PROTOCOL["EXAMPLES"], "op": "undoImport",
                                 "ranges": [[1, 1_000_000]]},
        "export-folder": {"type": PROTOCOL["EXPORT"], "kind": "folder",
                          "folder": str(export_to.parent)},
        "export-save": {"type": PROTOCOL["EXPORT"], "kind": "save", "format": "html",
                        "title": "stolen", "html": "<p>x</p>"},
        "overlay-other-tab": {"type": PROTOCOL["RUN"], "action": "overlay", "tabId": tab_id},
        "reader-opening": {"type": PROTOCOL["READER_OPENING"], "tabId": tab_id},
    }


# Runs inside the page as the extension's content script (the isolated world).
CONTENT_SCRIPT = """async (messages) => {
  const out = {};
  for (const [name, message] of Object.entries(messages)) {
    try { out[name] = await chrome.runtime.sendMessage(message); }
    catch (err) { out[name] = { thrown: String(err) }; }
  }
  // The training port: the background must hang up without reading it.
  out.train = await new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: "blocksift/train" });
    port.onMessage.addListener((m) => resolve({ answered: m }));
    port.onDisconnect.addListener(() => resolve({ disconnected: true }));
    port.postMessage({ train: { algorithm: "farsw" } });
  });
  return out;
}"""

# Evaluated in the extension's service worker: inject CONTENT_SCRIPT into the page's tab.
FROM_SERVICE_WORKER = """async (messages) => {
  const [tab] = await chrome.tabs.query({ url: "http://127.0.0.1/*" });
  const [injected] = await chrome.scripting.executeScript({
    target: { tabId: tab.id }, func: CONTENT_SCRIPT, args: [messages] });
  return injected.result;
}""".replace("CONTENT_SCRIPT", CONTENT_SCRIPT)


@pytest.fixture()
def chromium(tmp_path: Path, host: harness.HostInstall, site: harness.Site):
    reason = None if harness.browsers_available()["chromium"] else "chromium is not installed"
    if reason:
        pytest.skip(reason)
    pytest.importorskip("playwright")
    with harness.launch("chromium", tmp_path, host) as browser:
        yield browser


def _service_worker(browser: harness.ChromiumBrowser):
    for worker in browser.context.service_workers:
        if worker.url.startswith(browser.extension_origin):
            return worker
    return browser.context.wait_for_event("serviceworker", timeout=30000)


def test_privileged_messages_from_a_content_script_are_refused(chromium, site, tmp_path):
    page = chromium.new_tab(site.url("article.html"))
    worker = _service_worker(chromium)
    export_to = tmp_path / "stolen" / "pages.jsonl"
    tab_id = worker.evaluate("async () => (await chrome.tabs.query({url: 'http://127.0.0.1/*'}))[0].id")
    messages = privileged_messages(tab_id, export_to)
    replies = worker.evaluate(FROM_SERVICE_WORKER, messages)
    for name in messages:
        reply = replies[name]
        assert reply.get("ok") is False, (name, reply)
        assert reply["error"]["code"] == "forbidden", (name, reply)
        assert "extension's own pages" in reply["error"]["message"]
    assert replies["train"] == {"disconnected": True}
    assert not export_to.exists() and not export_to.parent.exists()
    assert page.evaluate("document.documentElement.dataset.blocksiftStatus || ''") == ""
    # The same messages from the extension's own page are served (the check is not a wall).
    options = chromium.new_tab(chromium.ext_url("options.html"))
    options.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    listed = options.evaluate("chrome.runtime.sendMessage({type: 'blocksift/examples', op: 'list'})")
    assert listed["ok"] is True and listed["value"]["type"] == "examples.list", listed


def test_a_web_page_cannot_reach_the_background(chromium, site):
    page = chromium.new_tab(site.url("article.html"))
    extension_id = chromium.extension_id
    reach = page.page.evaluate("""async (id) => {
      const runtime = globalThis.chrome?.runtime;
      if (!runtime?.sendMessage) return { refused: "no chrome.runtime.sendMessage in a web page" };
      try {
        const reply = await runtime.sendMessage(id, { type: "blocksift/examples", op: "export",
                                                      path: "/tmp/blocksift-stolen.jsonl" });
        return { reply };
      } catch (err) { return { refused: String(err) }; }
    }""", extension_id)
    assert "refused" in reach, reach
    assert not Path("/tmp/blocksift-stolen.jsonl").exists()


def test_the_labeler_ignores_events_the_page_synthesizes(chromium, site):
    page = chromium.new_tab(site.url("label.html"))
    page.wait_for("document.readyState === 'complete'")
    outcome = start_labeling(chromium, page)
    assert outcome["status"] == "done", outcome
    before = wait_status(page, "labeling")
    page.evaluate("""(() => {
      const target = document.querySelector('#p2');
      for (const type of ['mouseover', 'mousedown', 'mouseup', 'click'])
        target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window }));
      target.click();
      for (const key of ['l', 'a', 'Enter', 'ArrowUp'])
        window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true }));
      return true;
    })()""")
    page.evaluate(f"{UI}.querySelector('button[data-action=links]')?.click(), "
                  f"{UI}.querySelector('button[data-action=save]').click(), true")
    after = status(page)
    assert after["status"] == "labeling", after  # nothing was saved
    for key in ("label-chars", "label-main", "label-links", "label-mode"):
        assert after.get(key) == before.get(key), (key, before, after)
    assert page.evaluate(f"!!{UI}")  # the toolbar is still there


def test_every_internal_message_is_covered():
    """A new internal message type must be added here (and so to the refusal test)."""
    source = (harness.REPO / "extension" / "src" / "protocol.js").read_text(encoding="utf-8")
    block = source[source.index("export const MSG"):source.index("});", source.index("export const MSG"))]
    assert dict(re.findall(r'(\w+): "(blocksift/[^"]+)"', block)) == PROTOCOL


def test_the_options_page_reports_a_damaged_store_and_repairs_it(tmp_path, host, site):
    if not harness.browsers_available()["chromium"]:
        pytest.skip("chromium is not installed")
    pytest.importorskip("playwright")
    damaged = host.home / "data" / "examples.sqlite3"
    damaged.parent.mkdir(parents=True, exist_ok=True)
    damaged.write_bytes(b"not a database, a damaged file" * 300)
    with harness.launch("chromium", tmp_path, host) as browser:
        options = browser.new_tab(browser.ext_url("options.html"))
        options.wait_for("document.documentElement.dataset.examplesStatus === 'error'")
        listed = options.evaluate("document.getElementById('examples-empty').textContent")
        assert "repair" in listed.lower(), listed
        options.evaluate("document.getElementById('check-host').click(), true")
        options.wait_for("document.documentElement.dataset.storeProblems === '1'")
        shown = options.evaluate("document.getElementById('store-problems').textContent")
        assert "examples database" in shown and "examples repair" in shown, shown
        options.screenshot(tmp_path / "store-problem.png")
        options.evaluate("document.getElementById('repair-examples').click(), true")
        options.wait_for("document.documentElement.dataset.repairStatus === 'done'")
        result = options.evaluate("document.getElementById('repair-result').textContent")
        assert "kept at" in result and ".corrupt-" in result, result
        options.evaluate("document.getElementById('examples-refresh').click(), true")
        options.wait_for("document.documentElement.dataset.examplesStatus === 'ready'")
        assert options.evaluate("document.documentElement.dataset.examplesCount") == "0"
