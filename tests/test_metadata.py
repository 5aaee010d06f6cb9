"""Metadata from the visible page, schema.org data and meta tags (blocksift.metadata)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from blocksift import metadata
from blocksift.algorithms import auto
from blocksift.content import render_main
from blocksift.page import Page


def page(body: str, head: str = "", url: str | None = "https://news.example/a") -> Page:
    return Page(f"<html lang='en-GB'><head>{head}</head><body>{body}</body></html>", url=url)


ARTICLE = "<p>" + "Words of the article that a reader reads. " * 40 + "</p>"


def test_visible_byline_and_time_near_the_headline():
    found = metadata.extract(page(
        "<nav><span class='author'>Site Team</span></nav>"
        "<article><h1>Harbour lights return</h1>"
        "<p class='byline'>By Erin Cunningham and Ali Noor · 3 min read</p>"
        "<time datetime='2024-03-14T08:00:00Z'>March 14</time>" + ARTICLE +
        "<div class='comments'><span class='author'>Troll</span></div></article>",
        "<title>Harbour lights return | The Herald</title>"
        "<meta property='og:site_name' content='The Herald'>"))
    assert found.title == "Harbour lights return"
    assert found.authors == ["Erin Cunningham", "Ali Noor"]
    assert found.published == "2024-03-14"
    assert found.site_name == "The Herald"
    assert found.language == "en-GB"


#: A blog's page: its title, a menu of the site's blogs with each one's writer, the post.
_BLOG_HEAD = "<html><head><title>How readers helped - The Daily Post</title></head>"
_BLOG_MENU = ("<ul class='blogs'><li><a href='/b1'>Politics blog</a>"
              "<span class='blog-byline'><a href='/w/ann'>Ann Other</a></span></li></ul>")
_BLOG_POST = ("<h1 class='entry-title'>How readers helped</h1>"
              "<p class='wp-byline'>By <a href='/w/bee' rel='author'>Bee Butler</a>{more}</p>"
              + ARTICLE)


def test_a_page_layout_class_on_body_does_not_make_the_whole_page_furniture():
    # WordPress writes the layout into <body class>: "right-sidebar" matched the sidebar
    # pattern for every element, so no headline was found and the first byline on the page,
    # a menu's, was taken for the article's
    found = metadata.extract(Page(
        _BLOG_HEAD + "<body class='single two-column right-sidebar'>" + _BLOG_MENU
        + "<article>" + _BLOG_POST.format(more="") + "</article></body></html>",
        url="https://news.example/a"))
    assert found.authors == ["Bee Butler"]


def test_a_box_whose_class_says_it_has_a_sidebar_is_not_one():
    # a forum's content column is "p-body-main p-body-main--withSidebar": the thread's
    # author, marked up in it, was taken for a sidebar's and the header gave no byline
    found = metadata.extract(page(
        "<div class='p-body-main p-body-main--withSidebar'><h1>Beginner projects</h1>"
        "<div itemscope itemtype='https://schema.org/DiscussionForumPosting'>"
        "<div class='hidden'><div itemprop='author' itemscope><span class='username' "
        "itemprop='name'>JWoodguy13</span></div></div>" + ARTICLE + "</div></div>"
        "<div class='p-body-sidebar'><div itemprop='author'>Sidebar Sam</div></div>"))
    assert found.authors == ["JWoodguy13"]
    # a sidebar itself stays furniture
    assert metadata.extract(page("<div class='sidebar has-sidebar'><div itemprop='author'>"
                                 "Sidebar Sam</div></div>" + ARTICLE)).authors == []


def test_a_wrapper_of_the_content_and_its_sidebar_is_not_one():
    # Genesis themes (tv.msnbc.com) wrap the post and the sidebar beside it in
    # <div id="content-sidebar-wrap">: the headline counted as a sidebar's, so no headline
    # was found and the byline under it ("Zachary Roth, @zackroth") was never read
    post = ("<div id='content-sidebar-wrap'><div id='content' class='hfeed'>"
            "<h1 class='entry-title'>People don’t understand the fiscal cliff</h1>"
            "<div class='post-info'><span class='author vcard'><span class='fn'>"
            "<a href='/author/zr/' class='fn n' rel='author'>Zachary Roth</a>, "
            "<a href='https://twitter.example/zackroth' rel='author-twitter external'>@zackroth</a>"
            "</span></span><div class='date published time'>4:42 PM on 12/07/2012</div></div>"
            + ARTICLE + "</div><div id='sidebar' class='sidebar widget-area'>"
            "<h4><a href='/b'>Top Links</a></h4><div class='byline post-info'>"
            "<span class='author vcard'><a href='/author/jf/' rel='author'>John Flowers</a>"
            "</span></div></div></div>")
    found = metadata.extract(page(post, head="<title>People don’t understand the fiscal cliff"
                                              " — MSNBC</title>"))
    assert found.authors == ["Zachary Roth"]
    # the sidebar inside the wrapper stays furniture
    assert metadata.extract(page(
        "<div id='content-sidebar-wrap'><div class='sidebar'><div itemprop='author'>"
        "Sidebar Sam</div></div></div>" + ARTICLE)).authors == []


def test_a_weekday_before_a_date_in_a_byline_box_is_no_name():
    found = metadata.extract(page("<article><div class='byline'>Sun, 21 Dec, 2025 - 06:36"
                                  "</div><h1>In the garden</h1>" + ARTICLE + "</article>"))
    assert found.authors == []
    assert found.published == "2025-12-21"


def test_the_headline_is_the_heading_the_title_names_not_the_logo_before_it():
    # the site's logo is the page's first <h1>, beside the menu's bylines; the article's
    # <h1> is the one the title holds, and its byline's e-mail link names no one
    email = ", <a class='byline-email' href='mailto:bee@news.example'>E-mail the writer</a>"
    found = metadata.extract(Page(
        _BLOG_HEAD + "<body><header><h1 class='logo'>The Daily Post</h1>" + _BLOG_MENU
        + "</header>" + "<p>Top stories of the day, chosen by our editors.</p>" * 3
        + "<div class='post'>" + _BLOG_POST.format(more=email) + "</div></body></html>",
        url="https://news.example/a"))
    assert found.authors == ["Bee Butler"]


def test_the_links_to_the_previous_and_next_posts_give_no_date_or_byline():
    # the post shows its day without a year; the link to the previous post, beside it,
    # shows that post's full date, which was taken for this one's
    found = metadata.extract(Page(
        _BLOG_HEAD + "<body>" + "<div class='post'>" + _BLOG_POST.format(
            more=", <span>Published: March 13 at 11:52 am</span>")
        + "<p class='nav-previous'><a href='/2013/03/08/x/'>Read comments on the web</a>"
        "<span id='previous-next-byline' class='author'>By Julia Beizer</span>"
        "<span class='pagination-the-time'>March 8, 2013</span></p></div></body></html>",
        url="https://news.example/2013/03/13/how-readers-helped/"))
    assert found.published == "2013-03-13"
    assert found.authors == ["Bee Butler"]


def test_a_date_in_an_infobox_row_is_the_subject_s_not_the_page_s():
    # an encyclopedia's infobox beside the headline: a singer's debut date, marked up as a
    # date (class "bday dtstart published"), was shown as the day the page was published
    infobox = ("<table class='infobox vcard'><tr><th>Born</th><td>1976-04-25</td></tr>"
               "<tr><th scope='row'>Debut</th><td>1 September 1995<span style='display:none'>"
               " (<span class='bday dtstart published updated'>1995-09-01</span>)</span>"
               "</td></tr></table>")
    found = metadata.extract(page("<h1>Kim Jong-kook</h1>" + infobox + ARTICLE))
    assert found.published == ""
    # a post's own date line stays the page's, a table beside it or not
    found = metadata.extract(page("<h1>Kim Jong-kook</h1><p class='date'>Posted March 5, 2024"
                                  "</p>" + infobox + ARTICLE))
    assert found.published == "2024-03-05"


def _cards(heading: str) -> str:
    """Four stories of a list, each headed by ``heading`` (a format of ``{i}``) and dated."""
    return "<ul class='list-papers'>" + "".join(
        f"<li class='col'><div>{heading.format(i=i)}</div><div class='views-field'>"
        f"<div class='field-content'><time datetime='2025-12-{9 - i:02d}T12:00:00Z'>"
        f"12/{9 - i:02d}/2025</time> | <em><a href='https://paper{i}.example/'>Paper {i}</a>"
        f"</em></div></div><p>The {i}th story's summary, a sentence or two long.</p></li>"
        for i in range(4)) + "</ul>"


def test_a_listing_s_first_story_date_is_not_the_day_of_the_page():
    # Seen in Chromium and Firefox on a research centre's "News" listing (wcxb-dev, a listing
    # at 0.69, under the 0.7 that takes every date away): the first story's "12/09/2025" under
    # the page's "News" heading was shown as the page's day, and the reader then dropped it
    # from that story as a date line repeating the header's, leaving "| Chalkbeat Philadelphia"
    listing = "<h1>News</h1>" + _cards("<h4><a href='/news/story-{i}'>Story {i}</a></h4>")
    found = metadata.extract(page(listing, url="https://centre.example/news"))
    assert found.published == ""
    # a heading inside the link counts the same
    found = metadata.extract(page("<h1>News</h1>" + _cards(
        "<a href='/news/story-{i}'><h3>Story {i}</h3></a>"), url="https://centre.example/news"))
    assert found.published == ""
    # a thread's posts, headed by a link to their own anchor (phpBB's), are no cards: the
    # opening post's date is the thread's
    thread = "<h1>Sourdough starter</h1>" + _cards(
        "<h3 class='first'><a href='./viewtopic.php?p={i}&amp;sid=a1#p{i}'>Re: starter</a></h3>")
    found = metadata.extract(page(thread, url="https://forum.example/viewtopic.php?t=1"))
    assert found.published == "2025-12-09"
    # nor is a blog's post whose headline links to the post itself, above its related posts
    post = _cards("<h4><a href='/blog/story-{i}'>Story {i}</a></h4>").replace(
        "/blog/story-0", "https://blog.example/blog/story-0/", 1)
    found = metadata.extract(page(post, url="https://blog.example/blog/story-0"))
    assert found.published == "2025-12-09"
    # a story's own date under its headline stays, with a list of other stories after it
    story = ("<article><h1>Tutoring works</h1><time datetime='2025-11-02'>Nov 2, 2025</time>"
             + ARTICLE + "</article>" + _cards("<h4><a href='/news/story-{i}'>Story {i}</a></h4>"))
    found = metadata.extract(page(story, url="https://centre.example/news/tutoring"))
    assert found.published == "2025-11-02"


def test_a_thread_s_last_post_date_is_not_the_day_it_was_posted():
    # a forum thread's header: its title, then "last post by <name> <time>" (the latest
    # reply's day), then the opening post with its own date; the last post's day was shown
    # as the thread's
    head = ("<h1>Beginner woodworking projects</h1>"
            "<div class='thread-info'><span>2.1K views</span> <span>13 replies</span> "
            "<span>last post by&nbsp;<a href='/members/jw'>JWoodguy13</a>&nbsp;"
            "<time datetime='2023-08-07T01:43:13-0400'>Aug 7, 2023</time></span></div>"
            "<span class='postbit'><a href='#post-1'>#1</a> · <a href='#post-1'>"
            "<time datetime='2023-08-05T06:46:16-0400'>Aug 5, 2023</time></a></span>")
    found = metadata.extract(page(head + ARTICLE, url="https://forum.example/threads/1/"))
    assert found.published == "2023-08-05"
    # classed so, as older forum software does, or said as "Last reply:"
    # or with the words in the stamp's own line (Netmums' "Last post: 01/12/2025 at 6:49
    # pm" under the title was shown as the day of the thread, wcxb-dev 0531)
    for stamp in ("<div class='lastpost'><time datetime='2023-08-07'>Aug 7, 2023</time></div>",
                  "<p>Last reply: <span class='date'>Aug 7, 2023</span></p>",
                  "<p>Last post: 08/07/2023 at 6:49 pm</p>",
                  "<p class='date'>Last post: Aug 7, 2023</p>"):
        found = metadata.extract(page("<h1>Beginner woodworking projects</h1>" + stamp
                                      + "<p class='date'>Posted Aug 5, 2023</p>" + ARTICLE,
                                      url="https://forum.example/threads/1/"))
        assert found.published == "2023-08-05", stamp
    # "Last updated" is the day the page stands by: it stays
    found = metadata.extract(page("<h1>Harbour lights return</h1><p class='date'>Last updated "
                                  "March 5, 2024</p>" + ARTICLE))
    assert found.published == "2024-03-05"


def test_a_testimonial_s_author_is_no_byline():
    # a rental shop's page opens with a carousel of customers' testimonials, each signed in
    # an element classed "author": the customer was shown as the page's author
    carousel = ("<div class='carousel slide' id='testimonials-carousel'><div class='item'>"
                "<div class='message'><h2>Reventals is a one-stop shop for all of my event "
                "needs.</h2></div><div><div class='author'>Marisa Vickers</div></div></div></div>")
    found = metadata.extract(page(carousel + "<h1>Physical Fitness Equipment</h1>" + ARTICLE,
                                  url="https://shop.example/fitness"))
    assert found.authors == []
    # the article's own byline beside it stays
    found = metadata.extract(page(carousel + "<h1>Physical Fitness Equipment</h1>"
                                  "<p class='byline'>By Ann Lee</p>" + ARTICLE))
    assert found.authors == ["Ann Lee"]


def test_a_part_whose_class_says_no_byline_gives_no_author():
    # a consultancy's service page marks its meta line "post-meta-detail no-byline" and puts
    # its breadcrumb there: the reader showed "By Home, Technology Solutions Consulting and
    # Services"; a BBC page's "affiliate-no-author" line ("From The Forum") gave "The Forum"
    for meta in ("<div class='post-meta-detail no-byline'><span><a href='/'>Home</a></span> "
                 "» <span><a href='/solutions/'>Technology Solutions Consulting &amp; "
                 "Services</a></span></div>",
                 "<div class='affiliate-no-author story-meta'><span>From</span> <span>"
                 "<a href='/podcasts/forum'>The Forum</a></span></div>"):
        found = metadata.extract(page(meta + "<h1>Cybersecurity Consulting Services</h1>"
                                      + ARTICLE, url="https://firm.example/solutions/cyber/"))
        assert found.authors == [], meta
    # a byline beside such a line stays the author
    found = metadata.extract(page("<div class='hide-author-avatar'></div><h1>Harbour lights "
                                  "return</h1><p class='byline'>By Ann Lee</p>" + ARTICLE))
    assert found.authors == ["Ann Lee"]


def test_json_ld_article_author_beats_an_organization_and_a_bio_box():
    ld = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "Example News"},
        {"@type": "NewsArticle", "headline": "Dams and rivers",
         "author": [{"@type": "Person", "name": "Nikhil Marathe"},
                    {"@type": "Organization", "name": "Example News"}],
         "datePublished": "2023-11-02T22:10:00-05:00"}]}
    found = metadata.extract(page(
        "<h1>Dams and rivers</h1><div class='author-bio'>About the author: a bio.</div>" + ARTICLE,
        f"<script type='application/ld+json'>{json.dumps(ld)}</script>"))
    assert found.authors == ["Nikhil Marathe"]
    assert found.published == "2023-11-02"
    assert found.site_name == "Example News"


def test_a_json_ld_script_too_deep_to_parse_costs_only_itself():
    # Python's JSON parser raises RecursionError past about a thousand levels; it cost the
    # page's whole metadata (byline and date from the other scripts too)
    ld = {"@type": "NewsArticle", "author": {"@type": "Person", "name": "Nikhil Marathe"},
          "datePublished": "2023-11-02"}
    found = metadata.extract(page(
        "<h1>Dams and rivers</h1>" + ARTICLE,
        f"<script type='application/ld+json'>{'[' * 50_000 + ']' * 50_000}</script>"
        f"<script type='application/ld+json'>{json.dumps(ld)}</script>"))
    assert found.authors == ["Nikhil Marathe"] and found.published == "2023-11-02"


def test_a_forum_user_name_with_digits_is_the_question_s_author_not_an_answerer_s():
    def post(who: str, text: str) -> str:
        return (f"<div class='post'><p>{text}</p><div class='user-details' itemprop='author' "
                f"itemscope itemtype='http://schema.org/Person'><a href='/u/1'>{who}</a>"
                f"<meta itemprop='name' content='{who}'></div></div>")

    found = metadata.extract(page(
        "<h1>How does residential electricity work?</h1>"
        + post("user3080392", "The question. " * 30) + post("The Photon", "An answer. " * 30)))
    assert found.authors == ["user3080392"]
    # digits still rule out what is no name: a year, a phone number, a name and a date
    assert metadata._split_names("0800 555 0123") == []
    assert metadata._split_names("Staff 2024") == []


def test_an_author_box_marked_as_the_author_gives_its_name_not_its_bio():
    # a blog's author box under the post is the schema.org author, with no itemprop=name:
    # its whole text (name and bio) read as the byline "Shivya Nath Hi there! I'm Shivya"
    bio = "Hi there! I'm Ann, and I started this travel blog back in 2011. " * 3
    box = ("<div class='author-box' itemprop='author' itemscope "
           "itemtype='http://schema.org/Person'><img alt='Ann Lee' src='/a.png'>"
           "<div class='name'><a href='/author/ann/' class='vcard author' rel='author'>"
           "<span class='fn'>Ann Lee</span></a></div><div class='desc'><p>{bio}</p></div></div>")
    found = metadata.extract(page("<h1>Ten things to know</h1>" + ARTICLE + box.format(bio=bio)))
    assert found.authors == ["Ann Lee"]
    # a box naming no one (no author link, no vCard name): no byline from it, the meta tag's
    found = metadata.extract(page(
        "<h1>Ten things to know</h1>" + ARTICLE
        + f"<div itemprop='author' itemscope><p>Ann Lee. {bio}</p></div>",
        "<meta name='author' content='Ann Lee'>"))
    assert found.authors == ["Ann Lee"]


def test_meta_tags_and_url_date_when_nothing_is_visible():
    found = metadata.extract(page(
        "<h1>Plain page</h1>" + ARTICLE,
        "<meta name='author' content='Jane Roe'>"
        "<meta property='article:published_time' content='2022-05-26T10:00:00Z'>",
        url="https://blog.example/2021/07/22/plain-page/"))
    assert found.authors == ["Jane Roe"]
    assert found.published == "2021-07-22"  # the date in the address comes before meta tags


@pytest.mark.parametrize("text, expected", [
    ("2024-03-14T08:00:00Z", date(2024, 3, 14)),
    ("Updated March 5, 2024 at 10:00", date(2024, 3, 5)),
    ("5th March 2024", date(2024, 3, 5)),
    ("09/25/2025", date(2025, 9, 25)),
    ("25.09.2025", date(2025, 9, 25)),
    ("Posted 2019/08/16", date(2019, 8, 16)),
    ("no date here 123", None),
    ("Flight 2024-13-45", None),
])
def test_parse_date(text, expected):
    assert metadata.parse_date(text) == expected


def test_reading_time_counts_words_and_cjk_characters():
    result = auto.extract(page("<h1>T</h1><article>" + ARTICLE + "</article>"), auto.Params())
    metadata.attach(page("<h1>T</h1>" + ARTICLE), result)
    meta = result.main.metadata
    assert meta.words == sum(metadata.count_words(result.main.text)) >= 300
    assert meta.reading_minutes == max(1, round(meta.words / metadata.WORDS_PER_MINUTE))
    assert metadata.count_words("中文字 and words") == (2, 3)


def test_attach_never_raises_and_skips_results_without_main_text():
    result = auto.extract(page("<p>x</p>"), auto.Params())
    result.main = None
    assert metadata.attach(page("<p>x</p>"), result).main is None



SHOP = ("<main><h1>Harbour Rain Jacket</h1><p class='price'>EUR 120</p>" + ARTICLE +
        "<section class='reviews'><h2>Reviews</h2><div class='review'>"
        "<span class='author'>Dana Kite</span><p>Kept me dry all winter.</p></div>"
        "</section></main>")


@pytest.mark.parametrize("page_type", sorted(metadata.NOT_PUBLICATION_PAGE_TYPES))
def test_a_page_that_is_not_a_publication_names_no_author_and_no_day(page_type):
    shop = page(SHOP.replace("<p>Kept me dry", "<time datetime='2020-08-06'>August 6, 2020"
                             "</time><p>Kept me dry"),
                "<meta name='author' content='Quayside Outfitters'>")
    found = metadata.extract(shop)  # a reviewer or the shop taken for a byline, a review's day
    assert found.authors and found.published == "2020-08-06"
    kept = metadata.extract(shop, page_type=page_type)
    assert kept.authors == [] and kept.published == ""
    article = metadata.extract(shop, page_type="article")
    assert article.authors and article.published == "2020-08-06"


def test_attach_passes_the_segmenter_s_page_type_when_it_is_sure_of_it():
    shop = page(SHOP, "<meta name='author' content='Quayside Outfitters'>")
    result = auto.extract(shop, auto.Params())
    result.extra["page_type"] = "product"
    result.stats["page_type.product"] = 0.9
    assert metadata.attach(shop, result).main.metadata.authors == []
    result.stats["page_type.product"] = 0.45  # a lean, as a plain article can have
    assert metadata.attach(shop, result).main.metadata.authors
    result.extra["page_type"] = "article"
    result.stats["page_type.article"] = 0.9
    assert metadata.attach(shop, result).main.metadata.authors

@pytest.mark.parametrize(("title_tag", "site"), [
    ("Harbour Rain Jacket | Quayside Outfitters", "Quayside Outfitters"),
    ("Quayside Outfitters - Harbour Rain Jacket", "shop.example"),  # first: only if the host
    ("Shop Example - Harbour Rain Jacket", "Shop Example"),  # names it too
    ("Harbour Rain Jacket – Jackets – Quayside", "Quayside"),  # the far end names the site
    # a colon joins a headline and its subtitle; a long tail is a subtitle too
    ("Harbour Rain Jacket: Quayside Outfitters", "shop.example"),
    ("Harbour Rain Jacket | Made for the wet side of the coast in every season",
     "shop.example"),
    ("Harbour Rain Jacket", "shop.example"),  # nothing cut off: the host
])
def test_site_name_from_the_title_when_the_page_declares_none(title_tag: str, site: str):
    found = metadata.extract(page("<main><h1>Harbour Rain Jacket</h1>" + ARTICLE + "</main>",
                                  f"<title>{title_tag}</title>",
                                  url="https://www.shop.example/p/1"))
    assert found.title == "Harbour Rain Jacket"
    assert found.site_name == site


def test_a_declared_site_name_wins_over_the_title():
    found = metadata.extract(page(
        "<h1>Harbour Rain Jacket</h1>" + ARTICLE,
        "<title>Harbour Rain Jacket | Quayside</title>"
        "<meta property='og:site_name' content='Quayside Outfitters Ltd'>"))
    assert found.site_name == "Quayside Outfitters Ltd"


@pytest.mark.parametrize("byline", [
    # the job title in its own element, as BBC News marks it
    "<span class='byline'><span class='byline-name'>By Mark Kinver</span>"
    "<span class='byline-title'>Environment reporter, BBC News</span></span>",
    # the same as one line of text
    "<p class='byline'>Mark Kinver, Environment reporter, BBC News</p>",
])
def test_a_job_title_or_an_organisation_after_the_name_is_not_an_author(byline):
    found = metadata.extract(page("<h1>Famine risks are badly managed</h1>" + byline + ARTICLE))
    assert found.authors == ["Mark Kinver"]


def test_a_badge_or_an_icon_beside_the_name_is_not_an_author():
    # a forum's industry badge ("CO") and rank badge in the author block
    found = metadata.extract(page(
        "<h1>Consulting: is it worth it?</h1><div class='author-details'>"
        "<div class='author-details-avatar'><a class='submitted-industry' href='/s'>CO</a></div>"
        "<span class='author-details__username'><a href='/u/quay'>Quayside</a></span>"
        "<span class='author-details__industry-icon'>CO</span>"
        "<a class='ranking-badge' href='/rankings'>Senior</a></div>" + ARTICLE))
    assert found.authors == ["Quayside"]


def test_the_date_in_a_byline_is_not_part_of_the_author_s_name():
    found = metadata.extract(page(
        "<h1>39 best electrician tools</h1><div class='blogDetails__BlogAuthorDate'>"
        "<div><span><svg></svg>HarbourTools</span></div>"
        "<div><span><svg></svg>November 26th, 2024</span></div>"
        "<div><span>10 Min Read</span></div></div>" + ARTICLE))
    assert found.authors == ["HarbourTools"]
    assert found.published == "2024-11-26"
    assert metadata._split_names("By Erin Cunningham 5 March 2024") == ["Erin Cunningham"]
    assert metadata._split_names("Reuters Staff") == ["Reuters Staff"]


def test_a_chinese_byline_s_label_and_the_site_before_it_are_not_the_name():
    """51offer's "<span class=author>51offer编辑：Alice</span>": the name is what follows the
    label ("编辑：", editor), not the site's name and the label before it."""
    found = metadata.extract(page(
        "<h1>写给想在英国找工作的留学党</h1><div class='label-desc'>"
        "<span class='input-time'>发布于：2015-11-05 11:34</span>"
        "<span class='author'>51offer编辑：Alice</span></div>"
        "<p>" + "留学生在英国找工作需要早做规划。" * 40 + "</p>"))
    assert found.authors == ["Alice"]
    assert metadata._split_names("作者：张三") == ["张三"]
    assert metadata._split_names("责任编辑: 李四") == ["李四"]
    assert metadata._split_names("新华网记者 王五") == ["新华网记者 王五"]  # no label: unchanged


def test_a_line_starting_by_after_the_headline_is_a_byline_without_a_byline_class():
    """An old blog's dateline, "By Ed Silverman // November 6th, 2012 // 9:41 am", in an
    element no class marks as a byline: the author; a sentence starting "By" is not."""
    found = metadata.extract(page(
        "<div id=content><h1><a href='/2012/11/axe'>The Axe Falls</a></h1>"
        "<p class='dateline'>By Erin Cunningham // <a href='/2012/11/06/'>November 6th, 2012</a>"
        " // 9:41 am</p>" + ARTICLE + "</div>"))
    assert found.authors == ["Erin Cunningham"]
    assert found.published == "2012-11-06"
    sentence = metadata.extract(page(
        "<h1>The harbour in winter</h1><p>By the end of the year the quay was closed.</p>"
        + ARTICLE))
    assert sentence.authors == []
    heading = metadata.extract(page("<h1>The harbour in winter</h1><h4>By Ali Noor</h4>" + ARTICLE))
    assert heading.authors == ["Ali Noor"]


@pytest.mark.parametrize("where", ["meta", "byline"])
def test_a_degree_after_the_name_belongs_to_the_name(where):
    # a health site's "Written by Jillian Kubala, MS, RD": her credentials, not two more authors
    head = "<meta name='article:author' content='Ann Quill, MS, RD'>" if where == "meta" else ""
    byline = "" if where == "meta" else (
        "<div class='byline'>Written by <a href='/authors/ann-quill'>Ann Quill, MS, RD</a></div>")
    found = metadata.extract(page("<h1>A plant-based diet for beginners</h1>" + byline + ARTICLE,
                                  head))
    assert found.authors == ["Ann Quill, MS, RD"]
    assert metadata._split_names("Jane Doe, PhD and John Roe, M.D.") == ["Jane Doe, PhD",
                                                                          "John Roe, M.D."]
    # names in capitals are names, each its own author
    assert metadata._split_names("By SMITH, JONES") == ["SMITH", "JONES"]


def _shop_page(*heads: str) -> Page:
    return Page("<html><head><title>Trail Mug | Kiln Co</title>" + "".join(heads) + "</head><body>"
                "<h1>Trail Mug</h1><p>$29.95</p><p>A stoneware mug for long walks.</p></body></html>",
                url="https://kiln.example/products/trail-mug")


def _ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


@pytest.mark.parametrize(("heads", "expected"), [
    # one Offer, a number
    ([_ld({"@type": "Product", "name": "Trail Mug", "offers": {"@type": "Offer", "price": 29.95,
                                                                 "priceCurrency": "usd"}})],
     ("29.95", "USD")),
    # in a @graph, offers as a list of one price, grouped thousands as a string
    ([_ld({"@graph": [{"@type": "WebPage"}, {"@type": ["Product"], "offers": [
        {"@type": "Offer", "price": "1,299.99", "priceCurrency": "EUR"},
        {"@type": "Offer", "price": "1299.99", "priceCurrency": "EUR"}]}]})], ("1,299.99", "EUR")),
    # an AggregateOffer whose low and high agree; a price specification
    ([_ld({"@type": "Product", "offers": {"@type": "AggregateOffer", "lowPrice": "12",
                                          "highPrice": "12.00", "priceCurrency": "GBP"}})],
     ("12", "GBP")),
    ([_ld({"@type": "Product", "offers": {"@type": "Offer", "priceSpecification": {
        "price": "8.50", "priceCurrency": "AUD"}}})], ("8.50", "AUD")),
    # no structured data: the product:price meta tags
    (['<meta property="product:price:amount" content="60.00">',
      '<meta property="product:price:currency" content="AUD">'], ("60.00", "AUD")),
])
def test_a_product_pages_one_price_comes_from_its_structured_data(heads, expected) -> None:
    found = metadata.extract(_shop_page(*heads), page_type="product").price
    assert found is not None
    assert (found.amount, found.currency) == (expected[0].replace(",", ""), expected[1])


@pytest.mark.parametrize("heads", [
    # variants at two prices: no one price to show
    [_ld({"@type": "Product", "offers": [{"@type": "Offer", "price": "325", "priceCurrency": "USD"},
                                         {"@type": "Offer", "price": "335", "priceCurrency": "USD"}]})],
    # a range, a price of zero, a word, no currency, a currency that is no ISO code
    [_ld({"@type": "Product", "offers": {"@type": "AggregateOffer", "lowPrice": "10",
                                         "highPrice": "40", "priceCurrency": "USD"}})],
    [_ld({"@type": "Product", "offers": {"@type": "Offer", "price": "0", "priceCurrency": "USD"}})],
    [_ld({"@type": "Product", "offers": {"@type": "Offer", "price": "Free", "priceCurrency": "USD"}})],
    [_ld({"@type": "Product", "offers": {"@type": "Offer", "price": "19.99"}})],
    ['<meta property="og:price:amount" content="19.99">', '<meta property="og:price:currency" content="$">'],
    # an offer that is not a product's (an event's ticket)
    [_ld({"@type": "Event", "offers": {"@type": "Offer", "price": "25", "priceCurrency": "USD"}})],
    # broken JSON-LD and odd values never raise
    ['<script type="application/ld+json">{"@type": "Product", "offers": </script>'],
    [_ld({"@type": "Product", "offers": [None, 3, {"@type": "Offer", "price": True,
                                                    "priceCurrency": "USD"}]})],
])
def test_no_price_where_the_page_states_none_or_several(heads) -> None:
    assert metadata.extract(_shop_page(*heads), page_type="product").price is None


def test_a_price_is_given_on_product_pages_only() -> None:
    page = _shop_page(_ld({"@type": "Product", "offers": {"@type": "Offer", "price": "29.95",
                                                          "priceCurrency": "USD"}}))
    assert metadata.extract(page, page_type="product").price is not None
    # a review article describing the product, or a page of uncertain type: no price
    assert metadata.extract(page, page_type="article").price is None
    assert metadata.extract(page).price is None
    assert metadata.extract(page, page_type="product").model_dump(by_alias=True)["price"] == {
        "amount": "29.95", "currency": "USD"}


@pytest.mark.parametrize(("heads", "expected"), [
    # the Product's image: a URL, made absolute against the page's address
    ([_ld({"@type": "Product", "name": "Trail Mug", "image": "/files/trail-mug.jpg"})],
     ("https://kiln.example/files/trail-mug.jpg", "Trail Mug")),
    # a list of them, in a @graph: the first; an ImageObject's url or contentUrl
    ([_ld({"@graph": [{"@type": "WebPage"}, {"@type": "Product", "name": "Trail Mug",
                                              "image": ["https://cdn.example/a.jpg", "b.jpg"]}]})],
     ("https://cdn.example/a.jpg", "Trail Mug")),
    ([_ld({"@type": "Product", "name": "Trail Mug &amp; Lid",
           "image": {"@type": "ImageObject", "contentUrl": "https://cdn.example/c.webp"}})],
     ("https://cdn.example/c.webp", "Trail Mug & Lid")),
    # the Product names none (or only its shop's logo): og:image, with its alt
    ([_ld({"@type": "Product", "name": "Trail Mug", "image": "https://cdn.example/kiln-logo.png"}),
      '<meta property="og:image" content="https://cdn.example/mug-1200.jpg?v=3&amp;w=1200">',
      '<meta property="og:image:alt" content="A speckled mug">'],
     ("https://cdn.example/mug-1200.jpg?v=3&w=1200", "Trail Mug")),
    (['<meta property="og:image" content="https://cdn.example/mug.jpg">',
      '<meta property="og:image:alt" content="A speckled mug">'],
     ("https://cdn.example/mug.jpg", "A speckled mug")),
    (['<meta name="twitter:image" content="https://cdn.example/mug-card.jpg">'],
     ("https://cdn.example/mug-card.jpg", "")),
    # a refused word inside another is no refusal: a blanket is a product
    ([_ld({"@type": "Product", "name": "Wool Blanket", "image": "/img/blanket-queen_logos.jpg"})],
     ("https://kiln.example/img/blanket-queen_logos.jpg", "Wool Blanket")),
])
def test_a_product_pages_picture_comes_from_its_structured_data(heads, expected) -> None:
    found = metadata.extract(_shop_page(*heads), page_type="product").picture
    assert found is not None
    assert (found.url, found.alt) == expected


@pytest.mark.parametrize("heads", [
    [],
    # no address a browser may load, or none that is the product's
    [_ld({"@type": "Product", "image": "javascript:alert(1)"})],
    ['<meta property="og:image" content="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'],
    [_ld({"@type": "Product", "image": ["https://cdn.example/placeholder.png",
                                        "https://cdn.example/no-image-available.jpg"]})],
    ['<meta property="og:image" content="https://cdn.example/default-social-v2.png">'],
    # the image of a thing that is no product
    [_ld({"@type": "Event", "image": "https://cdn.example/festival.jpg"})],
    # image values that are no address
    [_ld({"@type": "Product", "image": [None, 3, {"@type": "ImageObject"}]})],
])
def test_no_picture_where_the_page_names_no_product_photo(heads) -> None:
    assert metadata.extract(_shop_page(*heads), page_type="product").picture is None


def test_an_address_that_does_not_parse_costs_only_itself() -> None:
    # urljoin raises on it; the page keeps its other metadata and the next candidate
    page = _shop_page(_ld({"@type": "Product", "name": "Trail Mug", "image": "http://[::1/a.jpg",
                           "offers": {"@type": "Offer", "price": "29.95", "priceCurrency": "USD"}}),
                      '<meta property="og:image" content="https://cdn.example/mug.jpg">')
    found = metadata.extract(page, page_type="product")
    assert found.picture is not None and found.picture.url == "https://cdn.example/mug.jpg"
    assert found.price is not None and found.title


def test_a_picture_is_given_on_product_pages_only() -> None:
    page = _shop_page(_ld({"@type": "Product", "name": "Trail Mug",
                           "image": "https://cdn.example/mug.jpg"}))
    assert metadata.extract(page, page_type="product").picture is not None
    # a review article showing the product, or a page of uncertain type: its own pictures
    assert metadata.extract(page, page_type="article").picture is None
    assert metadata.extract(page).picture is None
    assert metadata.extract(page, page_type="product").model_dump(by_alias=True)["picture"] == {
        "url": "https://cdn.example/mug.jpg", "alt": "Trail Mug"}


# -- writing direction -----------------------------------------------------------------------

_ARABIC = "<p>" + "يرتفع البحر وينخفض مرتين كل يوم في ميناء الإسكندرية. " * 20 + "</p>"
_HEBREW = "<p>" + "בנמל חיפה עולה הים ויורד פעמיים ביום. " * 20 + "</p>"


def _of(html: str) -> tuple[str, str]:
    """(language, direction) of the metadata of ``html``'s <article>, chosen as main text."""
    parsed = Page(html, url="https://news.example/a")
    main = render_main(parsed, parsed.tree.xpath("//article"))
    found = metadata.extract(parsed, main)
    return found.language, found.direction


def test_direction_of_the_page_s_html_dir():
    assert _of(f"<html dir='rtl' lang='ar'><body><article>{_ARABIC}</article></body></html>") \
        == ("ar", "rtl")
    assert _of(f"<html lang='ar'><body dir='RTL'><article>{_ARABIC}</article></body></html>") \
        == ("ar", "rtl")


def test_direction_of_a_right_to_left_language_without_dir():
    assert _of(f"<html lang='he'><body><article>{_HEBREW}</article></body></html>") \
        == ("he", "rtl")


def test_direction_and_language_of_the_nearest_element_around_the_text():
    # a site in English around an article in Persian: Readability's rule, the nearest dir
    assert _of(f"<html lang='en' dir='ltr'><body><nav>Home News</nav><div dir='rtl' lang='fa'>"
               f"<article>{_ARABIC}</article></div></body></html>") == ("fa", "rtl")


def test_an_english_article_quoting_hebrew_reads_left_to_right():
    assert _of("<html lang='en'><body><article>" + ARTICLE + "<blockquote dir='rtl' lang='he'>"
               + _HEBREW + "</blockquote>" + ARTICLE + "</article></body></html>") \
        == ("en", "ltr")


def test_direction_of_the_letters_when_the_page_says_nothing_or_the_wrong_language():
    # direction set in the stylesheet only, or a template's lang='en' around Arabic text
    assert _of(f"<html><body><article>{_ARABIC}</article></body></html>") == ("", "rtl")
    assert _of(f"<html lang='en'><body><article>{_ARABIC}</article></body></html>") \
        == ("en", "rtl")
    # dir='auto' is the text's own direction
    assert _of(f"<html lang='ar' dir='auto'><body><article>{ARTICLE}</article></body></html>") \
        == ("ar", "ltr")
    assert _of(f"<html><body><article>{ARTICLE}</article></body></html>") == ("", "ltr")


def test_direction_from_stamped_ids_as_the_extension_sends_them():
    parsed = Page(f"<html lang='en'><body><nav data-bsid='1'>Home</nav><div data-bsid='2' "
                  f"dir='rtl' lang='ar'><article data-bsid='3'>{_ARABIC}</article></div>"
                  "</body></html>", url="https://news.example/a")
    main = render_main(parsed, parsed.tree.xpath("//article"))
    assert main.element_ids[0] == "3"
    found = metadata.extract(parsed, main)
    assert (found.language, found.direction) == ("ar", "rtl")


def test_a_reference_pages_terms_and_sections_named_for_authors_are_no_byline():
    # Seen in the reader's header: "By reset-author" over git-commit's manual (a <dt> anchored
    # "...---reset-author") and "By § Authoring applications" over tokio's docs (a section
    # heading anchored "authoring-applications")
    found = metadata.extract(page(
        "<main><h1>git-commit</h1><dl><dt class='hdlist1' id='git-commit.txt---reset-author'>"
        "<code>--reset-author</code></dt><dd><p>Declare that the authorship of the resulting "
        "commit now belongs to the committer.</p></dd></dl>"
        "<h2 id='authoring-applications'><a href='#authoring-applications'>§</a> Authoring "
        "applications</h2>" + ARTICLE + "</main>", "<title>git-commit</title>"))
    assert found.authors == []


def test_a_byline_holding_other_links_gives_the_one_marked_as_the_authors():
    # lobste.rs: "via scvalex 1 year ago | caches | 12 comments" read "By scvalex and 12
    # comments": the byline's links were all taken for names
    found = metadata.extract(page(
        "<h1>Rust project goals for 2024</h1><div class='byline'><span>via</span> "
        "<a href='/~scvalex' aria-hidden='true'><img alt='scvalex avatar' src='/a.png'></a> "
        "<a class='u-author h-card' href='/~scvalex'>scvalex</a> <time datetime='2024-08-12 "
        "10:00:23'>1 year ago</time> | <a href='/t/caches'>caches</a> | "
        "<a href='/s/dwip3v'>12 comments</a></div>" + ARTICLE,
        "<title>Rust project goals for 2024 | Lobsters</title>"))
    assert found.authors == ["scvalex"]


@pytest.mark.parametrize(("tags", "site"), [
    # a theme's placeholders are no name: the title names the site
    ("<meta name='twitter:site' content='website'>", "Quayside Outfitters"),
    ("<meta property='og:site_name' content='Blog'>", "Quayside Outfitters"),
    # the next tag that does name it still wins over the title
    ("<meta property='og:site_name' content='homepage'>"
     "<meta name='application-name' content='Quayside'>", "Quayside"),
    # an address is named by its host
    ("<meta property='og:site_name' content='http://www.quayside.example/'>", "quayside.example"),
])
def test_a_placeholder_or_an_address_in_a_site_name_tag(tags: str, site: str):
    found = metadata.extract(page("<main><h1>Harbour Rain Jacket</h1>" + ARTICLE + "</main>",
                                  "<title>Harbour Rain Jacket | Quayside Outfitters</title>" + tags,
                                  url="https://www.shop.example/p/1"))
    assert found.site_name == site


@pytest.mark.parametrize(("tags", "url", "site"), [
    # a forum's app and a shop's platform fill the handle tags in for every site they serve
    ("<meta name='twitter:site' content='@tapatalk'>"
     "<meta property='al:ios:app_name' content='Tapatalk'>",
     "https://www.quayside.example/showthread.php?t=1", "Quayside Outfitters"),
    ("<meta name='twitter:site' content='@shopify'>", "https://quayside.example/p/1",
     "Quayside Outfitters"),
    # the site's own account names it
    ("<meta name='twitter:site' content='@QuaysideShop'>", "https://www.quayside.example/p/1",
     "QuaysideShop"),
    # with no address to hold it against, the handle is all the page says
    ("<meta name='twitter:site' content='@tapatalk'>", None, "tapatalk"),
])
def test_an_account_handle_names_the_site_only_where_it_names_the_host(
        tags: str, url: str | None, site: str):
    found = metadata.extract(page("<main><h1>Harbour Rain Jacket</h1>" + ARTICLE + "</main>",
                                  "<title>Harbour Rain Jacket | Quayside Outfitters</title>" + tags,
                                  url=url))
    assert found.site_name == site


def test_a_web_address_is_no_author_and_the_visible_byline_is_taken():
    """CBS News' pages name "CBSNews.com" in <meta name=author> and in "By" lines: the
    site, not a person; the correspondent's box under the headline names the writer."""
    body = ("<article><h1>Fracking boon could boost Obama in Ohio</h1>"
            "<div class='correspondent'><span class='author'>Brian Montopoli</span></div>"
            + ARTICLE + "</article>")
    found = metadata.extract(page(body, "<title>Fracking boon - CBS News</title>"
                                  "<meta name='author' content='CBSNews.com'>"))
    assert found.authors == ["Brian Montopoli"]
    found = metadata.extract(page("<article><h1>Sally Ride dead at 61</h1>"
                                  "<p class='byline'>By CBSNews.com</p>" + ARTICLE + "</article>",
                                  "<title>Sally Ride dead at 61 - CBS News</title>"))
    assert found.authors == []
    # a name with initials stays one
    found = metadata.extract(page("<article><h1>Old lights</h1>"
                                  "<p class='byline'>By J.R. Hartley</p>" + ARTICLE + "</article>",
                                  "<title>Old lights</title>"))
    assert found.authors == ["J.R. Hartley"]


def test_a_title_s_end_that_the_front_page_s_link_says_is_the_site_s_name():
    # Sohu's business pages end their <title> with the section's name, "-搜狐财经", which a
    # link to the host's front page says; nothing else on the page names the site so
    title = "劳伦斯：一个无法定义的“洛克菲勒”-搜狐财经"
    story = "<p>" + "洛克菲勒家族开创者老约翰·洛克菲勒的三孙子劳伦斯·洛克菲勒于7月10日早上寿终正寝。" * 8 \
        + "</p>"

    def title_of(links: str, url: str = "http://business.sohu.com/20040716/n221031086.shtml"
                 ) -> str:
        parsed = Page(f"<html><head><title>{title}</title></head><body><div class='nav'>"
                      f"{links}</div><div class='text'>{story}</div></body></html>", url=url)
        main = render_main(parsed, parsed.tree.xpath("//div[@class='text']"), title=title)
        return metadata.extract(parsed, main).title

    assert title_of("<a href='http://www.sohu.com/'>搜狐首页</a>"
                    "<a href='http://business.sohu.com'>搜狐财经</a>") == "劳伦斯：一个无法定义的“洛克菲勒”"
    assert title_of("<a href='/'>搜狐财经</a>") == "劳伦斯：一个无法定义的“洛克菲勒”"
    # a link to another host's front page, or to a page of the site, names no site here
    assert title_of("<a href='http://www.sohu.com/'>搜狐财经</a>") == title
    assert title_of("<a href='/finance/'>搜狐财经</a>") == title
    assert title_of("<a href='http://business.sohu.com/?from=nav'>搜狐财经</a>") == title


def test_a_title_s_end_beside_the_description_s_words_is_the_site_s_name():
    # Sohu's "民间资本成投资活动的主体 民间资本路在何方-搜狐财经": no link names "搜狐财经", but the
    # page's description says the headline alone, all of the <title> before the "-"
    story = "<p>" + "民间资本已经成为投资活动的主体，民间资本的路在何方值得探讨。" * 8 + "</p>"

    def title_of(title: str, description: str) -> str:
        parsed = Page(f"<html><head><meta name='description' content='{description}'>"
                      f"<title>{title}</title></head><body><div class='nav'>"
                      "<a href='http://www.sohu.com/'>搜狐首页</a></div>"
                      f"<div class='text'>{story}</div></body></html>",
                      url="http://business.sohu.com/20041021/n222611364.shtml")
        main = render_main(parsed, parsed.tree.xpath("//div[@class='text']"), title=title)
        return metadata.extract(parsed, main).title

    assert title_of("民间资本成投资活动的主体 民间资本路在何方-搜狐财经", "民间资本成投资活动的主体 民间资本路在何方"
                    ) == "民间资本成投资活动的主体 民间资本路在何方"
    # a blog describing itself by its name leaves the post's headline as the rest: no site
    assert metadata._beside_description("Seth's Blog", "Seth's Blog: Entering sync markets") == []
    # nor is a word of the described part the site's name ("... | Bulova")
    assert metadata._beside_description("Bulova Official International Site",
                                        "Bulova Official International Site | Bulova") == []
    assert metadata._beside_description("", "A story | Site") == []


def test_a_date_line_in_bold_under_the_headline_is_the_date():
    # the Guardian's pages of the 2000s set the day in a <b> with the paper's name: the
    # reader's text opened with "Saturday December 21, 2002 The Guardian" under a header
    # with no date
    for tag in ("b", "strong"):
        found = metadata.extract(page(
            "<td><h1>On a wing and a prayer</h1><br><br>Using amateur actors, City of God "
            f"exposes life in the slums.<br><br><{tag}>Saturday  December  21, 2002<br>"
            f"<a href='http://www.guardian.co.uk'>The Guardian</a></{tag}><br><br>"
            f"<div>{ARTICLE}</div></td>", "<title>On a wing and a prayer</title>",
            url="http://film.guardian.co.uk/features/featurepages/0,4120,863596,00.html"))
        assert found.published == "2002-12-21", tag


def test_a_span_of_two_dates_under_the_headline_is_no_day_of_the_page():
    # a course page's dates ("1/27/2026 - 3/24/2026") under its headline: the reader's
    # header said it was published on January 27, 2026 (wcxb-dev 0088 in Firefox ESR)
    for span in ("1/27/2026&nbsp; - 3/24/2026", "January 27, 2026 to March 24, 2026",
                 "27 January 2026 – 24 March 2026"):
        found = metadata.extract(page(
            f"<h1>Digital Marketing Professional</h1><p><strong>Spring 2026</strong></p>"
            f"<p>Tuesdays Evenings</p><p>{span}</p><div>{ARTICLE}</div>",
            "<title>Digital Marketing Professional</title>"))
        assert found.published == "", span
    # one date alone, or a date line with words of its own, is the date
    for line, day in (("1/27/2026", "2026-01-27"),
                      ("Published March 5, 2024 - Updated March 7, 2024", "2024-03-05")):
        found = metadata.extract(page(
            f"<h1>Digital Marketing Professional</h1><p>{line}</p><div>{ARTICLE}</div>",
            "<title>Digital Marketing Professional</title>"))
        assert found.published == day, line


@pytest.mark.parametrize(("declared", "shown"), [
    ("aliexpress.", "aliexpress"), ("Quayside Outfitters |", "Quayside Outfitters"),
    ("Quayside -", "Quayside"), ("Quayside Outfitters ·", "Quayside Outfitters"),
    ("Quayside:", "Quayside"), ("Quayside...", "Quayside"), ("Quayside, ", "Quayside"),
    # punctuation that is part of the name stays
    ("Yahoo!", "Yahoo!"), ("Panic!", "Panic!"), ("Jeopardy!", "Jeopardy!"),
    ("Quayside Outfitters Inc.", "Quayside Outfitters Inc."), ("Smith & Co.", "Smith & Co."),
    ("Quayside Ltd.", "Quayside Ltd."), ("Made in the U.S.", "Made in the U.S."),
    ("Verein e.V.", "Verein e.V."), ("Who?", "Who?"), ("Amazon.com", "Amazon.com"),
    ("Eardopes Int.", "Eardopes Int."),
    # a tagline's full stop is no part of the name either, nor the tagline itself
    ("Fermyon • The next wave of cloud computing.", "Fermyon"),
])
def test_a_declared_site_name_loses_a_stray_trailing_dot_or_separator(declared: str, shown: str):
    found = metadata.extract(page(
        "<h1>Harbour Rain Jacket</h1>" + ARTICLE,
        f"<meta property='og:site_name' content='{declared}'>"))
    assert found.site_name == shown


@pytest.mark.parametrize(("declared", "shown"), [
    # a name and its tagline: the name alone
    ("Acme — the best widgets since 1990", "Acme"),
    ("Zillow Blog - Real Estate Market Stats, Celebrity Real Estate, and Zillow News",
     "Zillow Blog"),
    ("JOCO Cups | Glass Reusable Coffee Cups", "JOCO Cups"),
    ("MonsGeek - - Make Cool Gears Accessible", "MonsGeek"),
    ("Wirecutter: Reviews for the Real World", "Wirecutter"),
    ("Fermyon • Experience the next wave of cloud computing", "Fermyon"),
    # real names stay whole: no separator between spaces, a colon before fewer than three
    # words, or a first part too long to be a name
    ("The New York Times", "The New York Times"), ("Smith & Wesson", "Smith & Wesson"),
    ("The Star-Ledger", "The Star-Ledger"), ("Harley-Davidson", "Harley-Davidson"),
    ("Re: Design", "Re: Design"), ("Yahoo! News", "Yahoo! News"),
    ("Eat Your Greens with Dr. Black - From nutrition to everyday habits",
     "Eat Your Greens with Dr. Black - From nutrition to everyday habits"),
])
def test_a_declared_site_name_loses_its_tagline(declared: str, shown: str):
    found = metadata.extract(page(
        "<h1>Harbour Rain Jacket</h1>" + ARTICLE,
        f"<meta property='og:site_name' content='{declared}'>", url="https://acme.example/a"))
    assert found.site_name == shown


@pytest.mark.parametrize(("declared", "url", "shown"), [
    # the tagline first: the last part names the page's host, and is the shorter
    ("Headphone Reviews and Discussion - Head-Fi.org", "https://www.head-fi.org/threads/1",
     "Head-Fi.org"),
    ("Thoughts about Product Adoption and Good UX | Userpilot Blog",
     "https://userpilot.com/blog/onboarding", "Userpilot Blog"),
    # a name first stays the name where the tagline's words name the host
    ("Wendi Weiner - The Writing Guru", "https://www.thewritingguru.net/blog",
     "Wendi Weiner"),
    ("Headphone Reviews and Discussion - Head-Fi.org", "https://forum.example/threads/1",
     "Headphone Reviews and Discussion"),
])
def test_a_tagline_before_the_name_that_the_host_names(declared: str, url: str, shown: str):
    found = metadata.extract(page("<h1>Harbour Rain Jacket</h1>" + ARTICLE,
                                  f"<meta property='og:site_name' content='{declared}'>",
                                  url=url))
    assert found.site_name == shown


def test_a_schema_org_site_name_loses_its_tagline_and_stray_punctuation():
    ld = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "Quayside Outfitters | Rain gear for the coast |"}]}
    found = metadata.extract(page(
        "<h1>Harbour Rain Jacket</h1>" + ARTICLE,
        f"<script type='application/ld+json'>{json.dumps(ld)}</script>"))
    assert found.site_name == "Quayside Outfitters"


@pytest.mark.parametrize("byline, name", [
    # a credential after the name stays with it
    ("<span class='byline'>Written by <cite>Rebecca Lake, CEPF®</cite></span>",
     "Rebecca Lake, CEPF®"),
    # Webflow's author card: the name and the role ("card-author-rol") in one link; the
    # element classed as the name gives it
    ("<div class='card-author-content-top'><a class='card-author-name-wrapper' href='/t/m'>"
     "<h2 class='card-author-name'>Matt Check</h2>"
     "<div class='card-author-rol'>Head Winemaker, Co-Founder</div></a></div>", "Matt Check"),
    # a job's position beside the name; a layout class saying "position" hides nothing
    ("<div class='author'><a href='/author/meghan'><div class='name'>Written by <span>"
     "Meghan Neville</span></div><div class='position'>Content Marketing Coordinator</div>"
     "</a></div>", "Meghan Neville"),
    ("<div class='byline position-relative'>By Ann Lee</div>", "Ann Lee"),
])
def test_a_credential_stays_with_the_name_and_a_job_or_role_beside_it_does_not(byline, name):
    found = metadata.extract(page("<h1>Wine for beginners</h1>" + byline + ARTICLE))
    assert found.authors == [name]
