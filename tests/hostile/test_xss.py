"""Reader-view sanitizing against a generated corpus of hostile inputs (``xss_corpus``).

Each case is an article page with one hostile fragment inside the story. It goes through
``auto`` with HTML output (the reader view's default: :func:`blocksift.content.sanitized_html`)
and the output is parsed with lxml: no element or attribute that can run script, load active
content or leave the reader (``xss_check``) may survive. The story around the fragment must
be in the output, so a case cannot pass by being left out.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import nh3
import pytest

from blocksift import algorithms, content
from blocksift.page import Page

sys.path.insert(0, str(Path(__file__).resolve().parent))
from xss_check import problems  # noqa: E402
from xss_corpus import corpus, page  # noqa: E402

CASES = corpus()
CATEGORIES = sorted({name.split("/")[0] for name, _, _ in CASES})


def test_corpus_covers_every_category():
    counts = Counter(name.split("/")[0] for name, _, _ in CASES)
    assert len(CASES) >= 300
    assert set(counts) == {"url", "handler", "mxss", "css", "document"}
    contexts = {name.split("/")[1] for name, _, _ in CASES if name.startswith("url/")}
    for attribute in ("srcset", "cite", "action", "formaction", "poster", "background",
                      "xlink", "math"):
        assert any(attribute in context for context in contexts), attribute


def test_the_check_finds_what_it_looks_for():
    """Unsanitized, nearly every case is caught; a check that finds nothing proves nothing."""
    missed = [name for name, fragment, _ in CASES if not problems(fragment)]
    # data:image/ in an image, text in a title, a tag name the parser does not know, a
    # protocol-relative link: not script, left alone by the check on purpose
    assert len(missed) <= 15, missed
    assert all(problems(fragment) for name, fragment, _ in CASES
               if name.startswith("url/") and "/js" in name)


@pytest.fixture(scope="module")
def auto_outputs() -> dict[str, str]:
    module = algorithms.load("auto")
    params = module.Params()
    outputs = {}
    for name, fragment, where in CASES:
        result = module.extract(Page(page(name, fragment, where)), params)
        outputs[name] = result.main.html if result.main else ""
    return outputs


@pytest.mark.parametrize("category", CATEGORIES)
def test_auto_reader_html_keeps_no_script(auto_outputs, category):
    mine = {name: out for name, out in auto_outputs.items() if name.startswith(category + "/")}
    surviving = {name: found for name, out in mine.items() if (found := problems(out))}
    assert not surviving, f"{len(surviving)}/{len(mine)} outputs keep script: " + "; ".join(
        f"{name}: {found[:2]}" for name, found in list(surviving.items())[:10])
    # the story that holds the fragment was rendered, so the fragment went through
    assert all("Storymark" in out for out in mine.values()), [
        name for name, out in mine.items() if "Storymark" not in out][:10]


def test_reader_html_is_a_fixed_point_of_the_sanitizer(auto_outputs):
    """Sanitizing the output again (html5ever, a browser's parsing rules) changes nothing:
    no markup that a second parse would turn into something else (mutation XSS)."""
    changed = [name for name, out in auto_outputs.items() if out != nh3.clean(
        out, tags=content.SAFE_TAGS, attributes=content.SAFE_ATTRIBUTES,
        attribute_filter=content.safe_url_attribute, url_schemes=content.SAFE_URL_SCHEMES,
        link_rel="noopener noreferrer", strip_comments=True)]
    assert not changed, changed[:10]


def test_whole_body_through_the_sanitizer_keeps_no_script():
    """Every fragment reaches the sanitizer, whatever an algorithm chooses: the whole body."""
    surviving = {}
    for name, fragment, where in CASES:
        parsed = Page(page(name, fragment, where))
        found = problems(content.sanitized_html(parsed, [parsed.body]))
        if found:
            surviving[name] = found
    assert not surviving, list(surviving.items())[:10]


@pytest.mark.parametrize("value", [
    "java\tscript:alert(1) 2x", "/ok.png 1x, jav\nascript:alert(1) 2x",
    "JAVASCRIPT:alert(1)", "data:text/html,x 1x", " vbscript:x",
])
def test_srcset_refuses_a_script_url_however_split(value):
    assert content.safe_url_attribute("img", "srcset", value) is None


@pytest.mark.parametrize("value", ["/a.png 1x, /b.png 2x", "a.png 1x,\nb.png 2x",
                                   "https://x.test/a.png 640w", "data:image/png;base64,AA 1x"])
def test_srcset_keeps_ordinary_candidates(value):
    assert content.safe_url_attribute("img", "srcset", value) == value

