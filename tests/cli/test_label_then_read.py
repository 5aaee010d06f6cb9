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
