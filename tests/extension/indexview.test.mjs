// The index view's stories, shown and exported from one list (extension/src/indexview.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { indexExportHtml, indexStories, indexViewFragment } from "../../extension/src/indexview.js";

const URL_ = "https://news.example/sport/";
const index = (items) => ({ pageKind: "index", url: URL_, html: "<p>Teaser words of the main text.</p>", index: items });
const STORIES = [
  { title: "  Harbour wins the cup ", href: "/sport/cup", teaser: " A late goal settled it. " },
  { title: "Rowers <train> at dawn & dusk", href: "javascript:alert(1)", teaser: "" },
  { title: "", href: "/empty", teaser: "An item without a headline is no story." },
  { title: 'Quay "fun run" moves', href: "https://other.example/run?a=1&b=2", teaser: "It starts at 9." },
];

/** Just enough of a document for indexViewFragment, without a DOM in node. */
function fakeDocument() {
  const make = (tag) => ({
    tag, children: [], attributes: {}, className: "", textContent: "", href: "", rel: "",
    append(...nodes) { this.children.push(...nodes); },
    setAttribute(name, value) { this.attributes[name] = value; },
  });
  return { createElement: make, createDocumentFragment: () => make("#fragment") };
}

test("not an index, or fewer than three stories: no stories, nothing to show or export", () => {
  assert.equal(indexStories({ pageKind: "article", index: STORIES }), null);
  assert.equal(indexStories({ pageKind: "index" }), null);
  assert.equal(indexStories(index(STORIES.slice(0, 2))), null);
  assert.equal(indexStories(index([...STORIES.slice(0, 2), STORIES[2]])), null); // two with titles
  assert.equal(indexExportHtml(index(STORIES.slice(0, 2))), null);
  assert.equal(indexExportHtml({ pageKind: "article", html: "<p>x</p>", index: STORIES }), null);
});

test("the stories: titled ones in order, trimmed, links resolved and only http(s)", () => {
  assert.deepEqual(indexStories(index(STORIES)), [
    { title: "Harbour wins the cup", href: "https://news.example/sport/cup", teaser: "A late goal settled it." },
    { title: "Rowers <train> at dawn & dusk", href: "", teaser: "" },
    { title: 'Quay "fun run" moves', href: "https://other.example/run?a=1&b=2", teaser: "It starts at 9." },
  ]);
});

test("an index exports the stories it shows as a list of links with teasers, not the main text", () => {
  const html = indexExportHtml(index(STORIES));
  assert.equal(html,
    '<ol><li><p><a href="https://news.example/sport/cup">Harbour wins the cup</a></p><p>A late goal settled it.</p></li>'
    + "<li><p>Rowers &lt;train&gt; at dawn &amp; dusk</p></li>"
    + '<li><p><a href="https://other.example/run?a=1&amp;b=2">Quay &quot;fun run&quot; moves</a></p><p>It starts at 9.</p></li></ol>');
  assert.ok(!html.includes("Teaser words"));
  assert.ok(!html.includes("index of")); // the reader's note is the reader's, not the page's
});

test("the view shows the same stories the export holds", () => {
  const data = index(STORIES);
  const fragment = indexViewFragment(data, fakeDocument());
  const [note, list] = fragment.children;
  assert.equal(note.textContent, "This page is an index of 3 stories, not an article: here are its headlines.");
  const shown = list.children.map((entry) => {
    const [heading, teaser] = entry.children;
    const link = heading.children[0];
    return { title: link ? link.textContent : heading.textContent, href: link ? link.href : "",
      teaser: teaser ? teaser.textContent : "" };
  });
  assert.deepEqual(shown, indexStories(data));
});

test("the note is the reader's own words, left to right in English on any page", () => {
  // an Arabic index's note inherited right to left: its full stop stood at its start
  const [note, list] = indexViewFragment(index(STORIES), fakeDocument()).children;
  assert.equal(note.attributes.dir, "ltr");
  assert.equal(note.attributes.lang, "en");
  assert.equal(list.attributes.dir, undefined); // the headlines keep the page's direction
});
