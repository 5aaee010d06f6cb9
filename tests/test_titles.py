"""Title candidates and the shipped scorer (blocksift.titles)."""

from __future__ import annotations

import json
from importlib import resources

from blocksift import metadata, titles
from blocksift.page import Page
from blocksift.wire.results import MainText


def page(body: str, head: str = "", url: str = "https://www.harbourherald.example/a") -> Page:
    return Page(f"<html><head>{head}</head><body>{body}</body></html>", url=url)


def features_by_key(body: str, head: str = "", url: str | None = "https://www.harbourherald.example/a"
                    ) -> dict[str, dict[str, float]]:
    """Each title candidate's features, by its words."""
    return {c.key: c.features for c in metadata.title_candidates(page(body, head, url=url))}


def test_clean_undoes_entities_mojibake_and_invisible_characters():
    assert titles.clean("Fish &amp;amp; Chips") == "Fish & Chips"
    assert titles.clean("A DIY Investor\u00e2\u0080\u0099s Guide") == "A DIY Investor\u2019s Guide"
    assert titles.clean("itertools \u00e2\u20ac\u201d Functions") == "itertools \u2014 Functions"
    assert titles.clean("Home Repair Assis\u00adtance  Program \u00b6") == \
        "Home Repair Assistance Program"
    # an icon font's glyph (a private use character) after a documentation heading
    assert titles.clean("Ansible playbooks \uf0c1") == "Ansible playbooks"
    assert titles.clean("\ue80d Menu \U000f0001settings") == "Menu settings"


def test_title_parts_name_the_dropped_site():
    found = metadata.title_candidates(page(
        "<h1>Menu</h1>", "<title>Harbour lights return | The Harbour Herald</title>"))
    by_key = {candidate.key: candidate.features for candidate in found}
    assert by_key["harbour lights return"]["title_prefix"] == 1.0
    assert by_key["harbour lights return"]["dropped_site"] == 1.0
    assert by_key["the harbour herald"].get("names_site") == 1.0


def test_equal_candidates_merge_and_count_their_sources():
    found = metadata.title_candidates(page(
        "<article><h1>Harbour lights return</h1></article>",
        "<title>Harbour lights return - Herald</title>"
        "<meta property='og:title' content='Harbour Lights Return'>"))
    merged = [c for c in found if c.key == "harbour lights return"]
    assert len(merged) == 1
    assert {"h1_first", "h1_in_main", "og", "title_prefix"} <= set(merged[0].features)
    assert merged[0].text == "Harbour lights return"  # the visible wording is shown


def test_shipped_scorer_picks_the_headline_over_site_and_section_names():
    html = page("<nav><h2>Sections</h2></nav><main><h1>Harbour lights return</h1>"
                "<p>The lights are back.</p></main>",
                "<title>Harbour lights return | The Harbour Herald</title>"
                "<meta property='og:site_name' content='The Harbour Herald'>")
    assert metadata.extract(html).title == "Harbour lights return"
    no_h1 = page("<p>The lights are back.</p>",
                 "<title>Harbour lights return | The Harbour Herald</title>")
    assert metadata.extract(no_h1).title == "Harbour lights return"


def test_a_separator_the_heading_s_design_puts_first_is_not_part_of_the_title():
    # an agency's portfolio heading reads "/ CREATIVE AGENCY PORTFOLIO" (each section's
    # heading starts so): the reader's title kept the slash
    for heading, title in (("/ CREATIVE AGENCY PORTFOLIO", "CREATIVE AGENCY PORTFOLIO"),
                           ("// About the harbour", "About the harbour"),
                           ("-40 degrees in the harbour", "-40 degrees in the harbour"),
                           ("/r/harbour lights", "/r/harbour lights")):
        found = metadata.extract(page(f"<main><h1>{heading}</h1><p>The lights are back.</p>"
                                      "</main>", f"<title>{heading}</title>"))
        assert found.title == title, heading


def test_shipped_weights_record_their_cross_validation():
    data = json.loads(resources.files("blocksift").joinpath("data/title-scorer.json")
                      .read_text("utf-8"))
    assert data["weights"] and 0 < data["site_grouped_cv_accuracy"] <= 1
    assert data["site_grouped_cv_accuracy"] <= data["in_sample_accuracy"] + 0.05


def test_no_candidates_gives_an_empty_title():
    assert titles.best([]) == ""
    assert metadata.extract(page("<p>text only</p>")).title == ""


def test_a_heading_that_links_to_the_front_page_is_marked_as_a_logo():
    by_key = features_by_key(
        "<div id=bar><h1><a href='https://quayside.example/'>Quayside</a></h1></div>"
        "<h2><a href='/t/42'>Mooring fees for winter</a></h2>",
        "<title>Mooring fees for winter / Harbour talk / Quayside Forums</title>",
        url="https://forum.quayside.example/viewtopic.php?id=42")
    assert by_key["quayside"].get("h1_home_link") == 1.0
    permalink = metadata.title_candidates(page(
        "<h1><a href='/2026/11/harbour-lights'>Harbour lights return</a></h1>"))
    assert "h1_home_link" not in permalink[0].features


def test_shipped_scorer_prefers_the_thread_title_to_a_logo_heading():
    forum = page(
        "<div id=bar><h1><a href='https://quaysidemarina.example/'>Quayside Marina</a></h1>"
        "<ul><li><a href='/'>Home</a></li><li><a href='/forums'>Forums</a></li></ul></div>"
        "<div class=post><p>Has anyone seen the new Quayside Marina mooring fees for the winter season?</p>"
        "</div><div class=post><p>Yes, they went up by a tenth this year.</p></div>",
        "<title>Quayside Marina mooring fees for winter / Harbour talk / Quayside Marina Forums</title>",
        url="https://forum.quaysidemarina.example/viewtopic.php?id=42")
    assert metadata.extract(forum).title == "Quayside Marina mooring fees for winter"


def test_chinese_titles_are_cut_at_underscores_and_dashes_by_cjk_characters():
    """Chinese sites append their section and site names with "_", "__" or "-" and no
    spaces: "标题__商贸_产业资讯_新浪网"; underscores between Latin letters are no cut."""
    found = metadata.title_candidates(page(
        "<p>正文</p>", "<title>港口灯光重新点亮 渔民欢迎__商贸_产业资讯_海港网</title>",
        url="https://news.haigang.example/a"))
    by_key = {candidate.key: candidate.features for candidate in found}
    assert by_key["港口灯光重新点亮 渔民欢迎"]["title_prefix"] == 1.0
    assert by_key["港口灯光重新点亮 渔民欢迎"].get("in_title") == 1.0
    assert "海港网" in by_key
    sina_like = page("<p>正文</p>", "<title>四年前中了五百万如今穷困潦倒 一夜暴富后如何经营财富"
                     "__商贸_产业资讯_海港网</title>", url="https://news.haigang.example/a")
    assert titles.best(metadata.title_candidates(sina_like)) == \
        "四年前中了五百万如今穷困潦倒 一夜暴富后如何经营财富"
    assert [part for _, part, *_ in titles._parts("snake_case in x-ray - Site")] == \
        ["snake_case in x-ray", "Site"]


def test_hidden_text_in_a_heading_is_not_part_of_its_candidate():
    """A forum's visually hidden prefix label ("Player") and screen-reader-only text are not
    what a reader sees in the heading; a heading hidden whole is no candidate."""
    found = metadata.title_candidates(page(
        "<h1 class='sr-only'>The Harbour Herald</h1>"
        "<h1><span class='label label--hidden'>Player</span><span>&nbsp;</span>"
        "Squad 2024 - 2025</h1><p>Posts.</p>"))
    h1 = [candidate for candidate in found if "h1_first" in candidate.features]
    assert [candidate.text for candidate in h1] == ["Squad 2024 - 2025"]
    assert "the harbour herald" not in {candidate.key for candidate in found}


def test_a_title_with_an_empty_page_half_names_the_site():
    """"| Site" (a "{page} | {site}" template filled with no page title) is the site's name,
    wherever the page is served from, so the page's heading wins over it."""
    found = metadata.title_candidates(page(
        "<h1>Electronic Gadgets</h1><p>Stories.</p>",
        "<title> | Harbour &amp; Quay Magazine</title>", url="http://127.0.0.1:8000/x"),
        "| Harbour & Quay Magazine")
    by_key = {candidate.key: candidate.features for candidate in found}
    assert by_key["harbour quay magazine"].get("is_site") == 1.0
    assert titles.best(found) == "Electronic Gadgets"


def test_a_logo_heading_that_ends_the_title_after_a_space_is_the_site():
    """"<title>Story SiteName</title>" with no separator, the site's name as the logo's
    ``<h1>`` and the story as an ``<h2>`` (a Chinese news site): the story is the title, as
    with "Story « Blog" (no separator cuts at a guillemet); a ``<title>`` that only ends with
    an ``<h1>`` whose rest no other source names is left alone."""
    news = page("<h1 class=none>海港网</h1><ul><li><a href='/n'>新闻</a></li></ul>"
                "<h2>港口灯光重新点亮 渔民欢迎</h2><p>正文。</p>",
                "<title>港口灯光重新点亮 渔民欢迎 海港网</title>", url="http://127.0.0.1:8000/x")
    assert metadata.extract(news).title == "港口灯光重新点亮 渔民欢迎"
    blog = page("<h1><a href='/blog/'>Quayside Notes</a></h1><h2>Mending nets in winter</h2>"
                "<p>Cold hands.</p>", "<title>Mending nets in winter « Quayside Notes</title>"
                "<meta property='og:title' content='Mending nets in winter'>")
    assert metadata.extract(blog).title == "Mending nets in winter"
    plain = page("<h1>Winter</h1><h2>Tides</h2><p>Cold hands.</p>",
                 "<title>Mending nets in Winter</title>")
    assert not any("title_prefix" in c.features for c in metadata.title_candidates(plain))


def test_an_untitled_page_is_titled_by_its_prominent_first_line():
    # a 2000s page with no <title>: its bold, large first line names it
    assert titles.opening_line("<div><b>Successful Harbour Walks</b></div>"
                               "<p><b>Overview</b> Students walk the wall.</p>") \
        == "Successful Harbour Walks"
    assert titles.opening_line("<div><strong>Harbour <em>Walks</em></strong><br>Every"
                               " Saturday we walk.</div>") == "Harbour Walks"
    assert titles.opening_line("<section><h3>Tide Tables</h3><p>High water at six.</p>"
                               "</section>") == "Tide Tables"
    # not a lead-in in bold inside a sentence, a line in plain type, a bold sentence
    assert titles.opening_line("<p><b>Overview</b> Students walk the wall.</p>") == ""
    assert titles.opening_line("<p>Harbour Walks</p><p>Every Saturday.</p>") == ""
    assert titles.opening_line("<p><b>Meet at the lighthouse at nine.</b></p>") == ""
    assert titles.opening_line("<p><b>" + "word " * 20 + "</b></p>") == ""
    assert titles.opening_line("") == ""


def test_metadata_of_an_untitled_page_takes_its_first_line_not_nothing():
    html = "<div><b>Successful Harbour Walks</b></div><p>" + "The club walks the wall. " * 30 \
        + "</p>"
    found = metadata.extract(Page(f"<html><body>{html}</body></html>", url="http://127.0.0.1/a"),
                             MainText(text="x", html=html))
    assert found.title == "Successful Harbour Walks"
    assert found.site_name == "127.0.0.1"
    # a page that names itself keeps its own title
    found = metadata.extract(Page(f"<html><head><title>Walks</title></head><body>{html}</body>"
                                  "</html>", url="http://127.0.0.1/a"), MainText(text="x", html=html))
    assert found.title == "Walks"


def test_a_slogan_set_as_a_heading_is_no_title():
    # SuiteCRM's front page: after the testimonial, its slogan in the next <h1>, and more
    # <h1>s for its sections (a page builder's); the reader was titled by the slogan
    heads = ['"Users wanting something that is close to Salesforce in power, but is fully '
             'open sourced, need look no further." - Forbes',
             "Sell, market, and service more effectively with SuiteCRM, the world's number 1 "
             "Open Source CRM.",
             "Whatever your goal, SuiteCRM offers comprehensive insights that will help your "
             "business thrive.", "Oneworld Accuracy", "Titomic"]
    body = "<main>" + "".join(f"<h1>{text}</h1><p>" + "Open source CRM for every business. "
                              * 10 + "</p>" for text in heads) + "</main>"
    said = "SuiteCRM - Open Source CRM Software Application for Businesses"
    head = (f'<title>{said}</title><meta property="og:title" content="{said}">'
            '<meta property="og:site_name" content="SuiteCRM">')
    title = metadata.extract(page(body, head, url="https://suitecrm.com/"),
                             MainText(title=titles.clean(heads[0]))).title
    assert title == "Open Source CRM Software Application for Businesses", title
    # a headline that ends in an abbreviation, one that the <title> says, and a short one
    # ending in a full stop are titles still
    for headline, head in (("The Hottest Real Estate Markets in the U.S.", ""),
                           ("We changed how the harbour counts its boats this year.",
                            "<title>We changed how the harbour counts its boats this year. | "
                            "Harbour Herald</title>"),
                           ("Harbour lights return.", "")):
        found = page(f"<article><h1>{headline}</h1><p>" + "The lights are back. " * 30
                     + "</p></article>", head)
        assert metadata.extract(found).title == headline


def test_the_first_of_many_h1_is_not_the_first_h1():
    def features(count: int) -> dict[str, float]:
        body = "".join(f"<h1>Section number {n}</h1><p>Text of the section.</p>"
                       for n in range(count))
        found = metadata.title_candidates(page(body, "<title>Harbour guide</title>"))
        return {c.key: c.features for c in found}["section number 0"]

    assert "h1_first" in features(2)
    assert "h1_first" not in features(3) and "h1_other" in features(3)


def test_a_testimonial_set_as_a_heading_is_no_title():
    # SuiteCRM's front page opens with a quotation from Forbes in its first <h1>, which the
    # algorithm took for its title too: the reader was titled by the testimonial
    quote = ('"Users wanting something that is close to Salesforce in power, but is fully open '
             'sourced, need look no further."<br>- Forbes')
    body = (f"<main><h1>{quote}</h1><p>" + "Open source CRM for every business. " * 30
            + "</p></main>")
    head = "<title>SuiteCRM - Open Source CRM Software Application for Businesses</title>"
    found = page(body, head, url="https://suitecrm.com/")
    chosen = titles.clean('"Users wanting something that is close to Salesforce in power, but is '
                          'fully open sourced, need look no further." - Forbes')
    title = metadata.extract(found, MainText(title=chosen)).title
    assert "Forbes" not in title and "Open Source CRM" in title, title
    # a quotation the page's <title> says is the page's own title ("“Be yourself” – Oscar Wilde")
    quotes = page("<h1>“Be yourself; everyone else is already taken” – Oscar Wilde</h1>",
                  "<title>“Be yourself; everyone else is already taken” – Oscar Wilde</title>")
    assert metadata.extract(quotes).title.startswith("“Be yourself")


def test_a_heading_linking_to_a_folder_above_the_page_is_a_blogs_name():
    """``/blog`` from ``/blog/57/story``: the blog's front page, as a logo's link is the
    site's; not the page itself (a permalink headline), nor another host."""
    story = "https://quill.example/blog/57/mooring-fees"
    above = features_by_key("<h1><a href='https://quill.example/blog'>Quill's Notes</a></h1>",
                            url=story)
    assert above["quill s notes"].get("h1_home_link") == 1.0
    itself = features_by_key("<h1><a href='/blog/57/mooring-fees/'>Mooring fees</a></h1>",
                             url=story)
    assert "h1_home_link" not in itself["mooring fees"]
    assert itself["mooring fees"].get("h1_self_link") == 1.0
    elsewhere = features_by_key(
        "<h1><a href='https://other.example/blog'>Other Notes</a></h1>", url=story)
    assert not {"h1_home_link", "h1_self_link"} & set(elsewhere["other notes"])


def test_the_rest_of_a_title_beside_a_masthead_heading_is_marked():
    found = metadata.title_candidates(page(
        "<div id=header><h1 id=banner-header><a href='https://quill.example/'>Quill's Notes"
        "</a></h1></div><h2>Monday, November 01, 2004</h2><h3>Mooring fees for the winter"
        "</h3><p>The harbour raised its fees.</p>",
        "<title>Quill's Notes: Mooring fees for the winter</title>",
        url="https://quill.example/2004/11/mooring-fees.html"))
    by_key = {candidate.key: candidate.features for candidate in found}
    assert by_key["quill s notes"].get("h1_brand") == 1.0
    assert by_key["quill s notes"].get("h1_site") == 1.0
    assert by_key["mooring fees for the winter"].get("beside_site_h1") == 1.0
    assert "beside_site_h1" not in by_key["quill s notes"]
    assert by_key["monday november 01 2004"].get("is_date") == 1.0
    # the shipped scorer reads them: the story, not the blog's name nor its date heading
    # (a Blogger page of the 2000s: the blog's name links home, the post's title is an h3)
    assert titles.best(found) == "Mooring fees for the winter"


def test_a_story_heading_is_not_taken_for_a_masthead():
    """An entry's own header (``entry-header``, ``page-header``) names no site."""
    found = metadata.title_candidates(page(
        "<header class='entry-header page-header'><h1>Mooring fees for the winter</h1>"
        "</header>", "<title>Mooring fees for the winter | Quill's Notes</title>"))
    by_key = {c.key: c.features for c in found}
    assert not {"h1_brand", "h1_site"} & set(by_key["mooring fees for the winter"])
    assert "beside_site_h1" not in by_key["quill s notes"]
    assert titles.best(found) == "Mooring fees for the winter"


def test_a_date_alone_is_marked_and_a_dated_title_is_not():
    assert titles._DATE_LINE.match("Tuesday, April 05, 2005")
    assert titles._DATE_LINE.match("20 July 2012")
    assert titles._DATE_LINE.match("2012-07-20")
    assert not titles._DATE_LINE.match("Guide to filing your taxes in 2025")
    assert not titles._DATE_LINE.match("Windows 10, 2004")


def test_a_heading_link_no_parser_reads_gives_the_title_all_the_same():
    """``http://[bad`` makes ``urlsplit`` raise: the page's title was lost with it."""
    html = page("<h1><a href='http://[bad/x'>Harbour lights return</a></h1><p>The lights.</p>",
                "<title>Harbour lights return | The Harbour Herald</title>",
                url="https://www.harbourherald.example/a/b")
    assert metadata.extract(html).title == "Harbour lights return"


def test_a_heading_of_spans_is_titled_as_the_reader_shows_it():
    """A wiki's namespace, separator and name in three spans make one word run, not
    "Category : Programming languages"."""
    found = metadata.title_candidates(page(
        "<h1><span class='ns'>Category</span><span class='sep'>:</span>"
        "<span class='main'>Harbour walks</span></h1><p>Pages in this category.</p>"))
    h1 = [candidate.text for candidate in found if "h1_first" in candidate.features]
    assert h1 == ["Category:Harbour walks"]


def test_an_animated_headline_is_titled_by_what_screen_readers_hear():
    """Word boxes shown twice over (a phone's and a desktop's line breaks) are hidden from
    screen readers, which hear the sentence once, from a visually hidden copy."""
    boxes = "".join(f"<span style='display:inline-block' class='{cls}'>{words}</span>"
                    for cls, words in [("mobile", "Walks for"), ("mobile", "the harbour"),
                                       ("desktop", "Walks for the harbour")])
    found = metadata.title_candidates(page(
        f"<h1><span aria-hidden='true'>{boxes}</span>"
        "<span class='utils_visuallyHidden__x1'>Walks for the harbour</span></h1>"
        "<h2>Every <a aria-hidden='true' href='#every'>#</a>route</h2><p>Routes.</p>"))
    texts = {candidate.text for candidate in found}
    assert "Walks for the harbour" in texts
    assert not any("harbour Walks" in text or "harbourWalks" in text for text in texts)
    assert "Every route" in texts
