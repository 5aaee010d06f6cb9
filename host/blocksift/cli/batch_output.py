"""Where ``blocksift batch`` writes its records: JSONL lines, or a Parquet file.

Both sinks take the same records (one dict per page, in input order). JSONL goes to stdout
or ``--output FILE``; Parquet (``--output FILE.parquet`` or ``--format parquet``) needs
pyarrow, the ``parquet`` extra. Parquet columns are fixed, so a file's schema does not depend
on its first pages: strings and numbers as they are, nested fields (``metadata``, ``blocks``,
``hide``) as JSON text, and an id that is not a string as its JSON text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, BinaryIO

from ..wire.constants import encode_reply
from .common import CommandError

#: Pages per Parquet row group: memory stays flat, and readers can skip groups.
ROW_GROUP = 1000

#: Parquet columns in order: name -> kind ("string", "json", "float", "int").
JSONL_COLUMNS = {"id": "string", "text": "string", "title": "string", "metadata": "json",
                 "blocks": "json", "status": "string", "ms": "float", "hide": "json",
                 "error": "string", "code": "int", "url": "string", "url_from": "string",
                 "site_pages": "int", "site_examples": "int", "repairs": "json"}
WARC_COLUMNS = {"id": "string", "url": "string", "title": "string", "text": "string",
                "metadata": "json", "status": "string", "ms": "float", "error": "string",
                "code": "int"}


def encode_line(record: dict[str, Any]) -> bytes:
    """One JSONL line, always valid UTF-8 (lone surrogates become U+FFFD)."""
    return encode_reply(json.dumps(record, ensure_ascii=False)) + b"\n"


class JsonlSink:
    """JSONL records to a binary stream."""

    def __init__(self, stream: BinaryIO, owned: bool = False):
        self.stream = stream
        self.owned = owned

    def write(self, record: dict[str, Any]) -> None:
        self.stream.write(encode_line(record))

    def close(self) -> None:
        self.stream.flush()
        if self.owned:
            self.stream.close()


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401  (the submodule must be loaded explicitly)
    except ImportError:
        raise CommandError("Parquet output needs pyarrow: pip install 'blocksift[parquet]'"
                           ) from None
    return pyarrow


def _clean(text: str) -> str:
    return text.encode("utf-8", errors="replace").decode("utf-8")  # no lone surrogates


class ParquetSink:
    """Records to a Parquet file, one row group per :data:`ROW_GROUP` pages."""

    def __init__(self, path: Path, columns: dict[str, str]):
        self.pa = _pyarrow()
        pa = self.pa
        types = {"string": pa.string(), "json": pa.string(), "float": pa.float64(),
                 "int": pa.int32()}
        self.columns = columns
        self.schema = pa.schema([(name, types[kind]) for name, kind in columns.items()])
        self.path = path
        try:
            self.writer = self.pa.parquet.ParquetWriter(str(path), self.schema)
        except OSError as exc:  # pyarrow's own words follow "[Errno N]"
            reason = exc.strerror or re.sub(r"^\[Errno \d+\] ", "", str(exc))
            raise CommandError(f"cannot write {path}: {reason}") from None
        self.rows: list[dict[str, Any]] = []

    def _cell(self, kind: str, value: Any) -> Any:
        if value is None:
            return None
        if kind == "json" or (kind == "string" and not isinstance(value, str)):
            return _clean(json.dumps(value, ensure_ascii=False))
        if kind == "string":
            return _clean(value)
        return value

    def write(self, record: dict[str, Any]) -> None:
        self.rows.append({name: self._cell(kind, record.get(name))
                          for name, kind in self.columns.items()})
        if len(self.rows) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self.rows:
            self.writer.write_table(self.pa.Table.from_pylist(self.rows, schema=self.schema))
            self.rows = []

    def close(self) -> None:
        self._flush()
        self.writer.close()


def add_arguments(parser: Any) -> None:
    parser.add_argument("--output", "-o", type=Path, metavar="FILE",
                        help="write here instead of stdout (a .parquet name means Parquet)")
    parser.add_argument("--format", choices=("jsonl", "parquet"), default=None,
                        help="output format (default: parquet for a .parquet --output, else "
                             "jsonl); Parquet needs pyarrow (the parquet extra) and --output")


def _make_folder(output: Path) -> None:
    """The folder ``--output`` names, made as ``train --out`` and ``eval --out`` make theirs
    (it was "cannot write out/run1.jsonl: No such file or directory", and for Parquet
    pyarrow's "[Errno 2] Failed to open local file ..."), or a CommandError saying why not."""
    folder = output.parent
    existing = next(p for p in (folder, *folder.parents) if p.exists() or p == p.parent)
    if not existing.is_dir():
        raise CommandError(f"cannot write {output}: {existing} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot write {output}: cannot make the folder {folder} "
                           f"({exc.strerror or exc})") from None


def refuse_output_over_input(output: Path | None, inputs: list[int | str | Path],
                             message: str | None = None) -> None:
    """``batch pages.jsonl -o pages.jsonl`` (or ``< pages.jsonl``, or ``--warc`` naming the
    output) emptied the input before a line of it was read, wrote one line and exited 0:
    the pages were lost. ``inputs``: open file descriptors or paths; ``message``: what the
    CommandError says (batch's by default)."""
    import os

    if output is None:
        return
    try:
        written = os.stat(output)
    except OSError:  # not there yet: nothing to erase
        return
    for given in inputs:
        try:
            read = os.fstat(given) if isinstance(given, int) else os.stat(given)
        except OSError:
            continue
        if (written.st_dev, written.st_ino) == (read.st_dev, read.st_ino):
            raise CommandError(message or f"--output {output} is the input: writing it "
                               "would erase the pages before they are read; give another file")


def open_sink(args: Any, stdout: BinaryIO, columns: dict[str, str], append: bool = False
              ) -> JsonlSink | ParquetSink:
    """The sink ``--output``/``--format`` ask for; checked before any page is read.
    ``append``: a JSONL ``--output`` is added to (``batch --resume``)."""
    output: Path | None = args.output
    fmt = args.format or ("parquet" if output is not None and output.suffix == ".parquet"
                          else "jsonl")
    if fmt == "parquet" and output is None:
        raise CommandError("Parquet output needs a file: --output FILE.parquet")
    if output is None:
        return JsonlSink(stdout)
    _make_folder(output)
    if fmt == "parquet":
        return ParquetSink(output, columns)
    try:
        return JsonlSink(output.open("ab" if append else "wb"), owned=True)
    except OSError as exc:
        raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from None
