// The one message module shared by background, popup, options and reader.
//
// Two kinds of messages live here:
//  * wire messages to the native host (protocol version 1, host/blocksift/wire/protocol.py):
//    hello, extract, cancel, ping requests; chunked replies reassembled by ChunkAssembler;
//  * internal messages between the extension's own pages and its background (MSG.*).
// Nothing here touches the DOM or the browser API, so node tests import it as is.

// The host's definitions (protocol version, id attribute and limit, what can be asked, the
// hide plan's version), generated from it at build time: see wireconstants.js.
import {
  EXAMPLES_LIST_MAX, EXPORT_FORMATS, HIDE_PLAN_VERSION, HOST_VERSION, ID_ATTR, IMPORT_CHUNK_MAX_CHARS,
  IMPORT_MAX_BYTES, MAX_ID_LENGTH, PROTOCOL_VERSION, REQUEST_ACTIONS, RTL_LANGUAGES, RTL_SCRIPTS, UNDO_IMPORT_MAX_RANGES, WANTS,
} from "./wireconstants.js";

export { HIDE_PLAN_VERSION, ID_ATTR, IMPORT_MAX_BYTES, MAX_ID_LENGTH, PROTOCOL_VERSION, REQUEST_ACTIONS, WANTS };

export const HOST_NAME = "org.blocksift.host";
/** The extension ships with the host of the same version (one project, one version). */
export const EXTENSION_VERSION = HOST_VERSION;
export const CLIENT_NAME = `blocksift-extension/${EXTENSION_VERSION}`;

/** The command that registers the host (shown when it is missing): run in the folder where
 * blocksift was set up, its virtual environment active (README; docs/install.md). A bare
 * "pip install" is refused by Debian's and Homebrew's Python outside a virtual environment. */
export const INSTALL_COMMAND = "blocksift install";
/** What checks the host's registration and starts it once, saying what is wrong. */
export const DOCTOR_COMMAND = "blocksift doctor";

/** Block kinds that "Hide link blocks" hides; main/content/other stay visible. */
export const HIDDEN_KINDS = Object.freeze(["links", "ad", "nav"]);

/** Internal message types (popup/options/reader -> background). Version with the wire. */
export const MSG = Object.freeze({
  RUN: "blocksift/run",            // {action, tabId, algorithm?, params?} -> RunOutcome
  TAB_STATE: "blocksift/tab-state", // {tabId} -> {hidden, overlay, status}
  HOST_INFO: "blocksift/host-info", // {} -> hello reply or {error}
  READER_BACK: "blocksift/reader-back", // {tabId, url}: do not re-run the site rule on return
  READER_OPENING: "blocksift/reader-opening", // background -> popup {tabId}: the tab became the reader view
  // Labeling (labeling.js): start the labeler, save from it, examples for the options page.
  LABEL: "blocksift/label",              // {tabId, algorithm?, params?} -> {status, ...}
  LABEL_SAVE: "blocksift/label-save",    // from labeler.js: examples.save fields -> {exampleId, mainChars}
  EXAMPLES: "blocksift/examples",        // {op: list|get|delete|export|import|undoImport|repair, ...} -> the host's reply
  EXPORT: "blocksift/export",            // {kind: folder|save|render, ...} -> the host's reply
});
/** Port name the options page opens to train and receive progress (labeling.js). */
export const TRAIN_PORT = "blocksift/train";

/** Actions a user can take on a page. Hide and overlay toggle. */
export const ACTIONS = Object.freeze(["reader", "hide", "overlay"]);

/**
 * The main-content algorithm an action runs. The reader view uses the chosen algorithm
 * itself. Hide and the overlay ask the host's hide plan, which needs main content: the paper
 * algorithm linkblocks finds link blocks, not a safe main text, so auto stands in for it;
 * the overlay's "as the paper finds them" (paper = true) asks linkblocks itself.
 * The popup shows this next to each action, so the choice is never silent.
 */
export function algorithmForAction(action, algorithm, paper = false) {
  if (paper) return "linkblocks";
  return action !== "reader" && algorithm === "linkblocks" ? "auto" : algorithm;
}

let counter = 0;

/** A request id unique within this background's life (the host echoes it). */
export function newRequestId(prefix = "r") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}`;
}

function checkId(id) {
  if (typeof id !== "string" || id.length < 1 || id.length > MAX_ID_LENGTH) {
    throw new TypeError(`request id must be a string of 1..${MAX_ID_LENGTH} characters`);
  }
  return id;
}

export function helloRequest(id = newRequestId("hello")) {
  return { type: "hello", id: checkId(id), protocol: PROTOCOL_VERSION, client: CLIENT_NAME };
}

export function pingRequest(id = newRequestId("ping")) {
  return { type: "ping", id: checkId(id) };
}

export function cancelRequest(target, id = newRequestId("cancel")) {
  return { type: "cancel", id: checkId(id), target: checkId(target) };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `value` with every string in it well-formed (lone UTF-16 surrogates become U+FFFD). Page
 * scripts that cut text by length split emoji into lone halves, the DOM keeps them, and the
 * host refuses any message holding one (error 1006), so the snapshot is mended before sending.
 */
export function wellFormed(value) {
  if (typeof value === "string") {
    return typeof value.toWellFormed === "function" ? value.toWellFormed()
      : value.replace(LONE_SURROGATE, "\uFFFD");
  }
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormed(v)]));
  }
  return value;
}

/**
 * An extract request for one page snapshot.
 * `url` is dropped when the user turned off "send page address"; `private` tells the host to
 * store nothing (private windows, or the user's privacy switch); `learnSite` lets the host
 * store the page's structure to learn the site's template (the user's opt-in switch).
 */
export function extractRequest({ id = newRequestId("x"), url = null, html, algorithm = "auto",
  params = {}, want = ["blocks", "main"], isPrivate = false, learnSite = false, action = "extract" } = {}) {
  if (typeof html !== "string") throw new TypeError("html must be a string");
  if (!REQUEST_ACTIONS.includes(action)) throw new TypeError(`action must be one of ${REQUEST_ACTIONS.join(", ")}`);
  if (typeof algorithm !== "string" || !algorithm || algorithm.length > 64) {
    throw new TypeError("algorithm must be a non-empty name");
  }
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    throw new TypeError("params must be an object");
  }
  const wants = [...new Set(want)];
  if (!wants.length || wants.some((w) => !WANTS.includes(w))) {
    throw new TypeError(`want must be a non-empty subset of ${WANTS.join(", ")}`);
  }
  return {
    type: "extract", id: checkId(id), url: url || null, html, algorithm, params: { ...params },
    want: wants, idAttr: ID_ATTR, private: Boolean(isPrivate),
    // Private pages are never learned from, whatever the switch says.
    learnSite: Boolean(learnSite) && !isPrivate,
    // Only sent when asked for, so an older host keeps accepting plain extractions.
    ...(action === "extract" ? {} : { action }),
  };
}

/** Error a request fails with; `code` is the host's number or one of the local names below. */
export class BlocksiftError extends Error {
  constructor(message, { code = "internal", name = code, hint = "" } = {}) {
    super(message);
    this.code = code;
    this.errorName = name;
    this.hint = hint;
  }

  toJSON() {
    return { message: this.message, code: this.code, name: this.errorName, hint: this.hint };
  }
}

/** Local error codes (not sent by the host). */
export const LOCAL_ERRORS = Object.freeze({
  HOST_MISSING: "host_missing",
  HOST_CLOSED: "host_closed",
  TOO_LARGE: "too_large",
  TIMEOUT: "timeout",
  BAD_REPLY: "bad_reply",
  PAGE: "page_unavailable",
  /** A request the extension would not build (an example id that is no whole number, ...). */
  BAD_REQUEST: "bad_request",
});

/**
 * Reassembles chunked replies: each chunk {id, seq, count, data}; joining `data` in `seq`
 * order and JSON-parsing it gives the full reply. Guards against inconsistent counts,
 * duplicates and unbounded memory.
 */
export class ChunkAssembler {
  constructor({ maxBytes = 256 * 1024 * 1024 } = {}) {
    this.maxBytes = maxBytes;
    this.partial = new Map(); // id -> {count, parts: Array, received, bytes}
  }

  /** Feed one chunk; returns the full reply once complete, else null. Throws BlocksiftError. */
  add(chunk) {
    const { id, seq, count, data } = chunk;
    if (typeof id !== "string" || !Number.isInteger(seq) || !Number.isInteger(count)
        || count < 1 || seq < 0 || seq >= count || typeof data !== "string") {
      throw new BlocksiftError("The host sent a malformed chunk.", { code: LOCAL_ERRORS.BAD_REPLY });
    }
    let entry = this.partial.get(id);
    if (!entry) {
      entry = { count, parts: new Array(count), received: 0, bytes: 0 };
      this.partial.set(id, entry);
    }
    if (entry.count !== count) {
      this.partial.delete(id);
      throw new BlocksiftError(`Chunk count changed for reply ${id}.`, { code: LOCAL_ERRORS.BAD_REPLY });
    }
    if (entry.parts[seq] === undefined) {
      entry.parts[seq] = data;
      entry.received += 1;
      entry.bytes += data.length;
    }
    if (entry.bytes > this.maxBytes) {
      this.partial.delete(id);
      throw new BlocksiftError(`Reply ${id} exceeds ${this.maxBytes} characters.`,
        { code: LOCAL_ERRORS.TOO_LARGE });
    }
    if (entry.received < entry.count) return null;
    this.partial.delete(id);
    let reply;
    try {
      reply = JSON.parse(entry.parts.join(""));
    } catch (err) {
      throw new BlocksiftError(`Reply ${id} did not reassemble into JSON: ${err.message}`,
        { code: LOCAL_ERRORS.BAD_REPLY });
    }
    return reply;
  }

  /** Forget a reply's chunks (request failed or was cancelled). */
  drop(id) {
    this.partial.delete(id);
  }

  /** Forget everything (the port closed). */
  clear() {
    this.partial.clear();
  }
}

/** Known wording of "host not installed or not allowed" (Chromium, Firefox). */
const MISSING_PATTERNS = [
  /specified native messaging host not found/i,
  /no such native application/i,
  /access to the specified native messaging host is forbidden/i,
];

/** Whether a port error message means the host is not installed or not allowed. */
export function isHostMissingMessage(message) {
  return MISSING_PATTERNS.some((re) => re.test(String(message || "")));
}

/**
 * A BlocksiftError for a closed port, with the install hint when the host is missing and
 * the doctor's when it went before answering anything (a launcher that cannot run, a
 * virtualenv deleted: it would not start on the next request either).
 */
export function portClosedError(message, { everConnected = false } = {}) {
  const text = String(message || "no reason given");
  if (!everConnected && isHostMissingMessage(text)) {
    return new BlocksiftError(
      "The blocksift host is not installed (or not registered for this browser).",
      { code: LOCAL_ERRORS.HOST_MISSING, hint: `Install it with: ${INSTALL_COMMAND}` });
  }
  // The WebSocket transport's own reasons (hostclient.js websocketPortFactory): the doctor
  // checks the browsers' registrations, which say nothing of a server not running or a token
  // not matching.
  const unreachable = /cannot reach the blocksift WebSocket server at (\S+)/.exec(text);
  if (!everConnected && unreachable) {
    return new BlocksiftError(
      `Nothing answers at ${unreachable[1]}: the blocksift WebSocket server is not running there.`,
      { code: LOCAL_ERRORS.HOST_CLOSED, hint: "Start it with: blocksift serve" });
  }
  if (!everConnected && /WebSocket server refused the token/.test(text)) {
    return new BlocksiftError(
      "The blocksift WebSocket server refused the token: copy the one it prints into blocksift's options.",
      { code: LOCAL_ERRORS.HOST_CLOSED, hint: "Print it with: blocksift serve --print-token" });
  }
  if (!everConnected) {
    return new BlocksiftError(
      `The blocksift host stopped before it answered (${text}): it may not start at all.`,
      { code: LOCAL_ERRORS.HOST_CLOSED, hint: `Check it with: ${DOCTOR_COMMAND}` });
  }
  // A WebSocket server is no process of the browser's: nothing restarts it on the next request
  if (/WebSocket/.test(text)) {
    return new BlocksiftError(
      `The blocksift WebSocket server closed the connection (${text}). The next request connects again if it is still running.`,
      { code: LOCAL_ERRORS.HOST_CLOSED, hint: "Start it with: blocksift serve" });
  }
  if (/exceeds the limit|error when communicating/i.test(text)) {
    return new BlocksiftError(
      `The connection to the blocksift host broke (${text}). It restarts on the next request.`,
      { code: LOCAL_ERRORS.HOST_CLOSED });
  }
  return new BlocksiftError(
    `The blocksift host closed the connection (${text}). It restarts on the next request.`,
    { code: LOCAL_ERRORS.HOST_CLOSED });
}

/** The command an error's hint names ("Install it with: blocksift install"), or "". */
export function hintCommand(hint) {
  return String(hint || "").replace(/^(?:Install|Check|Start|Print) it with:\s*/, "");
}

/** Turn a host error reply into a BlocksiftError. */
export function hostError(reply) {
  return new BlocksiftError(reply.message || "The host reported an error.",
    { code: reply.code ?? "internal", name: reply.name || "error" });
}

/** Ids of the elements to hide for a result: blocks of the hidden kinds, deduplicated. */
export function elementIdsToHide(result, kinds = HIDDEN_KINDS) {
  const ids = new Set();
  for (const block of result?.blocks ?? []) {
    if (!kinds.includes(block.kind)) continue;
    for (const id of block.elementIds ?? []) ids.add(id);
  }
  return [...ids];
}

/**
 * Ids of the elements the host's hide plan says to hide (reply.hide, version 1). The host
 * decides; the extension only applies the list.
 */
export function hidePlanIds(plan) {
  if (!plan || typeof plan !== "object" || !Array.isArray(plan.targets)) return [];
  return [...new Set(plan.targets.map((t) => t?.elementId).filter((id) => typeof id === "string"))];
}

/**
 * Overlay items of a hide plan: the main content, one item per region (the host groups its
 * paragraphs into regions; one box each), then each target with its reason.
 */
export function planOverlayItems(plan) {
  const items = [];
  const regions = (plan?.mainRegions ?? []).filter((r) => Array.isArray(r?.elementIds) && r.elementIds.length);
  if (regions.length) {
    regions.forEach((region, index) => {
      const which = regions.length > 1 ? ` (part ${index + 1} of ${regions.length})` : "";
      items.push({ kind: "main", elementIds: region.elementIds, label: "main text",
        reason: `the main content${which}, ${region.chars ?? 0} characters: never hidden` });
    });
  } else if (plan?.mainIds?.length) {
    items.push({ kind: "main", elementIds: plan.mainIds, label: "main text", reason: "the main content: never hidden" });
  }
  for (const target of plan?.targets ?? []) {
    if (typeof target?.elementId !== "string") continue;
    const links = target.links ? ` · ${target.links} link${target.links === 1 ? "" : "s"}` : "";
    const kindName = KIND_NAMES[target.kind] ?? target.kind;
    // the kind's name is the short label, for a box whose long one finds no free spot
    items.push({ kind: target.kind, elementIds: [target.elementId], label: `${targetName(target)}${links}`,
      shortLabel: `${kindName}${links}`, reason: target.reason });
  }
  return items;
}

/**
 * A hidden target's name on its label: its kind's, or for "other" what the host's reason
 * names it ("cookie consent banner: 2,114 characters, …"), which says more than "other".
 */
function targetName(target) {
  const kindName = KIND_NAMES[target.kind] ?? target.kind;
  if (target.kind !== "other" || typeof target.reason !== "string") return kindName;
  const head = target.reason.split(":")[0].trim();
  const named = head !== target.reason && head.length <= 32 && /^[\p{L} -]+$/u.test(head)
    && head.split(/\s+/).length <= 4;
  return named ? head : kindName;
}

/** Overlay items of the paper's link blocks, unchanged ("as the paper finds them"). */
export function paperOverlayItems(result) {
  return (result?.blocks ?? []).filter((b) => b.kind === "links").map((block, index) => ({
    kind: "links", elementIds: block.elementIds ?? [], label: `link block ${index + 1} · ${block.linkCount ?? "?"} links`,
    reason: `${block.algorithm}: a run of ${block.linkCount ?? "?"} links spanning ${block.end - block.start} characters of HTML (as the paper finds them)`,
  }));
}

/** Names of block kinds, for labels and the legend. */
export const KIND_NAMES = Object.freeze({
  main: "main text", links: "link block", nav: "navigation", ad: "ad", comments: "comments", other: "other",
});

/** Words and minutes to read a text; CJK characters count as words at a slower pace. */
export function readingTime(text, { wordsPerMinute = 230, cjkPerMinute = 500 } = {}) {
  const source = String(text || "");
  const cjk = (source.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g) || []).length;
  const words = (source.replace(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g, " ")
    .match(/[\p{L}\p{N}]+/gu) || []).length;
  const minutes = words / wordsPerMinute + cjk / cjkPerMinute;
  return { words, cjk, minutes: Math.max(1, Math.round(minutes)) };
}

/**
 * A product's price for the reader's header, in the page's language ("$29.95", "29,95 €");
 * "" without one. The host sends it as its structured data states it: a decimal amount and
 * an ISO 4217 code; a code the browser has no symbol for is shown by its code ("XQQ 4.50").
 */
export function priceLabel(price, locale = undefined) {
  const amount = Number(price?.amount);
  const currency = String(price?.currency ?? "");
  if (!(amount > 0) || !/^[A-Z]{3}$/.test(currency)) return "";
  try {
    return new Intl.NumberFormat(locale || undefined, { style: "currency", currency }).format(amount);
  } catch {
    return `${price.amount} ${currency}`;
  }
}

/** The text's length for the reader's header: Chinese, Japanese and Korean text is counted
 * in characters (a run of them is not one word), other text in words. */
export function lengthLabel({ words, cjk }, locale = undefined) {
  return cjk > words ? `${cjk.toLocaleString(locale)} characters`
    : `${(words + cjk).toLocaleString(locale)} words`;
}

/** What an alt text's own words add nothing to: "Image of", "Photo:", "Picture showing". */
const ALT_OPENING = /^\s*(?:(?:an?|the)\s+)?(?:image|photo|photograph|picture|illustration|screenshot|graphic|pic|img)\b(?:\s+(?:of|showing|shows|depicting))?\s*[:\-–—]?\s*/iu;
const altWords = (text) => String(text ?? "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** Words near a picture past which word-for-word overlap is chance, not a repeat (a
 * caption is about its picture at any length). */
const NEAR_WORDS = 40;
/** Fewest words of an alt before the word it is cut in for a cut to be the text's. */
const CUT_ALT_WORDS = 5;

/**
 * Does a picture's alt text say nothing that the text beside it (`beside`: [{text, caption}],
 * its figure's caption, its paragraph, the lines just before and after) does not already say?
 * True for an empty alt, for one found word for word beside it, and for one whose words are
 * (four in five at least) the words of its caption or of a short line beside it. The reader
 * shows such a picture's alt nowhere when the picture does not load (a page saved offline).
 */
export function altRepeats(alt, beside) {
  const words = altWords(String(alt ?? "").replace(ALT_OPENING, ""));
  if (!words.length) return true;
  const phrase = ` ${words.join(" ")} `;
  return beside.some(({ text, caption = false }) => {
    const near = altWords(text);
    if (!near.length) return false;
    const line = ` ${near.join(" ")} `;
    if (line.includes(phrase)) return true;
    // the text's words cut short, in the middle of a word: a shop's alt is its product's
    // name to so many characters ("… Simple One-Tap Setup with iPhone o" under the whole
    // name, Amazon's best sellers, wcxb-dev 2920)
    if (words.length > CUT_ALT_WORDS) {
      const cut = words[words.length - 1];
      const whole = ` ${words.slice(0, -1).join(" ")} ${cut}`;
      for (let at = line.indexOf(whole); at >= 0; at = line.indexOf(whole, at + 1)) {
        if (line[at + whole.length] !== " ") return true; // the next word goes on past the cut
      }
    }
    if (!caption && near.length > NEAR_WORDS) return false;
    const seen = new Set(near);
    return words.filter((word) => seen.has(word)).length >= 0.8 * words.length;
  });
}

/**
 * The levels the reader shows headings at (`levels`: their page's, 1 to 6, in document order)
 * so that they form an outline under the title (`top`: its level, 1; 0 without one): each
 * heading one level below the nearest heading before it that the page ranks above it (the
 * title where none is), so that the page's h1 title straight to h5 cards reads h1 then h2.
 * The page's relative order stays: a heading it ranks above another is never shown below it;
 * an <h1> in the text ranks under the title, as Readability has it.
 */
export function outlineLevels(levels, top = 1) {
  const open = []; // [page's level, shown level] of the headings the next may sit under
  return levels.map((level) => {
    while (open.length && open[open.length - 1][0] >= level) open.pop();
    const shown = Math.min(6, (open.length ? open[open.length - 1][1] : top) + 1);
    open.push([level, shown]);
    return shown;
  });
}

/**
 * The reader's note on a site's adaptation (auto's stage "site"): `adapted` is
 * {pages, labeled, dataset} (pages the site's file counts; of them, the user's saved examples
 * of the site and the rest, from `train auto --per-site --dataset`), a bare count or true
 * (an older answer, or the examples could not be read: the split is not known). Only pages
 * the user saved in the browser are called theirs. {text, title}, or null for no note.
 */
export function adaptedWords(adapted) {
  if (!adapted) return null;
  const count = (n, what) => `${n.toLocaleString("en")} ${what}${n === 1 ? "" : "s"}`;
  const whole = (n) => (Number.isInteger(n) && n > 0 ? n : 0);
  if (typeof adapted !== "object") {
    const pages = whole(adapted);
    return {
      text: pages ? `Adapted to this site from ${count(pages, "labeled page")}`
        : "Adapted to this site from labeled pages",
      title: "Labeled pages of this site taught blocksift where its text is.",
    };
  }
  const labeled = whole(adapted.labeled);
  const dataset = whole(adapted.dataset);
  if (labeled && dataset) {
    return {
      text: `Adapted to this site from ${count(labeled, "page")} you labeled and ${dataset.toLocaleString("en")} from a dataset`,
      title: "Your saved examples of this site's pages, and labeled pages of it from a training dataset (blocksift train auto --per-site), taught blocksift where its text is.",
    };
  }
  if (labeled) {
    return {
      text: `Adapted to this site from ${count(labeled, "page")} you labeled`,
      title: "Your saved examples of this site's pages taught blocksift where its text is.",
    };
  }
  if (dataset) {
    return {
      text: `Adapted to this site from ${count(dataset, "page")} of a dataset`,
      title: "Labeled pages of this site from a training dataset (blocksift train auto --per-site) taught blocksift where its text is; none are your saved examples.",
    };
  }
  return adaptedWords(whole(adapted.pages) || true);
}

/**
 * The writing direction of a BCP 47 language tag, as the host's language_direction says
 * it: "rtl" for a language or script written right to left ("ar", "he-IL", "az-Arab"),
 * "ltr" for another tag, "" without one. The reader's fallback where the host sent no
 * direction (an older host, a page it gave no metadata).
 */
export function languageDirection(tag) {
  const parts = String(tag ?? "").trim().toLowerCase().split(/[-_]/).filter(Boolean);
  if (!parts.length || !/^[a-z]+$/.test(parts[0])) return "";
  const script = parts.slice(1).find((part) => /^[a-z]{4}$/.test(part));
  if (script) return RTL_SCRIPTS.includes(script) ? "rtl" : "ltr";
  return RTL_LANGUAGES.includes(parts[0]) ? "rtl" : "ltr";
}

// -- export (reader view; host/blocksift/export.py) ----------------------------------------

const ARTICLE_FIELDS = ["title", "html", "url", "authors", "published", "siteName", "language",
  "direction", "price"];

/**
 * export.folder ({kind: "folder", folder?}: ask for or set the folder the user chose),
 * export.save ({kind: "save", format, ...article}: write a new file there) and
 * export.render ({kind: "render", format, ...article}: the file's text, for "Copy as Markdown").
 */
export function exportRequest({ kind, id = newRequestId("export"), folder, format, ...article } = {}) {
  if (kind === "folder") {
    return folder ? { type: "export.folder", id, folder: String(folder) } : { type: "export.folder", id };
  }
  if (!["save", "render"].includes(kind)) throw new TypeError(`unknown export kind ${kind}`);
  if (!EXPORT_FORMATS.includes(format)) throw new TypeError(`unknown export format ${format}`);
  const request = { type: `export.${kind}`, id, format };
  for (const name of ARTICLE_FIELDS) {
    if (article[name] !== undefined && article[name] !== null) request[name] = article[name];
  }
  return request;
}

// -- labeled examples and training (labeling.js; host/blocksift/wire/protocol.py) -----------------

/** examples.save: the snapshot, the ids the user kept as main text, the marked blocks. */
export function examplesSaveRequest({ id = newRequestId("save"), url = null, html, title = "",
  mainIds = [], blocks = [], algorithm = "", algorithmOutput = {}, isPrivate = false } = {}) {
  if (typeof html !== "string" || !html) throw new TypeError("html must be a non-empty string");
  if (!Array.isArray(mainIds) || mainIds.some((x) => typeof x !== "string")) {
    throw new TypeError("mainIds must be a list of id strings");
  }
  const cleanBlocks = (Array.isArray(blocks) ? blocks : []).map((block) => {
    if (!["links", "ad"].includes(block?.kind)) throw new TypeError("a marked block is links or ad");
    return { kind: block.kind, ids: (block.ids ?? []).map(String), text: String(block.text ?? "").slice(0, 100000) };
  });
  return {
    type: "examples.save", id: checkId(id), url: url || null, html, title: String(title || "").slice(0, 2000),
    mainIds: [...mainIds], blocks: cleanBlocks, algorithm: String(algorithm || "").slice(0, 64),
    algorithmOutput: algorithmOutput && typeof algorithmOutput === "object" ? algorithmOutput : {},
    idAttr: ID_ATTR, private: Boolean(isPrivate),
  };
}

/** How a bad value is named in a message: short, and never by calling its own code. */
function shown(value) {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || ["number", "boolean", "undefined", "bigint"].includes(typeof value)) return String(value);
  return Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * `value` as a whole number from `min` to `max` (a number, or a string of digits such as a
 * data attribute holds), else a local BlocksiftError (LOCAL_ERRORS.BAD_REQUEST) saying what
 * `what` must be: a request holding NaN, a fraction or a number past the host's bounds is
 * never built (the host would refuse it, error 1007, after a round trip; NaN even goes out
 * as null). Numbers past 2^53 are refused too: JavaScript cannot hold them exactly.
 */
function wholeNumber(value, what, min, max = Number.MAX_SAFE_INTEGER) {
  const number = typeof value === "number" ? value
    : typeof value === "string" && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (Number.isSafeInteger(number) && number >= min && number <= max) return number;
  const range = max < Number.MAX_SAFE_INTEGER
    ? `from ${min.toLocaleString("en")} to ${max.toLocaleString("en")}` : `of ${min} or more`;
  const why = Number.isInteger(number) && number > max && max === Number.MAX_SAFE_INTEGER
    ? " (too large to send exactly)" : "";
  throw new BlocksiftError(`${what} must be a whole number ${range}, not ${shown(value)}${why}.`,
    { code: LOCAL_ERRORS.BAD_REQUEST });
}

/**
 * examples.list / get / delete / export / import / undoImport / repair requests, by operation name. Ids, limits and offsets
 * are checked here: a bad one throws a BlocksiftError (LOCAL_ERRORS.BAD_REQUEST) and no request
 * is built. `limit` and `offset` left out (undefined or null) are 100 and 0.
 */
export function examplesRequest(op, args = {}, id = newRequestId("ex")) {
  switch (op) {
    case "list":
      return {
        type: "examples.list", id: checkId(id),
        limit: wholeNumber(args.limit ?? 100, "The number of examples to list", 1, EXAMPLES_LIST_MAX),
        offset: wholeNumber(args.offset ?? 0, "The offset in the list of examples", 0),
      };
    case "get":
      return { type: "examples.get", id: checkId(id), exampleId: wholeNumber(args.exampleId, "An example id", 1) };
    case "delete":
      return { type: "examples.delete", id: checkId(id), exampleId: wholeNumber(args.exampleId, "An example id", 1) };
    case "export":
      return { type: "examples.export", id: checkId(id), withBlocks: Boolean(args.withBlocks),
        ...(args.path ? { path: String(args.path) } : {}) };
    case "import":
      return importChunkRequest(args, id);
    case "undoImport":
      return { type: "examples.undoImport", id: checkId(id), ranges: idRanges(args.ranges) };
    case "repair":
      return { type: "examples.repair", id: checkId(id) };
    default:
      throw new TypeError(`unknown examples operation ${op}`);
  }
}

// -- importing a file the user picks (the options page's Import; examples.import) ----------

/**
 * An import's ids as examples.imported gave them (addedRanges: [first, last] runs), checked for
 * examples.undoImport: 1 to UNDO_IMPORT_MAX_RANGES pairs of whole numbers, first <= last.
 */
function idRanges(ranges) {
  if (!Array.isArray(ranges) || !ranges.length || ranges.length > UNDO_IMPORT_MAX_RANGES) {
    throw new BlocksiftError(`An import's ids are 1 to ${UNDO_IMPORT_MAX_RANGES} [first, last] runs, not ${shown(ranges)}.`,
      { code: LOCAL_ERRORS.BAD_REQUEST });
  }
  return ranges.map((run) => {
    if (!Array.isArray(run) || run.length !== 2) {
      throw new BlocksiftError(`A run of ids is [first, last], not ${shown(run)}.`, { code: LOCAL_ERRORS.BAD_REQUEST });
    }
    const first = wholeNumber(run[0], "An example id", 1);
    const last = wholeNumber(run[1], "An example id", first);
    return [first, last];
  });
}

/**
 * Bytes of the file one examples.import chunk carries: 384 KiB, 512 KiB of base64, well under
 * the host's cap of a chunk (IMPORT_CHUNK_MAX_CHARS) and its 64 MiB frames.
 */
export const IMPORT_CHUNK_BYTES = Math.min(384 * 1024, Math.floor(IMPORT_CHUNK_MAX_CHARS / 4) * 3);
/** What the options page may say of pages already stored: skip the file's, or take them. */
export const IMPORT_ON_DUPLICATE = Object.freeze(["skip", "replace"]);
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A fresh upload id (letters, digits and "-"; the host takes 1 to 64 of them). */
export function newUploadId() {
  return `up-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** How many chunks a file of `size` bytes goes in (an empty file: one, empty). */
export function importChunkCount(size, chunkBytes = IMPORT_CHUNK_BYTES) {
  return Math.max(1, Math.ceil(size / chunkBytes));
}

/** The base64 of `bytes` (a Uint8Array), in pieces small enough for fromCharCode's arguments. */
export function bytesToBase64(bytes) {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/**
 * One examples.import chunk: {uploadId, index, data (base64), last, onDuplicate, name and size
 * (sent with chunk 0)}. A bad id, index or choice throws a BlocksiftError (BAD_REQUEST).
 */
function importChunkRequest({ uploadId, index, data, last = false, onDuplicate = "skip", name = "", size } = {}, id) {
  if (typeof uploadId !== "string" || !UPLOAD_ID.test(uploadId)) {
    throw new BlocksiftError(`An upload id is 1 to 64 letters, digits, "-" or "_", not ${shown(uploadId)}.`,
      { code: LOCAL_ERRORS.BAD_REQUEST });
  }
  const at = wholeNumber(index, "A chunk's index", 0);
  if (typeof data !== "string" || data.length > IMPORT_CHUNK_MAX_CHARS) {
    throw new BlocksiftError(`A chunk is a base64 text of at most ${IMPORT_CHUNK_MAX_CHARS} characters.`,
      { code: LOCAL_ERRORS.BAD_REQUEST });
  }
  if (!["skip", "replace", "keep"].includes(onDuplicate)) {
    throw new BlocksiftError(`Pages already stored are skipped, replaced or kept, not ${shown(onDuplicate)}.`,
      { code: LOCAL_ERRORS.BAD_REQUEST });
  }
  const request = { type: "examples.import", id: checkId(id), uploadId, index: at, data, last: Boolean(last), onDuplicate };
  if (at === 0) {
    request.name = String(name ?? "").slice(0, 255);
    if (size !== undefined && size !== null) request.size = wholeNumber(size, "A file's size", 0);
  }
  return request;
}

/** train: retrain farsw from the captured examples (progress replies, then trained). */
export function trainRequest({ id = newRequestId("train"), algorithm = "farsw", useExamples = true,
  datasets = [] } = {}) {
  return { type: "train", id: checkId(id), algorithm, useExamples: Boolean(useExamples), datasets: [...datasets] };
}

/**
 * The part of an extraction result an example keeps as "the output that was corrected":
 * status, main-text ids and text, and the blocks (no sanitized HTML, which the snapshot holds).
 */
export function correctedOutput(result) {
  if (!result || typeof result !== "object") return {};
  return {
    algorithm: result.algorithm, status: result.status, stage: result.stage ?? "",
    main: result.main ? { elementIds: result.main.elementIds ?? [], text: result.main.text ?? "" } : null,
    blocks: (result.blocks ?? []).map((b) => ({ kind: b.kind, score: b.score, elementIds: b.elementIds ?? [] })),
  };
}

/** Ids the labeler starts from: the main text's ids, else the ids of main/content blocks. */
export function initialMainIds(result) {
  if (result?.main?.elementIds?.length) return [...result.main.elementIds];
  const ids = new Set();
  for (const block of result?.blocks ?? []) {
    if (block.kind === "main" || block.kind === "content") for (const id of block.elementIds ?? []) ids.add(id);
  }
  return [...ids];
}
