// Background side of labeling ("Label this page") and of the options page's Examples
// section. The background wires these in (background.js) and hands over what they need, so
// this module holds no connection of its own:
//  * startLabeling: refuses in private windows, on excluded sites and when every page is
//    treated as private — before anything is injected or sent; otherwise snapshots the page
//    (the agent), extracts it once, and injects the labeler (labeler.js) starting from that
//    extraction;
//  * saveExample: the labeler's Save; the same refusals are checked again, then examples.save
//    (which replaces an earlier example of the same page: savedNotice says so);
//  * examplesCall: list / get / delete / export / import / undoImport for the options page;
//  * onTrainPort: "Train farsw from my examples" with the host's progress forwarded.

import {
  BlocksiftError, LOCAL_ERRORS, TRAIN_PORT, correctedOutput, examplesRequest, examplesSaveRequest,
  extractRequest, initialMainIds, trainRequest,
} from "./protocol.js";
import { excludedEntry, loadLabeling } from "./labelsettings.js";
import { choiceFor, loadSettings, siteOf } from "./settings.js";

export const TRAINING_KEY = "training";
const TRAIN_TIMEOUT_MS = 60 * 60 * 1000; // training a model on many pages takes minutes
// An import's last chunk is answered once the whole file is read, checked and stored, and
// its sites adapted: thousands of pages take minutes.
const IMPORT_TIMEOUT_MS = 30 * 60 * 1000;

/** Why labeling may not run on this tab, or null. Checked before anything is injected or sent. */
export async function labelingRefusal(api, tab, url) {
  if (!tab) return { code: "no_tab", message: "No tab to label." };
  if (tab.incognito) {
    return { code: "private_window", message: "Labeling never runs in private windows: nothing from them is ever captured." };
  }
  const [settings, labeling] = await Promise.all([loadSettings(api.storage.local), loadLabeling(api.storage.local)]);
  const entry = excludedEntry(labeling, url ?? tab.url);
  if (entry) {
    return { code: "excluded_site", message: `${entry} is in your excluded sites: blocksift never captures examples there (see its options).` };
  }
  if (settings.privacy.alwaysPrivate) {
    return { code: "always_private", message: "\"Treat every page as private\" is on (options): no example can be stored." };
  }
  return null;
}

function algorithmOffered(hello, wanted) {
  const names = (hello?.algorithms ?? []).map((a) => a.name);
  if (!names.length || names.includes(wanted)) return wanted;
  return names.includes(hello.defaultAlgorithm) ? hello.defaultAlgorithm : names[0];
}

let labelerCss = null;
async function loadCss(api) {
  if (labelerCss === null) labelerCss = await (await fetch(api.runtime.getURL("labeler.css"))).text();
  return labelerCss;
}

/**
 * "Label this page" on a tab. Resolves with {status: "labeling"|"refused"|"error", ...}.
 * `algorithm` defaults to "auto" (the host's default extractor).
 */
export async function startLabeling({ tabId, algorithm, params, startedAt = Date.now() }, deps) {
  const { api, hostClient, callAgent, beginOnPage } = deps;
  const tab = await api.tabs.get(tabId);
  const refusal = await labelingRefusal(api, tab);
  if (refusal) return { status: "refused", action: "label", message: refusal.message, code: refusal.code };
  const settings = await loadSettings(api.storage.local);
  const host = await hostClient(settings);
  host.connect().catch(() => {});
  try {
    const { state: pageState, snapshot: snap } = await beginOnPage(tabId, "label");
    if (pageState?.overlay) {
      // "Show what was found" is on: its outlines are the algorithm's, drawn over the user's
      // marks and never updated by them (two sets of boxes, and a legend behind the toolbar).
      await callAgent(tabId, "clearOverlay");
      // the popup's toggle reads the tab's last outcome (background.js setTabState)
      await api.storage.session?.set({ [`tab:${tabId}`]: { status: "overlay-cleared", action: "overlay", at: Date.now() } })
        .catch(() => {});
    }
    // The page may have navigated to an excluded site since the tab was read.
    const late = await labelingRefusal(api, tab, snap.url);
    if (late) {
      await callAgent(tabId, "setStatus", "label-refused", { error: late.message });
      return { status: "refused", action: "label", message: late.message, code: late.code };
    }
    const hello = await host.connect();
    const wanted = algorithm || "auto";
    const chosen = algorithmOffered(hello, wanted);
    const choice = choiceFor(settings, snap.url);
    const request = extractRequest({
      url: settings.privacy.sendUrl ? snap.url : null, html: snap.html, algorithm: chosen,
      params: chosen === wanted ? (params ?? (choice.algorithm === chosen ? choice.params : {})) : {},
      want: ["main", "blocks"], isPrivate: false, learnSite: false,
    });
    const [reply, css] = await Promise.all([host.request(request), loadCss(api)]);
    const result = reply.result;
    const mainIds = result.status === "ok" ? initialMainIds(result) : [];
    await api.scripting.executeScript({ target: { tabId }, files: ["labeler.js"] });
    const [started] = await api.scripting.executeScript({
      target: { tabId },
      func: (options) => globalThis.__blocksiftLabeler.start(options),
      args: [{
        css, html: snap.html, url: snap.url, title: snap.title, algorithm: result.algorithm,
        output: correctedOutput(result), mainIds,
      }],
    });
    const info = started?.result ?? {};
    // resumed: the toolbar was open with the user's marks, which it keeps (labeler.js start).
    return { status: "labeling", action: "label", algorithm: result.algorithm, main: info.main ?? 0,
      frames: info.frames ?? 0, resumed: Boolean(info.resumed), ms: Date.now() - startedAt };
  } catch (err) {
    const error = err instanceof BlocksiftError ? err : new BlocksiftError(String(err?.message ?? err));
    try {
      await callAgent(tabId, "toast", "blocksift could not start labeling", { detail: error.message });
      await callAgent(tabId, "setStatus", "error", { action: "label", error: error.message, "error-code": error.code });
    } catch {
      // the page went away; the popup shows the error
    }
    return { status: "error", action: "label", error: error.toJSON() };
  }
}

/** The labeler's Save: the refusals again (nothing leaves the page without them), then the host. */
export async function saveExample(message, sender, { api, hostClient }) {
  const tab = sender?.tab;
  const refusal = await labelingRefusal(api, tab, tab?.url);
  if (refusal) throw new BlocksiftError(refusal.message, { code: refusal.code });
  const settings = await loadSettings(api.storage.local);
  const host = await hostClient(settings);
  const url = settings.privacy.sendUrl ? message.url : null;
  const request = examplesSaveRequest({
    url, html: message.html, title: message.title,
    mainIds: message.mainIds, blocks: message.blocks, algorithm: message.algorithm,
    algorithmOutput: message.algorithmOutput, isPrivate: Boolean(tab.incognito),
  });
  const reply = await host.request(request);
  const replaced = reply.replaced ?? [];
  return { exampleId: reply.exampleId, mainChars: reply.mainChars, replaced,
    notice: savedNotice({ ...reply, replaced, blocks: message.blocks?.length ?? 0, site: url ? siteOf(url) : null }) };
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * What the page says after a save: {title, detail}. A save of a page that had an example
 * replaced it (the host keeps the earlier one restorable): say so, and how to go back.
 * `site`: the site whose reader view the example adapts (docs/auto.md), null when it was
 * saved without its address (it adapts nothing: say so), undefined when not known.
 */
export function savedNotice({ exampleId, mainChars, blocks = 0, replaced = [], site }) {
  const adapts = site ? ` The reader view adapts to ${site} from it.`
    : site === null ? " Saved without the page's address (options → Privacy), it does not adapt the reader view." : "";
  const stored = `Example ${exampleId}: ${plural(mainChars, "character")} of main text and ${plural(blocks, "marked block")}.${adapts}`;
  if (!replaced.length) {
    return { title: "Example saved", detail: `${stored} See them in the extension's options.` };
  }
  const earlier = replaced.length === 1 ? `example ${replaced[0]}` : `examples ${replaced.join(", ")}`;
  return {
    title: "Saved — replaced your earlier label of this page",
    detail: `${stored} Your earlier label (${earlier}) no longer counts; to bring it back: the extension's options → Examples → Restore earlier label.`,
  };
}

/**
 * The save request that puts a deleted example back (the options page's Undo): the stored
 * snapshot, ids, blocks and corrected output as they were; the host renders the same text.
 * It keeps the date it was saved, and its number where the host still has that free, so it
 * comes back at its place in the list and the export (`restore`, PROTOCOL.md).
 */
export function restoreRequest(example, { keep = true } = {}) {
  if (!example || typeof example !== "object") throw new TypeError("no example to restore");
  const request = examplesSaveRequest({
    url: example.url ?? null, html: example.html, title: example.title ?? "",
    mainIds: (example.mainIdList ?? []).map(String), blocks: example.blocks ?? [],
    algorithm: example.algorithm ?? "", algorithmOutput: example.algorithmOutput ?? {}, isPrivate: false,
  });
  // An example labeled by its text alone (a dataset's page, an import from an export
  // without marked blocks) has no element ids: its text goes back as it was.
  if (!request.mainIds.length && typeof example.mainText === "string") request.mainText = example.mainText;
  const exampleId = Number(example.exampleId);
  const created = Number(example.created);
  if (keep && Number.isInteger(exampleId) && exampleId >= 1 && Number.isFinite(created) && created >= 0) {
    request.restore = { exampleId, created };
  }
  return request;
}

/**
 * examples.list / get / delete / export / import (one chunk of a file) / undoImport (examplesRequest) for
 * the options page, and restore (Undo of a delete:
 * the example as `get` returned it, stored again unless labeling is refused for its site now,
 * with its date and number; `keep: false`, "Restore earlier label", stores it as saved now);
 * resolves with the host's reply.
 */
export async function examplesCall({ op, ...args }, { api, hostClient }) {
  // a request the extension would not build (a bad id, limit or offset) fails here, before
  // the host is started for it
  const built = op === "restore" ? null : examplesRequest(op, args);
  const settings = await loadSettings(api.storage.local);
  const host = await hostClient(settings);
  if (op === "restore") {
    const refusal = await labelingRefusal(api, { incognito: false }, args.example?.url ?? "");
    if (refusal) throw new BlocksiftError(refusal.message, { code: refusal.code });
    const request = restoreRequest(args.example, { keep: args.keep !== false });
    try {
      return await host.request(request);
    } catch (err) {
      // A host from before `restore` refuses the field: the example still comes back, as a
      // new one dated now, rather than not at all.
      if (!request.restore || !/\brestore\b/.test(String(err?.message))) throw err;
      const plain = { ...request, id: `${request.id}-again` };
      delete plain.restore;
      return host.request(plain);
    }
  }
  // taking back thousands of examples and their sites' counts takes as long as adding them
  if ((op === "import" && built.last) || op === "undoImport") return host.request(built, { timeoutMs: IMPORT_TIMEOUT_MS });
  return host.request(built);
}

/** A count from the host's stats (floats on the wire): a whole number of 0 or more, else 0. */
function statCount(value) {
  return Math.max(0, Math.round(Number(value) || 0));
}

/**
 * {pages, labeled, dataset} of a site's adaptation from auto's stats: `site_pages`, the
 * labeled pages the site's file counts, and `site_examples`, how many of them are the user's
 * saved examples (the file keeps that count; the rest are a dataset's pages, from
 * `blocksift train auto --per-site --dataset`). null when the stats do not say how many are
 * the user's: a host from before `site_examples`, or a site file from before the count
 * (adaptationOf then works it out from the saved examples).
 */
export function adaptationCounts(stats) {
  const examples = stats?.site_examples;
  if (typeof examples !== "number" || !Number.isFinite(examples) || examples < 0) return null;
  const pages = statCount(stats.site_pages);
  const labeled = Math.min(statCount(examples), pages);
  return { pages, labeled, dataset: pages - labeled };
}

/**
 * What the reader says of a site's adaptation (auto's stage "site"): the host's counts
 * (adaptationCounts), read from the result itself; where the result does not have them, the
 * split worked out by listing the saved examples (adaptationSources), as before the host
 * counted them.
 */
export async function adaptationOf(stats, url, host, options = {}) {
  return adaptationCounts(stats) ?? adaptationSources(statCount(stats?.site_pages), url, host, options);
}

/**
 * Where the `pages` of a site's adaptation (auto's stats.site_pages) came from, for a host
 * that does not say (adaptationOf): the user's saved examples of `url`'s site
 * (`exampleUrls`: the URLs of all saved examples) and the rest, labeled pages of a dataset
 * (`blocksift train auto --per-site --dataset`), which the site's file counts alike.
 * {pages, labeled, dataset}.
 */
export function adaptationSplit(pages, exampleUrls, url) {
  const total = Number.isInteger(pages) && pages > 0 ? pages : 0;
  const site = siteOf(url);
  const own = site ? exampleUrls.filter((saved) => siteOf(saved) === site).length : 0;
  const labeled = Math.min(own, total); // an example still waiting to be counted is not yet
  return { pages: total, labeled, dataset: total - labeled };
}

/** How many examples one examples.list asks for (a reply must stay under 1 MiB). */
const LIST_PAGE = 1000;

/** How long the reader view waits for the saved examples before it says less. */
const SOURCES_TIMEOUT_MS = 3000;

/**
 * {pages, labeled, dataset} of `url`'s site adaptation (adaptationSplit), the saved examples
 * read from `host`; the bare count of pages when they cannot be read in `timeoutMs` (the
 * reader view waits for them: a busy examples database must not hold it up). Only for a
 * result without stats.site_examples (adaptationOf): an older host, or an older site file.
 */
export async function adaptationSources(pages, url, host, { timeoutMs = SOURCES_TIMEOUT_MS } = {}) {
  const urls = [];
  try {
    for (let offset = 0; ; offset += LIST_PAGE) {
      const reply = await host.request(examplesRequest("list", { limit: LIST_PAGE, offset }), { timeoutMs });
      const items = Array.isArray(reply?.items) ? reply.items : [];
      urls.push(...items.map((item) => String(item?.url ?? "")));
      if (items.length < LIST_PAGE || offset + LIST_PAGE >= Number(reply?.total)) break;
    }
  } catch {
    return pages || true;
  }
  return adaptationSplit(pages, urls, url);
}

/**
 * The options page's training port: {train: {...}} starts training; the port receives
 * {type: "progress"|"trained"|"error", ...}. The last state is kept in storage.local under
 * TRAINING_KEY, so a reopened options page shows how the last training went.
 */
export function onTrainPort(port, { api, hostClient }) {
  if (port.name !== TRAIN_PORT) return false;
  let open = true;
  port.onDisconnect.addListener(() => { open = false; });
  const post = (message) => {
    if (open) {
      try {
        port.postMessage(message);
      } catch {
        open = false;
      }
    }
  };
  const remember = (state) => api.storage.local.set({ [TRAINING_KEY]: { ...state, at: Date.now() } }).catch(() => {});
  port.onMessage.addListener(async (message) => {
    if (!message?.train) return;
    const request = trainRequest(message.train);
    await remember({ state: "running", stage: "starting", done: 0, total: 0 });
    try {
      const settings = await loadSettings(api.storage.local);
      const host = await hostClient(settings);
      const reply = await host.request(request, {
        timeoutMs: TRAIN_TIMEOUT_MS,
        onProgress: (progress) => {
          post(progress);
          remember({ state: "running", stage: progress.stage, done: progress.done, total: progress.total });
        },
      });
      await remember({ state: "trained", algorithm: reply.algorithm, pages: reply.pages, rules: reply.rules, modelPath: reply.modelPath });
      post(reply);
    } catch (err) {
      const error = err instanceof BlocksiftError ? err.toJSON() : { message: String(err?.message ?? err), code: LOCAL_ERRORS.BAD_REPLY };
      await remember({ state: "error", error });
      post({ type: "error", ...error });
    }
  });
  return true;
}
