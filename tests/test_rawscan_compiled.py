"""The compiled tag scan and stamp (``_rawscan.pyx``) against the Python loops they stand in
for: the same tags, spans, ids, implied ends, closed-over elements and stamped text on random markup made of the
characters the grammar turns on, on every bundled page and, where the dev sets are beside
the clone, on every page of them."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from blocksift import rawscan
from blocksift.page import decode_html

needs_compiled = pytest.mark.skipif(rawscan._compiled_scan is None,
                                    reason="the compiled tag scan was not built "
                                           "(no C compiler at install)")
ROOT = Path(__file__).resolve().parents[1]
BUNDLED_PAGES = sorted([*(ROOT / "tests").glob("golden/*/source.html"),
                        *(ROOT / "tests" / "fixtures").rglob("*.html"),
                        *(ROOT / "examples").glob("*.html")])

#: Pieces of random markup: tag starts of every kind (end tags, comments and their abrupt
#: ends, doctypes, processing instructions, "</" before a non-letter), raw-text names in
#: several cases and with the two characters whose lower case holds an ASCII letter (the
#: Kelvin sign, a dotted capital I), quotes, "=", "/", white space of several kinds, the
#: stamped-id attribute in several cases, implied ends (p, li, table parts) and text.
PIECES = ["<", "</", ">", "<a", "<p", "<p ", "<div", "</div>", "</p>", "<li>", "</li", "<ul>",
          "<tr>", "<td>", "</table>", "<table>", "<br/>", "<img", "<!--", "-->", "--!>", "<!-->",
          "<!--->", "<!doctype html>", "<?xml", "</ ", "</>", "</1", '"', "'", "=", "/", " ",
          "\t", "\n", "\u00a0", "\u2003", "\x1c", "title", "TITLE", "Textarea", "xmp",
          "<iframe", "noembed", "NOFRAMES", "<plaintext", "<title>", "</title>", "<xmp ",
          "</xmp>", "<script", "<SCRIPT>", "<scripts", "</script>", "</Script\t>", "<!--<script>",
          "data-bsid", "DATA-BSID", "Data-BsId", 'data-bsid="n1"', "data-bsİd=x",
          "data-bsid=\u212a", "\u212a", "İ", "é", "_", "1", "x", "ab", "c=d", 'e="f g"',
          "h='i'", "j=", "k", "<A HREF=", "</A>", "<Div", "</DIV >", "<p/", "<p /"]


def _same(compiled: rawscan.TagScan, python: rawscan.TagScan) -> None:
    assert compiled.names == python.names
    assert list(compiled.starts) == list(python.starts)
    assert list(compiled.name_ends) == list(python.name_ends)
    assert list(compiled.tag_ends) == list(python.tag_ends)
    assert list(compiled.close_ends) == list(python.close_ends)
    assert compiled.ids == python.ids
    assert compiled.closed_over == python.closed_over
    assert compiled.length == python.length
    for offsets in (compiled.starts, compiled.name_ends, compiled.tag_ends,
                    compiled.close_ends):
        assert offsets.typecode == "q"


@needs_compiled
@pytest.mark.parametrize("seed", range(6))
def test_random_markup_scans_as_the_python_loop(seed: int):
    rng = random.Random(seed)
    tags = ids = closed_over = 0
    for _ in range(2000):
        raw = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 50)))
        for id_attr in ("data-bsid", "k", None):
            python = rawscan.scan_python(raw, id_attr)
            _same(rawscan.scan(raw, id_attr), python)
            assert rawscan.stamp(raw, python) == rawscan.stamp_python(raw, python)
            tags += len(python)
            ids += sum(found is not None for found in python.ids)
            closed_over += len(python.closed_over)
    assert tags and ids and closed_over  # the markup reached every kind of answer


@needs_compiled
@pytest.mark.parametrize("path", BUNDLED_PAGES, ids=lambda p: p.parent.name + "/" + p.name)
def test_bundled_pages_scan_as_the_python_loop(path: Path):
    raw = decode_html(path.read_bytes())
    python = rawscan.scan_python(raw)
    _same(rawscan.scan(raw), python)
    assert rawscan.stamp(raw, python) == rawscan.stamp_python(raw, python)


@needs_compiled
@pytest.mark.parametrize("name", ["wcxb-dev", "dragnet", "cleaneval-dev", "cleanportaleval",
                                  "zh-cwce"])
def test_dev_set_pages_scan_as_the_python_loop(name: str):
    from blocksift.evaluation.datasets import resolve

    try:
        path = resolve(name)
    except FileNotFoundError:
        pytest.skip("needs the shared dev datasets: set BLOCKSIFT_DATASETS or put "
                    "../shared/datasets beside the clone")
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines):
            if number % 4:  # every fourth page: the whole sets agree too, at four times the time
                continue
            raw = json.loads(line)["html"]
            python = rawscan.scan_python(raw)
            _same(rawscan.scan(raw), python)
            assert rawscan.stamp(raw, python) == rawscan.stamp_python(raw, python)


def test_without_the_compiled_scan_the_python_loop_scans(monkeypatch):
    monkeypatch.setattr(rawscan, "_compiled_scan", None)
    tags = rawscan.scan('<div data-bsid="d1"><p>one<p>two</div><script>"<a>"</script>')
    assert tags.names == ["div", "p", "p", "script"]
    assert tags.ids == ["d1", None, None, None]
    assert list(tags.close_ends)[1] == len('<div data-bsid="d1"><p>one')
    assert rawscan.stamp("<p>x<br>", rawscan.scan("<p>x<br>")) == (
        '<p data-bso="0">x<br data-bso="1">')
