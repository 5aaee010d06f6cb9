"""WARC → blocksift → Parquet with Ray Data, on a local Ray instance or a cluster.

    pip install 'blocksift[ray]'
    python3 examples/ray_warc_to_parquet.py 'crawl/*.warc.gz' --out pages/ --num-cpus 2

Writes the extracted pages (id, url, title, text, status, ms, WARC metadata) as Parquet
files under ``--out`` and prints the record accounting: records = written + skipped.
On a cluster, pass ``--address auto`` (after ``ray start``) and raise ``--concurrency``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("warc", nargs="+", help="WARC files or globs")
    parser.add_argument("--out", required=True, help="output folder for the Parquet files")
    parser.add_argument("--algo", default="auto", help="blocksift algorithm (default auto)")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--model", default=None, help="model file, for trained algorithms")
    parser.add_argument("--max-bytes", type=int, default=None, help="payload cap per record")
    parser.add_argument("--concurrency", type=int, default=2, help="extraction actors")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--block-mb", type=int, default=16,
                        help="target block size: smaller blocks spread a file over more actors")
    parser.add_argument("--num-cpus", type=int, default=None, help="local Ray instance CPUs")
    parser.add_argument("--address", default=None, help="Ray cluster address (e.g. auto)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    import ray

    from blocksift.cli.common import parse_params
    from blocksift.integrations.ray import BlocksiftExtract, read_warc
    from blocksift.warc import DEFAULT_MAX_BYTES

    if not ray.is_initialized():
        ray.init(address=args.address, num_cpus=args.num_cpus, include_dashboard=False,
                 log_to_driver=False)
    ray.data.DataContext.get_current().target_max_block_size = args.block_mb * 1024 * 1024
    started = time.perf_counter()
    records = read_warc(args.warc, max_bytes=args.max_bytes or DEFAULT_MAX_BYTES)
    extracted = records.map_batches(
        BlocksiftExtract, concurrency=args.concurrency, batch_size=args.batch_size,
        fn_constructor_kwargs={"algorithm": args.algo, "params": parse_params(args.param),
                               "model_path": args.model},
    ).materialize()  # extract once; the Parquet write and the counts both read this
    extracted.filter(lambda row: not row["skip"]).write_parquet(args.out)
    reasons: Counter[str] = Counter()
    for batch in extracted.select_columns(["skip"]).iter_batches(batch_format="numpy"):
        reasons.update(batch["skip"].tolist())
    written = reasons.pop("", 0)
    counts = {"records": written + sum(reasons.values()), "written": written,
              "skipped": dict(sorted(reasons.items())),
              "seconds": round(time.perf_counter() - started, 2)}
    print(json.dumps(counts), file=sys.stderr)
    return counts


if __name__ == "__main__":
    main()
