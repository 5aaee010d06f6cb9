// The index view's stories, shown and exported from one list (extension/src/indexview.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { indexCountLabel, indexExportHtml, indexStories, indexViewFragment, listsCategories, listsProducts } from "../../extension/src/indexview.js";

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
    { title: "Harbour wins the cup", href: "https://news.example/sport/cup", teaser: "A late goal settled it.", price: "", kind: "" },
    { title: "Rowers <train> at dawn & dusk", href: "", teaser: "", price: "", kind: "" },
    { title: 'Quay "fun run" moves', href: "https://other.example/run?a=1&b=2", teaser: "It starts at 9.", price: "", kind: "" },
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
      teaser: teaser ? teaser.textContent : "", price: heading.children[2]?.textContent ?? "" };
  });
  assert.deepEqual(shown, indexStories(data).map(({ kind, ...story }) => story)); // the note says the kind
});

test("the note is the reader's own words, left to right in English on any page", () => {
  // an Arabic index's note inherited right to left: its full stop stood at its start
  const [note, list] = indexViewFragment(index(STORIES), fakeDocument()).children;
  assert.equal(note.attributes.dir, "ltr");
  assert.equal(note.attributes.lang, "en");
  assert.equal(list.attributes.dir, undefined); // the headlines keep the page's direction
});

test("a shop's index shows each product's price beside its name, and exports it after the link", () => {
  const shop = index([
    { title: "Trail Mug", href: "/mug", teaser: "", price: " $34.00 " },
    { title: "Camp Bowl", href: "/bowl", teaser: "", price: "" },
    { title: "Ridge Vase", href: "/vase", teaser: "", price: "$52.00" },
  ]);
  assert.deepEqual(indexStories(shop).map((story) => story.price), ["$34.00", "", "$52.00"]);
  const [, list] = indexViewFragment(shop, fakeDocument()).children;
  const [mug, bowl] = list.children.map((entry) => entry.children[0]);
  assert.equal(mug.children[1], " ");
  assert.equal(mug.children[2].className, "index-price");
  assert.equal(mug.children[2].textContent, "$34.00");
  assert.equal(mug.children[2].attributes.dir, "auto");
  assert.equal(bowl.children.length, 1); // no price: the headline alone
  assert.equal(indexExportHtml(shop),
    '<ol><li><p><a href="https://news.example/mug">Trail Mug</a> · $34.00</p></li>'
    + '<li><p><a href="https://news.example/bowl">Camp Bowl</a></p></li>'
    + '<li><p><a href="https://news.example/vase">Ridge Vase</a> · $52.00</p></li></ol>');
});

test("a shop's index speaks of its products, with their prices when half show one", () => {
  const items = (n, make) => Array.from({ length: n }, (_, i) => make(i));
  const note = (data) => indexViewFragment(data, fakeDocument()).children[0].textContent;
  // most cards show a price
  const priced = index(items(4, (i) => ({ title: `Mug ${i}`, href: `/m${i}`, price: i < 2 ? `$${30 + i}.00` : "" })));
  assert.equal(note(priced), "This page lists 4 products, not an article: here they are with their prices.");
  assert.ok(listsProducts(indexStories(priced)));
  // no price read, but the links are product pages (Shopify, Amazon, eBay, Wayfair)
  for (const path of ["/products/mug", "/collections/mugs/products/mug", "/Mug-Speckled/dp/B0F", "/itm/358290078244", "/furniture/pdp/sofa.html"]) {
    const linked = index(items(3, (i) => ({ title: `Mug ${i}`, href: `${path}${i}`, price: i ? "" : "$30.00" })));
    assert.equal(note(linked), "This page lists 3 products, not an article: here they are.", path);
  }
  // a news index keeps its words: a price in one headline of three, posts at "/p/" (Substack),
  // a section named "/products/" as the last part of a link
  const news = index([
    { title: "Channel bloat may cost you over $1,600 a year", href: "/news/bloat", price: "$1,600" },
    { title: "Harbour wins the cup", href: "/p/harbour-wins" },
    { title: "Our products this spring", href: "/products" },
  ]);
  assert.ok(!listsProducts(indexStories(news)));
  assert.equal(note(news), "This page is an index of 3 stories, not an article: here are its headlines.");
});

test("a shop's index that says it sells speaks of products without a price or a product link", () => {
  // a lens shop's cards show no amount and link to "/car714.html": the page's add-to-cart
  // buttons and schema.org offers say it sells (the host's `sells`)
  const cards = ["Sony FE 50mm f/1.8", "Canon RF 35mm", "Nikon Z 40mm"].map((title, i) => ({ title, href: `/car71${i}.html` }));
  const note = (data) => indexViewFragment(data, fakeDocument()).children[0].textContent;
  assert.equal(note(index(cards)), "This page is an index of 3 stories, not an article: here are its headlines.");
  const shop = { ...index(cards), sells: true };
  assert.equal(note(shop), "This page lists 3 products, not an article: here they are.");
  assert.equal(indexCountLabel(shop), "3 products");
  assert.ok(listsProducts(indexStories(shop), true));
  // only a true "sells" counts (stored data from elsewhere)
  assert.equal(indexCountLabel({ ...index(cards), sells: "yes" }), "3 stories");
});

test("the reader's header counts an index's stories, or a shop's products", () => {
  assert.equal(indexCountLabel(index(STORIES)), "3 stories");
  const shop = index(["/products/a", "/products/b", "/products/c"].map((href) => ({ title: href, href })));
  assert.equal(indexCountLabel(shop), "3 products");
  assert.equal(indexCountLabel({ pageKind: "article", index: STORIES }), "");
});

test("an index of a site's categories speaks of categories, not stories", () => {
  const note = (data) => indexViewFragment(data, fakeDocument()).children[0].textContent;
  // a sock shop's collections (Shopify), an electronics shop's categories (WooCommerce)
  const socks = index(["Ankle", "Calf", "Knee High", "Trail Mix"].map((title, i) => ({
    title, href: i < 3 ? `/collections/mens-${title.toLowerCase().replace(" ", "-")}-socks` : "/products/trail-mix" })));
  assert.ok(listsCategories(indexStories(socks)));
  assert.equal(note(socks), "This page lists 4 categories, not an article: here they are.");
  assert.equal(indexCountLabel(socks), "4 categories");
  const gadgets = index(["Radios (4)", "Power Banks (158)", "Bluetooth Speakers (44)"].map((title, i) => ({
    title, href: `/product-category/electronics/${i}/` })));
  assert.equal(indexCountLabel(gadgets), "3 categories");
  // products come first (a Shopify product inside a collection), and a news index keeps its words
  const products = index(["a", "b", "c"].map((name) => ({ title: name, href: `/collections/mugs/products/${name}` })));
  assert.equal(indexCountLabel(products), "3 products");
  assert.ok(!listsCategories(indexStories(products)));
  assert.equal(indexCountLabel(index(STORIES)), "3 stories");
  assert.equal(indexCountLabel({ ...socks, sells: true }), "4 products");
});


test("an index of a shop's categories and products, each card saying which, counts each", () => {
  const note = (data) => indexViewFragment(data, fakeDocument()).children[0].textContent;
  // a sock shop's page: its styles' collections, then products with their prices
  const styles = ["Ankle", "Calf", "Half Calf", "Quarter"].map((title) => ({
    title, href: `/collections/mens-${title.toLowerCase().replace(" ", "-")}-socks` }));
  const packs = ["Merino 4-Pack", "Solids 4-Pack", "Ankle 6-Pack"].map((title, i) => ({
    title, href: `/products/pack-${i}`, price: `$${60 + i}.00` }));
  const mixed = index([...styles, ...packs]);
  assert.equal(indexCountLabel(mixed), "4 categories and 3 products");
  assert.equal(note(mixed), "This page lists 4 categories and 3 products, not an article: here they are with the products' prices.");
  assert.equal(note(index([...styles, ...packs.map(({ price, ...pack }) => pack)])),
    "This page lists 4 categories and 3 products, not an article: here they are.");
  // the larger kind first
  const more = index([...styles.slice(0, 3), ...packs, ...packs.map((p) => ({ ...p, href: `${p.href}b` }))]);
  assert.equal(indexCountLabel(more), "6 products and 3 categories");
  // a card that says neither (no price, a page of its own) leaves the count to the list
  const unsure = index([...styles, ...packs, { title: "Our story", href: "/pages/about" }]);
  assert.equal(indexCountLabel(unsure), "8 categories");
  // fewer than three of a kind is no second kind
  assert.equal(indexCountLabel(index([...styles, ...packs.slice(0, 2)])), "6 categories");
});

test("an index whose page names its stories' kind (the host's) says recipes, jobs, courses, events", () => {
  const note = (data) => indexViewFragment(data, fakeDocument()).children[0].textContent;
  const dishes = ["Air Fryer Salmon", "Chicken Tacos", "Honeynut Squash", "Cottage Cheese Bagels"];
  const recipes = index(dishes.map((title) => ({ title, href: `/${title.toLowerCase().replaceAll(" ", "-")}`, kind: "recipe" })));
  assert.equal(note(recipes), "This page lists 4 recipes, not an article: here they are.");
  assert.equal(indexCountLabel(recipes), "4 recipes");
  for (const [kind, noun] of [["job", "jobs"], ["course", "courses"], ["event", "events"]]) {
    assert.equal(indexCountLabel(index(STORIES.map((story) => ({ ...story, kind })))), `3 ${noun}`);
  }
  // half the stories at least; a kind the reader does not know is none
  const some = index(STORIES.map((story, i) => ({ ...story, kind: i === 0 ? "recipe" : "" })));
  assert.equal(indexCountLabel(some), "3 stories");
  assert.equal(indexCountLabel(index(STORIES.map((story) => ({ ...story, kind: "constructor" })))), "3 stories");
  // products and categories say more than the page's word
  const shop = index(["a", "b", "c"].map((name) => ({ title: name, href: `/products/${name}`, kind: "recipe" })));
  assert.equal(indexCountLabel(shop), "3 products");
});
