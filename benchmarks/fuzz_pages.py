"""Fuzz every entry point with mutated dev-set pages: count crashes, hangs, missing answers.

Pages of the shared dev sets are mutated (seeded, so a run can be repeated): byte damage,
truncation, duplicated or spliced slices, lone surrogates, NULs and control characters (in
text and in attribute values), deep nesting, attribute bombs, unclosed comments/scripts,
giant attribute values, tag soup, odd numbers in spans, list starts and sizes
("²", "1e309", "2px"); every third page first gets the element ids the
extension's snapshot carries. Each page goes, with the algorithms taken in turn, through:

* ``batch``: ``blocksift batch`` runs over all pages, ``--action extract`` and ``hide`` in
  turn (some lines also carry raw invalid bytes); every input line must come out, in order,
  as valid UTF-8 JSON with its id;
* ``native``: one ``blocksift native`` host, the actions (extract, hide, reader) in turn;
  every request must get a reply with its id (a result or an error) and the host must stay
  up;
* ``extract``: ``blocksift extract FILE`` on every ``--extract-every``-th page, ``--action
  extract`` and ``hide`` in turn; exit 0, 1 (not suitable) or 2 (usage/page error) with a
  one-line message and no traceback.

Every page is given a URL (:data:`PAGE_URL`), so its links are made absolute as a real
page's are. A crash is a dead process or a traceback, a hang a process past ``--hang-after``
seconds, a missing answer a page without its line/reply; ``internal`` counts the answers
that are an internal error (code 3004: a bug, where bad input should get a clear error).
Prints the counts (and writes ``--json``).

    nice -n 10 python3 benchmarks/fuzz_pages.py --pages 20000 --modes batch,native,extract \\
        --progress out/fuzz-progress.jsonl --json out/fuzz.json

Pages are run in chunks (``--chunk-size``), every mode on a chunk before the next chunk; with
``--progress`` each finished chunk is appended to a file, and a run started again with the
same ``--pages``, ``--seed`` and ``--chunk-size`` skips the chunks it finds there.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ALGORITHMS = ["auto", "linkblocks", "linkdensity", "clustering", "farsw"]
NATIVE_ACTIONS = ["extract", "hide", "reader"]
BATCH_ACTIONS = ["extract", "hide"]  # and every other page of extract's
HEADER = struct.Struct("=I")
ENV = dict(os.environ, PYTHONPATH=str(REPO / "host"))


#: Every page is sent with this URL, so relative links are made absolute as for a real page.
PAGE_URL = "https://fuzz.example/section/page.html"
#: The protocol's code for an error inside the host (``ErrorCode.INTERNAL``): counted apart.
INTERNAL_ERROR = 3004

def dev_pages(root: Path) -> list[str]:
    pages = []
    for file in sorted(root.glob("*/pages.jsonl.gz")):
        with gzip.open(file, "rt", encoding="utf-8") as handle:
            pages.extend(json.loads(line)["html"] for line in handle if line.strip())
    return pages


def _slice(rng: random.Random, text: str) -> tuple[int, int]:
    start = rng.randrange(len(text) + 1)
    return start, min(len(text), start + rng.randrange(1, 2000))


def mutate(rng: random.Random, html: str, other: str) -> str:
    """One to four mutations of ``html`` (``other``: a second page for splicing)."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(15)
        at = rng.randrange(len(html) + 1)
        if kind == 0:  # truncate
            html = html[:at]
        elif kind == 1:  # duplicate a slice many times
            start, end = _slice(rng, html)
            html = html[:end] + html[start:end] * rng.randint(2, 50) + html[end:]
        elif kind == 2:  # splice in part of another page
            start, end = _slice(rng, other)
            html = html[:at] + other[start:end] + html[at:]
        elif kind == 3:  # lone surrogates
            html = html[:at] + rng.choice(["\ud800", "\udfff", "a\udc00b", "\ud83d"]) + html[at:]
        elif kind == 4:  # NULs and control characters, in text or in an attribute value
            opening = rng.choice(['href="', 'src="', '="'])  # links first: they are rewritten
            value = html.find(opening, at)
            if value >= 0 and rng.random() < 0.5:
                at = value + len(opening)
            html = html[:at] + "".join(chr(rng.randrange(0, 32)) for _ in range(20)) + html[at:]
        elif kind == 5:  # deep nesting
            depth = rng.randint(500, 20000)
            tag = rng.choice(["div", "span", "b", "table", "ul", "a"])
            html = html[:at] + f"<{tag}>" * depth + "deep" + html[at:]
        elif kind == 6:  # attribute bomb
            count = rng.randint(1000, 60000)
            bomb = " ".join(f"a{i}={i}" for i in range(count))
            html = html[:at] + f"<div {bomb}>bomb</div>" + html[at:]
        elif kind == 7:  # unclosed comment / script / style / CDATA
            html = html[:at] + rng.choice(["<!--", "<script>", "<style>", "<![CDATA[",
                                           "<textarea>", "<title>"]) + html[at:]
        elif kind == 8:  # a giant attribute value
            html = html[:at] + f'<img src="{"x" * rng.randint(10000, 300000)}">' + html[at:]
        elif kind == 9:  # tag soup: shuffled slice of tags
            pieces = html[at:at + 5000].split("<")
            rng.shuffle(pieces)
            html = html[:at] + "<".join(pieces) + html[at + 5000:]
        elif kind == 10:  # random code points, astral and private use included
            html = html[:at] + "".join(chr(rng.choice([rng.randrange(0x20, 0xD7FF),
                                                       rng.randrange(0xE000, 0x10FFFF)]))
                                       for _ in range(50)) + html[at:]
        elif kind == 11:  # hostile URLs
            html = html[:at] + rng.choice([
                '<a href="javascript:alert(1)">x</a>', '<img srcset="javascript:alert(1) 2x">',
                '<blockquote cite="javascript:1">q</blockquote>',
                '<svg><script>alert(1)</script></svg>', '<math><mtext><table><mglyph><style>'
                '<img src=x onerror=alert(1)>']) + html[at:]
        elif kind == 12:  # many links
            html = html[:at] + "".join(f'<a href="/{i}">{i}</a>'
                                       for i in range(rng.randint(100, 30000))) + html[at:]
        elif kind == 13:  # odd numbers where a rule reads one: spans, list starts, sizes
            def odd() -> str:
                return rng.choice(ODD_NUMBERS)
            html = _NUMERIC_ATTR.sub(lambda m: f'{m.group(1)}="{odd()}"', html,
                                     count=rng.randint(1, 200))
            html = html[:at] + (
                f'<table><tr><th colspan="{odd()}">h</th></tr><tr><td rowspan="{odd()}">a</td>'
                f'<td colspan="{odd()}"></td></tr></table><ol start="{odd()}"><li value='
                f'"{odd()}">x</li></ol><img src="/i.png" width="{odd()}" height="{odd()}">'
            ) + html[at:]
        else:  # drop a slice
            start, end = _slice(rng, html)
            html = html[:start] + html[end:]
    return html


#: Attribute values a page may hold where a number is meant (colspan="²" once passed
#: str.isdigit() and failed int()).
ODD_NUMBERS = ("²", "١٢", "1e309", "99999999999999999999", "-7", " +2", "0", "",
               "NaN", "0x10", "2px", "∞", "1000000000")
_NUMERIC_ATTR = re.compile(r'\b(colspan|rowspan|start|value|width|height|tabindex|span)'
                           r'="[^"]*"', re.IGNORECASE)


_START_TAG = re.compile(r"<[A-Za-z][\w-]*")


def with_element_ids(html: str) -> str:
    """``html`` with a ``data-bsid`` on every start tag, as the extension's snapshot has
    (the host then answers with element ids instead of XPaths)."""
    numbers = itertools.count()
    return _START_TAG.sub(lambda found: f'{found.group()} data-bsid="{next(numbers)}"', html)


def fuzzed(count: int, seed: int, sources: list[str]) -> Iterator[tuple[str, str, str]]:
    """``count`` (id, algorithm, html) triples, made one at a time (the same for one seed);
    every third page carries the extension's element ids."""
    rng = random.Random(seed)
    for number in range(count):
        page, other = rng.choice(sources), rng.choice(sources)
        if number % 3 == 2:
            page = with_element_ids(page)
        yield (f"f{number}", ALGORITHMS[number % len(ALGORITHMS)], mutate(rng, page, other))


def chunks(pages: Iterator[tuple[str, str, str]], size: int
           ) -> Iterator[list[tuple[str, str, str]]]:
    chunk: list[tuple[str, str, str]] = []
    for page in pages:
        chunk.append(page)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


#: Where the inputs behind a crash, hang or missing answer are kept (``--keep``), to replay.
KEEP: list[Path] = []


def note(counts: dict[str, Any], text: str, name: str = "", data: bytes = b"") -> None:
    """Say what failed (kept in the progress file), and keep its input under ``--keep``."""
    counts.setdefault("notes", []).append(text[-1500:])
    if KEEP and data:
        KEEP[0].mkdir(parents=True, exist_ok=True)
        (KEEP[0] / name).write_bytes(data)


def _tail(stderr: bytes) -> str:
    return stderr.decode("utf-8", errors="replace").strip()[-1200:]


def _json_line(record: dict[str, Any]) -> bytes:
    # json.dumps escapes lone surrogates as \ud800, as a browser's JSON.stringify does
    return json.dumps(record).encode("ascii") + b"\n"


def run_batch(pages: Iterator[tuple[str, str, str]], hang_after: float, jobs: int
              ) -> dict[str, Any]:
    """``blocksift batch`` runs over chunks of the pages, one per algorithm (one --algo each)."""
    counts = {"pages": 0, "crash": 0, "hang": 0, "missing": 0, "invalid_utf8": 0, "errors": 0}
    rng = random.Random(1)
    for chunk in chunks(pages, 1000):
        _batch_chunk(chunk, hang_after, jobs, counts, rng)
    return counts


def _batch_chunk(pages: list[tuple[str, str, str]], hang_after: float, jobs: int,
                 counts: dict[str, Any], rng: random.Random) -> None:
    for algorithm, action in itertools.product(ALGORITHMS, BATCH_ACTIONS):
        # pages of one algorithm alternate between the actions
        mine = [(pid, html) for pid, algo, html in pages if algo == algorithm
                and BATCH_ACTIONS[int(pid[1:]) // len(ALGORITHMS) % 2] == action]
        if not mine:
            continue
        lines = []
        for pid, html in mine:
            line = _json_line({"id": pid, "html": html, "url": PAGE_URL})
            if rng.random() < 0.05:  # raw invalid bytes inside the html string
                cut = line.rfind(b'"}')
                line = line[:cut] + b"\xff\xfe\xc3(" + line[cut:]
            lines.append(line)
        counts["pages"] += len(mine)
        with tempfile.TemporaryFile() as stdin:
            stdin.writelines(lines)
            stdin.seek(0)
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "blocksift", "batch", "--algo", algorithm,
                     "--action", action, "--jobs", str(jobs), "--no-progress",
                     "--timeout", "30"],
                    stdin=stdin, capture_output=True, env=ENV,
                    timeout=hang_after * max(1, len(mine) / jobs) + 60)
            except subprocess.TimeoutExpired:
                counts["hang"] += 1
                counts["missing"] += len(mine)
                note(counts, f"batch --algo {algorithm} {mine[0][0]}..: hang",
                     f"batch-{algorithm}-{mine[0][0]}.jsonl", b"".join(lines))
                continue
        if done.returncode != 0 or b"Traceback" in done.stderr:
            counts["crash"] += 1
            note(counts, f"batch --algo {algorithm} {mine[0][0]}..: exit {done.returncode}: "
                         f"{_tail(done.stderr)}",
                 f"batch-{algorithm}-{mine[0][0]}.jsonl", b"".join(lines))
        try:
            text = done.stdout.decode("utf-8")
        except UnicodeDecodeError:
            counts["invalid_utf8"] += 1
            text = done.stdout.decode("utf-8", errors="replace")
        ids = []
        for raw in text.splitlines():
            try:
                record = json.loads(raw)
            except ValueError:
                counts["invalid_utf8"] += 1
                continue
            ids.append(record.get("id"))
            counts["errors"] += "error" in record
            if record.get("code") == INTERNAL_ERROR:  # a bug, not an answer to bad input
                counts["internal"] = counts.get("internal", 0) + 1
                html = dict(mine).get(record.get("id"), "")
                note(counts, f"batch {record.get('id')} ({algorithm}): {record.get('error')}",
                     f"batch-internal-{algorithm}-{record.get('id')}.html",
                     html.encode("utf-8", errors="surrogatepass"))
        expected = [pid for pid, _ in mine]
        counts["missing"] += sum(1 for pid in expected if pid not in set(ids))
        if ids != expected:
            counts.setdefault("out_of_order", 0)
            counts["out_of_order"] += 1


class NativeHost:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "blocksift", "native"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=ENV)
        self.replies: dict[str, dict[str, Any]] = {}
        self.ready = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        while True:
            header = self.proc.stdout.read(4)
            if len(header) < 4:
                break
            body = self.proc.stdout.read(HEADER.unpack(header)[0])
            reply = json.loads(body.decode("utf-8"))
            with self.ready:
                if reply.get("type") == "chunk":
                    key = f"{reply['id']}#chunks"
                    parts = self.replies.setdefault(key, {})
                    parts[reply["seq"]] = reply["data"]
                    if len(parts) == reply["count"]:
                        self.replies[reply["id"]] = json.loads(
                            "".join(parts[i] for i in range(reply["count"])))
                else:
                    self.replies[str(reply.get("id"))] = reply
                self.ready.notify_all()
        with self.ready:
            self.ready.notify_all()

    def send(self, message: dict[str, Any]) -> bool:
        body = json.dumps(message).encode("utf-8")
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(HEADER.pack(len(body)) + body)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def wait(self, request_id: str, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        with self.ready:
            while request_id not in self.replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return self.replies.get(request_id)
                self.ready.wait(min(left, 1.0))
            return self.replies.pop(request_id)

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def run_native(pages: Iterator[tuple[str, str, str]], hang_after: float) -> dict[str, Any]:
    counts = {"pages": 0, "crash": 0, "hang": 0, "missing": 0, "errors": 0}
    host = NativeHost()
    window = 4  # a few requests in flight, as a browser with several tabs
    pending: list[str] = []

    sent: dict[str, tuple[str, str]] = {}

    def collect(request_id: str) -> None:
        nonlocal host
        reply = host.wait(request_id, hang_after)
        algorithm, html = sent.pop(request_id)
        if reply is None:
            counts["missing"] += 1
            if host.proc.poll() is not None:
                counts["crash"] += 1
                note(counts, f"native {request_id} ({algorithm}): host exited "
                             f"{host.proc.returncode}", f"native-{algorithm}-{request_id}.html",
                     html.encode("utf-8", errors="surrogatepass"))
                host = NativeHost()
            else:
                counts["hang"] += 1
                note(counts, f"native {request_id} ({algorithm}): no reply",
                     f"native-{algorithm}-{request_id}.html",
                     html.encode("utf-8", errors="surrogatepass"))
        elif reply.get("type") == "error":
            counts["errors"] += 1
            if reply.get("code") == INTERNAL_ERROR:  # a bug, not an answer to bad input
                counts["internal"] = counts.get("internal", 0) + 1
                note(counts, f"native {request_id} ({algorithm}): {reply.get('message')}",
                     f"native-internal-{algorithm}-{request_id}.html",
                     html.encode("utf-8", errors="surrogatepass"))
            codes = counts.setdefault("error_codes", {})
            key = f"{reply.get('code')} {reply.get('error') or ''}".strip()
            codes[key] = codes.get(key, 0) + 1

    for pid, algorithm, html in pages:
        counts["pages"] += 1
        # each algorithm meets each action in turn: the hide plan and the reader's summary
        # run on top of the extraction
        action = NATIVE_ACTIONS[int(pid[1:]) // len(ALGORITHMS) % len(NATIVE_ACTIONS)]
        if not host.send({"type": "extract", "id": pid, "html": html, "url": PAGE_URL,
                          "algorithm": algorithm, "want": ["main", "blocks"],
                          "action": action}):
            counts["missing"] += 1
            counts["crash"] += 1
            note(counts, f"native {pid} ({algorithm}): the host's stdin was closed")
            host = NativeHost()
            continue
        sent[pid] = (algorithm, html)
        pending.append(pid)
        if len(pending) >= window:
            collect(pending.pop(0))
    for pid in pending:
        collect(pid)
    host.send({"type": "ping", "id": "still-there"})
    if host.wait("still-there", 30) is None:
        counts["crash"] += 1
        note(counts, "native: no reply to the last ping")
    host.close()
    return counts


def run_extract(pages: Iterator[tuple[str, str, str]], every: int, hang_after: float,
                first: int = 0) -> dict[str, Any]:
    counts = {"pages": 0, "crash": 0, "hang": 0, "missing": 0, "errors": 0}
    with tempfile.TemporaryDirectory() as folder:
        for number, (pid, algorithm, html) in enumerate(pages, start=first):
            if number % every:
                continue
            counts["pages"] += 1
            path = Path(folder) / f"{pid}.html"
            path.write_bytes(html.encode("utf-8", errors="surrogatepass"))  # raw bytes, as found
            try:
                done = subprocess.run([sys.executable, "-m", "blocksift", "extract", str(path),
                                       "--algo", algorithm, "--format", "json",
                                       "--url", PAGE_URL, "--action",
                                       BATCH_ACTIONS[number // every % 2]],
                                      capture_output=True, env=ENV, timeout=hang_after)
            except subprocess.TimeoutExpired:
                counts["hang"] += 1
                counts["missing"] += 1
                note(counts, f"extract {pid} ({algorithm}): hang", f"extract-{algorithm}-{pid}"
                     ".html", path.read_bytes())
                continue
            if done.returncode not in (0, 1, 2) or b"Traceback" in done.stderr:
                counts["crash"] += 1
                note(counts, f"extract {pid} ({algorithm}): exit {done.returncode}: "
                             f"{_tail(done.stderr)}", f"extract-{algorithm}-{pid}.html",
                     path.read_bytes())
            elif done.returncode == 0:
                try:
                    json.loads(done.stdout.decode("utf-8"))
                except ValueError:
                    counts["missing"] += 1
                    note(counts, f"extract {pid} ({algorithm}): exit 0 without JSON",
                         f"extract-{algorithm}-{pid}.html", path.read_bytes())
            else:
                counts["errors"] += 1
    return counts


def run_mode(mode: str, pages: list[tuple[str, str, str]], first: int,
             args: argparse.Namespace) -> dict[str, Any]:
    """One mode over one chunk of pages (``first``: the chunk's first page number)."""
    started = time.monotonic()
    if mode == "batch":
        counts = run_batch(iter(pages), args.hang_after, args.jobs)
    elif mode == "native":
        counts = run_native(iter(pages), args.hang_after)
    elif mode == "extract":
        counts = run_extract(iter(pages), args.extract_every, args.hang_after, first)
    else:
        raise SystemExit(f"unknown mode {mode}")
    counts["seconds"] = round(time.monotonic() - started, 1)
    return counts


def load_progress(path: Path | None, pages: int, seed: int, size: int
                  ) -> dict[tuple[str, int], dict[str, Any]]:
    """Chunks already done by an earlier run with the same pages, seed and chunk size."""
    done: dict[tuple[str, int], dict[str, Any]] = {}
    if path is None or not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if (entry["pages_total"], entry["seed"], entry["chunk_size"]) == (pages, seed, size):
            done[(entry["mode"], entry["chunk"])] = entry["counts"]
    return done


def totals(done: dict[tuple[str, int], dict[str, Any]], modes: list[str]
           ) -> dict[str, dict[str, Any]]:
    summed: dict[str, dict[str, Any]] = {}
    for (mode, _chunk), counts in sorted(done.items()):
        into = summed.setdefault(mode, {"chunks": 0})
        into["chunks"] += 1
        for key, value in counts.items():
            if key == "notes":
                into.setdefault("notes", []).extend(value)
            elif isinstance(value, dict):  # counts by error code
                merged = into.setdefault(key, {})
                for code, count in value.items():
                    merged[code] = merged.get(code, 0) + count
            else:
                into[key] = round(into.get(key, 0) + value, 1)
    return {mode: summed[mode] for mode in modes if mode in summed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--modes", default="batch,native,extract")
    parser.add_argument("--extract-every", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hang-after", type=float, default=90.0,
                        help="seconds without an answer that count as a hang (per page)")
    parser.add_argument("--chunk-size", type=int, default=1000,
                        help="pages per chunk; every mode runs a chunk before the next one")
    parser.add_argument("--progress", type=Path,
                        help="JSONL of finished chunks: appended as they end, and chunks "
                             "already in it are skipped, so a stopped run resumes")
    parser.add_argument("--datasets", type=Path,
                        default=Path(os.environ.get("BLOCKSIFT_DATASETS",
                                                    REPO.parent / "shared" / "datasets")))
    parser.add_argument("--keep", type=Path,
                        help="folder for the inputs behind each crash, hang or missing answer")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.keep:
        KEEP.append(args.keep)
    if not any(args.datasets.glob("*/pages.jsonl.gz")):
        print(f"no dev sets under {args.datasets} (set BLOCKSIFT_DATASETS)", file=sys.stderr)
        return 2
    modes = args.modes.split(",")
    sources = dev_pages(args.datasets)
    print(f"{args.pages} fuzzed pages from {len(sources)} dev-set pages, seed {args.seed}, "
          f"chunks of {args.chunk_size}", flush=True)
    done = load_progress(args.progress, args.pages, args.seed, args.chunk_size)
    if done:
        print(f"resuming: {len(done)} mode-chunks already done", flush=True)
    # the same pages in every mode; chunks are cut from one seeded sequence
    for number, chunk in enumerate(chunks(fuzzed(args.pages, args.seed, sources),
                                          args.chunk_size)):
        for mode in modes:
            if (mode, number) in done:
                continue
            counts = run_mode(mode, chunk, number * args.chunk_size, args)
            done[(mode, number)] = counts
            print(f"chunk {number:>3} {mode:<8} "
                  + "  ".join(f"{k} {v}" for k, v in counts.items() if k != "notes"), flush=True)
            for text in counts.get("notes", []):
                print(f"    {text}", flush=True)
            if args.progress:
                args.progress.parent.mkdir(parents=True, exist_ok=True)
                with args.progress.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps({
                        "pages_total": args.pages, "seed": args.seed,
                        "chunk_size": args.chunk_size, "chunk": number, "mode": mode,
                        "counts": counts}) + "\n")
    report: dict[str, Any] = {"pages": args.pages, "seed": args.seed}
    report.update(totals(done, modes))
    print("totals", flush=True)
    for mode in modes:
        print(f"{mode:<8} " + "  ".join(f"{k} {v}" for k, v in report[mode].items()
                                        if k != "notes"), flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
