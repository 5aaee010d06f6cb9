import assert from "node:assert/strict";
import { test } from "node:test";

import {
  DEFAULT_SETTINGS, choiceFor, isPrivateRequest, loadSettings, normalizeSettings, removeRule,
  ruleFor, saveSettings, siteOf, upsertRule,
} from "../../extension/src/settings.js";

test("site keys are host names without www, only for web pages", () => {
  assert.equal(siteOf("https://www.Example.org/a?b"), "example.org");
  assert.equal(siteOf("http://127.0.0.1:8000/x"), "127.0.0.1");
  assert.equal(siteOf("chrome://settings"), null);
  assert.equal(siteOf("not a url"), null);
});

test("garbage in storage falls back to the defaults", () => {
  assert.deepEqual(normalizeSettings(null), normalizeSettings(DEFAULT_SETTINGS));
  const s = normalizeSettings({ algorithm: 7, transport: { kind: "carrier-pigeon", wsUrl: "http://x" },
    privacy: { sendUrl: "yes" }, params: { linkblocks: { a: 1, b: "x", c: {}, d: NaN } },
    rules: [{ site: "a.org", action: "explode" }, { site: "b.org", action: "hide" }, { site: "b.org", action: "reader" }] });
  assert.equal(s.algorithm, "auto");
  assert.equal(s.transport.kind, "native");
  assert.equal(s.transport.wsUrl, DEFAULT_SETTINGS.transport.wsUrl);
  assert.equal(s.privacy.sendUrl, true);
  assert.deepEqual(s.params.linkblocks, { a: 1, b: "x" });
  assert.deepEqual(s.rules.map((r) => [r.site, r.action]), [["b.org", "hide"]]);
});

test("rules: add, replace, look up, revert", () => {
  let s = normalizeSettings({});
  s = upsertRule(s, { site: "www.news.org", action: "hide", algorithm: "linkblocks", params: { k: 2 } });
  s = upsertRule(s, { site: "news.org", action: "reader" });
  assert.equal(s.rules.length, 1);
  assert.equal(ruleFor(s, "https://news.org/story").action, "reader");
  assert.equal(ruleFor(s, "https://other.org/"), null);
  assert.throws(() => upsertRule(s, { site: "", action: "hide" }), TypeError);
  s = removeRule(s, "news.org");
  assert.equal(ruleFor(s, "https://news.org/story"), null);
});

test("a site's rule params apply only with its own algorithm", () => {
  let s = normalizeSettings({ algorithm: "linkblocks", params: { linkblocks: { a: 1, b: 1 } } });
  assert.deepEqual(choiceFor(s, "https://x.org/").params, { a: 1, b: 1 });
  s = upsertRule(s, { site: "x.org", action: "hide", algorithm: "linkblocks", params: { b: 2 } });
  assert.deepEqual(choiceFor(s, "https://x.org/").params, { a: 1, b: 2 });
  s = upsertRule(s, { site: "x.org", action: "hide", algorithm: "farsw", params: { w: 3 } });
  assert.deepEqual(choiceFor(s, "https://x.org/"), { algorithm: "farsw", params: { w: 3 }, rule: s.rules[0] });
});

test("private windows and the always-private switch both mark requests private", () => {
  const s = normalizeSettings({});
  assert.equal(isPrivateRequest(s, false), false);
  assert.equal(isPrivateRequest(s, true), true);
  assert.equal(isPrivateRequest(normalizeSettings({ privacy: { alwaysPrivate: true } }), false), true);
});

test("settings round-trip through a storage area", async () => {
  const data = {};
  const area = { get: async (k) => ({ [k]: data[k] }), set: async (o) => Object.assign(data, o) };
  const saved = await saveSettings(area, { ...normalizeSettings({}), algorithm: "farsw" });
  assert.equal((await loadSettings(area)).algorithm, "farsw");
  assert.deepEqual(await loadSettings(area), saved);
});
