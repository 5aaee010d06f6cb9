"""``blocksift batch`` output options: Parquet (``--output FILE.parquet``) and ``--model``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NAV = "<nav><a href='/'>Home</a> <a href='/b'>Blog</a> <a href='/c'>Contact</a></nav>"
ARTICLE = (f"<html><head><title>Harbour</title></head><body>{NAV}<article><h1>Harbour</h1>"
           + "".join(f"<p>Paragraph {i}: the harbour commission met to discuss the repairs to "
                     "the old lighthouse, which still guides the boats home.</p>"
                     for i in range(5))
           + "</article><footer><a href='/p'>Privacy</a> <a href='/t'>Terms</a></footer>"
             "</body></html>")
LINES = [{"id": "first", "html": ARTICLE, "url": "https://example.org/a"},
         {"id": 7, "html": ARTICLE.replace("Harbour", "Quay")},
         {"id": "no-html"},
         {"id": "last", "html": "<p>" + "short page words " * 20 + "</p>"}]


def blocksift(*args: str, stdin: bytes = b"", home: Path) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "host"), BLOCKSIFT_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "blocksift", *args], input=stdin,
                          capture_output=True, timeout=300, env=env, cwd=REPO)


def jsonl(lines: list[dict]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


@pytest.fixture(scope="module")
def jsonl_records(tmp_path_factory) -> list[dict]:
    home = tmp_path_factory.mktemp("home")
    done = blocksift("batch", "--no-progress", "-j", "2", stdin=jsonl(LINES), home=home)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def test_parquet_rows_are_the_jsonl_lines(tmp_path, jsonl_records):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    out = tmp_path / "pages.parquet"
    done = blocksift("batch", "--no-progress", "-j", "2", "--output", str(out),
                     stdin=jsonl(LINES), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == len(jsonl_records) == len(LINES)
    for row, record in zip(rows, jsonl_records):
        assert row["id"] == (record["id"] if isinstance(record["id"], str)
                             else json.dumps(record["id"]))
        for key in ("text", "title", "status", "error", "code"):
            assert row[key] == record.get(key), key
        for key in ("metadata", "blocks"):
            assert (json.loads(row[key]) if row[key] is not None else None) == record.get(key)
    assert rows[2]["error"] and rows[2]["text"] is None  # the bad line is a row too
    assert "lighthouse" in rows[0]["text"]


def test_jsonl_to_a_file_is_what_stdout_gets(tmp_path, jsonl_records):
    out = tmp_path / "pages.jsonl"
    done = blocksift("batch", "--no-progress", "-j", "1", "-o", str(out), stdin=jsonl(LINES),
                     home=tmp_path)
    assert done.returncode == 0, done.stderr
    strip = [{k: v for k, v in json.loads(line).items() if k != "ms"}
             for line in out.read_text().splitlines()]
    assert strip == [{k: v for k, v in r.items() if k != "ms"} for r in jsonl_records]


def test_parquet_needs_a_file(tmp_path):
    done = blocksift("batch", "--no-progress", "--format", "parquet", stdin=jsonl(LINES),
                     home=tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == ("blocksift: error: Parquet output needs a file: "
                                            "--output FILE.parquet")


@pytest.mark.parametrize("name", ["out.jsonl", "out.parquet"])
def test_output_into_a_new_folder_makes_it(tmp_path, name):
    """`--output runs/today/out.jsonl` where runs/ did not exist was "cannot write ...: No
    such file or directory" (for Parquet, pyarrow's "[Errno 2] Failed to open local file");
    train --out and eval --out make their folders, so batch does too."""
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    out = tmp_path / "runs" / "today" / name
    done = blocksift("batch", "--no-progress", "-j", "1", "-o", str(out),
                     stdin=jsonl(LINES[:1]), home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    assert out.is_file() and out.stat().st_size > 0


@pytest.mark.parametrize("name", ["out.jsonl", "out.parquet"])
def test_output_under_a_file_says_which_is_the_file(tmp_path, name):
    (tmp_path / "runs").write_text("not a folder")
    out = tmp_path / "runs" / "today" / name
    done = blocksift("batch", "--no-progress", "-j", "1", "-o", str(out),
                     stdin=jsonl(LINES[:1]), home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr.decode() == (f"blocksift: error: cannot write {out}: "
                                    f"{tmp_path / 'runs'} is a file, not a folder\n")


def test_parquet_onto_a_folder_is_said_without_errno(tmp_path):
    pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    out = tmp_path / "out.parquet"
    out.mkdir()
    done = blocksift("batch", "--no-progress", "-j", "1", "-o", str(out),
                     stdin=jsonl(LINES[:1]), home=tmp_path / "home")
    assert done.returncode == 2
    line = done.stderr.decode()
    assert line.startswith(f"blocksift: error: cannot write {out}: ") and "[Errno" not in line
    assert line.count("\n") == 1


@pytest.fixture(scope="module")
def all_main_model(tmp_path_factory) -> Path:
    """The packaged auto model with its threshold at 0: every block is main content."""
    from blocksift.algorithms.segmenter import trees

    packaged = resources.files("blocksift") / "data" / "auto-segmenter.npz"
    with resources.as_file(packaged) as path:
        ensembles, meta = trees.load(path)
    return trees.save(tmp_path_factory.mktemp("model") / "all-main.npz", ensembles,
                      dict(meta, threshold=0.0))


def test_batch_model_is_the_model_the_workers_use(tmp_path, all_main_model, jsonl_records):
    done = blocksift("batch", "--no-progress", "-j", "2", "--model", str(all_main_model),
                     stdin=jsonl(LINES), home=tmp_path)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert "Home" not in jsonl_records[0]["text"]  # the packaged model leaves the nav out
    assert "Home" in records[0]["text"] and "Privacy" in records[0]["text"]


def test_extract_takes_the_same_model_option(tmp_path, all_main_model):
    page = tmp_path / "page.html"
    page.write_text(ARTICLE)
    plain = blocksift("extract", str(page), home=tmp_path)
    with_model = blocksift("extract", str(page), "--model", str(all_main_model), home=tmp_path)
    assert plain.returncode == with_model.returncode == 0, with_model.stderr
    assert b"Home" not in plain.stdout and b"Home" in with_model.stdout


def test_the_fast_model_is_named_not_a_path(tmp_path, jsonl_records):
    page = tmp_path / "page.html"
    page.write_text(ARTICLE)
    fast = blocksift("extract", str(page), "--model", "fast", home=tmp_path)
    done = blocksift("batch", "--no-progress", "-j", "2", "--model", "fast",
                     stdin=jsonl(LINES), home=tmp_path)  # the workers find it by name too
    assert fast.returncode == done.returncode == 0, fast.stderr + done.stderr
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert b"Home" not in fast.stdout and records[0]["text"]
    assert "Home" not in records[0]["text"]


@pytest.mark.parametrize(("algorithm", "model", "message"), [
    ("linkblocks", "MODEL", "blocksift: error: linkblocks takes no model file"),
    ("auto", "no-such-model.npz", "blocksift: error: model file not found: no-such-model.npz"),
    ("auto", "NOT-A-MODEL", "blocksift: error: cannot load "),
])
@pytest.mark.parametrize("command", ["batch", "extract"])
def test_a_wrong_model_is_a_one_line_usage_error(tmp_path, all_main_model, algorithm, model,
                                                 message, command):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a model at all")
    model = {"MODEL": str(all_main_model), "NOT-A-MODEL": str(junk)}.get(model, model)
    page = tmp_path / "page.html"
    page.write_text(ARTICLE)
    args = ["batch", "--no-progress"] if command == "batch" else ["extract", str(page)]
    done = blocksift(*args, "--algo", algorithm, "--model", model, stdin=jsonl(LINES),
                     home=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), lines
    assert done.stdout == b""
