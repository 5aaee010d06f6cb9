"""Reading a page's JSON-LD: broken or too deeply nested scripts are skipped, never raised."""

from __future__ import annotations

import json
import re

from blocksift import json_ld
from blocksift.page import Page


def _page(*scripts: str, kind: str = "application/ld+json") -> Page:
    head = "".join(f"<script type='{kind}'>{text}</script>" for text in scripts)
    return Page(f"<html><head>{head}</head><body><p>text</p></body></html>")


def test_each_script_that_parses_is_read_in_document_order():
    page = _page('{"@type": "Article"}', "[1, 2", '[{"@type": "Person"}]',
                 "[" * 50_000 + "]" * 50_000, '{"name": "line one\nline two"}')
    assert list(json_ld.documents(page.tree)) == [
        {"@type": "Article"}, [{"@type": "Person"}], {"name": "line one\nline two"}]


def test_scripts_of_other_types_are_not_read_and_a_filter_skips_before_parsing():
    assert list(json_ld.documents(_page('{"a": 1}', kind="application/json").tree)) == []
    page = _page('{"@type": "Product"}', '{"@type": "Article"}')
    assert list(json_ld.documents(page.tree, holding=re.compile("Product"))) == [
        {"@type": "Product"}]


def test_objects_come_parents_first_in_document_order():
    data = json.loads('{"@graph": [{"@type": "A", "author": {"@type": "B"}}, [{"@type": "C"}]],'
                      ' "x": 1, "y": {"@type": "D"}}')
    assert [node.get("@type") for node in json_ld.objects(data)] == [None, "A", "B", "C", "D"]
    assert list(json_ld.objects("text")) == [] and list(json_ld.objects([1, "a"])) == []


def test_objects_walk_any_depth_without_recursion():
    deep: object = {"@type": "Leaf"}
    for _ in range(20_000):  # far past Python's recursion limit
        deep = [{"@type": "Wrap", "inner": deep}]
    found = list(json_ld.objects(deep))
    assert len(found) == 20_001 and found[-1] == {"@type": "Leaf"}
