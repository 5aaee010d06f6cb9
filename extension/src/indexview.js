// The reader view of an index page (a portal front page, a section index): the host's hide
// plan says the page is an index and lists its stories; instead of a few sentences picked
// from teasers, the reader shows a line saying so and the stories with their links.
// The reader's exports give the same stories (indexExportHtml), not the main text. Pure DOM
// and string building, no browser API: reader.js calls it with the stored reader data.

/** Only http(s) links, resolved against the page's address; anything else is dropped. */
function safeHref(href, baseUrl) {
  try {
    const url = new URL(href, baseUrl || undefined);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : "";
  } catch {
    return "";
  }
}

/** Fewer stories than this are no index to show: a shop's category page called an index for
 * its one "Contact Us" teaser read "an index of 1 stories" over that link, not its text (the
 * papers' C_t: a link block has at least three links). */
export const MIN_INDEX_STORIES = 3;

/**
 * The stories an index page shows, or null when the data is not one (or lists fewer than
 * MIN_INDEX_STORIES stories: the main text is shown then). `data.index` holds
 * {title, href, teaser} items (host/blocksift/actions/hide.py, IndexItem); each story comes
 * back with its title and teaser trimmed and its link resolved ("" when it is not http(s)).
 * A shop's index names each product's price as its card shows it (`price`, "" for none):
 * beside the headline in the view, after the link in the exports.
 * The one list both the reader's view and its exports are made from.
 */
export function indexStories(data) {
  if (data?.pageKind !== "index" || !Array.isArray(data.index)) return null;
  const stories = data.index
    .map((item) => ({
      title: String(item?.title ?? "").trim(),
      href: item?.href ? safeHref(item.href, data.url) : "",
      teaser: String(item?.teaser ?? "").trim(),
      // a shop's product: the price its card shows, as written ("$34.00"; the host's)
      price: String(item?.price ?? "").trim().slice(0, 40),
      // what the page says the story is ("recipe"; the host's IndexItem.kind), else ""
      kind: Object.hasOwn(KIND_NOUNS, item?.kind) ? item.kind : "",
    }))
    .filter((story) => story.title);
  return stories.length < MIN_INDEX_STORIES ? null : stories;
}

/** Path segments naming a shop's product page: "/products/trail-mug" (Shopify), "/product/…"
 * (WooCommerce), Amazon's "/dp/…", eBay's "/itm/…", Wayfair's "/pdp/…" (the segment before
 * the last; not "/p/", a Substack post's). */
const PRODUCT_SEGMENTS = new Set(["product", "products", "dp", "itm", "pdp"]);

/** Path segments naming a category of the site's pages: Shopify's "/collections/…",
 * WooCommerce's "/product-category/…", "/category/…", "/categories/…" (before the last). */
const CATEGORY_SEGMENTS = new Set(["collections", "product-category", "category", "categories"]);

function linkUnder(href, segments) {
  try {
    return new URL(href).pathname.toLowerCase().split("/").slice(0, -1)
      .some((segment) => segments.has(segment));
  } catch {
    return false;
  }
}

const productLink = (href) => linkUnder(href, PRODUCT_SEGMENTS);

/**
 * Whether the stories are a shop's products: the page says it sells (`sells`, the host's
 * page-level cues: schema.org products or offers, an add-to-cart control, a product page's
 * predicted type), or at least half show a price, or at least half link to a product page
 * (PRODUCT_SEGMENTS). A news index with a price in a headline or two is not (6 of a news
 * page's 61 stories); a shop's listing whose cards show no price readable from the page
 * and link to no product page ("/car714.html") still is, from its add-to-cart buttons.
 */
export function listsProducts(stories, sells = false) {
  if (sells === true) return true;
  const half = stories.length / 2;
  return stories.filter((story) => story.price).length >= half
    || stories.filter((story) => productLink(story.href)).length >= half;
}

/** What parts a page's <title> (as reader.js' TITLE_SEPARATOR): "|", "·", "»", a dash or
 * slash with spaces around it, a colon before a space. */
const TITLE_PARTS = /\s*[|·•»«]\s*|\s+[-–—/]\s+|:\s+/u;
const wordsOf = (text) => new Set(String(text ?? "").toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);

/**
 * Whether the stories narrow down what the page's <title> names (`pageTitle`, one of its
 * first two parts, of two to four words): at least half of them hold all its words and more,
 * in six words at most. iFixit's "iPhone Parts" lists "iPhone 16 Parts", "iPhone 15 Pro Max
 * Parts"…, the site's categories under the one the page is, whose links name no category
 * ("/Parts/iPhone_16"): the reader called them 72 stories and headlines. A news section's
 * headlines say more than its name; over the wcxb-dev and dragnet pages with three stories or
 * more, only that page and a shop's product page (its <title>'s colour, one word) have such
 * stories.
 */
export function narrowsTitle(stories, pageTitle) {
  for (const part of String(pageTitle ?? "").split(TITLE_PARTS).filter((text) => text.trim()).slice(0, 2)) {
    const own = [...wordsOf(part)];
    if (own.length < 2 || own.length > 4) continue;
    const narrower = stories.filter((story) => {
      const words = wordsOf(story.title);
      return words.size <= 6 && words.size > own.length && own.every((word) => words.has(word));
    });
    if (narrower.length >= stories.length / 2) return true;
  }
  return false;
}

/** Whether the stories are categories of the site (a shop's collections, not its products:
 * listsProducts): at least half link to a category's page (CATEGORY_SEGMENTS), or they narrow
 * down the page's own title (narrowsTitle, `pageTitle` the page's <title>). A sock shop's
 * "Ankle", "Calf", "Knee High" and an electronics shop's "Radios (4)" were called stories. */
export function listsCategories(stories, sells = false, pageTitle = "") {
  return !listsProducts(stories, sells)
    && (stories.filter((story) => linkUnder(story.href, CATEGORY_SEGMENTS)).length >= stories.length / 2
      || narrowsTitle(stories, pageTitle));
}

/** The nouns of the kinds of story the host finds a page names (IndexItem.kind in
 * host/blocksift/actions/index_items.py: schema.org, or the page's title and addresses): a
 * recipe blog's category page lists recipes, a job board jobs, not "stories". */
const KIND_NOUNS = { recipe: "recipes", job: "jobs", course: "courses", event: "events" };

/** The noun of the kind at least half the stories are (KIND_NOUNS), else "". */
function namedKind(stories) {
  const counts = {};
  for (const { kind } of stories) if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
  const [kind] = Object.entries(counts).find(([, count]) => count >= stories.length / 2) ?? [];
  return kind ? KIND_NOUNS[kind] : "";
}

/** What an index lists, for its note and its header's count: "products", "categories", the
 * kind the page names ("recipes", "jobs", "courses", "events") or "stories". */
function listed(stories, sells, pageTitle = "") {
  return listsProducts(stories, sells) ? "products"
    : listsCategories(stories, sells, pageTitle) ? "categories" : namedKind(stories) || "stories";
}

/**
 * A shop's page of categories and products, when every card says which it is by itself (a
 * product: a price or a product page's link; a category: a category page's link) and each
 * kind has MIN_INDEX_STORIES cards at least: "9 categories and 6 products", the larger first,
 * not "15 categories" (a sock shop's styles over six packs with their prices). Else "".
 */
function mixedCount(stories) {
  const products = stories.filter((story) => story.price || productLink(story.href)).length;
  const categories = stories.filter((story) => !story.price && !productLink(story.href)
    && linkUnder(story.href, CATEGORY_SEGMENTS)).length;
  if (products + categories !== stories.length || Math.min(products, categories) < MIN_INDEX_STORIES) {
    return "";
  }
  const counts = [[categories, "categories"], [products, "products"]];
  if (products > categories) counts.reverse();
  return counts.map(([count, kind]) => `${count} ${kind}`).join(" and ");
}

/** The reader's line over an index: stories and headlines, a site's categories, the kind
 * the page names (recipes, jobs, courses, events), or a shop's products (with their prices when at least half show one); `sells` as for listsProducts,
 * `pageTitle` as for listsCategories. */
export function indexNote(stories, sells = false, pageTitle = "") {
  const mixed = mixedCount(stories);
  if (mixed) {
    const priced = stories.filter((story) => story.price).length
      >= stories.filter((story) => story.price || productLink(story.href)).length / 2;
    return `This page lists ${mixed}, not an article: here they are${priced ? " with the products' prices" : ""}.`;
  }
  const kind = listed(stories, sells, pageTitle);
  if (kind !== "products" && kind !== "stories") {
    return `This page lists ${stories.length} ${kind}, not an article: here they are.`;
  }
  if (kind === "stories") {
    return `This page is an index of ${stories.length} stories, not an article: here are its headlines.`;
  }
  const priced = stories.filter((story) => story.price).length >= stories.length / 2;
  return `This page lists ${stories.length} products, not an article: here they are${priced ? " with their prices" : ""}.`;
}

/** The reader's count of an index's stories, for its header ("10 stories", "48 products",
 * "9 categories", "20 recipes", "9 categories and 6 products"), or "" when the data is not one. */
export function indexCountLabel(data) {
  const stories = indexStories(data);
  if (!stories) return "";
  return mixedCount(stories) || `${stories.length} ${listed(stories, data.sells, data.title)}`;
}

/** A fragment for an index page, or null when the data is not one (indexStories). */
export function indexViewFragment(data, doc = document) {
  const stories = indexStories(data);
  if (!stories) return null;
  const fragment = doc.createDocumentFragment();
  const note = doc.createElement("p");
  note.className = "index-note";
  note.setAttribute("role", "note");
  // the reader's own words, left to right on an Arabic index too (its full stop stood at the
  // sentence's start); the headlines below keep the page's direction
  note.setAttribute("dir", "ltr");
  note.setAttribute("lang", "en");
  note.textContent = indexNote(stories, data.sells, data.title);
  fragment.append(note);
  const list = doc.createElement("ol");
  list.className = "index-list";
  for (const { title, href, teaser, price } of stories) {
    const entry = doc.createElement("li");
    const heading = doc.createElement("h2");
    if (href) {
      const link = doc.createElement("a");
      link.href = href;
      link.rel = "noopener noreferrer";
      link.textContent = title;
      heading.append(link);
    } else {
      heading.textContent = title;
    }
    if (price) {
      // beside the product's name, what a shopper reads the list for; in the page's own
      // writing, so in the direction of its own letters
      const value = doc.createElement("span");
      value.className = "index-price";
      value.setAttribute("dir", "auto");
      value.textContent = price;
      heading.append(" ", value);
    }
    entry.append(heading);
    if (teaser) {
      const paragraph = doc.createElement("p");
      paragraph.textContent = teaser;
      entry.append(paragraph);
    }
    list.append(entry);
  }
  fragment.append(list);
  return fragment;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/**
 * The HTML the reader's exports (Copy and Save as Markdown, HTML, EPUB) send to the host for
 * an index page, or null when the data is not one: the stories shown, in their order, as a
 * numbered list of links, each teaser a paragraph under its link. Not the main text, which
 * the index view does not show; not the reader's own note. The host's Markdown of it is
 * "1. [Headline](https://…)" with the teaser indented below; no headings, so a note keeps
 * the page's title as its one headline.
 */
export function indexExportHtml(data) {
  const stories = indexStories(data);
  if (!stories) return null;
  const items = stories.map(({ title, href, teaser, price }) => {
    const headline = (href ? `<a href="${escapeHtml(href)}">${escapeHtml(title)}</a>` : escapeHtml(title))
      + (price ? ` · ${escapeHtml(price)}` : "");
    return `<li><p>${headline}</p>${teaser ? `<p>${escapeHtml(teaser)}</p>` : ""}</li>`;
  });
  return `<ol>${items.join("")}</ol>`;
}
