"""The label-then-read loop from the command line: what a saved label changes in `extract`,
`batch`, `examples` and `train auto --per-site`, as a user meets it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATASET = REPO / "tests" / "fixtures" / "dataset"


def blocksift(*args: str, stdin: str | None = None, home: Path | None = None
              ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"))
    if home is not None:
        env["BLOCKSIFT_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "blocksift", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, env=env, cwd=REPO)


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
