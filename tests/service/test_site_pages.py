"""A reader job on a site the user labeled says how many of its pages adapted ``auto``."""

from __future__ import annotations

import json
from pathlib import Path

from blocksift.algorithms.segmenter import adapt
from blocksift.page import DEFAULT_ID_ATTR, Page
from blocksift.service.worker import Job, run_job


def _site_page(n: int) -> tuple[str, str]:
    story = [f"Item {n} report paragraph {k} tells what happened on day {n} at the mill."
             for k in range(4)]
    links = "".join(f"<li><a href='/t/{k}'>Topic {k}</a></li>" for k in range(8))
    html = ("<html><body><div class='top'><ul>" + links + "</ul></div>"
            "<div class='grid'><div class='cell-x'>"
            + "".join(f"<span class='ln'>{s}</span><br>" for s in story)
            + "</div><div class='cell-y'><div class='promo'>Subscribe today for the full "
            "archive of reports and more, with our weekly letter.</div></div></div>"
            f"<div class='foot'>Mill Times {n} · contact · privacy</div></body></html>")
    return html, " ".join(story)


def _reader_job(url: str) -> dict:
    html, _gold = _site_page(9)
    outcome = run_job(Job(algorithm="auto", params={}, html=html, url=url,
                          want=["main", "blocks"], id_attr=DEFAULT_ID_ATTR, action="reader"))
    assert outcome.ok, outcome.error_message
    return json.loads(outcome.result_json)


def test_the_result_says_how_many_labeled_pages_adapted_it(blocksift_home: Path) -> None:
    url = "https://mill.example/report/{}"
    prior = adapt.learn("mill.example", [(Page(_site_page(n)[0], url=url.format(n)),
                                          _site_page(n)[1]) for n in range(5)])
    adapt.save(prior)
    result = _reader_job(url.format(9))
    assert result["stage"] == "site"
    assert result["stats"]["site_pages"] == 5
    assert result["stats"]["site_examples"] == 0  # a dataset's pages, none the user's
    # a site the user never labeled: no such figure
    other = _reader_job("https://other.example/report/9")
    assert other["stage"] != "site" and "site_pages" not in other["stats"]
    assert "site_examples" not in other["stats"]


def test_the_result_says_how_many_of_them_the_user_labeled(blocksift_home: Path) -> None:
    # saved examples (as the browser's Save counts them) beside a dataset's pages
    url = "https://mill.example/report/{}"
    adapt.save(adapt.learn("mill.example", [(Page(_site_page(n)[0], url=url.format(n)),
                                             _site_page(n)[1]) for n in range(3)]))
    for n in (3, 4):
        adapt.add_example(*_site_page(n), url.format(n))
    stats = _reader_job(url.format(9))["stats"]
    assert (stats["site_pages"], stats["site_examples"]) == (5, 2)
    # a site file from before the count: how many are the user's is not said (the extension
    # then reads the saved examples), the adaptation goes on as before
    site_file = adapt.sites_dir() / "mill.example.json"
    data = json.loads(site_file.read_text())
    del data["examples"]
    site_file.write_text(json.dumps(data))
    result = _reader_job(url.format(9))
    assert result["stage"] == "site" and result["stats"]["site_pages"] == 5
    assert "site_examples" not in result["stats"]
