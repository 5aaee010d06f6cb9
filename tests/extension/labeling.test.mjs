import assert from "node:assert/strict";
import { test } from "node:test";

import { cleanSite, excludedEntry, normalizeLabeling, parseSiteList } from "../../extension/src/labelsettings.js";
import {
  MSG, correctedOutput, examplesRequest, examplesSaveRequest, initialMainIds, trainRequest,
} from "../../extension/src/protocol.js";

test("excluded sites are cleaned from what people type", () => {
  assert.equal(cleanSite("https://www.Bank.example/login?x=1"), "bank.example");
  assert.equal(cleanSite("  mail.example  "), "mail.example");
  assert.equal(cleanSite("127.0.0.1:8080"), "127.0.0.1");
  assert.equal(cleanSite("not a site!"), null);
  assert.equal(cleanSite(""), null);
  assert.deepEqual(parseSiteList("b.example\na.example, b.example  junk!!"), ["a.example", "b.example"]);
  assert.deepEqual(normalizeLabeling({ excludedSites: "bank.example" }), { excludedSites: [] });
  assert.deepEqual(normalizeLabeling(null), { excludedSites: [] });
});

test("an excluded site covers its subdomains, not look-alikes", () => {
  const labeling = { excludedSites: ["bank.example"] };
  assert.equal(excludedEntry(labeling, "https://bank.example/"), "bank.example");
  assert.equal(excludedEntry(labeling, "https://online.bank.example/a"), "bank.example");
  assert.equal(excludedEntry(labeling, "https://notbank.example/"), null);
  assert.equal(excludedEntry(labeling, "chrome://settings"), null);
});

test("the labeler's save message name matches the background's", async () => {
  const { readFile } = await import("node:fs/promises");
  const source = await readFile(new URL("../../extension/src/labeler.js", import.meta.url), "utf8");
  assert.match(source, new RegExp(`SAVE_MESSAGE = "${MSG.LABEL_SAVE}"`));
});

test("the labeler starts from the main text's ids, else from main/content blocks", () => {
  assert.deepEqual(initialMainIds({ main: { elementIds: ["4", "5"] }, blocks: [] }), ["4", "5"]);
  assert.deepEqual(initialMainIds({ main: { elementIds: [] }, blocks: [
    { kind: "links", elementIds: ["1"] }, { kind: "main", elementIds: ["7", "8"] }, { kind: "content", elementIds: ["8", "9"] }] }),
  ["7", "8", "9"]);
  assert.deepEqual(initialMainIds(null), []);
});

test("the corrected output keeps ids, text and blocks, not the sanitized HTML", () => {
  const out = correctedOutput({ algorithm: "auto", status: "ok", main: { elementIds: ["1"], text: "t", html: "<p>t</p>" },
    blocks: [{ kind: "links", score: 0.5, elementIds: ["2"], start: 0, end: 9 }] });
  assert.deepEqual(out, { algorithm: "auto", status: "ok", stage: "", main: { elementIds: ["1"], text: "t" },
    blocks: [{ kind: "links", score: 0.5, elementIds: ["2"] }] });
});

test("request builders refuse bad input", () => {
  assert.throws(() => examplesSaveRequest({ html: "" }), TypeError);
  assert.throws(() => examplesSaveRequest({ html: "<p>", mainIds: [1] }), TypeError);
  assert.throws(() => examplesSaveRequest({ html: "<p>", blocks: [{ kind: "nav" }] }), TypeError);
  assert.throws(() => examplesRequest("drop"), TypeError);
  assert.equal(examplesSaveRequest({ html: "<p>", blocks: [{ kind: "ad", ids: [3], text: "x".repeat(200000) }] }).blocks[0].text.length, 100000);
  assert.deepEqual(trainRequest({ id: "t" }), { type: "train", id: "t", algorithm: "farsw", useExamples: true, datasets: [] });
});

// -- the refusals, decided before anything is injected or sent (labeling.js) -----------------

function memoryArea(data = {}) {
  // A storage area with the browser's get/set shape, over a plain object.
  return {
    async get(key) {
      return key in data ? { [key]: structuredClone(data[key]) } : {};
    },
    async set(values) {
      Object.assign(data, structuredClone(values));
    },
  };
}

test("labeling is refused in private windows, on excluded sites, and when every page is private", async () => {
  const { labelingRefusal } = await import("../../extension/src/labeling.js");
  const api = { storage: { local: memoryArea({ labeling: { excludedSites: ["bank.example"] } }) } };
  assert.equal((await labelingRefusal(api, { incognito: true, url: "https://news.example/" })).code, "private_window");
  assert.equal((await labelingRefusal(api, { incognito: false, url: "https://online.bank.example/" })).code, "excluded_site");
  assert.equal(await labelingRefusal(api, { incognito: false, url: "https://news.example/" }), null);
  // The page's own address counts too (it may have navigated since the tab was read).
  assert.equal((await labelingRefusal(api, { incognito: false, url: "https://news.example/" }, "https://bank.example/x")).code, "excluded_site");
  const privateApi = { storage: { local: memoryArea({ settings: { privacy: { alwaysPrivate: true } } }) } };
  assert.equal((await labelingRefusal(privateApi, { incognito: false, url: "https://news.example/" })).code, "always_private");
});

test("a save from a private window never reaches the host", async () => {
  const { saveExample } = await import("../../extension/src/labeling.js");
  const api = { storage: { local: memoryArea() } };
  const hostClient = async () => { throw new Error("the host must not be asked"); };
  await assert.rejects(
    saveExample({ html: "<p data-bsid='1'>x</p>", mainIds: ["1"] }, { tab: { incognito: true, url: "https://a.example/" } }, { api, hostClient }),
    (err) => err.code === "private_window");
  await assert.rejects(
    saveExample({ html: "<p>x</p>", mainIds: ["1"] }, {}, { api, hostClient }),
    (err) => err.code === "no_tab");
});

test("Undo of a delete stores the example again as it was, unless its site is excluded now", async () => {
  const { examplesCall } = await import("../../extension/src/labeling.js");
  const example = { exampleId: 7, url: "https://news.example/a", title: "A", html: "<p data-bsid='1'>x</p>",
    mainIdList: ["1"], blocks: [{ kind: "links", ids: ["2"], text: "more" }], algorithm: "auto",
    algorithmOutput: { algorithm: "auto", status: "ok" }, mainText: "x", created: 1 };
  const sent = [];
  const hostClient = async () => ({ request: async (request) => { sent.push(request); return { exampleId: 8 }; } });
  const api = { storage: { local: memoryArea({ labeling: { excludedSites: ["bank.example"] } }) } };
  assert.deepEqual(await examplesCall({ op: "restore", example }, { api, hostClient }), { exampleId: 8 });
  const [request] = sent;
  assert.equal(request.type, "examples.save");
  assert.deepEqual(
    { url: request.url, title: request.title, html: request.html, mainIds: request.mainIds, blocks: request.blocks,
      algorithm: request.algorithm, algorithmOutput: request.algorithmOutput, private: request.private },
    { url: example.url, title: "A", html: example.html, mainIds: ["1"], blocks: example.blocks, algorithm: "auto",
      algorithmOutput: example.algorithmOutput, private: false });
  await assert.rejects(examplesCall({ op: "restore", example: { ...example, url: "https://bank.example/x" } }, { api, hostClient }),
    (err) => err.code === "excluded_site");
  assert.equal(sent.length, 1);
});

test("Undo asks for the example's number and date back; an older host that refuses that still gets it", async () => {
  const { examplesCall } = await import("../../extension/src/labeling.js");
  const { BlocksiftError } = await import("../../extension/src/protocol.js");
  const example = { exampleId: 7, url: "https://news.example/a", title: "A", html: "<p data-bsid='1'>x</p>",
    mainIdList: ["1"], blocks: [], algorithm: "auto", algorithmOutput: {}, mainText: "x", created: 1700000000.5 };
  const api = { storage: { local: memoryArea() } };
  const sent = [];
  const host = (refuse) => async () => ({
    request: async (request) => {
      sent.push(request);
      // the message a host from before `restore` answers with (error 1007, extra="forbid")
      if (refuse && request.restore) throw new BlocksiftError("invalid examples.save: restore: Extra inputs are not permitted", { code: 1007 });
      return { exampleId: request.restore?.exampleId ?? 9, replaced: [] };
    },
  });
  assert.equal((await examplesCall({ op: "restore", example }, { api, hostClient: host(false) })).exampleId, 7);
  assert.deepEqual(sent.pop().restore, { exampleId: 7, created: 1700000000.5 });
  // "Restore earlier label" (keep: false) stores it as the page's label now
  await examplesCall({ op: "restore", example, keep: false }, { api, hostClient: host(false) });
  assert.equal(sent.pop().restore, undefined);
  sent.length = 0;
  assert.equal((await examplesCall({ op: "restore", example }, { api, hostClient: host(true) })).exampleId, 9);
  assert.deepEqual(sent.map((request) => Boolean(request.restore)), [true, false]);
  assert.notEqual(sent[0].id, sent[1].id);
  // any other refusal is the user's to see, not retried
  const other = async () => ({ request: async (request) => { sent.push(request); throw new BlocksiftError("the database is damaged", { code: 2003 }); } });
  sent.length = 0;
  await assert.rejects(examplesCall({ op: "restore", example }, { api, hostClient: other }), /damaged/);
  assert.equal(sent.length, 1);
});

test("a save that replaced an earlier label of the page says so, and how to go back", async () => {
  const { saveExample, savedNotice } = await import("../../extension/src/labeling.js");
  const api = { storage: { local: memoryArea() } };
  const replies = [{ exampleId: 4, mainChars: 120, replaced: [] }, { exampleId: 5, mainChars: 1, replaced: [4] }];
  const hostClient = async () => ({ request: async () => replies.shift() });
  const sender = { tab: { incognito: false, url: "https://news.example/a" } };
  const message = { url: "https://news.example/a", html: "<p data-bsid='1'>x</p>", mainIds: ["1"], blocks: [{ kind: "ad", ids: ["1"] }] };
  const first = await saveExample(message, sender, { api, hostClient });
  assert.equal(first.notice.title, "Example saved");
  assert.deepEqual(first.replaced, []);
  const again = await saveExample(message, sender, { api, hostClient });
  assert.deepEqual(again.replaced, [4]);
  assert.equal(again.notice.title, "Saved — replaced your earlier label of this page");
  assert.match(again.notice.detail, /^Example 5: 1 character of main text and 1 marked block\. The reader view adapts to news\.example from it\. /);
  assert.match(again.notice.detail, /earlier label \(example 4\).*options → Examples → Restore earlier label/);
  // a host of before this change answers without `replaced`
  assert.equal(savedNotice({ exampleId: 1, mainChars: 2 }).title, "Example saved");
  assert.match(savedNotice({ exampleId: 9, mainChars: 2, replaced: [3, 7] }).detail, /examples 3, 7/);
});

test("a save says whether it adapts the reader view on its site", async () => {
  const { saveExample } = await import("../../extension/src/labeling.js");
  const api = { storage: { local: memoryArea() } };
  const sent = [];
  const hostClient = async () => ({ request: async (request) => (sent.push(request), { exampleId: 1, mainChars: 3, replaced: [] }) });
  const sender = { tab: { incognito: false, url: "https://www.news.example/a" } };
  const message = { url: "https://www.news.example/a", html: "<p data-bsid='1'>x</p>", mainIds: ["1"], blocks: [] };
  const withUrl = await saveExample(message, sender, { api, hostClient });
  assert.match(withUrl.notice.detail, /The reader view adapts to news\.example from it\./);
  await api.storage.local.set({ settings: { privacy: { sendUrl: false } } });
  const without = await saveExample(message, sender, { api, hostClient });
  assert.equal(sent[1].url ?? null, null);
  assert.match(without.notice.detail, /Saved without the page's address .*does not adapt the reader view\./);
});

test("the popup's button is called what the options page and the toolbar call it", async () => {
  const { readFile } = await import("node:fs/promises");
  const read = (name) => readFile(new URL(`../../extension/src/${name}`, import.meta.url), "utf8");
  const [popup, options, labeler] = await Promise.all([read("popup.html"), read("options.html"), read("labeler.js")]);
  const name = popup.match(/id="act-label"[^>]*>\s*<span class="label">([^<]+)</)?.[1];
  // the options page sends people to the popup by this name ('"Label this page" in the toolbar popup')
  assert.ok(options.includes(`"${name}" in the toolbar popup`), name);
  assert.ok(labeler.includes(`text: "${name}"`), name);
});

test("a site's adaptation is split into the user's saved examples of the site and dataset pages", async () => {
  const { adaptationSplit } = await import("../../extension/src/labeling.js");
  const saved = ["https://www.news.example/a", "https://news.example/b?x=1", "https://other.example/c",
    "https://blog.news.example/d", "not a url"];
  // 12 pages counted: two are the user's (www. or not), the rest came from a dataset
  assert.deepEqual(adaptationSplit(12, saved, "https://news.example/today"), { pages: 12, labeled: 2, dataset: 10 });
  // none saved for this site: all from a dataset
  assert.deepEqual(adaptationSplit(40, saved, "https://third.example/"), { pages: 40, labeled: 0, dataset: 40 });
  // an example not yet counted into the file never makes a negative dataset
  assert.deepEqual(adaptationSplit(1, saved, "https://news.example/"), { pages: 1, labeled: 1, dataset: 0 });
  assert.deepEqual(adaptationSplit(0, saved, "https://news.example/"), { pages: 0, labeled: 0, dataset: 0 });
});

test("the host's count of the user's examples gives the split without listing them", async () => {
  const { adaptationCounts, adaptationOf } = await import("../../extension/src/labeling.js");
  // stats are floats on the wire
  assert.deepEqual(adaptationCounts({ site_pages: 43.0, site_examples: 3.0 }), { pages: 43, labeled: 3, dataset: 40 });
  assert.deepEqual(adaptationCounts({ site_pages: 2, site_examples: 0 }), { pages: 2, labeled: 0, dataset: 2 });
  assert.deepEqual(adaptationCounts({ site_pages: 1, site_examples: 4 }), { pages: 1, labeled: 1, dataset: 0 });
  // not said (an older host, an older site file) or not a count: not known here
  for (const stats of [{ site_pages: 5 }, { site_pages: 5, site_examples: null }, { site_pages: 5, site_examples: "2" },
    { site_pages: 5, site_examples: -1 }, { site_pages: 5, site_examples: NaN }, null, undefined]) {
    assert.equal(adaptationCounts(stats), null, JSON.stringify(stats));
  }
  const listed = [];
  const host = { request: async (req) => {
    listed.push(req.type);
    return { items: [{ url: "https://news.example/a" }, { url: "https://news.example/b" }], total: 2 };
  } };
  // a host that says: no examples.list at all (the reader no longer waits for the database)
  assert.deepEqual(await adaptationOf({ site_pages: 7, site_examples: 1 }, "https://news.example/p", host),
    { pages: 7, labeled: 1, dataset: 6 });
  assert.deepEqual(listed, []);
  // a host that does not: the saved examples are listed, as before
  assert.deepEqual(await adaptationOf({ site_pages: 7 }, "https://news.example/p", host), { pages: 7, labeled: 2, dataset: 5 });
  assert.deepEqual(listed, ["examples.list"]);
});

test("examples requests with a bad id, limit or offset are never built: a local error says why", async () => {
  const { BlocksiftError, LOCAL_ERRORS } = await import("../../extension/src/protocol.js");
  const refused = (op, args, words) => assert.throws(() => examplesRequest(op, args, "r"), (err) => {
    assert.ok(err instanceof BlocksiftError, `${op} ${String(args?.exampleId)}: ${err}`);
    assert.equal(err.code, LOCAL_ERRORS.BAD_REQUEST);
    assert.match(err.message, words);
    return true;
  });
  for (const op of ["get", "delete"]) {
    for (const bad of [undefined, null, NaN, Infinity, 0, -3, 2.5, "", "abc", "12abc", "1e3", true, [4], {}, 2 ** 53]) {
      refused(op, { exampleId: bad }, /^An example id must be a whole number of 1 or more, not /);
    }
  }
  refused("get", { exampleId: "abc" }, /not "abc"\.$/);
  refused("get", { exampleId: 2 ** 60 }, /too large to send exactly/);
  for (const bad of [0, -1, 1.5, NaN, "many", 10001]) {
    refused("list", { limit: bad }, /^The number of examples to list must be a whole number from 1 to 10,000, not /);
  }
  for (const bad of [-1, 0.5, NaN, "next", 2 ** 53]) {
    refused("list", { offset: bad }, /^The offset in the list of examples must be a whole number of 0 or more, not /);
  }
  // good values go out as numbers (a data attribute's digits too); left out: the defaults
  assert.deepEqual(examplesRequest("get", { exampleId: "12" }, "r"), { type: "examples.get", id: "r", exampleId: 12 });
  assert.deepEqual(examplesRequest("delete", { exampleId: 7 }, "r"), { type: "examples.delete", id: "r", exampleId: 7 });
  assert.deepEqual(examplesRequest("list", {}, "r"), { type: "examples.list", id: "r", limit: 100, offset: 0 });
  assert.deepEqual(examplesRequest("list", { limit: 10000, offset: null }, "r"),
    { type: "examples.list", id: "r", limit: 10000, offset: 0 });
  // through the background's handler: refused before the host is even started
  const { examplesCall } = await import("../../extension/src/labeling.js");
  let started = 0;
  const deps = { api: { storage: { local: memoryArea() } }, hostClient: async () => { started += 1; return { request: async () => ({}) }; } };
  await assert.rejects(examplesCall({ op: "delete", exampleId: "oops" }, deps),
    (err) => err instanceof BlocksiftError && err.code === LOCAL_ERRORS.BAD_REQUEST);
  assert.equal(started, 0);
  assert.deepEqual(await examplesCall({ op: "delete", exampleId: 3 }, deps), {});
  assert.equal(started, 1);
});

test("the split reads every saved example from the host, page by page, and falls back to the count", async () => {
  const { adaptationSources } = await import("../../extension/src/labeling.js");
  const all = Array.from({ length: 2500 }, (_, i) => ({ url: `https://${i < 3 ? "news" : "x" + i}.example/${i}` }));
  all.push({ url: "https://news.example/last" });
  const asked = [];
  const host = { request: async (req, options) => {
    asked.push([req.type, req.limit, req.offset]);
    assert.ok(options.timeoutMs > 0 && options.timeoutMs <= 5000, "the reader waits seconds, not minutes");
    return { items: all.slice(req.offset, req.offset + req.limit), total: all.length };
  } };
  assert.deepEqual(await adaptationSources(9, "https://news.example/p", host), { pages: 9, labeled: 4, dataset: 5 });
  assert.deepEqual(asked, [["examples.list", 1000, 0], ["examples.list", 1000, 1000], ["examples.list", 1000, 2000]]);
  const broken = { request: async () => { throw new Error("no examples database"); } };
  assert.equal(await adaptationSources(9, "https://news.example/p", broken), 9);
  assert.equal(await adaptationSources(0, "https://news.example/p", broken), true);
});

test("an import goes as chunks of one upload: base64 under the host's cap, name and size with chunk 0", async () => {
  const {
    BlocksiftError, IMPORT_CHUNK_BYTES, LOCAL_ERRORS, bytesToBase64, importChunkCount, newUploadId,
  } = await import("../../extension/src/protocol.js");
  const { IMPORT_CHUNK_MAX_CHARS } = await import("../../extension/src/wireconstants.js");
  assert.ok(Math.ceil(IMPORT_CHUNK_BYTES / 3) * 4 <= IMPORT_CHUNK_MAX_CHARS);
  assert.equal(IMPORT_CHUNK_BYTES, 384 * 1024);
  assert.deepEqual([0, 1, IMPORT_CHUNK_BYTES, IMPORT_CHUNK_BYTES + 1].map((n) => importChunkCount(n)), [1, 1, 1, 2]);
  // every byte value, and more than one fromCharCode piece
  const bytes = new Uint8Array(70000).map((_, i) => (i * 7) % 256);
  assert.equal(bytesToBase64(bytes), Buffer.from(bytes).toString("base64"));
  assert.equal(bytesToBase64(new Uint8Array(0)), "");
  const uploadId = newUploadId();
  assert.match(uploadId, /^[A-Za-z0-9_-]{1,64}$/);
  assert.notEqual(uploadId, newUploadId());
  assert.deepEqual(examplesRequest("import", { uploadId, index: 0, data: "eA==", name: "pages.jsonl.gz", size: 1 }, "r"),
    { type: "examples.import", id: "r", uploadId, index: 0, data: "eA==", last: false, onDuplicate: "skip",
      name: "pages.jsonl.gz", size: 1 });
  assert.deepEqual(examplesRequest("import", { uploadId, index: 2, data: "", last: true, onDuplicate: "replace", name: "x" }, "r"),
    { type: "examples.import", id: "r", uploadId, index: 2, data: "", last: true, onDuplicate: "replace" });
  for (const bad of [{ uploadId: "../x" }, { uploadId: "" }, { index: -1 }, { index: 1.5 }, { onDuplicate: "merge" },
    { data: "A".repeat(IMPORT_CHUNK_MAX_CHARS + 4) }, { data: null }]) {
    assert.throws(() => examplesRequest("import", { uploadId, index: 0, data: "", ...bad }, "r"),
      (err) => err instanceof BlocksiftError && err.code === LOCAL_ERRORS.BAD_REQUEST, JSON.stringify(bad).slice(0, 80));
  }
  // the last chunk waits for the whole import: a longer time than a request's 2 minutes
  const { examplesCall } = await import("../../extension/src/labeling.js");
  const waits = [];
  const deps = { api: { storage: { local: memoryArea() } },
    hostClient: async () => ({ request: async (message, options) => { waits.push([message.index, options?.timeoutMs ?? null]); return {}; } }) };
  await examplesCall({ op: "import", uploadId, index: 0, data: "" }, deps);
  await examplesCall({ op: "import", uploadId, index: 1, data: "", last: true }, deps);
  assert.equal(waits[0][1], null);
  assert.ok(waits[1][1] >= 10 * 60 * 1000, waits);
});

test("an import's undo sends the ids it gave back as [first, last] runs, checked, with the import's long wait", async () => {
  const { BlocksiftError, LOCAL_ERRORS, examplesRequest } = await import("../../extension/src/protocol.js");
  const { UNDO_IMPORT_MAX_RANGES } = await import("../../extension/src/wireconstants.js");
  assert.deepEqual(examplesRequest("undoImport", { ranges: [[3, 14], [20, 20]] }, "u"),
    { type: "examples.undoImport", id: "u", ranges: [[3, 14], [20, 20]] });
  for (const ranges of [[], [[5, 4]], [[0, 2]], [[1]], [[1, 2, 3]], [[1, 2.5]], "1-3", undefined,
    Array.from({ length: UNDO_IMPORT_MAX_RANGES + 1 }, () => [1, 2])]) {
    assert.throws(() => examplesRequest("undoImport", { ranges }, "u"),
      (err) => err instanceof BlocksiftError && err.code === LOCAL_ERRORS.BAD_REQUEST, String(JSON.stringify(ranges)).slice(0, 80));
  }
  const { examplesCall } = await import("../../extension/src/labeling.js");
  const sent = [];
  const deps = { api: { storage: { local: memoryArea() } },
    hostClient: async () => ({ request: async (message, options) => { sent.push([message, options?.timeoutMs ?? null]); return { removed: 12 }; } }) };
  assert.deepEqual(await examplesCall({ op: "undoImport", ranges: [[3, 14]] }, deps), { removed: 12 });
  assert.equal(sent[0][0].type, "examples.undoImport");
  assert.ok(sent[0][1] >= 10 * 60 * 1000, sent);
});
