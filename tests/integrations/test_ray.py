"""Ray Data on a local Ray instance: the example script's Parquet holds batch's texts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("fastwarc", reason="WARC input needs FastWARC: pip install '.[warc]'")
ray = pytest.importorskip("ray", reason="needs the ray extra: pip install '.[ray]'")
pq = pytest.importorskip("pyarrow.parquet", reason="ray[data] brings pyarrow")

from conftest import EXPECTED_SKIPS, MAX_BYTES, REPO  # noqa: E402


def _example():
    spec = importlib.util.spec_from_file_location(
        "ray_warc_to_parquet", REPO / "examples" / "ray_warc_to_parquet.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_warc_to_parquet_on_local_ray_matches_batch(small_warc: Path, batch_lines: list[dict],
                                                    tmp_path: Path):
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        counts = _example().main([str(small_warc.parent / "*.warc.gz"), "--out",
                                  str(tmp_path / "pages"), "--max-bytes", str(MAX_BYTES),
                                  "--concurrency", "2", "--batch-size", "3"])
    finally:
        ray.shutdown()
    rows = pq.read_table(tmp_path / "pages").to_pylist()
    assert {r["id"]: r["text"] for r in rows} == {b["id"]: b["text"] for b in batch_lines}
    assert {r["id"]: r["title"] for r in rows} == {b["id"]: b["title"] for b in batch_lines}
    assert "html" not in rows[0]
    assert counts["skipped"] == EXPECTED_SKIPS
    assert counts["records"] == counts["written"] + sum(counts["skipped"].values())
    assert counts["written"] == len(batch_lines)
