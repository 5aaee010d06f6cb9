"""The reader view end to end, in Chromium and Firefox, with the real host: content hidden in
shadow DOM and frames, lazy images, a data table, code in a layout table, MathML, the byline
and date header, export to Markdown on disk, read aloud and the keys.

Every check is on the reader view's own DOM (what a person sees), after a click in the popup.
"""

from __future__ import annotations

import json
from pathlib import Path

import e2e_harness as harness

CONTENT = "document.getElementById('content')"


def text_of(page: harness.Tab, expression: str = CONTENT) -> str:
    return page.evaluate(f"{expression}.textContent")


def open_reader(browser: harness.Browser, site: harness.Site, name: str) -> harness.Tab:
    page = browser.new_tab(site.url(name))
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    assert page.url.startswith(browser.extension_origin + "/reader.html")
    return page


def reader_of_answer(browser: harness.Browser, key: str, payload: dict) -> harness.Tab:
    """The reader view of a stored host answer (``payload``, as the background stores it),
    without a page or a host: what the reader itself makes of the main text it is given."""
    page = browser.new_tab(browser.ext_url("options.html"))
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    page.evaluate(f"(globalThis.browser ?? chrome).storage.session.set("
                  f"{{'reader:{key}': {json.dumps(payload)}}})")
    page.navigate(browser.ext_url(f"reader.html#reader%3A{key}"))
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    return page


def stored_answer(site: harness.Site, title: str, html: str, metadata: dict | None = None
                  ) -> dict:
    """A host answer for an article page as the background stores it for the reader."""
    return {"url": site.url("article.html"), "title": title, "lang": "en", "algorithm": "auto",
            "html": html, "text": "", "startedAt": 0, "metadata": metadata or {}}


def test_reader_reads_an_article_in_an_open_shadow_root(browser: harness.Browser, site: harness.Site,
                                                       artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-shadow.html")
    text = text_of(page)
    for sentence in ("Every winter the fishing villages of the north shore hang paper lanterns",
                     "The custom began after the storm of 1911",
                     "Children fold the paper in the school hall"):
        assert sentence in text, sentence
    assert page.evaluate(f"{CONTENT}.querySelectorAll('h2').length") == 1
    assert page.evaluate("document.getElementById('title').textContent") == "Lanterns of the north shore"
    assert page.evaluate("document.getElementById('site').textContent") == "Shoreline Weekly"
    assert page.evaluate("document.getElementById('byline').textContent") == "By Ada Lindqvist"
    assert page.evaluate("document.querySelector('#details time').dateTime") == "2024-02-11"
    assert "Privacy" not in text and "Weather" not in text
    # the date line repeating the header's date is gone; attributes that are not URLs survive
    assert "11 February 2024" not in text
    page.screenshot(artifacts / "reader-shadow.png")


def test_reader_reads_a_same_origin_frame_and_says_what_it_could_not(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-iframe.html")
    text = text_of(page)
    for sentence in ("the new telescope arrived on Tuesday in eleven crates",
                     "On the first clear night we turned it to the Moon",
                     "Tell your brother that the star charts he lent us"):
        assert sentence in text, sentence
    note = page.evaluate("document.getElementById('unreachable')")
    assert note is not None
    assert not page.evaluate("document.getElementById('unreachable').hidden")
    said = page.evaluate("document.getElementById('unreachable').textContent")
    # only the frame that could hold text is counted and named: not the navigation strip,
    # the like button or the banner ad beside it
    assert said.startswith("1 embedded frame from other sites could not be read") and "localhost" in said
    assert said.count("localhost") == 1, said
    page.screenshot(artifacts / "reader-iframe.png")


def test_reader_resolves_lazy_images(browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-lazy.html")
    images = page.evaluate(f"[...{CONTENT}.querySelectorAll('img')].map(i => ({{src: i.src, alt: i.alt}}))")
    by_alt = {image["alt"]: image["src"] for image in images}
    base = site.url("")
    assert by_alt["The palm house from the lake"] == base + "harbour.svg"  # data-src
    assert by_alt["Tree ferns in the temperate house"] == base + "wave.svg"  # <picture> srcset
    assert by_alt["Giant water lily leaves"] == base + "harbour.svg"  # loading=lazy
    assert by_alt["Cacti flowering in May"] == base + "wave.svg"  # <noscript> fallback
    assert not any(image["src"].startswith("data:") for image in images)
    assert page.evaluate(f"{CONTENT}.querySelector('figcaption').textContent") == "The palm house from the lake."
    # every image really loads in the reader
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0)")
    page.screenshot(artifacts / "reader-lazy.png")


def test_reader_leaves_out_a_broken_pictures_alt_that_the_text_beside_it_says(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A page saved offline: its pictures do not load, and each showed its alt in its place,
    often the very words of its caption or of the line under it. Those pictures are left
    out; an alt that says more than the text beside it stays, as a line of text in the
    picture's place (the picture hidden: no broken-picture icon), and a picture that loads
    stays whatever its alt."""
    page = open_reader(browser, site, "reader-broken-images.html")
    # the six missing pictures have failed, the one that exists has loaded
    page.set_viewport(1100, 2400)  # all of it in view (Firefox left the picture far below unloaded)
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => i.complete)")
    images = page.evaluate(
        f"[...{CONTENT}.querySelectorAll('img')].map(i => ({{alt: i.alt, loaded: i.naturalWidth > 0,"
        f" shown: i.getClientRects().length > 0}}))")
    state = {image["alt"]: (image["loaded"], image["shown"]) for image in images}
    assert state == {
        "The harbour wall at high tide": (False, False),  # its caption says it
        "Ines Calder, harbour master": (False, False),  # the line under it says it
        "Photo of the lifeboat station": (False, False),  # "Photo of" adds nothing
        # what the text does not say (the chart's figures, the map the caption leaves
        # unsaid): the picture hidden, its alt in its place below
        "Chart: storms a year at Port Ellery, from two in 1990 to seven in 2025": (False, False),
        "Map of the old town and its quay": (False, False),
        "The harbour": (True, True),  # loads: shown, its alt unseen
        "": (False, False),  # its alt was its file name ("IMG_2671.JPG"): it says nothing
    }, state
    assert page.evaluate(f"{CONTENT}.querySelector('img[src$=\"IMG_2671.JPG\"]').alt") == ""
    # an alt kept reads as a line of text where the picture stood, not from an empty box
    # the picture's size
    alts = page.evaluate(
        f"[...{CONTENT}.querySelectorAll('.picture-alt')].map(a => [a.textContent,"
        " a.previousElementSibling?.alt ?? null, a.getBoundingClientRect().height])")
    assert [alt[:2] for alt in alts] == [
        ["Chart: storms a year at Port Ellery, from two in 1990 to seven in 2025",
         "Chart: storms a year at Port Ellery, from two in 1990 to seven in 2025"],
        ["Map of the old town and its quay", "Map of the old town and its quay"]], alts
    assert all(0 < height < 120 for _text, _alt, height in alts), alts
    text = text_of(page)
    # the captions and lines stay, each once
    for line in ("The harbour wall at high tide, photographed in March 2026.",
                 "Ines Calder, harbour master, on the old wall.",
                 "The lifeboat station, rebuilt in 1987.", "The old quay in 1890."):
        assert text.count(line) == 1, line
    page.screenshot(artifacts / "reader-broken-images.png")


def test_reader_hides_a_picture_that_fails_to_load_and_keeps_its_alt_and_the_text_readable(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A picture of the main text whose address answers 404 (offline, blocked, gone) showed
    the browser's broken-picture icon in the reader, and in Chromium its alt in a box beside
    it. The reader hides it (its own error listener: the reader runs no page script and no
    inline handler); an alt that says what the text does not stays as a line of text in its
    place, one the text says already (a caption, a word of its paragraph) goes with it; the
    text around it is whole."""
    original = browser.new_tab(site.url("reader-missing-image.html"))
    assert original.evaluate("fetch('missing/garrow-head-tower.jpg').then(r => r.status)") == 404
    original.close()
    page = open_reader(browser, site, "reader-missing-image.html")
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => 'broken' in i.dataset)")
    images = page.evaluate(
        f"[...{CONTENT}.querySelectorAll('img')].map(i => [i.alt, i.complete && i.naturalWidth === 0,"
        " i.hidden, i.getClientRects().length, i.checkVisibility()])")
    # each failed, and is hidden: no box, so no icon and no alt box of the browser's
    assert [image[0] for image in images] == [
        "The white tower of Garrow Head above the rocks, its gallery rail rusted red", "lamp",
        "Maren Holt"], images
    assert all(failed and hidden and boxes == 0 and not visible
               for _name, failed, hidden, boxes, visible in images), images
    # the tower's alt says what no text says: a line in its place, before its caption
    alts = page.evaluate(f"[...{CONTENT}.querySelectorAll('.picture-alt')]"
                         ".map(a => [a.textContent, a.checkVisibility(), a.closest('figure') !== null])")
    assert alts == [["The white tower of Garrow Head above the rocks, its gallery rail rusted red",
                     True, True]], alts
    text = page.evaluate(f"{CONTENT}.innerText")
    for line in ("For forty-one years the lamp at Garrow Head was lit by hand",
                 "Garrow Head in the winter of 1987.",
                 "The light was automated in the spring of 1988.",
                 "A bulb on a timer replaced the paraffin lamp she had trimmed every evening at dusk.",
                 "Maren Holt, the last keeper, on the gallery.",
                 "though she could see the tower from her kitchen window every day until she died."):
        assert text.count(line) == 1, (line, text)
    # the icon's "lamp" and the keeper's name, said by the text beside them, are not said again
    assert "lamp A bulb" not in text and text.count("Maren Holt") == 2, text  # its text's two
    page.screenshot(artifacts / "reader-missing-image.png")


def test_reader_leaves_out_a_broken_picture_whose_card_or_gallery_names_it_in_the_next_box(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A listing's cards and a shop's product galleries, saved offline: each picture sits
    alone in a box of its own (its link's, a gallery's list), and the card's name is in the
    box after it, in capitals, or once under the whole gallery. Their alts say the name
    again; a picture box whose alt says more than the line after it stays."""
    missing = site.url("saved_files/missing.jpg")
    gallery = "".join(f"<li><div><img src='{missing}' alt='Siesta Hooded 20 Sleeping Bag {n}'></div></li>"
                      for n in range(4))
    html = (f"<div><a href='/show/onit'><img src='{missing}' alt='Onit Podcast'></a></div>"
            "<div><h5>ONIT PODCAST</h5></div>"
            "<p>The Onit podcast explores the meeting of corporate legal work and technology.</p>"
            f"<ul><li><a href='/bag'><div><div><ul>{gallery}</ul></div></div></a>"
            "<a href='/bag'><span>Siesta Hooded 20 Sleeping Bag</span></a></li></ul>"
            f"<div><a href='/map'><img src='{missing}' alt='Map of the valley trails and huts'></a></div>"
            "<p>Trails of the valley.</p>")
    page = reader_of_answer(browser, "broken-cards", stored_answer(site, "Podcasts and bags", html))
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => i.complete && 'broken' in i.dataset)")
    # every picture hidden; the one whose alt says more than the line after it, its alt in
    # its place (in its link, a link still)
    shown = page.evaluate(f"[...{CONTENT}.querySelectorAll('img')].filter(i => i.getClientRects().length)"
                          ".map(i => i.alt)")
    assert shown == [], shown
    alts = page.evaluate(f"[...{CONTENT}.querySelectorAll('.picture-alt')]"
                         ".map(a => [a.textContent, a.parentElement.localName])")
    assert alts == [["Map of the valley trails and huts", "a"]], alts
    text = text_of(page)
    assert text.count("ONIT PODCAST") == 1 and text.count("Siesta Hooded 20 Sleeping Bag") == 1
    page.screenshot(artifacts / "reader-broken-cards.png")


def test_reader_treats_a_picture_without_a_source_as_one_that_failed(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A picture whose source a script was to set has none in the snapshot: it never loads
    and fires no error, and its alt stood in the text as words of it (an avatar's name beside
    the name, "Article content"). It is left out like a broken picture when the text beside
    it says its alt, and its alt is a quiet line in its place when it says more."""
    html = ("<p><img alt='Ines Calder'> Ines Calder, harbour master, on the old wall.</p>"
            "<p>The records show how the weather changed over the years.</p>"
            "<div><img alt='Article content'></div>"
            "<figure><picture><source type='image/webp'><img width='1200' height='640'"
            " alt='Storm damage along the sea wall'></picture></figure>"
            "<p>Storm damage along the sea wall, after the January gale.</p>"
            "<p>Engineers say the wall must rise by a metre and a half.</p>"
            "<div><img alt='Chart: storms a year at Port Ellery, from two in 1990 to seven in 2025'></div>"
            "<p>The council will vote on the plan in the spring.</p>")
    page = reader_of_answer(browser, "no-source", stored_answer(site, "The sea wall", html))
    images = page.evaluate(f"[...{CONTENT}.querySelectorAll('img')].map(i => [i.alt,"
                           " i.getClientRects().length > 0, 'broken' in i.dataset])")
    assert images == [["Ines Calder", False, True], ["Article content", False, True],
                      ["Storm damage along the sea wall", False, True],  # in a <picture> too
                      ["Chart: storms a year at Port Ellery, from two in 1990 to seven in 2025", False, True]
                      ], images
    alts = page.evaluate(f"[...{CONTENT}.querySelectorAll('.picture-alt')]"
                         ".map(a => [a.textContent, a.getClientRects().length > 0])")
    assert alts == [["Article content", True],
                    ["Chart: storms a year at Port Ellery, from two in 1990 to seven in 2025", True]], alts
    page.screenshot(artifacts / "reader-no-source.png")


def test_reader_shows_a_list_of_pictures_alone_as_a_row_of_small_pictures(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A shop's product photos, a slideshow the page showed one at a time: in the main text a
    list whose items are pictures alone. They are a row of small pictures without bullets,
    not a column of full-width photos each with its bullet; a list with words keeps both, and
    a gallery whose pictures were all left out (broken, their alts said beside them) takes no
    room."""
    photos = "".join(f"<li><div><img src='{site.url('photo.svg')}' alt='Sleeping bag, view {n}'></div></li>"
                     for n in range(6))
    missing = "".join(f"<li><img src='{site.url('saved_files/missing.jpg')}' alt='Stuff sack of the Siesta Hooded 20 {n}'></li>"
                      for n in range(3))
    html = ("<p>The Siesta is our warmest bag for the price, rated to twenty degrees.</p>"
            f"<ul>{photos}</ul>"
            "<ul><li>Rated to 20 F</li><li>Weighs 2.8 lbs</li></ul>"
            f"<ul>{missing}</ul><p>Stuff sack of the Siesta Hooded 20</p>"
            "<p>It packs into its own stuff sack, which fits under a bike's saddle.</p>")
    page = reader_of_answer(browser, "gallery", stored_answer(site, "Siesta Hooded 20", html))
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => i.complete)")
    lists = f"{CONTENT}.querySelectorAll('ul')"  # the photos, the words, the broken ones
    boxes = page.evaluate(f"[...{lists}[0].querySelectorAll('img')].map(i => {{"
                          " const r = i.getBoundingClientRect(); return [r.top, r.height, r.width]; })")
    # (each 1200 by 800: the article's width, one under the other, without the gallery)
    assert len(boxes) == 6 and len({round(top) for top, _, _ in boxes}) <= 2, boxes  # in rows
    assert all(0 < height <= 200 and width == height * 1.5 for _, height, width in boxes), boxes
    bullet = "getComputedStyle({}.firstElementChild).listStyleType"
    assert page.evaluate(bullet.format(f"{lists}[0]")) == "none"
    assert page.evaluate(bullet.format(f"{lists}[1]")) == "disc"
    page.wait_for(f"[...{lists}[2].querySelectorAll('img')].every(i => i.hidden)")
    assert page.evaluate(f"{lists}[2].getBoundingClientRect().height") == 0
    page.screenshot(artifacts / "reader-gallery.png")


def test_reader_keeps_a_data_table_code_from_a_layout_table_and_math_then_exports_markdown(
        browser: harness.Browser, site: harness.Site, host: harness.HostInstall, tmp_path: Path,
        artifacts: Path) -> None:
    # The user chooses the folder for saved articles once, in the options page.
    vault = tmp_path / "Notes vault"
    vault.mkdir()
    options = browser.new_tab(browser.ext_url("options.html"))
    options.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    options.evaluate(f"document.getElementById('export-folder').value = {json.dumps(str(vault))}, true")
    options.evaluate("document.getElementById('export-folder-save').click(), true")
    options.wait_for("document.documentElement.dataset.blocksiftExportFolder")
    assert "Keyboard shortcuts" in options.evaluate("document.body.textContent")
    assert options.evaluate("document.getElementById('reader-keys').textContent").count("Listen") == 1
    options.screenshot(artifacts / "options.png")
    options.close()

    page = open_reader(browser, site, "reader-structure.html")
    # header: the visible headline (not "(from The Herald)"), byline, date, site name
    assert page.evaluate("document.getElementById('title').textContent") == "Measuring the tide with Python"
    assert page.evaluate("document.getElementById('byline').textContent") == "By Nikhil Marathe"
    assert page.evaluate("document.querySelector('#details time').dateTime") == "2023-11-02"
    assert page.evaluate("document.getElementById('site').textContent") == "The Herald"
    text = text_of(page)
    # player notices and picture credits are gone, the captions and pictures stay
    for clutter in ("Media playback", "Media caption", "Image copyright", "Reuters"):
        assert clutter not in text, clutter
    assert "The harbour at low water" in text
    assert page.evaluate(f"{CONTENT}.querySelectorAll('figure img').length") == 2
    # the data table is a table with its header and every row
    table = page.evaluate(f"[...{CONTENT}.querySelectorAll('table tr')].map(r => [...r.cells].map(c => c.textContent))")
    assert table == [["Time", "Height (m)"], ["06:00", "1.21"], ["07:00", "2.48"], ["08:00", "3.95"],
                     ["09:00", "4.62"], ["10:00", "4.10"]]
    assert page.evaluate(f"{CONTENT}.querySelector('table caption').textContent") == "Readings of 2 November"
    # the code: one box, its language, every line, no line numbers, no table around it
    code = page.evaluate(f"[...{CONTENT}.querySelectorAll('pre')].map(p => ({{lang: p.dataset.language,"
                         " text: p.textContent, nested: p.querySelectorAll('pre, div, table').length,"
                         " inTable: !!p.closest('table'), cls: p.querySelector('code')?.className}))")
    assert len(code) == 1, code
    assert code[0]["lang"] == "python" and code[0]["cls"] == "language-python"
    assert code[0]["nested"] == 0 and not code[0]["inTable"]
    lines = code[0]["text"].split("\n")
    assert lines[0] == "def turning_points(heights):" and lines[-1] == "    return found" and len(lines) == 8
    assert page.evaluate(f"getComputedStyle({CONTENT}.querySelector('pre')).whiteSpace") == "pre"
    # the formula is MathML, rendered by the browser
    assert page.evaluate(f"{CONTENT}.querySelector('math')?.namespaceURI") == "http://www.w3.org/1998/Math/MathML"
    assert page.evaluate(f"{CONTENT}.querySelectorAll('math msub mi, math msub mn').length") == 2
    assert page.evaluate(f"{CONTENT}.querySelector('math').getBoundingClientRect().width") > 0
    assert page.evaluate(f"{CONTENT}.querySelector('math').getAttribute('display')") == "block"
    page.screenshot(artifacts / "reader-table-code-math.png")
    page.evaluate(f"{CONTENT}.querySelector('pre').scrollIntoView({{block: 'start'}}), scrollBy(0, -60), true")
    page.screenshot(artifacts / "reader-code-math.png")

    # Save as Markdown: the host writes the file into the chosen folder
    page.evaluate("document.getElementById('save-markdown').click(), true")
    saved = page.wait_for("document.documentElement.dataset.blocksiftSaved")
    path = Path(saved)
    assert path.parent == vault.resolve() and path.name == "2023-11-02 measuring-the-tide-with-python.md"
    markdown = path.read_text(encoding="utf-8")
    assert markdown.startswith('---\ntitle: "Measuring the tide with Python"\nauthor:\n  - "Nikhil Marathe"\n'
                               "date: 2023-11-02\n")
    assert f'url: "{site.url("reader-structure.html")}"' in markdown
    assert "```" in markdown and "def turning_points(heights):" in markdown
    assert "| 09:00 | 4.62 |" in markdown.replace("  ", " ")
    assert "Reuters" not in markdown

    # Copy as Markdown renders the same text (the clipboard may be closed to automation)
    page.evaluate("document.getElementById('copy-markdown').click(), true")
    chars = page.wait_for("document.documentElement.dataset.blocksiftMarkdownChars")
    assert int(chars) == len(markdown)


def choose_export_folder(browser: harness.Browser, folder: Path) -> None:
    """The user's one-time choice, in the options page, of the folder for saved articles."""
    options = browser.new_tab(browser.ext_url("options.html"))
    options.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    options.evaluate(f"document.getElementById('export-folder').value = {json.dumps(str(folder))}, true")
    options.evaluate("document.getElementById('export-folder-save').click(), true")
    options.wait_for("document.documentElement.dataset.blocksiftExportFolder")
    options.close()


def test_reader_of_an_index_exports_the_headlines_it_shows(
        browser: harness.Browser, site: harness.Site, host: harness.HostInstall, tmp_path: Path,
        artifacts: Path) -> None:
    # a portal's front page shows its headlines; Save and Copy as Markdown gave the main text
    # the segmenter chose, which the index view does not show
    vault = tmp_path / "Notes vault"
    vault.mkdir()
    choose_export_folder(browser, vault)
    page = open_reader(browser, site, "hide/portal.html")
    shown = page.evaluate(f"[...{CONTENT}.querySelectorAll('.index-list > li')].map(li => "
                          "({title: li.querySelector('h2').textContent, href: li.querySelector('a').href,"
                          " teaser: li.querySelector('p')?.textContent ?? ''}))")
    assert len(shown) == 10
    title = page.evaluate("document.getElementById('title').textContent")
    page.screenshot(artifacts / "reader-index-export.png")
    page.evaluate("document.getElementById('save-markdown').click(), true")
    path = Path(page.wait_for("document.documentElement.dataset.blocksiftSaved"))
    assert path.parent == vault.resolve()
    markdown = path.read_text(encoding="utf-8")
    (artifacts / "reader-index-export.md").write_text(markdown, encoding="utf-8")
    assert markdown.startswith(f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\n"), markdown[:200]
    assert "author:" not in markdown and "date:" not in markdown
    body = markdown.split("\n---\n", 1)[1]
    # the page's title, then one numbered link per headline, in the order shown, with its teaser
    assert body.lstrip().startswith(f"# {title}\n"), body[:200]
    at = 0
    for number, story in enumerate(shown, 1):
        line = f"{number}. [{story['title']}]({story['href']})"
        assert line in body, line
        assert body.index(line) > at
        at = body.index(line)
        assert story["teaser"] and story["teaser"] in body[at:at + 400], story
    assert "index of 10 stories" not in body  # the reader's note is not the page's
    # HTML keeps the same links
    page.evaluate("document.getElementById('save-html').click(), true")
    page.wait_for("document.documentElement.dataset.blocksiftSaved.endsWith('.html')")
    html = Path(page.evaluate("document.documentElement.dataset.blocksiftSaved")).read_text(encoding="utf-8")
    assert all(f'href="{story["href"]}"' in html for story in shown)
    assert html.index(shown[0]["title"]) < html.index(shown[-1]["title"])
    # Copy as Markdown renders the same text
    page.evaluate("document.getElementById('copy-markdown').click(), true")
    chars = page.wait_for("document.documentElement.dataset.blocksiftMarkdownChars")
    assert int(chars) == len(markdown)
    # a section index whose main text is one story's sentences: the file holds the headlines
    answer = stored_answer(site, "Streaming News | The Herald", "<p>" + "Teaser words. " * 40
                           + "</p>", {"title": "Streaming News", "authors": ["Logan Jones"],
                                      "published": "2025-12-17", "siteName": "The Herald"})
    stories = [{"title": f"Story {n}", "href": f"/s{n}", "teaser": f"Teaser of story {n}."}
               for n in range(1, 4)]
    page = reader_of_answer(browser, "indexexport", {**answer, "pageKind": "index", "index": stories})
    page.evaluate("document.getElementById('save-markdown').click(), true")
    markdown = Path(page.wait_for("document.documentElement.dataset.blocksiftSaved")).read_text(encoding="utf-8")
    assert "Teaser words" not in markdown and "Logan Jones" not in markdown and "date:" not in markdown
    # ... under the title shown, the <title> less the site's name
    assert markdown.split("\n---\n", 1)[1].strip() == "# Streaming News\n\n" + "\n".join(
        f"{n}. [Story {n}]({site.url(f's{n}')})\n\n   Teaser of story {n}." for n in range(1, 4)), markdown


def test_reader_keys_and_read_aloud_controls(browser: harness.Browser, site: harness.Site,
                                             artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-structure.html")
    # keyboard: text size and theme from keys, the shortcut list from "?"
    size = page.evaluate("getComputedStyle(document.body).fontSize")
    page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: '=', bubbles: true})), true")
    assert page.evaluate("getComputedStyle(document.body).fontSize") != size
    page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: 't', bubbles: true})), true")
    assert page.evaluate("document.documentElement.dataset.theme") == "sepia"
    page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: '?', bubbles: true})), true")
    assert not page.evaluate("document.getElementById('keys-help').hidden")
    # every control is a real, focusable control
    assert page.evaluate("[...document.querySelectorAll('.toolbar button, .toolbar select')]"
                         ".every(c => c.tabIndex === 0)")
    # read aloud with a real voice, and without one: test_read_aloud_e2e.py


def test_popup_speaks_in_actions_and_names_the_method(browser: harness.Browser, site: harness.Site,
                                                      artifacts: Path) -> None:
    page = browser.new_tab(site.url("article.html"))
    popup = browser.popup(page.url)
    popup.wait_for("document.documentElement.dataset.blocksiftHost")
    labels = popup.evaluate("[...document.querySelectorAll('.actions .label')].map(l => l.textContent)")
    assert labels[:3] == ["Reader view", "Hide clutter", "Show what was found"]
    uses = popup.evaluate("['reader', 'hide', 'overlay'].map(a => document.getElementById('uses-' + a).textContent)")
    assert uses == ["uses auto", "uses auto (main text) + linkblocks",
                    "uses auto (main text) + linkblocks"]
    assert not popup.evaluate("document.getElementById('advanced').open")
    popup.evaluate("document.getElementById('advanced').open = true, document.getElementById('params-box').open = true, true")
    explained = popup.evaluate("[...document.querySelectorAll('#params .param .explain')].map(e => e.textContent)")
    assert explained and all(0 < len(line) <= 111 for line in explained)
    assert "paper default" not in popup.evaluate("document.body.textContent")
    popup.screenshot(artifacts / "popup.png")
    popup.close()


def test_reader_reaches_a_closed_shadow_root_and_keeps_mathjax2_and_katex_readable(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-closed-math.html")
    text = text_of(page)
    # the closed shadow root is read through the extension-only API, not lost
    assert "the heaviest hull ran forty-one metres past the end of the ways" in text
    # MathJax 2 with assistive MathML: the MathML once, no rendered glyph soup, no TeX twice
    maths = page.evaluate(f"[...{CONTENT}.querySelectorAll('math')].map(m => m.textContent)")
    assert maths == ["E=mc2"], maths
    assert "E=mc^2" not in text and "Emc2" not in text.replace(" ", "")
    # MathJax 2 without MathML: the TeX source, not the preview's ASCII stand-in
    tex = page.evaluate(f"[...{CONTENT}.querySelectorAll('code')].map(c => c.textContent)")
    assert "v = \\sqrt{2 g h}" in tex, tex
    assert "sqrt(2gh)" not in text
    # KaTeX rendered as HTML only: plain text with the subscript and the fraction kept
    katex = page.evaluate(f"{CONTENT}.querySelector('.blocksift-math-text, [class*=math-text]')?.innerHTML"
                          f" ?? [...{CONTENT}.querySelectorAll('sub')].map(s => s.parentElement.innerHTML).join('|')")
    assert "μ<sub>k</sub>" in katex and "(mg)/N" in katex, katex
    assert page.evaluate("document.getElementById('unreachable').hidden")
    page.screenshot(artifacts / "reader-closed-math.png")


def test_reader_toolbar_is_one_row_and_the_look_panel_opens_and_closes(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-structure.html")
    # controls that start below the first control's bottom edge are on a second row
    rows = ("((els) => 1 + els.filter(e => e.getBoundingClientRect().top >= els[0].getBoundingClientRect().bottom).length)"
            "([...document.querySelectorAll('.toolbar > button, .toolbar > .group, .toolbar > .display-menu')])")
    for width in (1100, 1280):
        page.set_viewport(width, 800)
        page.wait_for(f"window.innerWidth === {width}")
        assert page.evaluate(rows) == 1, f"toolbar wraps at {width} px"
        page.screenshot(artifacts / f"reader-toolbar-{width}.png")
    # theme, font, size and width live in the "Aa" panel: it opens, works, and Esc closes it
    # without leaving the reader
    page.evaluate("document.getElementById('display').click(), true")
    assert page.evaluate("document.getElementById('display').getAttribute('aria-expanded')") == "true"
    panel = "document.getElementById('display-panel')"
    assert page.evaluate(f"!{panel}.hidden && {panel}.getBoundingClientRect().right <= window.innerWidth")
    page.evaluate("document.querySelector('[data-theme-choice=dark]').click(), true")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(f"!{panel}.hidden")  # a choice keeps the panel open for the next one
    page.screenshot(artifacts / "reader-look-panel.png")
    page.evaluate("document.getElementById('display').focus(),"
                  " document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true})), true")
    assert page.evaluate(f"{panel}.hidden")
    assert page.url.startswith(browser.extension_origin + "/reader.html")
    page.evaluate("document.getElementById('display').click(), true")
    page.evaluate("document.getElementById('content').click(), true")
    assert page.evaluate(f"{panel}.hidden")


#: The reader toolbar's controls a reader sees: each one's box, and how many lines its label
#: takes (the distinct tops of its text's line boxes)
TOOLBAR_CONTROLS = """[...document.querySelectorAll('.toolbar button, .toolbar select')]
  .filter(c => c.checkVisibility()).map(c => {
    const r = c.getBoundingClientRect();
    const text = document.createRange();
    text.selectNodeContents(c);
    const lines = c.localName === 'select' ? 1
      : new Set([...text.getClientRects()].filter(l => l.width > 0).map(l => Math.round(l.top))).size;
    return {name: c.id || c.textContent.trim(), left: r.left, top: r.top, right: r.right,
            bottom: r.bottom, lines};
  })"""


def _toolbar_faults(controls: list[dict], width: float, one_row: bool) -> list[str]:
    """What is wrong with a toolbar's layout: a control outside the window (``width``, its
    width without a scroll bar), two controls overlapping, a label over two lines, and where
    ``one_row``, a control below the first row."""
    faults = []
    for c in controls:
        if c["left"] < 0 or c["right"] > width + 0.5 or c["top"] < 0:
            faults.append(f"{c['name']} outside the window: {c}")
        if c["lines"] != 1:
            faults.append(f"{c['name']} on {c['lines']} lines")
    for i, a in enumerate(controls):
        for b in controls[i + 1:]:
            if min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and \
                    min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5:
                faults.append(f"{a['name']} overlaps {b['name']}")
    if one_row and controls:
        first = min(c["bottom"] for c in controls)
        faults += [f"{c['name']} on a second row" for c in controls if c["top"] >= first]
    return faults


def test_reader_toolbar_keeps_one_row_from_the_phone_layout_up(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """Between the phone layout (640 px and below) and ~850 px the toolbar wrapped: at 641-700
    px "Back" and the read-aloud buttons stood alone on the first row and the rest on a
    second, at 760-820 px "Print" and "?" or "?" alone went to a second row. Copying and
    saving are one "Save" menu there: one row, no control over another or off the window, no
    label split over two lines, at each width in both browsers; below, the phone's rows."""
    page = open_reader(browser, site, "reader-structure.html")
    for width in (640, 641, 700, 760, 800, 820, 940, 941, 1100):
        page.set_viewport(width, 700)
        page.wait_for(f"window.innerWidth === {width}")
        page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        shown = page.evaluate("document.documentElement.clientWidth")
        controls = page.evaluate(TOOLBAR_CONTROLS)
        names = [c["name"] for c in controls]
        page.screenshot(artifacts / f"reader-toolbar-{width}.png")
        assert not _toolbar_faults(controls, shown, one_row=width > 640), \
            (width, _toolbar_faults(controls, shown, one_row=width > 640))
        # every control is there: copying and saving in a row, or behind "Save" in between
        folded = 640 < width <= 940
        keep = ["copy-markdown", "save-markdown", "save-html", "save-epub"]
        assert ("keep" in names) == folded, (width, names)
        assert all((name in names) != folded for name in keep), (width, names)
        assert {"back", "listen", "stop-listening", "speech-rate", "display", "print",
                "keys"} <= set(names), (width, names)
        if not folded:
            continue
        # the "Save" menu opens under its button, on the window, its four choices one under
        # another; Esc closes it
        page.evaluate("document.getElementById('keep').click(), true")
        assert page.evaluate("document.getElementById('keep').getAttribute('aria-expanded')") == "true"
        opened = page.evaluate(TOOLBAR_CONTROLS)
        choices = [c for c in opened if c["name"] in keep]
        assert [c["name"] for c in choices] == keep, opened
        assert not _toolbar_faults(opened, shown, one_row=False), (width, _toolbar_faults(opened, shown, False))
        assert all(a["bottom"] <= b["top"] for a, b in zip(choices, choices[1:])), choices
        if width == 700:
            page.screenshot(artifacts / "reader-toolbar-700-save-menu.png")
        page.evaluate("document.getElementById('keep').focus(),"
                      " document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true})), true")
        assert not any(c["name"] in keep for c in page.evaluate(TOOLBAR_CONTROLS))
        assert page.url.startswith(browser.extension_origin + "/reader.html")
    # a choice closes the menu and does what it says (C's Markdown, here by its button)
    page.set_viewport(760, 700)
    page.wait_for("window.innerWidth === 760")
    page.evaluate("document.getElementById('keep').click(), true")
    page.evaluate("document.getElementById('copy-markdown').click(), true")
    assert page.evaluate("document.getElementById('keep').getAttribute('aria-expanded')") == "false"
    page.wait_for("document.documentElement.dataset.blocksiftMarkdownChars")


def test_read_aloud_without_speech_synthesis_is_disabled_and_says_why(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    if browser.name != "chromium":
        import pytest

        pytest.skip("removing the speech API before the reader's scripts run needs Playwright's init scripts")
    page = browser.new_tab(site.url("reader-structure.html"))
    # a browser built without speech synthesis: the API is absent from every page of the tab
    page.page.add_init_script("delete window.speechSynthesis; delete window.SpeechSynthesisUtterance;")
    status = browser.act(page, "reader")
    assert status["status"] == "ready", status
    assert page.evaluate("typeof speechSynthesis") == "undefined"
    assert page.evaluate("document.documentElement.dataset.blocksiftSpeech") == "unavailable"
    assert page.evaluate("['listen', 'stop-listening', 'speech-rate'].every(id => document.getElementById(id).disabled)")
    assert "cannot read aloud" in page.evaluate("document.getElementById('listen').title")
    assert page.evaluate("document.getElementById('action-status').textContent") == ""
    # the keys do nothing harmful either: still unavailable, nothing highlighted, no error shown
    for key in ("l", "L", "]", "n"):
        page.evaluate(f"document.dispatchEvent(new KeyboardEvent('keydown', {{key: {key!r}, shiftKey: {str(key == 'L').lower()}, bubbles: true}})), true")
    assert page.evaluate("document.documentElement.dataset.blocksiftSpeech") == "unavailable"
    assert page.evaluate(f"{CONTENT}.querySelectorAll('.speaking').length") == 0
    assert page.evaluate("document.getElementById('speech-rate').value") == "1"
    page.screenshot(artifacts / "reader-no-speech.png")


def test_reader_drops_a_headline_and_byline_repeating_its_header_whatever_their_tags(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # the host's main text of a blog whose headline is a <div> and whose byline an <h3>
    # (as on dev pages): the header shows both, the text must not say them again
    html = ("<div><div>The Night Ferry\n to Bergen</div><div><h3>By Ingrid Saether</h3>"
            "<p>The ferry leaves the quay at eight in the evening, when the last light is still on the water.</p>"
            "<p>By morning the fjord opens up and the town appears behind a line of wooden warehouses.</p>"
            "</div></div>")
    payload = stored_answer(site, "The Night Ferry to Bergen", html,
                            {"authors": ["Ingrid Saether"]})
    page = reader_of_answer(browser, "repeats", payload)
    text = " ".join(text_of(page).split())
    assert page.evaluate("document.getElementById('title').textContent") == "The Night Ferry to Bergen"
    assert page.evaluate("document.getElementById('byline').textContent") == "By Ingrid Saether"
    assert text.startswith("The ferry leaves the quay at eight in the evening"), text
    assert "Ingrid Saether" not in text
    assert "By morning the fjord opens up" in text  # a paragraph opening with "By" stays
    page.screenshot(artifacts / "reader-headline-div.png")


def test_reader_drops_a_byline_line_indented_by_its_template(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a blog template's byline line, indented with tabs and line breaks between its parts
    # ("by Nat Torkington | @gnat | Comment | November 6, 2012"): short as shown, but its
    # white space ran past the length a byline line is looked for up to
    tabs = "\n" + "\t" * 10
    html = (f"<div><h2>Copters, Privacy and Secure Configs</h2><div>{tabs}<span>by</span>{tabs}"
            f"<span><a href='/nat'>{tabs}Nat Torkington</a></span> |{tabs}"
            f"<a href='/gnat'>{tabs}@gnat</a> |{tabs}<a href='#respond'>Comment</a>{tabs}"
            f"<span> | </span>{tabs}<span>November 6, 2012</span>{tabs}</div>"
            "<ol><li>A tilt-to-fly controller with a USB port and a documented protocol.</li>"
            "<li>A game that shows how privacy and consent work online.</li></ol></div>")
    payload = stored_answer(site, "Four short links: 6 November 2012", html,
                            {"authors": ["Nat Torkington"], "published": "2012-11-06"})
    page = reader_of_answer(browser, "tabbed-byline", payload)
    text = " ".join(text_of(page).split())
    assert page.evaluate("document.getElementById('byline').textContent") == "By Nat Torkington"
    assert "@gnat" not in text and "Nat Torkington" not in text, text
    assert "A tilt-to-fly controller" in text
    page.screenshot(artifacts / "reader-tabbed-byline.png")


def test_reader_drops_a_released_line_and_a_list_of_labels_without_their_names(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # NASA's visualization pages: "Released Wednesday, March 2, 2022" under a header of that
    # day, and the credits' labels whose names (links) the host left out, each a list of its
    # own: "Visualizations by:", "Scientific consulting by:" stood over the text
    html = ("<div><ul><li><b>Released</b> Wednesday, March 2, 2022</li></ul>"
            "<ul><li>Visualizations by:</li></ul><ul><li>Scientific consulting by:</li></ul>"
            "<p>Climate change will affect agricultural production worldwide.</p>"
            "<ul><li>Maize yields may fall by a quarter.</li><li>Note:</li></ul>"
            "<p>Wheat may see an uptick in yields.</p></div>")
    payload = stored_answer(site, "Impact of Climate Change on Global Agricultural Yields", html,
                            {"authors": ["Mark SubbaRao"], "published": "2022-03-02"})
    page = reader_of_answer(browser, "released", payload)
    text = " ".join(text_of(page).split())
    assert text.startswith("Climate change will affect"), text
    assert "Released" not in text and "by:" not in text
    assert page.evaluate(f"{CONTENT}.querySelectorAll('ul').length") == 1
    assert "Note:" in text  # a list that lists something keeps its items
    page.screenshot(artifacts / "reader-released-labels.png")


def test_reader_keeps_a_lead_in_that_says_the_title(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # an encyclopedia's first sentence names its subject in bold: the title, inside a
    # paragraph that goes on; it is the sentence's subject, not a repeated headline
    html = ("<div><div><p><b>Bergen</b> is a city on the west coast of Norway, between seven "
            "mountains.</p><p>Its harbour has been a trading port since the twelfth century.</p>"
            "</div></div>")
    payload = stored_answer(site, "Bergen", html)
    page = reader_of_answer(browser, "leadin", payload)
    text = " ".join(text_of(page).split())
    assert text.startswith("Bergen is a city on the west coast of Norway"), text
    page.screenshot(artifacts / "reader-lead-in.png")


def test_reader_drops_a_headline_below_a_date_line(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a WordPress theme's post: the date line above an <h2> title, and the page's <title>
    # (the header's) without the site suffix; no date in the metadata, so the date stays
    html = ('<div><time datetime="2025-12-13T20:08:00+10:00">December 13, 2025</time></div>'
            "<h2>Critique Navidad: Carved in&nbsp;Stone</h2>"
            "<p>Each holiday season I review modules and games as a thank you to the community.</p>"
            "<h2>Contents</h2><p>The book is a setting guide of 160 pages.</p>")
    payload = stored_answer(site, "Critique Navidad: Carved in Stone", html)
    page = reader_of_answer(browser, "datedtitle", payload)
    text = " ".join(text_of(page).split())
    assert "Carved in Stone" not in text, text
    assert text.startswith("December 13, 2025Each holiday season"), text
    assert page.evaluate(f"{CONTENT}.querySelectorAll('h2').length") == 1  # "Contents" stays
    page.screenshot(artifacts / "reader-headline-after-date.png")


def test_reader_drops_a_headline_that_adds_only_the_date_its_header_shows(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a blog's <h2> says the title and the post's date ("... and iPad. <em>28 October,
    # 2011</em>"): it read as the headline again under the header, which shows both; a
    # heading that adds words of its own, or a date the header does not show, stays
    html = ("<div><h2>Arsenal wallpapers for iPhone and&nbsp;iPad. <em>28 October, 2011</em></h2>"
            "<p>Back in July I made a couple of iPhone wallpapers which seemed to be popular.</p>"
            "<h2>Arsenal wallpapers for iPhone and iPad. 28 October, 2011, part two</h2>"
            "<p>More of them below.</p></div>")
    title = "Arsenal wallpapers for iPhone and iPad."
    page = reader_of_answer(browser, "titledate", stored_answer(
        site, title, html, {"published": "2011-10-28"}))
    text = " ".join(text_of(page).split())
    assert text.startswith("Back in July I made"), text
    assert "part two" in text
    page.screenshot(artifacts / "reader-headline-with-date.png")
    page = reader_of_answer(browser, "titledate-other-year", stored_answer(
        site, title, html, {"published": "2012-01-02"}))
    assert " ".join(text_of(page).split()).startswith(
        "Arsenal wallpapers for iPhone and iPad. 28 October, 2011Back in July")


def test_reader_shows_an_opening_headline_worded_otherwise_under_the_title_once(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a guide's <title> (the header's) and its <h1> word the title differently: the <h1>
    # opened the text right under the header, a second headline of the same size; it is
    # shown once, under the title, and an <h1> further on stays in the text
    html = ("<section><div><h1>Reading the Tides</h1><p>Your walk starts here!</p></div></section>"
            "<p>Tide tables give the height of the sea at every hour of the day.</p>"
            "<h1>Chapter two</h1><p>Spring tides follow the new and the full moon.</p>")
    page = reader_of_answer(browser, "subtitle", stored_answer(
        site, "Tides: A Field Guide for Walkers", html))
    assert page.evaluate("document.getElementById('title').textContent") == \
        "Tides: A Field Guide for Walkers"
    assert page.evaluate("document.getElementById('subtitle').hidden") is False
    assert page.evaluate("document.getElementById('subtitle').textContent") == "Reading the Tides"
    text = " ".join(text_of(page).split())
    assert text.startswith("Your walk starts here!"), text
    # (as a section of the text under the title: one level below it)
    assert page.evaluate(f"[...{CONTENT}.querySelectorAll('h1, h2')].map(h => h.localName + ' '"
                         " + h.textContent)") == ["h2 Chapter two"]
    page.screenshot(artifacts / "reader-subtitle.png")
    # the headline saying the title is dropped as before, with no subtitle
    page = reader_of_answer(browser, "subtitle-same", stored_answer(
        site, "Reading the Tides", html))
    assert page.evaluate("document.getElementById('subtitle').hidden") is True
    assert " ".join(text_of(page).split()).startswith("Your walk starts here!")
    # ... and so is one saying the title's words in another order (wcxb-dev 0117: "Graphic
    # Design Course Online" over "Online Graphic Design Course", the same words twice)
    page = reader_of_answer(browser, "subtitle-reordered", stored_answer(
        site, "the Tides Reading", html))
    assert page.evaluate("document.getElementById('subtitle').hidden") is True
    assert " ".join(text_of(page).split()).startswith("Your walk starts here!")
    # two words in another order are another headline ("Tides Reading" is no "Reading Tides")
    page = reader_of_answer(browser, "subtitle-two-words", stored_answer(
        site, "Tides Reading", html.replace("Reading the Tides", "Reading Tides")))
    assert page.evaluate("document.getElementById('subtitle').textContent") == "Reading Tides"
    # a shop theme's second copy of the headline, a linked heading right under the first
    # (wcxb-dev 3026), goes with it, as subtitle or as the title; a linked heading saying
    # something else stays
    copied = html.replace("</h1>", '</h1><a href="/p/tides"><h2 class="h1">Reading the Tides'
                                   "</h2></a>", 1)
    for name, title in (("subtitle-copy", "Tides: A Field Guide for Walkers"),
                        ("subtitle-copy-same", "Reading the Tides")):
        page = reader_of_answer(browser, name, stored_answer(site, title, copied))
        assert " ".join(text_of(page).split()).startswith("Your walk starts here!"), name
    other = html.replace("</h1>", '</h1><a href="/p/maps"><h2>Tide maps</h2></a>', 1)
    page = reader_of_answer(browser, "subtitle-copy-other", stored_answer(
        site, "Tides: A Field Guide for Walkers", other))
    assert text_of(page).strip().startswith("Tide maps"), text_of(page)


def test_reader_reads_a_line_break_in_a_headline_as_a_space(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a shop's headline broken in two lines ("Rebuilding the Legacy<br>of American Made")
    # did not say the title for the reader ("Legacyof"): it stood under the title again, as
    # its subtitle, glued; an <h1> further on with a line break stays in the text
    html = ("<div><h1>Rebuilding the Legacy<br>of American Made</h1>"
            "<p>Makers Market is a return to the good old days.</p></div>"
            "<h1>Our <br>makers</h1><p>Each one vetted.</p>")
    page = reader_of_answer(browser, "headlinebreak", stored_answer(
        site, "Rebuilding the Legacy of American Made", html))
    assert page.evaluate("document.getElementById('subtitle').hidden") is True
    text = " ".join(text_of(page).split())
    assert text.startswith("Makers Market is a return"), text
    assert page.evaluate(f"{CONTENT}.querySelectorAll('h1, h2').length") == 1
    page.screenshot(artifacts / "reader-headline-break.png")
    # worded otherwise, it is the subtitle, its words apart
    page = reader_of_answer(browser, "headlinebreak2", stored_answer(
        site, "American Made Gifts", html))
    assert page.evaluate("document.getElementById('subtitle').textContent") == \
        "Rebuilding the Legacy of American Made"


def test_reader_drops_a_masthead_saying_the_site_line_above_the_headline(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a blog's text opens with its masthead, the site's name as a linked <h1> and its
    # tagline, then the story's own <h1>: the header's site line says the name already
    html = ('<h1><span><a href="/">Geeks and Gadgets Daily</a></span></h1>'
            "<h2>tech, science and news for geeks</h2>"
            "<h1>The Greatest Pizza Commercial</h1><div><p>Wow, just wow.</p>"
            "<p>Geeks and Gadgets Daily found it on a Tuesday.</p></div>")
    page = reader_of_answer(browser, "masthead", stored_answer(
        site, "The Greatest Pizza Commercial", html,
        {"siteName": "Geeks and Gadgets Daily"}))
    assert page.evaluate("document.getElementById('site').textContent") == \
        "Geeks and Gadgets Daily"
    text = " ".join(text_of(page).split())
    assert text.startswith("Wow, just wow."), text
    # the name said within the text stays
    assert "Geeks and Gadgets Daily found it" in text
    assert page.evaluate("document.getElementById('subtitle').hidden") is True
    page.screenshot(artifacts / "reader-masthead.png")
    # a text that opens with its own words keeps them, whatever the site is called
    page = reader_of_answer(browser, "masthead2", stored_answer(
        site, "The Greatest Pizza Commercial", "<p>Geeks and Gadgets Daily</p><p>Wow.</p>",
        {"siteName": "Pizza Weekly"}))
    assert text_of(page).strip().startswith("Geeks and Gadgets Daily")


def test_reader_reads_a_typeset_dash_or_quote_in_a_headline_as_typed(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a shop's <title> types a hyphen where its <h1> sets an en dash ("Switch - OLED
    # Model", "Switch – OLED Model"): one headline, which stood under the title again as
    # its subtitle; a headline worded otherwise is still the subtitle
    html = ("<div><h1>Nintendo Switch \u2013 OLED Model\u2019s \u201cdock\u201d</h1>"
            "<p>This model features a vibrant 7-inch OLED screen.</p></div>")
    page = reader_of_answer(browser, "typesetdash", stored_answer(
        site, "Nintendo Switch - OLED Model's \"dock\"", html))
    assert page.evaluate("document.getElementById('subtitle').hidden") is True
    text = " ".join(text_of(page).split())
    assert text.startswith("This model features"), text
    page.screenshot(artifacts / "reader-typeset-dash.png")
    page = reader_of_answer(browser, "typesetdash2", stored_answer(
        site, "Nintendo Switch - Lite", html))
    assert page.evaluate("document.getElementById('subtitle').textContent") == \
        "Nintendo Switch \u2013 OLED Model\u2019s \u201cdock\u201d"
    # nor by spacing around marks or between a heading's parts: the same words in order
    # ("Kombat \u2019s" in the <title>, "Kombat\u2019s" in the <h1>; "(US)<span>Your")
    html = ("<div><h1>Top Programs of 2025 (US)<span>Your Guide</span> to Kombat\u2019s Guy *</h1>"
            "<p>Business schools ranked by what their graduates earn.</p></div>")
    page = reader_of_answer(browser, "typesetdash3", stored_answer(
        site, "Top Programs of 2025 (US) Your Guide to Kombat \u2019s Guy*", html))
    assert page.evaluate("document.getElementById('subtitle').hidden") is True
    assert " ".join(text_of(page).split()).startswith("Business schools ranked"), text_of(page)


def test_reader_drops_a_meta_line_its_header_says_already_and_keeps_the_text(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a company blog's author, date and reading time above the text, each on its line
    html = ('<div class="blogDetails"><div>ServiceTitan</div><div>November 26th, 2024</div>'
            "<div>10 Min Read</div></div>"
            "<p>Electricians need specialist tools to do their job effectively and safely, so "
            "their tool kit should include a range of heavy-duty, insulated hand tools.</p>"
            "<p>This guide was written by <span>ServiceTitan</span> on November 26th, 2024.</p>")
    payload = stored_answer(site, "39 Best Electrician Tools", html,
                            {"authors": ["ServiceTitan"], "published": "2024-11-26"})
    page = reader_of_answer(browser, "metaline", payload)
    text = " ".join(text_of(page).split())
    assert text.startswith("Electricians need specialist tools"), text
    assert "10 Min Read" not in text
    # a sentence naming the author and the date later on stays whole
    assert "This guide was written by ServiceTitan on November 26th, 2024." in text
    assert page.evaluate("document.getElementById('byline').textContent") == "By ServiceTitan"
    page.screenshot(artifacts / "reader-meta-line.png")
    # without an author or a date in the header, the line is the only place that says them
    payload["metadata"] = {}
    page = reader_of_answer(browser, "metaline-bare", payload)
    assert "10 Min Read" in " ".join(text_of(page).split())


def test_reader_drops_a_post_line_of_byline_date_and_categories_its_header_says(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # an older blog's templates (dragnet T52, R332): the author and date again, with the
    # post's categories as links, right above the text the header already bylined
    lines = {
        "wordpress": ('<div><span>Posted <span> by </span><span><a href="/a/mike">Mike</a>'
                      '</span> on </span><span><a href="/p">August 8, 2012</a></span> in '
                      '<span><a href="/c/award">James Mungro Memorial Award</a>, '
                      '<a href="/c/lions">Lions</a></span></div>'),
        "labels": ('<p>Date:August 8, 2012 | Category:<a href="/c/tips">Tips &amp; Advice</a>'
                   ' | Author:<a href="/a/mike">Mike</a></p>'),
    }
    text_html = ("<p>Detroit Lions football starts in three days. In four short weeks, a player "
                 "you have never heard of will take the award.</p>"
                 "<p>The award went to <a href='/p/2'>Mike</a> on August 8, 2012 in "
                 "<a href='/d'>Detroit</a>.</p>")
    for key, line in lines.items():
        payload = stored_answer(site, "The top names in contention", line + text_html,
                                {"authors": ["Mike"], "published": "2012-08-08"})
        page = reader_of_answer(browser, f"postline-{key}", payload)
        text = " ".join(text_of(page).split())
        assert text.startswith("Detroit Lions football starts"), (key, text)
        # a sentence of the text naming the author, the date and a link stays
        assert "The award went to Mike on August 8, 2012 in Detroit." in text, (key, text)
        page.screenshot(artifacts / f"reader-post-line-{key}.png")
    # a line that says more than its labels stays
    payload = stored_answer(site, "The top names in contention",
                            '<p>Posted by <a href="/a/mike">Mike</a> on August 8, 2012 in '
                            '<a href="/c">Lions</a>, with thanks to the whole team</p>' + text_html,
                            {"authors": ["Mike"], "published": "2012-08-08"})
    page = reader_of_answer(browser, "postline-more", payload)
    assert "with thanks to the whole team" in " ".join(text_of(page).split())


def test_reader_drops_a_forum_posters_statistics_and_keeps_the_post(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # MyBB (wcxb-dev 0558): each author's "Posts: 116 Threads: 23 Joined: Feb 2019
    # Reputation: 7" stood between their name and their post
    def post(name: str, posts: int, text: str) -> str:
        return (f"<hr><p><strong><bdi>{name}</bdi></strong></p><div>Posts: {posts}<br>"
                f"Threads: 23<br>\n\tJoined: Feb 2019\n<br>Reputation: \n<a href='/r'><strong>7"
                f"</strong></a></div><div>{text}</div>")
    html = (post("StarredSkies", 116, "I run a SMF website and have been thinking of "
                 "converting to MyBB. What are its pros and cons?")
            + post("Find", 96, "Why not try it out, if able that is. Posts: 3 of mine are "
                   "about it.")
            + "<div>Posts: 12 of them answered<br>Joined: the forum in 2019 after a long"
            " while of reading it every day</div>")
    payload = stored_answer(site, "SMF vs MyBB?", html)
    page = reader_of_answer(browser, "posterstats", payload)
    text = " ".join(text_of(page).split())
    assert "Threads: 23" not in text and "Joined: Feb 2019" not in text, text
    assert "StarredSkies" in text and "I run a SMF website" in text, text
    assert "Why not try it out, if able that is. Posts: 3 of mine are about it." in text, text
    # lines too long to be counts stay
    assert "Posts: 12 of them answered" in text, text
    page.screenshot(artifacts / "reader-poster-stats.png")


def test_reader_shows_a_disclosure_summary_on_its_markers_line_and_sets_the_box_apart(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # MDN (wcxb-dev 2992): the "Baseline" badge's summary holds a <div>, which put the
    # disclosure marker alone on a line, and the next paragraph stood right under the box
    html = ("<details><summary><span></span><div>Baseline <span>Widely available</span> *"
            "</div><span></span></summary><div><p>This feature is well established.</p></div>"
            "</details><p>The Promise object represents the eventual completion of an "
            "asynchronous operation.</p>")
    page = reader_of_answer(browser, "summary", stored_answer(site, "Promise", html))
    one_line, gap = page.evaluate(
        "(() => { const s = document.querySelector('#content summary');"
        " const d = document.querySelector('#content details');"
        " const p = d.nextElementSibling;"
        " const line = parseFloat(getComputedStyle(s).lineHeight) || 30;"
        " return [s.getBoundingClientRect().height < 1.5 * line,"
        " p.getBoundingClientRect().top - d.getBoundingClientRect().bottom]; })()")
    assert one_line
    assert gap >= 8, gap
    page.screenshot(artifacts / "reader-summary.png")


def test_reader_drops_a_date_line_with_its_lead_word_not_the_date_alone(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a forum post's head: its author's name, then a "Posted <date>" line, a link to the
    # post; the header shows both, so the line goes whole (its date alone gone left a lone
    # "Posted" link above the text)
    html = ('<p><strong>Rabbids</strong></p><div><a href="#post-1">Posted <time '
            'datetime="2024-03-19T21:22:50Z">March 19, 2024</time></a></div><p>Does anyone '
            "know what the two holes in the case are for? The manual says nothing about them.</p>"
            '<p>Updated <time datetime="2024-03-20">March 20, 2024</time>: found it.</p>')
    payload = stored_answer(site, "New PC Case", html,
                            {"authors": ["Rabbids"], "published": "2024-03-19"})
    page = reader_of_answer(browser, "postedline", payload)
    text = " ".join(text_of(page).split())
    assert text.startswith("Does anyone know what the two holes"), text
    assert page.evaluate(f"{CONTENT}.querySelectorAll('a').length") == 0
    # a later line with words of its own keeps its date
    assert "Updated March 20, 2024: found it." in text
    page.screenshot(artifacts / "reader-posted-line.png")


def test_reader_keeps_a_later_post_s_date_line_of_the_header_s_day(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a thread whose first post's date line goes as the header's repeat: the next post, of
    # the same day, lost its "Posted" line too (the first date left in the text was taken
    # for the header's repeat)
    posted = '<div><a href="#post-{n}">Posted <time datetime="2024-03-05T{t}Z">March 5, 2024</time></a></div>'
    html = ("<h3><a href='/u/1'>Payam Montie</a> 9</h3>" + posted.format(n=1, t="07:02:39")
            + "<p>I do not like this new look; the previous one was more functional.</p>"
            "<hr><p><strong>Soapm</strong></p>" + posted.format(n=2, t="09:42:23")
            + "<p>I agree with you, I cannot find anything in the new one.</p>")
    payload = stored_answer(site, "New UI 2024", html,
                            {"authors": ["Payam Montie"], "published": "2024-03-05"})
    page = reader_of_answer(browser, "laterdate", payload)
    text = " ".join(text_of(page).split())
    assert text.count("Posted March 5, 2024") == 1, text
    assert "SoapmPosted March 5, 2024I agree with you" in text, text
    page.screenshot(artifacts / "reader-later-date-line.png")


def test_reader_keeps_a_reply_s_date_when_the_opening_post_shows_none(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a thread whose opening post shows no date line: the first date in the text is the
    # first reply's, of the header's day, and was dropped as the header's repeat ("#2 ·")
    html = ("<div><div>Hello all, I am new here and keen to take up woodworking properly. I "
            "have a jigsaw, a circular saw and a drill. Which first projects would you suggest "
            "for someone who wants to make a side table next?</div></div>"
            "<hr><p><strong>Tony</strong></p><div><span><a href='#post-2'>#2</a> · <a "
            "href='#post-2'><time datetime='2023-08-05T11:06:27-0400'>Aug 5, 2023</time></a>"
            "</span></div><div><div>Get a decent table saw first.</div></div>")
    payload = stored_answer(site, "First projects", html,
                            {"authors": ["Woodguy"], "published": "2023-08-05"})
    page = reader_of_answer(browser, "replydate", payload)
    text = " ".join(text_of(page).split())
    assert "Tony#2 · Aug 5, 2023Get a decent table saw first." in text, text
    page.screenshot(artifacts / "reader-reply-date.png")


def test_reader_drops_rules_with_nothing_above_them(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a forum thread's main text: each post set apart by a rule, the first post's author
    # and date line gone as the header's repeat; two lines with nothing between them stood
    # under the header
    html = ("<div><h1>New PC Case</h1></div><hr><p><strong>Rabbids</strong></p>"
            '<div><a href="#post-1">Posted <time datetime="2024-03-19">March 19, 2024</time>'
            "</a></div><hr><p>Does anyone know what the two holes in the case are for?</p>"
            "<hr><p><strong>DevBiker</strong></p><p>The rear one is for Link devices.</p><hr>"
            "<figure><img src='https://example.com/case.jpg' alt='The case'></figure>")
    payload = stored_answer(site, "New PC Case", html,
                            {"authors": ["Rabbids"], "published": "2024-03-19"})
    page = reader_of_answer(browser, "barerules", payload)
    text = " ".join(text_of(page).split())
    assert text.startswith("Does anyone know what the two holes"), text
    # the rules between posts stay, and one above a picture
    assert page.evaluate(f"{CONTENT}.querySelectorAll('hr').length") == 2
    assert page.evaluate(f"{CONTENT}.firstElementChild.localName") != "hr"
    page.screenshot(artifacts / "reader-bare-rules.png")


def test_reader_drops_headings_that_head_nothing(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a box's heading whose list the algorithm left out, and one at the very end
    html = ("<h2>The tides</h2><p>The tide turns twice a day in the estuary, and the mud flats "
            "fill in under an hour.</p><h2>Related stories</h2><h2>The harbour</h2>"
            "<h3>Its wall</h3><p>The sea wall was rebuilt in stone after the storm of 1953.</p>"
            "<h2>Gallery</h2><figure><img src='harbour.svg' alt='The harbour'></figure>"
            "<h3>See also</h3>")
    page = reader_of_answer(browser, "emptyheadings", stored_answer(site, "Estuary", html))
    headings = page.evaluate(f"[...{CONTENT}.querySelectorAll('h2, h3')].map(h => h.textContent)")
    assert headings == ["The tides", "The harbour", "Its wall", "Gallery"], headings
    page.screenshot(artifacts / "reader-empty-headings.png")


def test_reader_drops_a_heading_that_heads_only_the_headline(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a product page's main text opens with a carousel's heading, its items left out, then
    # the product's name: with the name shown as the title, the carousel's heading stood
    # over the product's text
    html = ("<div><h2>People who viewed this item also viewed</h2></div><div>"
            "<h1>Brass Ship Lantern</h1><p>Hand made from solid brass by a small workshop on "
            "the coast; it burns oil for eight hours on a filling.</p><h2>Delivery</h2>"
            "<p>Sent in a wooden crate within three days.</p></div>")
    page = reader_of_answer(browser, "headlineonly", stored_answer(
        site, "Brass Ship Lantern", html, {"title": "Brass Ship Lantern"}))
    assert page.evaluate("document.getElementById('title').textContent") == "Brass Ship Lantern"
    headings = page.evaluate(f"[...{CONTENT}.querySelectorAll('h1, h2')].map(h => h.textContent)")
    assert headings == ["Delivery"], headings
    assert " ".join(text_of(page).split()).startswith("Hand made from solid brass")
    page.screenshot(artifacts / "reader-heading-over-headline.png")


def test_reader_keeps_headings_that_sign_the_text_before_them(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a testimonials page: each quote, then its author's name and role as two headings, each
    # in a box of its own; the name, followed by the role's heading, was taken for a heading
    # that heads nothing; a box's heading without its list still goes
    quote = ("<section><div><div><p>{}</p></div><div><h2>{}</h2></div><div><h2>Parent</h2>"
             "</div></div></section>")
    html = (quote.format("Josh is a wonderful teacher, patient and always well prepared.",
                         "Sarah Ward")
            + quote.format("Our son went from a keen beginner to a merit at grade five.",
                           "Bryn Harrison")
            + "<section><p>Book a first lesson today.</p></section>"
              "<section><div><h2>Related stories</h2></div><div><h2>Lessons</h2>"
              "<p>Lessons are held weekly in the studio.</p></div></section>")
    page = reader_of_answer(browser, "signedquotes", stored_answer(site, "Reviews", html))
    headings = page.evaluate(f"[...{CONTENT}.querySelectorAll('h2')].map(h => h.textContent)")
    assert headings == ["Sarah Ward", "Parent", "Bryn Harrison", "Parent", "Lessons"], headings
    page.screenshot(artifacts / "reader-signed-quotes.png")


def test_reader_shows_headings_as_an_outline_under_the_title(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a directory's cards are <h5>s under the page's <h1>, and a section skips a level: the
    # reader's outline steps down one level at a time from its title, the page's order kept
    html = ("<h5>Gearmedia podcast</h5><p>A weekly show on sound gear, recorded in a shed.</p>"
            "<h5>Onit podcast</h5><p>Interviews with the makers of small tools and machines.</p>"
            "<h3>About the directory</h3><p>Shows are listed by their latest episode.</p>"
            "<h6>How shows are chosen</h6><p>By their listeners' votes, every month.</p>")
    page = reader_of_answer(browser, "outline", stored_answer(site, "Technology podcasts", html))
    headings = page.evaluate(f"[...{CONTENT}.querySelectorAll('h1, h2, h3, h4, h5, h6')]"
                             ".map(h => h.localName + ' ' + h.textContent)")
    assert headings == ["h2 Gearmedia podcast", "h2 Onit podcast", "h2 About the directory",
                        "h3 How shows are chosen"], headings
    assert page.evaluate("document.getElementById('title').localName") == "h1"
    page.screenshot(artifacts / "reader-outline.png")


def test_reader_reads_an_index_of_one_story_as_its_text(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a shop's category page the host took for an index of its one "Contact Us" teaser read
    # "This page is an index of 1 stories" over that link, titled by "<title>" with the shop
    answer = stored_answer(site, "Mesh Office Chairs | Quayside", "<p>Mesh office chairs built "
                           "for the ways you live and work, backed by a lifetime guarantee.</p>",
                           {"title": "Mesh Office Chairs"})
    one = [{"title": "Contact Us", "href": "/contact", "teaser": "Phone: 800-558-1010"}]
    page = reader_of_answer(browser, "indexofone", {**answer, "pageKind": "index", "index": one})
    assert page.evaluate(f"{CONTENT}.querySelector('.index-note')") is None
    assert "Mesh office chairs built for the ways" in text_of(page)
    assert "Contact Us" not in text_of(page)
    assert page.evaluate("document.getElementById('title').textContent") == "Mesh Office Chairs"
    page.screenshot(artifacts / "reader-index-of-one.png")
    # three stories are an index, titled by the page (its <title> less the site's name)
    three = [{"title": f"Story {n}", "href": f"/s{n}", "teaser": ""} for n in (1, 2, 3)]
    page = reader_of_answer(browser, "indexofthree", {**answer, "pageKind": "index", "index": three})
    assert "an index of 3 stories" in page.evaluate(f"{CONTENT}.querySelector('.index-note').textContent")
    assert page.evaluate("document.getElementById('title').textContent") == "Mesh Office Chairs"


def test_reader_titles_an_index_by_its_page_without_the_site_s_name(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a news topic's index was headed "Latest Cloud Computing News | CIO Dive" under the site
    # line "CIO Dive", a code host's "machine-learning · GitHub Topics · GitHub" under "GitHub"
    stories = [{"title": f"Story {n}", "href": f"/s{n}", "teaser": ""} for n in range(4)]

    def title_of(key: str, page_title: str, metadata: dict) -> str:
        answer = stored_answer(site, page_title, "<p>Teasers.</p>", metadata)
        page = reader_of_answer(browser, key, {**answer, "pageKind": "index", "index": stories})
        assert page.evaluate("document.getElementById('site').textContent") == metadata["siteName"]
        if key == "indextitle1":
            page.screenshot(artifacts / "reader-index-title.png")
        return page.evaluate("document.getElementById('title').textContent")

    # the metadata's title, a part of the <title>
    assert title_of("indextitle1", "Latest Cloud Computing News | CIO Dive", {
        "title": "Latest Cloud Computing News", "siteName": "CIO Dive"}) == "Latest Cloud Computing News"
    # the <title> less the site's name at its end; the site's name before its words stays
    assert title_of("indextitle2", "machine-learning · GitHub Topics · GitHub", {
        "title": "Machine learning", "siteName": "GitHub"}) == "machine-learning · GitHub Topics"
    assert title_of("indextitle3", "Figma: The Collaborative Interface Design Tool", {
        "title": "Figma", "siteName": "Figma"}) == "Figma: The Collaborative Interface Design Tool"
    # never the first story's headline the metadata took for the title
    assert title_of("indextitle4", "Streaming News – The Herald", {
        "title": "Tesla recalls 2 million cars", "siteName": "The Herald"}) == "Streaming News"
    # a <title> that names the site in a word of its own keeps it
    assert title_of("indextitle5", "GitHub Topics", {
        "title": "Topics", "siteName": "GitHub"}) == "GitHub Topics"


def test_reader_of_a_site_s_categories_under_the_page_s_own_calls_them_categories(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # iFixit's "iPhone Parts" lists "iPhone 16 Parts", "iPhone 16 Pro Max Parts"..., the
    # site's categories under the one the page is, linked as "/Parts/iPhone_16": the reader
    # called them "72 stories" and "here are its headlines"
    models = ["16", "16 Plus", "16 Pro", "16 Pro Max", "15", "SE 2022"]
    parts = [{"title": f"iPhone {model} Parts", "href": f"/Parts/iPhone_{model.replace(' ', '_')}",
              "teaser": ""} for model in models]
    answer = stored_answer(site, "iPhone Parts | iFixit", "<p>Parts.</p>",
                           {"title": "iPhone Parts", "siteName": "iFixit"})
    page = reader_of_answer(browser, "indexparts", {**answer, "pageKind": "index", "index": parts})
    note = page.evaluate(f"{CONTENT}.querySelector('.index-note').textContent")
    assert note == "This page lists 6 categories, not an article: here they are.", note
    assert page.evaluate("document.getElementById('details').textContent") == "6 categories"
    page.screenshot(artifacts / "reader-index-categories.png")
    # a news section's headlines say more than its name: stories still
    news = [{"title": f"Parts shortage hits iPhone {model} repairs across Europe", "href": f"/n{n}",
             "teaser": ""} for n, model in enumerate(models)]
    page = reader_of_answer(browser, "indexpartsnews", {**answer, "pageKind": "index", "index": news})
    assert page.evaluate("document.getElementById('details').textContent") == "6 stories"


def test_reader_of_an_index_gives_no_story_s_byline_or_date_and_counts_its_stories(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a news section's index: the byline and date the host found were its first story's, and
    # the reading time was the main text's, which the index does not show ("By Logan Jones ·
    # December 17, 2025 · 10 min read · 2,399 words" over 61 headlines)
    answer = stored_answer(site, "Streaming News | The Herald", "<p>" + "Teaser words. " * 400
                           + "</p>", {"title": "Streaming News", "authors": ["Logan Jones"],
                                      "published": "2025-12-17", "siteName": "The Herald"})
    stories = [{"title": f"Story {n}", "href": f"/s{n}", "teaser": "A teaser."} for n in range(5)]
    page = reader_of_answer(browser, "indexheader", {**answer, "pageKind": "index", "index": stories})
    assert "an index of 5 stories" in page.evaluate(f"{CONTENT}.querySelector('.index-note').textContent")
    assert page.evaluate("document.getElementById('byline').hidden")
    details = page.evaluate("document.getElementById('details').textContent")
    assert details == "5 stories", details
    assert page.evaluate("document.querySelector('#details time')") is None
    page.screenshot(artifacts / "reader-index-header.png")
    # an article keeps them
    page = reader_of_answer(browser, "articleheader", answer)
    assert page.evaluate("document.getElementById('byline').textContent") == "By Logan Jones"
    assert "min read" in page.evaluate("document.getElementById('details').textContent")


def test_reader_shows_a_description_the_page_carries_twice_once(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a shop page's desktop and mobile copies of one description (CSS shows one of them)
    page = open_reader(browser, site, "reader-repeats.html")
    text = text_of(page)
    for sentence in ("with taped seams and a three-layer shell",
                     "Its hood folds into the collar",
                     "sewn in our workshop in Leith"):
        assert text.count(sentence) == 1, sentence
    assert text.count("Made for the wet side of the coast") == 1
    assert "Privacy" not in text and "Sale" not in text
    # no declared site name: the one "<title>" ends with, not the host
    assert page.evaluate("document.getElementById('site').textContent") == "Quayside Outfitters"
    page.screenshot(artifacts / "reader-repeats.png")


def test_reader_of_an_untitled_page_is_headed_by_its_first_line_not_its_host(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    """A page with no <title> (made in the 2000s: a bold, large first line names it): the
    header said the host name twice, as the site line and as the headline. The headline is
    now the page's first prominent line, said once."""
    page = open_reader(browser, site, "reader-untitled.html")
    site_line = page.evaluate("document.getElementById('site').textContent")
    title = page.evaluate("document.getElementById('title').textContent")
    assert title == "Harbour Walks for Beginners", (site_line, title)
    assert site_line and site_line != title
    text = " ".join(text_of(page).split())
    assert text.startswith("Overview Every second Saturday"), text  # not said twice
    page.screenshot(artifacts / "reader-untitled.png")


def test_reader_shows_no_headline_rather_than_the_site_line_again(
        browser: harness.Browser, site: harness.Site) -> None:
    """A page with no title at all (nor a prominent first line): no headline, rather than
    the host name under the same host name."""
    html = ("<p>Every second Saturday the club walks the old harbour wall from the lighthouse to"
            " the fish market, a gentle hour on flat ground.</p>")
    payload = stored_answer(site, "", html, {"siteName": "127.0.0.1"})
    page = reader_of_answer(browser, "untitled", payload)
    assert page.evaluate("document.getElementById('site').textContent") == "127.0.0.1"
    assert page.evaluate("document.getElementById('title').textContent") == ""
    assert page.evaluate("document.getElementById('title').hidden") is True
    assert page.evaluate("document.title") == "127.0.0.1"
    # nor a title that only says the site line again
    payload = stored_answer(site, "127.0.0.1", html, {"siteName": "127.0.0.1"})
    page = reader_of_answer(browser, "host-title", payload)
    assert page.evaluate("document.getElementById('title').hidden") is True


def _gold(name: str) -> tuple[str, str]:
    """A test page's markup and its gold main text (its ``data-gold`` elements)."""
    from lxml import html as lxml_html

    markup = (harness_pages() / name).read_text(encoding="utf-8")
    gold = " ".join(" ".join(e.text_content().split())
                    for e in lxml_html.fromstring(markup).xpath("//*[@data-gold]"))
    return markup, gold


def _dataset_pages(host: harness.HostInstall, site: harness.Site, names: list[str]) -> None:
    """Labeled pages of the test site from a dataset adapt it (as ``blocksift train auto
    --per-site --dataset`` counts them into the site's file); none is a saved example."""
    from blocksift.algorithms.segmenter import adapt
    from blocksift.page import Page

    pages = [(Page(_gold(name)[0], url=site.url(name)), _gold(name)[1]) for name in names]
    prior = adapt.learn(adapt.site_key(site.url(names[0])), pages)
    adapt.save(prior, host.home / "data" / "models" / "auto-sites")


def _saved_example(host: harness.HostInstall, site: harness.Site, name: str) -> None:
    """The user saved a labeled example of this page (as the labeler's Save does: stored, and
    counted into its site's file)."""
    from blocksift.storage.examples import Example, ExampleStore

    markup, gold = _gold(name)
    with ExampleStore(host.home / "data" / "examples.sqlite3") as store:
        store.save(Example(html=markup, main_text=gold, url=site.url(name), title=name))
        store.settle(host.home / "data" / "models" / "auto-sites")


def harness_pages() -> Path:
    return Path(__file__).resolve().parent / "pages"


def test_reader_says_when_labeled_pages_of_the_site_were_used_and_whose(
        browser: harness.Browser, site: harness.Site, host: harness.HostInstall,
        artifacts: Path) -> None:
    """Labeling pays off visibly: on a site with labeled pages, the reader's header says
    that auto adapted to the site, from how many pages the user labeled and how many came
    from a dataset (never calling a dataset's pages the user's); elsewhere it says nothing."""
    page = open_reader(browser, site, "hide/news.html")
    assert "Adapted to this site" not in page.evaluate("document.getElementById('details').textContent")
    page.close()
    _dataset_pages(host, site, ["hide/news.html", "hide/news-tagged.html"])
    page = open_reader(browser, site, "hide/news.html")
    details = page.evaluate("document.getElementById('details').textContent")
    assert "Adapted to this site from 2 pages of a dataset" in details, details
    assert "you labeled" not in details and "your" not in details, details
    page.screenshot(artifacts / "reader-adapted-dataset.png")
    page.close()
    _saved_example(host, site, "hide/news-tagged.html")
    page = open_reader(browser, site, "hide/news.html")
    details = page.evaluate("document.getElementById('details').textContent")
    assert "Adapted to this site from 1 page you labeled and 2 from a dataset" in details, \
        details
    page.screenshot(artifacts / "reader-adapted.png")


def test_reader_takes_whose_pages_from_the_hosts_count_and_lists_examples_only_without_it(
        browser: harness.Browser, site: harness.Site, host: harness.HostInstall,
        artifacts: Path) -> None:
    """The site's file counts how many of its pages are the user's saved examples, and the
    result says it (stats.site_examples): the reader takes that count, not a listing of the
    saved examples. A file from before the count says nothing of it: the reader lists the
    saved examples then, as it did for every site before."""
    _dataset_pages(host, site, ["hide/news.html", "hide/news-tagged.html"])
    _saved_example(host, site, "hide/news-tagged.html")
    site_file = (host.home / "data" / "models" / "auto-sites"
                 / f"{adapt_site(site.url('hide/news.html'))}.json")
    data = json.loads(site_file.read_text())
    assert (data["pages"], data["examples"]) == (3, 1)
    # a count only the file holds (the examples database has one example of the site, so a
    # listing would say 1 and 2): the reader says what the host counted
    site_file.write_text(json.dumps({**data, "examples": 3}))
    page = open_reader(browser, site, "hide/news.html")
    details = " ".join(page.evaluate("document.getElementById('details').textContent").split())
    assert details.endswith("Adapted to this site from 3 pages you labeled"), details
    page.close()
    # a file from before the count: the saved examples are listed, the split found so
    site_file.write_text(json.dumps({k: v for k, v in data.items() if k != "examples"}))
    page = open_reader(browser, site, "hide/news.html")
    details = " ".join(page.evaluate("document.getElementById('details').textContent").split())
    assert details.endswith("Adapted to this site from 1 page you labeled and 2 from a dataset"), \
        details
    page.close()
    site_file.write_text(json.dumps(data))  # the count back: the same words, from the count
    page = open_reader(browser, site, "hide/news.html")
    note = page.evaluate("[document.getElementById('adapted').textContent, "
                         "document.getElementById('adapted').title]")
    assert note[0] == "Adapted to this site from 1 page you labeled and 2 from a dataset", note
    assert "training dataset" in note[1], note
    page.screenshot(artifacts / "reader-adapted-count.png")


def adapt_site(url: str) -> str:
    from blocksift.algorithms.segmenter import adapt

    return adapt.site_key(url)


def test_reader_shows_a_product_pages_price_and_picture_from_its_structured_data(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a shop's product page: the price sits in a box of its own by the product's name, which
    # the main text leaves out; the page's schema.org Product states it, and the header shows it
    page = open_reader(browser, site, "reader-product.html")
    assert page.evaluate("document.getElementById('title').textContent") == \
        "Trail Mug, Speckled Stoneware"
    assert page.evaluate("document.getElementById('price')?.textContent") == "$34.00"
    assert page.evaluate("document.getElementById('price').value") == "34.00 USD"
    details = " ".join(page.evaluate("document.getElementById('details').textContent").split())
    assert details.startswith("$34.00 · "), details
    text = text_of(page)
    assert "Thrown by hand on the wheel" in text and "Camp Bowl" not in text
    # its photo sits in a gallery the main text leaves out; the Product's image opens the text
    picture = page.evaluate("""(() => {
      const img = document.querySelector('#content > #product-picture:first-child > img');
      return img && {src: img.src, alt: img.alt, referrer: img.referrerPolicy,
                     hidden: img.hidden, complete: img.complete, width: img.naturalWidth};
    })()""")
    assert picture is not None, page.evaluate("document.getElementById('content').innerHTML")[:600]
    assert picture["src"] == site.url("wave.svg"), picture
    assert picture["alt"] == "Trail Mug, Speckled Stoneware" and picture["referrer"] == "no-referrer"
    assert page.wait_for("(() => { const img = document.querySelector('#product-picture img');"
                         " return img.complete && img.naturalWidth > 0; })()")
    assert not page.evaluate("document.querySelector('#product-picture img').hidden")
    page.screenshot(artifacts / "reader-product.png")
    # an article names no price, even where its page describes a product, and shows no
    # picture but its own
    page = open_reader(browser, site, "reader-shadow.html")
    assert page.evaluate("document.getElementById('price')") is None
    assert page.evaluate("document.getElementById('product-picture')") is None


DIRECTION = "(selector) => getComputedStyle(document.querySelector(selector)).direction"


def direction(page: harness.Tab, selector: str) -> str:
    return page.evaluate(f"({DIRECTION})({json.dumps(selector)})")


def test_reader_of_a_right_to_left_page_reads_right_to_left_and_saves_so(
        browser: harness.Browser, site: harness.Site, tmp_path: Path, artifacts: Path) -> None:
    vault = tmp_path / "Notes vault"
    vault.mkdir()
    choose_export_folder(browser, vault)
    # an Arabic article (<html dir="rtl" lang="ar">) with a Python listing marked dir="ltr"
    page = open_reader(browser, site, "reader-rtl-arabic.html")
    assert page.evaluate("document.getElementById('reader').getAttribute('dir')") == "rtl"
    assert page.evaluate("document.getElementById('reader').getAttribute('lang')") == "ar"
    assert page.evaluate("document.getElementById('title').textContent") == "قياس المد والجزر في ميناء الإسكندرية"
    for selector in ("#title", "#site", "#details", "#content p", "#content ol"):
        assert direction(page, selector) == "rtl", selector
    # the listing keeps its own direction; code in a sentence reads left to right too
    assert page.evaluate("document.querySelector('#content pre').getAttribute('dir')") == "ltr"
    assert direction(page, "#content pre") == "ltr"
    assert direction(page, "#content p code") == "ltr"
    # the toolbar and the reader's own words stay the extension's (left to right)
    assert direction(page, ".toolbar") == "ltr" and direction(page, "#provenance") == "ltr"
    assert page.evaluate("document.getElementById('byline').textContent") == "By ليلى حسن"
    assert page.evaluate("document.querySelector('#details time').dateTime") == "2024-03-14"
    # the text's first line starts at the right edge of the column
    box = page.evaluate("(() => { const p = document.querySelector('#content p'), r = document.createRange();"
                        " r.setStart(p.firstChild, 0); r.setEnd(p.firstChild, 1);"
                        " const c = p.getBoundingClientRect(), f = r.getBoundingClientRect();"
                        " return {right: c.right, first: f.right}; })()")
    assert abs(box["right"] - box["first"]) < 2, box
    page.screenshot(artifacts / "reader-rtl-arabic.png")
    # the saved HTML file reads right to left in Arabic, the listing left to right
    page.evaluate("document.getElementById('save-html').click(), true")
    saved = Path(page.wait_for("document.documentElement.dataset.blocksiftSaved"))
    html = saved.read_text(encoding="utf-8")
    assert '<html lang="ar" dir="rtl">' in html and '<pre dir="ltr">' in html
    page.close()

    # a Hebrew page that says its language only (<html lang="he">)
    page = open_reader(browser, site, "reader-rtl-hebrew.html")
    assert page.evaluate("document.getElementById('reader').getAttribute('dir')") == "rtl"
    assert page.evaluate("document.getElementById('reader').getAttribute('lang')") == "he"
    assert direction(page, "#content ul") == "rtl"
    page.screenshot(artifacts / "reader-rtl-hebrew.png")


def test_reader_keeps_a_quote_s_direction_and_language_in_an_english_article(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = open_reader(browser, site, "reader-mixed-direction.html")
    assert page.evaluate("document.getElementById('reader').getAttribute('dir')") == "ltr"
    assert page.evaluate("document.getElementById('reader').getAttribute('lang')") == "en"
    assert page.evaluate(f"{CONTENT}.querySelector('blockquote').getAttribute('dir')") == "rtl"
    assert page.evaluate(f"{CONTENT}.querySelector('blockquote').lang") == "he"
    assert direction(page, "#content blockquote p") == "rtl"
    assert direction(page, "#content > p, #content p") == "ltr"
    # a name in Arabic isolated in its sentence, a word drawn the other way round
    assert page.evaluate(f"{CONTENT}.querySelector('bdi')?.lang") == "ar"
    assert page.evaluate(f"{CONTENT}.querySelector('bdo')?.getAttribute('dir')") == "rtl"
    assert direction(page, "#content bdo") == "rtl"
    page.screenshot(artifacts / "reader-mixed-direction.png")


def text_box(page: harness.Tab, selector: str) -> dict:
    """Where an element's text is drawn (its first text node's box), in the window."""
    return page.evaluate(
        "((el) => { const r = document.createRange(); r.selectNodeContents(el);"
        " const t = r.getBoundingClientRect(), b = el.getBoundingClientRect();"
        " return {left: Math.round(t.left), right: Math.round(t.right), boxRight: Math.round(b.right)}; })"
        f"(document.querySelector({json.dumps(selector)}))")


def test_reader_loading_state_of_a_right_to_left_page_stands_where_its_text_will(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # the reader opens before the host has answered, titled from its address: an Arabic
    # title stood on the left, left to right, until the text came and it jumped right
    from urllib.parse import urlencode

    title = "قياس المد والجزر في ميناء الإسكندرية"
    page = browser.new_tab(browser.ext_url("options.html"))
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    page.evaluate("(globalThis.browser ?? chrome).storage.session.set({'reader:rtlboot': "
                  + json.dumps({"pending": True, "url": site.url("reader-rtl-arabic.html"),
                                "title": title, "lang": "ar", "startedAt": 0}) + "})")
    query = urlencode({"title": title, "site": "127.0.0.1", "theme": "light"})
    page.navigate(browser.ext_url(f"reader.html?{query}#reader%3Artlboot"))
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'waiting'")
    assert page.evaluate("document.getElementById('title').textContent") == title
    for selector in ("#title", "#site", "#loading"):
        assert direction(page, selector) == "rtl", selector
    assert direction(page, "#loading-text") == "ltr"  # the reader's own words
    loading = text_box(page, "#title")
    assert abs(loading["right"] - loading["boxRight"]) < 2, loading  # on the right
    page.screenshot(artifacts / "reader-rtl-loading.png")
    # the text comes: the title stays where it stood
    answer = {**stored_answer(site, title, "<p>يرتفع البحر وينخفض مرتين كل يوم في ميناء الإسكندرية.</p>",
                              {"title": title, "language": "ar", "direction": "rtl"}),
              "lang": "ar"}
    page.evaluate("(globalThis.browser ?? chrome).storage.session.set({'reader:rtlboot': "
                  + json.dumps(answer) + "})")
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'ready'")
    assert text_box(page, "#title") == loading
    assert page.evaluate("document.documentElement.dataset.bootDir") is None
    page.screenshot(artifacts / "reader-rtl-loaded.png")
    # a title without letters (a date): the language the page declared says it
    page.evaluate("(globalThis.browser ?? chrome).storage.session.set({'reader:rtlboot2': "
                  + json.dumps({"pending": True, "url": site.url("reader-rtl-hebrew.html"),
                                "title": "2024", "lang": "he", "startedAt": 0}) + "})")
    page.navigate(browser.ext_url(f"reader.html?{urlencode({'title': '2024', 'site': 'x'})}"
                                  "#reader%3Artlboot2"))
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'waiting'")
    assert page.evaluate("document.getElementById('reader').lang") == "he"
    assert direction(page, "#title") == "rtl"
    # an English title stays left to right
    page.evaluate("(globalThis.browser ?? chrome).storage.session.set({'reader:ltrboot': "
                  + json.dumps({"pending": True, "url": site.url("article.html"),
                                "title": "Harbour lights", "lang": "en", "startedAt": 0}) + "})")
    page.navigate(browser.ext_url(f"reader.html?{urlencode({'title': 'Harbour lights'})}"
                                  "#reader%3Altrboot"))
    page.wait_for("document.documentElement.dataset.blocksiftStatus === 'waiting'")
    assert direction(page, "#title") == "ltr" and direction(page, "#loading") == "ltr"


def test_reader_of_a_right_to_left_index_keeps_its_own_note_left_to_right(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # an Arabic section index: the reader's English note ("This page is an index of …")
    # inherited right to left, its full stop at the sentence's start; the headlines read
    # right to left
    page = open_reader(browser, site, "reader-rtl-index.html")
    assert page.evaluate("document.getElementById('reader').getAttribute('dir')") == "rtl"
    note = f"{CONTENT}.querySelector('.index-note')"
    assert page.evaluate(f"{note}.textContent").startswith("This page is an index of 10 stories")
    assert direction(page, "#content .index-note") == "ltr"
    assert page.evaluate(f"{note}.lang") == "en"
    assert direction(page, "#content .index-list") == "rtl"
    assert direction(page, "#content .index-list h2") == "rtl"
    assert page.evaluate(f"{CONTENT}.querySelector('.index-list h2').textContent") == \
        "قارب النجاة ينقذ اثنين من راكبي الكاياك قرب الرأس"
    assert page.evaluate("document.getElementById('title').textContent") == "محليات"
    page.screenshot(artifacts / "reader-rtl-index.png")


def test_reader_saves_a_product_pages_price_and_picture_with_it(
        browser: harness.Browser, site: harness.Site, tmp_path: Path, artifacts: Path) -> None:
    # the details line showed "$34.00"; the saved files and the copy left it out (and the
    # product's picture above the text)
    vault = tmp_path / "Notes vault"
    vault.mkdir()
    choose_export_folder(browser, vault)
    page = open_reader(browser, site, "reader-product.html")
    shown = page.evaluate("document.getElementById('price').textContent")
    assert shown == "$34.00"
    page.evaluate("document.getElementById('save-html').click(), true")
    html = Path(page.wait_for("document.documentElement.dataset.blocksiftSaved")).read_text(
        encoding="utf-8")
    assert "<small>$34.00 · Kiln &amp; Copper</small>" in html, html[:1200]
    body = html.split("</small>", 1)[1]
    picture = f'src="{site.url("wave.svg")}"'
    assert picture in body and body.index(picture) < body.index("Thrown by hand"), body[:800]
    page.evaluate("delete document.documentElement.dataset.blocksiftSaved, true")
    page.evaluate("document.getElementById('save-markdown').click(), true")
    markdown = Path(page.wait_for("document.documentElement.dataset.blocksiftSaved")).read_text(
        encoding="utf-8")
    front, text = markdown.split("\n---\n", 1)
    assert 'price: "$34.00"\n' in front, markdown[:400]
    assert text.lstrip().startswith(f"![Trail Mug, Speckled Stoneware]({site.url('wave.svg')})"), \
        text[:400]
    page.evaluate("document.getElementById('copy-markdown').click(), true")
    assert int(page.wait_for("document.documentElement.dataset.blocksiftMarkdownChars")) == \
        len(markdown)
    (artifacts / "saved-product.html").write_text(html, encoding="utf-8")


def test_reader_of_a_shop_s_index_shows_each_product_s_name_and_price(
        browser: harness.Browser, site: harness.Site, tmp_path: Path, artifacts: Path) -> None:
    # a shop's category page read as an index listed its products' names, not their prices,
    # as "an index of 9 stories" and "its headlines"
    vault = tmp_path / "Notes vault"
    vault.mkdir()
    choose_export_folder(browser, vault)
    page = open_reader(browser, site, "reader-shop-index.html")
    shown = page.evaluate(f"[...{CONTENT}.querySelectorAll('.index-list > li h2')].map(h => "
                          "[h.querySelector('a').textContent, h.querySelector('.index-price')?.textContent ?? ''])")
    # each card's name: not the code under its label ("Item Number: KC-LJ-09"), nor with the
    # badge before it ("New")
    assert shown == [["Trail Mug, Speckled Stoneware", "$34.00"], ["Camp Bowl", "$28.00"],
                     ["Summit Plate", "$31.00"], ["Ridge Vase", ""], ["River Cup", "$22.00"],
                     ["Ember Teapot", "$88.00"], ["Pine Serving Board", ""],
                     ["Harbor Pitcher", "$64.00"], ["Tide Espresso Cups, Set of Two", "$40.00"],
                     ["Lantern Jug, Ash Glaze", "$58.00"], ["Salt Cellar with Lid", "$18.00"]], shown
    # the reader speaks of products, not stories and headlines
    assert page.evaluate(f"{CONTENT}.querySelector('.index-note').textContent") == \
        "This page lists 11 products, not an article: here they are with their prices."
    assert page.evaluate("document.getElementById('details').textContent") == "11 products"
    # a short sentence is a teaser; a card's prices ("$18.00 Was $24.00 Member price") are not
    teasers = page.evaluate(f"[...{CONTENT}.querySelectorAll('.index-list > li')].map(li => "
                            "li.querySelector('p')?.textContent ?? '')")
    assert teasers[3] == "Tall and narrow, for a single branch." and teasers[9] == "", teasers
    assert teasers[10] == "Keeps the salt dry by the stove.", teasers
    # beside the name, on its line
    box = page.evaluate(f"(() => {{ const h = {CONTENT}.querySelector('.index-list h2');"
                        " const a = h.querySelector('a').getBoundingClientRect(),"
                        " p = h.querySelector('.index-price').getBoundingClientRect();"
                        " return {gap: p.left - a.right, dy: Math.abs(p.bottom - a.bottom)}; })()")
    assert 0 <= box["gap"] < 20 and box["dy"] < 6, box
    page.screenshot(artifacts / "reader-shop-index.png")
    page.evaluate("document.getElementById('save-markdown').click(), true")
    markdown = Path(page.wait_for("document.documentElement.dataset.blocksiftSaved")).read_text(
        encoding="utf-8")
    assert f"1. [Trail Mug, Speckled Stoneware]({site.url('products/0')}) · $34.00" in markdown, \
        markdown
    assert f"4. [Ridge Vase]({site.url('products/3')})\n" in markdown
    assert "Tall and narrow, for a single branch." in markdown


def test_reader_sets_a_documentation_page_s_notes_apart_in_boxes(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a "Note" box (Sphinx's admonition) and a warning with no label (rustdoc's) read as the
    # paragraphs around them: their class, all that set them apart, went with the page's
    page = open_reader(browser, site, "reader-docs-notes.html")
    notes = page.evaluate(f"""[...{CONTENT}.querySelectorAll('aside')].map((note) => {{
        const style = getComputedStyle(note);
        return {{text: note.textContent.replace(/\\s+/g, ' ').trim(),
                 label: note.querySelector('strong')?.textContent ?? '',
                 rule: style.borderInlineStartWidth, ruleStyle: style.borderInlineStartStyle,
                 background: style.backgroundColor}};
    }})""")
    assert [note["text"][:40] for note in notes] == [
        "NoteThe order of the entries in the drop",
        "A malformed drop-in file stops the daemo"]
    assert notes[0]["label"] == "Note"
    for note in notes:
        assert note["rule"] == "4px" and note["ruleStyle"] == "solid", note
        assert note["background"] not in ("rgba(0, 0, 0, 0)", "transparent"), note
    # the label is a bold line, not a heading of the text's outline
    assert page.evaluate(f"[...{CONTENT}.querySelectorAll('h1, h2, h3, h4')]"
                         ".map((h) => h.textContent.trim())") == []
    page.evaluate(f"{CONTENT}.querySelector('aside').scrollIntoView(), true")
    page.screenshot(artifacts / "reader-docs-notes.png")


def test_reader_drops_an_opening_post_s_head_of_name_date_and_time_its_header_says(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # each post opens with its author and date ("sorairolake · February 20, 2026, 4:55pm"):
    # the opening post's, the header's byline and day, was kept for its time of day, and the
    # date then left it without the date, a separator hanging at its end ("sorairolake ·")
    posts = ("<p><strong>{first}</strong> · <time datetime='2026-02-20T16:55:07Z'>February 20, "
             "2026, 4:55pm</time></p><div><p>Is changing the MSRV a breaking change?</p></div>"
             "<hr><p><strong>BurntSushi</strong> · <time datetime='2026-02-20T17:07:33Z'>"
             "February 20, 2026, 5:07pm</time></p><p>Bumping MSRV was never breaking.</p>")
    shown = {}
    for key, authors in (("heads", ["sorairolake"]), ("headsnoname", [])):
        payload = stored_answer(site, "Is changing the MSRV a breaking change?",
                                posts.format(first="sorairolake"),
                                {"authors": authors, "published": "2026-02-20"})
        page = reader_of_answer(browser, key, payload)
        shown[key] = page.evaluate(f"[...{CONTENT}.querySelectorAll('p')]"
                                   ".map((p) => p.textContent.replace(/\\s+/g, ' ').trim())")
        page.screenshot(artifacts / f"reader-{key}.png")
        page.close()
    # the byline says who: the whole line goes; the reply keeps its head and date
    assert shown["heads"] == ["Is changing the MSRV a breaking change?",
                              "BurntSushi · February 20, 2026, 5:07pm",
                              "Bumping MSRV was never breaking."], shown
    # no byline: the name stays, without the header's date or a separator after it
    assert shown["headsnoname"][:2] == ["sorairolake", "Is changing the MSRV a breaking change?"], shown


def test_reader_shows_a_definition_list_s_terms_in_bold(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a reference page's definitions (Python's functions, git's options): each term read as a
    # plain line, one more paragraph before its indented text (the exports make it **bold**)
    html = ("<p>The module defines these functions.</p><dl><dt><code>json.dumps</code>(<em>obj"
            "</em>)</dt><dd><p>Serialize <em>obj</em> to a JSON formatted string.</p></dd>"
            "<dt>indent</dt><dd>Pretty-print with that indent level.</dd></dl>")
    page = reader_of_answer(browser, "terms", stored_answer(site, "json", html))
    weights = page.evaluate(f"[...{CONTENT}.querySelectorAll('dt, dd')]"
                            ".map((e) => [e.localName, Number(getComputedStyle(e).fontWeight)])")
    assert [name for name, _ in weights] == ["dt", "dd", "dt", "dd"]
    assert all(weight >= 600 for name, weight in weights if name == "dt"), weights
    assert all(weight < 600 for name, weight in weights if name == "dd"), weights
    page.screenshot(artifacts / "reader-terms.png")


def test_reader_speaks_of_a_shop_s_products_when_its_cards_show_no_price(
        browser: harness.Browser, tmp_path: Path, artifacts: Path) -> None:
    # a lens shop's cards show no amount and link to "/car714.html": the reader called its
    # category page "an index of 8 stories"; the cards' add-to-cart buttons say it sells
    cards = "".join(f'<li class="card"><h3><a href="/car71{n}.html">Lens number {n}</a></h3>'
                    f'<p>A sharp lens for every day.</p><button>Add to cart</button></li>'
                    for n in range(8))
    links = "".join(f'<li><a href="/s{n}">Section {n}</a></li>' for n in range(12))
    (tmp_path / "lenses.html").write_text(
        f"<html><head><title>Lenses</title></head><body><nav><ul>{links}</ul></nav>"
        f"<main><h1>Lenses</h1><ul>{cards}</ul></main></body></html>", encoding="utf-8")
    shop = harness.Site(tmp_path)
    try:
        page = browser.new_tab(shop.url("lenses.html"))
        status = browser.act(page, "reader")
        assert status["status"] == "ready", status
        assert page.evaluate(f"{CONTENT}.querySelector('.index-note') !== null"), text_of(page)[:300]
        assert page.evaluate(f"{CONTENT}.querySelector('.index-note').textContent") == \
            "This page lists 8 products, not an article: here they are."
        assert page.evaluate("document.getElementById('details').textContent") == "8 products"
        page.screenshot(artifacts / "reader-shop-without-prices.png")
    finally:
        shop.close()


def test_reader_shows_a_nested_thread_s_replies_in_their_post_s_box(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # old Reddit nests each reply in the comment it answers; the reader showed them flat, a
    # reply to a reply as if it answered the story. The host's reader HTML of such a thread:
    from blocksift import content
    from blocksift.page import Page

    def comment(name: str, body: str, replies: str = "") -> str:
        return (f"<div class='thing comment'><div class='entry'><p class='tagline'>"
                f"<a class='author' href='/user/{name}'>{name}</a> 5 points</p>"
                f"<div class='md'><p>{body}</p></div></div><div class='child'>"
                f"{f'<div class=sitetable>{replies}</div>' if replies else ''}</div></div>")
    thread = (comment("Ragnar", "A cure for tinnitus?",
                      comment("Baron", "I dream of silence.", comment("rich", "I no longer notice it.")))
              + comment("Pen", "I will wear mouse hair."))
    source = Page(f"<html><body><div class='sitetable'>{thread}</div></body></html>",
                  url=site.url("article.html"))
    chosen = source.body.xpath("//div[@class='md']")
    names = content.post_authors(source.body, chosen)
    elements = sorted(chosen + names, key=lambda e: int(e.get("data-bso")))
    html = content.render_main(source, elements, post_heads=set(names)).html
    page = reader_of_answer(browser, "nested", stored_answer(site, "Hair follicles grown", html))
    shown = page.evaluate(f"[...{CONTENT}.querySelectorAll('p')].map((p) => [p.textContent.trim(), "
                          "(() => { let n = 0; for (let e = p.parentElement; e; e = e.parentElement) "
                          "if (e.tagName === 'BLOCKQUOTE') n++; return n; })()])")
    assert shown == [["Ragnar", 0], ["A cure for tinnitus?", 0], ["Baron", 1],
                     ["I dream of silence.", 1], ["rich", 2], ["I no longer notice it.", 2],
                     ["Pen", 0], ["I will wear mouse hair.", 0]], shown
    # each level stands further in, the names in bold
    lefts = page.evaluate(f"[...{CONTENT}.querySelectorAll('strong')].map((s) => "
                          "Math.round(s.getBoundingClientRect().left))")
    assert lefts[0] < lefts[1] < lefts[2] and lefts[3] == lefts[0], lefts
    # a reply is a post in the text's colour, not greyed as a quote
    colours = page.evaluate(f"[...{CONTENT}.querySelectorAll('p')].map((p) => getComputedStyle(p).color)")
    assert len(set(colours)) == 1, colours
    page.screenshot(artifacts / "reader-nested-thread.png")


def test_reader_greys_a_quote_opening_with_a_bold_line_and_not_a_reply(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # an article quoting a report whose first line is in bold: a quote, greyed as quotes
    # are; it was shown in the text's colour, taken for a thread's reply (whose box opens
    # with its author's name in bold)
    from blocksift import content
    from blocksift.page import Page

    html = ("<p>The harbour board published its findings on Monday.</p>"
            "<blockquote><p><strong>From the report</strong></p><p>The wall will need "
            "mending before the winter storms.</p></blockquote>"
            "<p>Repairs are due to begin in the spring.</p>")
    # and a thread's reply, as the host writes it, stays in the text's colour
    def comment(name: str, body: str, replies: str = "") -> str:
        return (f"<div class='thing comment'><div class='entry'><p class='tagline'>"
                f"<a class='author' href='/user/{name}'>{name}</a> 5 points</p>"
                f"<div class='md'><p>{body}</p></div></div><div class='child'>"
                f"{f'<div class=sitetable>{replies}</div>' if replies else ''}</div></div>")
    source = Page("<html><body><div class='sitetable'>"
                  + comment("Ragnar", "Is the wall safe?",
                            comment("Baron", "Not for long.", comment("rich", "It held in March.")))
                  + comment("Pen", "They said so in spring.")
                  + "</div></body></html>", url=site.url("article.html"))
    chosen = source.body.xpath("//div[@class='md']")
    names = content.post_authors(source.body, chosen)
    thread = content.render_main(source, sorted(chosen + names, key=lambda e: int(e.get("data-bso"))),
                                 post_heads=set(names)).html
    assert "<blockquote><p><strong><bdi>Baron</bdi></strong></p>" in thread, thread
    page = reader_of_answer(browser, "bold-quote", stored_answer(site, "Harbour wall", html + thread))
    colour = "(s) => getComputedStyle(document.evaluate(`//p[contains(., '${s}')]`, document, " \
             "null, 9, null).singleNodeValue).color"
    text, quoted, reply = (page.evaluate(f"({colour})({json.dumps(s)})") for s in
                           ("Repairs are due", "The wall will need", "Not for long"))
    assert quoted != text, (quoted, text)
    assert reply == text, (reply, text)
    page.screenshot(artifacts / "reader-bold-quote.png")


def test_reader_drops_a_bold_label_the_text_ends_with_and_nothing_follows(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    # a blog post ended with "Related posts:" in bold, its list of links left out as the
    # page's furniture: a label introducing nothing
    body = ("<p>Removing features is almost impossible once people depend on them.</p>"
            "<p>A hidden cost of extra features is that they must be supported for years.</p>")
    page = reader_of_answer(browser, "dangling", stored_answer(
        site, "Software features", body + "<p><strong>Related posts</strong>:</p>"))
    text = " ".join(text_of(page).split())
    assert text.endswith("supported for years."), text
    assert "Related posts" not in text
    page.screenshot(artifacts / "reader-dangling-label.png")
    # a label with what it introduces after it stays, and so does a sentence ending in a colon
    kept = {"<p><b>Watch the video below:</b></p><figure><img src='https://e.x/v.png' alt='The launch'>"
            "</figure>": "Watch the video below:",
            "<p>Then I use this prompt:</p>": "Then I use this prompt:",
            "<p><strong>Related posts:</strong></p><ul><li><a href='/a'>Feature creep</a></li></ul>":
            "Related posts:"}
    for n, (tail, words) in enumerate(kept.items()):
        page = reader_of_answer(browser, f"label-{n}", stored_answer(site, "Software features", body + tail))
        assert words in " ".join(text_of(page).split()), tail


def test_reader_on_a_phone_keeps_the_look_panel_on_screen_and_the_toolbar_scrolls_away(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    paragraphs = "".join(f"<p>Paragraph {i} of the harbour wall's story, long enough to wrap a few"
                         " times on a phone and make the page scroll past its toolbar.</p>"
                         for i in range(30))
    page = reader_of_answer(browser, "phone", stored_answer(site, "The harbour wall", paragraphs))
    page.set_viewport(400, 800)
    page.wait_for("window.innerWidth === 400")
    # each control's label stays on one line ("Copy as / Markdown", "Save / .md" broke in two)
    lines = ("(b) => { const r = document.createRange(); r.selectNodeContents(b);"
             " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }")
    assert page.evaluate(f"[...document.querySelectorAll('.toolbar > button, .toolbar > .group > button')]"
                         f".filter(b => ({lines})(b) > 1).map(b => b.textContent)") == []
    # the "Aa" panel opens inside the screen (it hung off its left edge, out of reach)
    page.evaluate("document.getElementById('display').click(), true")
    panel = "document.getElementById('display-panel').getBoundingClientRect()"
    assert page.evaluate(f"{panel}.left >= 0 && {panel}.right <= document.documentElement.clientWidth"), \
        page.evaluate(f"[{panel}.left, {panel}.right]")
    page.screenshot(artifacts / "reader-phone-look-panel.png")
    page.evaluate("document.querySelector('[data-theme-choice=dark]').click(), true")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.evaluate("document.getElementById('display').click(), true")
    # the toolbar, rows of it on a phone, scrolls away with the page instead of covering the text
    page.evaluate("window.scrollTo(0, 900), true")
    page.wait_for("window.scrollY >= 900")
    assert page.evaluate("document.querySelector('.toolbar').getBoundingClientRect().bottom <= 0")
    page.screenshot(artifacts / "reader-phone-scrolled.png")


def test_reader_wraps_a_long_address_in_the_text_on_a_phone(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    address = "https://www.example-technology-conference-registration.com/tickets/early-bird"
    html = (f"<p>Register at <a href=\"{address}\">{address}</a> before March.</p>"
            "<ul><li>Tickets:\u00a0Relaunch\u00a0Onlineshop\u00a0Checkliste\u00a0/\u00a0Relaunch\u00a0Webseite</li></ul>")
    page = reader_of_answer(browser, "long-address", stored_answer(site, "Conferences 2026", html))
    page.set_viewport(400, 800)
    page.wait_for("window.innerWidth === 400")
    for size in range(3):  # the default size, then larger text
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), \
            (size, page.evaluate("document.documentElement.scrollWidth"))
        assert page.evaluate(f"{CONTENT}.querySelector('a').getBoundingClientRect().right"
                             " <= document.documentElement.clientWidth")
        page.evaluate("document.getElementById('larger').click(), true")
    page.screenshot(artifacts / "reader-long-address.png")


def test_reader_on_a_phone_leaves_room_under_a_long_title_for_the_text(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    title = ("Microsoft - Surface Laptop - Copilot+ PC - 13.8\" Touchscreen - Snapdragon X Plus 2024"
             " - 16GB Memory - 512GB Storage (7th Ed) - Dune")
    html = "<p>Model: ZGM-00026</p><p>A thin and light laptop for work and play, all day long.</p>"
    page = reader_of_answer(browser, "phone-title", stored_answer(site, title, html))
    page.set_viewport(400, 800)
    page.wait_for("window.innerWidth === 400")
    # the title, in the article's type, took nine lines and half the screen before the text
    height = page.evaluate("document.getElementById('title').getBoundingClientRect().height")
    assert height <= 800 * 0.35, height
    assert page.evaluate("document.getElementById('content').getBoundingClientRect().top") < 800 * 0.6
    size = "parseFloat(getComputedStyle(document.getElementById('{}')).fontSize)"
    assert page.evaluate(size.format("title")) > page.evaluate(size.format("content")) * 1.2
    page.screenshot(artifacts / "reader-phone-title.png")
    # a wide window keeps the large title
    page.set_viewport(1200, 900)
    page.wait_for("window.innerWidth === 1200")
    assert page.evaluate(size.format("title")) >= page.evaluate(size.format("content")) * 1.6


CONTRAST = """((a, b) => {
  const lum = (css) => { const c = document.createElement('span'); c.style.color = css; document.body.append(c);
    const rgb = getComputedStyle(c).color.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number); c.remove();
    const [r, g, b] = rgb.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
})"""


def test_reader_s_quiet_grey_reads_in_every_theme(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    html = ("<blockquote><p>A quote, in the quiet grey.</p></blockquote>"
            "<pre data-language=\"python\"><code>print('tide')</code></pre>")
    page = reader_of_answer(browser, "contrast", stored_answer(site, "The harbour wall", html))
    page.evaluate("document.getElementById('display').click(), true")
    var = "getComputedStyle(document.documentElement).getPropertyValue('--{}').trim()"
    for theme in ("light", "sepia", "dark"):
        page.evaluate(f"document.querySelector('[data-theme-choice={theme}]').click(), true")
        page.wait_for(f"document.documentElement.dataset.theme === '{theme}'")
        # the grey of quotes, captions, the date line and a listing's language name: WCAG AA
        # (4.5:1) on the page and on a code block's background
        for ground in ("bg", "code-bg"):
            ratio = page.evaluate(f"{CONTRAST}({var.format('muted')}, {var.format(ground)})")
            assert ratio >= 4.5, (theme, ground, ratio)
        assert page.evaluate(f"{CONTRAST}({var.format('link')}, {var.format('bg')})") >= 4.5, theme
        page.screenshot(artifacts / f"reader-contrast-{theme}.png")


def test_reader_s_look_panel_opens_on_screen_at_every_window_width(
        browser: harness.Browser, site: harness.Site, artifacts: Path) -> None:
    page = reader_of_answer(browser, "widths", stored_answer(site, "The harbour wall", "<p>text</p>"))
    panel = "document.getElementById('display-panel').getBoundingClientRect()"
    off = []
    for width in range(360, 1300, 10):
        page.set_viewport(width, 800)
        page.wait_for(f"window.innerWidth === {width}")
        page.evaluate("document.getElementById('display').click(), true")
        if not page.evaluate(f"{panel}.left >= 0 && {panel}.right <= document.documentElement.clientWidth"):
            off.append((width, page.evaluate(f"[{panel}.left, {panel}.right]")))
            page.screenshot(artifacts / f"reader-look-panel-{width}.png")
        page.evaluate("document.getElementById('display').click(), true")
    # with the toolbar in two rows and "Aa" first on the second (720-750 px in Firefox), the
    # panel, anchored to its button's end, hung off the window's left edge
    assert off == []


def test_reader_ends_a_table_cell_s_paragraph_at_the_cell_s_padding(
        browser: harness.Browser, site: harness.Site) -> None:
    """Sphinx writes each cell's text as a <p>: its paragraph's margin left a blank line
    under every row of a documentation page's table (wcxb-dev 0662, Flask's converter
    types); a paragraph between two others in a cell keeps its own."""
    html = ("<p>Converter types:</p><table><tbody>"
            "<tr><td><p><code>string</code></p></td><td><p>(default) accepts any text without a"
            " slash</p></td></tr><tr><td><p><code>int</code></p></td><td><p>accepts positive"
            " integers</p><p>and zero</p></td></tr></tbody></table>")
    page = reader_of_answer(browser, "cell-paragraphs", stored_answer(site, "Quickstart", html))
    margins = page.evaluate(
        "[...document.querySelectorAll('#content td > p')]"
        ".map((p) => getComputedStyle(p).marginBottom)")
    assert margins[:3] == ["0px", "0px", "0px"] and margins[4] == "0px", margins
    assert margins[3] != "0px", margins
    # a row is as tall as its text and its padding, not a line more
    row, line = page.evaluate(
        "[document.querySelector('#content tr').getBoundingClientRect().height,"
        " parseFloat(getComputedStyle(document.querySelector('#content td > p')).lineHeight)"
        " || document.querySelector('#content td > p').getBoundingClientRect().height]")
    assert row < 2 * line, (row, line)


def test_reader_sets_a_broken_picture_s_alt_in_a_line_apart_from_the_words_beside_it(
        browser: harness.Browser, site: harness.Site) -> None:
    """A picture in a line of text (a logo floated beside a release note's first words)
    that fails to load leaves its alt in its place: it ran into the next word,
    "logoRedNotebook Portable 1.6.1 has been released" (dragnet R811 in Firefox ESR)."""
    missing = site.url("missing/rednotebook-logo.png")
    html = (f"<p><img src='{missing}' alt='logo'><a href='{site.url('rn.html')}'>RedNotebook"
            " Portable 1.6.1</a> has been released. It includes calendar navigation and"
            f" templates, and a <img src='{missing}' alt='Wordle'>word cloud.</p>")
    page = reader_of_answer(browser, "inline-alt", stored_answer(site, "RedNotebook", html))
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => 'broken' in i.dataset)")
    text = " ".join(page.evaluate(f"{CONTENT}.innerText").split("\n"))
    assert "logo RedNotebook Portable 1.6.1 has been released" in text, text
    assert "and a Wordle word cloud." in text, text
    assert "  " not in page.evaluate(f"{CONTENT}.innerText"), text


def test_reader_gives_no_byline_that_only_names_the_site_again(
        browser: harness.Browser, site: harness.Site) -> None:
    """A site that signs its pages with its own name (<meta name=author> "Loyola Marymount
    University" on a course page, wcxb-dev 0088; NBC's blog "First Read", dragnet 386, in
    Firefox ESR) read "By Loyola Marymount University" right under the same site line; a
    person beside the site's name stays."""
    html = "<p>The digital marketing course is for those who want to learn its fundamentals.</p>"
    meta = {"siteName": "Loyola Marymount University", "authors": ["Loyola  marymount University"]}
    page = reader_of_answer(browser, "site-author", stored_answer(site, "Digital Marketing", html, meta))
    assert page.evaluate("document.getElementById('site').textContent") == "Loyola Marymount University"
    assert page.evaluate("document.getElementById('byline').hidden") is True
    assert page.evaluate("document.getElementById('byline').textContent") == ""
    meta = {"siteName": "First Read", "authors": ["First Read", "Chuck Todd"]}
    page = reader_of_answer(browser, "site-and-person", stored_answer(site, "Changing the tone", html, meta))
    assert page.evaluate("document.getElementById('byline').textContent") == "By Chuck Todd"


def test_reader_drops_a_question_s_asked_line_whole_not_its_date_alone(
        browser: harness.Browser, site: harness.Site) -> None:
    """Stack Exchange heads a question with "Asked <date>": the header shows the date, so
    the line goes whole; its date alone gone left "Asked" on a line of its own (wcxb-dev
    0566 in Firefox ESR). A line that says more than its date keeps it."""
    html = ('<p><span>Asked</span> <time datetime="2009-05-02T17:08:39">May 2, 2009 at'
            ' 17:08</time></p><p><span>Modified</span> <a href="?lastactivity">4 years, 2 months'
            ' ago</a></p><hr><div><p>When someone mentions RAID in a conversation about backups,'
            ' invariably someone declares that it is not a backup.</p></div>'
            '<p>I asked my admin on <time datetime="2009-05-02">May 2, 2009</time> too.</p>')
    payload = stored_answer(site, "Why is RAID not a backup?", html,
                            {"authors": ["jldugger"], "published": "2009-05-02"})
    page = reader_of_answer(browser, "asked-line", payload)
    text = " ".join(text_of(page).split())
    assert text.startswith("Modified 4 years, 2 months ago"), text
    assert "Asked" not in text, text
    assert "I asked my admin on May 2, 2009 too." in text, text


def test_reader_sets_a_quote_s_attribution_on_a_line_of_its_own(
        browser: harness.Browser, site: harness.Site) -> None:
    """phpBB heads a quote with "<cite>ann wrote: ↑</cite>" and the quoted words after it:
    they ran on on the attribution's line ("b.scherer wrote: ↑ Hi, I just got my new RPi
    5", wcxb-dev 0535 in Firefox ESR and Chromium). A work's title cited in a line stays in
    its line."""
    html = ("<div><blockquote><div><cite><a href='/m/1'>ann</a> wrote: <a href='#p1'>↑</a>"
            "</cite>Hi,<br>I just got my new RPi 5 and I wanted to disable all its LEDs.</div>"
            "</blockquote>Look in the other file.</div>"
            "<p>As <cite>The Raspberry Pi Handbook</cite> puts it, the LEDs are configurable.</p>")
    page = reader_of_answer(browser, "quote-cite", stored_answer(site, "LEDs of the RPi 5", html))
    cite, words, inline, line = page.evaluate(
        "(() => { const [head, title] = document.querySelectorAll('#content cite');"
        " const range = document.createRange();"
        " const text = [...head.parentElement.childNodes].find((n) => n.nodeType === 3 && n.data.trim());"
        " range.selectNodeContents(text);"
        " const p = title.parentElement.getBoundingClientRect();"
        " return [head.getBoundingClientRect().bottom, range.getClientRects()[0].top,"
        " getComputedStyle(title).display, title.getBoundingClientRect().top - p.top]; })()")
    assert words >= cite, (cite, words)
    assert inline == "inline" and line < 5, (inline, line)


def test_reader_leaves_out_the_name_of_a_broken_icon_in_a_line(
        browser: harness.Browser, site: harness.Site) -> None:
    """phpBB opens each post's line with its post icon (11 by 9 pixels, alt "Post") before
    "by <user> » <date>": offline the icon failed and its alt read "Postby ann" (Chromium)
    or "Post by ann" (wcxb-dev 0540, Firefox ESR). An icon's name is no word of the line; the
    alt of a picture larger than an icon, or of one of no given size, stays. The alt of a
    user's picture beside their name goes too."""
    html = ("<p><a href='/viewtopic.php?p=1#p1'><img src='/missing-icon-post.gif' width='11'"
            " height='9' alt='Post' title='Post'></a>by <strong><a href='/m/1'>ann</a></strong>"
            " » Tue Aug 27, 2019 1:47 am</p>"
            "<p>Fixtures <img src='/missing-flag.gif' alt='Netherlands'> of the Eredivisie.</p>"
            "<p>The league's table <img src='/missing-table.png' width='300' height='200'"
            " alt='Table of the Eredivisie after round 3'> is updated weekly.</p>"
            "<div><p>asked Mar 28, 2014 at 11:38</p><a href='/users/1/drat'><div><img"
            " src='/missing-avatar.png' alt=\"drat's user avatar\" width='48' height='48'></div>"
            "</a><div><a href='/users/1/drat'>drat</a></div></div>")
    page = reader_of_answer(browser, "icon-alt", stored_answer(site, "MLS is back", html))
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => 'broken' in i.dataset)")
    lines = page.evaluate(f"[...{CONTENT}.querySelectorAll('p')].map(p => p.innerText.trim())")
    assert lines[0] == "by ann » Tue Aug 27, 2019 1:47 am", lines
    assert lines[1] == "Fixtures Netherlands of the Eredivisie.", lines  # no size given: not known to be an icon
    assert lines[2] == "The league's table Table of the Eredivisie after round 3 is updated weekly.", lines
    # a user's picture beside their name: its alt says whose, which the name says (wcxb-dev
    # 0360, Stack Exchange's "drat's user avatar" under a question)
    assert "avatar" not in text_of(page), text_of(page)


def test_reader_drops_a_first_post_s_subject_that_says_the_title_again(
        browser: harness.Browser, site: harness.Site) -> None:
    """phpBB heads a thread with its title (<h2>) and its first post with the same words as
    its subject (<h3>): the header's title stood again right under it, a link (wcxb-dev
    0540, Firefox ESR). A later heading saying the title, past the opening, stays."""
    html = ("<h2><a href='/viewtopic.php?t=1'>MLS is Back!</a></h2>"
            "<h3><a href='#p1'>MLS is Back!</a></h3>"
            "<p>by ann » Tue Aug 27, 2019 1:47 am</p><p>The season is one of the wildest.</p>"
            "<h3>MLS is Back!</h3><p>And a later post that repeats it.</p>")
    page = reader_of_answer(browser, "post-subject", stored_answer(site, "MLS is Back!", html))
    text = text_of(page)
    assert text.startswith("by ann » Tue Aug 27, 2019 1:47 am"), text
    assert text.count("MLS is Back!") == 1, text
    assert page.evaluate("document.getElementById('title').textContent") == "MLS is Back!"


def test_reader_drops_a_day_s_heading_that_says_the_header_s_date(
        browser: harness.Browser, site: harness.Site) -> None:
    """Blogger heads each day's posts with the day ("<h2 class=date-header>July 27,
    2012</h2>"): it stood as the text's first heading, under the header's own "July 27,
    2012" (dragnet R909, Firefox ESR). A heading with more than the date stays, and so does
    a date heading of another year than the header's."""
    html = ("<h2>July 27, 2012</h2><h3>Tips on how to be more creative by John Cleese</h3>"
            "<p>Assembling talking points, lists, and tedious outlines is a rather drab exercise"
            " that neither challenges your creative abilities nor your audience.</p>"
            "<h2>March 3, 2009</h2><p>An older post of the same blog, of another day.</p>")
    page = reader_of_answer(browser, "date-heading", stored_answer(
        site, "Presentation Zen", html, {"published": "2012-07-27", "authors": []}))
    headings = page.evaluate(f"[...{CONTENT}.querySelectorAll('h2, h3')].map(h => h.textContent)")
    assert headings == ["Tips on how to be more creative by John Cleese", "March 3, 2009"], headings
    assert page.evaluate("document.querySelector('#details time').dateTime") == "2012-07-27"


def test_reader_drops_an_opening_heading_that_says_the_title_after_the_blog_s_name(
        browser: harness.Browser, site: harness.Site) -> None:
    """A blog titles its posts "<blog>: <post>" (Blogger) and heads the post with the post's
    part, a link: "Women's 800m: Analysing Semenya & other insights" stood right under the
    header's "The Science of Sport: Women's 800m: Analysing Semenya & other insights"
    (dragnet R556, Firefox ESR), below the day's heading, a date line. A heading saying
    another part of the text stays."""
    html = ("<h2>Saturday, August 11, 2012</h2>"
            "<h3><a href='/2012/08/womens-800m.html'>Women's 800m: Analysing Semenya &amp; other"
            " insights</a></h3><h4>London 2012: Women's 800m perplexity</h4>"
            "<p>On Thursday night, David Rudisha led home the greatest 800m race we've ever seen,"
            " a world record for every single finishing position.</p>"
            "<h3>Analysing Semenya</h3><p>A heading past the opening stays.</p>")
    page = reader_of_answer(browser, "title-part", stored_answer(
        site, "The Science of Sport: Women's 800m: Analysing Semenya & other insights", html,
        {"published": "2012-08-11", "authors": []}))
    headings = page.evaluate(f"[...{CONTENT}.querySelectorAll('h2, h3, h4')].map(h => h.textContent)")
    assert headings == ["London 2012: Women's 800m perplexity", "Analysing Semenya"], headings


def test_reader_sets_a_list_item_s_number_on_its_first_line_when_it_opens_with_blocks_in_a_span(
        browser: harness.Browser, site: harness.Site) -> None:
    """Amazon's best sellers write each item as "<li><span><div>#1</div><div>…</div></span>":
    the item's number stood alone on an empty line above its text (wcxb-dev 2920, Firefox
    ESR and Chromium). The number stands on the item's first line, as in an item of text."""
    html = ("<p>Our most popular products based on sales. Updated frequently.</p><ol>"
            "<li><span><div><div><span>#1</span></div></div><div><a href='/dp/1'>Blink plus plan"
            " with monthly auto-renewal</a></div></span></li>"
            "<li><a href='/dp/2'><div>Apple EarPods Headphones with USB-C Plug</div></a></li>"
            "<li>Apple AirPods 4 Wireless Earbuds</li></ol>")
    page = reader_of_answer(browser, "list-blocks", stored_answer(site, "Amazon Best Sellers", html))
    offsets = page.evaluate(
        f"[...{CONTENT}.querySelectorAll('li')].map(li => {{ const r = document.createRange();"
        " const text = document.createTreeWalker(li, NodeFilter.SHOW_TEXT).nextNode();"
        " r.selectNodeContents(text); return r.getClientRects()[0].top - li.getBoundingClientRect().top; })")
    # as far below the item's top as in the item of text alone (its line's half-leading)
    assert all(abs(offset - offsets[-1]) < 3 for offset in offsets), offsets


def test_reader_closes_the_room_a_broken_picture_held_open_at_a_line_s_start(
        browser: harness.Browser, site: harness.Site) -> None:
    """A blog's sidebar lists its buttons as "<li><a><img></a><br>words</li>": once the
    pictures failed each item began with an empty line, and an item of a picture alone was an
    empty bullet (dragnet R229, Firefox ESR). A line break after words stays."""
    html = ("<p>Elsewhere on the web.</p><ul>"
            "<li><a href='/jnx'><img src='/missing-button.jpg'></a> </li>"
            "<li><a href='/skull'><img src='/missing-skull.jpg'></a><br>A visual gathering of"
            " Queen Michelle's deepest thoughts.</li>"
            "<li><a href='/twitter'><img src='/missing-twitter.jpg'></a> <br>Sign up for the"
            " ramblings on Twitter.<br>Or not.</li></ul>")
    page = reader_of_answer(browser, "picture-gap", stored_answer(site, "Kingdom of Style", html))
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => 'broken' in i.dataset)")
    items = page.evaluate(
        f"[...{CONTENT}.querySelectorAll('li')].map(li => [li.getClientRects().length > 0, li.innerText])")
    assert [shown for shown, _text in items] == [False, True, True], items
    assert items[1][1] == "A visual gathering of Queen Michelle's deepest thoughts.", items
    assert items[2][1] == "Sign up for the ramblings on Twitter.\nOr not.", items


def test_reader_leaves_out_a_broken_picture_s_alt_that_its_link_s_words_say(
        browser: harness.Browser, site: harness.Site) -> None:
    """A course site's testimonials are links each holding a video's picture and the
    learner's name under it ("<a><div><img alt='Esther Anurika'></div><p>Esther Anurika
    Alison Graduate</p></a>"): once the pictures failed each name stood twice (wcxb-dev
    0132, Firefox ESR), the link's words not looked at beside the picture. An alt that says
    more than its link stays."""
    cards = "".join(
        f"<a href='/watch?v={n}'><div><img src='/missing-{n}.jpg' width='336' height='189'"
        f" alt='{alt}'></div><p><span>{name}</span> {role}</p></a>"
        for n, (alt, name, role) in enumerate([
            ("Ikechukwu Odiaka", "Ikechukwu Odiaka", "Assistant Nurse"),
            ("Esther Anurika", "Esther Anurika", "Alison Graduate"),
            ("Map of the home towns of learners", "Learners", "across Nigeria")]))
    long_text = "Over 50 million learners have used Alison to empower themselves. " * 35
    html = f"<div><p>{long_text}</p>{cards}</div>"
    page = reader_of_answer(browser, "link-alt", stored_answer(site, "Alison courses", html))
    page.set_viewport(1100, 4000)  # all of it in view: Firefox leaves a lazy picture below unloaded
    page.wait_for(f"[...{CONTENT}.querySelectorAll('img')].every(i => 'broken' in i.dataset)")
    alts = page.evaluate(f"[...{CONTENT}.querySelectorAll('.picture-alt')].map(a => a.textContent)")
    assert alts == ["Map of the home towns of learners"], alts
