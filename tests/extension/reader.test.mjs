// Reader-view helpers without a DOM: export requests, keyboard shortcuts, method per action.
import assert from "node:assert/strict";
import { test } from "node:test";

import { algorithmForAction, exportRequest, languageDirection } from "../../extension/src/protocol.js";
import { READER_KEYS, readerAction } from "../../extension/src/readerkeys.js";

test("export requests carry the article fields and refuse unknown kinds and formats", () => {
  const save = exportRequest({ kind: "save", id: "s", format: "markdown", title: "T", html: "<p>x</p>",
    authors: ["A"], published: "2024-03-14", url: "https://e.x/", siteName: "S", language: "en", extra: 1 });
  assert.deepEqual(save, { type: "export.save", id: "s", format: "markdown", title: "T", html: "<p>x</p>",
    url: "https://e.x/", authors: ["A"], published: "2024-03-14", siteName: "S", language: "en" });
  assert.equal(exportRequest({ kind: "render", id: "r", format: "html", html: "" }).type, "export.render");
  assert.deepEqual(exportRequest({ kind: "folder", id: "f" }), { type: "export.folder", id: "f" });
  assert.deepEqual(exportRequest({ kind: "folder", id: "f", folder: "/n" }), { type: "export.folder", id: "f", folder: "/n" });
  assert.throws(() => exportRequest({ kind: "delete" }), TypeError);
  assert.throws(() => exportRequest({ kind: "save", format: "pdf" }), TypeError);
});

test("an export request carries the article's direction", () => {
  const save = exportRequest({ kind: "save", id: "s", format: "html", title: "T", html: "<p>x</p>",
    language: "ar", direction: "rtl" });
  assert.equal(save.direction, "rtl");
  assert.equal(save.language, "ar");
});

test("an export request carries a product's price as the reader shows it", () => {
  const save = exportRequest({ kind: "save", id: "s", format: "html", title: "T", html: "<p>x</p>",
    price: "$34.00" });
  assert.equal(save.price, "$34.00");
});

test("a language tag's direction, as the host's language_direction says it", () => {
  for (const tag of ["ar", "he-IL", "fa_IR", "ur", "ps", "yi", "dv", "ckb", "sd", "ug", "az-Arab", "pa-Arab-PK"]) {
    assert.equal(languageDirection(tag), "rtl", tag);
  }
  for (const tag of ["en", "en-US", "ku", "ar-Latn", "zh-Hant-TW", "de"]) assert.equal(languageDirection(tag), "ltr", tag);
  for (const tag of ["", "  ", "*", null, undefined]) assert.equal(languageDirection(tag), "", String(tag));
});

test("reader keys: one action per key, ignored while typing or with a modifier", () => {
  const keys = READER_KEYS.map((entry) => entry.key);
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(readerAction({ key: "l", target: { tagName: "BODY" } }), "listen");
  assert.equal(readerAction({ key: "Escape", target: { tagName: "BODY" } }), "back");
  assert.equal(readerAction({ key: "l", target: { tagName: "INPUT" } }), null);
  assert.equal(readerAction({ key: "c", ctrlKey: true, target: { tagName: "BODY" } }), null);
  assert.equal(readerAction({ key: "q", target: { tagName: "BODY" } }), null);
});

test("hide and the overlay need a main text: linkblocks means auto there, except the paper view", () => {
  assert.equal(algorithmForAction("reader", "auto"), "auto");
  assert.equal(algorithmForAction("reader", "linkblocks"), "linkblocks");
  assert.equal(algorithmForAction("hide", "auto"), "auto");
  assert.equal(algorithmForAction("overlay", "linkblocks"), "auto");
  assert.equal(algorithmForAction("hide", "farsw"), "farsw");
  assert.equal(algorithmForAction("overlay", "auto", true), "linkblocks");
});

test("the adaptation note calls only the user's saved examples theirs", async () => {
  const { adaptedWords } = await import("../../extension/src/protocol.js");
  assert.equal(adaptedWords(null), null);
  assert.equal(adaptedWords(undefined), null);
  assert.equal(adaptedWords({ pages: 2, labeled: 2, dataset: 0 }).text,
    "Adapted to this site from 2 pages you labeled");
  assert.equal(adaptedWords({ pages: 1, labeled: 1, dataset: 0 }).text,
    "Adapted to this site from 1 page you labeled");
  assert.equal(adaptedWords({ pages: 1043, labeled: 3, dataset: 1040 }).text,
    "Adapted to this site from 3 pages you labeled and 1,040 from a dataset");
  const dataset = adaptedWords({ pages: 40, labeled: 0, dataset: 40 });
  assert.equal(dataset.text, "Adapted to this site from 40 pages of a dataset");
  assert.match(dataset.title, /none are your saved examples/);
  // the split not known (the examples could not be read, an older answer): no "your"
  for (const adapted of [5, { pages: 5 }]) {
    const words = adaptedWords(adapted);
    assert.equal(words.text, "Adapted to this site from 5 labeled pages");
    assert.doesNotMatch(words.text + words.title, /\byour\b/i);
  }
  assert.equal(adaptedWords(true).text, "Adapted to this site from labeled pages");
});

test("a broken picture's alt that the text beside it already says is a repeat; one that says more is not", async () => {
  const { altRepeats } = await import("../../extension/src/protocol.js");
  const caption = (text) => [{ text, caption: true }];
  // the caption's words, word for word or nearly, with or without "Photo of"
  assert.equal(altRepeats("The harbour wall at high tide", caption("The harbour wall at high tide, photographed in March 2026.")), true);
  assert.equal(altRepeats("Photo of the lifeboat station", caption("The lifeboat station, rebuilt in 1987.")), true);
  assert.equal(altRepeats("Image: Lifeboat station", caption("The lifeboat station")), true);
  assert.equal(altRepeats("Quay, old, 1890", caption("The old quay in 1890.")), true);
  // the line under it (not a caption) says it
  assert.equal(altRepeats("Ines Calder, harbour master", [{ text: "Ines Calder, harbour master, on the old wall." }]), true);
  // ... cut short in the middle of a word, as a shop cuts its product's name (Amazon's best
  // sellers under the whole name beside it, in a card whose words are many: wcxb-dev 2920)
  const card = "#4 Apple AirTag (2nd Generation): Tracker for Keychain, Wallet, and More; Locator with"
    + " Sound; Simple One-Tap Setup with iPhone or iPad; Key Finder with up to 1.5X Precision Finding"
    + " Range* 4.6 out of 5 stars 649 3 offers from $29.00 and a few more words to pass forty of them";
  assert.equal(altRepeats("Apple AirTag (2nd Generation): Tracker for Keychain, Wallet, and More; Locator"
    + " with Sound; Simple One-Tap Setup with iPhone o", [{ text: card }]), true);
  // ... but not a short alt whose last word only begins one beside it, nor one whose words
  // go on otherwise
  assert.equal(altRepeats("Apple Air", [{ text: card }]), false);
  assert.equal(altRepeats("Apple AirTag (2nd Generation): Tracker for Keychain, Wallet, and More; Locator"
    + " with Sound; Simple One-Tap Setup with Android", [{ text: card }]), false);
  // nothing to say
  for (const alt of ["", "  ", null, "Photo", "image"]) assert.equal(altRepeats(alt, []), true, String(alt));
  // it says more: a map the caption does not name, a chart's figures, a credit
  assert.equal(altRepeats("Map of the old town and its quay", caption("The old quay in 1890.")), false);
  assert.equal(altRepeats("Chart: storms a year at Port Ellery, from two in 1990 to seven in 2025",
    [{ text: "The town's records show how the weather changed." }]), false);
  assert.equal(altRepeats("The harbour wall at high tide. Photo: Ines Calder, March 2026",
    caption("The harbour wall at high tide")), false);
  assert.equal(altRepeats("Imagery of Mars", [{ text: "Mars" }]), false); // "Imagery" is no "Image"
  // a long paragraph that happens to hold the alt's words scattered is no repeat; word for word it is
  const long = "The wall was built by masons. ".repeat(10) + "Storms came every winter to the harbour.";
  assert.equal(altRepeats("Harbour storms", [{ text: long }]), false);
  assert.equal(altRepeats("Harbour storms", caption(long)), true);
  assert.equal(altRepeats("Every winter to the harbour", [{ text: long }]), true);
});

test("headings are shifted into an outline that steps down one level at a time from the title", async () => {
  const { outlineLevels } = await import("../../extension/src/protocol.js");
  // a listing's cards as <h5> under the title: one step below it
  assert.deepEqual(outlineLevels([5, 5, 5]), [2, 2, 2]);
  // gaps close, the relative order stays: a deeper heading is never shown above a shallower one
  assert.deepEqual(outlineLevels([2, 4, 4, 6, 3, 5, 2]), [2, 3, 3, 4, 3, 4, 2]);
  assert.deepEqual(outlineLevels([3, 5, 4, 2]), [2, 3, 3, 2]);
  // an <h1> in the text ranks under the title, as its first sections
  assert.deepEqual(outlineLevels([1, 2, 3, 1]), [2, 3, 4, 2]);
  // without a title shown, the text's first level is the page's first
  assert.deepEqual(outlineLevels([4, 6], 0), [1, 2]);
  // a contiguous outline stays as it is
  assert.deepEqual(outlineLevels([2, 3, 4, 3, 2]), [2, 3, 4, 3, 2]);
  assert.deepEqual(outlineLevels([]), []);
  // never past <h6>
  assert.deepEqual(outlineLevels([1, 2, 3, 4, 5, 6]), [2, 3, 4, 5, 6, 6]);
});
