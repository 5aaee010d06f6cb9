"""Every listed command, run the way people run it: in a terminal, piped, with stdin closed,
on a missing file and on binary input. Each ends with a documented exit code (README "Exit
codes") and, on error, one line on stderr; never a traceback.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_terminal import CLOSED, REPO, command, environment, in_terminal

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="POSIX pty")

EXAMPLE = REPO / "examples" / "article.html"
DATASET = REPO / "tests" / "fixtures" / "dataset"
BINARY = Path(shutil.which("ls") or "/bin/ls")
DOCUMENTED_CODES = {0, 1, 2, 3, 130}
#: How every error line starts (argparse's own errors name the command).
ERROR_LINE = re.compile(r"^blocksift( [a-z]+)?: (error: )?\S")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    """A JSONL batch of 30 pages and one line that is not a page."""
    html = EXAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "pages.jsonl"
    lines = [json.dumps({"id": f"p{i}", "html": html}) for i in range(30)]
    lines.append(json.dumps({"id": "nohtml"}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(*args: str, home: Path, stdin: bytes | None = None, closed_stdin: bool = False,
        ) -> subprocess.CompletedProcess[bytes]:
    """Not a terminal: stdout and stderr piped, stdin piped, /dev/null or closed."""
    argv = command(*args)
    if closed_stdin:
        argv = ["sh", "-c", 'exec "$@" <&-', "sh", *argv]
    return subprocess.run(argv, input=stdin, stdin=None if stdin is not None or closed_stdin
                          else subprocess.DEVNULL, capture_output=True, timeout=300,
                          env=environment(home), cwd=REPO)


def assert_clean(code: int, text: str, expected: set[int] | int) -> None:
    expected = {expected} if isinstance(expected, int) else expected
    assert code in expected, f"exit {code}, expected {expected}: {text[-800:]}"
    assert code in DOCUMENTED_CODES
    assert "Traceback" not in text and "Exception ignored" not in text, text[-2000:]


def assert_one_line_error(code: int, stderr: str, expected: int = 2) -> str:
    assert_clean(code, stderr, expected)
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert ERROR_LINE.match(lines[0]), lines[0]
    return lines[0]


# -- in a terminal ---------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_in_a_terminal_draws_progress_and_writes_every_line(home, pages, tmp_path, jobs):
    """`blocksift batch < pages.jsonl > out.jsonl` typed in a terminal (stderr is the tty)."""
    out = tmp_path / "out.jsonl"
    done = in_terminal(command("batch", "--jobs", jobs), environment(home), stdin=pages,
                       stdout=out)
    assert_clean(done.returncode, done.screen, 0)
    assert "100%" in done.screen and "31/31" in done.screen, done.screen  # a file: a total
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 31
    assert records[-1]["id"] == "nohtml" and "error" in records[-1]


def test_batch_progress_counts_every_line_of_a_small_file(home, tmp_path):
    """A file smaller than what the binary-input check peeks at (and a last line without its
    newline): the bar's total is still every line."""
    lines = [json.dumps({"id": f"p{n}", "html": f"<p>page {n} has a little text</p>"})
             for n in range(5)]
    pages = tmp_path / "small.jsonl"
    pages.write_text("\n".join(lines))
    done = in_terminal(command("batch", "--jobs", "1"), environment(home), stdin=pages,
                       stdout=tmp_path / "out.jsonl")
    assert_clean(done.returncode, done.screen, 0)
    assert "5/5" in done.screen, done.screen
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 5


def test_batch_warc_in_a_terminal_shows_how_far_it_is_through_the_files(home, tmp_path):
    """`blocksift batch --warc crawl-*.warc.gz -o out.jsonl`: the bar runs on the files' bytes
    (a share and a time left, where a count of pages has no total), with the pages beside it."""
    pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install '.[warc]'")
    from blocksift import warc

    article = EXAMPLE.read_bytes()
    for n in range(2):
        warc.write_warc_gz(tmp_path / f"crawl-{n}.warc.gz", [
            warc.other_record("request", f"http://example.org/{n}", b"GET / HTTP/1.1\r\n\r\n",
                              "application/http; msgtype=request"),
            warc.response_record(f"http://example.org/{n}", article)])
    out = tmp_path / "out.jsonl"
    done = in_terminal(command("batch", "--warc", str(tmp_path / "crawl-*.warc.gz"), "--jobs",
                               "1", "-o", str(out)), environment(home))
    assert_clean(done.returncode, done.screen, 0)
    assert "100%" in done.screen and "2 pages" in done.screen, done.screen
    assert "4 records: 2 written, 2 skipped (not-response 2)" in done.screen
    assert len(out.read_text().splitlines()) == 2


def test_eval_in_a_terminal_draws_progress_and_prints_the_table(home):
    done = in_terminal(command("eval", "--dataset", str(DATASET), "--algo", "linkblocks"),
                       environment(home))
    assert_clean(done.returncode, done.screen, 0)
    assert "100%" in done.screen and "6/6" in done.screen, done.screen  # a total: the set's
    assert re.search(r"^dataset\s+linkblocks\s+6\s", done.screen, flags=re.M), done.screen


def test_extract_in_a_terminal_and_from_typed_input(home):
    done = in_terminal(command("extract", str(EXAMPLE), "--format", "markdown"),
                       environment(home))
    assert_clean(done.returncode, done.screen, 0)
    assert done.lines[0] == "# Why Lighthouses Went Dark"
    typed = in_terminal(command("extract", "-"), environment(home),
                        typed=b"<html><body><article><p>" + b"Typed by hand into the terminal. "
                        * 20 + b"</p></article></body></html>\n\x04")
    assert_clean(typed.returncode, typed.screen, {0, 1})
    assert "end it with Ctrl-D" in typed.screen


@pytest.mark.parametrize("args, code", [
    (["--version"], 0),
    (["--help"], 0),
    (["algorithms"], 0),
    (["schema"], 0),
    (["examples", "list"], 0),
    (["install", "--dry-run", "--browser", "chromium"], 0),
    (["uninstall", "--dry-run"], 0),
    (["doctor", "--no-round-trip"], 1),  # nothing registered in a fresh home
    (["cluster", "--dataset", str(DATASET)], 0),
    (["serve", "--print-token"], 0),
    (["batch"], 2),  # stdin is the terminal: batch wants a file
    (["native"], 2),  # browsers start it; a terminal gets a one-line explanation
    (["nonesuch"], 2),
    (["extract"], 2),
])
def test_every_command_in_a_terminal(home, args, code):
    done = in_terminal(command(*args), environment(home))
    assert_clean(done.returncode, done.screen, code)
    if code == 2:
        assert len(done.lines) == 1 and ERROR_LINE.match(done.lines[0]), done.screen


def test_train_in_a_terminal(home, tmp_path):
    model = tmp_path / "farsw.json"
    done = in_terminal(command("train", "farsw", "--dataset", str(DATASET), "--out",
                               str(model)), environment(home))
    assert_clean(done.returncode, done.screen, 0)
    assert "training" in done.screen and "100%" in done.screen and model.is_file()


def test_serve_in_a_terminal_stops_on_ctrl_c(home):
    # Ctrl-C once the whole announcement is on screen: pressed between its two lines, the
    # second is never printed (that race, not the server, once failed this test under load)
    done = in_terminal(command("serve", "--port", "0"), environment(home),
                       interrupt_after=r"print-token`\)", timeout=60)
    assert_clean(done.returncode, done.screen, 0)
    # it ends with one line: the shutdown's INFO log lines ("signal received; shutting
    # down", "server stopped") said twice more what that line says
    after = done.screen.split("print-token`)", 1)[1].replace("^C", "")  # the terminal's echo
    assert [line.strip() for line in after.splitlines() if line.strip()] == [
        "blocksift serve: stopped"], done.screen


# -- stdin closed ----------------------------------------------------------------------------


@pytest.mark.parametrize("args, code", [
    (["extract", "-"], 2),
    (["batch"], 2),
    (["native"], 2),
    (["extract", str(EXAMPLE)], 0),
    (["algorithms"], 0),
    (["schema"], 0),
    (["examples", "list"], 0),
    (["eval", "--dataset", str(DATASET), "--algo", "linkblocks"], 0),
])
def test_stdin_closed(home, args, code):
    done = run(*args, home=home, closed_stdin=True)
    stderr = done.stderr.decode()
    if code == 2:
        assert_one_line_error(done.returncode, stderr)
    else:
        assert_clean(done.returncode, stderr, code)


# -- a missing file --------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["extract", "no/such/page.html"],
    ["eval", "--dataset", "no/such/set", "--algo", "auto"],
    ["cluster", "--dataset", "no/such/set"],
    ["train", "farsw", "--dataset", "no/such/set"],
    ["examples", "import", "no/such/file.jsonl"],
    ["schema", "--output", "no/such/dir/schema.json"],
])
def test_a_missing_file(home, args):
    done = run(*args, home=home)
    line = assert_one_line_error(done.returncode, done.stderr.decode())
    assert "no/such" in line


# -- binary input ----------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["extract", str(BINARY)],
    ["eval", "--dataset", str(BINARY), "--algo", "auto"],
    ["cluster", "--dataset", str(BINARY)],
    ["train", "farsw", "--dataset", str(BINARY)],
    ["examples", "import", str(BINARY)],
])
def test_binary_input_files(home, args):
    done = run(*args, home=home)
    assert_one_line_error(done.returncode, done.stderr.decode())
    assert not done.stdout.strip(), "no garbage on stdout"


@pytest.mark.parametrize("args", [["extract", "-"], ["batch", "--jobs", "1"]])
def test_binary_input_on_stdin(home, args):
    done = run(*args, home=home, stdin=BINARY.read_bytes())
    line = assert_one_line_error(done.returncode, done.stderr.decode())
    assert "not" in line and not done.stdout.strip()


@pytest.mark.parametrize("name, content, said", [
    ("settings.json", '{"a": 1,\n "b": [1, 2]}\n', "settings.json is JSON, not an HTML page"),
    ("list.json", "[1, 2, 3]", "list.json is JSON, not an HTML page"),
    ("page.json", json.dumps({"id": "a", "html": "<p>x</p>"}),
     "page.json is JSON, not an HTML page; for the page it holds: "
     "jq -r .html page.json | blocksift extract -"),
    ("pages.jsonl", '{"id": "a", "html": "<p>x</p>"}\n{"id": "b", "html": "<p>y</p>"}\n',
     "pages.jsonl is JSON lines, not an HTML page; for their pages: "
     "blocksift batch < pages.jsonl"),
    ("notes.txt", "Shopping list\n\nmilk, bread\n", "notes.txt is text without any HTML "
     "markup, not an HTML page"),
])
@pytest.mark.parametrize("where", ["file", "stdin"])
def test_extract_refuses_text_that_is_not_a_page(home, tmp_path, name, content, said, where):
    """`blocksift extract settings.json` (or a dataset's JSONL, or a text file) printed the
    file back as its "main text", exit 0, as if it had been a page."""
    path = tmp_path / name
    path.write_text(content)
    done = (run("extract", str(path), home=home) if where == "file"
            else run("extract", "-", home=home, stdin=path.read_bytes()))
    line = assert_one_line_error(done.returncode, done.stderr.decode())
    assert not done.stdout.strip()
    if where == "file":  # the hint names the file as a shell would read it
        head, _, hint = said.partition(";")
        hint = hint.replace(name, shlex.quote(str(path)))
        assert line == f"blocksift: error: {tmp_path}/{head}" + (f";{hint}" if hint else ""), line
    else:
        assert line.startswith("blocksift: error: standard input is "
                               + said.split(" is ", 1)[1].split(";")[0]), line


def test_a_page_that_starts_with_a_bracket_is_still_a_page(home, tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(b"[if it starts so]\n" + EXAMPLE.read_bytes())
    done = run("extract", str(page), home=home)
    assert done.returncode == 0, done.stderr
    assert "Lighthouses" in done.stdout.decode()


@pytest.mark.parametrize("kind", ["html", "json array", "json array on one line"])
def test_batch_refuses_a_page_or_a_json_array_on_stdin(home, kind):
    """`blocksift batch < page.html` or `< pages.json` (an array) wrote one 'bad input line'
    per line of the input and ended 'done' (exit 0); it is the wrong input, said once."""
    html = EXAMPLE.read_text(encoding="utf-8")
    pages = [{"id": "a", "html": html}, {"id": "b", "html": html}]
    given = {"html": "\n\n" + html, "json array": json.dumps(pages, indent=2),
             "json array on one line": json.dumps(pages)}[kind]
    done = run("batch", "--jobs", "1", home=home, stdin=given.encode())
    line = assert_one_line_error(done.returncode, done.stderr.decode())
    assert not done.stdout.strip()
    if kind == "html":
        assert line == ("blocksift: error: standard input is an HTML page, not JSONL pages; "
                        "for one page: blocksift extract PAGE.html"), line
    else:
        assert line == ("blocksift: error: standard input is a JSON array, not JSONL pages "
                        "(one JSON object a line): jq -c '.[]' pages.json | blocksift batch"
                        ), line


def test_nul_filled_html_is_binary(home, tmp_path):
    page = tmp_path / "page.html"
    page.write_bytes(b"<html><body>" + b"\x00" * 4096 + b"</body></html>")
    done = run("extract", str(page), home=home)
    assert "binary data" in assert_one_line_error(done.returncode, done.stderr.decode())


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_a_page_with_a_stray_nul_is_read(home, tmp_path, where):
    """One NUL byte in a page refused it as "binary data"; browsers read it as U+FFFD, and
    the text after it is the page's too."""
    html = EXAMPLE.read_bytes()
    cut = html.index(b"Gull Point")
    page = tmp_path / "page.html"
    page.write_bytes(html[:cut] + b"\x00" + html[cut:])
    done = (run("extract", str(page), home=home) if where == "file"
            else run("extract", "-", home=home, stdin=page.read_bytes()))
    assert done.returncode == 0, done.stderr
    assert "Gull Point" in done.stdout.decode()


def test_a_gzip_compressed_page_is_read_decompressed(home, tmp_path):
    import gzip

    page = tmp_path / "article.html.gz"
    page.write_bytes(gzip.compress(EXAMPLE.read_bytes()))
    compressed = run("extract", str(page), home=home)
    plain = run("extract", str(EXAMPLE), home=home)
    assert compressed.returncode == 0, compressed.stderr
    assert compressed.stdout == plain.stdout and plain.stdout.strip()
    # a compressed file that is not a page, a damaged one and a cut one are named as such
    packed = gzip.compress(EXAMPLE.read_bytes())
    damaged = packed[:-8] + bytes(b ^ 0xFF for b in packed[-8:-4]) + packed[-4:]  # its CRC
    for name, data, said in (("ls.gz", gzip.compress(BINARY.read_bytes()), "not an HTML page"),
                             ("bad.gz", damaged, "damaged gzip"),
                             ("cut.gz", gzip.compress(EXAMPLE.read_bytes())[:200], "truncated")):
        (tmp_path / name).write_bytes(data)
        done = run("extract", str(tmp_path / name), home=home)
        assert said in assert_one_line_error(done.returncode, done.stderr.decode()), name


def test_a_gzip_bomb_is_refused_not_expanded(home, tmp_path):
    import zlib

    from blocksift.cli.common import MAX_GUNZIPPED_BYTES

    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    bomb = tmp_path / "bomb.html.gz"
    with bomb.open("wb") as handle:
        handle.write(packer.compress(b"<p>"))
        zeros = b" " * (1 << 20)
        for _ in range(MAX_GUNZIPPED_BYTES // len(zeros) + 2):
            handle.write(packer.compress(zeros))
        handle.write(packer.flush())
    assert bomb.stat().st_size < 1 << 20
    done = run("extract", str(bomb), home=home)
    assert "expands to more than 64 MiB" in assert_one_line_error(done.returncode,
                                                                  done.stderr.decode())


# -- piped -----------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["extract", str(EXAMPLE)],
    ["extract", str(EXAMPLE), "--format", "json"],
    ["algorithms"],
    ["schema"],
    ["batch", "--jobs", "2"],
])
@pytest.mark.parametrize("reader", ["head -c 10 >/dev/null", "true"])
def test_piped_into_a_reader_that_stops_early(home, pages, args, reader):
    """`blocksift ... | head -1`: the reader closes the pipe (after a little, or before the
    first byte); no noise, exit 0."""
    argv = " ".join(f"'{a}'" for a in command(*args))
    shell = f"{argv} < '{pages}' | {reader}; echo \"exit=${{PIPESTATUS[0]}}\" >&2"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, timeout=300,
                          env=environment(home), cwd=REPO)
    stderr = done.stderr.decode()
    assert "exit=0" in stderr, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr


def test_piped_output_has_no_progress_bar_and_no_colour(home, pages):
    done = run("batch", "--jobs", "1", home=home, stdin=pages.read_bytes())
    assert done.returncode == 0
    assert done.stderr == b"" and b"\x1b[" not in done.stdout
    assert len(done.stdout.splitlines()) == 31


# -- specific items --------------------------------------------------------------------------


def test_a_bad_batch_line_keeps_its_id(home):
    done = run("batch", "--jobs", "1", home=home,
               stdin=b'{"id":"nohtml"}\n[1,2]\nnot json\n{"id":7,"html":3}\n')
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in out] == ["nohtml", None, None, 7]
    assert all("error" in o for o in out)


def test_serve_print_token_does_not_take_a_port(home):
    done = run("serve", "--print-token", "--port", "0", home=home)
    assert "--print-token" in assert_one_line_error(done.returncode, done.stderr.decode())


def test_examples_list_creates_nothing(home):
    done = run("examples", "list", home=home)
    assert done.returncode == 0 and b"no examples yet" in done.stdout
    assert not home.exists() or not any(home.rglob("*.sqlite3"))


def test_exit_1_when_the_page_has_no_main_text(home, tmp_path):
    empty = tmp_path / "empty.html"
    empty.write_text("<html><body></body></html>")
    done = run("extract", str(empty), home=home)
    assert done.returncode == 1
    line = assert_one_line_error(done.returncode, done.stderr.decode(), expected=1)
    assert re.search(r"(empty|not_suitable)", line)


def test_every_command_module_declares_the_help_main_lists():
    """`blocksift --help` lists commands from main.COMMANDS without importing them; the
    help there must say what each module's own parser says."""
    import argparse

    from blocksift.cli.main import COMMANDS, build_parser

    full = build_parser()  # imports every module
    actions = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    declared = {choice.dest: choice.help for choice in actions._choices_actions}
    assert declared == {name: help_text for name, _module, help_text in COMMANDS}


def test_batch_in_a_terminal_with_stdin_closed(home):
    """`blocksift batch <&-` at a prompt: one line on the terminal, exit 2."""
    done = in_terminal(command("batch"), environment(home), stdin=CLOSED)
    assert_clean(done.returncode, done.screen, 2)
    assert done.lines == ["blocksift: error: standard input is closed; redirect a file to it "
                          "or pipe input in"]


def test_install_doctor_uninstall_as_a_person_does(home):
    """Two Chromium-family browsers share one host command: doctor measures it once and says
    so on the second row; uninstall then removes the host's logs and cache as well."""
    browsers = ["--browser", "chrome", "--browser", "chromium"]
    installed = run("install", *browsers, home=home)
    assert_clean(installed.returncode, installed.stderr.decode(), 0)
    done = in_terminal(command("doctor", *browsers), environment(home), timeout=120)
    assert_clean(done.returncode, done.screen, 0)
    assert len(re.findall(r"round trip: hello", done.screen)) == 1, done.screen
    assert "round trip: the same host command as Google Chrome" in done.screen, done.screen
    report = json.loads(run("doctor", *browsers, "--json", home=home).stdout)
    assert [r["round_trip_measured_for"] for r in report["browsers"]] == [None, "Google Chrome"]
    logs, cache = home / "state" / "logs", home / "cache"
    assert logs.is_dir() and cache.is_dir(), "the host's round trip wrote its log and cache"
    imported = run("examples", "import", str(DATASET / "pages.jsonl"), home=home)
    assert imported.returncode == 0, imported.stderr
    removed = run("uninstall", home=home)
    assert_clean(removed.returncode, removed.stderr.decode(), 0)
    assert not logs.exists() and not cache.exists()
    assert b"kept your data" in removed.stdout
    assert run("examples", "list", home=home).stdout.count(b"\n") >= 6, "the user's data stays"


@pytest.mark.parametrize("command_name", ["batch", "eval", "cluster", "train",
                                          "examples import"])
def test_progress_options_have_help(command_name):
    """Every command that draws a bar takes both (train and examples import took only
    --no-progress: no bar in a log file, however long the run)."""
    done = run(*command_name.split(), "--help", home=Path("/nonexistent-home"))
    text = " ".join(done.stdout.decode().split())
    assert "--progress show a progress bar" in text and "--no-progress no progress bar" in text


def test_batch_help_says_what_goes_in_and_comes_out(tmp_path):
    """`blocksift batch --help` had options only: not a word on the JSONL it reads."""
    done = run("batch", "--help", home=tmp_path)
    text = " ".join(done.stdout.decode().split())
    assert 'JSONL in FILE or on standard input (gzip-compressed too), one {"id", "html", "url"} ' \
           'object a line' in text, text[:600]
    assert 'one line per page, in input order: {"id", "text", "title", "metadata", "blocks", ' \
           '"status", "ms"}, or {"id", "error", "code"}' in text
    assert "blocksift batch pages.jsonl > out.jsonl" in text


def test_ctrl_c_stops_batch_with_workers_quietly(home, pages):
    """Ctrl-C reaches every process of the terminal's group: the workers stay quiet, the
    parent drops the queued pages and exits 130 with one line."""
    argv = " ".join(f"'{a}'" for a in command("batch", "--jobs", "2"))
    shell = f"(cat '{pages}'; sleep 60) | {argv} > /dev/null; echo \"exit=$?\""
    done = in_terminal(["bash", "-c", shell], environment(home), interrupt_after=r"[1-9][0-9]*page \[",
                       timeout=120)
    assert "Traceback" not in done.screen and "KeyboardInterrupt" not in done.screen, \
        done.screen
    assert "blocksift: interrupted" in done.screen


def test_ctrl_c_during_batch_says_what_was_written_and_leaves_whole_lines(home, tmp_path):
    """`blocksift batch < pages.jsonl -o out.jsonl`, Ctrl-C part way: the output holds the
    first pages' lines, each whole JSON, and the last words say how many; the bar stays where
    it was stopped (it showed '100% 30/30' of a 400-page file, as if the run had finished)."""
    html = EXAMPLE.read_text(encoding="utf-8")
    pages = tmp_path / "many.jsonl"
    pages.write_text("".join(json.dumps({"id": f"p{n}", "html": html}) + "\n"
                             for n in range(400)), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = in_terminal(command("batch", "--jobs", "1", "-o", str(out)), environment(home),
                       stdin=pages, interrupt_after=r" [1-9][0-9]*/400 ", timeout=240)
    assert_clean(done.returncode, done.screen, 130)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert 0 < len(records) < 400, done.screen
    assert [r["id"] for r in records] == [f"p{n}" for n in range(len(records))]
    last = done.lines[-1]
    assert last.startswith("blocksift: interrupted"), done.screen
    assert f"{len(records)} of 400 pages" in last and str(out) in last, last
    assert "100%" not in done.screen and f"{len(records)}/{len(records)}" not in done.screen


@pytest.mark.parametrize("action", ["extract", "hide"])
def test_ctrl_c_during_eval_ends_with_its_message_below_the_bar(home, tmp_path, action):
    """Ctrl-C part way through `blocksift eval`: the bar stays where it stopped and the last
    line is 'blocksift: interrupted' (the bar was drawn again below the message, which was
    left at the end of the bar's line)."""
    first = (DATASET / "pages.jsonl").read_text(encoding="utf-8").splitlines()[0]
    pages = tmp_path / "many" / "pages.jsonl"
    pages.parent.mkdir()
    pages.write_text((first + "\n") * 400, encoding="utf-8")
    done = in_terminal(command("eval", "--dataset", str(pages.parent), "--algo", "linkblocks",
                               "--action", action),
                       environment(home), interrupt_after=r" [1-9][0-9]*/400 ", timeout=240)
    assert_clean(done.returncode, done.screen, 130)
    if action == "extract":  # the scores of the pages before (see below)
        assert done.lines[-1].startswith("blocksift: interrupted: the scores above are of "
                                         "the first "), done.screen[-600:]
    else:
        assert done.lines[-1].strip() == "blocksift: interrupted", done.screen[-600:]
    assert "100%" not in done.screen


def test_ctrl_c_during_eval_prints_the_scores_of_the_pages_before(home, tmp_path):
    """Ctrl-C 10 minutes into an evaluation printed 'interrupted' and nothing of what was
    scored; now the page being scored finishes and the table of those before is printed."""
    first = (DATASET / "pages.jsonl").read_text(encoding="utf-8").splitlines()[0]
    pages = tmp_path / "many" / "pages.jsonl"
    pages.parent.mkdir()
    pages.write_text((first + "\n") * 400, encoding="utf-8")
    done = in_terminal(command("eval", "--dataset", str(pages.parent), "--algo", "linkblocks"),
                       environment(home), interrupt_after=r" [1-9][0-9]*/400 ", timeout=240)
    assert_clean(done.returncode, done.screen, 130)
    found = re.fullmatch(r"blocksift: interrupted: the scores above are of the first (\d+) "
                         r"of 400 pages of many", done.lines[-1].strip())
    assert found, done.screen[-600:]
    scored = int(found.group(1))
    assert 0 < scored < 400
    assert re.search(rf"^many\s+linkblocks\s+{scored}\s+\d\.\d{{3}}", done.screen,
                     flags=re.M), done.screen[-1200:]
    assert "Traceback" not in done.screen and "KeyboardInterrupt" not in done.screen


def test_ctrl_c_during_batch_warc_accounts_for_the_records_so_far(home, tmp_path):
    """`blocksift batch --warc crawl.warc.gz -o out.jsonl`, Ctrl-C part way: the record count
    that ends a run is given for the records settled so far (it was only 'interrupted'), and
    the output holds their lines, whole."""
    pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install '.[warc]'")
    from blocksift import warc

    article = EXAMPLE.read_bytes()
    warc.write_warc_gz(tmp_path / "crawl.warc.gz", [
        record for n in range(300) for record in (
            warc.other_record("request", f"http://example.org/{n}", b"GET / HTTP/1.1\r\n\r\n",
                              "application/http; msgtype=request"),
            warc.response_record(f"http://example.org/{n}", article))])
    out = tmp_path / "out.jsonl"
    done = in_terminal(command("batch", "--warc", str(tmp_path / "crawl.warc.gz"), "--jobs",
                               "1", "-o", str(out)), environment(home),
                       interrupt_after=r"[1-9][0-9]* pages\]", timeout=240)
    assert_clean(done.returncode, done.screen, 130)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert 0 < len(records) < 300
    assert [r["url"] for r in records] == [f"http://example.org/{n}"
                                           for n in range(len(records))]
    last = done.lines[-1]
    found = re.fullmatch(r"blocksift: interrupted: warc: (\d+) records: (\d+) written, "
                         r"(\d+) skipped \(not-response \d+\), to (.+)", last.strip())
    assert found, done.screen[-800:]
    settled, written, skipped = map(int, found.groups()[:3])
    assert written == len(records) and settled == written + skipped
    assert found.group(4) == f"{out} (whole lines, in record order)"


def test_ctrl_c_while_imported_examples_adapt_auto_says_they_are_stored(home, tmp_path):
    """Ctrl-C during 'adapting auto to their sites' (minutes for a dev set): the examples are
    stored and the rest of the adaptation is applied later; it said only 'interrupted'."""
    html = EXAMPLE.read_text(encoding="utf-8")
    pages = tmp_path / "pages.jsonl"
    pages.write_text("".join(json.dumps({"id": str(n), "url": f"https://s{n % 7}.example/{n}",
                                         "html": html, "gold": "Gull Point"}) + "\n"
                             for n in range(300)), encoding="utf-8")
    done = in_terminal(command("examples", "import", str(pages)), environment(home),
                       interrupt_after=r"adapting auto to their sites: +\d+%\|[^|]*\| [1-9]",
                       timeout=240)
    assert_clean(done.returncode, done.screen, 130)
    assert done.lines[-1].strip() == (
        "blocksift: interrupted: imported 300 example(s); auto's adaptation to their sites "
        "is finished by the next `blocksift examples` change or by the host"), done.screen[-600:]
    listed = run("examples", "list", "--json", "--limit", "1000", home=home)
    assert len(json.loads(listed.stdout)) == 300
    # the sites' files adapted so far, each whole, and no lock file beside them (one was
    # left beside each)
    sites = home / "data" / "models" / "auto-sites"
    written = sorted(sites.glob("*.json"))
    assert written and all(json.loads(path.read_text()) for path in written)
    assert sorted(sites.iterdir()) == written


def test_batch_reads_gzip_jsonl_on_stdin(home, tmp_path):
    """`blocksift batch < pages.jsonl.gz` (how the dev sets are stored) was refused as 'gzip
    data, not JSONL pages'; it is read decompressed, as extract reads page.html.gz. Cut short,
    it ends in one error line after the whole lines of the pages before."""
    import gzip

    html = EXAMPLE.read_text(encoding="utf-8")
    rows = "".join(json.dumps({"id": f"p{n}", "html": html + " " * 3000 + str(n)}) + "\n"
                   for n in range(40))
    packed = gzip.compress(rows.encode(), mtime=0)
    done = run("batch", "--jobs", "1", home=home, stdin=packed)
    assert_clean(done.returncode, done.stderr.decode(), 0)
    assert [json.loads(line)["id"] for line in done.stdout.decode().splitlines()] == \
        [f"p{n}" for n in range(40)]
    done = run("batch", "--jobs", "1", home=home, stdin=packed[: len(packed) * 2 // 3])
    line = assert_one_line_error(done.returncode, done.stderr.decode())
    assert line == "blocksift: error: standard input is truncated gzip data", line
    written = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [r["id"] for r in written] == [f"p{n}" for n in range(len(written))]


def _typed_set(path: Path) -> Path:
    """Three pages of two page types, with gold and snippets: every table eval prints."""
    html = EXAMPLE.read_text(encoding="utf-8")
    rows = [{"id": f"page-{n}", "html": html, "page_type": kind,
             "gold": "For nearly two centuries the lamp at Gull Point turned every night",
             "snippets_with": ["Gull Point"], "snippets_without": ["Subscribe"]}
            for n, kind in enumerate(["article", "article", "forum"])]
    path.mkdir()
    (path / "pages.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows),
                                      encoding="utf-8")
    return path


TABLE_TITLES = ("dataset", "algorithm", "pages", "P", "R", "F1", "pageF1", "wordF1", "snip+",
                "snip-", "empty", "fail", "med ms", "p95 ms", "statuses", "wordP", "wordR")


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("action", ["extract", "hide"])
def test_eval_tables_fit_the_terminal(home, tmp_path, columns, action):
    """eval's table was 120 columns wide (hide's 103) and every row wrapped in a 100-column
    terminal: now it fits, stacked in blocks that each start with the dataset and algorithm,
    and every figure is still on the screen."""
    dataset = _typed_set(tmp_path / "typed-news-set")
    done = in_terminal(command("eval", "--dataset", str(dataset), "--algo", "linkblocks",
                               "--action", action, "--no-progress"), environment(home),
                       columns=columns)
    assert_clean(done.returncode, done.screen, 0)
    assert max(len(line) for line in done.lines) <= columns, done.screen
    piped = run("eval", "--dataset", str(dataset), "--algo", "linkblocks", "--action", action,
                home=home)
    assert_clean(piped.returncode, piped.stderr.decode(), 0)
    whole = piped.stdout.decode()
    for title in (TABLE_TITLES if action == "extract" else ("hider", "clutter rm", "link rm")):
        assert re.search(rf"(^| ){re.escape(title)}( |$)", done.screen, flags=re.M), title
    # the same scores as the whole (piped) table, and every row of scores starts with its
    # dataset (or page type); milliseconds differ from run to run and are left out
    def scores(text: str) -> list[str]:
        return sorted(re.findall(r"\b\d\.\d{3}\b", text))

    assert scores(done.screen) == scores(whole) != []
    for line in done.lines:
        if re.search(r"\d\.\d{3}", line):
            assert line.startswith(("typed-news-set ", "all ", "article ", "forum ")), line


@pytest.mark.parametrize("action", ["extract", "hide"])
def test_eval_piped_prints_each_table_whole(home, tmp_path, action):
    """Piped (or redirected), one line per row with every column, whatever the terminal
    the shell runs in: what a script reads."""
    dataset = _typed_set(tmp_path / "typed-news-set")
    done = run("eval", "--dataset", str(dataset), "--algo", "linkblocks", "--action", action,
               home=home)
    assert_clean(done.returncode, done.stderr.decode(), 0)
    lines = done.stdout.decode().splitlines()
    headers = [line for line in lines if line.startswith("dataset ")]
    assert len(headers) == 1, lines
    if action == "extract":
        assert headers[0].split()[:3] == ["dataset", "algorithm", "pages"]
        assert headers[0].endswith("statuses")
        (row,) = [line for line in lines if line.startswith("typed-news-set linkblocks ")]
        assert row.endswith("ok=3") and len(row.split()) == 15, row
    else:
        assert headers[0].endswith("link rm")
        assert len([line for line in lines if line.startswith("typed-news-set ")]) == 2


@pytest.mark.parametrize("columns", [60, 80])
def test_algorithms_in_a_terminal_wraps_under_each_indent(home, columns):
    """Descriptions of 300 characters wrapped mid-word at column 0 of a terminal; now they
    wrap at its width under their indent, with the same words as the piped lines."""
    done = in_terminal(command("algorithms"), environment(home), columns=columns)
    assert_clean(done.returncode, done.screen, 0)
    assert max(len(line) for line in done.lines) <= columns, done.screen
    piped = run("algorithms", home=home)
    assert done.screen.split() == piped.stdout.decode().split()
    assert max(len(line) for line in piped.stdout.decode().splitlines()) > columns
    # a wrapped description's lines keep its indent: none starts at column 0 but the names
    names = [line for line in done.lines if not line.startswith(" ")]
    assert len(names) == len(re.findall(r"^\S", piped.stdout.decode(), flags=re.M)) >= 5


def test_algorithms_names_one_and_says_a_misspelled_one(home):
    done = run("algorithms", "linkblocks", "--json", home=home)
    assert [entry["name"] for entry in json.loads(done.stdout)] == ["linkblocks"]
    wrong = run("algorithms", "lnkblocks", home=home)
    line = assert_one_line_error(wrong.returncode, wrong.stderr.decode())
    assert "unknown algorithm 'lnkblocks' (did you mean linkblocks?)" in line


def test_batch_in_a_terminal_ends_with_how_the_pages_went(home, pages, tmp_path):
    """Under the bar, a run ended with nothing said: a file with error lines looked like a
    clean run until its lines were read. Piped, stderr stays quiet (see above)."""
    out = tmp_path / "out.jsonl"
    done = in_terminal(command("batch", "--jobs", "1", "-o", str(out)), environment(home),
                       stdin=pages)
    assert_clean(done.returncode, done.screen, 0)
    assert done.lines[-1] == f"blocksift: batch: 31 lines written to {out}: ok 30, error 1"
    assert len(out.read_text(encoding="utf-8").splitlines()) == 31


def test_examples_list_lines_up_chinese_titles(home, tmp_path):
    """A Chinese title takes two terminal columns a character: padded by len() its row's
    URL stood up to 25 columns right of the others'."""
    from blocksift.terminal import display_width

    html = EXAMPLE.read_text(encoding="utf-8")
    titles = ["北医新闻网_(新闻)", "Why Lighthouses Went Dark",
              "脂溢性脱发：爱出油快秃顶？你知道什么该吃什么不该吃吗？-报社新闻-查报纸网", ""]
    pages = tmp_path / "pages.jsonl"
    pages.write_text("".join(json.dumps({"id": str(n), "url": f"https://s{n}.example/page",
                                         "title": title, "html": html, "gold": "Gull Point"},
                                        ensure_ascii=False) + "\n"
                             for n, title in enumerate(titles)), encoding="utf-8")
    imported = run("examples", "import", str(pages), "--no-progress", home=home)
    assert_clean(imported.returncode, imported.stderr.decode(), 0)
    done = run("examples", "list", home=home)
    rows = done.stdout.decode("utf-8").splitlines()
    assert len(rows) == 4
    starts = {display_width(row[:row.index("https://")]) for row in rows}
    assert len(starts) == 1, rows
    assert max(display_width(row[:row.index("https://")]) for row in rows) <= 5 + 2 + 16 + 2 \
        + 6 + 8 + 50 + 2


def test_cluster_in_a_terminal_shows_how_far_it_is(home):
    """`cluster -d wcxb-dev` ran 85 s with nothing on the screen; now a bar counts the
    pages of the sites clustered so far (piped, stderr stays empty)."""
    done = in_terminal(command("cluster", "--dataset", str(DATASET)), environment(home))
    assert_clean(done.returncode, done.screen, 0)
    assert re.search(r"clustering: 100%\|.*\| 6/6 ", done.screen), done.screen
    assert "gazette.example: 1 page, 0 classes, 1 page in no class" in done.lines
    piped = run("cluster", "--dataset", str(DATASET), home=home)
    assert_clean(piped.returncode, piped.stderr.decode(), 0)
    assert piped.stderr == b""


def test_install_dry_run_says_each_folder_once(home):
    """Nothing is made in a dry run, so every browser's plan would make the folders they
    share again: 'would mkdir HOME' was printed once per browser."""
    done = run("install", "--dry-run", home=home)
    assert_clean(done.returncode, done.stderr.decode(), 0)
    lines = [line for line in done.stdout.decode().splitlines() if line.startswith("would ")]
    assert lines and len(lines) == len(set(lines)), lines
    assert f"would mkdir           {home}" in lines
    assert not home.exists()


def test_serve_on_a_port_in_use_says_so_once(home):
    """The error repeated the address in asyncio's words: 'cannot listen on 127.0.0.1 port
    N: error while attempting to bind on address ('127.0.0.1', N): address already in use'."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("serve", "--port", str(port), home=home)
    line = assert_one_line_error(done.returncode, done.stderr.decode(), expected=1)
    assert line == (f"blocksift: error: cannot listen on 127.0.0.1 port {port}: Address "
                    "already in use (is another `blocksift serve` running? try another "
                    "--port)"), line


def test_examples_list_says_when_it_shows_only_the_newest(home, tmp_path):
    """`examples list` showed the 50 newest of any number, as if they were all."""
    html = EXAMPLE.read_text(encoding="utf-8")
    pages = tmp_path / "pages.jsonl"
    pages.write_text("".join(json.dumps({"id": str(n), "url": f"https://s{n}.example/page",
                                         "html": html, "gold": "Gull Point"}) + "\n"
                             for n in range(4)), encoding="utf-8")
    assert run("examples", "import", str(pages), "--no-progress", home=home).returncode == 0
    cut = run("examples", "list", "--limit", "3", home=home)
    assert_clean(cut.returncode, cut.stderr.decode(), 0)
    assert len(cut.stdout.splitlines()) == 3
    assert cut.stderr.decode() == ("blocksift: the 3 newest of 4 examples; --limit N lists "
                                   "more\n")
    for whole in (run("examples", "list", home=home),
                  run("examples", "list", "--limit", "4", home=home)):
        assert whole.stderr == b"" and len(whole.stdout.splitlines()) == 4
    helped = run("examples", "list", "--help", home=home).stdout.decode()
    assert "the N newest (default 50" in " ".join(helped.split())
    described = run("examples", "import", "--help", home=home).stdout.decode()
    assert "add the pages of a datasets-format file" in described


def test_extract_action_hide_in_a_terminal_wraps_each_reason_under_its_element(home):
    """`extract --action hide` lines of 100 and more columns wrapped at column 0 of an
    80-column terminal; the reasons now wrap under their indent (piped: a line each)."""
    done = in_terminal(command("extract", str(EXAMPLE), "--action", "hide"),
                       environment(home), columns=80)
    assert_clean(done.returncode, done.screen, 0)
    assert max(len(line) for line in done.lines) <= 80, done.screen
    piped = run("extract", str(EXAMPLE), "--action", "hide", home=home).stdout.decode()
    assert max(len(line) for line in piped.splitlines()) > 80
    assert done.screen.split() == piped.split()
    # a line per element, its reason's further lines under the reason
    assert len([line for line in done.lines if not line.startswith(" ")]) == \
        len(piped.splitlines())
    assert all(line.startswith(" " * 9) and line[9] != " " for line in done.lines
               if line.startswith(" "))


def test_examples_list_names_untitled_pages_and_fits_the_terminal(home, tmp_path):
    """Imported pages have no title: the list said '(no title)' on each, and its lines, 150
    columns and more with the URL, wrapped in an 80-column terminal. An untitled page is
    named by its URL's host and path (the path's end kept when cut), else by its first
    words; in a terminal each line fits, piped it is whole."""
    html = "<html><body><article><p>" + "Plain words of a page. " * 20 + "</p></article>"
    long_url = ("http://www.example.com/reuters/2012/07/24/world/middleeast/"
                "24reuters-syria-crisis-aleppo.html?ref=world")
    rows = [{"id": "a", "url": long_url, "html": html, "gold": "Plain words of a page."},
            {"id": "b", "url": "https://www.example.org/news/lighthouses/", "html": html,
             "gold": "Plain words of a page."},
            {"id": "c", "html": html, "gold": "No address, only words."}]
    dataset = tmp_path / "untitled.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert run("examples", "import", str(dataset), home=home).returncode == 0
    piped = run("examples", "list", home=home).stdout.decode().splitlines()
    assert "(no title)" not in "\n".join(piped)
    titles = [line.split("chars  ", 1)[1] for line in piped]
    assert titles[0] == "\u201cNo address, only words.\u201d"
    assert titles[1].startswith("example.org/news/lighthouses  ")
    assert titles[1].endswith("  https://www.example.org/news/lighthouses/")  # piped: whole
    assert titles[2].startswith("example.com/\u2026/24reuters-syria-crisis-aleppo.html  ")
    assert titles[2].endswith(long_url)
    for columns in (60, 80):
        done = in_terminal(command("examples", "list"), environment(home), columns=columns)
        assert_clean(done.returncode, done.screen, 0)
        assert len(done.lines) == 3, done.screen  # one line each, none wrapped
        assert all(len(line) < columns for line in done.lines), done.screen


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("args", [["--algo", "clustering"],
                                  ["--action", "hide", "--cv", "inter", "--folds", "3"]])
def test_clustering_and_hide_folds_fit_the_terminal(home, tmp_path, columns, args):
    """The clustering table was 111 columns and more, and --action hide --cv printed each
    fold's thresholds as a Python dict on a line of 118 columns: both wrapped in an
    80-column terminal. They fit, with the same figures as the whole table piped."""
    html = EXAMPLE.read_text(encoding="utf-8")
    rows = [{"id": f"{site}-{n}", "site": f"{site}.example", "html": html + f"<!-- {n} -->",
             "gold": "For nearly two centuries the lamp at Gull Point turned every night"}
            for site in ("harbour", "coast", "bay") for n in range(4)]
    dataset = tmp_path / "sites.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    argv = ["eval", "--dataset", str(dataset), *args, "--out", str(tmp_path / "out")]
    done = in_terminal(command(*argv, "--no-progress"), environment(home), columns=columns)
    assert_clean(done.returncode, done.screen, 0)
    # a file's path is left whole, to be copied
    assert [line for line in done.lines if len(line) >= columns
            and not line.startswith("per-site table written to /")] == [], done.screen
    piped = run(*argv, home=home)
    assert_clean(piped.returncode, piped.stderr.decode(), 0)
    whole = piped.stdout.decode()
    from blocksift.evaluation.hide import varied

    # (the settings the folds choose among are hide's: a new one is a new column)
    header = ("site pages train test cls P R F1 acc cl P cl R cl F1 cl acc"
              if "clustering" in args else
              " ".join(["fold", *varied(), "held-out pages"]))
    assert "clustering" in args or "restraint_link_lists" in header
    assert header in [" ".join(line.split()) for line in whole.splitlines()], whole
    assert "{" not in whole

    def scores(text: str) -> list[str]:
        return sorted(re.findall(r"\b\d\.\d+%?(?= |$)", text, flags=re.M))

    table = whole.split("with clustering, how")[0]  # the milliseconds below differ
    assert scores(done.screen.split("with clustering, how")[0]) == scores(table) != []


def test_cluster_wraps_its_long_lines_in_a_terminal(home, tmp_path):
    """A class's rule and its members ran to 176 columns on the dev sets and wrapped at
    column 0 of the terminal; they wrap under their indent, and piped stay a line each."""
    html = EXAMPLE.read_text(encoding="utf-8")
    rows = [{"id": f"a-rather-long-page-identifier-{n:02d}", "site": "harbour.example",
             "html": html + f"<!-- {n} -->", "gold": "Gull Point"} for n in range(8)]
    dataset = tmp_path / "site.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    piped = run("cluster", "--dataset", str(dataset), home=home)
    assert_clean(piped.returncode, piped.stderr.decode(), 0)
    whole = piped.stdout.decode().splitlines()
    assert max(map(len, whole)) > 80, whole  # what there is to wrap
    done = in_terminal(command("cluster", "--dataset", str(dataset), "--no-progress"),
                       environment(home), columns=80)
    assert_clean(done.returncode, done.screen, 0)
    assert [line for line in done.lines if len(line) >= 80] == [], done.screen
    assert " ".join(done.screen.split()) == " ".join(" ".join(whole).split())


def test_install_notes_wrap_under_an_indent_in_a_terminal(home):
    """install's and doctor's sentences (a browser not installed, nothing registered) ran to
    90 columns and more and wrapped at column 0; in a terminal they wrap under an indent,
    piped they are a line each."""
    browsers = ["--browser", "firefox", "--browser", "chrome", "--browser", "edge"]
    for argv in (["install", "--dry-run", *browsers], ["doctor", *browsers]):
        piped = run(*argv, home=home)
        sentences = [line for line in piped.stdout.decode().splitlines()
                     if line.startswith(("note:", "not registered:"))]
        assert sentences and max(map(len, sentences)) > 60, piped.stdout
        done = in_terminal(command(*argv), environment(home), columns=60)
        assert_clean(done.returncode, done.screen, piped.returncode)
        for sentence in sentences:
            first = sentence[:30]
            (start,) = [i for i, line in enumerate(done.lines) if line.startswith(first)]
            shown = [done.lines[start]] + [
                line for line in done.lines[start + 1:start + 3] if line.startswith("  ")]
            assert all(len(line) < 60 for line in shown), done.screen
            assert " ".join(" ".join(shown).split()) == sentence, done.screen


def test_train_farsw_rules_wrap_under_their_indent(home, tmp_path):
    """The frequent regions of a trained FAR-SW model are one line of 90 to 100 columns; it
    wrapped at column 0 of the terminal. It wraps under its indent; piped, a line."""
    argv = ["train", "farsw", "--dataset", str(DATASET)]
    piped = run(*argv, "--out", str(tmp_path / "piped.json"), home=home)
    assert_clean(piped.returncode, piped.stderr.decode(), 0)
    (regions,) = [line for line in piped.stdout.decode().splitlines()
                  if line.startswith("  frequent regions: ")]
    assert len(regions) > 60
    done = in_terminal(command(*argv, "--out", str(tmp_path / "shown.json"), "--no-progress"),
                       environment(home), columns=60)
    assert_clean(done.returncode, done.screen, 0)
    assert [line for line in done.lines if len(line) >= 60 and "model: " not in line] == []
    start = next(i for i, line in enumerate(done.lines)
                 if line.startswith("  frequent regions: "))
    assert done.lines[start + 1].startswith("      ")
    assert " ".join(done.lines[start:start + 2]).split() == regions.split()


def test_farsw_cross_validation_sentences_fit_the_terminal(home, tmp_path):
    """`eval --algo farsw --cv inter` began with '(leave-site-fold)' and ended with a line of
    138 columns, wrapped at column 0; it says leave-one-site-out and wraps under an indent."""
    html = EXAMPLE.read_text(encoding="utf-8")
    rows = [{"id": f"{site}-{n}", "site": f"{site}.example", "html": html + f"<!-- {n} -->",
             "gold": "For nearly two centuries the lamp at Gull Point turned every night"}
            for site in ("harbour", "coast") for n in range(10)]
    dataset = tmp_path / "sites.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    argv = ["eval", "--dataset", str(dataset), "--algo", "farsw", "--cv", "inter", "--out",
            str(tmp_path / "out")]
    piped = run(*argv, home=home)
    assert_clean(piped.returncode, piped.stderr.decode(), 0)
    lines = piped.stdout.decode().splitlines()
    assert lines[0].startswith("FAR-SW inter-site cross-validation (leave-one-site-out), "
                               "20 pages loaded"), lines
    assert len(lines[-1]) > 80
    done = in_terminal(command(*argv, "--no-progress"), environment(home), columns=80)
    assert_clean(done.returncode, done.screen, 0)
    assert [line for line in done.lines if len(line) >= 80] == [], done.screen
    assert " ".join(done.lines[-2:]).split() == lines[-1].split()


def test_examples_list_in_a_narrow_terminal_keeps_the_replaced_mark(home, tmp_path):
    """In an 80-column terminal a long URL was cut from its end, and the '(replaced N)' after
    it went with it (or with the whole URL, where no room was left): the one mark that says
    an example's page was labeled before, and its earlier label can be restored."""
    html = EXAMPLE.read_text(encoding="utf-8")
    long_url = "https://store.example.com/app/1174180/Red_Dead_Redemption_2_Ultimate_Edition/"
    pages = tmp_path / "pages.jsonl"
    pages.write_text("".join(json.dumps({"id": str(n), "url": url, "title": title, "html": html,
                                         "gold": "Gull Point"}) + "\n"
                             for n, (url, title) in enumerate([
                                 (long_url, "Red Dead Redemption 2 on Store"),
                                 ("https://s.example/a", "A title of fifty columns, more or less"
                                  " than that one")])), encoding="utf-8")
    for how in ("skip", "replace"):
        imported = run("examples", "import", str(pages), "--on-duplicate", how, "--no-progress",
                       home=home)
        assert_clean(imported.returncode, imported.stderr.decode(), 0)
    piped = run("examples", "list", home=home).stdout.decode().splitlines()
    assert sum("(replaced " in row for row in piped) == 2, piped
    for columns in (80, 70):
        done = in_terminal(command("examples", "list"), environment(home), columns=columns)
        assert_clean(done.returncode, done.screen, 0)
        rows = [row for row in done.lines if "chars" in row]
        assert len(rows) == 2, done.screen
        assert all(len(row) <= columns - 1 for row in rows), rows
        assert sorted(re.findall(r"\(replaced \d+\)", " ".join(rows))) == ["(replaced 1)",
                                                                           "(replaced 2)"], rows


def test_train_per_site_in_a_terminal_shows_how_far_it_is(home):
    """`train auto --per-site` read and counted every page with nothing on the screen but
    the sites' lines at the end; now a bar counts the pages read, then the pages counted."""
    done = in_terminal(command("train", "auto", "--per-site", "--min-site-pages", "1",
                               "--dataset", str(DATASET)), environment(home))
    assert_clean(done.returncode, done.screen, 0)
    assert re.search(r"reading: 100%\|.*\| 6/6 ", done.screen), done.screen
    # all 6: dir.example's page, gold "" (no main text), is a label too
    assert re.search(r"counting: 100%\|.*\| 6/6 ", done.screen), done.screen
    assert "\rgazette.example: 1 page -> " in done.screen, done.screen
    assert "\rdir.example: 1 page -> " in done.screen, done.screen


def _every_help() -> list[list[str]]:
    """`blocksift --help`, each command's and each `examples` action's."""
    from blocksift.cli.main import COMMANDS

    names = [[]] + [[name] for name, _module, _help in COMMANDS]
    names += [["examples", action] for action in ("list", "show", "delete", "export",
                                                   "import", "repair", "export-folders")]
    return names


@pytest.mark.parametrize("words", _every_help(), ids=lambda words: " ".join(words) or "-")
def test_help_fits_a_terminal_of_60_columns(home, words):
    """In a terminal of 60 columns, `extract --help` had a line of 66
    ('--format {text,json,html,markdown}, -f {text,json,html,markdown}') and `serve --help`
    one of 63: a choice list as the metavar is not wrapped by argparse."""
    done = in_terminal(command(*words, "--help"), environment(home), columns=60)
    assert_clean(done.returncode, done.screen, 0)
    long = [line for line in done.screen.split("\n") if len(line) > 60]
    assert not long, "\n".join(long)


def test_a_batch_stopped_by_ctrl_c_goes_on_with_resume(home, tmp_path):
    """Ctrl-C part way through `batch -o out.jsonl`, then the same command with --resume:
    the pages written are skipped, the rest appended, a last line cut short (a run killed)
    dropped first; the file ends as one whole run's (re-running wrote it all anew)."""
    html = EXAMPLE.read_text(encoding="utf-8")
    pages = tmp_path / "many.jsonl"
    pages.write_text("".join(json.dumps({"id": f"p{n}", "html": html}) + "\n"
                             for n in range(300)), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    stopped = in_terminal(command("batch", "--jobs", "1", "-o", str(out)), environment(home),
                          stdin=pages, interrupt_after=r" [1-9][0-9]*/300 ", timeout=240)
    assert_clean(stopped.returncode, stopped.screen, 130)
    assert stopped.lines[-1].endswith("; --resume goes on from there"), stopped.screen
    before = out.read_text(encoding="utf-8").count("\n")
    assert 0 < before < 300
    with out.open("a", encoding="utf-8") as handle:
        handle.write('{"id": "p999", "te')  # killed while writing a line
    done = in_terminal(command("batch", "--jobs", "2", "-o", str(out), "--resume"),
                       environment(home), stdin=pages, timeout=240)
    assert_clean(done.returncode, done.screen, 0)
    assert "300/300" in done.screen, done.screen
    assert done.lines[-1] == (f"blocksift: batch: {300 - before} lines written to {out} "
                              f"after its {before}: ok {300 - before}"), done.screen
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == [f"p{n}" for n in range(300)]
    assert all("Gull Point" in r["text"] for r in records)


@pytest.mark.parametrize("args, written, message", [
    ([], None, "--resume needs --output FILE: the JSONL file of the run to go on with"),
    (["-o", "out.parquet"], None,
     "--resume appends to a JSONL --output; a Parquet file cannot be added to"),
    (["-o", "out.jsonl"], [f"p{n}" for n in range(40)],
     "cannot resume out.jsonl: it holds 40 lines, more than the 31 pages of the input"),
    (["-o", "out.jsonl"], ["p0", "other"],
     "cannot resume out.jsonl: its line 2 is of page 'other', the input's page 2 is 'p1'; "
     "not the same input (without --resume it is written anew)"),
])
def test_resume_refuses_what_it_cannot_go_on_with(home, pages, tmp_path, args, written,
                                                  message):
    """Said before any page runs, and the output left as it was."""
    out = tmp_path / "out.jsonl"
    if written is not None:
        out.write_text("".join(json.dumps({"id": i, "text": ""}) + "\n" for i in written),
                       encoding="utf-8")
    kept = out.read_bytes() if out.exists() else None
    argv = command("batch", str(pages), "--resume", *args)
    done = subprocess.run(argv, capture_output=True, timeout=300, env=environment(home),
                          cwd=tmp_path, stdin=subprocess.DEVNULL)
    line = assert_one_line_error(done.returncode, done.stderr.decode())
    assert line == f"blocksift: error: {message}"
    assert (out.read_bytes() if out.exists() else None) == kept


def test_ctrl_c_during_train_per_site_says_which_sites_are_done(home, tmp_path):
    """Ctrl-C while `train auto --per-site` counts the sites' pages said only 'interrupted':
    now how many sites' files were written and that the same command goes on; and the
    folder holds those files alone (no lock file, no temporary)."""
    html = EXAMPLE.read_text(encoding="utf-8")
    dataset = tmp_path / "pages.jsonl"
    dataset.write_text("".join(json.dumps({"id": str(n), "url": f"https://s{n}.example/a",
                                           "html": html, "gold": "Why Lighthouses Went Dark"})
                               + "\n" for n in range(400)), encoding="utf-8")
    done = in_terminal(command("train", "auto", "--per-site", "-d", str(dataset)),
                       environment(home), interrupt_after=r"s\d+\.example: 1 page -> ",
                       timeout=240)
    assert_clean(done.returncode, done.screen, 130)
    last = done.lines[-1]
    found = re.fullmatch(r"blocksift: interrupted: (\d+) of 400 sites adapted \(in (.+)\); "
                         r"the others are as they were, and the same command adapts them all",
                         last.strip())
    assert found, done.screen[-1500:]
    written = sorted(Path(found.group(2)).glob("*.json"))
    assert 0 < int(found.group(1)) == len(written) < 400
    assert all(json.loads(path.read_text()) for path in written)  # each file whole
    # nothing else: a lock file was left beside each site's file (and a temporary, cut
    # short, beside the one being written)
    assert sorted(Path(found.group(2)).iterdir()) == written


def test_batch_help_names_its_options_as_the_others_do(tmp_path):
    """'--jobs JOBS, -j JOBS' (every other number is N) and --warc 'instead of JSONL on
    stdin' (JSONL comes from FILE too)."""
    text = " ".join(run("batch", "--help", home=tmp_path).stdout.decode().split())
    assert "--jobs N, -j N worker processes" in text, text
    assert "instead of JSONL pages (FILE or standard input)" in text, text


@pytest.mark.parametrize("how", ["file", "stdin", "warc", "resume"])
def test_batch_refuses_to_write_over_its_input(home, pages, tmp_path, how):
    """`batch pages.jsonl -o pages.jsonl` emptied the input before a line was read, wrote
    one error line and exited 0: the pages were gone."""
    source = pages
    if how == "warc":
        pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install "
                                               "'.[warc]'")
        from blocksift import warc

        source = tmp_path / "crawl.warc.gz"
        warc.write_warc_gz(source, [warc.response_record("http://example.org/",
                                                         EXAMPLE.read_bytes())])
    kept = source.read_bytes()
    link = tmp_path / "same.jsonl"  # another name for the same file
    link.symlink_to(source)
    args = {"file": [str(source), "-o", str(source)], "stdin": ["-o", str(link)],
            "warc": ["--warc", str(source), "-o", str(link)],
            "resume": [str(source), "-o", str(link), "--resume"]}[how]
    argv = command("batch", *args)
    if how == "stdin":
        argv = ["sh", "-c", f'exec "$@" < {shlex.quote(str(source))}', "sh", *argv]
    done = subprocess.run(argv, capture_output=True, timeout=300, env=environment(home),
                          cwd=tmp_path, stdin=subprocess.DEVNULL)
    line = assert_one_line_error(done.returncode, done.stderr.decode())
    output = args[args.index("-o") + 1]
    assert line == (f"blocksift: error: --output {output} is the input: writing it would "
                    "erase the pages before they are read; give another file")
    assert source.read_bytes() == kept


def test_terminal_width_is_the_width_of_the_terminal_the_stream_shows(monkeypatch):
    """stderr's notes wrap at stderr's terminal even when standard output goes to a file
    (``extract page.html > out.txt``): shutil measured standard output and said 80."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    from blocksift.terminal import terminal_width

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 57, 0, 0))
    with os.fdopen(follower, "w") as tty:
        monkeypatch.delenv("COLUMNS", raising=False)
        assert terminal_width(tty) == 57
        monkeypatch.setenv("COLUMNS", "91")  # the user's $COLUMNS still wins, as in shutil
        assert terminal_width(tty) == 91
        monkeypatch.setenv("COLUMNS", "")
        assert terminal_width(tty) == 57
    os.close(leader)
