"""Crawl-scale throughput: blocksift vs trafilatura in the same datatrove pipeline.

Builds WARC files from the dev sets (outside the repo; reused while they match the options;
a ``--warc-dir`` holding other ``*.warc.gz`` files is used as it is, e.g. a crawl sample),
then runs ``BlocksiftWarcReader -> extractor -> JsonlWriter`` with ``LocalPipelineExecutor``
for each extractor and worker count, interleaved (auto 1, trafilatura 1, auto 2, ...,
repeated), each run in a fresh process whose whole process tree is sampled from /proc:

* pages per CPU-second (= per core): extracted pages / CPU time of the tree (reader,
  sandbox, IPC and writer included). CPU time, not wall time, so that other processes on
  a shared machine do not count against either extractor;
* pages/s (wall) and the 1 -> 2 worker scaling (wall), next to the cores the run actually
  got (its tree's CPU-seconds / wall seconds) and the load average around it: on a shared
  machine wall scaling is capped by the cores left over, so the per-core scaling (pages per
  CPU-second with 2 workers / with 1; 1.0 = no loss to parallel overhead) is printed too;
* peak memory: the tree's peak PSS (shared pages split, not double-counted) per worker, and
  the largest single process's peak RSS;
* records skipped by reason (from the reader's stats: records = documents + skipped).

    pip install '.[datatrove]' trafilatura==2.3.1
    BLOCKSIFT_DATASETS=/path/to/shared/datasets \\
    nice -n 10 python3 benchmarks/bench_scale.py [--warc-dir /tmp/blocksift-bench-warc] \\
        [--limit N] [--files 4] [--workers 1,2] [--extractors auto,trafilatura] \\
        [--repeat 1] [--timeout 30] [--json FILE]

``--extractors auto-fast`` and ``auto-lite`` run auto with the bundled ``fast`` and ``lite``
models (``--model fast``, ``--model lite``).
A name ending in ``:python`` (``auto-lite:python``) runs without the compiled walk and trees
(``BLOCKSIFT_NO_SPEEDUPS=1``), to compare them in one run.
``--extractors null`` runs the same pipeline with a step that extracts nothing (the same
sandbox round trip): its CPU time is the pipeline's own cost (reading, decoding, pipes,
writing, start-up), to subtract when comparing extractors alone.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "host"))

DATASETS = ["cleaneval-dev", "cleanportaleval", "dragnet", "wcxb-dev", "zh-cwce"]
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
#: An extractor name ending so (``auto-lite:python``) runs without the compiled walk and
#: trees (BLOCKSIFT_NO_SPEEDUPS=1): the same code in Python and numpy, side by side.
PURE = ":python"
TICKS = os.sysconf("SC_CLK_TCK")


# -- the WARC files --------------------------------------------------------------------------

def build_warcs(out: Path, limit: int | None, files: int) -> dict:
    """Write ``files`` WARC files from the dev sets with the record mix of a real crawl."""
    from blocksift import warc
    from blocksift.evaluation.datasets import iter_pages, resolve

    manifest_path = out / "manifest.json"
    wanted = {"limit": limit, "files": files, "datasets": DATASETS, "version": 1}
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("options") == wanted:
            return manifest
    elif out.exists() and any(out.glob("*.warc.gz")):  # the user's own WARC files: use them
        return {"options": "existing files", "pages": "?", "records": "?",
                "bytes": sum(p.stat().st_size for p in out.glob("*.warc.gz"))}
    if out.exists():  # only a folder this script wrote (it has the manifest) is replaced
        for old in out.glob("dev-*.warc.gz"):
            old.unlink()
    out.mkdir(parents=True, exist_ok=True)
    streams = [open(out / f"dev-{i:03d}.warc.gz", "wb") for i in range(files)]
    planted: Counter[str] = Counter()
    records = 0

    def put(index: int, record: bytes, damage: bool = False) -> None:
        nonlocal records
        member = gzip.compress(record, compresslevel=6)
        if damage:
            member = member[:40] + bytes(40) + member[80:]
        streams[index % files].write(member)
        records += 1

    for index in range(files):
        put(index, warc.other_record("warcinfo", "", b"software: bench_scale\r\n",
                                     "application/warc-fields"))
        put(index, warc.response_record("http://bench.invalid/huge", b"<html><body><p>"
                                        + b"x" * (6 << 20) + b"</p></body></html>"))
        planted["oversized"] += 1
    count = 0
    for name in DATASETS:
        for page in iter_pages(resolve(name), limit):
            url = page.url or f"http://{name}.invalid/{page.id}"
            if name == "zh-cwce":  # a legacy charset, declared in the HTTP header only
                body, ctype = page.html.encode("gb18030", "replace"), "text/html; charset=gb18030"
            else:
                body, ctype = page.html.encode("utf-8"), "text/html; charset=utf-8"
            put(count, warc.other_record("request", url, b"GET / HTTP/1.1\r\n\r\n",
                                         "application/http; msgtype=request"))
            put(count, warc.response_record(url, body, ctype))
            if count % 25 == 0:
                put(count, warc.response_record(url + ".png", b"\x89PNG\r\n\x1a\n" + bytes(256),
                                                "image/png"))
                put(count, warc.other_record("metadata", url, b"fetchTimeMs: 120\r\n",
                                             "application/warc-fields"))
                planted["not-html"] += 1
            if count % 100 == 0:
                put(count, warc.response_record(url + "/gone", b"<html>gone</html>",
                                                "text/html", status=404))
                put(count, warc.response_record(url + "/cut", body[:2000], ctype,
                                                warc_headers={"WARC-Truncated": "length"}))
                planted["http-status"] += 1
                planted["truncated"] += 1
            if count % 500 == 250:
                put(count, warc.response_record(url + "/lost", body, ctype), damage=True)
                planted["damaged"] += 1
            count += 1
    for stream in streams:
        stream.close()
    manifest = {"options": wanted, "pages": count, "records": records,
                "planted": dict(planted),
                "bytes": sum(p.stat().st_size for p in out.glob("*.warc.gz"))}
    manifest_path.write_text(json.dumps(manifest, indent=1))
    return manifest


# -- one pipeline run (in its own process) --------------------------------------------------

def run_pipeline(extractor: str, workers: int, warc_dir: str, work: str, timeout: float) -> None:
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter

    from blocksift.integrations.datatrove import BlocksiftExtractor, BlocksiftWarcReader

    extractor = extractor.removesuffix(PURE)
    if extractor == "trafilatura":
        from datatrove.pipeline.extractors import Trafilatura

        step = Trafilatura(timeout=timeout)  # datatrove's defaults, as in its FineWeb recipe
    elif extractor == "null":
        from datatrove.pipeline.extractors.base import BaseExtractor

        class PassThrough(BaseExtractor):
            """The pipeline's own cost: the same sandbox round trip, no extraction."""

            name = "null"

            def __init__(self, timeout: float):
                super().__init__(timeout)

            def extract(self, text: str) -> str:
                return text[:200]

        step = PassThrough(timeout)
    elif extractor in ("auto-fast", "auto-lite"):  # the bundled crawl models (docs/auto.md)
        step = BlocksiftExtractor(algorithm="auto", model_path=extractor[5:], timeout=timeout)
    else:
        step = BlocksiftExtractor(algorithm=extractor, timeout=timeout)
    files = len(list(Path(warc_dir).glob("*.warc.gz")))
    started = time.perf_counter()
    LocalPipelineExecutor(
        pipeline=[BlocksiftWarcReader(warc_dir, glob_pattern="*.warc.gz"), step,
                  JsonlWriter(f"{work}/out")],
        tasks=files, workers=workers, logging_dir=f"{work}/logs", start_method="fork",
    ).run()
    wall = time.perf_counter() - started
    steps = json.loads(Path(f"{work}/logs/stats.json").read_text())

    def total(value: object) -> float:
        return value["total"] if isinstance(value, dict) else value  # 0 is written bare

    reader = {k: total(v) for k, v in steps[0]["stats"].items()}
    extracted = {k: total(v) for k, v in steps[1]["stats"].items()}
    print(json.dumps({"wall": wall, "reader": reader, "extractor": extracted}))


class TreeSampler:
    """CPU ticks and memory of a process and all its descendants, from /proc."""

    def __init__(self, root: int):
        self.root = root
        self.cpu: dict[int, int] = {}
        self.peak_pss = 0
        self.peak_rss = 0

    def _tree(self) -> list[int]:
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
        tree, todo = [], [self.root]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo.extend(children.get(pid, []))
        return tree

    def sample(self) -> None:
        pss = 0
        for pid in self._tree():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                self.cpu[pid] = int(fields[11]) + int(fields[12])  # utime + stime
                rss = int(fields[21]) * PAGE_SIZE
                for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1]) * 1024
                        break
            except (OSError, IndexError, ValueError):
                continue
            self.peak_rss = max(self.peak_rss, rss)
        self.peak_pss = max(self.peak_pss, pss)

    @property
    def cpu_seconds(self) -> float:
        return sum(self.cpu.values()) / TICKS


def measure(extractor: str, workers: int, warc_dir: Path, timeout: float) -> dict:
    load_before = os.getloadavg()[0]
    work = tempfile.mkdtemp(prefix="bench-scale-")
    try:
        env = ({**os.environ, "BLOCKSIFT_NO_SPEEDUPS": "1"} if extractor.endswith(PURE)
               else None)
        process = subprocess.Popen(
            [sys.executable, __file__, "--run-pipeline", extractor, str(workers), str(warc_dir),
             work, str(timeout)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env=env)
        sampler = TreeSampler(process.pid)
        while process.poll() is None:
            sampler.sample()
            time.sleep(0.2)
        output = process.stdout.read() if process.stdout else ""
        if process.returncode != 0:
            raise SystemExit(f"{extractor} x{workers} failed (exit {process.returncode})")
        result = json.loads(output.strip().splitlines()[-1])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    pages = result["extractor"].get("total", 0)
    reader = result["reader"]
    skipped = {k.removeprefix("skipped: "): int(v) for k, v in reader.items()
               if k.startswith("skipped: ")}
    return {
        "extractor": extractor, "workers": workers, "pages": int(pages),
        "forwarded": int(result["extractor"].get("forwarded", 0)),
        "timeouts": int(result["extractor"].get("timeout", 0)),
        "errors": int(result["extractor"].get("clean_error", 0)),
        "wall_s": round(result["wall"], 2), "cpu_s": round(sampler.cpu_seconds, 2),
        "pages_per_cpu_s": round(pages / max(sampler.cpu_seconds, 1e-9), 2),
        "pages_per_s": round(pages / result["wall"], 2),
        "cores_used": round(sampler.cpu_seconds / result["wall"], 2),
        "load_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "peak_pss_mb_per_worker": round(sampler.peak_pss / workers / 2**20, 1),
        "peak_rss_mb_largest_process": round(sampler.peak_rss / 2**20, 1),
        "records": int(reader.get("records", 0)), "documents": int(reader.get("documents", 0)),
        "skipped": dict(sorted(skipped.items())),
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--run-pipeline":
        extractor, workers, warc_dir, work, timeout = sys.argv[2:7]
        run_pipeline(extractor, int(workers), warc_dir, work, float(timeout))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warc-dir", type=Path,
                        default=Path(tempfile.gettempdir()) / "blocksift-bench-warc")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--files", type=int, default=4, help="WARC files (= datatrove tasks)")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--extractors", default="auto,trafilatura")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="datatrove's per-page timeout, the same for every extractor")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    manifest = build_warcs(args.warc_dir, args.limit, args.files)
    print(f"WARC: {args.warc_dir} ({manifest['records']} records, {manifest['pages']} pages, "
          f"{manifest['bytes'] / 2**20:.0f} MB in {args.files} files)", file=sys.stderr)
    extractors = args.extractors.split(",")
    worker_counts = [int(w) for w in args.workers.split(",")]
    runs = []
    for repeat in range(args.repeat):
        for workers in worker_counts:
            for extractor in extractors:
                run = measure(extractor, workers, args.warc_dir, args.timeout)
                run["repeat"] = repeat
                runs.append(run)
                print(json.dumps(run), file=sys.stderr)

    def median(extractor: str, workers: int, key: str) -> float:
        return statistics.median(r[key] for r in runs
                                 if r["extractor"] == extractor and r["workers"] == workers)

    print(f"\n{'extractor':<12} {'workers':>7} {'pages':>6} {'pages/CPU-s':>11} "
          f"{'pages/s':>8} {'cores used':>10} {'PSS MB/wkr':>10} {'max RSS MB':>10} "
          f"{'timeouts':>8}")
    for workers in worker_counts:
        for extractor in extractors:
            print(f"{extractor:<12} {workers:>7} {median(extractor, workers, 'pages'):>6.0f} "
                  f"{median(extractor, workers, 'pages_per_cpu_s'):>11.2f} "
                  f"{median(extractor, workers, 'pages_per_s'):>8.2f} "
                  f"{median(extractor, workers, 'cores_used'):>10.2f} "
                  f"{median(extractor, workers, 'peak_pss_mb_per_worker'):>10.1f} "
                  f"{median(extractor, workers, 'peak_rss_mb_largest_process'):>10.1f} "
                  f"{median(extractor, workers, 'timeouts'):>8.0f}")
    summary: dict = {"manifest": manifest, "runs": runs, "ratios": {}}
    if len([e for e in extractors if e != "null"]) > 1:
        base = extractors[1]
        for workers in worker_counts:
            ratio = median(extractors[0], workers, "pages_per_cpu_s") / \
                median(base, workers, "pages_per_cpu_s")
            summary["ratios"][f"{extractors[0]}/{base} per core, {workers} workers"] = round(
                ratio, 2)
    if "null" in extractors:  # extraction alone: the run's CPU minus the pipeline's own
        for workers in worker_counts:
            floor = median("null", workers, "cpu_s")
            for extractor in extractors:
                if extractor != "null":
                    ms = (median(extractor, workers, "cpu_s") - floor) * 1000 / \
                        median(extractor, workers, "pages")
                    summary["ratios"][f"{extractor} extraction ms/page, {workers} workers"] = \
                        round(ms, 2)
    if len(worker_counts) > 1:
        low, high = worker_counts[0], worker_counts[-1]
        for extractor in extractors:
            ratio = median(extractor, high, "pages_per_s") / median(extractor, low, "pages_per_s")
            summary["ratios"][f"{extractor} wall scaling {low}->{high} workers"] = round(ratio, 2)
            per_core = median(extractor, high, "pages_per_cpu_s") / \
                median(extractor, low, "pages_per_cpu_s")
            summary["ratios"][f"{extractor} per-core scaling {low}->{high} workers"] = round(
                per_core, 2)
    print()
    for name, value in summary["ratios"].items():
        print(f"{name}: {value:.2f}" + ("" if "ms/page" in name else "x"))
    loads = [load for run in runs for load in run["load_1min"]]
    print(f"load average (1 min) around the runs: {min(loads):.2f}-{max(loads):.2f} on "
          f"{os.cpu_count()} CPUs; cores used per run: "
          + ", ".join(f"{r['extractor']}x{r['workers']} {r['cores_used']:.2f}" for r in runs))
    print(f"skipped by reason (reader, last run): {runs[-1]['skipped']}; records "
          f"{runs[-1]['records']} = documents {runs[-1]['documents']} + skipped "
          f"{sum(runs[-1]['skipped'].values())}")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
