"""The crawl extractor skips what a crawl output drops (reader HTML, reasons), never the text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blocksift import crawl
from blocksift.algorithms import auto, linkblocks
from blocksift.page import Page

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "source.html").exists())


@pytest.mark.parametrize("case", CASES)
def test_text_only_gives_the_full_extractions_title_and_text(case: str):
    html = (GOLDEN / case / "source.html").read_text(encoding="utf-8")
    full = auto.extract(Page(html), auto.Params()).main
    lean = crawl.PageExtractor("auto")(html)
    assert (lean["title"], lean["text"]) == (full.title, full.text)
    assert full.html  # the full run did render the HTML the crawl run skips


def test_text_only_settings_yield_to_what_the_caller_sets():
    assert crawl.text_only_params("auto", {}) == {"with_html": False, "reasons": 0}
    assert crawl.text_only_params("auto", {"with_html": True}) == {"with_html": True,
                                                                  "reasons": 0}
    # an algorithm without those fields gets none of them (its params would refuse them)
    absent = set(crawl.TEXT_ONLY) - set(linkblocks.Params.model_fields)
    assert set(crawl.text_only_params("linkblocks", {})) == set(crawl.TEXT_ONLY) - absent
    linkblocks.Params.model_validate(crawl.text_only_params("linkblocks", {}))


def test_a_crawl_job_skips_the_metadata_it_would_drop_and_keeps_the_text():
    from blocksift.service.worker import Job, run_job

    html = (GOLDEN / "news-landmarks" / "source.html").read_text(encoding="utf-8")

    def main_of(**options) -> dict:
        outcome = run_job(Job(algorithm="auto", params={}, html=html, url=None, want=["main"],
                              id_attr="data-bsid", **options))
        assert outcome.ok
        return json.loads(outcome.result_json)["main"]

    full, crawl_main = main_of(), main_of(metadata=False)
    assert full["metadata"]["title"] and crawl_main.get("metadata") is None
    assert (crawl_main["text"], crawl_main["title"]) == (full["text"], full["title"])


def test_the_crawl_extractor_takes_the_fast_model_by_name():
    html = (GOLDEN / "news-landmarks" / "source.html").read_text(encoding="utf-8")
    fast = auto.extract(Page(html), auto.Params(), auto.load_model("fast")).main
    lean = crawl.PageExtractor("auto", model_path="fast")(html)
    assert lean["text"] == fast.text and lean["text"]
    with pytest.raises(crawl.ExtractorConfigError, match="model file not found: quick"):
        crawl.PageExtractor("auto", model_path="quick")


@pytest.mark.parametrize("case", CASES)
def test_the_lite_model_reads_the_text_without_the_tag_scan_and_loses_nothing(case: str):
    html = (GOLDEN / case / "source.html").read_text(encoding="utf-8")
    full = auto.extract(Page(html), auto.Params(), auto.load_model("lite")).main
    extractor = crawl.PageExtractor("auto", model_path="lite")
    lean = extractor(html)
    assert extractor._spans is False  # parsed as it is: no scan, no stamps
    assert (lean["title"], lean["text"]) == (full.title, full.text)


def test_batch_warc_jobs_with_the_lite_model_take_the_same_parse():
    from blocksift.service.worker import Job, run_job

    html = (GOLDEN / "news-landmarks" / "source.html").read_text(encoding="utf-8")

    def result_of(**options) -> dict:
        outcome = run_job(Job(algorithm="auto", params=crawl.text_only_params("auto", {}),
                              html=html, url=None, want=["main"], id_attr="data-bsid",
                              model_path="lite", **options))
        assert outcome.ok
        return json.loads(outcome.result_json)

    crawl_line, with_metadata = result_of(metadata=False), result_of()
    # a crawl line's job parses without spans (so it has no blocks); one that fills the
    # metadata keeps them, and both read the same text
    assert crawl_line["blocks"] == [] and with_metadata["blocks"]
    assert crawl_line["main"]["text"] == with_metadata["main"]["text"]
    assert crawl_line["main"]["text"] == crawl.PageExtractor("auto", model_path="lite")(html)["text"]
