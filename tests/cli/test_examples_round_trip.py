"""`blocksift examples export` then `examples import` into a fresh data dir: what a user gets
back, on real SQLite files, through the command line as a user runs it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from cli_process import EXAMPLE, blocksift

from blocksift.storage.examples import Example, ExampleStore

HTML = EXAMPLE.read_text(encoding="utf-8")
#: What each example holds, as compared after the round trip (not its number, which the
#: store it is imported into gives).
KEPT = ("url", "site", "title", "lang", "html", "main_text", "created", "algorithm")
#: What only `--with-blocks` writes: the marked blocks, the selected ids, and the output of
#: the algorithm the user corrected.
BLOCKS = ("blocks", "main_ids", "algorithm_output")


def _examples() -> list[Example]:
    output = {"status": "ok", "mainIds": ["12"], "text": "Gull Point",
              "blocks": [{"kind": "links", "ids": ["3"], "score": 0.8}]}
    return [
        Example(html=HTML, main_text="Gull Point keeps its light.", title="Gull Point light",
                url="https://gazette.example/coast/gull-point", lang="en",
                main_ids=["12", "13"], blocks=[{"kind": "links", "ids": ["3", "4"],
                                               "text": "Home News"}],
                algorithm="auto", algorithm_output=output, created=1_700_000_000.5),
        Example(html=HTML, main_text="", title="\u706f\u5854\u7684\u6545\u4e8b",
                url="https://www.crumb.example/2024/a?p=2", lang="zh",
                algorithm="linkblocks", created=1_700_000_100.25),
        # no address at all (a URL is not sent where the user turned that off)
        Example(html=HTML, main_text="Text of a page without its address.",
                title="Untitled page", created=1_700_000_200.0),
    ]


def _stored(path: Path) -> list[dict]:
    with ExampleStore(path) as store:
        return [{**{k: getattr(e, k) for k in KEPT + BLOCKS}} for e in store.all()]


@pytest.mark.parametrize("with_blocks", [False, True])
def test_an_export_imported_into_a_fresh_data_dir_gives_the_examples_back(tmp_path,
                                                                          with_blocks):
    """`examples export` without --with-blocks wrote no title, and an import stored every
    example dated the moment of the import, with no algorithm: the list of the copy showed
    the pages as their addresses, all saved at one minute. Now title, the date saved and the
    algorithm's name go in every export; --with-blocks adds the marked blocks, the selected
    ids and the corrected algorithm's output, and then nothing is lost."""
    first, second = tmp_path / "first", tmp_path / "second"
    with ExampleStore(first / "data" / "examples.sqlite3") as store:
        for example in _examples():
            store.save(example)
    exported = tmp_path / "out" / "pages.jsonl.gz"
    done = blocksift("examples", "export", str(exported),
                     *(["--with-blocks"] if with_blocks else []), home=first)
    assert done.returncode == 0, done.stderr
    done = blocksift("examples", "import", str(exported), "--no-progress", home=second)
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("imported 3 example(s)\n"), done.stderr

    before = _stored(first / "data" / "examples.sqlite3")
    after = _stored(second / "data" / "examples.sqlite3")
    assert [{k: row[k] for k in KEPT} for row in after] \
        == [{k: row[k] for k in KEPT} for row in before]
    assert after[0]["title"] == "Gull Point light" and after[1]["site"] == "crumb.example"
    if with_blocks:
        assert after == before
    else:  # the labels' details stay behind unless asked for
        assert all(row[k] in ([], {}) for row in after for k in BLOCKS), after
    # what the copy lists: the titles and the dates they were saved
    listed = blocksift("examples", "list", home=second).stdout
    assert "Gull Point light" in listed and "Untitled page" in listed, listed

    # the export file itself: still the shared datasets' format, one record a line
    records = [json.loads(line) for line in gzip.decompress(exported.read_bytes()).splitlines()]
    assert [r["gold"] for r in records] == [e.main_text for e in _examples()]
    assert [r["title"] for r in records] == [e.title for e in _examples()]
    assert all(("marked_blocks" in r) == with_blocks for r in records)
