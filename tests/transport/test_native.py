"""The native-messaging host as a browser sees it: a real process, real frames."""

from __future__ import annotations

import json
import struct
import subprocess
import sys

import pytest
from conftest_ws import wait_for_file, write_sleepy_module

HEADER = struct.Struct("=I")


def test_hello_describes_protocol_and_algorithms(host):
    host.send({"type": "hello", "id": "h1", "protocol": 1, "client": "pytest"})
    reply = host.recv()
    assert reply["type"] == "hello" and reply["id"] == "h1"
    assert reply["protocol"] == 1 and reply["hostVersion"]
    names = [a["name"] for a in reply["algorithms"]]
    assert "linkblocks" in names
    linkblocks = reply["algorithms"][names.index("linkblocks")]
    assert linkblocks["paramsSchema"]["type"] == "object"
    assert linkblocks["paramsSchema"]["properties"]  # every param with its default
    assert reply["maxReplyBytes"] == 1024 * 1024
    assert reply["actions"] == ["extract", "hide", "reader"]


def test_the_reader_action_answers_the_page_kind_without_the_hide_plan(host):
    stories = "".join(f'<h3><a href="/story/{i}">Story number {i} of the day</a></h3>'
                      f'<p>Teaser {i}.</p>' for i in range(12))
    article = "<article><h1>A title</h1>" + "<p>" + "Plain article text. " * 40 + "</p></article>"
    for name, html, kind in [("index", f"<html><body><main>{stories}</main></body></html>",
                              "index"),
                             ("article", f"<html><body>{article}</body></html>", "article")]:
        host.send({"type": "extract", "id": name, "html": html, "algorithm": "auto",
                   "want": ["main"], "action": "reader"})
        reply = host.recv_reply()
        assert reply["type"] == "result" and reply["id"] == name, reply
        assert "hide" not in reply
        assert reply["page"]["pageKind"] == kind
        assert len(reply["page"]["index"]) == (12 if kind == "index" else 0)
        # the reader shows no per-block reasons: they are not computed
        assert all(not b.get("reasons") for b in reply["result"]["blocks"])


def test_the_reader_action_gives_a_shop_index_its_products_prices(host):
    # a shop's category page read as an index named its products, not their prices
    cards = "".join(f'<li><h3><a href="/p/{i}">Stoneware mug number {i}</a></h3>'
                    f'<p>A mug thrown by hand, glaze number {i}.</p>'
                    f'<span class="money">{"Sold out" if i == 3 else f"${20 + i}.00"}</span></li>'
                    for i in range(12))
    host.send({"type": "extract", "id": "shop", "algorithm": "auto", "want": ["main"],
               "action": "reader", "html": f"<html><body><main><ul>{cards}</ul></main></body></html>"})
    reply = host.recv_reply()
    assert reply["page"]["pageKind"] == "index", reply["page"]
    assert [item["price"] for item in reply["page"]["index"]] == \
        [f"${20 + i}.00" if i != 3 else "" for i in range(12)]


def test_newer_protocol_is_refused_clearly(host):
    host.send({"type": "hello", "id": "h2", "protocol": 99})
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == 1009 and reply["id"] == "h2"


@pytest.mark.parametrize("protocol", [0, -1])
def test_a_protocol_below_1_is_refused_not_answered_as_1(host, protocol):
    # protocol versions start at 1: a hello claiming 0 was answered with a hello (protocol 1)
    host.send({"type": "hello", "id": "h0", "protocol": protocol})
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == 1007 and reply["id"] == "h0", reply
    assert reply["message"] == (f"invalid hello: protocol: {protocol} is no protocol version "
                                "(they start at 1; this host speaks 1)")
    host.send({"type": "ping", "id": "after"})
    assert host.recv() == {"type": "pong", "id": "after"}


@pytest.mark.parametrize("protocol, shown", [("1", 'the string "1"'), (True, "true"),
                                             (1.0, "the number 1.0"), (None, "null")])
def test_a_protocol_that_is_no_json_integer_is_refused_not_read_as_1(host, protocol, shown):
    # "1", true and 1.0 were all read as protocol 1 (pydantic's lax mode): a version is an
    # integer, and anything else is the protocol's error for a bad field
    host.send({"type": "hello", "id": "h", "protocol": protocol})
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == 1007 and reply["id"] == "h", reply
    assert reply["message"] == ("invalid hello: protocol: Input should be a valid integer, "
                                f"not {shown}")
    host.send({"type": "hello", "id": "ok", "protocol": 1})
    assert host.recv()["type"] == "hello"


def test_integer_and_boolean_fields_take_json_integers_and_booleans_only(host):
    # each was coerced: "5" and 5.0 as 5, true as 1, 1 and "yes" as true
    bad = [({"type": "examples.list", "id": "l1", "limit": "5"}, "limit", "integer"),
           ({"type": "examples.list", "id": "l2", "limit": 5.0}, "limit", "integer"),
           ({"type": "examples.list", "id": "l3", "offset": True}, "offset", "integer"),
           ({"type": "examples.get", "id": "g", "exampleId": "1"}, "exampleId", "integer"),
           ({"type": "examples.delete", "id": "d", "exampleId": 1.0}, "exampleId", "integer"),
           ({"type": "examples.export", "id": "x", "withBlocks": "yes"}, "withBlocks",
            "boolean"),
           ({"type": "train", "id": "t", "useExamples": 1}, "useExamples", "boolean"),
           ({"type": "extract", "id": "e1", "html": "<p>x</p>", "private": 0}, "private",
            "boolean"),
           ({"type": "extract", "id": "e2", "html": "<p>x</p>", "learnSite": "true"},
            "learnSite", "boolean"),
           ({"type": "examples.save", "id": "s", "html": "<p data-bsid='1'>x</p>",
             "mainIds": ["1"], "restore": {"exampleId": "3", "created": 1}},
            "restore.exampleId", "integer"),
           ({"type": "examples.save", "id": "s2", "html": "<p data-bsid='1'>x</p>",
             "mainIds": ["1"], "restore": {"exampleId": 3, "created": True}},
            "restore.created", "number")]
    for message, field, kind in bad:
        host.send(message)
        reply = host.recv()
        assert reply["type"] == "error" and reply["code"] == 1007, (message, reply)
        assert reply["id"] == message["id"], reply
        assert f": {field}: Input should be a valid {kind}, not " in reply["message"], reply
    # the same fields with values of their own type are served; a number field takes 3
    host.send({"type": "examples.list", "id": "ok", "limit": 5, "offset": 0})
    assert host.recv()["type"] == "examples.list"
    host.send({"type": "extract", "id": "ok2", "html": "<p>Some text.</p>",
               "algorithm": "linkdensity", "private": True, "learnSite": False})
    assert host.recv_reply()["type"] == "result"


@pytest.mark.parametrize("params, problem", [
    ({"reasons": True}, "reasons: Input should be a valid integer, not true"),
    ({"reasons": "3"}, 'reasons: Input should be a valid integer, not the string "3"'),
    ({"reasons": 3.0}, "reasons: Input should be a valid integer, not the number 3.0"),
    ({"with_html": 0}, "with_html: Input should be a valid boolean, not the number 0"),
    ({"threshold": "0.5"}, 'threshold: Input should be a valid number, not the string "0.5"'),
    ({"threshold": False}, "threshold: Input should be a valid number, not false"),
])
def test_an_algorithms_params_are_read_as_strictly(host, params, problem):
    # an algorithm's params are its schema's types too: "0.5" is no number, true no integer
    host.send({"type": "extract", "id": "p", "html": "<p>Some text.</p>", "algorithm": "auto",
               "params": params})
    reply = host.recv_reply()
    assert reply["type"] == "error" and reply["code"] == 2002 and reply["id"] == "p", reply
    assert reply["message"] == f"invalid params for auto: {problem}"
    # a number param takes an integer; null where the schema allows it
    host.send({"type": "extract", "id": "ok", "html": "<p>Some text.</p>", "algorithm": "auto",
               "params": {"threshold": 1, "expected_f1_cap": None, "reasons": 2}})
    reply = host.recv_reply()
    assert reply["type"] == "result", reply


def test_extract_round_trip_maps_blocks_to_stamped_ids(host):
    links = "".join(f'<li data-bsid="{i}"><a data-bsid="{i + 100}" href="/n{i}">Nav {i}</a></li>'
                    for i in range(1, 6))
    article = ("<p data-bsid='50'>" + "Plain article text that runs long enough. " * 30
               + "</p>")
    html = (f'<html data-bsid="0"><body data-bsid="9"><ul data-bsid="10">{links}</ul>'
            f'{article}</body></html>')
    host.send({"type": "extract", "id": "e1", "url": "http://127.0.0.1/a", "html": html,
               "algorithm": "linkblocks", "want": ["blocks", "main"]})
    reply = host.recv_reply()
    assert reply["type"] == "result" and reply["id"] == "e1", reply
    blocks = [b for b in reply["result"]["blocks"] if b["kind"] == "links"]
    assert len(blocks) == 1
    block = blocks[0]
    assert html[block["start"]:block["start"] + 2] == "<a"
    assert html[:block["end"]].endswith("</a>")
    assert {"101", "105"} <= set(block["elementIds"])
    assert "50" not in block["elementIds"]
    assert reply["timing"]["totalMs"] >= reply["timing"]["algorithmMs"] >= 0


@pytest.mark.parametrize("frame, code", [
    (b"", 1001),                                   # empty frame
    (b"\xff\xfe{\"type\"", 1004),                   # invalid UTF-8
    (b"\xed\xa0\x80", 1004),                        # a lone surrogate encoded as (CESU) UTF-8
    (b"{\"type\": \"hello\", ", 1005),              # invalid JSON
    (b"[1, 2]", 1007),                              # not an object
    (b"{\"type\": \"teleport\", \"id\": \"x\"}", 1008),  # unknown message type
    (json.dumps({"type": "extract", "id": "s", "html": "\ud800"}).encode(), 1006),
    (b"{\"type\": \"extract\", \"id\": \"m\"}", 1007),   # missing html
    (b"{\"type\": \"ping\", \"id\": \"u\", \"bogus\": 1}", 1007),  # unknown field
    (b"{\"type\": \"hello\", \"id\": \"u\", \"bogus\": 1}", 1007),  # unknown field
    # a number of more than 4300 digits: Python's int limit, not a JSON error to json.loads
    (b"{\"type\": \"ping\", \"id\": \"n\", \"n\": " + b"1" * 5000 + b"}", 1005),
    # NaN and the infinities, which Python's json reads and JSON does not have
    (b"{\"type\": \"extract\", \"id\": \"f\", \"html\": \"<p>x</p>\", \"params\": "
     b"{\"threshold\": NaN}}", 1005),
    (b"{\"type\": \"ping\", \"id\": \"i\", \"n\": -Infinity}", 1005),
])
def test_every_bad_frame_gets_an_error_and_the_host_keeps_serving(host, frame, code):
    host.send_frame(frame)
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert reply["message"]
    host.send({"type": "ping", "id": "after"})
    assert host.recv() == {"type": "pong", "id": "after"}


@pytest.mark.parametrize("kind, extra", [
    ("extract", {"html": "<p>x</p>", "algorithm": "linkblocks"}),
    ("examples.save", {"html": "<p data-bsid='1'>x</p>", "mainIds": ["1"]}),
])
def test_a_deeply_nested_request_is_refused_with_its_id(host, kind, extra):
    # Valid JSON that json.loads reads, nested too deep to be passed to a worker process
    depth = 600
    frame = json.dumps({"type": kind, "id": "deep", **extra}).encode()[:-1]
    field = b"params" if kind == "extract" else b"algorithmOutput"
    frame += b', "' + field + b'": {"a": ' + b"[" * depth + b"]" * depth + b"}}"
    host.send_frame(frame)
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == 1007 and reply["id"] == "deep", reply
    assert "nested" in reply["message"]
    host.send({"type": "ping", "id": "after"})
    assert host.recv() == {"type": "pong", "id": "after"}


@pytest.mark.parametrize("message, code", [
    ({"type": "x" * 3_000_000}, 1008),
    ({"type": list(range(300_000))}, 1008),
    ({"type": "examples.list", "k" * 3_000_000: 1}, 1007),
    ({"type": "extract", "html": "<p>x</p>", "params": {"k" * 3_000_000: 1}}, 2002),
])
def test_a_huge_name_is_not_echoed_back(host, message, code):
    # The error quoted the whole type, field or param: a 3 MB reply, sent as chunks (and
    # those of the unknown type under the id "", which no request has)
    host.send({**message, "id": "t"})
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == code and reply["id"] == "t", \
        str(reply)[:200]
    assert len(reply["message"]) < 2100
    host.send({"type": "ping", "id": "after"})
    assert host.recv() == {"type": "pong", "id": "after"}


def test_invalid_params_and_unknown_algorithm_are_errors(host):
    host.send({"type": "extract", "id": "p1", "html": "<p>x</p>", "algorithm": "linkblocks",
               "params": {"no_such_param": 1}})
    reply = host.recv()
    assert reply["code"] == 2002 and reply["id"] == "p1" and "no_such_param" in reply["message"]
    host.send({"type": "extract", "id": "p2", "html": "<p>x</p>", "algorithm": "nonesuch"})
    reply = host.recv()
    assert reply["code"] == 2001 and "linkblocks" in reply["message"]


def test_absurd_length_is_drained_and_refused(host):
    limit = 64 * 1024 * 1024
    host.send_raw(HEADER.pack(limit + 1) + b"x" * (limit + 1))
    reply = host.recv()
    assert reply["code"] == 1002
    host.send({"type": "ping", "id": "p"})
    assert host.recv()["type"] == "pong"


@pytest.mark.parametrize("message, code", [
    ({"type": "ping", "id": "\ud800"}, 1006),
    ({"type": "teleport", "id": "\udfff"}, 1008),
    ({"type": "extract", "id": "x\ud800", "html": "<p>x</p>"}, 1006),
    ({"type": "hello", "id": "\ud83d", "protocol": 1}, 1006),
    ({"type": "\ud800", "id": "\ud800"}, 1008),
])
def test_a_lone_surrogate_in_the_id_is_answered_and_the_host_keeps_serving(host, message, code):
    # json.dumps writes the surrogate as its \ud800 escape, as a page's script could.
    host.send(message)
    reply = host.recv()
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert reply["id"] is None  # an ill-formed id is never echoed back
    host.send({"type": "ping", "id": "after"})
    assert host.recv() == {"type": "pong", "id": "after"}


def test_oversized_length_headers_keep_the_stream_in_sync(host_factory):
    host = host_factory("--max-frame", "1000")
    # The body of the refused frame holds what looks like a frame: it must be skipped.
    inner = json.dumps({"type": "ping", "id": "smuggled"}).encode()
    body = HEADER.pack(len(inner)) + inner
    body += b" " * (5000 - len(body))
    host.send_raw(HEADER.pack(len(body)) + body)
    for size in (1001, 4096, 1 << 20):
        host.send_raw(HEADER.pack(size) + b"y" * size)
    codes = [host.recv()["code"] for _ in range(4)]
    assert codes == [1002] * 4
    host.send({"type": "ping", "id": "in-sync"})
    assert host.recv() == {"type": "pong", "id": "in-sync"}
    host.send_raw(HEADER.pack(0xFFFFFFFF) + b"z" * 10)  # longer than the rest of the input
    assert host.recv()["code"] == 1002
    host.close_stdin()
    assert host.proc.wait(timeout=30) == 0


def test_truncated_frame_at_end_of_input_is_reported_then_clean_exit(host):
    host.send_raw(HEADER.pack(100) + b'{"type": "ping"')
    host.close_stdin()
    reply = host.recv()
    assert reply["code"] == 1003
    assert host.proc.wait(timeout=10) == 0


def test_end_of_input_ends_the_process_cleanly(host):
    host.send({"type": "ping", "id": "1"})
    assert host.recv()["type"] == "pong"
    host.close_stdin()
    assert host.proc.wait(timeout=10) == 0
    with pytest.raises(EOFError):
        host.recv(timeout=5)


def _big_page(megabytes: float) -> str:
    row = ('<p>' + 'Words of a very long article body, repeated to make it big. ' * 8
           + '<a href="/x">one link</a></p>\n')
    return "<html><body>" + row * int(megabytes * 1024 * 1024 / len(row)) + "</body></html>"


def test_reply_over_one_mebibyte_arrives_in_chunks(host):
    html = _big_page(3)
    host.send({"type": "extract", "id": "big", "html": html, "algorithm": "linkblocks",
               "want": ["main"]})
    reply = host.recv_reply(timeout=120)
    assert reply["type"] == "result" and reply["id"] == "big", reply.get("message")
    assert len(reply["result"]["main"]["text"]) > 1024 * 1024
    assert max(host.raw_sizes) <= 1024 * 1024
    assert len(host.raw_sizes) > 1  # it came as several frames


def test_small_request_is_answered_while_a_large_one_runs(host):
    host.send({"type": "extract", "id": "large", "html": _big_page(20),
               "algorithm": "linkblocks", "want": ["blocks"]})
    host.send({"type": "extract", "id": "small", "html": "<p>tiny</p>",
               "algorithm": "linkblocks"})
    first = host.recv_reply(timeout=120)
    assert first["id"] == "small", "the small page waited for the 20 MB one"
    second = host.recv_reply(timeout=180)
    assert second["id"] == "large"


def test_cancel_stops_work_and_the_host_keeps_serving(host_factory, tmp_path):
    host = host_factory("--workers", "1", extra_path=write_sleepy_module(tmp_path / "algos"))
    started = tmp_path / "started"
    host.send({"type": "extract", "id": "slow", "html": "<p>x</p>", "algorithm": "sleepy",
               "params": {"seconds": 600, "started_file": str(started)}})
    wait_for_file(started)  # the job is running on the only worker
    host.send({"type": "cancel", "id": "c1", "target": "slow"})
    replies = {r["type"]: r for r in (host.recv(timeout=60), host.recv(timeout=60))}
    assert replies["cancelled"]["found"] is True
    assert replies["error"]["code"] == 3002 and replies["error"]["id"] == "slow"
    # the only worker was killed mid-job: its replacement serves the next request
    host.send({"type": "extract", "id": "next", "html": "<p>ok</p>", "algorithm": "linkblocks"})
    assert host.recv_reply(timeout=60)["type"] == "result"


@pytest.mark.parametrize("second", [
    {"type": "examples.list"},
    {"type": "export.render", "title": "t", "html": "<p>x</p>", "format": "markdown"},
    {"type": "extract", "html": "<p>x</p>", "algorithm": "linkblocks"},
])
def test_a_request_reusing_the_id_of_one_in_progress_is_refused(host_factory, tmp_path, second):
    # The second request with the same id used to replace the first in the session's table
    # of work in flight: the first could then no longer be cancelled, and a WebSocket
    # server's SIGTERM did not wait for it.
    host = host_factory("--workers", "1", extra_path=write_sleepy_module(tmp_path / "algos"))
    started = tmp_path / "started"
    host.send({"type": "extract", "id": "same", "html": "<p>x</p>", "algorithm": "sleepy",
               "params": {"seconds": 600, "started_file": str(started)}})
    wait_for_file(started)
    host.send({"id": "same", **second})
    refused = host.recv(timeout=60)
    assert refused["type"] == "error" and refused["code"] == 1010, refused
    assert refused["id"] == "same"
    host.send({"type": "cancel", "id": "c1", "target": "same"})
    replies = {r["type"]: r for r in (host.recv(timeout=60), host.recv(timeout=60))}
    assert replies["cancelled"]["found"] is True
    assert replies["error"]["code"] == 3002 and replies["error"]["id"] == "same"


def test_per_request_time_limit(host_factory, tmp_path):
    # The job sleeps far past the limit; the follow-up needs milliseconds of it, so the
    # limit is generous enough for a loaded machine.
    host = host_factory("--timeout", "5", "--workers", "1",
                        extra_path=write_sleepy_module(tmp_path / "algos"))
    host.send({"type": "extract", "id": "t", "html": "<p>x</p>", "algorithm": "sleepy",
               "params": {"seconds": 600}})
    reply = host.recv(timeout=120)
    assert reply["code"] == 3001 and reply["id"] == "t"
    host.send({"type": "extract", "id": "u", "html": "<p>ok</p>", "algorithm": "sleepy"})
    assert host.recv_reply(timeout=60)["type"] == "result"


def test_a_page_over_the_memory_limit_is_an_error_and_the_worker_is_replaced(host_factory):
    host = host_factory("--memory-limit", "64", "--workers", "1")
    links = "".join(f"<div><a href='/p{i}'>link number {i}</a></div>" for i in range(60_000))
    host.send({"type": "extract", "id": "hog", "algorithm": "auto",
               "html": f"<html><body>{links}</body></html>"})
    reply = host.recv(timeout=120)
    assert reply["code"] == 3005 and reply["name"] == "memory_limit", reply
    assert reply["id"] == "hog" and "64 MiB" in reply["message"]
    # the only worker retired; its replacement serves the next page
    host.send({"type": "extract", "id": "next", "html": "<p>ok</p>", "algorithm": "auto"})
    assert host.recv_reply(timeout=60)["type"] == "result"


def test_a_five_megabyte_page_round_trips(host):
    html = _big_page(5)
    host.send({"type": "extract", "id": "five", "html": html, "algorithm": "linkblocks"})
    reply = host.recv_reply(timeout=120)
    assert reply["type"] == "result"
    for block in reply["result"]["blocks"]:
        assert 0 <= block["start"] < block["end"] <= len(html)


def test_stray_output_cannot_corrupt_the_frame_stream(tmp_path):
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from blocksift.transport.native import FrameWriter, guard_stdout\n"
        "out = guard_stdout()\n"
        "print('stray print')\n"
        "import os; os.write(1, b'stray C-level write')\n"
        "FrameWriter(out).write('{\"type\": \"pong\", \"id\": \"1\"}')\n"
    )
    from pathlib import Path

    host_dir = Path(__file__).resolve().parents[2] / "host"
    done = subprocess.run([sys.executable, "-c", script.replace(str(tmp_path), str(host_dir))],
                          capture_output=True, timeout=30)
    (length,) = HEADER.unpack(done.stdout[:4])
    assert json.loads(done.stdout[4:4 + length]) == {"type": "pong", "id": "1"}
    assert len(done.stdout) == 4 + length
    assert b"stray print" in done.stderr and b"stray C-level write" in done.stderr


def test_hello_descriptions_are_cached_and_rebuilt_when_code_changes(blocksift_home):
    from blocksift.service.session import describe_algorithms

    first = describe_algorithms()
    cache = blocksift_home / "cache" / "hello-algorithms.json"
    assert cache.exists()
    data = json.loads(cache.read_text())
    data["algorithms"] = [{"name": "stale"}]
    cache.write_text(json.dumps(data))
    assert describe_algorithms() == [{"name": "stale"}]  # a hit: served from the cache
    data["key"][0] = "0.0.0-older-host"
    cache.write_text(json.dumps(data))
    assert describe_algorithms() == first  # another version: rebuilt
    cache.write_text("{not json")
    assert describe_algorithms() == first  # a damaged cache is rebuilt, never fatal
