"""Units of the learned ``auto``: blocks and features, aligned labels, the numpy tree runtime,
the shipped model, data tables, explanations and per-site adaptation."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from blocksift import content
from blocksift.algorithms import auto, auto_rules
from blocksift.algorithms.segmenter import adapt, context, features, labels, trees
from blocksift.page import Page, decode_html

ROOT = Path(__file__).resolve().parents[2]
HAS_LIGHTGBM = importlib.util.find_spec("lightgbm") is not None


# -- blocks and features --------------------------------------------------------------------

def test_blocks_own_their_inline_text_in_document_order():
    page = Page("<html><body><div>Intro <b>bold</b> words<p>A <a href='/x'>link</a>"
                " here.</p>tail text</div><ul><li><a href='/1'>One</a></li></ul></body></html>")
    blocks = features.compute(page, papers=False, rules=False)
    assert blocks.texts == ["Intro bold wordstail text", "A link here.", "One"]
    col = features.FEATURE_INDEX
    link_share = blocks.features[:, col["own_link_share"]]
    assert link_share[0] == 0 and 0 < link_share[1] < 1 and link_share[2] == 1
    assert blocks.features[2, col["in_li"]] == 1 and blocks.features[0, col["in_li"]] == 0


def test_noscript_and_hidden_text_are_kept_as_flagged_blocks():
    page = Page("<body><noscript><div>Crawler-readable post text.</div></noscript>"
                "<div style='display:none'>Hidden menu</div><p>Visible.</p></body>")
    blocks = features.compute(page, papers=False, rules=False)
    col = features.FEATURE_INDEX
    by_text = dict(zip(blocks.texts, blocks.features))
    assert by_text["Crawler-readable post text."][col["in_noscript"]] == 1
    assert by_text["Hidden menu"][col["hidden"]] == 1
    assert by_text["Visible."][col["hidden"]] == 0


def test_paper_and_rule_signals_are_filled():
    html = (ROOT / "examples" / "article.html").read_text(encoding="utf-8")
    blocks = features.compute(Page(html))
    col = features.FEATURE_INDEX
    assert blocks.features.shape == (len(blocks), len(features.FEATURE_NAMES))
    assert (blocks.features[:, col["rules_main"]] == 1).any()
    assert (blocks.features[:, col["ld_ltd"]] >= 0).all()
    assert (blocks.features[:, col["farsw_score"]] != -1).any()
    # no site model given: the clustering signal is absent, not guessed
    assert (blocks.features[:, col["cl_recurrence"]] == -1).all()


def test_groups_left_out_are_minus_one_and_the_rest_unchanged():
    html = (ROOT / "examples" / "article.html").read_text(encoding="utf-8")
    full = features.compute(Page(html))
    lean = features.compute(Page(html), without=("farsw", "rules"))
    left_out = [features.FEATURE_INDEX[n] for g in ("farsw", "rules")
                for n in features.PAPER_GROUPS[g]]
    kept = [i for i in range(len(features.FEATURE_NAMES)) if i not in left_out]
    assert (lean.features[:, left_out] == -1).all()
    assert (full.features[:, left_out] != -1).any()
    assert np.array_equal(lean.features[:, kept], full.features[:, kept])
    with pytest.raises(ValueError, match="unknown signal groups: papers"):
        features.compute(Page(html), without=("papers",))


def test_a_model_without_the_papers_signals_gets_them_left_out_and_the_rest_unchanged():
    # the crawl models read no linkblocks, linkdensity or farsw column: the walk does not
    # count linkdensity's measures for them, and nothing else moves
    html = (ROOT / "examples" / "article.html").read_text(encoding="utf-8")
    papers = ("farsw", "linkblocks", "linkdensity")
    full = features.compute(Page(html))
    lean = features.compute(Page(html), without=papers)
    left_out = [features.FEATURE_INDEX[n] for g in papers for n in features.PAPER_GROUPS[g]]
    kept = [i for i in range(len(features.FEATURE_NAMES)) if i not in left_out]
    assert (lean.features[:, left_out] == -1).all()
    assert (full.features[:, left_out] != -1).any()
    assert np.array_equal(lean.features[:, kept], full.features[:, kept])
    assert features.walk(Page(html)).link_density_rows is not None
    assert features.walk(Page(html), link_density=False).link_density_rows is None


@pytest.mark.skipif(not HAS_LIGHTGBM, reason="lightgbm not installed (the 'train' extra)")
def test_a_model_trained_without_groups_runs_without_them(tmp_path: Path, monkeypatch):
    from blocksift import auto_training

    records = [{"id": str(n), "html": _site_page(n)[0], "gold": _site_page(n)[1],
                "url": f"https://mill.example/report/{n}"} for n in range(6)]
    samples = [auto_training.make_sample(r, "made-up") for r in records]
    ensembles, meta = auto_training.train_model(samples, seed=3, rounds=15,
                                                without=("farsw", "rules"))
    path = trees.save(tmp_path / "fast.npz", ensembles, meta)
    model = auto.load_model(path)
    assert model.without == ("farsw", "rules")
    split_on = {tree.feature_names[f] for tree in (model.blocks, model.stacked)
                if tree is not None for f in tree.feature[tree.feature >= 0]}
    assert not split_on & {"farsw_score", "farsw_window", "rules_main", "rules_container"}
    lean = auto.extract(Page(records[0]["html"]), auto.Params(), model)
    assert lean.main is not None and lean.main.text
    # computed or not, the left-out signals decide nothing: the same probabilities
    monkeypatch.setattr(model, "without", ())
    full = auto.extract(Page(records[0]["html"]), auto.Params(), model)
    assert np.array_equal(full.extra["block_probabilities"], lean.extra["block_probabilities"])


@pytest.mark.skipif(not HAS_LIGHTGBM, reason="lightgbm not installed (the 'train' extra)")
def test_training_reports_every_boosting_round_and_the_model_is_the_same(tmp_path: Path):
    """`blocksift train auto` draws a bar over the trees' rounds: the first model, its
    out-of-fold copies and the stacked one; reporting changes nothing in the model."""
    from blocksift import auto_training

    records = [{"id": str(n), "html": _site_page(n)[0], "gold": _site_page(n)[1],
                "url": f"https://site{n}.example/report/{n}"} for n in range(6)]
    samples = [auto_training.make_sample(r, "made-up") for r in records]
    calls: list[tuple[int, int]] = []
    reported, _meta = auto_training.train_model(samples, seed=3, rounds=7, stack_folds=2,
                                                progress=lambda *call: calls.append(call))
    assert calls == [(n, 7 * 4) for n in range(1, 7 * 4 + 1)]
    silent, _meta = auto_training.train_model(samples, seed=3, rounds=7, stack_folds=2)
    for name in ("blocks", "stacked"):
        a = trees.save(tmp_path / f"{name}-a.npz", {"blocks": reported[name]}, {})
        b = trees.save(tmp_path / f"{name}-b.npz", {"blocks": silent[name]}, {})
        assert a.read_bytes() == b.read_bytes()
    calls.clear()
    auto_training.train_model(samples, seed=3, rounds=5, stack_folds=0,
                              progress=lambda *call: calls.append(call))
    assert calls[-1] == (5, 5) and len(calls) == 5


_LINK_DENSITY_PAGES = [
    # links with and without href, a form and noscript (linkdensity removes them, the walk
    # keeps them), a marquee, comments, scripts, tails after removed and text-less elements
    "<html><head><title>T</title></head><body><div id=a>Intro <a href='/x'>linked</a> and "
    "<a name=n>anchor</a> words<form><p>Search <a href='/s'>go</a></p></form> after form"
    "<!-- c --> tail<noscript><p>Enable <a href='/js'>scripts</a></p></noscript> more"
    "<marquee>News <a href='/n'>now</a></marquee> end<span></span><script>var x</script>"
    " last</div><ul><li><a href='/1'>One</a></li><li><a href='/2'><img src=i></a></li>"
    "<li>Plain <b>bold <a href='/3'>deep</a></b></li></ul><p>  </p><p>Closing text.</p>"
    "</body></html>",
    (ROOT / "examples" / "article.html").read_text(encoding="utf-8"),
]


@pytest.mark.parametrize("html", _LINK_DENSITY_PAGES, ids=["tricky", "example-article"])
def test_the_walk_counts_linkdensity_measures_as_node_stats_does(html):
    from blocksift.algorithms import linkdensity

    page = Page(html)
    walked = features.walk(page)
    body = page.tree.find("body")
    reference = linkdensity.node_stats(body, linkdensity.Params())
    assert walked.link_density  # every block and block parent in linkdensity's view
    for el in walked.blocks:
        for node in (el, el.getparent()):
            if node in reference:
                ns = reference[node]
                assert walked.link_density[node] == (ns.text, ns.link_text, ns.links, ns.nodes)
            else:
                assert node not in walked.link_density
    # the feature columns are the same whichever counted them
    computed = features.compute(page, rules=False)
    blocks = computed.elements
    by_node_stats = features.paper_signals(page, blocks)
    assert np.array_equal(features.paper_signals(page, blocks, walked.link_density),
                          by_node_stats)
    first = features.FEATURE_INDEX["lb_member"]
    assert np.array_equal(computed.features[:, first:first + by_node_stats.shape[1]],
                          by_node_stats)


def test_the_walk_leaves_linkdensity_to_node_stats_when_it_cannot_tell():
    page = Page("<html><body><p>Text <a href='/x'>here</a>.</p></body></html>")
    body = page.tree.find("body")
    body.insert(0, page.tree.makeelement("head"))  # a head linkdensity's view would keep
    assert features.walk(page).link_density is None


@pytest.mark.parametrize("path", [ROOT / "examples" / "article.html",
                                  ROOT / "tests" / "golden" / "forum-div-br" / "source.html"])
def test_rows_below_an_element_are_the_blocks_in_its_subtree(path: Path):
    blocks = features.compute(Page(path.read_text("utf-8")))
    row_of = {el: r for r, el in enumerate(blocks.elements)}
    walked = blocks.row_ranges[0]
    assert len(walked) > len(blocks)  # blocks without text are asked about too
    for el in walked:
        expected = [row_of[d] for d in el.iter() if d in row_of]
        assert list(blocks.rows_below(el)) == expected
    inline = next(el for el in blocks.elements[0].getroottree().iter("a", "span"))
    assert blocks.rows_below(inline) is None  # not taken for a block: the caller looks
    assert features.Blocks(blocks.elements, blocks.texts).rows_below(walked[0]) is None


def test_container_columns_equal_their_tree_definitions():
    from lxml import etree

    from blocksift.content import BLOCK_TAGS

    page = Page("<html><body><div class='a b'><ul><li><p>One.</p></li><li class=x>Two"
                "<script>var x</script></li><li>Three<p>Four.</p><p>Five.</p></li></ul>"
                "<div><section><h2>Title</h2><div><span><b>deep</b> text</span></div>"
                "</section></div><template><p>t</p></template><p>Six.</p><p class=q>Seven."
                "</p></div><div class='a b'>Eight<noscript><p>Nine.</p></noscript></div>"
                "</body></html>")
    page.tree.find("body/div/ul").insert(1, etree.Comment("a comment is no child"))
    page.tree.find("body/div/ul/li").append(etree.ProcessingInstruction("pi", "x"))
    blocks = features.compute(page, papers=False, rules=False)
    col = features.FEATURE_INDEX
    body = page.tree.find("body")

    def walked(el):  # the element and its descendants the walk visits
        yield el
        for child in el:
            if isinstance(child.tag, str) and child.tag not in features.SKIP_TAGS:
                yield from walked(child)

    def depth(el):
        return len(list(el.iterancestors())) - len(list(body.iterancestors()))

    for row, el in zip(blocks.features, blocks.elements):
        up = el
        for k in (1, 2, 3):
            up = None if up is None or up is body else up.getparent()
            name = f"up{k}_"
            if up is None:
                assert row[col[name + "tag"]] == -1
                continue
            children = [c.tag for c in up if isinstance(c.tag, str)]
            inside = list(walked(up))
            assert row[col[name + "tag"]] == features.TAG_CODES.get(up.tag, 0)
            assert row[col[name + "children"]] == len(children)
            assert row[col[name + "p_children"]] == children.count("p")
            assert row[col[name + "li_children"]] == children.count("li")
            assert row[col[name + "depth_below"]] == max(map(depth, inside)) - depth(up)
            assert row[col[name + "blocks"]] == pytest.approx(np.log1p(sum(
                e.tag in BLOCK_TAGS or e is body for e in inside)))
            assert row[col[name + "heading_blocks"]] == sum(
                e.tag in ("h1", "h2", "h3", "h4", "h5", "h6") for e in inside)
            parent = up.getparent()
            assert row[col[name + "same_sig"]] == (0 if parent is None else sum(
                features._sig(c) == features._sig(up) for c in parent
                if isinstance(c.tag, str)))


@pytest.mark.parametrize("ld_text", ['{"@type": "NewsArticle"}', '{"@type": "PRODUCT"}',
                                     '{"@type": "Que\u017ftion"}',
                                     '{"@type": "Thing"}'])
def test_page_features_equal_their_xpath_definitions(ld_text):
    import re

    html = (f"<html><head><script type='application/ld+json'>{ld_text}</script>"
            "<meta property='og:type' content='Article'><meta property='og:type'>"
            "<meta name='og:type' content='product'></head><body><article><p>Story text."
            "</p><form><table><tr><td>cell</td></tr></table></form></article>"
            "<template><table><tr><td>x</td></tr></table><article></article></template>"
            "<noscript><form></form></noscript><script type='application/ld+json'>"
            '{"@type": "FAQPage"}</script><p>More text.</p></body></html>')
    page = Page(html)
    tree = page.tree
    got = dict(zip(features.PAGE_FEATURE_NAMES,
                   features.compute(page, papers=False, rules=False).page_features))
    for name, tag in (("page_article_tags", "article"), ("page_forms", "form"),
                      ("page_tables", "table")):
        assert got[name] == len(tree.xpath(f"//{tag}")), name
    og = " ".join(tree.xpath('//meta[@property="og:type"]/@content')).lower()
    assert got["og_article"] == ("article" in og) and got["og_product"] == ("product" in og)
    ld = " ".join(tree.xpath('//script[@type="application/ld+json"]/text()'))
    for name, pattern in features._LD_TYPES.items():
        assert got[name] == bool(re.search(pattern, ld)), name


@pytest.mark.parametrize("part_chars", [features.TEXT_MEASURE_PART_CHARS, 64, 1])
def test_text_measures_equal_the_plain_definitions(part_chars, monkeypatch):
    """Measured at once or in parts of a few characters (as a huge page is): the same."""
    import random

    monkeypatch.setattr(features, "TEXT_MEASURE_PART_CHARS", part_chars)

    rng = random.Random(5)
    ascii_text = "".join(map(chr, range(1, 128)))
    alphabet = (ascii_text + "\u00c9\u00e9\u0661\u00b2\u3002\uff0c\uff01\u4e2d\u0130\u01c5"
                "\u00a0\u2028\u3000\U0001f600")
    texts = [ascii_text, "Plain ASCII, with 2 digits. OK?", "\u0661\u0662 Arabic digits",
             "\u00b2 superscript", "\u3002\uff0c CJK marks", "End.\n", "a.\x1cb! c?\u3000d\u3002",
             "Two. Three.  Four..", "x_y z9 _", ""]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40)))
              for _ in range(300)]
    # all at once, in batches of mixed sizes, and one by one: the same counts
    batches = [texts, texts[:7], [t for t in texts if t.isascii()], [""], []]
    batches += [[t] for t in texts]
    for batch in batches:
        measured = features._text_measures(batch)
        assert measured.shape == (len(batch), len(features.TEXT_MEASURES))
        for text, row in zip(batch, measured.tolist()):
            words = features.WORD_RE.findall(text)
            assert row == [
                len(text), len(words), sum(map(len, words)), text.count(","),
                len(features._SENTENCE_END.findall(text)), len(features._PUNCT.findall(text)),
                sum(map(str.isdigit, text)), sum(map(str.isupper, text))], text


# -- labels --------------------------------------------------------------------------------

def test_labels_follow_the_gold_order_not_its_bag_of_words():
    menu = "Home news sport weather the story of the river"
    body = "The story of the river begins in the hills above the town"
    gold = body
    share = labels.aligned_share([menu, body], gold)
    # every menu word but "home news sport weather" occurs in the gold; in order they don't
    assert share[1] == 1.0
    assert share[0] < 0.5


def test_a_page_of_one_sentence_repeated_is_aligned_without_comparing_every_pair():
    # a labeled example of a page repeating one sentence 5,000 times took a minute to save:
    # difflib's exact alignment compares each page word with each of its places in the gold
    repeated = "Text of the article. " * 5000
    page_words = labels.words(repeated + " Menu Home About")
    assert not labels.exact_fits(page_words, labels.words(repeated))
    share = labels.aligned_share([repeated, "Menu Home About"], repeated)
    assert share.tolist() == [1.0, 0.0]
    # an ordinary article stays exact: its labels are those the model was trained on
    article = " ".join(f"Paragraph {n} tells the story of the river in its own words."
                       for n in range(400))
    assert labels.exact_fits(labels.words(article), labels.words(article))


# -- tree runtime --------------------------------------------------------------------------

@pytest.mark.skipif(not HAS_LIGHTGBM, reason="lightgbm not installed (the 'train' extra)")
def test_numpy_trees_equal_lightgbm_predictions(tmp_path: Path):
    import lightgbm as lgb

    rng = np.random.default_rng(0)
    x = rng.normal(size=(600, 6))
    x[rng.random(x.shape) < 0.05] = np.nan
    y = ((x[:, 0] > 0.2) ^ (np.nan_to_num(x[:, 3]) < -0.5)).astype(float)
    booster = lgb.train({"objective": "binary", "num_leaves": 15, "verbose": -1, "seed": 1,
                         "min_data_in_leaf": 5}, lgb.Dataset(x, label=y), 40)
    ensemble = trees.TreeEnsemble.from_lightgbm_dump(booster.dump_model(),
                                                     [f"f{i}" for i in range(6)])
    expected = booster.predict(x)
    assert np.allclose(ensemble.predict(x), expected, atol=1e-9)
    # Saabas: roots' values plus contributions give the raw score
    raw = booster.predict(x, raw_score=True)
    base = ensemble.value[ensemble.roots].sum()
    assert np.allclose(base + ensemble.contributions(x).sum(axis=1), raw, atol=1e-9)
    path = trees.save(tmp_path / "m.npz", {"blocks": ensemble}, {"threshold": 0.4})
    loaded, meta = trees.load(path)
    assert meta["threshold"] == 0.4
    assert np.allclose(loaded["blocks"].predict(x), expected, atol=1e-9)


def test_a_model_file_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    import errno
    import os
    from importlib import resources

    with resources.as_file(resources.files("blocksift") / "data" /
                           auto.BUNDLED_MODELS["fast"]) as packaged:
        ensembles, _meta = trees.load(packaged)
    path = trees.save(tmp_path / "model.npz", ensembles, {"round": 1})
    assert (path.stat().st_mode & 0o777) == 0o644
    path.chmod(0o640)
    trees.save(path, ensembles, {"round": 2})
    assert trees.load(path)[1] == {"round": 2} and (path.stat().st_mode & 0o777) == 0o640

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)  # the write fails as a full disk fails it
    with pytest.raises(OSError):
        trees.save(path, ensembles, {"round": 3})
    assert trees.load(path)[1] == {"round": 2}  # the earlier model, whole
    assert [p.name for p in tmp_path.iterdir()] == ["model.npz"]  # no temporary left


@pytest.mark.skipif(not HAS_LIGHTGBM, reason="lightgbm not installed (the 'train' extra)")
def test_multiclass_trees_equal_lightgbm():
    import lightgbm as lgb

    rng = np.random.default_rng(1)
    x = rng.normal(size=(300, 4))
    y = (x[:, 0] > 0).astype(int) + (x[:, 1] > 0.5).astype(int)
    booster = lgb.train({"objective": "multiclass", "num_class": 3, "verbose": -1,
                         "num_leaves": 7, "min_data_in_leaf": 5}, lgb.Dataset(x, label=y), 20)
    ensemble = trees.TreeEnsemble.from_lightgbm_dump(booster.dump_model(), list("abcd"))
    assert np.allclose(ensemble.predict(x), booster.predict(x), atol=1e-9)


def test_a_damaged_model_file_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(trees.ModelError):
        trees.load(bad)


# -- the shipped model ---------------------------------------------------------------------

def test_shipped_model_loads_and_is_small():
    path = ROOT / "host" / "blocksift" / "data" / auto.DEFAULT_MODEL_RESOURCE
    assert path.stat().st_size <= 5_000_000
    model = auto.load_model()
    assert model.feature_names[:len(features.FEATURE_NAMES)] == list(features.FEATURE_NAMES)
    assert 0 < model.threshold < 1
    assert model.page_type is not None


@pytest.mark.parametrize(("name", "without"), [
    ("fast", ("farsw", "rules")),
    ("lite", ("farsw", "linkblocks", "linkdensity", "rules")),
])
def test_the_shipped_crawl_models_do_without_their_signal_groups(name, without):
    path = ROOT / "host" / "blocksift" / "data" / auto.BUNDLED_MODELS[name]
    assert path.stat().st_size <= 5_000_000
    model = auto.load_model(name)
    assert model.without == without and model.stacked is not None
    left_out = {n for g in model.without for n in features.PAPER_GROUPS[g]}
    split_on = {tree.feature_names[f] for tree in (model.blocks, model.stacked)
                for f in tree.feature[tree.feature >= 0]}
    assert split_on and not split_on & left_out
    result = auto.extract(Page(_article()), auto.Params(), model)
    assert "Why Lighthouses Went Dark" in result.main.text


def test_only_a_model_without_the_raw_html_signals_takes_a_page_without_spans():
    text_only = auto.Params(with_html=False)
    assert auto.text_without_spans(text_only, auto.load_model("lite"))
    assert not auto.text_without_spans(auto.Params(), auto.load_model("lite"))  # reader HTML
    for model in (None, auto.load_model(), auto.load_model("fast")):  # link blocks, FAR-SW
        assert not auto.text_without_spans(text_only, model)
    page = Page(_article(), spans=False)
    result = auto.extract(page, text_only, auto.load_model("lite"))
    spanned = auto.extract(Page(_article()), text_only, auto.load_model("lite"))
    assert not page.spans and result.blocks == [] and spanned.blocks
    assert (result.main.title, result.main.text) == (spanned.main.title, spanned.main.text)


# -- extraction ----------------------------------------------------------------------------

def _article() -> str:
    return (ROOT / "examples" / "article.html").read_text(encoding="utf-8")


def test_the_title_reads_a_headline_s_boxes_and_line_breaks_as_spaces():
    # the Guardian's kicker is a box of its own inside the headline: read glued, the title
    # was "AIAI chatbots point…"; a line break in a headline, likewise
    for headline, shown in (
            ("<div class='kicker'>Coast</div><span>Why Lighthouses Went Dark</span>",
             "Coast Why Lighthouses Went Dark"),
            ("Why Lighthouses<br>Went Dark", "Why Lighthouses Went Dark")):
        html = _article().replace("<h1>Why Lighthouses Went Dark</h1>", f"<h1>{headline}</h1>")
        assert auto.extract(Page(html), auto.Params()).main.title == shown


def test_data_tables_come_out_whole():
    # the README's example: its data table (caption and three rows) must survive
    result = auto.extract(Page(_article()), auto.Params())
    text = result.main.text
    for row in ("Lights reviewed in 2015", "Status | Count", "Kept | 41", "Heritage | 12",
                "Discontinued | 19"):
        assert row in text.split("\n\n"), f"{row!r} missing from the table"
    assert "<caption>Lights reviewed in 2015</caption>" in result.main.html


@pytest.mark.parametrize("prob, weights, floor, cap, expected", [
    # four blocks of one size: taking two gives expected F1 2·1.5/(2+1.9) = 0.769, the best
    ([0.9, 0.6, 0.3, 0.1], [100] * 4, 0.0, 1.0, 0.6),
    ([0.9, 0.6, 0.3, 0.1], [100] * 4, 0.2, 0.5, 0.5),  # kept within the cap
    # a page the model doubts: three blocks (0.475) beat two (0.467), below a fixed 0.35
    ([0.4, 0.3, 0.25, 0.05], [100] * 4, 0.2, 0.5, 0.25),
    ([0.4, 0.3, 0.25, 0.05], [100] * 4, 0.3, 0.5, 0.3),  # kept above the floor
    # a long block at 0.3 outweighs a short one at 0.9: both are taken
    ([0.9, 0.3], [10, 1000], 0.0, 1.0, 0.3),
    ([], [], 0.2, 0.5, 0.5),  # nothing to weigh: the cap
    ([0.0, 0.0], [50, 50], 0.2, 0.5, 0.5),
])
def test_the_expected_f1_threshold_of_worked_pages(prob, weights, floor, cap, expected):
    found = auto.expected_f1_threshold(np.array(prob, dtype=float),
                                       np.array(weights, dtype=float), floor, cap)
    assert found == pytest.approx(expected)


def test_a_fixed_threshold_or_the_rule_turned_off_gives_every_page_one_threshold():
    page = _article()
    default = auto.extract(Page(page), auto.Params())
    model_threshold = auto.load_model().threshold
    assert 0.2 <= default.stats["threshold"] <= model_threshold  # capped by the model's
    assert auto.extract(Page(page), auto.Params(threshold=0.3)).stats["threshold"] == 0.3
    model_own = auto.extract(Page(page), auto.Params(expected_f1=False)).stats["threshold"]
    assert model_own == pytest.approx(model_threshold)
    with pytest.raises(ValueError, match="floor"):
        auto.Params(expected_f1_floor=0.6, expected_f1_cap=0.4)


def test_a_page_the_model_doubts_gets_a_lower_threshold_and_loses_nothing_by_it():
    # a shop's list of plain lines the model is unsure of: its one threshold takes few
    lines = "".join(f"<div><span>Model {n}</span> <span>brass lamp with a cloth cable and a "
                    f"dimmer switch</span></div>" for n in range(12))
    page = ("<html><body><header><nav><a href='/'>Shop</a> <a href='/c'>Cart</a> "
            "<a href='/h'>Help</a></nav></header><main><h1>Desk lamps</h1>" + lines +
            "</main><footer><p>© Shop 2025</p><a href='/t'>Terms</a></footer></body></html>")
    fixed = auto.extract(Page(page), auto.Params(expected_f1=False))
    own = auto.extract(Page(page), auto.Params())
    assert own.stats["threshold"] < fixed.stats["threshold"]
    fixed_main = {x for b in fixed.blocks if b.kind == "main" for x in b.xpaths}
    own_main = {x for b in own.blocks if b.kind == "main" for x in b.xpaths}
    assert fixed_main < own_main  # more of the list, and nothing the fixed one kept lost
    assert "Shop" not in own.main.text and "Terms" not in own.main.text


def _labels(html: str, main: set[str]) -> tuple[features.Blocks, np.ndarray]:
    blocks = features.compute(Page(html), papers=False, rules=False)
    return blocks, np.array([text in main for text in blocks.texts])


_PARAS = ["The first paragraph of the article, long enough to read as prose.",
          "The second paragraph of the article goes on with the same story."]


def test_a_figure_beside_main_paragraphs_joins_them_and_one_alone_does_not():
    html = (f"<body><article><p>{_PARAS[0]}</p><figure><img src='a.png' alt='A'>"
            f"<figcaption>The lake.</figcaption></figure><p>{_PARAS[1]}</p></article>"
            "<aside><figure><img src='b.png'><figcaption>An advert.</figcaption></figure>"
            "<p>Sponsored words here.</p></aside></body>")
    blocks, is_main = _labels(html, set(_PARAS))
    auto._figures_beside_main(blocks, is_main)
    chosen = {t for t, m in zip(blocks.texts, is_main) if m}
    assert chosen == set(_PARAS) | {"The lake."}


def test_a_formula_owned_by_the_article_goes_with_its_paragraphs():
    html = (f"<body><nav><a href='/'>Home</a></nav><article><p>{_PARAS[0]}</p>"
            "<math display='block'><mi>h</mi><mo>=</mo><mn>2</mn></math>"
            f"<p>{_PARAS[1]}</p></article></body>")
    blocks, is_main = _labels(html, set(_PARAS))
    assert "h=2" in blocks.texts
    auto._formulas_with_main(blocks, is_main)
    assert is_main[blocks.texts.index("h=2")] and not is_main[blocks.texts.index("Home")]
    # loose text that is not a formula stays as the model labeled it
    blocks, is_main = _labels(html.replace("<math display='block'><mi>h</mi><mo>=</mo>"
                                           "<mn>2</mn></math>", "Share this"), set(_PARAS))
    auto._formulas_with_main(blocks, is_main)
    assert not is_main[blocks.texts.index("Share this")]


def test_the_trailing_paragraphs_of_an_article_stay_but_not_links_or_comments():
    tail = ["More of the story.", "The end of the article."]
    html = (f"<body><article><p>{_PARAS[0]}</p><p>{_PARAS[1]}</p><p>{tail[0]}</p>"
            f"<p><a href='/next'>Next story</a></p><p class='comment'>Nice post!</p>"
            f"<p>{tail[1]}</p></article><div><p>Footer words of the site.</p></div></body>")
    blocks, is_main = _labels(html, set(_PARAS))
    auto._trailing_paragraphs(blocks, is_main)
    chosen = {t for t, m in zip(blocks.texts, is_main) if m}
    assert chosen == set(_PARAS) | set(tail)


def test_wordless_lines_within_a_main_listing_are_main_but_not_links_or_outside_it():
    lines = ['"address": {', '"city": null', '},', '"email": null', '}']
    html = ("<body><nav><a href='/'>Home</a><div>|</div><a href='/b'>Blog</a></nav>"
            "<div class='listing'>" + "".join(f"<div>{t}</div>" for t in lines) +
            "</div><footer><p>Footer words here.</p><div>* * *</div>"
            "<div><a href='/top'>&#8593;</a></div><div class='button-icon'>&#8594;</div>"
            "<p>Last words.</p></footer></body>")
    worded = {'"address": {', '"city": null', '"email": null'}
    blocks, is_main = _labels(html, worded)
    auto._wordless_within_main(blocks, is_main)
    chosen = [t for t, m in zip(blocks.texts, is_main) if m]
    # between main lines, and closing the listing's container
    assert chosen == lines
    # nothing changes between blocks that are not main, nor a wordless link
    blocks, is_main = _labels(html, worded | {"Footer words here.", "Last words."})
    auto._wordless_within_main(blocks, is_main)
    assert is_main[blocks.texts.index("* * *")]
    assert not is_main[blocks.texts.index("|")]
    assert not is_main[[t.strip() for t in blocks.texts].index("\u2191")]
    assert not is_main[blocks.texts.index("\u2192")]  # an icon's glyph, not the text's


def _one_line_per_element_listing() -> str:
    """A documentation page with a response body shown one <div> a line, as code viewers
    on documentation sites do."""
    keys = ["identifier", "object_kind", "amount_total", "currency_code", "description_text",
            "billing_details", "address_line", "postal_code", "customer_email"]
    body = "".join(f"<div>  \"{k}\": \"{k.replace('_', ' ')} value\",</div>" +
                   ("<div>  },</div><div>  {</div>" if i % 3 == 2 else "")
                   for i, k in enumerate(keys))
    prose = " ".join(["The charge object describes one payment attempt, and this page "
                      "explains each of its fields in the order the response gives them."] * 3)
    html = (f"<html><body><nav><a href='/a'>API</a> <a href='/b'>Guides</a></nav><main>"
            f"<h1>The charge object</h1><p>{prose}</p><div class='code'>{{{body}}}</div>"
            f"<p>{prose}</p></main></body></html>")
    return html


def test_a_listing_of_one_line_per_element_keeps_its_punctuation_lines():
    result = auto.extract(Page(_one_line_per_element_listing()), auto.Params())
    main_lines = [line.strip() for line in result.main.text.split("\n")]
    assert '"identifier": "identifier value",' in main_lines
    assert main_lines.count("},") == 3


def test_blocks_the_rules_after_the_trees_make_main_say_which_rule():
    page = Page(_one_line_per_element_listing())
    blocks, _prob, kinds, *_rest, promoted = auto._segment(
        page, auto.load_model(), None, False, None, auto.Params().repeat_min_words)
    closing = [i for i, text in enumerate(blocks.texts) if text.strip() == "},"]
    assert len(closing) == 3 and all(kinds[i] == "main" for i in closing)
    wordless = dict(auto._MAIN_RULES)[auto._wordless_within_main]
    assert all(promoted.get(i) == wordless for i in closing)
    # only blocks a rule changed: none the trees already called main, none left not main
    assert all(kinds[i] == "main" for i in promoted)
    assert not any(blocks.texts[i].startswith('  "identifier"') for i in promoted)


def test_a_block_a_rule_made_main_gives_the_rule_as_its_first_reason():
    story = ("of the story tells, at some length and with commas, what happened next in the "
             "town, and why it mattered to the people who live there.")
    related = "".join(f"<li><a href='/{i}'>Another story of the town, part {i}</a></li>"
                      for i in range(3))
    html = ("<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article>"
            "<h1>The story</h1>" + "".join(f"<p>Paragraph {i} {story}</p>" for i in range(6)) +
            f"<hr><div>* * *</div><ul class='related'>{related}</ul></article></body></html>")
    result = auto.extract(Page(html), auto.Params())
    wordless = dict(auto._MAIN_RULES)[auto._wordless_within_main]
    closing = [b for b in result.blocks if b.reasons and b.reasons[0] == wordless]
    # the separator closing the article is main, though the trees doubt it (their own
    # reasons follow the rule's), and only it is explained by the rule
    assert len(closing) == 1 and closing[0].kind == "main"
    assert closing[0].score < 0.35 and len(closing[0].reasons) > 1
    assert "* * *" in result.main.text
    # no reasons asked (the reader's and hide's requests), none given
    quiet = auto.extract(Page(html), auto.Params(reasons=0))
    assert quiet.main.text == result.main.text and not any(b.reasons for b in quiet.blocks)


def _trailing_reference(blocks, is_main):
    # the rule block by block, as first written: groups of one parent element, in order
    col = features.FEATURE_INDEX
    lengths = [len(t) for t in blocks.texts]
    children = {}
    for i, el in enumerate(blocks.elements):
        if el.getparent() is not None:
            children.setdefault(el.getparent(), []).append(i)
    for members in children.values():
        main_chars = sum(lengths[i] for i in members if is_main[i])
        if not main_chars or main_chars * 2 < sum(lengths[i] for i in members):
            continue
        seen_main = False
        for i in members:
            if is_main[i]:
                seen_main = True
                continue
            row = blocks.features[i]
            if seen_main and blocks.elements[i].tag == "p" and row[col["own_link_share"]] == 0 \
                    and row[col["hint_comment_near"]] == 0 and row[col["hint_comment_any"]] == 0 \
                    and row[col["hint_ad_near"]] == 0:
                is_main[i] = True


def test_trailing_paragraphs_of_any_labeling_equal_the_rule_block_by_block():
    import random

    rng = random.Random(9)
    parts = [f"<p>{_PARAS[0]}</p>", "<p>Short.</p>", "<p><a href='/x'>A link</a></p>",
             "<p class='comment'>A remark.</p>", "<li>An item of a list.</li>",
             f"<p>{_PARAS[1]}</p>", "<div class='ad'><p>Buy now.</p></div>"]
    for _ in range(40):
        boxes = "".join(f"<section>{''.join(rng.choice(parts) for _ in range(rng.randrange(1, 9)))}"
                        "</section>" for _ in range(rng.randrange(1, 5)))
        page = Page(f"<html><body><article>{boxes}</article><p>Loose words.</p></body></html>")
        blocks = features.compute(page)
        labels = np.asarray([rng.random() < 0.5 for _ in blocks.texts])
        for made in (blocks, features.Blocks(blocks.elements, blocks.texts, blocks.features)):
            expected, got = labels.copy(), labels.copy()
            _trailing_reference(blocks, expected)
            auto._trailing_paragraphs(made, got)
            assert np.array_equal(got, expected)


def test_a_repeated_main_block_is_kept_once_the_visible_copy():
    short = "Read more here now."  # four words: under the limit, every copy stays
    cell = "Fits true to size in width and length"
    html = (f"<body><div class='mobile' hidden><p>{_PARAS[0]}</p></div>"
            f"<article><p>{_PARAS[0]}</p><p>{short}</p><p>{_PARAS[1]}</p><p>{short}</p>"
            f"<p>{_PARAS[1]}</p><table><tr><td>8</td><td>{cell}</td></tr><tr><td>9</td>"
            f"<td>{cell}</td></tr></table><pre>{_PARAS[1]}</pre></article></body>")
    blocks, is_main = _labels(html, {*_PARAS, short, cell})
    dropped = auto.repeated_blocks(blocks, is_main, 5)
    hidden = blocks.features[:, features.FEATURE_INDEX["hidden"]] > 0
    assert [blocks.texts[i] for i in dropped] == [_PARAS[0], _PARAS[1]]
    assert hidden[dropped[0]]  # of the two copies of the first paragraph, the hidden one
    assert not hidden[dropped[1]] and dropped[1] > blocks.texts.index(_PARAS[1])
    assert auto.repeated_blocks(blocks, is_main, 0) == []


def test_repeated_blocks_equal_the_plain_definition_over_many_blocks():
    # texts collapsed in parts of several hundred at once: the result is that of
    # " ".join(text.split()).casefold() block by block, across part boundaries too
    import random

    rng = random.Random(7)
    words = ["Alpha", "beta", "GAMMA", "stra\u00dfe", "STRASSE", "\u0130stanbul", "delta"]
    spaces = [" ", "  ", "\n", "\t", "\u00a0", " \u2003 "]
    n = 1500
    texts = []
    for _ in range(n):
        count = rng.randrange(1, 8)
        texts.append(rng.choice(["", " "]) + "".join(
            rng.choice(words) + rng.choice(spaces) for _ in range(count)).rstrip(" "))
    col = features.FEATURE_INDEX
    matrix = np.zeros((n, len(features.FEATURE_NAMES)))
    matrix[:, col["hidden"]] = rng.choices([0, 1], k=n)
    matrix[:, col["in_table"]] = rng.choices([0, 0, 0, 1], k=n)
    is_main = np.asarray(rng.choices([True, True, False], k=n))

    groups = {}
    for i in range(n):
        if is_main[i] and not matrix[i, col["in_table"]] and not matrix[i, col["in_pre"]]:
            key = " ".join(texts[i].split()).casefold()
            if key.count(" ") + 1 >= 3:
                groups.setdefault(key, []).append(i)
    expected = []
    for members in groups.values():
        visible = [i for i in members if matrix[i, col["hidden"]] <= 0]
        kept = (visible or members)[0]
        expected += [i for i in members if i != kept]
    assert auto.repeated_blocks(features.Blocks(texts=texts, features=matrix), is_main, 3) == sorted(expected)
    assert len(expected) > 20  # the random texts do repeat


def test_the_reader_shows_a_repeated_paragraph_once_and_says_why_in_the_overlay():
    html = (f"<html><body><main><h1>Wool Runner</h1><div class='desktop'><p>{_PARAS[0]}</p>"
            f"<p>{_PARAS[1]}</p></div><div class='mobile' hidden><p>{_PARAS[0]}</p></div>"
            "</main></body></html>")
    result = auto.extract(Page(html), auto.Params())
    assert result.main.text.count(_PARAS[0]) == 1 and _PARAS[1] in result.main.text
    repeats = [b for b in result.blocks if b.reasons and "repeats" in b.reasons[0]]
    assert [b.kind for b in repeats] == ["other"]
    kept_all = auto.extract(Page(html), auto.Params(repeat_min_words=0))
    assert kept_all.main.text.count(_PARAS[0]) == 2


def test_textless_pictures_beside_a_main_region_join_it_but_not_past_other_text():
    html = ("<body><div><img src='far.png'><p>Share</p><img src='lead.png'>"
            f"<p>{_PARAS[0]}</p><img src='a.png'><noscript><img src='b.png'></noscript>"
            f"<p>{_PARAS[1]}</p><picture><img src='c.png'></picture></div></body>")
    page = Page(html)
    blocks = features.compute(page, papers=False, rules=False)
    main = [el for el, t in zip(blocks.elements, blocks.texts) if t in _PARAS]
    beside = auto._media_beside(main, auto._holds_blocks(blocks))
    sources = sorted(img.get("src") for el in beside for img in el.iter("img"))
    # far.png stands beyond the text "Share", which is not main
    assert sources == ["a.png", "b.png", "c.png", "lead.png"]


def test_a_picture_holding_text_of_the_block_around_it_is_not_textless():
    # a product card's picture link with a badge: the badge is the card's text (labelled
    # otherwise), so the link does not join the main paragraph beside it; a formula does
    html = ("<body><div><a href='/desk'><img src='desk.png'><span>+5 Free Accessories</span>"
            f"</a><p>{_PARAS[0]}</p><math><mi>x</mi><mo>=</mo><mn>1</mn></math>"
            "<a href='/p'><img src='plain.png'></a></div></body>")
    page = Page(html)
    blocks = features.compute(page, papers=False, rules=False)
    main = [el for el, t in zip(blocks.elements, blocks.texts) if t in _PARAS]
    beside = auto._media_beside(main, auto._holds_blocks(blocks))
    assert [el.tag for el in beside] == ["math", "a"]
    assert beside[1].find("img").get("src") == "plain.png"


def test_the_reader_keeps_figures_and_drops_notices_with_the_learned_model():
    html = (ROOT / "tests" / "e2e" / "pages" / "reader-structure.html").read_text(encoding="utf-8")
    main = auto.extract(Page(html), auto.Params()).main
    assert "Media playback" not in main.html and "Reuters" not in main.html
    assert main.html.count("<figure>") == 2 and "<math" in main.html
    assert "The harbour at low water" in main.html
    # the text leaves the notice out and reads the formula between its paragraphs
    paragraphs = main.text.split("\n\n")
    assert paragraphs[0] == "Measuring the tide with Python"
    assert "Media playback is unsupported on your device" not in paragraphs
    formula = next(i for i, p in enumerate(paragraphs) if p.startswith("h(t)="))
    assert paragraphs[formula - 1].startswith("The height of the tide follows a sum of cosines")


def test_blocks_carry_kind_confidence_and_reasons():
    result = auto.extract(Page(_article()), auto.Params())
    assert result.status == "ok" and result.stage in ("model", "rules", "site")
    kinds = {b.kind for b in result.blocks}
    assert "main" in kinds and kinds & {"links", "other", "comments", "ad"}
    for block in result.blocks:
        assert block.algorithm == "auto"
        assert 0 <= block.confidence <= 1
        assert block.reasons and all(isinstance(r, str) for r in block.reasons)
    main_starts = [b.start for b in result.blocks if b.kind == "main"]
    assert main_starts == sorted(main_starts)
    assert result.extra["page_type"] in auto.PAGE_TYPES
    assert abs(sum(v for k, v in result.stats.items() if k.startswith("page_type.")) - 1) < 1e-3
    assert "Related stories" not in result.main.text


def test_a_page_without_text_is_empty_not_an_error():
    result = auto.extract(Page("<html><body><div></div></body></html>"), auto.Params())
    assert result.status == "empty"


def test_an_empty_frameset_page_points_to_its_frames():
    page = '<html><frameset><frame src="nav.html"><frame src="story.html"></frameset></html>'
    for module in (auto, auto_rules):
        result = module.extract(Page(page), module.Params())
        assert result.status == "empty"
        assert "frames (nav.html, story.html)" in result.message, module.NAME


def test_rules_extractor_stays_available_by_name():
    result = auto_rules.extract(Page(_article()), auto_rules.Params())
    assert result.algorithm == "auto-rules" and result.main.text


# -- per-site adaptation -------------------------------------------------------------------

def _site_page(n: int) -> tuple[str, str]:
    """A page of a made-up site whose template hides the story in an unusual place."""
    story = [f"Item {n} report paragraph {k} tells what happened on day {n} at the mill."
             for k in range(4)]
    links = "".join(f"<li><a href='/t/{k}'>Topic {k}</a></li>" for k in range(8))
    html = (
        "<html><body><div class='top'><ul>" + links + "</ul></div>"
        "<div class='grid'><div class='cell-x'>"
        + "".join(f"<span class='ln'>{s}</span><br>" for s in story)
        + "</div><div class='cell-y'><div class='promo'>Subscribe today for the full archive "
        "of reports and more, with our weekly letter.</div></div></div>"
        f"<div class='foot'>Mill Times {n} · contact · privacy</div></body></html>")
    return html, " ".join(story)


def test_five_labeled_pages_adapt_the_model_to_their_site(tmp_path: Path):
    url = "https://mill.example/report/{}"
    prior = adapt.learn("mill.example", [(Page(_site_page(n)[0], url=url.format(n)),
                                          _site_page(n)[1]) for n in range(5)])
    assert prior.pages == 5
    adapt.save(prior, tmp_path)
    html, gold = _site_page(9)
    page = Page(html, url=url.format(9))
    loaded = adapt.site_prior_for(page.url, tmp_path)
    assert loaded is not None and loaded.paths == prior.paths
    model = auto.load_model()
    _blocks, _prob, kinds, _types, stage = auto.segment(page, model, site_prior=loaded)
    assert stage == "site"
    blocks = _blocks
    main_text = " ".join(t for t, k in zip(blocks.texts, kinds) if k == "main")
    assert labels.words(main_text) == labels.words(gold)
    # another site is untouched
    assert adapt.site_prior_for("https://other.example/a", tmp_path) is None


@pytest.mark.parametrize("without", [(), ("farsw", "linkblocks", "linkdensity", "rules")])
def test_the_matrix_built_by_groups_of_columns_is_the_one_built_column_by_column(without):
    html = (ROOT / "examples" / "article.html").read_text(encoding="utf-8")
    columns = features.compute(Page(html), without=without)._columns
    assert columns.groups  # some columns are built together
    rows = [0, 3, 1]
    whole, some, every_other = (columns.matrix(), columns.matrix(rows),
                                columns.matrix(slice(1, None, 2)))
    for name in features.FEATURE_NAMES:  # each column as column() builds it alone
        assert np.array_equal(whole[:, features.FEATURE_INDEX[name]],
                              columns.column(name)), name
    columns.groups = []
    assert np.array_equal(whole, columns.matrix())
    assert np.array_equal(some, columns.matrix(rows))
    assert np.array_equal(every_other, columns.matrix(slice(1, None, 2)))


def test_the_site_file_is_looked_for_where_the_environment_says_now(tmp_path: Path,
                                                                    monkeypatch):
    # the folder is worked out once per environment, so a changed BLOCKSIFT_HOME counts
    url = "https://mill.example/{}"
    for home, pages in (("one", 1), ("two", 2)):
        monkeypatch.setenv("BLOCKSIFT_HOME", str(tmp_path / home))
        assert adapt.site_prior_for(url.format(9)) is None
        for n in range(pages):
            adapt.add_example(*_site_page(n), url.format(n))
        assert adapt.site_prior_for(url.format(9)).pages == pages
    monkeypatch.setenv("BLOCKSIFT_HOME", str(tmp_path / "one"))
    assert adapt.site_prior_for(url.format(9)).pages == 1
    assert adapt.site_prior_for("https://mill.example\x00/9") is None


def test_one_blog_of_a_platform_does_not_adapt_another(tmp_path: Path):
    # a site is a host: two blogs of one platform have their own templates
    for n in range(2):
        html, gold = _site_page(n)
        assert adapt.add_example(html, gold, f"https://mill.blog.example/{n}", tmp_path) \
            == tmp_path / "mill.blog.example.json"
    assert adapt.site_prior_for("https://www.mill.blog.example/9", tmp_path).pages == 2
    assert adapt.site_prior_for("https://other.blog.example/9", tmp_path) is None
    assert adapt.site_prior_for("https://blog.example/9", tmp_path) is None
    # one site file (its lock file, beside it, holds nothing)
    assert sorted(f.name for f in tmp_path.glob("*.json")) == ["mill.blog.example.json"]


def test_a_deleted_example_stops_counting_and_the_rest_stays(tmp_path: Path):
    pages = [(*_site_page(n), f"https://mill.example/{n}") for n in range(3)]
    adapt.add_example(*pages[0], tmp_path)
    one = adapt.SitePrior.from_json((tmp_path / "mill.example.json").read_text())
    for page in pages[1:]:
        adapt.add_example(*page, tmp_path)
    assert adapt.site_prior_for("https://mill.example/x", tmp_path).pages == 3
    for page in pages[1:]:
        assert adapt.remove_example(*page, tmp_path) == tmp_path / "mill.example.json"
    left = adapt.site_prior_for("https://mill.example/x", tmp_path)
    assert (left.pages, left.paths, left.texts) == (one.pages, one.paths, one.texts)
    assert adapt.remove_example(*pages[0], tmp_path) is None
    assert not (tmp_path / "mill.example.json").exists()
    assert adapt.site_prior_for("https://mill.example/x", tmp_path) is None
    # a page of a site with no file: nothing to take back, nothing written (the lock file
    # of the site file that went stays: another process may be waiting on it)
    assert adapt.remove_example(*pages[0], tmp_path) is None and not any(tmp_path.glob("*.json"))


def test_the_site_file_counts_which_of_its_pages_are_the_users_examples(tmp_path: Path):
    # a dataset's pages (train auto --per-site) are not the user's; saved examples are, and
    # the count follows them in and out (a replaced label: one out, one in, as many)
    url = "https://mill.example/report/{}"
    pages = [(Page(_site_page(n)[0], url=url.format(n)), _site_page(n)[1]) for n in range(3)]
    prior = adapt.learn("mill.example", pages[:2], examples=pages[2:])
    assert (prior.pages, prior.examples) == (3, 1)
    alike = adapt.learn("mill.example", pages)  # counted alike, only the split differs
    assert (alike.paths, alike.texts, alike.examples) == (prior.paths, prior.texts, 0)
    adapt.save(alike, tmp_path)
    assert json.loads((tmp_path / "mill.example.json").read_text())["examples"] == 0
    adapt.add_example(*_site_page(4), url.format(4), tmp_path)
    adapt.add_example(*_site_page(5), url.format(5), tmp_path)
    read = adapt.site_prior_for(url.format(9), tmp_path)
    assert (read.pages, read.examples) == (5, 2)
    html, gold = _site_page(5)
    adapt.apply_change(url.format(5), removed=[(html, gold)], added=[(html, "")],
                       directory=tmp_path)
    assert adapt.read_site_file(tmp_path / "mill.example.json").examples == 2
    adapt.remove_example(*_site_page(4), url.format(4), tmp_path)
    read = adapt.read_site_file(tmp_path / "mill.example.json")
    assert (read.pages, read.examples) == (4, 1)


def test_a_site_file_from_before_the_examples_count_says_it_does_not_know(blocksift_home: Path):
    # a version-3 file written before the count (or by a host that dropped it): its pages
    # still adapt the site; whose they are is unknown, and a change cannot make it known
    url = "https://mill.example/report/{}"
    prior = adapt.learn("mill.example", [(Page(_site_page(n)[0], url=url.format(n)),
                                          _site_page(n)[1]) for n in range(2)])
    data = json.loads(prior.to_json())
    del data["examples"]
    directory = adapt.sites_dir()  # where auto looks (under the test's BLOCKSIFT_HOME)
    directory.mkdir(parents=True)
    site_file = directory / "mill.example.json"
    site_file.write_text(json.dumps(data))
    old = adapt.site_prior_for(url.format(9), directory)
    assert (old.pages, old.examples, old.paths) == (2, None, prior.paths)
    assert "examples" not in json.loads(old.to_json())  # never written as a guess
    page = Page(_site_page(9)[0], url=url.format(9))
    result = auto.extract(page, auto.Params())
    assert result.stage == "site" and result.stats["site_pages"] == 2
    assert "site_examples" not in result.stats
    adapt.add_example(*_site_page(3), url.format(3), directory)
    read = adapt.read_site_file(site_file)
    assert (read.pages, read.examples) == (3, None)
    assert "examples" not in json.loads(site_file.read_text())
    adapt.remove_example(*_site_page(3), url.format(3), directory)
    assert adapt.read_site_file(site_file).examples is None
    # a count that cannot be right is unknown too; the file's counts still adapt the site
    for wrong in (3, -1, 1.0, True, "1", None):
        site_file.write_text(json.dumps({**data, "examples": wrong}))
        read = adapt.read_site_file(site_file)
        assert read is not None and read.pages == 2 and read.examples is None, wrong
    site_file.write_text(json.dumps({**data, "examples": 2}))
    assert adapt.read_site_file(site_file).examples == 2


def test_an_unreadable_site_file_is_kept_aside_not_written_over(tmp_path: Path, monkeypatch):
    damaged = tmp_path / "mill.example.json"
    damaged.write_text('{"format": "blocksift-auto-site", "version": 3, "pag')
    assert adapt.site_prior_for("https://mill.example/a", tmp_path) is None  # reads go on
    assert adapt.add_example(*_site_page(1), "https://mill.example/1", tmp_path) == damaged
    assert adapt.site_prior_for("https://mill.example/a", tmp_path).pages == 1
    (aside,) = tmp_path.glob("mill.example.json.corrupt-*")
    assert aside.read_text().endswith('"pag')
    # JSON of the wrong shape is as unreadable, and never breaks a page's extraction
    monkeypatch.setattr(adapt, "sites_dir", lambda: tmp_path)
    path = adapt.path_signature(auto.feats.compute(Page(_site_page(2)[0])).elements[1])
    for counts in ('[1, 2]', '{"div/p": "x"}', '{"div/p": [1]}', '{"div/p": [true, 1]}',
                   *(json.dumps({path: entry}) for entry in ([5, 1], [-5, 3], [0, -1]))):
        damaged.write_text(json.dumps({"format": adapt.FORMAT, "version": 3, "site": "m",
                                       "pages": 1, "paths": json.loads(counts), "texts": {}}))
        assert adapt.site_prior_for("https://mill.example/b", tmp_path) is None
        result = auto.extract(Page(_site_page(2)[0], url="https://mill.example/2"), auto.Params())
        assert result.status == "ok" and result.stage != "site"
    # counts too large for a float's share still move the page, and finitely
    damaged.write_text(json.dumps({"format": adapt.FORMAT, "version": 3, "site": "m", "pages": 1,
                                   "paths": {path: [10 ** 30, 10 ** 30]}, "texts": {}}))
    result = auto.extract(Page(_site_page(2)[0], url="https://mill.example/2"), auto.Params())
    assert result.status == "ok" and result.stage == "site"


def test_class_names_numbered_per_page_count_as_one_path():
    # templates stamp the item's number into classes; the path must still recur across pages
    one = Page("<html><body><article class='post post-1234'><p>x</p></article></body></html>")
    two = Page("<html><body><article class='post-98 post'><p>y</p></article></body></html>")
    heading = Page("<html><body><h2 class='t'>z</h2></body></html>")
    assert adapt.path_signature(one.tree.find(".//p")) == \
        adapt.path_signature(two.tree.find(".//p")) == "article.post post-#/p"
    assert adapt.path_signature(heading.tree.find(".//h2")) == "h2.t"  # tags keep digits


def test_a_version_1_site_file_keeps_its_counts(tmp_path: Path):
    old = {"format": adapt.FORMAT, "version": 1, "site": "mill.example", "pages": 2,
           "paths": {"div.cell-1 grid/p": [1, 1], "div.cell-2 grid/p": [1, 1], "h2.x": [0, 2]},
           "texts": {"abc": [0, 2]}}
    (tmp_path / "mill.example.json").write_text(json.dumps(old))
    prior = adapt.site_prior_for("https://mill.example/a", tmp_path)
    assert prior is not None and prior.pages == 2
    assert prior.paths == {"div.cell-# grid/p": [2, 2], "h2.x": [0, 2]}
    assert prior.texts == {"abc": [0, 2]}
    assert json.loads(prior.to_json())["version"] == adapt.VERSION


def test_region_xpaths_are_the_ones_lxml_writes():
    page = Page(_article())
    elements = [el for el in page.tree.iter() if isinstance(el.tag, str)]
    assert page.xpaths(elements) == [page.xpath(el) for el in elements]


@pytest.mark.skipif(not HAS_LIGHTGBM, reason="lightgbm not installed (the 'train' extra)")
def test_training_is_deterministic_for_a_seed(tmp_path: Path):
    from blocksift import auto_training

    records = [{"id": str(n), "html": _site_page(n)[0], "gold": _site_page(n)[1],
                "url": f"https://mill.example/report/{n}"} for n in range(6)]
    samples = [auto_training.make_sample(r, "made-up") for r in records]
    files = []
    for name in ("a.npz", "b.npz"):
        ensembles, meta = auto_training.train_model(samples, seed=3, rounds=15)
        files.append(trees.save(tmp_path / name, ensembles, meta).read_bytes())
    assert files[0] == files[1]
    model = auto.SegmenterModel(*trees.load(tmp_path / "a.npz"))
    blocks = features.compute(Page(records[0]["html"], url=records[0]["url"]))
    assert model.blocks.predict(model.block_matrix(blocks, np.zeros(0))).shape == (len(blocks),)


def _random_ensemble(rng: np.random.Generator, n_trees: int, n_features: int
                     ) -> trees.TreeEnsemble:
    """Trees of uneven depth (some a lone leaf), random splits and NaN directions, packed by
    the runtime's own loader from a LightGBM-shaped dump."""

    def node(level: int) -> dict:
        value = float(rng.normal())
        default_left = bool(rng.random() < 0.5)
        if level < 9 and rng.random() < 0.8 - 0.05 * level:
            split = {"split_feature": int(rng.integers(n_features)),
                     "threshold": float(rng.normal())}
            return {**split, "internal_value": value, "default_left": default_left,
                    "left_child": node(level + 1), "right_child": node(level + 1)}
        return {"leaf_value": value}

    dump = {"tree_info": [{"tree_structure": node(0)} for _ in range(n_trees)]}
    return trees.TreeEnsemble.from_lightgbm_dump(dump, [f"f{i}" for i in range(n_features)])


def _walk_one(ensemble: trees.TreeEnsemble, row: np.ndarray, root: int) -> int:
    node = root
    while ensemble.feature[node] >= 0:
        value = row[ensemble.feature[node]]
        if np.isnan(value):
            go_left = ensemble.default_left[node]
        else:
            go_left = value <= ensemble.threshold[node]
        node = ensemble.left[node] if go_left else ensemble.right[node]
    return int(node)


def test_tree_leaves_equal_a_plain_walk_of_each_row_and_tree():
    rng = np.random.default_rng(7)
    for n_rows in (0, 1, 37):
        ensemble = _random_ensemble(rng, 25, 5)
        x = rng.normal(size=(n_rows, 5))
        _put_thresholds(ensemble, x, rng)
        x[rng.random(x.shape) < 0.1] = np.nan
        expected = np.array([[_walk_one(ensemble, row, r) for r in ensemble.roots]
                             for row in x], dtype=np.int64).reshape(n_rows, 25)
        assert np.array_equal(ensemble._leaves(x), expected)
        assert ensemble.raw(x).shape == (n_rows,)


def test_shipped_model_leaves_and_scores_equal_a_plain_walk():
    # every ensemble of the shipped model on a real page's rows, some cells made NaN and
    # +-inf; raw scores must be the plain per-row sums of the walked leaves, bit for bit
    model = auto.load_model()
    blocks = features.compute(Page(_article()))
    type_probs = model.page_type_probabilities(blocks.page_features)
    first = model.blocks.predict(model.block_matrix(blocks, type_probs))
    ctx = context.context_features(blocks, first)
    rng = np.random.default_rng(3)
    for ensemble, x in ((model.blocks, model.block_matrix(blocks, type_probs)),
                        (model.stacked, model.final_matrix(blocks, type_probs, ctx)),
                        (model.page_type, blocks.page_features[None, :])):
        if ensemble is None:
            continue
        x = np.array(x[:40], dtype=np.float64)
        damaged = x.copy()
        damaged[rng.random(x.shape) < 0.1] = np.nan
        damaged[rng.random(x.shape) < 0.02] = np.inf
        damaged[rng.random(x.shape) < 0.02] = -np.inf
        _put_thresholds(ensemble, damaged, rng)
        for rows in (x, damaged):
            expected = np.array([[_walk_one(ensemble, row, r) for r in ensemble.roots]
                                 for row in rows], dtype=np.int64)
            assert np.array_equal(ensemble._leaves(rows), expected)
            leaf_values = ensemble.value[expected]
            if ensemble.n_classes > 1:
                leaf_values = leaf_values.reshape(len(rows), -1, ensemble.n_classes)
            assert np.array_equal(ensemble.raw(rows), leaf_values.sum(axis=1))


def _put_thresholds(ensemble: trees.TreeEnsemble, x: np.ndarray,
                    rng: np.random.Generator) -> None:
    """Set some cells to a split's exact threshold (``<=`` must send them left)."""
    inner = np.flatnonzero(ensemble.feature >= 0)
    for row in x:
        for node in rng.choice(inner, size=min(len(inner), 8)):
            row[ensemble.feature[node]] = ensemble.threshold[node]


def test_raw_scores_over_several_chunks_equal_the_plain_walk():
    rng = np.random.default_rng(11)
    ensemble = _random_ensemble(rng, 12, 4)
    x = rng.normal(size=(trees.CHUNK_ROWS * 2 + 3, 4))
    _put_thresholds(ensemble, x, rng)
    x[rng.random(x.shape) < 0.1] = np.nan
    expected = np.array([[_walk_one(ensemble, row, r) for r in ensemble.roots] for row in x])
    assert np.array_equal(ensemble.raw(x), ensemble.value[expected].sum(axis=1))


def _repeating_rows(ensemble: trees.TreeEnsemble, rng: np.random.Generator, n_rows: int,
                    kinds: int) -> np.ndarray:
    """A long page's rows: a few kinds of row, each repeated with small changes that stay
    between the same thresholds or cross one, with NaN, +-inf and exact thresholds; in
    some rows a kind's NaN cells are +inf instead."""
    base = rng.normal(size=(kinds, ensemble.feature.max() + 1))
    _put_thresholds(ensemble, base, rng)
    base[rng.random(base.shape) < 0.1] = np.nan
    base[rng.random(base.shape) < 0.02] = np.inf
    x = base[rng.integers(kinds, size=n_rows)].copy()
    changed = rng.choice(n_rows, size=n_rows // 10, replace=False)  # one cell of each
    cells = rng.integers(x.shape[1], size=len(changed))
    change = rng.choice([1e-9, -1e-9, -np.inf], size=len(changed))
    nudge = np.isfinite(change)
    x[changed[nudge], cells[nudge]] += change[nudge]
    x[changed[~nudge], cells[~nudge]] = -np.inf
    above = x[: n_rows // 10]  # NaN goes its own way, not with values above every split
    above[np.isnan(above)] = np.inf
    return x


def test_raw_scores_of_repeating_rows_walk_each_kind_once_and_equal_the_plain_walk():
    rng = np.random.default_rng(13)
    for ensemble in (_random_ensemble(rng, 30, 6), auto.load_model().blocks):
        x = _repeating_rows(ensemble, rng, 2500, kinds=40)
        found = ensemble.distinct_rows(x)
        assert found is not None
        first, kind = found
        assert len(first) < len(x) * trees.DISTINCT_MAX_SHARE
        assert np.array_equal(ensemble._leaves(x[first])[kind], ensemble._leaves(x))
        expected = ensemble.raw(x)  # every row walked
        assert np.array_equal(ensemble.raw(x, distinct=True), expected)
        assert np.array_equal(ensemble.predict(x, distinct=True),
                              1.0 / (1.0 + np.exp(-expected)))


def test_a_long_page_scored_a_kind_of_block_at_a_time_gets_the_same_labels(monkeypatch):
    menu = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(20))
    paragraphs = "".join(f"<p>Paragraph {i} says something, with a comma and an end.</p>"
                         for i in range(600))
    html = (f"<html><body><nav><ul>{menu}</ul></nav><article><h1>Long</h1>{paragraphs}"
            f"</article><footer>Footer text</footer></body></html>")
    model = auto.load_model()
    every_row = auto.segment(Page(html), model)
    monkeypatch.setattr(auto, "DISTINCT_ROWS_FROM", 100)
    kinds_found = []
    original = trees.kinds

    def counted(codes, *args):
        found = original(codes, *args)
        kinds_found.append(None if found is None else len(found[0]))
        return found

    monkeypatch.setattr(trees, "kinds", counted)
    by_kind = auto.segment(Page(html), model)
    # both passes (first and stacked) walked a few kinds, not the page's 600+ rows
    assert len(kinds_found) == 2 and all(k is not None and k < 300 for k in kinds_found)
    assert np.array_equal(by_kind[1], every_row[1])
    assert by_kind[2] == every_row[2]


def test_both_passes_by_kind_in_parts_give_the_scores_and_context_of_every_row(monkeypatch):
    cards = "".join(f"<div class='card'><h3><a href='/p/{i}'>Item {i % 7}</a></h3>"
                    f"<p>{'Short note.' if i % 3 else 'A longer note, with a comma, here.'}</p>"
                    f"<span class='price'>{i % 5} EUR</span></div>" for i in range(300))
    page = Page(f"<html><body><nav><ul><li><a href='/'>Home</a></li></ul></nav><main>"
                f"<h1>Shop</h1>{cards}</main><footer>Footer</footer></body></html>")
    model = auto.load_model()
    type_probs = model.page_type_probabilities(features.compute(page).page_features)
    whole, whole_context = model.block_probabilities(features.compute(page), type_probs)
    monkeypatch.setattr(auto, "DISTINCT_ROWS_FROM", 50)
    for rows_per_part in (41, 256, 10 ** 6):  # parts that split kinds, and one part
        parts, context = model.block_probabilities(features.compute(page), type_probs,
                                                    rows_per_part=rows_per_part)
        assert np.array_equal(parts, whole) and np.array_equal(context, whole_context)
    # a part whose rows all differ is walked row by row, the same scores again
    monkeypatch.setattr(trees, "DISTINCT_MAX_SHARE", 0.0)
    monkeypatch.setattr(trees.kinds, "__defaults__", (0.0,))
    parts, _context = model.block_probabilities(features.compute(page), type_probs)
    assert np.array_equal(parts, whole)


def test_distinct_rows_gives_up_on_distinct_rows_and_on_hash_collisions(monkeypatch):
    rng = np.random.default_rng(14)
    ensemble = _random_ensemble(rng, 30, 6)
    spread = rng.normal(size=(2000, 6))
    assert ensemble.distinct_rows(spread) is None  # nearly every row its own kind
    x = _repeating_rows(ensemble, rng, 2000, kinds=40)
    monkeypatch.setattr(trees, "_hash_weights",
                        lambda count: np.zeros(count, dtype=np.uint64))  # one hash for all
    assert ensemble.distinct_rows(x) is None
    assert np.array_equal(ensemble.raw(x, distinct=True), ensemble.raw(x))


def test_hint_bits_by_word_equal_the_patterns_on_the_whole_value():
    import random

    rng = random.Random(11)
    parts = ["ad", "ads", "Ad", "ADVERT", "-ad-", "_", "-", "x", "Header", "comment",
             "sidebar", "MAIN", "content", "com-", "nav", "sponsored", "gpt", "h-entry",
             "\u212aontent", "\u017fidebar", "é", "İ",  # Kelvin sign, long s: re.I cases
             # literals that begin others, or end inside them (the trie's branch ends)
             "page", "Pager", "paginat", "ion", "comm", "unity", "ent", "com", "bx", "pa"]
    parts += [literal for name in ("positive", "negative", "unlikely", "comment")
              for literal in features.HINTS[name].pattern.split("|")]
    spaces = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", ""]
    for _ in range(3000):
        value = "".join(rng.choice(parts) + rng.choice(spaces)
                        for _ in range(rng.randrange(1, 6)))
        expected = sum(1 << i for i, name in enumerate(features._HINT_NAMES)
                       if features.HINTS[name].search(value))
        assert features._hint_value_bits(value) == expected, value
    for name, pattern in zip(features._HINT_NAMES, features._HINTS_LOWER):
        for _ in range(2000):  # the trie of each pattern alone, on lower-case ASCII words
            word = "".join(rng.choice(parts) for _ in range(rng.randrange(1, 4))).lower()
            if word.isascii() and not any(char.isspace() for char in word):
                found = pattern.search(word) is not None
                assert found == (features.HINTS[name].search(word) is not None), (name, word)


def test_collapsed_length_equals_collapsing_with_the_regex():
    import random

    rng = random.Random(12)
    alphabet = ["a", "é", " ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\x1c", "中", "\r",
                "\x85", "\x0b", "\u200b", "\u180e", "b c", "d  e", " f ", "\U0001f600"]
    # every white space str.split() knows, beside the space, is unprintable: the shortcut
    assert all(not chr(c).isprintable() for c in range(0x110000)
               if chr(c).isspace() and c != 0x20)
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        assert features._collapse_len(text) == len(features._WS.sub(" ", text.strip())), text


def _contributions_full_depth(ensemble: trees.TreeEnsemble, x: np.ndarray) -> np.ndarray:
    """Saabas contributions with every (row, tree) pair walking the full depth."""
    width = len(ensemble.feature_names)
    nodes = np.broadcast_to(ensemble.roots, (len(x), len(ensemble.roots))).copy()
    rows = np.arange(len(x))[:, None]
    flat = np.zeros(len(x) * width)
    for _ in range(ensemble.depth):
        feat = ensemble.feature[nodes]
        values = x[rows, np.maximum(feat, 0)]
        go_left = values <= ensemble.threshold[nodes]
        go_left = np.where(np.isnan(values), ensemble.default_left[nodes], go_left)
        nxt = np.where(go_left, ensemble.left[nodes], ensemble.right[nodes])
        inner = feat >= 0
        cells = (rows * width + feat)[inner]
        flat += np.bincount(cells, weights=(ensemble.value[nxt] - ensemble.value[nodes])[inner],
                            minlength=len(flat))
        nodes = nxt
    return flat.reshape(len(x), width)


def test_contributions_equal_the_full_depth_sums_exactly():
    rng = np.random.default_rng(8)
    for n_rows in (0, 1, 23):
        ensemble = _random_ensemble(rng, 30, 4)
        x = rng.normal(size=(n_rows, 4))
        _put_thresholds(ensemble, x, rng)
        x[rng.random(x.shape) < 0.1] = np.nan
        got = ensemble.contributions(x)
        assert np.array_equal(got, _contributions_full_depth(ensemble, x))
        raw = ensemble.raw(x)
        assert np.allclose(ensemble.value[ensemble.roots].sum() + got.sum(axis=1), raw)


def test_rules_columns_equal_a_climb_from_every_block():
    import random

    page = Page(_article())
    elements = [el for el in page.tree.iter() if isinstance(el.tag, str)]
    blocks = features.compute(page).elements
    rng = random.Random(2)
    for _ in range(30):
        chosen = rng.sample(elements, rng.randrange(1, 6))
        exclude = set(rng.sample(elements, rng.randrange(0, 6)))
        expected = np.zeros((len(blocks), 2))
        parents = {c.getparent() for c in chosen if c.getparent() is not None}
        for i, el in enumerate(blocks):
            node = el
            while node is not None and node not in exclude:
                if node in chosen:
                    expected[i, 0] = 1
                    break
                expected[i, 1] = max(expected[i, 1], node in parents)
                node = node.getparent()
        assert np.array_equal(features.rules_columns(blocks, chosen, exclude), expected)


def test_regions_come_out_in_document_order_for_any_labeling():
    import random

    rng = random.Random(6)
    page = Page(_article())
    blocks = features.compute(page).elements
    position = {el: n for n, el in enumerate(page.tree.iter())}
    for _ in range(200):
        kinds = [rng.choice(["main", "links", "other"]) for _ in blocks]
        regions = auto._regions(blocks, kinds)
        order = [position[el] for el, _kind, _excluded in regions]
        assert order == sorted(order)
        # every block lies in exactly one region of its own kind
        for el, kind in zip(blocks, kinds):
            holders = [r for r in regions if (r[0] is el or el in set(r[0].iterdescendants()))
                       and not any(x is el or el in set(x.iterdescendants()) for x in r[2])]
            assert kind in {r[1] for r in holders}


def test_a_region_keeps_the_text_an_inline_wrapper_holds_beside_a_block_of_another_kind():
    # a CMS wraps the article's paragraphs (text and <br>s, no block) in a <span> that also
    # holds an ad: the span carries the article block's own text and is no excluded subtree
    page = Page("<html><body><div class='post'><span class='wrapper'>First part of the "
                "article, with words.<br><br>Second part of it.<div class='ad'>Buy now</div>"
                "Third part, after the ad.</span></div></body></html>")
    post = page.body.find("div")
    ad = post.find("span/div")
    regions = auto._regions([post, ad], ["main", "ad"])
    assert [(el, kind, excluded) for el, kind, excluded in regions] == [
        (post, "main", [ad]), (ad, "ad", [])]
    html = content.render_main(page, [post], exclude={ad}).html
    assert "First part" in html and "Third part" in html and "Buy now" not in html


def test_a_block_of_the_regions_kind_holding_another_kind_stays_in_the_region():
    # an article body (main, with text of its own) holding a widget (links) inside a main
    # container: the body is no subtree the container leaves out, the widget is
    page = Page("<html><body><div class='post'><h1>Headline of the post</h1>"
                "<div class='entry'>The body's own opening words.<p>A paragraph.</p>"
                "<div class='widget'><a href='/x'>Elsewhere</a></div></div></div>"
                "</body></html>")
    post = page.body.find("div")
    h1, entry = post.find("h1"), post.find("div")
    p, widget = entry.find("p"), entry.find("div")
    regions = auto._regions([post, h1, entry, p, widget], ["main", "main", "main", "main",
                                                            "links"])
    assert [(el, kind, excluded) for el, kind, excluded in regions] == [
        (post, "main", [widget]), (widget, "links", [])]
    html = content.render_main(page, [post], exclude={widget}).html
    assert "opening words" in html and "A paragraph." in html and "Elsewhere" not in html


def test_block_probabilities_by_parts_equal_the_whole_matrix():
    # a page of a few hundred blocks, scored in parts of 7 rows (a size no chunk divides)
    rows = "".join(f"<p>Paragraph {i} has <a href='/l{i}'>a link</a>, and words.</p>"
                   f"<li><a href='/m{i}'>Menu {i}</a></li>" for i in range(150))
    page = Page(f"<html><body><nav><ul>{rows[:2000]}</ul></nav><article>{rows}</article>"
                "</body></html>")
    model = auto.load_model()
    blocks = features.compute(page)
    type_probs = model.page_type_probabilities(blocks.page_features)
    whole = model.blocks.predict(model.block_matrix(blocks, type_probs))
    if model.stacked is not None:
        whole_context = context.context_features(blocks, whole)
        whole = model.stacked.predict(np.hstack([model.block_matrix(blocks, type_probs),
                                                 whole_context]))
    assert len(whole) > 300 and len(np.unique(whole)) > 2
    for rows_per_part in (7, 512, len(whole) - 1, len(whole), 10 ** 6):
        # fresh blocks: scored in parts, their matrix is built a part at a time
        parts, _context = model.block_probabilities(features.compute(page), type_probs,
                                                    rows_per_part=rows_per_part)
        assert np.array_equal(parts, whole)


def test_feature_rows_and_columns_built_on_demand_equal_the_whole_matrix():
    rows = "".join(f"<h2>Part {i}</h2><p>Paragraph {i} has <a href='/l{i}'>a link</a>, and "
                   f"words.</p><li><a href='/m{i}'>Menu {i}</a></li>" for i in range(60))
    page = Page(f"<html><head><title>Parts</title></head><body><nav><ul>{rows[:900]}</ul>"
                f"</nav><article><h1>Parts</h1>{rows}</article><footer>End</footer></body>"
                "</html>")
    whole = features.compute(page).features
    n = len(whole)
    assert n > 150 and (whole != -1).any(axis=0).sum() > 100  # most columns hold values
    rng = np.random.default_rng(4)
    picks = [slice(0, 7), slice(5, n - 3), slice(n - 1, None), slice(None), [0, n - 1, 3, 3],
             rng.integers(0, n, 50), np.zeros(0, dtype=int)]
    for pick in picks:
        assert np.array_equal(features.compute(page).rows(pick), whole[pick])
    fresh = features.compute(page)
    for name in features.FEATURE_NAMES:
        assert np.array_equal(fresh.column(name), whole[:, features.FEATURE_INDEX[name]]), name
    without = features.compute(page, without=("farsw",))
    assert (without.column("farsw_score") == -1).all()
    assert (without.rows(slice(0, 9))[:, features.FEATURE_INDEX["farsw_window"]] == -1).all()


def test_context_columns_summarize_the_page_neighbours_and_containers():
    lists = "".join(f"<ul>{''.join(f'<li>item {u}-{i} has words</li>' for i in range(n))}</ul>"
                    for u, n in enumerate((3, 5)))
    blocks = features.compute(Page(f"<html><body><p>An opening paragraph.</p>{lists}"
                                   "</body></html>"))
    assert len(blocks) == 9
    prob = np.asarray([0.9, 0.1, 0.2, 0.3, 0.6, 0.5, 0.7, 0.8, 0.4])
    cols = {name: context.context_features(blocks, prob)[:, j]
            for j, name in enumerate(context.CONTEXT_NAMES)}
    assert np.array_equal(cols["ctx_prob"], prob)
    assert np.all(cols["ctx_page_max"] == 0.9)
    assert cols["ctx_rank"][0] == 0 and cols["ctx_of_max"][0] == 1
    assert np.array_equal(cols["ctx_prev"][1:], prob[:-1]) and cols["ctx_prev"][0] == -1
    assert np.array_equal(cols["ctx_next"][:-1], prob[1:]) and cols["ctx_next"][-1] == -1
    assert cols["ctx_window_max"][3] == 0.9 and cols["ctx_window_max"][4] == 0.8
    # the items of one list share their container's mean, the two lists differ
    first, second = cols["ctx_up1_mean"][1:4], cols["ctx_up1_mean"][4:9]
    assert np.allclose(first, first[0]) and np.allclose(second, second[0])
    assert abs(first[0] - 0.2) < 0.02 and abs(second[0] - 0.6) < 0.02
    assert np.allclose(cols["ctx_up1_main_share"][1:4], 1 / 3, atol=0.02)


def test_container_groups_are_the_partition_of_equal_measure_rows():
    # the reference: np.unique over the rows of the level's measures, ties on purpose
    rng = np.random.default_rng(5)
    for n in (1, 2, 40, 300):
        rows = rng.integers(0, 3, size=(n, len(features.FEATURE_NAMES))).astype(float)
        rows[rng.random(rows.shape) < 0.1] = -0.0
        for level in (1, 2, 3):
            cols = [features.FEATURE_INDEX[f"up{level}_{m}"] for m in context._GROUP_MEASURES]
            _keys, expected = np.unique(rows[:, cols], axis=0, return_inverse=True)
            assert np.array_equal(context._group_of(features.Blocks(features=rows), level), expected.reshape(-1))


@pytest.mark.skipif(not HAS_LIGHTGBM, reason="lightgbm not installed (the 'train' extra)")
def test_a_stacked_model_decides_with_the_context_of_the_first(tmp_path: Path):
    from blocksift import auto_training

    records = [{"id": str(n), "html": _site_page(n)[0], "gold": _site_page(n)[1],
                "url": f"https://mill{n % 3}.example/report/{n}"} for n in range(6)]
    samples = [auto_training.make_sample(r, "made-up") for r in records]
    ensembles, meta = auto_training.train_model(samples, seed=3, rounds=15, stack_folds=3)
    assert meta["stack_folds"] == 3 and "stacked" in ensembles
    model = auto.SegmenterModel(*trees.load(trees.save(tmp_path / "m.npz", ensembles, meta)))
    assert model.final_names[-len(context.CONTEXT_NAMES):] == list(context.CONTEXT_NAMES)
    blocks = features.compute(Page(records[0]["html"], url=records[0]["url"]))
    type_probs = model.page_type_probabilities(blocks.page_features)
    first = model.blocks.predict(model.block_matrix(blocks, type_probs))
    prob, columns = model.block_probabilities(blocks, type_probs)
    assert np.array_equal(columns[:, 0], first)
    assert np.array_equal(prob, model.stacked.predict(
        np.hstack([model.block_matrix(blocks, type_probs), columns])))
    result = auto.extract(Page(records[0]["html"], url=records[0]["url"]),
                          auto.Params(), model=model)
    assert result.status == "ok" and result.blocks


def test_column_gaps_of_columns_of_one_value_equal_a_search_of_every_row():
    rng = np.random.default_rng(15)
    edges = np.sort(rng.normal(size=12))
    x = np.column_stack([
        np.full(50, edges[3]),          # one value, on a threshold
        np.full(50, 7.0),               # one value, above every threshold
        np.full(50, np.nan),            # one NaN throughout: -1, not a gap
        rng.normal(size=50),            # values that differ
        np.r_[np.nan, np.full(49, 1.0)],  # one NaN among equal values
    ])
    bins = [(column, edges) for column in range(x.shape[1])]
    expected = np.column_stack([np.where(np.isnan(x[:, c]), -1,
                                         np.searchsorted(edges, x[:, c], side="left"))
                                for c in range(x.shape[1])])
    assert np.array_equal(trees.gaps(x, bins), expected)
    assert np.array_equal(trees.column_gaps(lambda c: x[:, c], bins, len(x)), expected)
    assert trees.column_gaps(lambda c: x[:0, c], bins, 0).shape == (0, len(bins))


@pytest.mark.parametrize("enabled", [True, False])
def test_extract_pauses_the_cyclic_collector_and_leaves_it_as_it_found_it(enabled, monkeypatch):
    import gc

    seen = []
    original = features.compute
    monkeypatch.setattr(features, "compute", lambda *a, **k: (seen.append(gc.isenabled()),
                                                             original(*a, **k))[1])
    (gc.enable if enabled else gc.disable)()
    try:
        result = auto.extract(Page("<html><body><article><p>" + "Words of a page. " * 20
                                   + "</p></article></body></html>"), auto.Params())
        assert result.status == "ok" and seen == [False]
        assert gc.isenabled() is enabled
        monkeypatch.setattr(features, "compute", lambda *a, **k: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            auto.extract(Page("<p>A failing page.</p>"), auto.Params())
        assert gc.isenabled() is enabled
    finally:
        gc.enable()


#: Tables, figures and formulas where the walk goes, where it skips (inside a button, an
#: <svg>, a <template>, the head) and outside the body.
PRESENCE_PAGES = {
    "walked": "<html><body><div><table><tr><td>a</td></tr></table><figure><img></figure>"
              "<p>x <math><mi>y</mi></math></p></div></body></html>",
    "skipped": "<html><body><button><math>1</math></button><svg><g><figure></figure></g></svg>"
               "<template><table><tr><td>t</td></tr></table></template><p>text</p></body></html>",
    "head only": "<html><head><template><math>1</math></template></head><body><p>text</p>"
                 "</body></html>",
    "none": "<html><body><div><p>text</p><svg><path d='M0'/></svg><button>b</button></div>"
            "</body></html>",
    "no body": "<html><head><title>t</title><template><figure></figure></template></head>"
               "</html>",
}


@pytest.mark.parametrize("name", PRESENCE_PAGES)
@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_walk_holds_a_tag_as_a_search_of_its_start_finds_it(name: str, compiled: bool):
    if compiled and features._compiled_walk is None:
        pytest.skip("the compiled walk was not built (no C compiler at install)")
    page = Page(PRESENCE_PAGES[name], spans=False)
    walked = features.walk(page, compiled=compiled)
    body = page.tree.find("body")
    start = body if body is not None else page.tree
    for tag in features.PRESENCE_BITS:
        assert walked.holds(tag) == (next(start.iter(tag), None) is not None), (name, tag)


def test_walk_holds_a_tag_on_every_bundled_page_as_a_search_finds_it():
    root = Path(__file__).resolve().parents[1]
    paths = [*root.glob("golden/*/source.html"), *(root / "fixtures").rglob("*.html")]
    assert len(paths) >= 20
    found = set()
    for path in paths:
        page = Page(decode_html(path.read_bytes()), spans=False)
        walked = features.walk(page)
        body = page.tree.find("body")
        start = body if body is not None else page.tree
        for tag in features.PRESENCE_BITS:
            held = next(start.iter(tag), None) is not None
            assert walked.holds(tag) == held, (path.name, tag)
            if held:
                found.add(tag)
    assert {"table", "figure"} <= found  # the pages ask both answers of the walk
