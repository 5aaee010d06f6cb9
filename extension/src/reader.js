// The reader view: an extension page (its own origin, strict CSP, no page script ever runs
// here) that shows the host's main text. The host already sanitized it with an allowlist
// (nh3); we sanitize again with DOMPurify and the same allowlist before it touches the DOM,
// as Readability's README advises, so a bug on either side alone cannot run page code.

import DOMPurify from "./vendor/dompurify/purify.es.mjs";
import { api } from "./api.js";
import { MSG, readingTime } from "./protocol.js";
import { indexViewFragment } from "./indexview.js";

const PREFS_KEY = "readerPrefs";
const DEFAULT_PREFS = { theme: "light", font: "serif", size: 20, width: "medium" };
const SIZES = [14, 16, 18, 20, 22, 24, 28, 32];

// The allowlist mirrors host/blocksift/content.py SAFE_TAGS/SAFE_ATTRIBUTES, minus srcset
// (the snapshot already resolved the image in use) and <source>.
const ALLOWED_TAGS = [
  "a", "abbr", "article", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup",
  "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2",
  "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "picture",
  "pre", "q", "s", "samp", "section", "small", "span", "strong", "sub", "summary", "sup",
  "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "wbr",
];
const ALLOWED_ATTR = ["href", "title", "src", "alt", "width", "height", "colspan", "rowspan", "scope",
  "span", "start", "reversed", "type", "value", "datetime", "cite", "class"];
const URL_ATTRS = new Set(["href", "src", "cite"]);
const SAFE_URL = /^(?:https?:|mailto:)/i;

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
    if (node.hasAttribute("class") && !["CODE", "PRE"].includes(node.nodeName)) node.removeAttribute("class");
    if (node.nodeName === "A" && node.hasAttribute("href")) node.setAttribute("rel", "noopener noreferrer");
    if (node.nodeName === "IMG") {
      node.setAttribute("referrerpolicy", "no-referrer");
      node.setAttribute("loading", "lazy");
      node.setAttribute("decoding", "async");
    }
  });
  return purifier.sanitize(html, {
    ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: SAFE_URL, ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false, ALLOW_UNKNOWN_PROTOCOLS: false, KEEP_CONTENT: true,
    FORBID_TAGS: ["style", "script", "svg", "math", "form", "template", "iframe", "object", "embed", "noscript"],
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
function readerData(key) {
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
  document.title = notice.title;
  $("title").textContent = notice.title;
  try {
    $("site").textContent = new URL(data.url).hostname.replace(/^www\./, "");
  } catch {
    $("site").textContent = "";
  }
  const box = $("notice");
  box.hidden = false;
  box.querySelector(".message").textContent = notice.message;
  const command = box.querySelector("code");
  command.textContent = notice.command || "";
  command.hidden = !notice.command;
  root.dataset.blocksiftStatus = notice.error ? "error" : "not-suitable";
  root.dataset.blocksiftError = notice.message;
}

async function main() {
  root.dataset.blocksiftStatus = "loading";
  const prefs = await loadPrefs();
  applyPrefs(prefs);
  wirePrefs(prefs);
  const key = decodeURIComponent(location.hash.slice(1));
  const scriptAt = Date.now();
  const data = key ? await readerData(key) : null;
  const dataAt = Date.now();
  $("back").addEventListener("click", () => goBack(data));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") goBack(data);
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
  let site = "";
  try {
    site = new URL(data.url).hostname.replace(/^www\./, "");
  } catch {
    site = "";
  }
  const title = (data.title || "").trim() || site || "Untitled";
  document.title = title;
  if (data.lang) $("reader").lang = data.lang;
  $("site").textContent = site;
  $("title").textContent = title;
  const fragment = indexViewFragment(data)
    ?? (data.html ? sanitize(data.html, data.url) : textFragment(data.text));
  // The page's own <h1> usually repeats the title shown above.
  const firstHeading = fragment.querySelector("h1");
  if (firstHeading && firstHeading.textContent.trim() === title) firstHeading.remove();
  $("content").replaceChildren(fragment);
  const time = readingTime(data.text || $("content").textContent);
  $("details").textContent = `${time.minutes} min read · ${time.words + time.cjk} words · ${data.algorithm}`;
  const renderedAt = Date.now();
  requestAnimationFrame(() => {
    const shownAt = Date.now();
    root.dataset.blocksiftMs = String(shownAt - data.startedAt);
    // Where the time went, from the click: until this page started loading, until its
    // script ran, until the stored text was read, until it was rendered, until drawn.
    root.dataset.blocksiftPhases = JSON.stringify({
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
