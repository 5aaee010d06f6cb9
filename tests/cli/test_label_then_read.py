"""The label-then-read loop from the command line: what a saved label changes in `extract`,
`batch`, `examples` and `train auto --per-site`, as a user meets it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import DATASET, REPO, blocksift


def records() -> list[dict]:
    return [json.loads(line) for line in (DATASET / "pages.jsonl").read_text().splitlines()]


def test_train_auto_per_site_adapts_a_site_of_one_page_as_a_saved_example_does(tmp_path):
    """One example saved in the browser adapts its site; `train auto --per-site` left a site
    with one page out (--min-site-pages was 2) and, with no site of two, failed."""
    page = next(r for r in records() if r["url"].startswith("https://gazette.example/"))
    dataset = tmp_path / "one.jsonl"
    dataset.write_text(json.dumps(page) + "\n", encoding="utf-8")
    done = blocksift("train", "auto", "--per-site", "--dataset", str(dataset), "--no-progress",
                     home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "gazette.example: 1 page -> " in done.stdout, done.stdout
    site_file = tmp_path / "data" / "models" / "auto-sites" / "gazette.example.json"
    assert json.loads(site_file.read_text())["pages"] == 1
    # asked for more, a site of one page is still left out, and the error says how many
    done = blocksift("train", "auto", "--per-site", "--min-site-pages", "2", "--dataset",
                     str(dataset), "--no-progress", home=tmp_path / "other")
    assert done.returncode == 1 and "no site has 2 labeled pages" in done.stderr, done.stderr


def test_delete_drops_an_earlier_label_that_show_shows(tmp_path):
    """`examples show ID` shows an earlier label a relabel replaced (kept restorable), and
    `examples delete ID` said 'no example ID'. Now it drops that label for good, says which
    example replaced it and that that one stays; the site's counts (the newer label's) stay."""
    page = next(r for r in records() if r["url"].startswith("https://gazette.example/"))
    first = tmp_path / "first.jsonl"
    first.write_text(json.dumps(page) + "\n", encoding="utf-8")
    again = tmp_path / "again.jsonl"
    again.write_text(json.dumps({**page, "gold": page["gold"][:400]}) + "\n", encoding="utf-8")
    for path in (first, again):
        done = blocksift("examples", "import", str(path), "--on-duplicate", "replace",
                         "--no-progress", home=tmp_path)
        assert done.returncode == 0, done.stderr
    (newer,) = json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout)
    older = newer["replaces"]
    assert older is not None
    shown = blocksift("examples", "show", str(older), home=tmp_path)
    assert shown.returncode == 0 and f"replaced by {newer['exampleId']}" in shown.stdout
    shown = json.loads(blocksift("examples", "show", str(older), "--json", home=tmp_path).stdout)
    assert shown["replacedBy"] == newer["exampleId"]
    site_file = tmp_path / "data" / "models" / "auto-sites" / "gazette.example.json"
    counts = json.loads(site_file.read_text())

    done = blocksift("examples", "delete", str(older), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (f"{older} was an earlier label of its page, replaced by {newer['exampleId']} "
            "(which stays)\ndeleted 1 example(s)") in done.stdout, done.stdout
    assert blocksift("examples", "show", str(older), home=tmp_path).returncode == 2
    (listed,) = json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout)
    assert listed["exampleId"] == newer["exampleId"]
    assert json.loads(site_file.read_text()) == counts

    # both at once, the newer named first: the earlier one is not 'no example'
    done = blocksift("examples", "import", str(first), "--on-duplicate", "replace",
                     "--no-progress", home=tmp_path)
    (newest,) = json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout)
    done = blocksift("examples", "delete", str(newest["exampleId"]), str(newest["replaces"]),
                     home=tmp_path)
    assert done.returncode == 0 and "deleted 2 example(s)" in done.stdout, done.stderr
    assert json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout) == []
    assert not site_file.exists()


def saved_copy(tmp_path: Path, head: str) -> tuple[Path, dict]:
    """The fixture's gazette page as saved to a file (no address given with it), ``head``
    added to its <head>, and its site adapted by one labeled example of another of its
    pages (as a label saved in the browser would)."""
    page = next(r for r in records() if r["url"].startswith("https://gazette.example/"))
    example = tmp_path / "example.jsonl"
    example.write_text(json.dumps({**page, "url": "https://gazette.example/coast/other"})
                       + "\n", encoding="utf-8")
    done = blocksift("examples", "import", str(example), "--no-progress", home=tmp_path)
    assert done.returncode == 0, done.stderr
    saved = tmp_path / "saved.html"
    saved.write_text(page["html"].replace("<head>", "<head>\n" + head, 1), encoding="utf-8")
    return saved, page


def test_extract_of_a_saved_page_reads_it_under_the_address_it_names(tmp_path):
    """`extract FILE` without --url applied no site adaptation and said nothing, even when
    the page names its address. Now it is read under it: adapted to its site as the reader is
    there, its links absolute, and the JSON says which address and where it came from."""
    canonical = "https://www.gazette.example/coast/lighthouses"
    saved, _ = saved_copy(tmp_path, f'<link rel="canonical" href="{canonical}">')
    data = json.loads(blocksift("extract", str(saved), "--format", "json", home=tmp_path).stdout)
    assert (data["url"], data["urlFrom"]) == (canonical, "canonical")
    assert data["stage"] == "site" and data["stats"]["site_pages"] == 1
    html = blocksift("extract", str(saved), "--format", "html", home=tmp_path).stdout
    assert 'href="https://www.gazette.example/glossary/' in html, html
    # --url names another address; --url '' none at all (nothing looked for)
    data = json.loads(blocksift("extract", str(saved), "--format", "json", "--url",
                                "https://elsewhere.example/a", home=tmp_path).stdout)
    assert (data["url"], data["urlFrom"], data["stage"]) == ("https://elsewhere.example/a",
                                                            "--url", "model")
    data = json.loads(blocksift("extract", str(saved), "--format", "json", "--url", "",
                                home=tmp_path).stdout)
    assert (data["url"], data["stage"]) == (None, "model")
    assert 'href="/glossary/' in blocksift("extract", str(saved), "--format", "html", "--url",
                                           "", home=tmp_path).stdout
    # piped, stderr stays quiet
    assert blocksift("extract", str(saved), home=tmp_path).stderr == ""


def test_extract_in_a_terminal_says_which_address_and_that_its_site_adapted(tmp_path):
    from cli_terminal import command, environment, in_terminal

    saved, _ = saved_copy(tmp_path, '<meta property="og:url" '
                                    'content="https://gazette.example/coast/lighthouses">')
    done = in_terminal(command("extract", str(saved)), environment(tmp_path), columns=80)
    assert done.returncode == 0, done.screen
    said = " ".join(" ".join(done.lines).split())
    assert ("blocksift: read as https://gazette.example/coast/lighthouses, from its og:url; "
            "adapted to gazette.example by 1 page you labeled (--url sets another)") in said, said
    start = next(i for i, line in enumerate(done.lines) if line.startswith("blocksift: "))
    note = done.lines[start:start + 2]  # wrapped to the terminal, the second line indented
    assert note[1].startswith("  ") and all(len(line) <= 79 for line in note), note
    # a page that names no address, where sites are adapted: said, not silently unadapted
    bare = tmp_path / "bare.html"
    bare.write_text((REPO / "examples" / "article.html").read_text(encoding="utf-8"),
                    encoding="utf-8")
    done = in_terminal(command("extract", str(bare)), environment(tmp_path), columns=80)
    said = " ".join(" ".join(done.lines).split())
    assert "the page names no address of its own: no site adaptation" in said, said


def test_extract_in_a_terminal_is_quiet_about_the_address_where_no_site_is_adapted(tmp_path):
    from cli_terminal import command, environment, in_terminal

    saved = tmp_path / "saved.html"
    saved.write_text('<html><head><link rel="canonical" href="https://news.example/a/story">'
                     '</head><body><article><h1>Story</h1><p>' + "Words of the story. " * 40
                     + "</p></article></body></html>", encoding="utf-8")
    done = in_terminal(command("extract", str(saved)), environment(tmp_path), columns=80)
    assert done.returncode == 0, done.screen
    assert "Words of the story." in done.screen
    assert not any(line.startswith("blocksift: ") for line in done.lines), done.screen


def test_the_address_a_saved_page_names_for_itself():
    from blocksift.page import Page
    from blocksift.page_address import declared_address

    def found(html: str) -> tuple[str, str] | None:
        return declared_address(Page(html))

    body = "<body><p>text</p></body></html>"
    # Chromium's 'Save page as' comment: the tab's address, before the page's own claims
    assert found("<!DOCTYPE html>\n<!-- saved from url=(0031)https://a.example/story?id=4 -->"
                 '<html><head><link rel="canonical" href="https://b.example/s">'
                 f"</head>{body}") == ("https://a.example/story?id=4", "saved from")
    assert found("<html><!--\n Page saved with SingleFile \n url: https://c.example/x \n saved "
                 f"date: Mon Jan 01 2024\n--><head></head>{body}") == ("https://c.example/x",
                                                                    "saved from")
    assert found('<html><head><link rel="alternate canonical" href=" https://b.example/s ">'
                 f"</head>{body}") == ("https://b.example/s", "canonical")
    # a relative canonical cannot be resolved: og:url is taken instead
    assert found('<html><head><link rel="canonical" href="/s"><meta property="og:url" '
                 f'content="https://d.example/s"></head>{body}') == ("https://d.example/s",
                                                                      "og:url")
    assert found('<html><head><meta property="og:url" content="about:blank"><link '
                 f'rel="canonical" href="file:///tmp/x.html"></head>{body}') is None
    assert found(f"<html><head></head>{body}") is None


def test_batch_reads_a_line_without_url_under_the_address_its_page_names(tmp_path):
    """The same gap in `batch`: a line without "url" was read as no site's page."""
    canonical = "https://www.gazette.example/coast/lighthouses"
    saved, page = saved_copy(tmp_path, f'<link rel="canonical" href="{canonical}">')
    html = saved.read_text(encoding="utf-8")
    lines = [{"id": "saved", "html": html},
             {"id": "given", "html": html, "url": "https://elsewhere.example/a"},
             {"id": "bare", "html": page["html"]}]
    done = blocksift("batch", "--jobs", "1", "--no-progress",
                     stdin="".join(json.dumps(line) + "\n" for line in lines), home=tmp_path)
    assert done.returncode == 0, done.stderr
    out = {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert (out["saved"]["url"], out["saved"]["url_from"], out["saved"]["site_pages"],
            out["saved"]["site_examples"]) == (canonical, "canonical", 1, 1)  # an example's
    for other in ("given", "bare"):
        assert not {"url", "url_from", "site_pages", "site_examples"} & set(out[other]), \
            out[other]


@pytest.mark.parametrize("pages, examples, words", [
    (3, 3.0, "3 pages you labeled"),
    (1, 1.0, "1 page you labeled"),
    (2, 0.0, "2 pages of a dataset"),
    (3, 1.0, "1 page you labeled and 2 from a dataset"),
    (3, None, "3 labeled pages"),  # an older site file: whose pages is unknown
    (2, 5.0, "2 labeled pages"),  # a count that cannot be right says nothing of whose
])
def test_the_terminal_note_says_whose_labeled_pages_adapted_the_site(pages, examples, words):
    from blocksift.cli.cmd_extract import _whose_pages

    assert _whose_pages(pages, examples) == words


def test_batch_in_a_terminal_counts_the_lines_read_under_their_pages_address(tmp_path):
    from cli_terminal import command, environment, in_terminal

    canonical = "https://www.gazette.example/coast/lighthouses"
    saved, page = saved_copy(tmp_path, f'<link rel="canonical" href="{canonical}">')
    pages = tmp_path / "pages.jsonl"
    pages.write_text("".join(json.dumps(line) + "\n" for line in (
        {"id": "a", "html": saved.read_text(encoding="utf-8")},
        {"id": "b", "html": page["html"]})), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = in_terminal(command("batch", "--jobs", "1", "-o", str(out)), environment(tmp_path),
                       stdin=pages)
    assert done.returncode == 0, done.screen
    assert done.lines[-1] == (f"blocksift: batch: 2 lines written to {out}: ok 2; 1 read under "
                              "its page's own address"), done.screen


def test_extract_action_hide_json_says_the_address_as_the_reader_json_does(tmp_path):
    """`extract FILE --format json` says the address the page was read under (`url`) and
    where it came from (`urlFrom`); with `--action hide` the same page's JSON had neither,
    though the address decides the site adaptation its hide plan was made with."""
    canonical = "https://www.gazette.example/coast/lighthouses"
    saved, _ = saved_copy(tmp_path, f'<link rel="canonical" href="{canonical}">')
    for given, expected in (([], (canonical, "canonical")),
                            (["--url", "https://elsewhere.example/a"],
                             ("https://elsewhere.example/a", "--url")),
                            (["--url", ""], (None, "--url"))):  # --url gave none
        reader = json.loads(blocksift("extract", str(saved), "--format", "json", *given,
                                      home=tmp_path).stdout)
        done = blocksift("extract", str(saved), "--action", "hide", "--format", "json",
                         *given, home=tmp_path)
        assert done.returncode == 0, done.stderr
        plan = json.loads(done.stdout)
        assert (plan["url"], plan["urlFrom"]) == (reader["url"], reader["urlFrom"]) \
            == expected, given
        assert plan["targets"] and plan["version"] == 1
    # stdin is read the same way as a file
    plan = json.loads(blocksift("extract", "-", "--action", "hide", "--format", "json",
                                stdin=saved.read_text(encoding="utf-8"), home=tmp_path).stdout)
    assert (plan["url"], plan["urlFrom"]) == (canonical, "canonical")


def without_url(tmp_path: Path) -> tuple[Path, str]:
    """A datasets-format file of the fixture's gazette page saved with no "url" (its page
    names its address by <link rel=canonical>), a page that names none, and a page with an
    empty gold; and the canonical address."""
    page = next(r for r in records() if r["url"].startswith("https://gazette.example/"))
    bare = next(r for r in records() if r["url"].startswith("https://crumb.example/"))
    canonical = "https://www.gazette.example/coast/lighthouses"
    named = {k: v for k, v in page.items() if k != "url"}
    named["html"] = page["html"].replace(
        "<head>", f'<head>\n<link rel="canonical" href="{canonical}">', 1)
    dataset = tmp_path / "saved.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in (
        named, {k: v for k, v in bare.items() if k != "url"},
        {**page, "url": "https://gazette.example/coast/other", "gold": ""})), encoding="utf-8")
    return dataset, canonical


def test_train_per_site_reads_a_record_without_url_under_the_address_its_page_names(tmp_path):
    """`train auto --per-site` left out a record without "url" without a word, though its
    page names its address (`extract` reads the same page under it). It counts into that
    address's site now, and stderr says how many were read so and how many left out, why.
    The page with an empty gold ("no main text") counts too, as `examples import` counts it."""
    dataset, canonical = without_url(tmp_path)
    done = blocksift("train", "auto", "--per-site", "--dataset", str(dataset), "--no-progress",
                     home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("gazette.example: 2 pages -> "), done.stdout
    assert len(done.stdout.splitlines()) == 1, done.stdout
    assert done.stderr.splitlines() == [
        'blocksift: 1 page without a "url" read under the address its page names for itself '
        "(1 by <link rel=canonical>)",
        'blocksift: skipped 1 page: no "url", and the page names no address of its own (no '
        'saved-from comment, <link rel=canonical> or og:url)'], done.stderr
    site_file = tmp_path / "data" / "models" / "auto-sites" / "gazette.example.json"
    assert json.loads(site_file.read_text())["pages"] == 2
    # the same counts as the page given with that address as its "url"
    with_url = tmp_path / "with-url.jsonl"
    lines = dataset.read_text().splitlines()
    named = json.loads(lines[0])
    with_url.write_text(json.dumps({**named, "url": canonical}) + "\n" + lines[2] + "\n",
                        encoding="utf-8")
    other = tmp_path / "other"
    done = blocksift("train", "auto", "--per-site", "--dataset", str(with_url),
                     "--no-progress", home=other)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (other / "data" / "models" / "auto-sites" / "gazette.example.json").read_text() \
        == site_file.read_text()


def test_examples_import_stores_a_record_without_url_under_the_address_its_page_names(
        tmp_path):
    """`examples import` stored a record without "url" of no site: its label adapted none.
    It is stored under the address its page names now, of that address's site, adapting it,
    and stderr says how many were read so and how many stay of no site, and why."""
    dataset, canonical = without_url(tmp_path)
    done = blocksift("examples", "import", str(dataset), "--no-progress", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        '1 record without a "url" read under the address its page names for itself (1 by '
        "<link rel=canonical>)",
        '1 record stored of no site (adapting none): no "url", and the page names no address '
        "of its own (no saved-from comment, <link rel=canonical> or og:url)",
        "imported 3 example(s)"], done.stderr
    listed = json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout)
    assert [(e["url"], e["site"]) for e in reversed(listed)] == [
        (canonical, "gazette.example"), (None, None),
        ("https://gazette.example/coast/other", "gazette.example")]
    site_file = tmp_path / "data" / "models" / "auto-sites" / "gazette.example.json"
    assert json.loads(site_file.read_text())["pages"] == 2
    # read under it, the saved page itself is adapted by both labeled pages of its site
    saved = tmp_path / "saved.html"
    saved.write_text(json.loads(dataset.read_text().splitlines()[0])["html"], encoding="utf-8")
    data = json.loads(blocksift("extract", str(saved), "--format", "json", home=tmp_path).stdout)
    assert (data["url"], data["stage"], data["stats"]["site_pages"]) == (canonical, "site", 2)
