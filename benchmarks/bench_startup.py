"""Start-up of the command line as a person feels it: process start to exit.

Median (and min/max) wall time of N runs of each command, measured side by side in one run
with a bare ``python3 -c pass`` of the same interpreter (the floor no command can beat on
this machine). Budgets (issue 16, on a quiet machine): ``--version`` and ``--help`` <= 150 ms,
``extract`` on a small page <= 400 ms. Prints figures; asserts nothing.

    nice -n 10 python3 benchmarks/bench_startup.py [--runs 9] [--json out/startup.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "examples" / "article.html"
BUDGET_MS = {"blocksift --version": 150, "blocksift --help": 150,
             "blocksift extract examples/article.html": 400}


def blocksift() -> list[str]:
    """The console script beside this interpreter when installed, else ``-m blocksift``."""
    script = Path(sys.executable).with_name("blocksift")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "blocksift"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_ms(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one run; CPU time (user + system) moves less with the load of
    other processes than wall time does."""
    cpu_before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                          cwd=REPO)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}: {done.stderr.decode()[-300:]}")
    return elapsed, (_children_cpu() - cpu_before) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    env = dict(os.environ, BLOCKSIFT_HOME=tempfile.mkdtemp(prefix="bench-startup-"),
               PYTHONPATH=str(REPO / "host"))
    # as in a user's shell: .pyc files are written and reused (without them every start
    # compiles every module), output buffered
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"):
        env.pop(name, None)
    commands = {
        "python3 -c pass": [sys.executable, "-c", "pass"],
        "blocksift --version": [*blocksift(), "--version"],
        "blocksift --help": [*blocksift(), "--help"],
        "blocksift extract --help": [*blocksift(), "extract", "--help"],
        "blocksift extract examples/article.html": [*blocksift(), "extract", str(PAGE)],
        "blocksift extract examples/article.html --format markdown":
            [*blocksift(), "extract", str(PAGE), "--format", "markdown"],
    }
    for argv in commands.values():  # warm the page cache and .pyc files once
        run_ms(argv, env)
    load_before = os.getloadavg()[0]
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):  # interleaved, so load changes hit every command alike
        for name, argv in commands.items():
            wall, used = run_ms(argv, env)
            times[name].append(wall)
            cpu[name].append(used)
    floor = statistics.median(times["python3 -c pass"])
    print(f"{sys.executable} ({sys.version.split()[0]}), {args.runs} runs each, load average "
          f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after (quiet: below 1)")
    print(f"{'command (wall ms)':<58} {'median':>7} {'min':>6} {'max':>6} {'-floor':>7} "
          f"{'cpu ms':>7}  budget")
    report = {}
    for name, values in times.items():
        median = statistics.median(values)
        cpu_median = statistics.median(cpu[name])
        budget = BUDGET_MS.get(name)
        verdict = "" if budget is None else f"{budget} ms {'ok' if median <= budget else 'OVER'}"
        print(f"{name:<58} {median:>7.1f} {min(values):>6.1f} {max(values):>6.1f} "
              f"{median - floor:>7.1f} {cpu_median:>7.1f}  {verdict}")
        report[name] = {"median_ms": round(median, 1), "min_ms": round(min(values), 1),
                        "max_ms": round(max(values), 1), "cpu_median_ms": round(cpu_median, 1),
                        "budget_ms": budget}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
