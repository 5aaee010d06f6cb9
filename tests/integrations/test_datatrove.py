"""The datatrove step in real pipelines: local executor and Ray executor, same texts as batch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install '.[warc]'")
pytest.importorskip("datatrove", reason="needs the datatrove extra: pip install '.[datatrove]'")

from conftest import EXPECTED_SKIPS, MAX_BYTES, run_batch  # noqa: E402
from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from blocksift.crawl import ExtractorConfigError  # noqa: E402
from blocksift.integrations.datatrove import (  # noqa: E402
    BlocksiftExtractor,
    BlocksiftWarcReader,
)


def _pipeline(warc_dir: Path, out: Path, model_path: str | None = None) -> list:
    return [BlocksiftWarcReader(str(warc_dir), glob_pattern="*.warc.gz", max_bytes=MAX_BYTES),
            BlocksiftExtractor(algorithm="auto", model_path=model_path, timeout=30),
            JsonlWriter(str(out), compression=None)]


def _written(out: Path) -> list[dict]:
    return [json.loads(line) for path in sorted(out.glob("*.jsonl"))
            for line in path.read_text().splitlines()]


def _step_stats(logs: Path) -> list[dict]:
    return json.loads((logs / "stats.json").read_text())


def _total(stat: dict | int) -> float:
    return stat["total"] if isinstance(stat, dict) else stat  # datatrove writes 0 as a bare 0


def test_local_executor_gives_batch_texts_and_counts_every_record(
        small_warc: Path, batch_lines: list[dict], tmp_path: Path):
    out, logs = tmp_path / "out", tmp_path / "logs"
    LocalPipelineExecutor(pipeline=_pipeline(small_warc.parent, out), tasks=1, workers=1,
                          logging_dir=str(logs)).run()
    docs = _written(out)
    assert {d["id"]: d["text"] for d in docs} == {b["id"]: b["text"] for b in batch_lines}
    by_id = {d["id"]: d for d in docs}
    for line in batch_lines:
        metadata = by_id[line["id"]]["metadata"]
        assert metadata["title"] == line["title"] and metadata["url"] == line["url"]
        assert metadata["extraction_status"] == line["status"]
    reader, extractor, _ = _step_stats(logs)
    counted = {name: _total(stat) for name, stat in reader["stats"].items()}
    skipped = {k.removeprefix("skipped: "): v for k, v in counted.items()
               if k.startswith("skipped: ")}
    assert skipped == EXPECTED_SKIPS
    assert counted["records"] == counted["documents"] + sum(skipped.values())
    assert _total(extractor["stats"]["extracted"]) == len(batch_lines)


def test_the_lite_crawl_model_gives_batch_warcs_texts_too(small_warc: Path, tmp_path: Path):
    done = run_batch("--warc", str(small_warc), "--max-bytes", str(MAX_BYTES), "-j", "1",
                     "--model", "lite")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    out = tmp_path / "out"
    LocalPipelineExecutor(pipeline=_pipeline(small_warc.parent, out, model_path="lite"),
                          tasks=1, workers=1, logging_dir=str(tmp_path / "logs")).run()
    texts = {d["id"]: d["text"] for d in _written(out)}
    assert texts == {line["id"]: line["text"] for line in lines}
    assert any(texts.values())


def test_options_are_checked_when_the_pipeline_is_built():
    with pytest.raises(ExtractorConfigError, match="unknown algorithm"):
        BlocksiftExtractor(algorithm="nope")
    with pytest.raises(ExtractorConfigError, match="invalid params"):
        BlocksiftExtractor(algorithm="linkblocks", params={"no_such_param": 1})
    with pytest.raises(ExtractorConfigError, match="takes no model"):
        BlocksiftExtractor(algorithm="linkblocks", model_path="model.json")
    with pytest.raises(ExtractorConfigError, match="model file not found"):
        BlocksiftExtractor(algorithm="auto", model_path="no-such-model.npz")


@pytest.mark.slow
def test_ray_executor_gives_the_same_texts(small_warc: Path, batch_lines: list[dict],
                                           tmp_path: Path):
    ray = pytest.importorskip("ray", reason="needs the ray extra: pip install '.[ray]'")
    from datatrove.executor import RayPipelineExecutor

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        out, logs = tmp_path / "out", tmp_path / "logs"
        RayPipelineExecutor(pipeline=_pipeline(small_warc.parent, out), tasks=1, workers=1,
                            logging_dir=str(logs), mem_per_cpu_gb=0.5).run()
    finally:
        ray.shutdown()
    docs = _written(out)
    assert {d["id"]: d["text"] for d in docs} == {b["id"]: b["text"] for b in batch_lines}

