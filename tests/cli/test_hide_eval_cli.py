"""``blocksift eval --action hide --cv inter`` as a person runs it: a bar while it tries the
settings (in a terminal only), and each fold's choice told in its table."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_terminal import REPO, command, environment, in_terminal

from blocksift.evaluation.hide import GRID, varied

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="POSIX pty")

EXAMPLE = REPO / "examples" / "article.html"


@pytest.fixture
def sites(tmp_path: Path) -> Path:
    html = EXAMPLE.read_text(encoding="utf-8")
    rows = [{"id": f"{site}-{n}", "site": f"{site}.example", "html": html + f"<!-- {n} -->",
             "gold": "For nearly two centuries the lamp at Gull Point turned every night"}
            for site in ("harbour", "coast", "bay") for n in range(2)]
    dataset = tmp_path / "sites.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return dataset


def test_the_folds_table_shows_every_setting_the_grid_varies() -> None:
    """The per-fold table showed four of the settings: a fold choosing lists of links
    (restraint_link_lists) or comment sections off read the same as one choosing the default."""
    names = varied()
    assert {"comment_sections", "restraint_link_lists", "hide_comments", "grow"} <= set(names)
    for name in names:
        assert len({repr(getattr(params, name)) for params in GRID}) > 1
    assert "veto_p" not in names  # the same in every setting: nothing a fold chooses


def test_cv_shows_progress_in_a_terminal_and_names_each_folds_settings(tmp_path, sites):
    argv = ["eval", "--dataset", str(sites), "--action", "hide", "--cv", "inter",
            "--folds", "3"]
    home = tmp_path / "home"
    done = in_terminal(command(*argv), environment(home), columns=200)
    assert done.returncode == 0, done.screen
    total = len(GRID) * 6
    # the settings' bar, beside the page bar of the set
    assert f"{len(GRID)} settings: 100%" in done.screen, done.screen
    assert f"{total}/{total}" in done.screen, done.screen
    header = " ".join(["fold", *varied(), "held-out pages"])
    assert header in [" ".join(line.split()) for line in done.lines], done.screen

    # piped: no bar, the same table whole
    piped = subprocess.run(command(*argv), capture_output=True, text=True, timeout=300,
                           env=environment(home), cwd=REPO)
    assert piped.returncode == 0, piped.stderr
    assert "settings" not in piped.stderr and "%" not in piped.stderr, piped.stderr
    lines = [" ".join(line.split()) for line in piped.stdout.splitlines()]
    assert header in lines, piped.stdout
    rows = [row for row in lines[lines.index(header) + 1:] if row.strip("-")]
    assert [row.split()[0] for row in rows] == ["0", "1", "2"], piped.stdout
    # each row's settings are those of one setting of the grid
    settings = [[str(getattr(params, name)) for name in varied()] for params in GRID]
    assert all(row.split()[1:-1] in settings for row in rows), piped.stdout


def test_cv_json_gives_every_setting_on_every_set_beside_the_folds_choice(tmp_path, sites):
    """What each setting does on all pages (in-sample for the thresholds) is what the folds'
    choice is read against: lists of links on held-back pages were judged by ad hoc scripts."""
    argv = ["eval", "--dataset", str(sites), "--action", "hide", "--cv", "inter",
            "--folds", "3", "--json"]
    done = subprocess.run(command(*argv), capture_output=True, text=True, timeout=300,
                          env=environment(tmp_path / "home"), cwd=REPO)
    assert done.returncode == 0, done.stderr
    cv = json.loads(done.stdout)["cv"]
    assert [s["params"] for s in cv["settings"]] == [
        {name: getattr(params, name) for name in varied()} for params in GRID]
    for setting in cv["settings"]:
        (row,) = setting["per_set"].values()
        assert row["pages"] == 6 and 0 <= row["gold_kept_mean"] <= 1
    # both ways for lists of links, whatever the default
    assert {s["params"]["restraint_link_lists"] for s in cv["settings"]} == {False, True}
