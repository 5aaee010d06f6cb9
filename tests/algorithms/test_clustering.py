"""Tests of the clustering extractor (seed 002): every pinned step on hand-made input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from lxml import etree
from pydantic import ValidationError

from blocksift.algorithms import clustering as c
from blocksift.page import Page

SITE = Path(__file__).resolve().parents[1] / "fixtures" / "clustering" / "site"
GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "clustering" / "expected.json"


def paths(prefix: str, count: int) -> frozenset[str]:
    return frozenset(f"{prefix}/div{i}" for i in range(1, count + 1))


def site_pages() -> dict[str, Page]:
    return {p.stem: Page(p.read_text("utf-8"), url=f"http://news.example/{p.stem}")
            for p in sorted(SITE.glob("*.html"))}


# -- Eq. (1) sim -------------------------------------------------------------------------------


def test_sim_divides_by_the_smaller_set():
    a = frozenset({"body1/div1", "body1/div2", "body1/div2/div1"})
    b = frozenset({"body1/div1", "body1/div2"})
    assert c.sim(a, b) == 1.0  # b inside a: 2 / min(3, 2)
    d = frozenset({"body1/div1", "body1/div2", "body1/div3", "body1/div4"})
    e = frozenset({"body1/div1", "body1/div2", "body1/div5", "body1/div6", "body1/div7"})
    assert c.sim(d, e) == pytest.approx(2 / 4)
    assert c.sim(d, e) == c.sim(e, d)


def test_sim_of_disjoint_and_empty_sets_is_zero():
    assert c.sim(frozenset({"body1/div1"}), frozenset({"body1/table1"})) == 0.0
    assert c.sim(frozenset(), frozenset({"body1/div1"})) == 0.0
    assert c.sim(frozenset(), frozenset()) == 0.0


def test_threshold_is_strictly_greater_than_082():
    base = paths("body1", 50)
    exactly = frozenset(sorted(base)[:41]) | paths("body1/table1", 9)  # 41/50 = 0.82
    above = frozenset(sorted(base)[:42]) | paths("body1/table1", 8)  # 42/50 = 0.84
    assert c.sim(base, exactly) == pytest.approx(0.82)
    params = c.Params(min_class_size=1)
    assert c.get_classes([base, exactly], params) == []  # two singletons, none > 1
    assert c.get_classes([base, above], params) == [[0, 1]]


# -- Algorithm 1 -------------------------------------------------------------------------------


def test_more_than_five_pages_make_a_class():
    feature = paths("body1", 10)
    assert c.get_classes([feature] * 5) == []
    assert c.get_classes([feature] * 6) == [[0, 1, 2, 3, 4, 5]]


def test_greedy_order_does_not_chain():
    # A ~ B and B ~ C but not A ~ C: the class grows around its first page only.
    a = paths("body1", 10)
    b = frozenset(sorted(a)[:9]) | {"body1/table1"}
    c_ = frozenset(sorted(a)[:8]) | {"body1/table1", "body1/table2"}
    assert c.sim(a, b) == pytest.approx(0.9) and c.sim(b, c_) == pytest.approx(0.9)
    assert c.sim(a, c_) == pytest.approx(0.8)
    params = c.Params(min_class_size=0)
    assert c.get_classes([a, b, c_], params) == [[0, 1], [2]]
    assert c.get_classes([b, a, c_], params) == [[0, 1, 2]]


def test_pages_of_a_dropped_group_leave_the_pool():
    # b is like a and like c. The group {a, b} is dropped (not more than 5 pages), and b,
    # removed from D with it, is no longer there to make c's 5 pages a class of 6.
    a = paths("body1", 10)
    b = frozenset(sorted(a)[:9]) | {"body1/table1"}
    c_ = frozenset(sorted(a)[:8]) | {"body1/table1", "body1/table2"}
    assert c.get_classes([a, b] + [c_] * 5) == []
    assert c.get_classes([b] + [c_] * 5) == [[0, 1, 2, 3, 4, 5]]


# -- §4.1 paths --------------------------------------------------------------------------------


def test_paths_count_same_tag_siblings_and_every_node_on_the_way():
    page = Page("<html><body><div></div><p>x</p><div><div></div><table><tr><td>"
                "<div>t</div></td></tr></table></div><span><div></div></span></body></html>")
    assert c.structure_feature(page) == {
        "body1/div1", "body1/div2", "body1/div2/div1", "body1/div2/table1",
        "body1/div2/table1/tr1/td1/div1", "body1/span1/div1"}


def test_block_tags_parameter_adds_html5_blocks():
    page = Page("<body><article><div>x</div></article></body>")
    assert c.structure_feature(page) == {"body1/article1/div1"}
    params = c.Params(block_tags=("div", "table", "article"))
    assert c.structure_feature(page, params) == {"body1/article1", "body1/article1/div1"}


# -- §5.1 H(b) ---------------------------------------------------------------------------------

TINY = ('<html><body><div id="nav"><a href="/a">Home</a> <a href="/b">News</a></div>'
        '<div id="main"><p>Hello world</p><p>More text <a href="/c">here</a></p></div>'
        "<script>var ignored = 'script text';</script></body></html>")


def test_h_of_a_tiny_tree_by_hand():
    # Counted by hand (non-space characters; links are <a href>):
    #   nav:  text "HomeNews" = 8, all of it link text, 2 links, 2 descendants -> T_n = 0
    #   main: "Helloworld" 10 + "Moretext" 8 + "here" 4 = 22, link text 4, 1 link,
    #         descendants p, p, a = 3 -> T_n = 18
    #   page: T = 0 + 18 = 18 (script text never counts), LN = 3
    scores = dict(c.block_scores(Page(TINY)))
    assert scores["body1/div1"] == 0.0
    p_text, p_link, p_textl = 18 / (1 + 18), 1 / (1 + 3), 18 / (1 + 22)
    assert scores["body1/div2"] == pytest.approx(p_text * (1 - p_link) * p_textl /
                                                 (1 + 3 * 0.3))


def test_alpha_penalises_large_blocks():
    page = Page("<body><div><div><p>" + "word " * 50 + "</p></div><p>a</p><p>b</p>"
                "<p>c</p></div></body>")
    paper = dict(c.block_scores(page))
    assert paper["body1/div1/div1"] > paper["body1/div1"]  # inner block: fewer descendants
    no_size = dict(c.block_scores(page, c.Params(alpha=0.0)))
    assert no_size["body1/div1"] > no_size["body1/div1/div1"]  # more text wins without alpha


# -- Algorithm 2 -------------------------------------------------------------------------------


def test_rule_is_the_candidate_with_the_highest_summed_h():
    rule_a = c.BlockRule(css_class="post", element_id=None, path="body1/div2")
    rule_b = c.BlockRule(css_class="comments", element_id=None, path="body1/div3")
    obs = [c.PageObservation(f"p{i}", frozenset(), rule_a, 0.1) for i in range(3)]
    obs.append(c.PageObservation("p3", frozenset(), rule_b, 0.25))  # best single page
    obs.append(c.PageObservation("p4", frozenset(), None, 0.0))  # page without text block
    [(rule, score)] = c.learn_rules([obs])
    assert rule == rule_a and score == pytest.approx(0.3)
    assert c.learn_rules([[obs[4]]]) == [(None, 0.0)]


def test_candidates_differing_in_one_field_do_not_add_up():
    a = c.BlockRule(css_class="post", element_id="story-1", path="body1/div2")
    b = c.BlockRule(css_class="post", element_id="story-2", path="body1/div2")
    d = c.BlockRule(css_class="side", element_id=None, path="body1/div3")
    obs = [c.PageObservation("1", frozenset(), a, 0.2), c.PageObservation("2", frozenset(), b, 0.2),
           c.PageObservation("3", frozenset(), d, 0.3)]
    assert c.learn_rules([obs])[0][0] == d


# -- rule priority and matching ----------------------------------------------------------------

PRIORITY = ('<html><body><div id="top"><p>{top}</p></div>'
            '<div class="post"><p>{post}</p></div>'
            '<div><p>{path}</p></div></body></html>')


def model_with(rule: c.BlockRule, feature: frozenset[str]) -> c.SiteModel:
    cls = c.SiteClass(label=0, feature=tuple(sorted(feature)), members=("a",) * 6, rule=rule,
                      rule_score=1.0)
    return c.SiteModel(classes=(cls,), pages=6)


@pytest.mark.parametrize("html, stage, expected", [
    (PRIORITY, "class_rule:id", "TOP"),
    (PRIORITY.replace('id="top"', 'id="other"'), "class_rule:class", "POST"),
    (PRIORITY.replace('id="top"', "").replace('class="post"', ""), "class_rule:path", "PATH"),
])
def test_rule_priority_id_then_class_then_path(html, stage, expected):
    html = html.format(top="TOP " * 3, post="POST " * 3, path="PATH " * 30)
    page = Page(html)
    rule = c.BlockRule(element_id="top", css_class="post", path="body1/div3")
    model = model_with(rule, c.structure_feature(page))
    result = c.extract(page, c.Params(), model)
    assert result.stage == stage
    assert result.main.text.split()[0] == expected
    own = c.extract(page, c.Params())  # without the class: the densest block, PATH
    assert own.stage == "own_best" and own.main.text.split()[0] == "PATH"


def test_rule_that_finds_nothing_falls_back_to_the_own_best_block():
    page = Page(PRIORITY.format(top="a", post="b", path="long text " * 20))
    rule = c.BlockRule(element_id="missing", css_class="missing", path="body1/div9")
    result = c.extract(page, c.Params(), model_with(rule, c.structure_feature(page)))
    assert result.stage == "own_best:rule_missed"
    assert result.main.text.startswith("long text")


def test_new_page_joins_the_most_similar_class_only_above_the_threshold():
    x, y = paths("body1", 10), paths("body1/table1", 10)
    rule = c.BlockRule(path="body1/div1")
    model = c.SiteModel(classes=(
        c.SiteClass(label=0, feature=tuple(sorted(x)), members=(), rule=rule),
        c.SiteClass(label=1, feature=tuple(sorted(y)), members=(), rule=rule)), pages=12)
    near_y = frozenset(sorted(y)[:9]) | {"body1/p1/div1"}
    cls, value = model.match(near_y, c.Params())
    assert cls.label == 1 and value == pytest.approx(0.9)
    cls, value = model.match(near_y, c.Params(match_threshold=0.95))
    assert cls is None and value == pytest.approx(0.9)
    far = frozenset(sorted(x)[:4]) | paths("body1/span1", 6)
    assert model.match(far, c.Params())[0] is None


# -- the whole method on the hand-made site ----------------------------------------------------


def test_clustering_recovers_the_short_article_the_density_alone_misses():
    pages = site_pages()
    model = c.fit([pages[f"news{i}"] for i in range(7)], c.Params())
    assert len(model.classes) == 1 and model.unclassed == 0
    assert model.classes[0].rule == c.BlockRule(css_class="article", element_id="story",
                                                path="body1/div2/div1")
    alone = c.extract(pages["news7"], c.Params())
    assert "Headline number 7" not in alone.main.text  # a long comment wins on density
    clustered = c.extract(pages["news7"], c.Params(), model)
    assert clustered.stage == "class_rule:id"
    assert clustered.main.text.startswith("Headline number 7")
    other = c.extract(pages["other0"], c.Params(), model)
    assert other.stage == "own_best" and other.stats["class_sim"] < 0.82


def test_golden_extractions_of_the_hand_made_site():
    pages = site_pages()
    model = c.fit([pages[f"news{i}"] for i in range(7)], c.Params())
    got = {}
    for name, page in pages.items():
        result = c.extract(page, c.Params(), model)
        block = result.blocks[0]
        got[name] = {"stage": result.stage, "status": result.status,
                     "span": [block.start, block.end], "xpaths": block.xpaths,
                     "text_start": result.main.text[:40]}
    got["model"] = json.loads(model.model_dump_json())
    if os.environ.get("BLOCKSIFT_REGEN"):
        GOLDEN.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", "utf-8")
    expected = json.loads(GOLDEN.read_text("utf-8"))
    for name in expected:
        assert got[name] == expected[name], f"{name} differs from {GOLDEN.name}"
    for name, page in pages.items():  # the span is the block's source text
        start, end = got[name]["span"]
        assert page.raw[start:end].startswith("<div") or page.raw[start:end].startswith("<table")


def test_observation_round_trips_through_json():
    page = site_pages()["news0"]
    result = c.extract(page, c.Params())
    data = json.loads(json.dumps(result.extra["site_observation"]))
    obs = c.PageObservation.from_dict("k", data)
    assert obs.feature == c.structure_feature(page)
    assert obs.candidate == c.BlockRule(css_class="article", element_id="story",
                                        path="body1/div2/div1")
    assert obs.score == pytest.approx(result.stats["h"])
    assert "extra" not in result.model_dump()  # host-side only


@pytest.mark.parametrize("bad", [None, [], {"feature": "body1"}, {"feature": [1]},
                                 {"feature": [], "h": -1}, {"feature": [], "h": float("nan")},
                                 {"feature": [], "candidate": {"nope": 1}}])
def test_malformed_observations_are_refused(bad):
    with pytest.raises(ValueError):
        c.PageObservation.from_dict("k", bad)


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("html", ["", "   ", "<<<>>>", "<html><head></head></html>",
                                  "<body><p>text but no block</p></body>",
                                  "<div><div><a href='x'>only links</a></div></div>",
                                  "\x00\ufffd<div>\udcff</div>"])
def test_bad_pages_give_a_clear_status(html):
    result = c.extract(Page(html), c.Params(), c.SiteModel())
    assert result.status in {"ok", "empty"}
    if result.status == "empty":
        assert result.message and result.main is None
    assert isinstance(result.extra["site_observation"]["feature"], list)


def test_deep_and_large_pages_do_not_crash():
    deep = Page("<body>" + "<div>" * 3000 + "deep text" + "</div>" * 3000 + "</body>")
    assert c.extract(deep, c.Params()).status in {"ok", "empty"}
    wide = Page("<body>" + "<div><p>some words here</p></div>" * 20000 + "</body>")
    result = c.extract(wide, c.Params())
    assert result.status == "ok" and len(result.extra["site_observation"]["feature"]) == 20000


@pytest.mark.parametrize("values", [{"sim_threshold": 1.5}, {"alpha": -1}, {"block_tags": ()},
                                    {"min_class_size": -1}, {"unknown": 1}])
def test_wrong_params_are_refused(values):
    with pytest.raises(ValidationError):
        c.Params(**values)


def test_extract_does_not_change_the_shared_tree():
    page = site_pages()["news7"]
    before = etree.tostring(page.tree)
    model = c.fit([site_pages()[f"news{i}"] for i in range(7)], c.Params())
    c.extract(page, c.Params(), model)
    assert etree.tostring(page.tree) == before


def test_registry_contract():
    from blocksift import algorithms

    module = algorithms.load("clustering")
    assert module.NAME == "clustering" and module.MODEL == "site"
    assert algorithms.make_params("clustering", {"alpha": 0.5}).alpha == 0.5
    defaults = c.Params()
    assert (defaults.sim_threshold, defaults.min_class_size, defaults.alpha) == (0.82, 5, 0.3)
    assert defaults.block_tags == ("div", "table")


def test_blocks_inside_noscript_and_template_hold_no_text():
    page = Page("<body><noscript><div>Please turn on JavaScript</div></noscript>"
                "<div><p>real words here</p></div></body>")
    scores = dict(c.block_scores(page))
    assert scores["body1/noscript1/div1"] == 0.0 and scores["body1/div1"] > 0


# -- CLI and site-split evaluation -------------------------------------------------------------


def _cluster_args(argv: list[str]):
    import argparse

    from blocksift.cli import cmd_cluster

    parser = argparse.ArgumentParser(prog="blocksift")
    cmd_cluster.add_parser(parser.add_subparsers())
    return cmd_cluster, parser.parse_args(["cluster", *argv])


def test_cluster_command_prints_classes_and_rules(capsys):
    module, args = _cluster_args([*map(str, sorted(SITE.glob("*.html"))), "--json"])
    assert module.run(args) == 0
    report = json.loads(capsys.readouterr().out)
    [site] = report["sites"]
    assert site["pages"] == 9 and site["unclassed"] == 1  # the table page is alone
    [cls] = site["classes"]
    assert cls["size"] == 8 and cls["rule"]["element_id"] == "story"
    module, args = _cluster_args([str(SITE / "news0.html"), "--param", "min_class_size=0"])
    assert module.run(args) == 0
    shown = capsys.readouterr().out
    assert "1 page, 1 class," in shown and "class 0: 1 page;" in shown


@pytest.mark.parametrize("argv", [[], ["--param", "alpha=-1", "x.html"], ["missing.html"],
                                  ["--dataset", "no-such-dataset"]])
def test_cluster_command_refuses_bad_input(argv, capsys):
    module, args = _cluster_args(argv)
    assert module.run(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("blocksift: error:") and err.count("\n") == 1, err


def _news_dataset(tmp_path: Path) -> Path:
    import importlib.util

    from blocksift.content import plain_text

    spec = importlib.util.spec_from_file_location("make_site", SITE.parent / "make_site.py")
    make_site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_site)
    rng = __import__("random").Random(7)
    rows = []
    for i in range(20):
        short = i % 3 == 2  # every third page: short article, long comments
        html = make_site.news_page(i, rng, 0 if short else 4, 12 if short else 2,
                                   4 if short else 1)
        gold = plain_text(Page(html).tree.xpath("//div[@id='story']"))
        rows.append({"id": f"news-{i:02d}", "html": html, "gold": gold,
                     "url": f"https://news.example/{i}", "site": "news.example"})
    path = tmp_path / "news.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", "utf-8")
    return path


def _eval_args(dataset: str, **overrides):
    from argparse import Namespace

    values = {"datasets": [dataset], "algo": "clustering", "params": {}, "json": True,
              "limit": None, "out": None, "sweep": False, "cv": "none", "folds": 10,
              "phi_sweep": False, "train_fraction": 0.5, "progress": False}
    values.update(overrides)
    return Namespace(**values)


def test_sitesplit_shows_clustering_fixing_the_short_articles(tmp_path, capsys):
    from blocksift.evaluation import sitesplit

    dataset = _news_dataset(tmp_path)
    assert sitesplit.run(_eval_args(str(dataset), out=tmp_path / "out")) == 0
    report = json.loads(capsys.readouterr().out)
    [site] = report["sites"]
    assert (site["train"], site["test"], site["classes"]) == (10, 10, 1)
    test_ids = sorted((f"news-{i:02d}" for i in range(20)), key=sitesplit.split_key)[10:]
    assert any(int(page_id[-2:]) % 3 == 2 for page_id in test_ids)  # short pages are tested
    without, with_ = site["without_clustering"], site["with_clustering"]
    assert with_["f1"] == pytest.approx(1.0)
    assert without["f1"] < with_["f1"] and without["accuracy"] < 1.0
    assert with_["stages"] == {"class_rule:id": 10}
    assert report["clustering_all_pages"]["purity"] == 1.0
    assert (tmp_path / "out" / "clustering-sitesplit-news.jsonl.csv").exists()
    assert sitesplit.run(_eval_args(str(dataset), json=False)) == 0
    assert "with clustering (Table 2)" in capsys.readouterr().out


@pytest.mark.parametrize("overrides", [{"params": {"alpha": "x"}}, {"train_fraction": 1.0},
                                       {"datasets": ["no-such-dataset"]}])
def test_sitesplit_refuses_bad_input(tmp_path, overrides, capsys):
    from blocksift.evaluation import sitesplit

    args = _eval_args(str(_news_dataset(tmp_path)), **overrides)
    assert sitesplit.run(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("blocksift: error:") and err.count("\n") == 1, err


def test_benchmark_extract_with_a_class(benchmark):
    """``pytest tests/algorithms --benchmark-enable -k benchmark``: ms per extraction."""
    pages = site_pages()
    model = c.fit([pages[f"news{i}"] for i in range(7)], c.Params())
    html = (SITE / "news7.html").read_text("utf-8")
    result = benchmark(lambda: c.extract(Page(html), c.Params(), model))  # parse included
    assert result.stage == "class_rule:id"


def test_purity_counts_each_class_by_its_majority_site():
    from blocksift.evaluation.datasets import LabeledPage
    from blocksift.evaluation.sitesplit import purity

    news = [(SITE / f"news{i}.html").read_text("utf-8") for i in range(7)]
    labeled = [LabeledPage(f"a{i}", html, "", site="a.example") for i, html in enumerate(news)]
    labeled += [LabeledPage(f"b{i}", html, "", site="b.example") for i, html in enumerate(news)]
    labeled.append(LabeledPage("x", news[0], ""))  # no site: left out
    report = purity(labeled, c.Params())
    assert (report["classes"], report["classed_pages"]) == (1, 14)
    assert report["purity"] == 0.5 and report["unlabeled_pages_left_out"] == 1
