"""The reader HTML of the XSS corpus, as Chromium itself parses it: nothing runs.

Every ``auto`` output of ``xss_corpus`` is put into a page with ``innerHTML`` (as the reader
inserts HTML), with ``alert``/``confirm``/``prompt``/``print`` replaced by recorders. Then the
browser's own DOM is walked: no script-capable element, no handler or style attribute, no
href/src/cite that resolves to a script URL; and after image loads and errors have fired,
nothing was called. The same check on the unsanitized handler and link cases finds them,
so it can fail.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
playwright = pytest.importorskip("playwright.sync_api", reason="needs playwright (python)")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

from blocksift import algorithms  # noqa: E402
from blocksift.page import Page  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from xss_corpus import corpus, page  # noqa: E402

FLAGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu",
         "--host-resolver-rules=MAP * ~NOTFOUND"]
FORBIDDEN = ["script", "iframe", "object", "embed", "svg", "style", "link", "meta", "base",
             "form", "input", "button", "textarea", "template", "noscript", "frame",
             "frameset", "applet", "use", "animate", "set", "foreignobject"]
CHECK = """
([outputs, forbidden]) => {
  window.__calls = [];
  for (const f of ['alert', 'confirm', 'prompt', 'print']) window[f] = () => window.__calls.push(f);
  const found = {};
  for (const [name, html] of Object.entries(outputs)) {
    const holder = document.createElement('div');
    holder.innerHTML = html;
    document.body.appendChild(holder);
    const bad = [];
    for (const el of holder.querySelectorAll('*')) {
      const tag = el.localName;
      if (forbidden.includes(tag)) bad.push('<' + tag + '>');
      for (const a of el.attributes) {
        const n = a.name.toLowerCase();
        const v = a.value.replace(/[\\t\\n\\r]/g, '').trim().toLowerCase();
        if (n.startsWith('on') || ['style', 'srcdoc', 'formaction', 'action'].includes(n))
          bad.push(tag + ' ' + n);
        if (/(^|[\\s,])(javascript|vbscript):/.test(v)) bad.push(tag + ' ' + n + '=' + v);
      }
      for (const p of ['href', 'src', 'cite'])
        if (typeof el[p] === 'string' && /^(javascript|vbscript|data:text)/i.test(el[p]))
          bad.push(tag + '.' + p + ' = ' + el[p]);
    }
    if (bad.length) found[name] = bad;
  }
  return found;
}
"""


def in_chromium(outputs: dict[str, str]) -> tuple[dict[str, list[str]], list[str]]:
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            tab = browser.new_page()
            tab.set_content("<!DOCTYPE html><html><body></body></html>")
            found = tab.evaluate(CHECK, [outputs, FORBIDDEN])
            tab.wait_for_timeout(2000)  # image errors and loads fire their handlers, if any
            return found, tab.evaluate("window.__calls")
        finally:
            browser.close()


def test_chromium_finds_nothing_that_runs_in_the_reader_html():
    module = algorithms.load("auto")
    outputs = {name: module.extract(Page(page(name, fragment, where)), module.Params()).main.html
               for name, fragment, where in corpus()}
    found, calls = in_chromium(outputs)
    assert not found, list(found.items())[:10]
    assert calls == []


def test_the_browser_check_finds_unsanitized_handlers_and_links():
    raw = {name: fragment for name, fragment, _ in corpus()
           if name.startswith(("handler/", "url/a-href/"))}
    found, calls = in_chromium(raw)
    assert len(found) >= len(raw) * 0.9 and "alert" in calls
