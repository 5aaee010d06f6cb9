"""One wire contract: every request and reply type is declared once, as a model, and every
reply the service writes has its model (the transport tests validate each one they receive)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Literal

import pytest
from pydantic import ValidationError

from blocksift.wire import protocol
from blocksift.wire.constants import ErrorCode, error_payload
from blocksift.wire.results import WireModel

HOST = Path(__file__).resolve().parents[2] / "host" / "blocksift"


def _union_members(adapter) -> set[str]:
    schema = adapter.json_schema(by_alias=True)
    return set(schema["discriminator"]["mapping"])


def test_the_unions_and_lookups_are_the_registries():
    assert _union_members(protocol.REQUEST_ADAPTER) == set(protocol.REQUEST_MODELS)
    assert _union_members(protocol.REPLY_ADAPTER) == set(protocol.REPLY_MODELS)
    for name, model in {**protocol.REQUEST_MODELS, **protocol.REPLY_MODELS}.items():
        assert protocol.message_type(model) == name


def test_every_message_model_of_the_module_is_registered():
    # a model declared without @request/@reply would be a message nobody can send or read
    declared = {name for name, value in vars(protocol).items()
                if isinstance(value, type) and issubclass(value, WireModel)
                and "type" in value.model_fields}
    registered = {model.__name__ for model in protocol.REQUEST_MODELS.values()} | {
        model.__name__ for model in protocol.REPLY_MODELS.values()}
    assert declared == registered


def test_a_type_declared_twice_is_refused():
    class Twin(WireModel):
        type: Literal["ping"]
        id: str

    with pytest.raises(TypeError, match="ping"):
        protocol.request(Twin)
    assert protocol.REQUEST_MODELS["ping"] is protocol.PingRequest


def _reply_types_written_by(path: Path) -> set[str]:
    """``type`` values of the dict literals (and JSON text) the module builds replies from."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "type" \
                        and isinstance(value, ast.Constant):
                    found.add(value.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.startswith('{"type":"'):
            found.add(node.value.split('"')[3])
    return found


def test_every_reply_the_service_writes_has_a_model():
    written = _reply_types_written_by(HOST / "service" / "session.py")
    assert {"pong", "hello", "result", "cancelled", "examples.saved", "export.saved",
            "examples.received", "examples.imported", "examples.importUndone"} <= written
    assert written - set(protocol.REPLY_MODELS) == set()


def test_error_payload_is_the_error_reply():
    for code in ErrorCode:
        payload = error_payload(code, "why", "r1")
        assert protocol.REPLY_ADAPTER.validate_python(payload) == protocol.error(code, "why", "r1")


def test_a_reply_off_its_model_is_refused():
    # the check the transport tests run on every reply can fail
    good = {"type": "export.saved", "id": "s", "path": "/tmp/a.md", "bytes": 10}
    protocol.REPLY_ADAPTER.validate_python(good)
    for bad in ({**good, "bytes": -1}, {**good, "size": 10},
                {"type": "export.savd", "id": "s"}, {k: v for k, v in good.items() if k != "path"}):
        with pytest.raises(ValidationError):
            protocol.REPLY_ADAPTER.validate_python(bad)


def test_examples_import_is_a_chunk_of_an_upload():
    """The options page's Import sends a file as numbered base64 chunks of one upload; the
    fields a chunk may carry, and what the host refuses before it reads one."""
    from blocksift.wire.constants import IMPORT_CHUNK_MAX_CHARS

    chunk = {"type": "examples.import", "id": "i1", "uploadId": "up-1_x", "index": 0,
             "data": "eyJodG1sIjoiIn0K", "last": True, "onDuplicate": "replace",
             "name": "pages.jsonl.gz", "size": 12}
    request = protocol.REQUEST_ADAPTER.validate_python(chunk)
    assert isinstance(request, protocol.ExamplesImportRequest)
    assert (request.upload_id, request.on_duplicate, request.last) == ("up-1_x", "replace", True)
    plain = protocol.REQUEST_ADAPTER.validate_python(
        {"type": "examples.import", "id": "i2", "uploadId": "u", "index": 3, "data": ""})
    assert (plain.last, plain.on_duplicate, plain.name, plain.size) == (False, "skip", "", None)
    # the chunk cap is well under the host's frame cap, so a chunk is never a frame too large
    from blocksift.service.session import DEFAULT_MAX_FRAME_BYTES

    assert IMPORT_CHUNK_MAX_CHARS * 8 <= DEFAULT_MAX_FRAME_BYTES
    for bad in ({"uploadId": "../etc"}, {"uploadId": ""}, {"uploadId": "x" * 65},
                {"index": -1}, {"index": "0"}, {"last": 1}, {"onDuplicate": "merge"},
                {"data": "A" * (IMPORT_CHUNK_MAX_CHARS + 1)}, {"size": -1}, {"path": "/x"}):
        with pytest.raises(ValidationError):
            protocol.REQUEST_ADAPTER.validate_python({**chunk, **bad})


def test_examples_import_replies():
    received = {"type": "examples.received", "id": "i1", "uploadId": "u", "index": 0,
                "bytes": 524288}
    assert isinstance(protocol.REPLY_ADAPTER.validate_python(received),
                      protocol.ExamplesReceivedReply)
    imported = {"type": "examples.imported", "id": "i9", "uploadId": "u", "name": "p.jsonl.gz",
                "bytes": 900, "added": 12, "replaced": 0,
                "skipped": [{"url": "https://a.example/", "reason": "this page has an "
                             "example already"}], "skippedCount": 3, "ownAddress": 1,
                "noAddress": 0}
    assert protocol.REPLY_ADAPTER.validate_python(imported).skipped_count == 3
    for bad in ({"added": -1}, {"skipped": [{"url": "x"}]}, {"name": None}):
        with pytest.raises(ValidationError):
            protocol.REPLY_ADAPTER.validate_python({**imported, **bad})


def test_examples_undo_import_takes_the_ranges_an_import_gave():
    """examples.imported gives its added ids as [first, last] runs; examples.undoImport takes
    them back. At the cap of runs, with the largest ids, the reply is far under the 1 MiB the
    browsers allow a host's message."""
    from blocksift.wire.constants import UNDO_IMPORT_MAX_RANGES

    request = protocol.REQUEST_ADAPTER.validate_python(
        {"type": "examples.undoImport", "id": "u1", "ranges": [[12, 511], [600, 600]]})
    assert isinstance(request, protocol.ExamplesUndoImportRequest)
    assert request.ranges == [[12, 511], [600, 600]]
    for bad in ([], [[5, 4]], [[0, 3]], [[1]], [[1, 2, 3]], [[1, "2"]], [[1, 2**63]],
                [[1, 2]] * (UNDO_IMPORT_MAX_RANGES + 1), "1-3"):
        with pytest.raises(ValidationError):
            protocol.REQUEST_ADAPTER.validate_python(
                {"type": "examples.undoImport", "id": "u", "ranges": bad})
    imported = {"type": "examples.imported", "id": "i9", "uploadId": "u", "name": "p.jsonl",
                "bytes": 900, "added": 12, "replaced": 0, "addedRanges": [[3, 14]]}
    assert protocol.REPLY_ADAPTER.validate_python(imported).added_ranges == [[3, 14]]
    older = {k: v for k, v in imported.items() if k != "addedRanges"}
    assert protocol.REPLY_ADAPTER.validate_python(older).added_ranges is None
    widest = [[protocol.MAX_STORED_INT - 1, protocol.MAX_STORED_INT]] * UNDO_IMPORT_MAX_RANGES
    assert len(json.dumps({**imported, "addedRanges": widest})) < 1024 * 1024 // 8
    undone = {"type": "examples.importUndone", "id": "u1", "removed": 12, "restored": 3,
              "missing": 2, "relabeled": 1, "missingIds": [4, 9]}
    assert protocol.REPLY_ADAPTER.validate_python(undone).missing_ids == [4, 9]
    for bad in ({"removed": -1}, {"missingIds": [None]}, {"restored": None}):
        with pytest.raises(ValidationError):
            protocol.REPLY_ADAPTER.validate_python({**undone, **bad})
