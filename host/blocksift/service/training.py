"""Retraining a learned algorithm from captured examples, in a process of its own.

The host runs training away from its event loop and worker pool: the training process
reports progress over a pipe (forwarded to the client as ``progress`` messages), writes the
new model atomically to the user's model path, and the very next extraction uses it (workers
load the user model per request). Cancelling kills the process; the old model stays.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..wire.constants import ErrorCode

Progress = Callable[[str, int, int], Awaitable[None]]

#: Fewer captured pages than this keep the packaged inter-site rules (site rules are added).
MIN_INTER_SITE_PAGES = 30


@dataclass
class TrainingJob:
    """What to train on: the captured examples and/or named datasets."""

    algorithm: str = "farsw"
    use_examples: bool = True
    datasets: list[str] = field(default_factory=list)
    examples_path: str | None = None
    per_site: bool = True


def collect_pages(job: TrainingJob) -> list[Any]:
    """The labeled pages of ``job`` (examples first, then datasets)."""
    from pathlib import Path

    from ..labeled import LabeledPage, load_pages, resolve
    from ..storage.examples import ExampleStore

    pages: list[Any] = []
    if job.use_examples:
        with ExampleStore(Path(job.examples_path) if job.examples_path else None) as store:
            for example in store.all():
                pages.append(LabeledPage(id=f"example-{example.id}", html=example.html,
                                         gold=example.main_text, url=example.url,
                                         site=example.site))
    for name in job.datasets:
        pages.extend(load_pages(resolve(name)))
    return pages


def train_and_save(job: TrainingJob, report: Callable[[str, int, int], None]) -> dict[str, Any]:
    """Train ``job.algorithm`` and save the model; returns the ``trained`` reply fields."""
    from .. import algorithms
    from ..paths import model_path

    module = algorithms.load(job.algorithm)
    report("collecting", 0, 0)
    pages = collect_pages(job)
    if not pages:
        return {"error": "no labeled pages to train on: capture examples first "
                         "(Label this page) or name a dataset",
                "code": int(ErrorCode.NOT_FOUND)}
    done = 0

    def tick(count: int = 1) -> None:
        nonlocal done
        done += count
        report("training", done, len(pages))

    report("training", 0, len(pages))
    try:
        model = module.train(pages, module.Params(), per_site=job.per_site,
                             description=f"{len(pages)} pages: captured examples"
                             + (f" + {', '.join(job.datasets)}" if job.datasets else ""),
                             progress=tick)
    except ValueError as exc:  # TrainingError: nothing learnable in these pages
        return {"error": f"training failed: {exc}", "code": int(ErrorCode.INVALID_MESSAGE)}
    if not job.datasets and len(pages) < MIN_INTER_SITE_PAGES:
        # A handful of captured pages teach good per-site rules but poor rules for every
        # other site: keep the packaged inter-site rules and add the learned site rules.
        packaged = module.FarswModel.from_json(module.default_model_text())
        model = model.model_copy(update={"ruleset": packaged.ruleset})
    path = module.save_model(model, model_path(job.algorithm))
    report("saved", len(pages), len(pages))
    rules = [line.strip()[len("rule: "):] for line in module.format_rules(model).splitlines()
             if line.strip().startswith("rule:")]
    return {"modelPath": str(path), "pages": len(pages), "rules": rules}


def _training_main(conn: multiprocessing.connection.Connection, job: TrainingJob) -> None:
    def report(stage: str, done: int, total: int) -> None:
        conn.send(("progress", stage, done, total))

    try:
        outcome = train_and_save(job, report)
    except Exception as exc:  # reported to the client, never a silent death
        outcome = {"error": f"{type(exc).__name__}: {exc}", "code": int(ErrorCode.INTERNAL)}
    conn.send(("done", outcome))
    conn.close()


async def run_training_process(job: TrainingJob, progress: Progress) -> dict[str, Any]:
    """Run :func:`train_and_save` in a fresh process, forwarding progress; cancellable."""
    context = multiprocessing.get_context("forkserver")
    parent_end, child_end = context.Pipe(duplex=False)
    process = context.Process(target=_training_main, args=(child_end, job), daemon=True,
                              name="blocksift-training")
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, process.start)
    child_end.close()
    last_sent = 0.0
    try:
        while True:
            try:
                message = await loop.run_in_executor(None, parent_end.recv)
            except (EOFError, OSError):
                return {"error": "the training process died", "code": int(ErrorCode.INTERNAL)}
            if message[0] == "done":
                return dict(message[1])
            _, stage, done, total = message
            now = loop.time()
            if now - last_sent >= 0.1 or done == total or stage != "training":
                last_sent = now  # at most ten progress messages a second
                await progress(stage, done, total)
    finally:
        if process.is_alive():
            process.kill()
        await loop.run_in_executor(None, process.join, 5)
        parent_end.close()
