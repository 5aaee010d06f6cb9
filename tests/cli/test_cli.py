"""The command line, run as a user runs it: a real process on bundled pages."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import DATASET, EXAMPLE, REPO, blocksift

from blocksift.cli.main import COMMANDS


def test_algorithms_lists_params_with_defaults():
    done = blocksift("algorithms", "--json")
    assert done.returncode == 0, done.stderr
    listed = {entry["name"]: entry for entry in json.loads(done.stdout)}
    assert "linkblocks" in listed
    properties = listed["linkblocks"]["params"]["properties"]
    assert properties and all("default" in spec for spec in properties.values())
    text = blocksift("algorithms").stdout
    assert "linkblocks" in text and "--param" in text


def test_schema_covers_every_message_and_error_code():
    schema = json.loads(blocksift("schema").stdout)
    text = json.dumps(schema)
    for name in ("HelloRequest", "ExtractRequest", "CancelRequest", "ResultReply",
                 "ErrorReply", "ChunkReply"):
        assert name in text
    assert schema["errorCodes"]["frame_too_large"] == 1002


def test_extract_text_json_and_markdown_on_the_bundled_page():
    text = blocksift("extract", str(EXAMPLE))
    assert text.returncode == 0, text.stderr
    assert "Gull Point" in text.stdout
    assert "Subscribe" not in text.stdout  # the navigation is not main text
    data = json.loads(blocksift("extract", str(EXAMPLE), "--format", "json").stdout)
    html = EXAMPLE.read_text(encoding="utf-8")
    assert data["blocks"]
    for block in data["blocks"]:
        assert 0 <= block["start"] < block["end"] <= len(html)
        assert block["xpaths"] or block["kind"] == "links"
    markdown = blocksift("extract", str(EXAMPLE), "--format", "markdown").stdout
    assert markdown.startswith("# ")


def test_extract_reads_stdin():
    done = blocksift("extract", "-", stdin=EXAMPLE.read_text(encoding="utf-8"))
    assert done.returncode == 0 and "Gull Point" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["extract", "no-such-file.html"], "cannot read no-such-file.html: No such file or "
     "directory\n"),
    # a URL typed without its scheme was only 'No such file or directory'
    (["extract", "www.example.com"], "cannot read www.example.com: No such file or directory; "
     "for a web page give its URL with https://\n"),
    (["extract", "example.org/news/today"], "for a web page give its URL with https://\n"),
    (["extract", "ftp://example.org/page.html"], "cannot fetch ftp://example.org/page.html: "
     "only http:// and https:// URLs are fetched\n"),
    (["extract", "http://[::1/page"], "not a valid URL"),  # once an internal error
    # "nan" passed a `<= 0` check (every page then timed out), "inf" overflowed a timer
    (["extract", str(EXAMPLE), "--timeout", "nan"], "must be a number of seconds"),
    (["extract", str(EXAMPLE), "--timeout", "inf"], "must be a number of seconds"),
    (["batch", "--timeout", "nan"], "must be a number of seconds"),
    (["serve", "--idle-timeout", "nan"], "must be a number of seconds"),
    (["native", "--timeout", "-1"], "must be a number of seconds"),  # the browser's fast path
    # each worker is a process holding a model: "-j 100000" would start them all at once
    (["batch", "-j", "100000"], "four per core"),
    (["serve", "--workers", "0"], "must be 1 to"),
    (["native", "--workers", "100000"], "four per core"),
    # "--rounds -3" and "--stack-folds 1" reached LightGBM and scikit-learn: internal errors
    (["train", "auto", "--dataset", str(DATASET), "--rounds", "-3"], "must be at least 1"),
    (["train", "auto", "--dataset", str(DATASET), "--stack-folds", "1"], "blocksift: error: "
     "--stack-folds takes 0"),
    (["eval", "--dataset", str(DATASET), "--limit", "-5"], "must be at least 1"),
    # auto's training options were taken by farsw and ignored: the rules came out the same
    (["train", "farsw", "--dataset", str(DATASET), "--rounds", "5", "--seed", "3"],
     "blocksift: error: train farsw takes no --seed, --rounds (auto's trees only"),
    (["train", "farsw", "--dataset", str(DATASET), "--without", "rules"],
     "train farsw takes no --without"),
    # both were ignored without a word: the run scored with 0.5, or printed the table only
    (["eval", "--dataset", str(DATASET), "--algo", "clustering", "--train-fraction", "7"],
     "argument --train-fraction: must be above 0 and below 1, got '7'"),
    (["eval", "--dataset", str(DATASET), "--train-fraction", "half"],
     "argument --train-fraction: must be above 0 and below 1, got 'half'"),
    (["eval", "--dataset", str(DATASET), "--per-page"], "--per-page goes with --json"),
    # taken and ignored where they do not apply: the figures came out as without them
    (["eval", "--dataset", str(DATASET), "--folds", "3"], "blocksift: error: --folds splits "
     "each site's pages for --cv intra (farsw) or the sites for --action hide --cv inter; "
     "auto runs no cross-validation\n"),
    (["eval", "--dataset", str(DATASET), "--algo", "farsw", "--cv", "inter", "--folds", "3"],
     "--cv inter leaves out one site at a time\n"),
    (["eval", "--dataset", str(DATASET), "--algo", "farsw", "--folds", "3"], "add --cv intra"),
    (["eval", "--dataset", str(DATASET), "--algo", "farsw", "--cv", "intra",
      "--train-fraction", "0.3"], "blocksift: error: --train-fraction is the share of each "
     "site's pages a site-learned algorithm (clustering) learns on; farsw does not learn per "
     "site\n"),
    (["eval", "--dataset", str(DATASET), "--action", "hide", "--train-fraction", "0.3"],
     "--action hide takes no --train-fraction"),
    (["eval", "--dataset", str(DATASET), "--action", "hide", "--folds", "3"],
     "--folds goes with --cv inter"),
    # hide's --cv intra ran as inter, and --folds 20 ran 10 folds
    (["eval", "--dataset", str(DATASET), "--action", "hide", "--cv", "intra"],
     "--action hide cross-validates its thresholds across sites only: --cv inter\n"),
    (["eval", "--dataset", str(DATASET), "--action", "hide", "--cv", "inter", "--folds", "20"],
     "--action hide --cv inter takes --folds 2 to 10; got 20\n"),
    # an experiment of another algorithm printed the plain table, as if it had been run
    (["eval", "--dataset", str(DATASET), "--algo", "linkblocks", "--cv", "inter"],
     "--cv cross-validates what an algorithm learns from the pages (farsw; with --action "
     "hide, hide's thresholds); linkblocks learns nothing from them\n"),
    (["eval", "--dataset", str(DATASET), "--algo", "linkblocks", "--phi-sweep"],
     "--phi-sweep is farsw's sliding-window experiment; got --algo linkblocks\n"),
    (["eval", "--dataset", str(DATASET), "--action", "hide", "--sweep"],
     "--action hide takes no --sweep"),
    (["eval", "--dataset", str(DATASET), "--algo", "auto", "--sweep"],  # had no "error:"
     "blocksift: error: --sweep is the linkblocks experiment"),
    (["extract", "http://a b/page"], "cannot fetch"),  # http.client's own error, not an OSError
    (["extract", str(EXAMPLE), "--algo", "nonesuch"], "unknown algorithm"),
    (["extract", str(EXAMPLE), "--param", "bogus=1"], "unknown parameter"),
    # an option the command does not have pointed at `blocksift --help`, not the command's
    (["serve", "--param", "x=1"], "blocksift serve: error: unrecognized arguments: --param "
     "x=1 (see `blocksift serve --help`)\n"),
    (["examples", "list", "--bogus"], "blocksift examples list: error: unrecognized "
     "arguments: --bogus (see `blocksift examples list --help`)\n"),
    (["extract", str(EXAMPLE), "--param", "novalue"], "key=value"),
    # read as floats by pydantic: nan was 'should be less than or equal to 1' for auto's
    # threshold, and farsw's score_cutoff, which has no bound, took it
    (["extract", str(EXAMPLE), "--param", "threshold=nan"],
     "blocksift: error: --param threshold=nan: not a finite number\n"),
    (["extract", str(EXAMPLE), "--algo", "farsw", "--param", "score_cutoff=1e999"],
     "blocksift: error: --param score_cutoff=1e999: not a finite number\n"),
    # a rule between two params is named as one, in words, without pydantic's prefix
    (["extract", str(EXAMPLE), "--param", "expected_f1_floor=0.6", "--param",
      "expected_f1_cap=0.4"],
     "invalid params for auto: params: expected_f1_floor must not exceed expected_f1_cap\n"),
])
def test_usage_errors_are_clear(args, message):
    done = blocksift(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize("args, message", [
    # pydantic's "Extra inputs are not permitted" named neither the word nor what is known
    (["extract", str(EXAMPLE), "--algo", "linkblocks", "--param", "C_T=3"],
     "unknown parameter 'C_T' for linkblocks (did you mean c_t?); its parameters: distance, "
     "d_t, c_t, "),
    (["extract", str(EXAMPLE), "--algo", "linkblocks", "--param", "C_T=3", "--param", "dt=2"],
     "unknown parameters for linkblocks: 'C_T' (did you mean c_t?), 'dt' (did you mean d_t?); "
     "its parameters: "),
    (["batch", "--algo", "linkblocks", "--param", "distanse=code"],
     "unknown parameter 'distanse' for linkblocks (did you mean distance?)"),
    (["extract", str(EXAMPLE), "--param", "bogus=1"],
     "unknown parameter 'bogus' for auto; its parameters: threshold, "),
    (["train", "farsw", "--dataset", str(DATASET), "--param", "supprt=0.1"],
     "unknown parameter 'supprt' for farsw (did you mean support?)"),
    (["cluster", "--dataset", str(DATASET), "--param", "sim=0.9"],
     "unknown parameter 'sim' for clustering; its parameters: sim_threshold, "),
    # eval said only "invalid params: Extra inputs are not permitted", not even which one
    (["eval", "--dataset", str(DATASET), "--algo", "linkblocks", "--param", "C_T=3"],
     "unknown parameter 'C_T' for linkblocks (did you mean c_t?)"),
    (["eval", "--dataset", str(DATASET), "--algo", "linkblocks", "--param", "c_t=many"],
     "invalid params for linkblocks: c_t: Input should be a valid integer"),
    # the hide evaluation runs each algorithm as the host does for hide: a --param was ignored
    (["eval", "--dataset", str(DATASET), "--action", "hide", "--param", "c_t=3"],
     "--action hide takes no --param"),
])
def test_param_errors_name_the_word_and_the_known_ones(args, message, tmp_path):
    done = blocksift(*args, home=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_damaged_dataset_is_a_one_line_error_for_every_command_that_reads_one(tmp_path):
    cut = tmp_path / "cut.jsonl.gz"
    rows = "".join(json.dumps({"id": str(n), "html": "<p>x</p>", "gold": "x"}) + "\n"
                   for n in range(3000))
    cut.write_bytes(gzip.compress(rows.encode())[:4000])
    for args in (["eval", "--dataset", str(cut)], ["eval", "--dataset", str(cut), "--action",
                 "hide"], ["cluster", "--dataset", str(cut)],
                 ["train", "farsw", "--dataset", str(cut), "--out", str(tmp_path / "m.json")]):
        done = blocksift(*args, home=tmp_path / "home")
        assert done.returncode == 2, (args, done.stderr)
        assert "cut short after line" in done.stderr and "internal error" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_batch_keeps_order_and_survives_bad_lines():
    lines = [
        json.dumps({"id": "a", "html": EXAMPLE.read_text(encoding="utf-8"),
                    "url": "https://gazette.example/x"}),
        "this is not json",
        json.dumps({"id": "c", "html": "<p>short page</p>"}),
        json.dumps({"id": "d"}),
    ]
    for jobs in ("1", "2"):
        done = blocksift("batch", "--jobs", jobs, "--no-progress", stdin="\n".join(lines) + "\n")
        assert done.returncode == 0, done.stderr
        out = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(out) == 4
        assert out[0]["id"] == "a" and "Gull Point" in out[0]["text"] and out[0]["ms"] >= 0
        assert set(out[0]) >= {"id", "text", "title", "blocks", "ms"}
        assert "error" in out[1] and "error" in out[3]
        assert out[2]["id"] == "c"


def test_batch_reads_a_file_named_as_it_reads_standard_input(tmp_path):
    import gzip

    lines = "".join(json.dumps({"id": n, "html": html}) + "\n" for n, html in enumerate(
        (EXAMPLE.read_text(encoding="utf-8"), "<p>short page</p>")))
    piped = blocksift("batch", "--jobs", "1", "--no-progress", stdin=lines)
    assert piped.returncode == 0, piped.stderr
    plain, packed = tmp_path / "pages.jsonl", tmp_path / "pages.jsonl.gz"
    plain.write_text(lines, encoding="utf-8")
    packed.write_bytes(gzip.compress(lines.encode()))
    strip = (lambda out: [{k: v for k, v in json.loads(line).items() if k != "ms"}  # noqa: E731
                          for line in out.splitlines()])
    for given in (plain, packed):
        done = blocksift("batch", str(given), "--jobs", "1", "--no-progress")
        assert done.returncode == 0, done.stderr
        assert strip(done.stdout) == strip(piped.stdout) and len(strip(done.stdout)) == 2
    # what it is instead, named, exit 2; never a traceback
    page = tmp_path / "page.html"
    page.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    for args, said in (((str(tmp_path / "none.jsonl"),), "none.jsonl: no such file"),
                       ((str(tmp_path),), "is a folder, not JSONL pages"),
                       ((str(page),), "page.html is an HTML page, not JSONL pages"),
                       ((str(plain), "--warc", str(plain)), "not both")):
        done = blocksift("batch", *args, "--no-progress")
        assert done.returncode == 2 and said in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_batch_skips_a_line_over_max_bytes_with_its_id_and_goes_on():
    long_page = "<p>" + "A sentence that goes on. " * 400 + "</p>"
    lines = [json.dumps({"id": "big", "html": long_page}),
             json.dumps({"id": "small", "html": "<p>short page</p>"}),
             json.dumps({"html": long_page, "id": "late-id"})]
    done = blocksift("batch", "--jobs", "1", "--no-progress", "--max-bytes", "2000",
                     stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["id"] for row in out] == ["big", "small", None]
    assert f"{len(lines[0])} bytes, over the 2000-byte limit" in out[0]["error"]
    assert "error" not in out[1] and "short page" in out[1]["text"]
    assert "over the 2000-byte limit" in out[2]["error"]
    refused = blocksift("batch", "--max-bytes", "0", stdin=lines[1] + "\n")
    assert refused.returncode == 2 and "must be at least 1" in refused.stderr


def test_eval_on_the_bundled_fixture_set():
    done = blocksift("eval", "--dataset", str(DATASET), "--algo", "linkblocks", "--json",
                     "--no-progress")
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)
    assert report["pages"] == 6 and report["failures"] == 0
    for key in ("precision", "recall", "f1", "mean_page_f1"):
        assert 0.0 <= report[key] <= 1.0
    assert report["median_ms"] > 0 and report["p95_ms"] >= report["median_ms"]
    table = blocksift("eval", "--dataset", str(DATASET), "--algo", "linkblocks",
                      "--no-progress")
    assert "F1" in table.stdout and "dataset" in table.stdout


def write_set(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


ARTICLE_HTML = ("<html><body><nav><a href='/'>Home</a> <a href='/b'>Blog</a></nav><article>"
                "<h1>Tides</h1><p>" + "The tide comes in twice a day along this coast. " * 8
                + "</p></article></body></html>")


def test_eval_reports_word_f1_per_page_type(tmp_path):
    rows = [{"id": f"p{n}", "html": ARTICLE_HTML, "gold": "Tides\n" + "The tide comes in "
             "twice a day along this coast. " * 8, "page_type": kind,
             "snippets_with": ["comes in twice a day"], "snippets_without": ["Home Blog"]}
            for n, kind in enumerate(["article", "article", "forum"])]
    dataset = write_set(tmp_path / "typed.jsonl", rows)
    done = blocksift("eval", "--dataset", str(dataset), "--algo", "auto", "--json",
                     "--per-page", "--no-progress")
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)
    per_page = [p["word_f1"] for p in report["per_page"]]
    assert report["word_f1"] == pytest.approx(sum(per_page) / 3, abs=1e-3)
    assert {k: v["pages"] for k, v in report["by_page_type"].items()} == {"article": 2,
                                                                          "forum": 1}
    assert report["snippets_with"] == 1.0 and report["snippets_without"] == 1.0
    table = blocksift("eval", "--dataset", str(dataset), "--algo", "auto", "--no-progress")
    assert "wordF1" in table.stdout and "by page type" in table.stdout
    assert "forum" in table.stdout


def test_eval_without_gold_scores_snippets_and_says_so(tmp_path):
    """A set with snippets and no gold: snippets scored, text metrics not faked as 0."""
    dataset = write_set(tmp_path / "snips.jsonl", [
        {"id": "a", "html": ARTICLE_HTML, "with": ["comes in twice a day", "no such words"],
         "without": ["Home Blog"]}])
    done = blocksift("eval", "--dataset", str(dataset), "--algo", "auto", "--json",
                     "--no-progress")
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)
    assert report["f1"] is None and report["word_f1"] is None and report["gold_pages"] == 0
    assert report["snippets_with"] == 0.5 and report["snippets_without"] == 1.0
    assert "warning" in done.stderr and "no page has a `gold` text" in done.stderr
    table = blocksift("eval", "--dataset", str(dataset), "--algo", "auto", "--no-progress")
    assert table.returncode == 0 and "0.000" not in table.stdout


def test_eval_with_nothing_to_score_fails_clearly(tmp_path):
    dataset = write_set(tmp_path / "bare.jsonl", [{"id": "a", "html": ARTICLE_HTML}])
    done = blocksift("eval", "--dataset", str(dataset), "--algo", "auto", "--no-progress")
    assert done.returncode == 2 and done.stdout == ""
    assert "nothing to score" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_eval_reports_a_missing_dataset_clearly():
    done = blocksift("eval", "--dataset", "no/such/place", "--algo", "linkblocks")
    assert done.returncode == 2 and "no such dataset" in done.stderr


def test_every_listed_command_runs_through_the_main_entry_point(tmp_path):
    """Each subcommand is reachable as users type it (not only its module's run())."""
    cluster = blocksift("cluster", "--dataset", str(DATASET), "--json", home=tmp_path)
    assert cluster.returncode == 0, cluster.stderr
    assert json.loads(cluster.stdout)
    model = tmp_path / "farsw.json"
    train = blocksift("train", "farsw", "--dataset", str(DATASET), "--out", str(model),
                      "--no-progress", home=tmp_path)
    assert train.returncode == 0, train.stderr
    assert json.loads(model.read_text())["ruleset"]["rules"]
    assert "rule:" in train.stdout
    examples = blocksift("examples", "list", home=tmp_path)
    assert examples.returncode == 0 and "no examples yet" in examples.stdout
    token = blocksift("serve", "--print-token", home=tmp_path)
    assert token.returncode == 0 and len(token.stdout.strip()) >= 40
    bad = blocksift("cluster", "--dataset", str(DATASET), "--param", "oops", home=tmp_path)
    assert bad.returncode == 2 and "key=value" in bad.stderr


def test_imported_examples_adapt_their_site_and_deleted_ones_stop(tmp_path):
    article = EXAMPLE.read_text(encoding="utf-8")
    records = [{"id": str(n), "url": f"https://news.example/{n}", "html": article,
                "gold": "The article's text."} for n in range(2)]
    dataset = tmp_path / "pages.jsonl.gz"
    with gzip.open(dataset, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in records)
    assert blocksift("examples", "import", str(dataset), home=tmp_path).returncode == 0
    site_file = tmp_path / "data" / "models" / "auto-sites" / "news.example.json"
    assert json.loads(site_file.read_text())["pages"] == 2
    listed = json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout)
    # an id given twice is deleted, and taken out of the site's counts, once
    first = str(listed[0]["exampleId"])
    done = blocksift("examples", "delete", first, first, home=tmp_path)
    assert done.returncode == 0 and "deleted 1 example(s)" in done.stdout, done.stderr
    assert json.loads(site_file.read_text())["pages"] == 1
    done = blocksift("examples", "delete", str(listed[1]["exampleId"]), home=tmp_path)
    assert done.returncode == 0 and not site_file.exists()

    # a site file that cannot be written: the import still stores, and says so once a site
    shutil.rmtree(tmp_path / "data" / "models" / "auto-sites")  # its lock files too
    (tmp_path / "data" / "models" / "auto-sites").write_text("not a folder")
    done = blocksift("examples", "import", str(dataset), "--no-progress", home=tmp_path)
    assert done.returncode == 0 and "imported 2 example(s)" in done.stderr
    assert done.stderr.count("auto's adaptation to news.example was not updated") == 1
    assert len(json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout)) == 2


def test_train_per_site_keeps_the_saved_examples_of_its_sites(tmp_path):
    """`train auto --per-site --dataset FILE` wrote each site's file from FILE's pages alone:
    the examples saved for the site stopped adapting it, and deleting one afterwards took
    counts it had never put in out of FILE's pages' (the last delete took the file). Now the
    file counts both, a page in both once, and a delete takes out what its example put in."""
    from blocksift.algorithms.segmenter import adapt
    from blocksift.page import Page

    article = EXAMPLE.read_text(encoding="utf-8")
    records = [json.loads(line) for line in (DATASET / "pages.jsonl").read_text().splitlines()]
    other = next(r for r in records if r["url"].startswith("https://gazette.example/"))
    saved = [{"id": str(n), "url": f"https://news.example/saved/{n}", "html": article,
              "gold": "The article's text." if n else ""} for n in range(2)]  # "": no main
    examples = tmp_path / "saved.jsonl"
    examples.write_text("".join(json.dumps(r) + "\n" for r in saved), encoding="utf-8")
    assert blocksift("examples", "import", str(examples), "--no-progress",
                     home=tmp_path).returncode == 0
    # FILE: two other pages of the site, and one the examples hold too (an export's)
    pages = [{"id": f"d{n}", "url": f"https://news.example/more/{n}", "html": other["html"],
              "gold": other["gold"]} for n in range(2)]
    pages.append({**saved[1], "gold": "not the saved label"})
    dataset = tmp_path / "pages.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in pages), encoding="utf-8")
    site_file = tmp_path / "data" / "models" / "auto-sites" / "news.example.json"
    counted = json.loads(site_file.read_text())["changes"]
    done = blocksift("train", "auto", "--per-site", "--dataset", str(dataset), "--no-progress",
                     home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "news.example: 4 pages (2 of them your saved examples)" in done.stdout
    # the changes counted in stay named: one replayed after a crash is not counted again
    assert json.loads(site_file.read_text())["changes"] == counted and len(counted) == 2

    def counts(items: list[dict]) -> dict:
        prior = adapt.learn("news.example", [(Page(r["html"], url=r["url"]), r["gold"])
                                             for r in items])
        return {"pages": prior.pages, "paths": prior.paths, "texts": prior.texts}

    stored = json.loads(site_file.read_text())
    assert {k: stored[k] for k in ("pages", "paths", "texts")} == counts(pages[:2] + saved)
    assert stored["examples"] == 2  # of the 4, the saved ones: the reader calls 2 the user's
    listed = json.loads(blocksift("examples", "list", "--json", home=tmp_path).stdout)
    for example in listed:
        assert blocksift("examples", "delete", str(example["exampleId"]),
                         home=tmp_path).returncode == 0
    stored = json.loads(site_file.read_text())
    assert {k: stored[k] for k in ("pages", "paths", "texts")} == counts(pages[:2])
    assert stored["examples"] == 0
    # import, train and delete each took the site file's lock: none is left beside it
    assert [p.name for p in site_file.parent.iterdir()] == [site_file.name]

    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = blocksift("train", "auto", "--per-site", "--dataset", str(empty), home=tmp_path)
    assert done.returncode == 2 and "empty.jsonl: no pages to learn from" in done.stderr, \
        done.stderr


#: Holds the lock of one site file (``argv[1]``) until a line comes on standard input.
LOCK_HOLDER = """
import pathlib, sys
sys.path.insert(0, {host!r})
from blocksift.algorithms.segmenter.adapt import site_lock
with site_lock(pathlib.Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_train_per_site_leaves_no_lock_files_but_another_process_s(tmp_path):
    """`train auto --per-site` left a `<site>.json.lock` beside every site's file (thousands
    on a large set), and one a failed run took: now none when it ends, done or failed, but
    a lock another process holds then (the host saving an example) stays, as its file. In a
    folder --out names, another program's lock file (of no site written) stays too."""
    sites = tmp_path / "sites"
    sites.mkdir()
    (sites / "notes.json.lock").write_bytes(b"")
    holder_script = tmp_path / "hold.py"
    holder_script.write_text(LOCK_HOLDER.format(host=str(REPO / "host")))
    holder = subprocess.Popen([sys.executable, str(holder_script), str(sites / "held.example.json")],
                              text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == "held\n"
        done = blocksift("train", "auto", "--per-site", "--min-site-pages", "1", "--dataset",
                         str(DATASET), "--no-progress", "--out", str(sites), home=tmp_path)
        assert done.returncode == 0, done.stderr
        written = sorted(p.name for p in sites.glob("*.json"))
        assert len(written) == 6 and "gazette.example.json" in written, written
        assert sorted(p.name for p in sites.iterdir()) == sorted(
            [*written, "held.example.json.lock", "notes.json.lock"])
    finally:
        holder.communicate("\n", timeout=60)
    assert holder.returncode == 0
    # failed part way: the fifth site's file cannot be written (a folder where its temporary
    # goes); the four before it are written, no lock is left, the folder is not taken
    failing = tmp_path / "failing"
    (failing / "dir.example.json.tmp").mkdir(parents=True)
    done = blocksift("train", "auto", "--per-site", "--min-site-pages", "1", "--dataset",
                     str(DATASET), "--no-progress", "--out", str(failing), home=tmp_path)
    assert done.returncode == 2 and "dir.example.json.tmp: Is a directory" in done.stderr, \
        done.stderr
    assert len(list(failing.glob("*.json"))) == 4
    assert sorted(p.name for p in failing.glob("*.lock")) == []
    assert (failing / "dir.example.json.tmp").is_dir()


def test_train_per_site_failing_part_way_says_how_many_sites_were_written(tmp_path):
    """A run that failed part way said only the error, not which sites were written before
    it (a Ctrl-C says "4 of 6 sites adapted"): now that line comes first, then the error,
    and no progress bar is drawn again under them."""
    from blocksift.sites import site_key

    sites = sorted({site_key(json.loads(line)["url"])
                    for line in (DATASET / "pages.jsonl").read_text().splitlines()})
    failing = tmp_path / "failing"
    # a folder where a site's temporary goes: its file cannot be written (as root too)
    (failing / f"{sites[-2]}.json.tmp").mkdir(parents=True)
    for progress in (["--no-progress"], []):
        done = blocksift("train", "auto", "--per-site", "--min-site-pages", "1", "--dataset",
                         str(DATASET), "--out", str(failing), *progress, home=tmp_path)
        written = len(list(failing.glob("*.json")))
        assert done.returncode == 2 and written == len(sites) - 2
        said = done.stderr.splitlines()
        assert said[-2:] == [
            f"blocksift: {written} of {len(sites)} sites adapted (in {failing}) before "
            f"{sites[-2]} failed; the others are as they were",
            f"blocksift: error: {failing / (sites[-2] + '.json.tmp')}: Is a directory"], said


def test_train_per_site_and_import_count_a_page_with_an_empty_gold_alike(tmp_path):
    """An empty gold is a label: "this page has no main text" (labeled.py; a saved example
    with nothing marked main is one). `examples import` counted such a record into its
    site's file and `train auto --per-site` skipped it ('an empty or missing "gold"'): the
    same file adapted the site two ways. Both count it now, every block of it not main; a
    record with no "gold" at all is no labeled page (import refuses the file, train skips
    it and says so)."""
    records = [json.loads(line) for line in (DATASET / "pages.jsonl").read_text().splitlines()]
    page = next(r for r in records if r["url"].startswith("https://gazette.example/"))
    pages = [{"id": "a", "url": "https://gazette.example/a", "html": page["html"],
              "gold": page["gold"]},
             {"id": "b", "url": "https://gazette.example/b", "html": page["html"], "gold": ""}]
    dataset = tmp_path / "pages.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in pages), encoding="utf-8")

    def site_file(home: Path) -> dict:
        path = home / "data" / "models" / "auto-sites" / "gazette.example.json"
        return json.loads(path.read_text())

    imported, trained = tmp_path / "imported", tmp_path / "trained"
    done = blocksift("examples", "import", str(dataset), "--no-progress", home=imported)
    assert done.returncode == 0 and "imported 2 example(s)" in done.stderr, done.stderr
    done = blocksift("train", "auto", "--per-site", "--dataset", str(dataset), "--no-progress",
                     home=trained)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("gazette.example: 2 pages -> "), done.stdout
    by_import, by_train = site_file(imported), site_file(trained)
    assert by_import["pages"] == by_train["pages"] == 2
    assert (by_import["paths"], by_import["texts"]) == (by_train["paths"], by_train["texts"])
    # whose they are differs: imported ones are the user's examples, a dataset's are not
    assert (by_import["examples"], by_train["examples"]) == (2, 0)
    # the empty label moved counts: every block of page b was counted as not main
    one = tmp_path / "one"
    dataset.write_text(json.dumps(pages[0]) + "\n", encoding="utf-8")
    assert blocksift("train", "auto", "--per-site", "--dataset", str(dataset), "--no-progress",
                     home=one).returncode == 0
    alone = site_file(one)
    assert alone["pages"] == 1 and any(
        by_train["paths"][path][1] > counts[1] and by_train["paths"][path][0] == counts[0]
        for path, counts in alone["paths"].items())
    # no "gold" at all: no label, skipped by train (said), refused by import
    dataset.write_text(json.dumps(pages[0]) + "\n"
                       + json.dumps({k: v for k, v in pages[1].items() if k != "gold"}) + "\n",
                       encoding="utf-8")
    done = blocksift("train", "auto", "--per-site", "--dataset", str(dataset), "--no-progress",
                     home=tmp_path / "missing")
    assert done.returncode == 0 and done.stdout.startswith("gazette.example: 1 page -> ")
    assert done.stderr.strip() == 'blocksift: skipped 1 page: no "gold" text (or no HTML)', \
        done.stderr
    done = blocksift("examples", "import", str(dataset), "--no-progress",
                     home=tmp_path / "missing-import")
    assert done.returncode != 0 and 'no "gold" text' in done.stderr, done.stderr


def test_extract_and_batch_action_hide_give_the_plan_the_extension_receives():
    done = blocksift("extract", str(EXAMPLE), "--action", "hide", "--format", "json")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["version"] == 1 and plan["pageKind"] == "article"
    assert plan["targets"] and all(t["xpath"] and t["reason"] and t["kind"] for t in plan["targets"])
    # auto returns the article's main regions: <main> itself or several regions inside it
    assert plan["mainXpaths"] and all(x == "/html/body/main" or x.startswith("/html/body/main/")
                                      for x in plan["mainXpaths"])
    assert not any(t["xpath"].startswith("/html/body/main") for t in plan["targets"])
    text = blocksift("extract", str(EXAMPLE), "--action", "hide").stdout
    assert "outside the main text" in text
    line = json.dumps({"id": "a", "html": EXAMPLE.read_text(encoding="utf-8")})
    batch = blocksift("batch", "--action", "hide", "-j", "1", stdin=line + "\n")
    assert batch.returncode == 0, batch.stderr
    # extract's plan adds the address it was made under (the page names none), as a batch
    # line says it beside "hide" (here: none)
    assert (plan.pop("url"), plan.pop("urlFrom"), plan.pop("repairs")) == (None, None, [])
    assert json.loads(batch.stdout)["hide"] == plan


def test_extract_action_hide_says_why_it_holds_back():
    """On a product page the host hides only ads, banners and the page's own frame; the
    text output says so and why."""
    shop = REPO / "tests" / "e2e" / "pages" / "hide" / "shop.html"
    plan = json.loads(blocksift("extract", str(shop), "--action", "hide", "--format",
                                "json").stdout)
    assert "product page" in plan["restraint"]
    # what the plan hides, read from its elements: the shop has no sidebar to hide
    assert plan["restrainedTo"] == ("ads, banners and the page's own header, footer and "
                                    "breadcrumbs")
    first = blocksift("extract", str(shop), "--action", "hide").stdout.splitlines()[0]
    assert first.endswith(f"(only {plan['restrainedTo']}: {plan['restraint']})"), first


def test_eval_action_hide_reports_kept_and_removed():
    done = blocksift("eval", "--action", "hide", "-d", str(DATASET), "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    rows = {row["hider"]: row for row in json.loads(done.stdout)["hide"]}
    assert set(rows) == {"linkblocks", "hide"}
    for row in rows.values():
        assert 0 <= row["gold_kept_mean"] <= 1 and 0 <= row["nongold_removed"] <= 1
        assert row["pages"] > 0


def test_an_input_past_the_page_limit_is_refused_not_read_to_the_end(tmp_path, monkeypatch):
    """/dev/zero, an endless pipe or a video named page.html was read until the memory ran
    out (`blocksift extract /dev/zero` never returned)."""
    from blocksift.cli import common

    monkeypatch.setattr(common, "MAX_INPUT_BYTES", 1000)
    big = tmp_path / "big.html"
    big.write_text("<p>" + "words " * 400 + "</p>", encoding="utf-8")
    with pytest.raises(common.CommandError, match="big.html is larger than"):
        common.read_source(str(big))
    small = tmp_path / "small.html"
    small.write_text("<p>a few words</p>", encoding="utf-8")
    assert "a few words" in common.read_source(str(small))[0]


@pytest.mark.parametrize("given", ["pages.jsonl", "."])
@pytest.mark.parametrize("action", ["extract", "hide"])
def test_eval_of_a_dataset_in_the_current_folder_is_named_after_it(tmp_path, given, action):
    """`cd mysite && blocksift eval --dataset pages.jsonl`: the set is 'mysite' in the table
    and the JSON; it was '' (the name of '.'), and an empty table column."""
    folder = tmp_path / "mysite"
    folder.mkdir()
    shutil.copy(DATASET / "pages.jsonl", folder / "pages.jsonl")
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(tmp_path / "home"))
    done = subprocess.run([sys.executable, "-m", "blocksift", "eval", "--dataset", given,
                           "--algo", "linkblocks", "--action", action, "--json"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=folder)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rows = report if isinstance(report, list) else report["hide"]
    assert {row["dataset"] for row in rows} == {"mysite"}, done.stdout[:500]


def test_train_farsw_json_prints_the_model_and_leaves_the_users_model_alone(tmp_path):
    """--json is 'print the model JSON instead of writing it': it wrote the user's model
    anyway, which the host then used instead of the packaged one."""
    home = tmp_path / "home"
    done = blocksift("train", "farsw", "--dataset", str(DATASET), "--json", home=home)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["algorithm"] == "farsw"
    assert not [path for path in home.rglob("*") if path.is_file()]
    out = tmp_path / "rules.json"  # asked for: written too
    done = blocksift("train", "farsw", "--dataset", str(DATASET), "--json", "--out", str(out),
                     home=home)
    assert done.returncode == 0 and json.loads(out.read_text()) == json.loads(done.stdout)


@pytest.mark.parametrize("algorithm, per_site", [("farsw", []), ("auto", []),
                                                 ("farsw", ["--per-site"])])
def test_train_to_a_folder_is_refused_before_training(tmp_path, algorithm, per_site):
    """`--out models/` (a folder): said '/…/models.tmp: Is a directory' once training was
    over; now before it, naming the folder. `farsw --per-site` writes one file too (its
    per-site rules are in it): only `auto --per-site` writes into a folder."""
    folder = tmp_path / "models"
    folder.mkdir()
    done = blocksift("train", algorithm, *per_site, "--dataset", str(DATASET), "--out",
                     str(folder), home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    example = folder / ("farsw.json" if algorithm == "farsw" else "auto-segmenter.npz")
    assert done.stderr == (f"blocksift: error: --out {folder} is a folder; give the model "
                           f"file's name, e.g. {example}\n")


@pytest.mark.parametrize("name", ["auto-segmenter.npz", "sites.json"])
def test_train_auto_per_site_takes_a_folder_not_a_model_file(tmp_path, name):
    """`train auto --per-site --out m.npz` made a folder named m.npz and wrote the sites'
    files into it: the name of a file is refused, before any page is read."""
    out = tmp_path / name
    done = blocksift("train", "auto", "--per-site", "--dataset", str(DATASET), "--out",
                     str(out), home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"blocksift: error: --out {out}: train auto --per-site writes one "
                           "file per site into a folder; give the folder's name\n")
    assert not out.exists()


def test_train_out_help_says_what_per_site_writes():
    text = " ".join(blocksift("train", "--help").stdout.split())
    assert "auto --per-site: the folder of the sites' files" in text, text


@pytest.mark.parametrize("command", [["train", "farsw"], ["train", "auto"], ["cluster"],
                                     ["eval"]])
def test_every_command_that_reads_a_dataset_takes_d(tmp_path, command):
    """`eval -d SET` works; `train farsw -d SET` said '--dataset is required' (with -d given)
    and `cluster -d SET` 'unrecognized arguments: -d'."""
    out = ["--out", str(tmp_path / "m.json")] if command == ["train", "farsw"] else []
    extra = ["--rounds", "2", "--stack-folds", "0", "--out", str(tmp_path / "m.npz")] \
        if command == ["train", "auto"] else []
    done = blocksift(*command, "-d", str(DATASET), *out, *extra, home=tmp_path / "home")
    assert done.returncode == 0, done.stderr


def test_train_auto_names_an_unknown_dataset_as_an_error(tmp_path):
    done = blocksift("train", "auto", "--dataset", "no-such-set", home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr.startswith("blocksift: error: no-such-set: no such dataset"), done.stderr


def test_examples_export_to_stdout_and_says_which_file_it_wrote(tmp_path):
    """`examples export -` wrote a folder named '-' holding pages.jsonl.gz; it is standard
    output, as `extract -` reads standard input. A folder given gets pages.jsonl.gz, and the
    message names that file (it named the folder)."""
    home = tmp_path / "home"
    assert blocksift("examples", "import", str(DATASET), home=home).returncode == 0
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(home))
    done = subprocess.run([sys.executable, "-m", "blocksift", "examples", "export", "-"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == 6 and all(row["html"] and "gold" in row for row in rows)
    assert not (tmp_path / "-").exists()
    assert done.stderr == "exported 6 example(s) to standard output\n"
    folder = tmp_path / "set"
    done = blocksift("examples", "export", str(folder), home=home)
    assert done.returncode == 0
    assert done.stderr == f"exported 6 example(s) to {folder / 'pages.jsonl.gz'}\n"
    assert len(gzip.decompress((folder / "pages.jsonl.gz").read_bytes()).splitlines()) == 6


@pytest.mark.parametrize("given", ["afile/pages.jsonl.gz", "afile/sub/new"])
def test_examples_export_under_a_file_names_the_file(tmp_path, given):
    """A file where a folder of the path goes was "afile: File exists"; new folders are made
    (``new/sub/x.jsonl.gz`` is written)."""
    home = tmp_path / "home"
    assert blocksift("examples", "import", str(DATASET), home=home).returncode == 0
    (tmp_path / "afile").write_text("a file")
    done = blocksift("examples", "export", str(tmp_path / given), home=home)
    target = tmp_path / given if given.endswith(".gz") else tmp_path / given / "pages.jsonl.gz"
    assert done.returncode == 2
    assert done.stderr == (f"blocksift: error: cannot write {target}: {tmp_path / 'afile'} "
                           "is a file, not a folder\n")
    done = blocksift("examples", "export", str(tmp_path / "new" / "sub" / "x.jsonl.gz"),
                     home=home)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "new" / "sub" / "x.jsonl.gz").is_file()


@pytest.mark.parametrize("given", ["out.jsonl", "out.jsonl.gz", "folder"])
def test_examples_export_refuses_to_replace_a_file_without_force(tmp_path, given):
    """`examples export PATH` wrote over a file there without a word (an earlier export was
    lost); now it is refused, naming the file and --force, the file left as it was, and
    --force replaces it whole (no temporary left beside it)."""
    home = tmp_path / "home"
    assert blocksift("examples", "import", str(DATASET), home=home).returncode == 0
    (tmp_path / "folder").mkdir()
    target = tmp_path / given if given != "folder" else tmp_path / given / "pages.jsonl.gz"
    target.write_bytes(b"an earlier export\n")
    done = blocksift("examples", "export", str(tmp_path / given), home=home)
    assert done.returncode == 2
    assert done.stderr == (f"blocksift: error: {target} exists; --force replaces it, or give "
                           "another file or folder to export to\n")
    assert target.read_bytes() == b"an earlier export\n"
    done = blocksift("examples", "export", str(tmp_path / given), "--force", home=home)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"exported 6 example(s) to {target}\n"
    data = target.read_bytes()
    rows = (gzip.decompress(data) if target.suffix == ".gz" else data).splitlines()
    assert len(rows) == 6 and all(json.loads(row)["html"] for row in rows)
    assert sorted(p.name for p in target.parent.iterdir() if p.name != "home") == \
        sorted(["folder", target.name] if given != "folder" else [target.name])


def test_examples_export_never_writes_over_the_examples_database(tmp_path):
    """`examples export <the database> --force` would have replaced the examples by their
    JSONL: refused, --force or not."""
    home = tmp_path / "home"
    assert blocksift("examples", "import", str(DATASET), home=home).returncode == 0
    database = home / "data" / "examples.sqlite3"
    done = blocksift("examples", "export", str(database), "--force", home=home)
    assert done.returncode == 2
    assert done.stderr == (f"blocksift: error: {database} is the examples database: "
                           "exporting there would replace the examples; give another file\n")
    assert database.read_bytes().startswith(b"SQLite format 3\x00")
    assert len(json.loads(blocksift("examples", "list", "--json", home=home).stdout)) == 6


def test_a_ctrl_c_during_examples_export_leaves_the_file_as_it_was(tmp_path):
    """The export is written into a temporary beside the file and renamed over it: a Ctrl-C
    part way leaves the earlier file whole and no temporary (a '<file>.part' was left)."""
    import signal
    import time

    from blocksift.storage.examples import ExampleStore

    html = EXAMPLE.read_text(encoding="utf-8")
    many = tmp_path / "many.jsonl"
    many.write_text("".join(json.dumps({"id": str(n), "url": f"https://s{n}.example/a",
                                        "html": html, "gold": "Why"}) + "\n"
                            for n in range(3000)), encoding="utf-8")
    database = tmp_path / "examples.sqlite3"
    with ExampleStore(database) as store:
        assert len(store.import_records(many).added) == 3000
    out = tmp_path / "out" / "pages.jsonl.gz"
    out.parent.mkdir()
    for existed in (True, False):
        if existed:
            out.write_bytes(b"an earlier export\n")
        env = dict(os.environ, PYTHONPATH=str(REPO / "host"),
                   BLOCKSIFT_HOME=str(tmp_path / "home"))
        run = subprocess.Popen([sys.executable, "-m", "blocksift", "examples", "--store",
                                str(database), "export", str(out), "--force"],
                               stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
        deadline = time.monotonic() + 120
        while not list(out.parent.glob("*.part")) and time.monotonic() < deadline:
            time.sleep(0.001)  # its temporary is there: it is writing
        run.send_signal(signal.SIGINT)
        _, stderr = run.communicate(timeout=120)
        said = "is as it was" if existed else "is not written"
        assert (run.returncode, stderr) == (130, f"blocksift: interrupted: {out} {said}\n")
        assert [p.name for p in out.parent.iterdir()] == (["pages.jsonl.gz"] if existed
                                                           else [])
        if existed:
            assert out.read_bytes() == b"an earlier export\n"
            out.unlink()


@pytest.mark.parametrize("given, message", [
    ("missing.html", "cannot read {path}: No such file or directory"),  # was '[Errno 2] ...'
    ("folder", "cannot read {path}: Is a directory"),
    (str(shutil.which("ls") or "/bin/ls"), "{path} is an ELF executable, not an HTML page"),
])
def test_cluster_reads_its_files_as_extract_does(tmp_path, given, message):
    """A binary file was clustered as a page of garbage; the others were Python's errors."""
    (tmp_path / "folder").mkdir()
    path = given if given.startswith("/") else str(tmp_path / given)
    done = blocksift("cluster", path, home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr == f"blocksift: error: {message.format(path=path)}\n"


def test_cluster_store_shows_what_is_there_and_creates_nothing(tmp_path):
    """`cluster --store` created an empty database where there was none (a mistyped path
    too) and printed nothing at all."""
    home = tmp_path / "home"
    done = blocksift("cluster", "--store", home=home)
    assert done.returncode == 0, done.stderr
    default = home / "data" / "sites.sqlite3"
    assert done.stdout == f"no sites learned yet: {default} does not exist\n"
    typo = tmp_path / "sites.sqlite"
    done = blocksift("cluster", "--store", str(typo), home=home)
    assert done.returncode == 2
    assert done.stderr == f"blocksift: error: no site store at {typo}\n"
    assert not default.exists() and not typo.exists()


def test_examples_delete_says_what_it_deleted_when_an_id_is_missing(tmp_path):
    """`examples delete 1 99` deleted 1 and said only 'no example(s) 99'."""
    home = tmp_path / "home"
    assert blocksift("examples", "import", str(DATASET), home=home).returncode == 0
    done = blocksift("examples", "delete", "1", "99", home=home)
    assert done.returncode == 2
    assert done.stderr == "blocksift: error: no example(s) 99 (deleted the other 1)\n"
    listed = json.loads(blocksift("examples", "list", "--json", home=home).stdout)
    assert sorted(e["exampleId"] for e in listed) == [2, 3, 4, 5, 6]


def test_examples_list_and_show_without_titles(tmp_path):
    """Imported pages without a title: list padded an empty 50-column title before each URL
    (50 blanks in every line), and show began with an empty '# '; then each said
    '(no title)'. The URL's host and path name the page instead."""
    home = tmp_path / "home"
    assert blocksift("examples", "import", str(DATASET), home=home).returncode == 0
    lines = blocksift("examples", "list", home=home).stdout.splitlines()
    assert len(lines) == 6
    assert lines[-1].split()[-2:] == ["gazette.example/coast/lighthouses",
                                      "https://gazette.example/coast/lighthouses"], lines
    assert "  cdp1998.org/details.asp?detailsid=2359  " in lines[2]  # the query names it
    shown = blocksift("examples", "show", "1", home=home).stdout
    assert shown.startswith("# gazette.example/coast/lighthouses\n"
                            "https://gazette.example/coast/lighthouses\n")


@pytest.mark.parametrize("kind", ["jsonl", "html", "html.gz", "empty warc"])
def test_batch_warc_refuses_a_file_that_is_not_one(tmp_path, kind):
    """`batch --warc pages.jsonl` counted the file as one damaged record and ended as done
    (exit 0); a file that does not begin with a WARC record is the wrong file, said once."""
    pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install '.[warc]'")
    page = EXAMPLE.read_bytes()
    path = tmp_path / {"jsonl": "pages.jsonl", "html": "page.html", "html.gz": "page.html.gz",
                       "empty warc": "empty.warc.gz"}[kind]
    path.write_bytes({"jsonl": json.dumps({"id": "a", "html": page.decode()}).encode() + b"\n",
                      "html": page, "html.gz": gzip.compress(page),
                      "empty warc": gzip.compress(b"")}[kind])
    done = blocksift("batch", "--warc", str(path), "--no-progress", home=tmp_path / "home")
    if kind == "empty warc":  # no records: nothing wrong with it
        assert done.returncode == 0 and "0 records" in done.stderr, done.stderr
        return
    assert done.returncode == 2, done.stderr
    hint = {"jsonl": f"; for JSONL pages: blocksift batch {path}",
            "html": f"; for one page: blocksift extract {path}",
            "html.gz": f"; for one page: blocksift extract {path}"}[kind]
    assert done.stderr == (f"blocksift: error: {path} is not a WARC file (it does not begin "
                           f"with a WARC/ record){hint}\n")


def test_batch_warc_given_a_directory_names_the_glob(tmp_path):
    """`batch --warc crawl/` said "no WARC file matches 'crawl/'": the directory was there,
    what it wanted was a glob; the error gives the one that reads the files in it."""
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    done = blocksift("batch", "--warc", str(crawl), "--no-progress", home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr == (f"blocksift: error: {crawl} is a directory; --warc takes WARC "
                           f"files or a glob, e.g. blocksift batch --warc '{crawl}/*.warc.gz'\n")
    (crawl / "a.warc").write_bytes(b"")  # uncompressed files: the glob names them
    done = blocksift("batch", "--warc", f"{crawl}/", "--no-progress", home=tmp_path / "home")
    assert done.stderr.endswith(f"--warc '{crawl}/*.warc'\n"), done.stderr


@pytest.mark.parametrize("args, hint", [
    (["eval", "-d", "{page}"], "for one page: blocksift extract {page}"),
    (["train", "farsw", "-d", "{page}"], "for one page: blocksift extract {page}"),
    (["cluster", "-d", "{page}"], "HTML files go without --dataset: blocksift cluster {page} ..."),
    (["examples", "import", "{page}"], "for one page: blocksift extract {page}"),
])
def test_a_page_given_as_a_dataset_is_named_so(tmp_path, args, hint):
    """`eval -d page.html` (and train, cluster, examples import) said "page.html, line 1:
    not JSON (Expecting value)", which did not say what was wrong nor what to run."""
    page = str(EXAMPLE)
    done = blocksift(*[a.format(page=page) for a in args], home=tmp_path)
    assert done.returncode == 2
    said = done.stderr.removeprefix("blocksift: error: ").removeprefix("cannot import: ")
    assert said == (f"{page} is an HTML page, not a dataset (JSON lines of labeled pages, "
                    f"docs/evaluation.md); {hint.format(page=page)}\n"), done.stderr


def test_eval_scores_a_set_given_twice_once(tmp_path):
    """`eval -d X -d ./X` scored the set twice and printed two equal rows."""
    done = blocksift("eval", "-d", str(DATASET), "-d", f"{DATASET}/", "--algo", "linkblocks",
                     "--json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)) == 1, done.stdout
    assert "given twice is scored once" in " ".join(blocksift("eval", "--help").stdout.split())


@pytest.mark.parametrize("action", ["extract", "hide"])
def test_eval_names_a_missing_dataset_before_scoring_any(tmp_path, action):
    """`eval -d wcxb-dev -d cleanevl`: every set before the misspelled one was scored (minutes
    on the dev sets), then the run ended in the error with none of it printed."""
    done = blocksift("eval", "-d", str(DATASET), "-d", "no-such-set", "--action", action,
                     "--algo", "linkblocks", "--progress", home=tmp_path)
    assert done.returncode == 2
    # the forced bar would have drawn for the first set
    assert done.stderr.startswith("blocksift: error: no-such-set: no such dataset"), \
        done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("args", [["--algo", "linkblocks", "--sweep"],
                                  ["--algo", "clustering"],
                                  ["--algo", "farsw", "--cv", "inter"]])
def test_eval_that_writes_files_checks_out_before_scoring(tmp_path, args):
    """The sweeps and cross-validations write CSV (and plots) to --out once every page is
    scored: an --out that cannot be a folder failed then, the work lost."""
    taken = tmp_path / "results"
    taken.write_text("a file where the folder should be")
    done = blocksift("eval", "-d", str(DATASET), *args, "--out", str(taken), "--progress",
                     home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr == (f"blocksift: error: --out {taken}: cannot write there "
                           "(File exists)\n"), done.stderr


@pytest.mark.parametrize("algorithm", ["farsw", "auto"])
def test_train_checks_where_the_model_goes_before_training(tmp_path, algorithm):
    """`--out notes.txt/model.json` (a file where a folder should be): training ran to the
    end, then failed to write."""
    taken = tmp_path / "notes.txt"
    taken.write_text("a file")
    out = taken / "model.json"
    done = blocksift("train", algorithm, "-d", str(DATASET), "--out", str(out),
                     home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr == f"blocksift: error: --out {out}: cannot write there ({taken} is a " \
                          "file, not a folder)\n", done.stderr


def test_examples_import_takes_a_dataset_name_as_train_and_eval_do(tmp_path):
    """`examples import wcxb-dev` said 'no such dataset' where `train farsw -d wcxb-dev` and
    `eval -d wcxb-dev` find it under $BLOCKSIFT_DATASETS."""
    sets = tmp_path / "datasets"
    (sets / "myset").mkdir(parents=True)
    shutil.copy(DATASET / "pages.jsonl", sets / "myset" / "pages.jsonl")
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(tmp_path / "home"),
               BLOCKSIFT_DATASETS=str(sets))
    done = subprocess.run([sys.executable, "-m", "blocksift", "examples", "import", "myset"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("imported 6 example(s)\n"), done.stderr


def test_farsw_cross_validation_without_a_site_to_fold_says_why_on_stderr(tmp_path):
    """`eval --algo farsw --cv inter` on a set whose sites have fewer than 10 pages each
    printed 'nothing to cross-validate' on stdout (lost in `> results.txt`), without the
    set's figures; it is the run's last word, on stderr, and stdout stays empty."""
    done = blocksift("eval", "-d", str(DATASET), "--algo", "farsw", "--cv", "inter",
                     "--out", str(tmp_path / "out"), home=tmp_path / "home")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == ("blocksift: nothing to cross-validate: no site has 10 or more "
                           "pages (6 pages from 6 sites)\n"), done.stderr


@pytest.mark.parametrize("typed, message", [
    ("extarct", "unknown command 'extarct' (did you mean extract?)"),
    ("evaluate", "unknown command 'evaluate' (did you mean eval?)"),
    ("frobnicate", "unknown command 'frobnicate'"),
])
def test_a_mistyped_command_is_named_with_the_nearest_one(typed, message):
    done = blocksift(typed, "page.html")
    assert done.returncode == 2
    assert done.stderr == f"blocksift: error: {message} (see `blocksift --help`)\n"


def _sweep(tmp_path: Path, *params: str) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    import csv

    out = tmp_path / "sweep"
    done = blocksift("eval", "-d", str(DATASET), "--algo", "linkblocks", "--sweep",
                     "--no-progress", "--out", str(out), *params, home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    with (out / "linkblocks_sweep.csv").open(encoding="utf-8") as handle:
        return done, list(csv.DictReader(handle))


def test_sweep_holds_the_other_given_setting_fixed(tmp_path):
    """`--sweep -p c_t=5 -p d_t=50`: the sweep of d_t ran with C_t = 3 and that of C_t with
    d_t 40/80 whatever was given; now a given setting is held where the other is swept."""
    done, rows = _sweep(tmp_path, "-p", "c_t=5", "-p", "d_t=50")
    by_experiment: dict[str, set[tuple[int, int]]] = {}
    for row in rows:
        by_experiment.setdefault(row["experiment"], set()).add((int(row["d_t"]),
                                                                int(row["c_t"])))
    assert by_experiment["dt_text"] == {(d, 5) for d in range(5, 61, 5)}
    assert by_experiment["dt_code"] == {(d, 5) for d in range(10, 121, 10)}
    assert by_experiment["ct_text"] == by_experiment["ct_code"] == {(50, c)
                                                                    for c in range(2, 13)}
    assert "held: C_t = 5 while d_t is swept; d_t = 50 while C_t is swept" in done.stdout


def test_sweep_with_a_distance_runs_that_kind_only_and_names_what_it_ignores(tmp_path):
    done, rows = _sweep(tmp_path, "-p", "distance=code", "-p", "main_text=false")
    assert {row["distance"] for row in rows} == {"code"}
    assert {row["experiment"] for row in rows} == {"dt_code", "ct_code"}
    # (without matplotlib a line says the plots are left out: only the notes are compared)
    notes = [line for line in done.stderr.splitlines() if line.startswith("blocksift: note:")]
    assert notes == ["blocksift: note: the sweep counts link blocks; --param main_text does not "
                     "change them"]


@pytest.fixture
def web_server(tmp_path):
    """A real HTTP server on 127.0.0.1 serving the bundled page (and 404 for others)."""
    import functools
    import http.server
    import threading

    root = tmp_path / "www"
    root.mkdir()
    shutil.copy(REPO / "examples" / "article.html", root / "article.html")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_url_that_cannot_be_fetched_is_said_in_words(web_server):
    """urllib's repr reached the user: 'cannot fetch URL: <urlopen error [Errno -2] Name or
    service not known>'."""
    assert blocksift("extract", f"http://{web_server}/article.html").stdout.startswith(
        "Why Lighthouses Went Dark")
    cases = {f"http://{web_server}/missing.html": "the server answered HTTP 404 File not found",
             f"http://127.0.0.1:{_closed_port()}/": "Connection refused",
             f"https://{web_server}/article.html":  # TLS to a plain-HTTP port
                 "the TLS connection failed (",
             "https://no-such-host.invalid/": "no such host, or no network ("}
    for url, why in cases.items():
        done = blocksift("extract", url)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"blocksift: error: cannot fetch {url}: {why}"), \
            done.stderr
        assert "<urlopen error" not in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("name", sorted({name for name, _module, _help in COMMANDS}))
def test_help_shows_no_docstring_markup(name):
    """`cluster --help` printed its module docstring, ``double backticks`` and all."""
    done = blocksift(name, "--help")
    assert done.returncode == 0, done.stderr
    assert "``" not in done.stdout, done.stdout


def test_cluster_counts_in_words(tmp_path):
    done = blocksift("cluster", "-d", str(DATASET), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "gazette.example: 1 page, 0 classes, 1 page in no class" in done.stdout.splitlines()


@pytest.mark.parametrize("args, fix", [
    ([], "fix: blocksift install\n"),
    (["--browser", "firefox"], "fix: blocksift install --browser firefox\n"),
])
def test_doctor_with_nothing_registered_says_so_and_how_to_register(tmp_path, args, fix):
    """Before any install, doctor listed every browser's missing manifest and ended in
    'verdict: NOT OK - 0 broken, 0 working'."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), HOME=str(tmp_path),
               BLOCKSIFT_HOME=str(tmp_path / "home"), PATH="/nonexistent")
    done = subprocess.run([sys.executable, "-m", "blocksift", "doctor", *args],
                          capture_output=True, text=True, timeout=300, env=env, cwd=REPO)
    assert done.returncode == 1, done.stderr
    where = "for Firefox" if args else "with any browser"
    assert done.stdout == (f"not registered: blocksift is not registered {where}, so there is "
                           f"nothing to check\n{fix}"), done.stdout


@pytest.mark.parametrize("algorithm", ["farsw", "auto"])
@pytest.mark.parametrize("rows, message", [
    ([], "no pages to learn from (a datasets-format .jsonl(.gz) file or folder)"),
    ([{"id": "a", "html": "<p>words</p>"}, {"id": "b", "html": "<p>more</p>"}],
     "none of its 2 page(s) has a `gold` text (the expected main text) to learn from"),
])
def test_train_on_pages_it_cannot_learn_from_is_unusable_input(tmp_path, algorithm, rows,
                                                                message):
    """A dataset without a page, or without gold, said 'training failed' and exited 1 (a
    negative answer) where a file without pages is unusable input (exit 2) everywhere else."""
    dataset = tmp_path / "pages.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = blocksift("train", algorithm, "-d", str(dataset), "--out", str(tmp_path / "m.json"),
                     home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"blocksift: error: {dataset}: {message}\n"
    assert not (tmp_path / "m.json").exists()


def test_examples_import_of_a_file_without_pages_is_unusable_input(tmp_path):
    """An empty file said 'imported 0 example(s)' and exited 0, as a set of pages would."""
    empty = tmp_path / "pages.jsonl"
    empty.write_text("", encoding="utf-8")
    done = blocksift("examples", "import", str(empty), home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr == (f"blocksift: error: cannot import: {empty} holds no pages (a "
                           "datasets-format .jsonl(.gz) file or folder)\n"), done.stderr


def test_eval_compares_the_algorithms_given(tmp_path):
    """`eval --algo auto --algo linkblocks` scored linkblocks alone (the last --algo won,
    silently): each is scored, a row each, in the order given."""
    done = blocksift("eval", "-d", str(DATASET), "--algo", "linkdensity", "--algo",
                     "linkblocks", "--json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    reports = json.loads(done.stdout)
    assert [r["algorithm"] for r in reports] == ["linkdensity", "linkblocks"]
    alone = json.loads(blocksift("eval", "-d", str(DATASET), "--algo", "linkblocks",
                                 "--json", home=tmp_path).stdout)
    scores = ("pages", "precision", "recall", "f1", "mean_page_f1")
    assert [reports[1][k] for k in scores] == [alone[0][k] for k in scores]
    table = blocksift("eval", "-d", str(DATASET), "--algo", "linkdensity", "--algo",
                      "linkblocks", home=tmp_path).stdout  # piped: the table whole
    rows = [line.split() for line in table.splitlines()]
    assert [row[1] for row in rows if row[:1] == ["dataset"] and row[1] != "algorithm"
            and row[2].isdigit()] == ["linkdensity", "linkblocks"], table


@pytest.mark.parametrize("args, message", [
    (["extract", str(EXAMPLE), "--algo", "auto", "--algo", "linkblocks"],
     "blocksift extract: error: --algo given twice (auto, then linkblocks): extract runs one "
     "algorithm (see `blocksift extract --help`)"),
    (["batch", "--algo", "linkblocks", "--algorithm", "auto"],
     "blocksift batch: error: --algo given twice (linkblocks, then auto): batch runs one "
     "algorithm (see `blocksift batch --help`)"),
    (["eval", "-d", str(DATASET), "--algo", "linkblocks", "--algo", "farsw", "--cv", "intra"],
     "blocksift: error: several --algo are compared in a plain eval only; --cv runs one "
     "algorithm at a time"),
    (["eval", "-d", str(DATASET), "--algo", "auto", "--algo", "clustering"],
     "blocksift: error: several --algo are compared in a plain eval only; clustering learns "
     "per site: eval it alone"),
])
def test_a_second_algo_is_never_dropped_silently(tmp_path, args, message):
    done = blocksift(*args, home=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == message + "\n"


@pytest.mark.parametrize("command", [["eval"], ["train", "farsw"], ["cluster"],
                                     ["examples", "import"]])
def test_a_misspelled_dataset_name_is_met_with_the_names_there_are(tmp_path, command):
    """`eval -d cleaneval` with $BLOCKSIFT_DATASETS set said 'cleaneval: no such dataset
    (set $BLOCKSIFT_DATASETS)', beside a folder named cleaneval-dev."""
    root = tmp_path / "datasets"
    (root / "mini-dev").mkdir(parents=True)
    shutil.copy(DATASET / "pages.jsonl", root / "mini-dev" / "pages.jsonl")
    (root / "notes").mkdir()  # a folder without pages is no dataset
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_DATASETS=str(root),
               BLOCKSIFT_HOME=str(tmp_path / "home"))
    flag = [] if command[0] == "examples" else ["-d"]
    done = subprocess.run([sys.executable, "-m", "blocksift", *command, *flag, "mini"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    line = done.stderr.removeprefix("blocksift: error: ").removeprefix("cannot import: ")
    assert line.startswith("mini: no such dataset; did you mean mini-dev? (known: "), line
    assert "mini-dev" in line.split("(known: ")[1] and "notes" not in line
    missing = subprocess.run([sys.executable, "-m", "blocksift", *command, *flag,
                              "gone/pages.jsonl"], capture_output=True, text=True,
                             timeout=300, env=env, cwd=tmp_path)
    assert missing.stderr.endswith("gone/pages.jsonl: no such dataset file or folder\n"), \
        missing.stderr


@pytest.mark.parametrize("name", ["extract", "batch", "eval", "train", "cluster"])
def test_the_options_every_command_shares_are_spelled_alike(name):
    """`train` and `cluster` took `--param K=V` without `-p` and `train` `--dataset PATH`,
    where extract, batch and eval say `--param KEY=VALUE, -p KEY=VALUE` and eval and cluster
    `--dataset PATH_OR_NAME, -d PATH_OR_NAME` (a name under $BLOCKSIFT_DATASETS works for
    each)."""
    helped = blocksift(*(["train", "farsw"] if name == "train" else [name]), "--help").stdout
    assert "--param KEY=VALUE, -p KEY=VALUE" in helped, helped
    if name in ("eval", "train", "cluster"):
        assert "--dataset PATH_OR_NAME, -d PATH_OR_NAME" in helped, helped


@pytest.mark.parametrize("args, named", [
    (["--algo", "linkblocks", "extract", str(EXAMPLE)], "blocksift extract --algo"),
    (["--format=json", "extract", str(EXAMPLE)], "blocksift extract --format"),
    (["-p", "c_t=3"], "blocksift COMMAND -p"),
])
def test_a_command_option_before_the_command_is_named_as_such(args, named):
    """`blocksift --algo linkblocks extract page.html` said "unknown command 'linkblocks'":
    the option's value was taken for the command."""
    done = blocksift(*args)
    assert done.returncode == 2, done.stderr
    option = args[0].split("=")[0]
    assert done.stderr == (f"blocksift: error: {option} is an option of a command, not of "
                           f"blocksift: give it after the command ({named} ...) (see "
                           "`blocksift --help`)\n"), done.stderr


@pytest.mark.parametrize("args", [["--vers"], ["--help"], ["-h"]])
def test_blocksift_own_options_still_answer(args):
    done = blocksift(*args)
    assert done.returncode == 0 and done.stdout and not done.stderr, done.stderr


def test_examples_repair_before_any_example_says_there_is_no_database(tmp_path):
    """It said '<path> is readable; nothing to repair' of a file that does not exist."""
    done = blocksift("examples", "repair", home=tmp_path)
    path = tmp_path / "data" / "examples.sqlite3"
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{path} does not exist yet; nothing to repair\n"
    assert not path.exists()


@pytest.mark.parametrize("algorithm", ["farsw", "auto"])
def test_train_refuses_to_write_the_model_over_its_dataset(tmp_path, algorithm):
    """`train farsw -d pages.jsonl --out pages.jsonl` trained, then replaced the labeled
    pages by the model and exited 0."""
    dataset = tmp_path / "pages.jsonl"
    shutil.copy(DATASET / "pages.jsonl", dataset)
    kept = dataset.read_bytes()
    done = blocksift("train", algorithm, "-d", str(dataset), "--out", str(dataset),
                     home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"blocksift: error: --out {dataset} is the labeled pages "
                           "(--dataset); writing the model there would replace them; give "
                           "another file\n"), done.stderr
    assert dataset.read_bytes() == kept


def _deep_page(path: Path) -> Path:
    """An archive page whose generator never closes a <div>: 2,100 of them before the
    article, past the parser's nesting limit of 2,048."""
    days = "".join(f"<div>day {n} of the archive<br>\n" for n in range(2100))
    article = "".join(f"<p>Paragraph {n} of the article, long enough to read as prose, "
                      "with commas, clauses and a full stop.</p>" for n in range(3))
    path.write_text(f"<html><head><title>Archive</title></head><body>{days}{article}",
                    encoding="utf-8")
    return path


def test_extract_says_what_it_repaired(tmp_path):
    """--format json carries what the parser's recovery did (empty for a sound page); in a
    terminal one stderr line says it, piped stderr stays quiet."""
    from cli_terminal import command, environment, in_terminal

    deep = _deep_page(tmp_path / "deep.html")
    data = json.loads(blocksift("extract", str(deep), "--format", "json").stdout)
    assert len(data["repairs"]) == 1 and "parsed the page in 2 parts" in data["repairs"][0]
    plan = json.loads(blocksift("extract", str(deep), "--action", "hide", "--format",
                                "json").stdout)
    assert plan["repairs"] == data["repairs"]
    assert json.loads(blocksift("extract", str(EXAMPLE), "--format",
                                "json").stdout)["repairs"] == []
    piped = blocksift("extract", str(deep))
    assert piped.returncode == 0 and "repaired" not in piped.stderr
    out = tmp_path / "out.txt"
    done = in_terminal(command("extract", str(deep)), environment(tmp_path), stdout=out,
                       columns=80)
    assert done.returncode == 0
    assert "blocksift: repaired the page's broken markup: parsed the page in 2 parts" in \
        " ".join(line.strip() for line in done.lines)
    assert all(len(line) <= 80 for line in done.lines)
    assert "Paragraph 2 of the article" in out.read_text(encoding="utf-8")
    # a sound page: nothing said
    sound = in_terminal(command("extract", str(EXAMPLE)), environment(tmp_path),
                        stdout=tmp_path / "sound.txt", columns=80)
    assert sound.returncode == 0 and "repaired" not in sound.screen


def test_batch_lines_say_what_was_repaired(tmp_path):
    """A batch line carries "repairs" for a page whose broken markup the parse repaired, and
    none for a sound page (as extract's JSON says it)."""
    deep = _deep_page(tmp_path / "deep.html").read_text(encoding="utf-8")
    lines = "".join(json.dumps({"id": name, "html": html}) + "\n" for name, html in
                    (("deep", deep), ("sound", EXAMPLE.read_text(encoding="utf-8"))))
    done = blocksift("batch", "-j", "1", stdin=lines)
    assert done.returncode == 0, done.stderr
    out = {line["id"]: line for line in map(json.loads, done.stdout.splitlines())}
    assert "parsed the page in 2 parts" in out["deep"]["repairs"][0]
    assert "Paragraph 2 of the article" in out["deep"]["text"]
    assert "repairs" not in out["sound"]
