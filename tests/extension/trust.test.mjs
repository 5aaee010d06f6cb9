import assert from "node:assert/strict";
import { test } from "node:test";

import { MSG } from "../../extension/src/protocol.js";
import { mayHandle, senderKind } from "../../extension/src/trust.js";

const ID = "abcdefghijklmnopabcdefghijklmnop";
const URL_ = `chrome-extension://${ID}/`;
const PRIVILEGED = [MSG.RUN, MSG.TAB_STATE, MSG.HOST_INFO, MSG.READER_BACK, MSG.LABEL, MSG.EXAMPLES, MSG.EXPORT];
const msg = (type) => ({ type, action: "hide", tabId: 3 });

test("the extension's own pages may send everything", () => {
  const options = { id: ID, url: `${URL_}options.html`, origin: `chrome-extension://${ID}`, tab: { id: 3 } };
  const popup = { id: ID, url: `${URL_}popup.html` };
  for (const sender of [options, popup]) {
    assert.equal(senderKind(sender, ID, URL_), "extension");
    for (const type of [...PRIVILEGED, MSG.LABEL_SAVE]) assert.ok(mayHandle(msg(type), sender, ID, URL_), type);
  }
});

test("a content script may only save its example", () => {
  const labeler = { id: ID, url: "https://evil.example/", origin: "https://evil.example", tab: { id: 7 } };
  assert.equal(senderKind(labeler, ID, URL_), "content");
  assert.ok(mayHandle({ type: MSG.LABEL_SAVE }, labeler, ID, URL_));
  for (const type of PRIVILEGED) assert.equal(mayHandle(msg(type), labeler, ID, URL_), false, type);
  // the overlay's button: switch the overlay of its own tab, nothing else
  assert.ok(mayHandle({ type: MSG.RUN, action: "overlay", mode: "paper" }, labeler, ID, URL_));
  assert.equal(mayHandle({ type: MSG.RUN, action: "overlay", tabId: 9 }, labeler, ID, URL_), false);
  assert.equal(mayHandle({ type: MSG.RUN, action: "reader" }, labeler, ID, URL_), false);
  assert.equal(mayHandle({ type: "constructor" }, labeler, ID, URL_), false);
});

test("other extensions, web pages and spoofed urls are refused", () => {
  const other = { id: "zzzz", url: `${URL_}options.html`, tab: { id: 1 } };
  const page = { url: "https://evil.example/", origin: "https://evil.example" };
  // a page whose path mentions our URL, and an origin that does not match the URL
  const spoof = { id: ID, url: `https://evil.example/${URL_}`, origin: "https://evil.example", tab: { id: 2 } };
  const mismatched = { id: ID, url: `${URL_}options.html`, origin: "https://evil.example", tab: { id: 2 } };
  for (const sender of [other, page, undefined, null, {}]) {
    assert.equal(senderKind(sender, ID, URL_), "foreign");
    assert.equal(mayHandle({ type: MSG.LABEL_SAVE }, sender, ID, URL_), false);
  }
  for (const sender of [spoof, mismatched]) {
    assert.equal(senderKind(sender, ID, URL_), "content");
    for (const type of PRIVILEGED) assert.equal(mayHandle(msg(type), sender, ID, URL_), false);
  }
});
