"""One site key: a labeled example's per-site rule is found whatever spelling its URL has."""

from __future__ import annotations

import random

import pytest

from blocksift import sites
from blocksift.algorithms import farsw, linkblocks
from blocksift.evaluation import crossval
from blocksift.evaluation.datasets import LabeledPage, iter_pages
from blocksift.page import Page
from blocksift.storage.examples import Example, ExampleStore

#: One site written every way a URL can write it: port, user info, www., case, trailing
#: dot, the Unicode and the xn-- form of an internationalized name.
SPELLINGS = [
    "https://bücher.example/story/{k}",
    "http://user:secret@www.bücher.example:8080/story/{k}",
    "https://xn--bcher-kva.example/story/{k}",
    "https://WWW.BÜCHER.EXAMPLE./story/{k}",
    "http://user@www.xn--bcher-kva.example/story/{k}?q=1#top",
]


@pytest.mark.parametrize("url, key", [
    ("https://example.com/a", "example.com"),
    ("https://www.example.com:8443/a", "example.com"),
    ("http://user:pw@www.Example.COM/a", "example.com"),
    ("http://user@news.example.com./a", "news.example.com"),
    ("https://xn--bcher-kva.example/", "bücher.example"),
    ("https://BÜCHER.example/", "bücher.example"),
    ("https://www/", "www"),
    ("/relative/path", None),
    ("", None),
    (None, None),
    ("http://[::1", None),
])
def test_site_key_of_every_spelling(url, key):
    assert sites.site_key(url) == key


WORDS = ("harbour lights town quay band night evening council bridge river market square "
         "festival mayor crowd music lanterns boats tide season").split()


def story(rng: random.Random, site: str) -> tuple[str, str]:
    """A news-like page and its gold text."""
    def sentence() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(9, 16))).capitalize() + "."
    title = sentence()
    paragraphs = [" ".join(sentence() for _ in range(rng.randint(2, 5))) for _ in range(6)]
    nav = "\n".join(f'<li><a href="/s{j}">{rng.choice(WORDS)}</a></li>' for j in range(8))
    body = "\n".join(f"<p>{p}</p>" for p in paragraphs)
    html = (f"<html><head><title>{title}</title></head><body>\n<ul>\n{nav}\n</ul>\n"
            f"<div class=\"story\">\n<h1>{title}</h1>\n{body}\n</div>\n"
            f"<p>Copyright {site}</p>\n</body></html>")
    return html, "\n".join([title, *paragraphs])


@pytest.mark.parametrize("labeled_as", SPELLINGS)
def test_a_labeled_examples_rule_is_found_under_every_spelling(tmp_path, labeled_as):
    rng = random.Random(7)
    with ExampleStore(tmp_path / "examples.sqlite3") as store:
        for k in range(4):
            html, gold = story(rng, "bücher")
            store.add(Example(html=html, main_text=gold, url=labeled_as.format(k=k)))
        for k in range(4):  # another site, so the rule found is the right one
            html, gold = story(rng, "other")
            store.add(Example(html=html, main_text=gold, url=f"https://other.example/{k}"))
        exported = tmp_path / "examples.jsonl"
        store.export(exported)
    model = farsw.train(iter_pages(exported), farsw.Params(), per_site=True,
                        min_site_pages=2)
    assert sorted(model.sites) == ["bücher.example", "other.example"]
    html, _ = story(random.Random(99), "bücher")
    for spelling in SPELLINGS:
        url = spelling.format(k=100)
        assert model.ruleset_for(url)[1] == "bücher.example"
        result = farsw.extract(Page(html, url=url), farsw.Params(), model)
        assert result.stage.startswith("site:bücher.example")
    assert model.ruleset_for("https://xn--bcher-kva.example.org/")[1] == ""


def test_every_component_computes_the_same_site():
    keys = set()
    for spelling in SPELLINGS:
        url = spelling.format(k=1)
        keys.add(sites.site_key(url))
        keys.add(Example(html="<p>x</p>", main_text="x", url=url).site)
        keys.add(crossval._site_of(LabeledPage(id="p", html="", gold="", url=url), "set"))
        keys.add(farsw._host(url))
    assert keys == {"bücher.example"}


def test_linkblocks_external_links_use_the_same_host_reading():
    raw = ('<a href="http://user@www.bücher.example:81/a">1</a>'
           '<a href="https://xn--bcher-kva.example/b">2</a>'
           '<a href="https://ads.other.example/c">3</a>')
    links = linkblocks.scan_links(raw)
    external = linkblocks.external_links(raw, links, "https://BÜCHER.example/page")
    assert [linkblocks.link_href(raw, link) for link in external] == [
        "https://ads.other.example/c"]
