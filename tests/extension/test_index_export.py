"""An index page's export, from the extension's module to the host's files: the HTML the reader
sends for an index (``indexExportHtml`` in extension/src/indexview.js, run in node) becomes, in
the host's renderers, the stories the reader shows, as a numbered list of links with teasers."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from blocksift import export

REPO = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs)")

DATA = {
    "pageKind": "index", "url": "https://courier.example/news/",
    "html": "<p>The volunteers were at sea within eight minutes.</p>",  # the main text, not shown
    "index": [
        {"title": "Lifeboat crew rescues two kayakers", "href": "/story/0",
         "teaser": "The volunteers were at sea within eight minutes of the call."},
        {"title": "New ferry timetable starts in April", "href": "/story/1", "teaser": ""},
        {"title": "Fish market *opens* on Sundays", "href": "https://courier.example/story/2",
         "teaser": "Traders voted to open from May."},
    ],
}


def export_html(data: dict) -> str | None:
    script = ("import { indexExportHtml } from " + json.dumps((REPO / "extension/src/indexview.js").as_uri())
              + "; process.stdout.write(JSON.stringify(indexExportHtml(JSON.parse(process.argv[1]))));")
    run = subprocess.run([NODE, "--input-type=module", "-e", script, json.dumps(data)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def article(html: str) -> export.Article:
    # as the host's session does for export.render / export.save
    return export.Article(title="The Coastal Courier", html=export.sanitize(html), url=DATA["url"],
                          site_name="The Coastal Courier")


@needs_node
def test_an_index_exports_its_stories_as_a_numbered_list_of_links_with_teasers() -> None:
    markdown = export.markdown(article(export_html(DATA)))
    body = markdown.split("\n---\n", 1)[1].strip()
    assert body == (
        "# The Coastal Courier\n\n"
        "1. [Lifeboat crew rescues two kayakers](https://courier.example/story/0)\n\n"
        "   The volunteers were at sea within eight minutes of the call.\n"
        "2. [New ferry timetable starts in April](https://courier.example/story/1)\n"
        "3. [Fish market \\*opens\\* on Sundays](https://courier.example/story/2)\n\n"
        "   Traders voted to open from May."), body
    page = export.standalone_html(article(export_html(DATA)))
    assert page.count("<li>") == 3 and 'href="https://courier.example/story/1"' in page


@needs_node
def test_an_article_exports_its_main_text() -> None:
    assert export_html({**DATA, "pageKind": "article"}) is None
    assert export_html({**DATA, "index": DATA["index"][:2]}) is None  # too few: the text is shown
