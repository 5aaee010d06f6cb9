// Unit tests of the DOM-independent extension modules (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ChunkAssembler, ID_ATTR, PROTOCOL_VERSION, cancelRequest, elementIdsToHide, extractRequest,
  helloRequest, hintCommand, isHostMissingMessage, lengthLabel, newRequestId, planOverlayItems, portClosedError, priceLabel, readingTime,
  wellFormed,
} from "../../extension/src/protocol.js";

test("hello names the protocol version and the client", () => {
  const hello = helloRequest("h1");
  assert.deepEqual(Object.keys(hello).sort(), ["client", "id", "protocol", "type"]);
  assert.equal(hello.protocol, PROTOCOL_VERSION);
  assert.match(hello.client, /^blocksift-extension\/\d+\.\d+\.\d+$/);
});

test("extract carries the snapshot, the id attribute and the privacy flag", () => {
  const request = extractRequest({ id: "x1", html: "<p data-bsid='1'>a</p>", url: "https://e.org/", want: ["main", "main"], isPrivate: 1 });
  assert.equal(request.idAttr, ID_ATTR);
  assert.deepEqual(request.want, ["main"]);
  assert.equal(request.private, true);
  assert.equal(request.algorithm, "auto");  // the host's default, the reader view's extractor
  assert.equal(extractRequest({ html: "", url: "" }).url, null);
  assert.equal(extractRequest({ html: "", learnSite: true }).learnSite, true);
  assert.equal(extractRequest({ html: "", learnSite: true, isPrivate: true }).learnSite, false);
});

test("bad extract input is refused before it reaches the host", () => {
  assert.throws(() => extractRequest({ html: 5 }), TypeError);
  assert.throws(() => extractRequest({ html: "", want: [] }), TypeError);
  assert.throws(() => extractRequest({ html: "", want: ["everything"] }), TypeError);
  assert.throws(() => extractRequest({ html: "", params: [] }), TypeError);
  assert.throws(() => extractRequest({ html: "", algorithm: "" }), TypeError);
  assert.throws(() => cancelRequest("x".repeat(129)), TypeError);
});

test("request ids are unique and within the host's length limit", () => {
  const ids = new Set(Array.from({ length: 1000 }, () => newRequestId("x")));
  assert.equal(ids.size, 1000);
  for (const id of ids) assert.ok(id.length <= 128);
});

test("chunks reassemble in seq order whatever order they arrive in", () => {
  const reply = { type: "result", id: "r", result: { text: "é€😀".repeat(1000) } };
  const text = JSON.stringify(reply);
  const parts = [text.slice(0, 100), text.slice(100, 2000), text.slice(2000)];
  const assembler = new ChunkAssembler();
  assert.equal(assembler.add({ type: "chunk", id: "r", seq: 2, count: 3, data: parts[2] }), null);
  assert.equal(assembler.add({ type: "chunk", id: "r", seq: 0, count: 3, data: parts[0] }), null);
  assert.equal(assembler.add({ type: "chunk", id: "r", seq: 0, count: 3, data: parts[0] }), null); // duplicate ignored
  assert.deepEqual(assembler.add({ type: "chunk", id: "r", seq: 1, count: 3, data: parts[1] }), reply);
  assert.equal(assembler.partial.size, 0);
});

test("inconsistent or malformed chunks fail clearly", () => {
  const assembler = new ChunkAssembler({ maxBytes: 10 });
  assert.throws(() => assembler.add({ id: "a", seq: 3, count: 2, data: "" }), /malformed/);
  assembler.add({ id: "b", seq: 0, count: 2, data: "{" });
  assert.throws(() => assembler.add({ id: "b", seq: 1, count: 3, data: "}" }), /count changed/);
  assert.throws(() => assembler.add({ id: "c", seq: 0, count: 2, data: "x".repeat(11) }), /exceeds/);
  assert.throws(() => new ChunkAssembler().add({ id: "d", seq: 0, count: 1, data: "{not json" }), /did not reassemble/);
});

test("a missing host is told apart from a host that closed", () => {
  assert.ok(isHostMissingMessage("Specified native messaging host not found."));
  assert.ok(isHostMissingMessage("No such native application org.blocksift.host"));
  assert.ok(!isHostMissingMessage("Native host has exited."));
  assert.equal(portClosedError("Specified native messaging host not found.").code, "host_missing");
  assert.match(portClosedError("Specified native messaging host not found.").hint, /blocksift install/);
  // Once the host answered, the same browser wording cannot mean "not installed".
  assert.equal(portClosedError("Native host has exited.", { everConnected: true }).code, "host_closed");
  assert.match(portClosedError("Native host has exited.", { everConnected: true }).message,
    /restarts on the next request/);
  // A host that went before answering anything (a launcher that cannot run: Chromium says
  // "Error when communicating ...", Firefox "An unexpected error occurred") would not start
  // on the next request either: the doctor says what is wrong.
  for (const text of ["Error when communicating with the native messaging host.",
    "An unexpected error occurred", "Native host has exited."]) {
    const error = portClosedError(text);
    assert.equal(error.code, "host_closed");
    assert.match(error.message, /stopped before it answered/);
    assert.doesNotMatch(error.message, /restarts on the next request/);
    assert.equal(hintCommand(error.hint), "blocksift doctor");
  }
  assert.equal(hintCommand(portClosedError("Specified native messaging host not found.").hint),
    "blocksift install");
  assert.equal(hintCommand(""), "");
});

test("a WebSocket server not running, or refusing the token, is said as such", () => {
  // (the reasons hostclient.js's WebSocket port gives) the doctor, which checks the browsers'
  // registrations, was the advice for both
  const down = portClosedError("cannot reach the blocksift WebSocket server at ws://127.0.0.1:8787/ (is `blocksift serve` running?)");
  assert.equal(down.message, "Nothing answers at ws://127.0.0.1:8787/: the blocksift WebSocket server is not running there.");
  assert.equal(hintCommand(down.hint), "blocksift serve");
  const refused = portClosedError("the WebSocket server refused the token (unauthorized); copy it from `blocksift serve --print-token` into the options");
  assert.match(refused.message, /refused the token/);
  assert.equal(hintCommand(refused.hint), "blocksift serve --print-token");
  // once it had answered: a server stopped is not restarted by the next request, as a
  // native host is
  const stopped = portClosedError("cannot reach the blocksift WebSocket server at ws://127.0.0.1:8787/ (is `blocksift serve` running?)",
    { everConnected: true });
  assert.match(stopped.message, /^The blocksift WebSocket server closed the connection/);
  assert.doesNotMatch(stopped.message, /restarts on the next request/);
  assert.equal(hintCommand(stopped.hint), "blocksift serve");
  assert.match(portClosedError("Native host has exited.", { everConnected: true }).message, /restarts on the next request/);
});

test("hide takes the elements of link, ad and nav blocks only", () => {
  const result = { blocks: [
    { kind: "links", elementIds: ["1", "2"] }, { kind: "main", elementIds: ["3"] },
    { kind: "nav", elementIds: ["2", "4"] }, { kind: "ad" },
  ] };
  assert.deepEqual(elementIdsToHide(result), ["1", "2", "4"]);
  assert.deepEqual(elementIdsToHide(null), []);
});

test("reading time counts words and CJK characters", () => {
  assert.deepEqual(readingTime("word ".repeat(460)), { words: 460, cjk: 0, minutes: 2 });
  assert.equal(readingTime("字".repeat(1500)).minutes, 3);
  assert.equal(readingTime("").minutes, 1);
  // a Chinese text's length is its characters, not "words"; a few in English text are words
  assert.equal(lengthLabel(readingTime("中文字符".repeat(300) + " GDP 2025"), "en"), "1,200 characters");
  assert.equal(lengthLabel(readingTime("word ".repeat(1200) + "東京"), "en"), "1,202 words");
});

test("messages are made well-formed: lone surrogates become U+FFFD, pairs stay", () => {
  const message = { html: "a\uD800b \uD83D\uDE00 c\uDC00", list: ["\uDBFF"], n: 5, none: null };
  const mended = wellFormed(message);
  assert.equal(mended.html, "a\uFFFDb \uD83D\uDE00 c\uFFFD");
  assert.deepEqual(mended.list, ["\uFFFD"]);
  assert.equal(mended.n, 5);
  assert.equal(mended.none, null);
  assert.equal(message.html, "a\uD800b \uD83D\uDE00 c\uDC00");  // the snapshot itself is untouched
});

test("an overlay label names an 'other' target as the host's reason does, else by its kind", () => {
  const plan = { version: 1, targets: [
    { kind: "other", elementId: "1", links: 3, reason: "cookie consent banner: 2,114 characters, 3 links, outside the main text" },
    { kind: "other", elementId: "2", links: 0, reason: "share buttons: 40 characters, outside the main text" },
    { kind: "other", elementId: "3", links: 1, reason: "labeled other by the segmenter (main probability 0.01), 12 characters" },
    { kind: "other", elementId: "4", links: 1, reason: "cookie banner, labeled other by the segmenter (main probability 0.02): its words" },
    { kind: "nav", elementId: "5", links: 9, reason: "navigation: 9 links, outside the main text" },
  ] };
  assert.deepEqual(planOverlayItems(plan).map((item) => item.label), [
    "cookie consent banner · 3 links", "share buttons", "other · 1 link", "other · 1 link", "navigation · 9 links"]);
  // the short label, for a long one that finds no free spot, is the kind's name
  assert.deepEqual(planOverlayItems(plan).map((item) => item.shortLabel), [
    "other · 3 links", "other", "other · 1 link", "other · 1 link", "navigation · 9 links"]);
});

test("a product's price reads in the page's language; a bad one is no price", () => {
  assert.equal(priceLabel({ amount: "29.95", currency: "USD" }, "en-US"), "$29.95");
  assert.equal(priceLabel({ amount: "1299.99", currency: "EUR" }, "de-DE").replace(/\s/g, " "), "1.299,99 €");
  assert.equal(priceLabel({ amount: "17", currency: "GBP" }, "en-GB"), "£17.00");
  assert.equal(priceLabel({ amount: "4.5", currency: "XQQ" }, "en-US").replace(/\s/g, " "), "XQQ 4.50");
  for (const bad of [null, {}, { amount: "0", currency: "USD" }, { amount: "abc", currency: "USD" },
    { amount: "5", currency: "usd" }, { amount: "5", currency: "US$" }]) {
    assert.equal(priceLabel(bad, "en-US"), "", JSON.stringify(bad));
  }
});
