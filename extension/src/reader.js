// The reader view: an extension page (its own origin, strict CSP, no page script ever runs
// here) that shows the host's main text. The host already sanitized it with an allowlist
// (nh3); we sanitize again with DOMPurify and the same allowlist before it touches the DOM,
// as Readability's README advises, so a bug on either side alone cannot run page code.

import DOMPurify from "./vendor/dompurify/purify.es.mjs";
import { api } from "./api.js";
import { MSG, adaptedWords, altRepeats, languageDirection, lengthLabel, outlineLevels, priceLabel, readingTime } from "./protocol.js";
import { indexCountLabel, indexExportHtml, indexViewFragment } from "./indexview.js";

import { READER_KEYS, readerAction } from "./readerkeys.js";
import { createSpeaker, readerSentences } from "./speech.js";
import { READER_ALLOWED_ATTRIBUTES, READER_ALLOWED_TAGS, SAFE_URL_SCHEMES } from "./wireconstants.js";

const PREFS_KEY = "readerPrefs";
const DEFAULT_PREFS = { theme: "light", font: "serif", size: 20, width: "medium" };
const SIZES = [14, 16, 18, 20, 22, 24, 28, 32];

// The allowlist is the host's (content.py SAFE_TAGS/SAFE_ATTRIBUTES/SAFE_URL_SCHEMES, generated
// into wireconstants.js), minus srcset and <source> (the snapshot already resolved the image).
const ALLOWED_TAGS = [...READER_ALLOWED_TAGS];
const ALLOWED_ATTR = [...READER_ALLOWED_ATTRIBUTES];
const URL_ATTRS = new Set(["href", "src", "cite"]);
const SAFE_URL = new RegExp(`^(?:${SAFE_URL_SCHEMES.join("|")}):`, "i");

const $ = (id) => document.getElementById(id);
const root = document.documentElement;
let cspViolations = 0;

document.addEventListener("securitypolicyviolation", () => {
  cspViolations += 1;
  root.dataset.blocksiftCspViolations = String(cspViolations);
});

/** Sanitize the host's HTML into a fragment; relative URLs resolve against the page URL. */
export function sanitize(html, baseUrl) {
  const purifier = DOMPurify(window);
  purifier.addHook("uponSanitizeAttribute", (node, event) => {
    if (!URL_ATTRS.has(event.attrName)) return;
    const value = event.attrValue.trim();
    let resolved = "";
    try {
      resolved = baseUrl ? new URL(value, baseUrl).href : new URL(value).href;
    } catch {
      resolved = "";
    }
    if (!SAFE_URL.test(resolved)) {
      event.keepAttr = false;
      return;
    }
    event.attrValue = resolved;
  });
  purifier.addHook("afterSanitizeAttributes", (node) => {
    // classes only say a code block's language ("language-python"); nothing else styles the page
    if (node.hasAttribute("class") && (node.nodeName !== "CODE" || !/^language-[\w+#-]+$/.test(node.getAttribute("class")))) node.removeAttribute("class");
    if (node.nodeName === "A" && node.hasAttribute("href")) node.setAttribute("rel", "noopener noreferrer");
    if (node.nodeName === "IMG") {
      node.setAttribute("referrerpolicy", "no-referrer");
      node.setAttribute("loading", "lazy");
      node.setAttribute("decoding", "async");
    }
  });
  return purifier.sanitize(html, {
    ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: SAFE_URL, ALLOW_DATA_ATTR: false,
    // DOMPurify checks every attribute not marked URI-safe against ALLOWED_URI_REGEXP, which
    // would strip datetime="2024-03-14", colspan="2", display="block": they are not URLs
    ADD_URI_SAFE_ATTR: ALLOWED_ATTR.filter((name) => !URL_ATTRS.has(name)),
    ALLOW_ARIA_ATTR: false, ALLOW_UNKNOWN_PROTOCOLS: false, KEEP_CONTENT: true,
    FORBID_TAGS: ["style", "script", "svg", "form", "template", "iframe", "object", "embed", "noscript"],
    ADD_ATTR: ["rel", "referrerpolicy", "loading", "decoding"],
    RETURN_DOM_FRAGMENT: true,
  });
}

function textFragment(text) {
  const fragment = document.createDocumentFragment();
  for (const paragraph of String(text || "").split(/\n{2,}/)) {
    if (!paragraph.trim()) continue;
    const p = document.createElement("p");
    p.textContent = paragraph;
    fragment.append(p);
  }
  return fragment;
}

async function loadPrefs() {
  const stored = (await api.storage.local.get(PREFS_KEY))[PREFS_KEY] ?? {};
  return { ...DEFAULT_PREFS, ...stored };
}

function applyPrefs(prefs) {
  root.dataset.theme = prefs.theme;
  root.dataset.font = prefs.font;
  root.dataset.width = prefs.width;
  root.style.setProperty("--size", `${prefs.size}px`);
  for (const button of document.querySelectorAll("[data-theme-choice]")) button.setAttribute("aria-pressed", String(button.dataset.themeChoice === prefs.theme));
  for (const button of document.querySelectorAll("[data-font-choice]")) button.setAttribute("aria-pressed", String(button.dataset.fontChoice === prefs.font));
  for (const button of document.querySelectorAll("[data-width-choice]")) button.setAttribute("aria-pressed", String(button.dataset.widthChoice === prefs.width));
}

function wirePrefs(prefs) {
  const update = async (change) => {
    Object.assign(prefs, change);
    applyPrefs(prefs);
    await api.storage.local.set({ [PREFS_KEY]: prefs });
  };
  for (const button of document.querySelectorAll("[data-theme-choice]")) button.addEventListener("click", () => update({ theme: button.dataset.themeChoice }));
  for (const button of document.querySelectorAll("[data-font-choice]")) button.addEventListener("click", () => update({ font: button.dataset.fontChoice }));
  for (const button of document.querySelectorAll("[data-width-choice]")) button.addEventListener("click", () => update({ width: button.dataset.widthChoice }));
  const step = (delta) => {
    const index = SIZES.indexOf(prefs.size);
    const next = SIZES[Math.min(SIZES.length - 1, Math.max(0, (index < 0 ? 3 : index) + delta))];
    update({ size: next });
  };
  $("smaller").addEventListener("click", () => step(-1));
  $("larger").addEventListener("click", () => step(1));
  $("print").addEventListener("click", () => window.print());
  const themes = ["light", "sepia", "dark"];
  return {
    smaller: () => step(-1),
    larger: () => step(1),
    theme: () => update({ theme: themes[(themes.indexOf(prefs.theme) + 1) % themes.length] }),
  };
}

async function goBack(data) {
  try {
    const tab = await api.tabs.getCurrent();
    if (tab && data?.url) await api.runtime.sendMessage({ type: MSG.READER_BACK, tabId: tab.id, url: data.url });
  } catch {
    // going back matters more than the rule bookkeeping
  }
  if (history.length > 1) history.back();
  else if (data?.url) location.replace(data.url);
}

/**
 * The stored reader payload. The background may open this page while the host is still
 * working (payload `pending`); then the text arrives as a storage change.
 */
function readerData(key, onPending = () => {}) {
  return new Promise((resolve) => {
    let settled = false;
    const done = (value) => {
      if (settled) return;
      settled = true;
      api.storage.onChanged.removeListener(onChanged);
      resolve(value ?? null);
    };
    const consider = (value) => {
      if (value === undefined) return false;
      if (value && value.pending) {
        root.dataset.blocksiftStatus = "waiting";
        onPending(value);
        return false;
      }
      done(value);
      return true;
    };
    const onChanged = (changes, area) => {
      if (area === "session" && changes[key]) consider(changes[key].newValue ?? null);
    };
    // Listen first, then read: a change between the two is not lost.
    api.storage.onChanged.addListener(onChanged);
    api.storage.session.get(key).then((stored) => {
      if (!(key in stored)) done(null);
      else consider(stored[key]);
    });
  });
}

function showNotice(data) {
  const { notice } = data;
  $("loading").hidden = true;
  document.title = notice.title;
  $("title").textContent = notice.title;
  $("site").textContent = siteOf(data.url);
  const box = $("notice");
  box.hidden = false;
  box.querySelector(".message").textContent = notice.message;
  const command = box.querySelector("code");
  command.textContent = notice.command || "";
  command.hidden = !notice.command;
  root.dataset.blocksiftStatus = notice.error ? "error" : "not-suitable";
  root.dataset.blocksiftError = notice.message;
}

function siteOf(url) {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** The headline under the site line: the page's title, or none when it has none or it only
 * says the site line again (an untitled page's host name, "127.0.0.1" twice). */
function headlineOf(title, siteLine) {
  const text = (title || "").trim();
  return text && squeeze(text) !== squeeze(siteLine || "") ? text : "";
}

/** What parts a page's <title> from the site's name: "|", "·", "»", a dash or slash with
 * spaces around it, a colon before a space. */
const TITLE_SEPARATOR = String.raw`(?:\s*[|·•»«]\s*|\s+[-–—/]\s+|:\s+)`;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An index page's headline: its <title> (data.title; the metadata's title may be its first
 * story's headline) without the site's name after it, which the site line above says
 * already: the metadata's title when the <title> opens with it, a separator after it
 * ("Latest Cloud Computing News | CIO Dive"), else the <title> less the site's name at its
 * end ("machine-learning · GitHub Topics · GitHub"). A site's name before the separator
 * stays: "Figma: The Collaborative Interface Design Tool" is how the site titles itself. */
function indexTitleOf(pageTitle, meta) {
  const text = (pageTitle || "").replace(/\s+/g, " ").trim();
  const named = (meta.title || "").replace(/\s+/g, " ").trim();
  const siteName = (meta.siteName || "").trim();
  if (named && squeeze(named) !== squeeze(siteName)
      && new RegExp(`^(?:${escapeRegExp(named)})${TITLE_SEPARATOR}.`, "is").test(text)) return named;
  const rest = siteName
    ? new RegExp(`^(.+?)${TITLE_SEPARATOR}(?:${escapeRegExp(siteName)})$`, "is").exec(text) : null;
  return rest ? rest[1].trim() : text;
}

/** The page's own title and a loading state, at once (before the host has answered), in
 * the page's language, and right to left when that is written so and the title's letters
 * (readerboot.js) did not say it already. */
function showLoading(data) {
  const reader = $("reader");
  if (data.lang && !reader.lang) reader.lang = data.lang;
  if (!reader.dir && languageDirection(data.lang) === "rtl") reader.dir = "rtl";
  if (!$("loading").hidden || root.dataset.blocksiftLoadingMs) return; // readerboot.js did it
  const headline = headlineOf(data.title, siteOf(data.url));
  document.title = headline || siteOf(data.url) || "Reader view";
  $("site").textContent = siteOf(data.url);
  $("title").textContent = headline;
  $("title").hidden = !headline;
  $("loading").hidden = false;
  root.dataset.blocksiftLoadingMs = String(Date.now() - (data.startedAt ?? Date.now()));
  // a cold host takes a moment to start: say so rather than look stuck
  setTimeout(() => {
    if (!$("loading").hidden) $("loading-text").textContent = "Starting blocksift's helper program and reading the page…";
  }, 1200);
}

function formatDay(iso, lang) {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso || "");
  if (!match) return "";
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  try {
    return day.toLocaleDateString(lang || undefined, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  } catch {
    return iso.slice(0, 10);
  }
}

/** Words of the reader's own (English), kept left to right as a whole inside a header
 * that follows the article's direction: "5 min read" in a Hebrew article's details line
 * read "min read 5" with its number on the wrong side (Firefox's reader gives its reading
 * time the interface's direction too). */
function uiText(...parts) {
  const span = document.createElement("span");
  span.dir = "ltr";
  span.lang = "en";
  span.append(...parts);
  return span;
}

/** "By A, B and C", each name isolated in its own direction (a Latin name in an Arabic
 * byline, an Arabic one in an English byline, keep their letters in order). */
function bylineOf(names) {
  const parts = ["By "];
  names.forEach((name, i) => {
    if (i) parts.push(i === names.length - 1 ? " and " : ", ");
    const who = document.createElement("bdi");
    who.textContent = name;
    parts.push(who);
  });
  return uiText(...parts);
}

/** The article's writing direction: the host's (the page's dir around the text, else its
 * language's or its letters'), else its language's; "" when nothing says. */
function directionOf(data, meta) {
  return meta.direction || languageDirection(meta.language || data.lang || "");
}

/** The quiet note that labeled pages of this site were used (auto's stage "site"):
 * `adaptedFrom` says how many the user labeled and how many came from a dataset
 * (adaptedWords). */
function adaptedNote(adaptedFrom) {
  const words = adaptedWords(adaptedFrom);
  if (!words) return null;
  const note = document.createElement("span");
  note.id = "adapted";
  note.className = "adapted";
  note.dir = "ltr";
  note.lang = "en";
  note.textContent = words.text;
  note.title = words.title;
  return note;
}

/** Header: site, title, byline, date and reading time (and whether the user's labels of the
 * site were used); the algorithm goes to the footer. */
function showMeta(data, meta, stories = 0) {
  const site = meta.siteName || siteOf(data.url);
  $("site").textContent = site;
  // a name that is the site's, as a site signs its pages (<meta name=author> "Loyola
  // Marymount University", a blog's "First Read"), says the site line above again
  const authors = (meta.authors ?? []).filter((name) => squeeze(name) !== squeeze(site));
  $("byline").hidden = !authors.length;
  $("byline").replaceChildren(...(authors.length ? [bylineOf(authors)] : []));
  const time = readingTime(data.text || $("content").textContent);
  const parts = [];
  const day = formatDay(meta.published, meta.language || data.lang);
  if (day) {
    const stamp = document.createElement("time");
    stamp.dir = "auto"; // in the page's language, so in its direction
    stamp.dateTime = meta.published.slice(0, 10);
    stamp.textContent = day;
    parts.push(stamp);
  }
  // a product page's price, as its structured data states it, before its length
  const price = priceLabel(meta.price, meta.language || data.lang);
  if (price) {
    const value = document.createElement("data");
    value.id = "price";
    value.className = "price";
    value.dir = "auto";
    value.value = `${meta.price.amount} ${meta.price.currency}`;
    value.textContent = price;
    parts.push(value);
  }
  // an index shows its headlines, not the main text: its length is its stories' (a shop's
  // products: indexCountLabel)
  if (stories) parts.push(uiText(indexCountLabel(data)));
  else parts.push(uiText(`${time.minutes} min read`), uiText(lengthLabel(time)));
  const adapted = adaptedNote(data.adaptedFrom);
  if (adapted) parts.push(adapted);
  const details = $("details");
  details.replaceChildren();
  parts.forEach((part, i) => {
    if (i) details.append(" · ");
    details.append(part);
  });
  const footer = $("provenance");
  footer.hidden = false;
  footer.replaceChildren(`Main text found by blocksift (${data.algorithm}). `);
  if (data.url) {
    const link = document.createElement("a");
    link.href = data.url;
    link.rel = "noopener noreferrer";
    link.textContent = "Open the original page";
    footer.append(link);
  }
}

/** What the snapshot could not reach (frames of other sites, closed shadow DOM where the
 * browser gives no way in): said, not silently lost. */
function showUnreachable(unreachable) {
  const frames = unreachable?.frames ?? 0;
  const shadows = unreachable?.shadowRoots ?? 0;
  const box = $("unreachable");
  box.hidden = !frames && !shadows;
  const lines = [];
  if (frames) {
    lines.push(`${frames} embedded frame${frames === 1 ? "" : "s"} from other sites could not be read and ${frames === 1 ? "is" : "are"} not shown here`
      + (unreachable.frameUrls?.length ? ` (${unreachable.frameUrls.map(siteOf).filter(Boolean).join(", ")}).` : "."));
  }
  if (shadows) {
    lines.push(`${shadows} part${shadows === 1 ? "" : "s"} of the page ${shadows === 1 ? "keeps its" : "keep their"} content closed to extensions (closed shadow DOM) and ${shadows === 1 ? "is" : "are"} not shown here.`);
  }
  box.textContent = lines.join(" ");
}

/** Code blocks show their language; math gets a readable block layout; a list of pictures
 * alone is a gallery. */
function decorate(content) {
  for (const code of content.querySelectorAll("pre > code[class^='language-']")) {
    code.parentElement.dataset.language = code.className.slice("language-".length);
  }
  markGalleries(content);
}

/** A list each of whose items is pictures and no text (a product's photos, a slideshow the
 * page showed one at a time) is marked a gallery, which reader.css lays out as a row of small
 * pictures without bullets, not a column of full-width pictures each with its bullet. */
function markGalleries(content) {
  for (const list of content.querySelectorAll("ul, ol")) {
    const items = [...list.children];
    if (items.length >= 2 && items.every((item) => item.localName === "li"
        && !item.textContent.trim() && item.querySelector("img, picture, video"))) {
      list.dataset.gallery = "";
    }
  }
}

/** Inline wrappers a picture sits in (its link, its <picture>): its place in the text is
 * theirs. */
const PICTURE_WRAPPERS = new Set(["a", "picture", "span", "source"]);
/** Texts longer than this are not "beside" a picture: the whole article around it. */
const BESIDE_CHARS = 2000;

/** The text beside a picture (altRepeats): its figure's captions, the paragraph it sits in,
 * the words of the wrappers it sits in (its link), and the elements just before and after it
 * (or its figure, or the box of pictures alone it sits in); the reader's title for the
 * article's opening picture. */
function besideText(img, title) {
  const content = $("content");
  const beside = [];
  const figure = img.closest("figure");
  for (const caption of figure?.querySelectorAll("figcaption") ?? []) {
    beside.push({ text: caption.textContent, caption: true });
  }
  // its place in the text: its wrappers, and the boxes that hold no text but pictures (a
  // card's picture box, a gallery's list), whose neighbours are the lines beside it
  let holder = figure && content.contains(figure) ? figure : img;
  while (holder.parentElement && holder.parentElement !== content
         && (PICTURE_WRAPPERS.has(holder.parentElement.localName)
             || !holder.parentElement.textContent.trim())) {
    holder = holder.parentElement;
    // a wrapper's own words: a card's link holds its picture and its name under it
    // ("<a><div><img alt='Esther Anurika'></div><p>Esther Anurika Alison Graduate</p></a>",
    // wcxb-dev 0132), which its neighbours, the other cards, do not
    const words = holder.textContent;
    if (words.trim() && words.length <= BESIDE_CHARS) beside.push({ text: words });
  }
  const parent = holder.parentElement;
  if (parent && parent !== content && parent.textContent.length <= BESIDE_CHARS) {
    beside.push({ text: parent.textContent });
  }
  for (const near of [holder.previousElementSibling, holder.nextElementSibling]) {
    if (near && near.textContent.length <= BESIDE_CHARS) beside.push({ text: near.textContent });
  }
  const first = content.querySelector("img");
  if (first === img && title) beside.push({ text: title });
  return beside;
}

/** The blocks a picture's words stand in when it has none of its own to stand beside. */
const TEXT_BLOCKS = "p, li, dt, dd, td, th, figcaption, caption, h1, h2, h3, h4, h5, h6, blockquote";

/** Whether a picture stands on a line of its own (alone in its figure, its link's box, a
 * paragraph of its own), not inside a line of text. */
function standsAlone(img) {
  const block = img.closest(TEXT_BLOCKS);
  return !block || !$("content").contains(block) || !block.textContent.trim();
}

/** Pictures the page draws this small (its width and height, in pixels) are icons. */
const ICON_PIXELS = 16;

/** Whether a picture is an icon drawn at the size of a letter whose alt names the icon in
 * words ("Post", "Quote", "Permalink"), which are no words of the line it sits in: phpBB's
 * post icon before each post's "by <user> » <date>" read "Postby ann", or "Post by ann"
 * (wcxb-dev 0540). An alt of other signs (a smiley's ":)") is not a name in words. */
function namesAnIcon(img, alt) {
  const width = Number(img.getAttribute("width")), height = Number(img.getAttribute("height"));
  return width > 0 && height > 0 && width <= ICON_PIXELS && height <= ICON_PIXELS
    && /^\p{L}[\p{L}\s'’-]*$/u.test(alt);
}

/** The alt of a user's picture beside their name ("drat's user avatar", "Avatar of ann"):
 * a reply's signature on Stack Exchange read "drat / asked Mar 28, 2014 / drat's user avatar"
 * once the picture failed (wcxb-dev 0360, Firefox ESR). The name beside it says who. */
const AVATAR_ALT = /\bavatars?\b/i;

/** What shows in a list item or a line besides pictures that failed and took no words. */
const SHOWN_MEDIA = "img:not([hidden]), video, audio, svg, canvas, iframe, math, .picture-alt";

/** The room a picture that failed, leaving nothing in its place, held open: the line break
 * after it when it opened its line (a blog's sidebar list of buttons, "<li><a><img></a><br>
 * A visual gathering of…", began each item with an empty line), and the list item it was
 * all of (an empty bullet; dragnet R229, Firefox ESR). */
function closeGap(img) {
  let holder = img.parentElement?.localName === "picture" ? img.parentElement : img;
  while (holder.parentElement && PICTURE_WRAPPERS.has(holder.parentElement.localName)
         && holder.parentElement.childElementCount === 1 && !holder.parentElement.textContent.trim()) {
    holder = holder.parentElement;
  }
  const item = holder.closest("li");
  if (item && $("content").contains(item) && !item.textContent.trim() && !item.querySelector(SHOWN_MEDIA)) {
    item.hidden = true;
    return;
  }
  const before = (node) => { for (let at = node.previousSibling; at; at = at.previousSibling) {
    if (at.nodeType === Node.TEXT_NODE ? at.data.trim() : at.nodeType === Node.ELEMENT_NODE
        && !at.hidden && (at.textContent.trim() || at.matches(SHOWN_MEDIA) || at.querySelector(SHOWN_MEDIA))) return true;
  } return false; };
  if (before(holder)) return;
  let next = holder.nextSibling;
  while (next && next.nodeType === Node.TEXT_NODE && !next.data.trim()) next = next.nextSibling;
  if (next?.nodeType === Node.ELEMENT_NODE && next.localName === "br") next.hidden = true;
}

/** A picture that does not load (offline, blocked, a 404) is hidden: the browser would draw
 * its broken-picture icon in its place, with its alt text in a box (Chromium). Where the text
 * beside it already says what the alt says (a caption that repeats it, its paragraph, the
 * line under it), or the alt says nothing, nothing takes its place; an alt that says more
 * stays readable, as a quiet line of text where the picture stood (`.picture-alt`, after
 * the picture or its <picture>: in its link, a link still). A picture with no source left
 * is one of them. The listener is the reader's own (the reader page runs no page script and
 * allows no inline handler). */
function quietBrokenPictures(content, title) {
  for (const img of content.querySelectorAll("img")) {
    const broken = () => {
      if ("broken" in img.dataset) return;
      img.dataset.broken = "";
      img.hidden = true;
      const alt = (img.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
      if (namesAnIcon(img, alt) || AVATAR_ALT.test(alt) || altRepeats(alt, besideText(img, title))) {
        closeGap(img);
        return;
      }
      const words = document.createElement("span");
      const alone = standsAlone(img);
      words.className = alone ? "picture-alt alone" : "picture-alt";
      // in a line of text its words are words of the line, apart from those beside them: a
      // logo's "logo" before a link read "logoRedNotebook Portable 1.6.1 has been released"
      // (the browser shows one space where two meet, none at a line's start)
      words.textContent = alone ? alt : ` ${alt} `;
      (img.parentElement?.localName === "picture" ? img.parentElement : img).after(words);
    };
    if (!img.getAttribute("src")?.trim() && !img.getAttribute("srcset")?.trim()
        && !img.closest("picture")?.querySelector("source[srcset]:not([srcset=''])")) {
      // no source at all (a script was to set it): it never loads, nor fires an error
      broken();
      continue;
    }
    // (the text was put in place in this task: no picture has failed yet)
    img.addEventListener("error", broken, { once: true });
  }
}

function say(message, { bad = false, action = null } = {}) {
  const box = $("action-status");
  box.replaceChildren(message);
  box.classList.toggle("bad", bad);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = action.label;
    button.addEventListener("click", action.run);
    box.append(" ", button);
  }
  root.dataset.blocksiftAction = message;
}

/**
 * A product page's picture, from its structured data (metadata's ``picture``), opens the
 * text when the text shows none: a shop's photos sit in a gallery beside the description,
 * which the main text leaves out. Only http(s), loaded as the text's pictures are (no
 * referrer); one that fails to load goes as theirs do (quietBrokenPictures).
 */
function leadWithPicture(fragment, picture, title = "") {
  if (!picture?.url || fragment.querySelector("img, picture, video")) return null;
  let address;
  try {
    address = new URL(picture.url);
  } catch {
    return null;
  }
  if (address.protocol !== "https:" && address.protocol !== "http:") return null;
  const figure = document.createElement("figure");
  figure.id = "product-picture";
  const img = document.createElement("img");
  img.setAttribute("referrerpolicy", "no-referrer");
  img.decoding = "async";
  img.alt = String(picture.alt || title || "").trim();
  img.src = address.href;
  figure.append(img);
  fragment.prepend(figure);
  return figure;
}

/** The product picture's HTML for the exports, as the text's own pictures are written. */
function pictureHtml(figure) {
  if (!figure) return "";
  const copy = figure.cloneNode(true);
  copy.removeAttribute("id");
  return copy.outerHTML;
}

/** What the exports hold: the header's fields and the HTML of what the reader shows (a
 * product's price as its details line shows it, in the page's language). */
function article(data, meta, html) {
  const language = meta.language || data.lang || "";
  return {
    title: $("title").textContent, html, url: data.url || "",
    authors: meta.authors ?? [], published: meta.published || "", siteName: meta.siteName || "",
    language, direction: directionOf(data, meta), price: priceLabel(meta.price, language),
  };
}

async function exportCall(payload) {
  const reply = await api.runtime.sendMessage({ type: MSG.EXPORT, ...payload });
  if (!reply?.ok) throw new Error(reply?.error?.message ?? "The extension's background did not answer.");
  return reply.value;
}

function wireExport(data, meta, html) {
  const openOptions = { label: "Open options", run: () => api.runtime.openOptionsPage() };
  const save = async (format) => {
    say(`Saving as ${format === "markdown" ? "Markdown" : format.toUpperCase()}…`);
    try {
      const saved = await exportCall({ kind: "save", format, ...article(data, meta, html) });
      say(`Saved to ${saved.path}`);
      root.dataset.blocksiftSaved = saved.path;
    } catch (err) {
      const message = String(err.message ?? err);
      say(message.includes("folder") ? `${message}.` : `Could not save: ${message}`,
        { bad: true, action: message.includes("options") || message.includes("folder") ? openOptions : null });
    }
  };
  const copy = async () => {
    say("Copying as Markdown…");
    try {
      const { text } = await exportCall({ kind: "render", format: "markdown", ...article(data, meta, html) });
      root.dataset.blocksiftMarkdownChars = String(text.length);
      try {
        await navigator.clipboard.writeText(text);
        say("Copied as Markdown.");
      } catch {
        // no clipboard access (not focused): show it selected, ready for Ctrl+C
        const area = document.createElement("textarea");
        area.className = "markdown-copy";
        area.value = text;
        area.setAttribute("aria-label", "The article as Markdown");
        $("action-status").replaceChildren("Press Ctrl+C to copy:", area);
        area.focus();
        area.select();
      }
    } catch (err) {
      say(`Could not make Markdown: ${err.message ?? err}`, { bad: true });
    }
  };
  $("copy-markdown").addEventListener("click", copy);
  $("save-markdown").addEventListener("click", () => save("markdown"));
  $("save-html").addEventListener("click", () => save("html"));
  $("save-epub").addEventListener("click", () => save("epub"));
  return { copy, save: () => save("markdown") };
}

function wireSpeech(lang) {
  const listen = $("listen");
  const stopButton = $("stop-listening");
  const rate = $("speech-rate");
  const speaker = createSpeaker($("reader"), {
    lang,
    split: readerSentences,
    onChange: ({ state, index, total, rate: current, error, sentence, started }) => {
      root.dataset.blocksiftSpeech = state;
      root.dataset.blocksiftSpeechIndex = String(index);
      root.dataset.blocksiftSpeechRate = String(current);
      root.dataset.blocksiftSpeechStarted = String(started);
      if (sentence) root.dataset.blocksiftSpeechSentence = sentence;
      listen.setAttribute("aria-pressed", String(state === "playing"));
      listen.textContent = state === "playing" ? "Pause" : state === "paused" ? "Resume" : "Listen";
      listen.disabled = state === "unavailable";
      stopButton.disabled = state === "idle" || state === "unavailable";
      rate.disabled = state === "unavailable";
      rate.value = String(current);
      // no speech at all: said on the disabled button, not in a warning at every open
      if (state === "unavailable") listen.title = error;
      else if (error) say(error, { bad: true });
      else if (state === "playing") say(`Reading aloud: sentence ${index + 1} of ${total}.`);
      else if (state === "paused") say(`Paused at sentence ${index + 1} of ${total}; L resumes.`);
      else if (/^(Reading aloud|Paused at)/.test(root.dataset.blocksiftAction ?? "")) say("");
    },
  });
  listen.addEventListener("click", () => speaker.play());
  stopButton.addEventListener("click", () => speaker.stop());
  rate.addEventListener("change", () => speaker.setRate(Number(rate.value)));
  return {
    listen: () => speaker.play(), stop: () => speaker.stop(),
    faster: () => speaker.faster(1), slower: () => speaker.faster(-1),
    next: () => speaker.step(1), previous: () => speaker.step(-1),
  };
}

function wireKeysHelp() {
  const list = $("keys-list");
  for (const entry of READER_KEYS.filter((item) => !item.hidden)) {
    const term = document.createElement("dt");
    const key = document.createElement("kbd");
    key.textContent = entry.label;
    term.append(key);
    const definition = document.createElement("dd");
    definition.textContent = entry.description;
    list.append(term, definition);
  }
  const toggle = () => {
    const help = $("keys-help");
    help.hidden = !help.hidden;
    $("keys").setAttribute("aria-expanded", String(!help.hidden));
  };
  $("keys").addEventListener("click", toggle);
  // Esc closes the list first rather than leaving the reader behind it
  closeOnEscape(() => !$("keys-help").hidden, toggle, $("keys"));
  return toggle;
}

/** Esc closes an open panel before anything else hears it (the reader's own Esc goes back
 * to the page), and gives the focus back to the button that opened it. */
function closeOnEscape(isOpen, close, button) {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      event.stopImmediatePropagation();
      event.preventDefault();
      close();
      button.focus();
    }
  }, true);
}

/** A drop-down of the toolbar (its button and panel inside ``box``) closes on Esc, on a
 * click outside ``box`` and when the focus leaves ``panel`` for outside ``box``. */
function closeWhenLeft(box, panel, button, isOpen, close) {
  document.addEventListener("click", (event) => {
    if (isOpen() && !box.contains(event.target)) close();
  });
  closeOnEscape(isOpen, close, button);
  panel.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !box.contains(event.relatedTarget)) close();
  });
}

/** The "Save" menu (copy as Markdown, save as Markdown, HTML or EPUB), which the toolbar
 * shows in place of their row where the window is too narrow for it (reader.css): opens and
 * closes from its button, closes on Esc, on a click elsewhere, when focus leaves it and once a
 * choice is made; the choices keep their own keys (C, S). */
function wireKeepMenu() {
  const menu = document.querySelector(".keep-menu");
  const button = $("keep");
  const show = (open) => {
    menu.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  const open = () => menu.classList.contains("open");
  button.addEventListener("click", () => show(!open()));
  $("keep-panel").addEventListener("click", (event) => {
    if (event.target.closest?.("button")) show(false);
  });
  closeWhenLeft(menu, menu, button, open, () => show(false));
}

/** The "Aa" panel: opens and closes from its button, closes on Esc, on a click elsewhere
 * and when focus leaves it; its choices keep their own keys (T, +, −). It hangs from its
 * button's end, or from its start where that would leave the window (the toolbar in two
 * rows, "Aa" first on the second). */
function wireDisplayPanel() {
  const button = $("display");
  const panel = $("display-panel");
  const place = () => {
    panel.classList.remove("from-start");
    const box = panel.getBoundingClientRect();
    if (box.left < 0 || box.right > document.documentElement.clientWidth) panel.classList.add("from-start");
  };
  const show = (open) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) place();
  };
  button.addEventListener("click", () => show(panel.hidden));
  window.addEventListener("resize", () => { if (!panel.hidden) place(); });
  closeWhenLeft(panel.closest(".display-menu"), panel, button, () => !panel.hidden,
                () => show(false));
}

// Text compared as a reader reads it: white space, case, and dashes and quotes as typed or
// typeset ("Switch - OLED Model" in the <title>, "Switch – OLED Model" in the <h1>, is one
// headline, which stood twice, under the title as its subtitle).
const squeeze = (text) => text.replace(/\s+/g, " ").trim().toLowerCase()
  .replace(/[\u2010-\u2015\u2212]/g, "-").replace(/[\u2018\u2019\u201b\u2032]/g, "'")
  .replace(/[\u201c\u201d\u201f\u2033]/g, '"');

// A headline's words, in order: what two headlines set apart only by spacing or marks share
// ("Kombat ’s Toasty Guy" in the <title>, "Kombat’s Toasty Guy" in the <h1>).
const headlineWords = (text) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
// ... and the same words in another order, three or more of them: the title again too (the
// <title>'s "Graphic Design Course Online" over the <h1>'s "Online Graphic Design Course",
// shown under it as its subtitle: wcxb-dev 0117)
const MIN_REORDERED_WORDS = 3;
const sortedWords = (words) => words.split(" ").sort().join(" ");
/** Whether a squeezed heading `text` says the squeezed title `wanted`. */
const saysTitle = (text, wanted) => {
  if (text === wanted) return true;
  const words = headlineWords(wanted);
  if (!words) return false;
  const said = headlineWords(text);
  return said === words || (words.split(" ").length >= MIN_REORDERED_WORDS
    && sortedWords(said) === sortedWords(words));
};

// Wrappers a headline may open the main text inside (never a paragraph: a lead-in in bold
// that says the title, "<p><b>JSON</b> is a format", is part of the sentence).
const OPENING_WRAPPERS = new Set(["div", "section", "header", "hgroup", "article", "main"]);
const HEADLINE_TAGS = new Set([...OPENING_WRAPPERS, "h1", "h2", "h3", "h4", "h5", "h6", "p"]);

/** Longest text of a date line written without a <time> ("Saturday, August 11, 2012"). */
const DATE_LINE_CHARS = 60;

/** A block saying only a date (a <time> alone, or the words of a date and nothing else): a
 * blog's date line, which many themes put above the headline (Blogger's day heading over
 * the post's headline, dragnet R556). */
function isDateLine(element) {
  const stamp = element.localName === "time" ? element : element.querySelector("time");
  if (stamp) return squeeze(element.textContent) === squeeze(stamp.textContent);
  const text = squeeze(element.textContent);
  if (!text || text.length > DATE_LINE_CHARS || !META_DATES.some((pattern) => text.search(pattern) >= 0)) {
    return false;
  }
  let rest = text;
  for (const pattern of META_DATES) rest = rest.replace(pattern, " ");
  return !rest.replace(META_WORDS, " ").replace(/[\s|·•,:\-–—/]+/g, "");
}

/** Whether a heading's squeezed `text` says the title `wanted` with only a date beside it,
 * of the year of the date the header shows (`published`): a blog's headline "Arsenal
 * wallpapers for iPad. <em>28 October, 2011</em>" said the title under the header again. */
function titleWithDate(text, wanted, published) {
  if (!published || text === wanted) return false;
  let rest;
  if (text.startsWith(wanted)) rest = text.slice(wanted.length);
  else if (text.endsWith(wanted)) rest = text.slice(0, text.length - wanted.length);
  else return false;
  if (!rest.includes(published.slice(0, 4)) || !META_DATES.some((pattern) => rest.search(pattern) >= 0)) {
    return false;
  }
  for (const pattern of META_DATES) rest = rest.replace(pattern, " ");
  return !rest.replace(META_WORDS, " ").replace(/[\s|·•,:\-–—/]+/g, "");
}

const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

/** Whether a heading's squeezed `text` says the squeezed title `wanted` on one side of a
 * separator in it: a blog's <title> "The Science of Sport: Women's 800m: Analysing Semenya"
 * over its post's heading "Women's 800m: Analysing Semenya", which stood, a link, right
 * under the header's title (dragnet R556). */
function saysTitlePart(text, wanted) {
  for (const match of wanted.matchAll(new RegExp(TITLE_SEPARATOR, "g"))) {
    const before = wanted.slice(0, match.index);
    const after = wanted.slice(match.index + match[0].length);
    if ((before.trim() && saysTitle(text, before.trim())) || (after.trim() && saysTitle(text, after.trim()))) {
      return true;
    }
  }
  return false;
}

/** An element's text as read: a line break is a space ("Rebuilding the Legacy<br>of American
 * Made" is the title "Rebuilding the Legacy of American Made", which its textContent,
 * "Legacyof", was not: the headline stood twice, under the title as its subtitle). */
function readText(element) {
  if (!element.querySelector("br")) return element.textContent;
  let text = "";
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) text += node.data;
    else if (node.localName === "br") text += " ";
  }
  return text;
}

/** Whether `element` is a link holding a heading and nothing else: a shop theme's second
 * copy of its product's name, linked to the product (Shopify's Dawn: `<h1>` then
 * `<a><h2 class="h1">`, the same name, under the header once more: wcxb-dev 3026). */
function linkedHeading(element) {
  const only = element.localName === "a" && element.children.length === 1 ? element.firstElementChild : null;
  return only !== null && HEADINGS.has(only.localName)
    && squeeze(only.textContent) === squeeze(element.textContent);
}

/** The first block ``container`` opens with, past empty blocks and date lines, when it says
 * the title alone, or a heading the title and the header's date (looked for inside the
 * opening wrappers); removed. */
function dropOpeningTitle(container, wanted, published) {
  for (const node of container.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.textContent.trim()) return false; // the text opens with words of its own
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const text = squeeze(readText(node));
    if (!text || isDateLine(node)) continue;
    const tag = node.localName;
    if ((saysTitle(text, wanted) && (HEADLINE_TAGS.has(tag) || linkedHeading(node)))
        || (HEADINGS.has(tag) && (titleWithDate(text, wanted, published) || saysTitlePart(text, wanted)))) {
      node.remove();
      return true;
    }
    return OPENING_WRAPPERS.has(tag) && text.includes(wanted) && dropOpeningTitle(node, wanted, published);
  }
  return false;
}

/** The page's own headline usually repeats the title shown above: the <h1> saying it, or the
 * block the main text opens with when that is the title alone, whatever its tag (a <div>),
 * even below a date line (WordPress themes put the date above an <h2> title). Whether one
 * was dropped. The text then opening with the title again goes too: a forum's first post
 * heads itself with the thread's title as its subject (phpBB's <h3> under the topic's
 * <h2>), which stood right under the header's title (wcxb-dev 0540). */
function dropRepeatedTitle(fragment, title, published) {
  const wanted = squeeze(title);
  if (!wanted) return false;
  const heading = [...fragment.querySelectorAll("h1")].find((h) => saysTitle(squeeze(readText(h)), wanted));
  if (heading) {
    // a heading right above it heads nothing (a product page's "People who viewed this item
    // also viewed" over its name); once the headline is gone, it headed the text below
    dropEmptyHeadings(fragment, heading);
    heading.remove();
    dropOpeningTitle(fragment, wanted, published);
    return true;
  }
  const dropped = dropOpeningTitle(fragment, wanted, published);
  if (dropped) dropOpeningTitle(fragment, wanted, published);
  return dropped;
}

// The longest opening <h1> taken for the page's own wording of its title (a longer one is a
// lead paragraph set large).
const SUBTITLE_CHARS = 200;

/** The <h1> the main text opens with (past empty blocks and date lines, inside the opening
 * wrappers) when it words the title otherwise than the header ("The Beginner's Guide to
 * SEO" under "SEO: The Complete Guide for Beginners"): two headlines, one under the other.
 * Taken out of the text and returned, for the header to show under its title. */
function takeOpeningHeadline(container) {
  for (const node of container.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.textContent.trim()) return "";
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const text = readText(node).replace(/\s+/g, " ").trim();
    if (!text || isDateLine(node)) continue;
    if (node.localName === "h1") {
      if (text.length > SUBTITLE_CHARS) return "";
      node.remove();
      return text;
    }
    return OPENING_WRAPPERS.has(node.localName) ? takeOpeningHeadline(node) : "";
  }
  return "";
}

const HEADING_LEVEL = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
// What a heading may head besides text: pictures, tables, code, formulas, embeds.
const CONTENT_ELEMENTS = new Set(["img", "picture", "video", "audio", "table", "pre", "math",
  "svg", "figure", "iframe", "canvas", "hr"]);

/** Whether `heading`, followed by the heading `next`, signs the text before it rather than
 * heading what the algorithm left out: in the nearest box holding other text, there is text
 * before it, and after it only headings, `next` among them (a testimonial's quote, then its
 * author's name and role as two headings). */
function signsText(heading, next) {
  for (let box = heading.parentElement; box; box = box.parentElement) {
    let before = false;
    let after = false;
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.data.trim() || heading.contains(text)) continue;
      if (heading.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_PRECEDING) before = true;
      else if (!text.parentElement.closest("h1, h2, h3, h4, h5, h6")) after = true;
    }
    if (before || after || box.contains(next)) return before && !after && box.contains(next);
  }
  return false;
}

/** Headings that head nothing: followed by a heading of their rank or above, or by the end
 * of the text (a box's "Related stories" whose list the algorithm left out); not one that
 * signs the text before it (`signsText`). With `before`, only those that `before` follows. */
function dropEmptyHeadings(fragment, before = null) {
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  const empty = [];
  let open = null; // the last heading seen with nothing under it yet
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (open?.contains(node)) continue;
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.data.trim()) open = null;
      continue;
    }
    const level = HEADING_LEVEL[node.localName];
    if (level) {
      if (open && level <= HEADING_LEVEL[open.localName] && (!before || node === before)
          && !signsText(open, node)) empty.push(open);
      open = node;
    } else if (CONTENT_ELEMENTS.has(node.localName)) {
      open = null;
    }
  }
  if (open && !before) empty.push(open);
  for (const heading of empty) heading.remove();
}

/** The text's headings as an outline under the title (`outlineLevels`): a page's levels
 * may jump (a listing's h1 title straight to h5 cards), and screen readers and the reader's
 * own styles read a heading's level as its place. `top`: the title's level, 0 without one.
 * Done last, once the headings that repeat the title or head nothing are gone. */
function outlineHeadings(fragment, top) {
  const headings = [...fragment.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  const levels = outlineLevels(headings.map((h) => HEADING_LEVEL[h.localName]), top);
  headings.forEach((heading, i) => {
    if (HEADING_LEVEL[heading.localName] === levels[i]) return;
    const shown = document.createElement(`h${levels[i]}`);
    for (const { name, value } of heading.attributes) shown.setAttribute(name, value);
    shown.append(...heading.childNodes);
    heading.replaceWith(shown);
  });
}

/** A label in bold the text ends with, introducing what is not there ("Related posts:", its
 * list of links left out as the page's furniture; "You may also like:"): the last line
 * shown, at most 60 characters, ending in a colon, all of it bold (or a heading's), and
 * nothing shown after it; removed with the box it leaves empty. */
function dropDanglingLabel(fragment) {
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  let last = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE ? node.data.trim() : CONTENT_ELEMENTS.has(node.localName)) last = node;
  }
  if (last?.nodeType !== Node.TEXT_NODE) return;
  const block = last.parentElement?.closest("p, div, li, h1, h2, h3, h4, h5, h6, dt, dd, section");
  if (!block || !fragment.contains(block)) return;
  const text = block.textContent.replace(/\s+/g, " ").trim();
  if (text.length > 60 || !/:$/.test(text)) return;
  const bold = (node) => node.parentElement?.closest("b, strong, h1, h2, h3, h4, h5, h6");
  const pieces = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  for (let node = pieces.nextNode(); node; node = pieces.nextNode()) {
    // (the colon may stand after the bold words: "<strong>Related posts</strong>:")
    if (node.data.trim() && node.data.trim() !== ":" && !(bold(node) && block.contains(bold(node)))) return;
  }
  let box = block;
  while (box.parentElement && fragment.contains(box.parentElement)
    && box.parentElement.textContent.trim() === box.textContent.trim()
    && ![...CONTENT_ELEMENTS].some((tag) => box.parentElement.querySelector(tag))) box = box.parentElement;
  box.remove();
}

// A line of a forum poster's statistics beside each post: "Posts: 116", "Joined: Feb 2019",
// "Reputation: 7" (MyBB's author_statistics, phpBB's and vBulletin's profile boxes).
const POSTER_STAT = /^(?:posts|threads|messages|joined|join date|registered|reputation|karma|likes|reaction score|points|trophies|solutions)\s*:\s*\S.{0,29}$/;
// ... and the labels one of the lines must have, at least two of them
const POSTER_COUNTS = /^(?:posts|threads|messages|joined|join date|registered|reputation)\b/;

/** A poster's statistics, a box of "Label: value" lines beside a forum post (wcxb-dev 0558:
 * "Posts: 116 Threads: 23 Joined: Feb 2019 Reputation: 7" between each author's name and
 * their post): the reader shows the author and the post, not their counts; removed. A box
 * holding anything else (a sentence, a picture, a box of its own) is no such box. */
function dropPosterStats(fragment) {
  for (const node of [...fragment.querySelectorAll("div, p, dl, ul")]) {
    if (!fragment.contains(node)) continue; // (inside a box removed before it)
    if (node.querySelector("div, p, dl, ul, ol, img, picture, table, pre, blockquote, h1, h2, h3, h4, h5, h6")) continue;
    const copy = node.cloneNode(true);
    // (its lines are those a reader sees: broken at <br> and items, not at the source's
    // newlines, one of which stood between "Reputation:" and its linked count)
    for (const br of copy.querySelectorAll("br")) br.replaceWith("\u0001");
    for (const item of copy.querySelectorAll("li, dd")) item.append("\u0001");
    const lines = copy.textContent.split("\u0001").map(squeeze).filter(Boolean);
    if (lines.length < 2 || !lines.every((line) => POSTER_STAT.test(line))) continue;
    if (new Set(lines.map((line) => line.match(POSTER_COUNTS)?.[0]).filter(Boolean)).size < 2) continue;
    node.remove();
  }
}

/** Lists whose every item is a label ending in a colon, at most 60 characters, with nothing
 * after it ("Scientific consulting by:", the names it introduced, links, left out by the
 * host as furniture): they list nothing; removed. A list with one such item among others
 * keeps it. */
function dropLabelLists(fragment) {
  for (const list of [...fragment.querySelectorAll("ul, ol")]) {
    const items = [...list.children];
    if (items.length && items.every((item) => {
      const text = item.textContent.replace(/\s+/g, " ").trim();
      return item.localName === "li" && text.length <= 60 && /:$/.test(text)
        && ![...CONTENT_ELEMENTS].some((tag) => item.querySelector(tag));
    })) list.remove();
  }
}

// What a post's meta line is made of besides its author's name: dates written out or in
// numbers, the reading time, and the words around them.
const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const META_DATES = [
  new RegExp(`\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}\\b`, "g"),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH},?\\s+\\d{4}\\b`, "g"),
  /\b\d{4}-\d{2}-\d{2}\b/g,
  /\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/g,
];
// (a weekday before the date, "Released Wednesday, March 2, 2022": NASA's date line)
// (Stack Exchange's "Asked" heads its question's date: the date went, the word stood alone)
const META_WORDS = /\b(?:\d+\s*(?:min|mins|minutes?)(?:\s+read(?:ing)?)?|by|on|updated|published|posted|written|released|asked|read|reading|time|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/g;
// ... and the time of day after a date ("February 20, 2026, 4:55pm", a thread's post head)
const META_TIME = /\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?(?![\w:])/g;
// A separator a date leaves at the end of its line when it goes ("sorairolake · ").
const HANGING_SEPARATOR = /\s*[·•|,–—]\s*$/;

/** An element's text with its text nodes apart (its lines' "2024" and "10 Min Read" are two
 * words, not "202410"). */
function spacedText(element) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const parts = [];
  while (walker.nextNode()) parts.push(walker.currentNode.data);
  return parts.join(" ");
}

/** Whether a rule with text above it comes before `node` in `fragment`: `node` is in a later
 * post of a thread (the host sets each post after the first apart by a rule). */
function afterTextAndRule(fragment, node) {
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  let text = false;
  for (let at = walker.nextNode(); at && at !== node; at = walker.nextNode()) {
    if (at.nodeType === Node.TEXT_NODE) text ||= Boolean(at.data.trim());
    else if (at.localName === "hr" && text) return true;
  }
  return false;
}

/** The post's meta line the main text opens with (author, date, reading time: "ServiceTitan
 * · November 26th, 2024 · 10 Min Read"), which the header above says already: the first
 * short block, before any paragraph, made of nothing else; removed. Whether the line removed
 * held a date. A heading is one when it says a date of the year the header shows: Blogger
 * heads each day's posts with the day, "<h2 class=date-header>July 27, 2012</h2>", which
 * stood as the text's first heading under the header's "July 27, 2012" (dragnet R909). */
function dropOpeningMetaLine(fragment, meta) {
  const names = (meta.authors ?? []).map(squeeze).filter(Boolean);
  if (!names.length && !meta.published) return false;
  for (const node of fragment.querySelectorAll("p, div, address, ul, li, section, header, h2, h3, h4, h5, h6")) {
    const text = squeeze(spacedText(node));
    if (!text || node.parentElement?.closest("p, li, address, h1, h2, h3, h4, h5, h6")) continue;
    if (text.length > 160) {
      if (node.localName === "p" || node.localName === "li") return false; // the text has begun
      continue;
    }
    const named = names.some((name) => text.includes(name));
    const dated = META_DATES.some((pattern) => text.search(pattern) >= 0);
    if (HEADINGS.has(node.localName) && (!dated || !meta.published
        || !text.includes(meta.published.slice(0, 4)))) continue;
    if (!named && !dated) {
      if (node.localName === "p" && text.length >= 80) return false;
      continue;
    }
    let rest = text;
    for (const name of names) rest = rest.split(name).join(" ");
    for (const pattern of META_DATES) rest = rest.replace(pattern, " ");
    if (dated) rest = rest.replace(META_TIME, " ");
    rest = rest.replace(META_WORDS, " ").replace(/[\s|·•,:\-–—/]+/g, "");
    if (!rest) {
      node.remove();
      return dated;
    }
    if (dated && named && isPostLine(node, text, names)) {
      node.remove();
      return true;
    }
  }
  return false;
}

// The labels of a post's line besides its author and date: "Posted by Mike on August 8,
// 2012 in <a>Lions</a>", "Date: … | Category: <a>Tips & Advice</a> | Author: …".
const POST_LINE_WORDS = /\b(?:in|filed|under|categor(?:y|ies)|tags?|tagged|author|date|and|comments?|one|no|\d+)\b/g;

/** Whether `text` (the squeezed text of `node`, a short line naming the header's author and
 * date) says nothing else but its links of a few words each (the post's categories, its
 * comment count) and the labels around them: the meta line of an older blog's template,
 * which said the header's byline again above the text. */
function isPostLine(node, text, names) {
  const links = [...node.querySelectorAll("a")].map((a) => squeeze(spacedText(a))).filter(Boolean);
  if (!links.length || links.some((link) => link.length > 40)) return false;
  let rest = text;
  for (const name of names) rest = rest.split(name).join(" ");
  for (const pattern of META_DATES) rest = rest.replace(pattern, " ");
  rest = rest.replace(META_TIME, " ");
  for (const link of links) rest = rest.split(link).join(" ");
  return !rest.replace(META_WORDS, " ").replace(POST_LINE_WORDS, " ")
    .replace(/[\s|·•,:;&\-–—/()]+/g, "");
}

/** Whether `element` says nothing but `stamp` and the words around a date ("Posted",
 * "Updated on"), and shows nothing else (a picture, a table). */
function saysOnlyDate(element, stamp) {
  if ([...CONTENT_ELEMENTS].some((tag) => element.querySelector(tag))) return false;
  const rest = squeeze(spacedText(element)).split(squeeze(spacedText(stamp))).join(" ");
  return !rest.replace(META_WORDS, " ").replace(/[\s|·•,:\-–—/]+/g, "");
}

/** The line a date stamp stands on when it says nothing else ("Posted March 19, 2024", a
 * link around it): the largest such block; the stamp alone inside a line that goes on. */
function dateLineOf(stamp) {
  let line = stamp;
  for (let up = stamp.parentElement; up && saysOnlyDate(up, stamp); up = up.parentElement) line = up;
  return line;
}

/** Rules with nothing shown above them since the text's start or the rule before: what
 * they set apart was the header's repeat, gone (a forum post's author and date line), and
 * left two lines with nothing between them. */
function dropBareRules(fragment) {
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  const bare = [];
  let shown = false; // something shown since the start or the last rule
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.data.trim()) shown = true;
    } else if (node.localName === "hr") {
      if (!shown) bare.push(node);
      shown = false;
    } else if (CONTENT_ELEMENTS.has(node.localName)) {
      shown = true;
    }
  }
  for (const rule of bare) rule.remove();
}

async function main() {
  root.dataset.blocksiftStatus = "loading";
  const key = decodeURIComponent(location.hash.slice(1));
  const scriptAt = Date.now();
  const dataPromise = key ? readerData(key, showLoading) : Promise.resolve(null);
  const prefs = await loadPrefs();
  applyPrefs(prefs);
  const view = wirePrefs(prefs);
  const toggleHelp = wireKeysHelp();
  wireDisplayPanel();
  wireKeepMenu();
  const data = await dataPromise;
  const dataAt = Date.now();
  $("loading").hidden = true;
  $("back").addEventListener("click", () => goBack(data));
  const handlers = { back: () => goBack(data), help: toggleHelp, ...view };
  document.addEventListener("keydown", (event) => {
    const action = readerAction(event);
    if (!action || !handlers[action]) return;
    event.preventDefault();
    handlers[action]();
  });
  if (!data) {
    $("missing").hidden = false;
    root.dataset.blocksiftStatus = "missing";
    return;
  }
  if (data.notice) {
    showNotice(data);
    return;
  }
  const index = indexViewFragment(data);
  // an index lists many stories: the byline and date found on it are its first story's
  // (a news section's header read "By Logan Jones · December 17, 2025" over 61 headlines)
  const meta = index ? { ...data.metadata, authors: [], published: "" } : (data.metadata ?? {});
  const stories = index ? index.querySelectorAll(".index-list > li").length : 0;
  const site = siteOf(data.url);
  // an index page is titled by the page (data.title), less the site's name; one too short to
  // list is read as an article, by the article's title
  const title = headlineOf(index ? indexTitleOf(data.title, meta)
    : (data.pageKind === "index" && meta.title) || data.title, meta.siteName || site);
  document.title = title || site || "Untitled";
  // the article's language and direction hold for the whole reader below the toolbar (site,
  // title, byline, text): an Arabic or Hebrew page reads right to left, its lists' numbers
  // and its quotes' rules on the right; the toolbar keeps the extension's own (English)
  const lang = meta.language || data.lang || "";
  const dir = directionOf(data, meta);
  // (the loading state's, from the title's letters or the page's language, gives way)
  if (lang) $("reader").lang = lang;
  else $("reader").removeAttribute("lang");
  if (dir) $("reader").dir = dir;
  else $("reader").removeAttribute("dir");
  delete root.dataset.bootDir;
  $("title").textContent = title;
  $("title").hidden = !title;
  const fragment = index ?? (data.html ? sanitize(data.html, data.url) : textFragment(data.text));
  // a masthead the text opens with, the site's name before the headline, says the site
  // line again (a blog's linked <h1> "Geeks are Sexy Technology News" above its story's)
  if (title && !index) dropOpeningTitle(fragment, squeeze(meta.siteName || site), "");
  // the page's headline in other words than the title: shown once, under it
  const dropped = dropRepeatedTitle(fragment, title, meta.published);
  const subtitle = title && !index && !dropped ? takeOpeningHeadline(fragment) : "";
  // (a second copy of that headline right under it goes too)
  if (subtitle) dropOpeningTitle(fragment, squeeze(subtitle), "");
  $("subtitle").textContent = subtitle;
  $("subtitle").hidden = !subtitle;
  if (!index) {
    dropEmptyHeadings(fragment);
    dropDanglingLabel(fragment);
    dropLabelLists(fragment);
    dropPosterStats(fragment);
  }
  // ... and its byline repeats the one in the header (a heading on some sites)
  const names = meta.authors ?? [];
  for (const node of names.length ? [...fragment.querySelectorAll("p, div, address, h2, h3, h4, h5, h6")].slice(0, 8) : []) {
    // (its white space as shown: a template's indented line ran past 120 characters of tabs)
    const text = node.textContent.replace(/\s+/g, " ").trim();
    if (text.length < 120 && /^by\s/i.test(text) && names.some((name) => text.includes(name.replace(/\s+/g, " ").trim()))) {
      node.remove();
      break;
    }
  }
  // ... and so does a meta line of author, date and reading time
  const droppedDate = dropOpeningMetaLine(fragment, meta);
  // ... and so does a date line that only repeats the date shown in the header, unless the
  // meta line said that date already: the next date is a later post's (a thread's reply of
  // the same day lost its "Posted" line)
  const stamp = meta.published ? fragment.querySelector("time") : null;
  if (!droppedDate && stamp
      && (stamp.getAttribute("datetime") || "").startsWith(meta.published.slice(0, 10))) {
    const line = dateLineOf(stamp);
    // ... in the opening post: a date after a rule with text above it is a later post's
    // ("#2 · Aug 5, 2023" lost its date under a header of that day, the opening post showing
    // none)
    if (!afterTextAndRule(fragment, line)) {
      // the line it stood on keeps no separator hanging at its end ("sorairolake ·")
      const before = line.previousSibling;
      const after = line.nextSibling;
      line.remove();
      if (before?.nodeType === Node.TEXT_NODE && !after?.textContent?.trim()) {
        before.data = before.data.replace(HANGING_SEPARATOR, "");
      }
    }
  }
  dropBareRules(fragment);
  if (!index) outlineHeadings(fragment, title ? 1 : 0);
  const picture = index ? null : leadWithPicture(fragment, meta.picture, title);
  $("content").replaceChildren(fragment);
  decorate($("content"));
  quietBrokenPictures($("content"), title);
  showMeta(data, meta, stories);
  showUnreachable(data.unreachable);
  // the exports hold what is shown: an index's stories, not the main text it does not show;
  // a product's picture above its text
  const exported = (index && indexExportHtml(data)) || (pictureHtml(picture) + (data.html || ""));
  Object.assign(handlers, wireExport(data, meta, exported), wireSpeech(meta.language || data.lang));
  const renderedAt = Date.now();
  requestAnimationFrame(() => {
    const shownAt = Date.now();
    root.dataset.blocksiftMs = String(shownAt - data.startedAt);
    // Where the time went, from the click: until this page started loading, until its
    // script ran, until the stored text was read, until it was rendered, until drawn.
    // The background's own: the loading state drawn over the page (cover), the snapshot
    // taken, the navigation asked for, the host's answer stored.
    root.dataset.blocksiftPhases = JSON.stringify({
      ...(data.phases ?? {}),
      navigation: Math.round(performance.timeOrigin - data.startedAt),
      script: scriptAt - data.startedAt, data: dataAt - data.startedAt,
      rendered: renderedAt - data.startedAt, shown: shownAt - data.startedAt,
    });
    if (data.hostMs != null) root.dataset.blocksiftHostMs = String(data.hostMs);
    root.dataset.blocksiftStatus = "ready";
  });
}

main().catch((err) => {
  root.dataset.blocksiftStatus = "error";
  root.dataset.blocksiftError = String(err?.message ?? err);
});
