"""Lengthened training pages (auto_training.lengthen): long documents for the segmenter."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
from lxml import html as lxml_html

from blocksift import auto_training as at
from blocksift.rawscan import STAMP_ATTR

SENTENCES = [
    "The river rose three metres overnight.", "Farmers moved their cattle to higher ground.",
    "Officials said the dam held, though engineers kept watch.",
    "Schools in the valley stayed closed on Tuesday.", "Rain is expected to ease by Friday.",
    "Volunteers filled sandbags outside the town hall.",
    "The last flood of this size came in 1987.", "Insurance claims have already begun.",
]
PARAGRAPHS = [" ".join(SENTENCES[i:i + 2]) for i in range(0, 8, 2)]
MENU = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(8))
HTML = (f"<html><head><title>Flood</title></head><body><nav><ul>{MENU}</ul></nav>"
        "<article><h1>Valley floods after a week of rain</h1>"
        + "".join(f"<p class='body'>{p}</p>" for p in PARAGRAPHS)
        + "</article><footer><p>Contact us. Privacy policy. Terms of use.</p></footer>"
        "</body></html>")
RECORD = {"id": "flood", "url": "https://news.example/flood", "html": HTML,
          "gold": "Valley floods after a week of rain\n\n" + "\n\n".join(PARAGRAPHS)}


def test_lengthen_adds_main_paragraphs_of_the_pages_own_sentences_after_the_article():
    made = at.lengthen(RECORD, 30, np.random.default_rng(7))
    assert made is not None and len(made.added) == 30
    tree = lxml_html.document_fromstring(made.record["html"])
    article = tree.find(".//article")
    paragraphs = article.findall("p")
    assert len(paragraphs) == 4 + 30
    assert [p.text for p in paragraphs[:4]] == PARAGRAPHS  # the page's own text stays first
    for p, text in zip(paragraphs[4:], made.added):
        assert p.text == text and p.get("class") == "body"
        parts = re.split(r"(?<=\.) ", text)
        assert 1 <= len(parts) <= 2 and all(part in SENTENCES for part in parts)
    assert len(tree.find(".//nav").findall(".//a")) == 8  # nothing else changed
    assert "Privacy policy" in tree.find(".//footer").text_content()
    assert STAMP_ATTR not in made.record["html"]  # the host's stamps are not page markup
    assert made.record["gold"].startswith(RECORD["gold"])
    assert made.record["gold"].endswith(made.added[-1])
    assert RECORD["html"] == HTML  # the record given is left alone


def test_a_lengthened_sample_labels_the_added_paragraphs_main_and_keeps_the_others():
    original = at.make_sample(RECORD, "made-up")
    sample = at.lengthened_sample(RECORD, "made-up", 12, np.random.default_rng(1))
    assert sample is not None and sample.lengthened and sample.page_id == "flood#long12"
    assert sample.group == original.group  # same domain: never split across CV folds
    added = len(sample.texts) - len(original.texts)
    assert added == 12
    last_main = max(i for i, t in enumerate(original.texts) if t == PARAGRAPHS[-1])
    start = last_main + 1
    np.testing.assert_array_equal(sample.share[:start], original.share[:start])
    assert (sample.share[start:start + added] == 1.0).all()
    np.testing.assert_array_equal(sample.share[start + added:], original.share[start:])
    assert original.share[0] == 0.0 and original.share[last_main] == 1.0  # menu / article


def test_a_page_without_a_run_of_main_paragraphs_is_not_lengthened():
    record = dict(RECORD, gold="Section 1 Section 2")  # the gold is the menu: no main <p>
    assert at.lengthen(record, 20, np.random.default_rng(0)) is None
    short = dict(RECORD, html=HTML.replace("".join(f"<p class='body'>{p}</p>"
                                                   for p in PARAGRAPHS[1:]), ""))
    assert at.lengthen(short, 20, np.random.default_rng(0)) is None  # one paragraph only


def test_training_picks_pages_by_seed_and_id_alone():
    assert at.training_lengthened(RECORD, "made-up", seed=0, share=0.0) is None
    one = at.training_lengthened(RECORD, "made-up", seed=4, share=1.0)
    again = at.training_lengthened(RECORD, "made-up", seed=4, share=1.0)
    assert one is not None and again is not None
    assert one.texts == again.texts and one.page_id == again.page_id
    low, high = at.LENGTHEN_PARAGRAPHS
    assert low <= len(one.texts) - len(at.make_sample(RECORD, "made-up").texts) <= high
    picked = [at.training_lengthened(dict(RECORD, id=str(i)), "made-up", 0, 0.25) is not None
              for i in range(200)]
    assert 20 <= sum(picked) <= 80  # about a quarter of the pages


def test_train_auto_refuses_a_share_outside_zero_to_one(tmp_path):
    pages = tmp_path / "pages.jsonl"
    pages.write_text('{"id": "1", "html": "<p>x</p>", "gold": "x"}\n')
    done = subprocess.run([sys.executable, "-m", "blocksift", "train", "auto", "--dataset",
                           str(pages), "--lengthen", "1.5", "--out", str(tmp_path / "m.npz")],
                          capture_output=True, text=True, check=False)
    if "needs the 'train' extra" in done.stderr:
        assert done.returncode == 2  # refused before the share is read
        return
    assert done.returncode == 2
    assert "--lengthen takes a share between 0 and 1" in done.stderr
    assert "Traceback" not in done.stderr


def test_train_auto_refuses_json_output_it_cannot_give(tmp_path):
    pages = tmp_path / "pages.jsonl"
    pages.write_text('{"id": "1", "html": "<p>x</p>", "gold": "x"}\n')
    done = subprocess.run([sys.executable, "-m", "blocksift", "train", "auto", "--dataset",
                           str(pages), "--json", "--out", str(tmp_path / "m.npz")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    if "needs the 'train' extra" not in done.stderr:
        assert "--json is for farsw" in done.stderr
    assert not (tmp_path / "m.npz").exists()
