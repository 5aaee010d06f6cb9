// Background (service worker in Chromium, event page in Firefox): one async dispatcher for
// the popup, options and reader pages, keyboard commands and per-site rules. It injects the
// page agent only when the user acts, talks to the host through one HostClient per life of
// the background, and keeps every bit of state that must survive its own restart in
// storage (the browser may stop it at any time).

import { agentCall } from "./agent.js";
import { api, lastErrorMessage } from "./api.js";
import { HostClient, nativePortFactory, websocketPortFactory } from "./hostclient.js";
import {
  BlocksiftError, HOST_NAME, INSTALL_COMMAND, LOCAL_ERRORS, MSG, algorithmForAction,
  exportRequest, extractRequest, helloRequest, hidePlanIds, hintCommand, paperOverlayItems,
  planOverlayItems,
} from "./protocol.js";
import {
  SETTINGS_KEY, choiceFor, isPrivateRequest, loadSettings, normalizeSettings, ruleFor,
} from "./settings.js";
import { adaptationOf, examplesCall, onTrainPort, saveExample, startLabeling } from "./labeling.js";
import { mayHandle, senderKind } from "./trust.js";
import { textFramesOnly } from "./readerframes.js";

/**
 * Hides what the agent marked; injected as a user stylesheet so pages cannot override it
 * (a user sheet's !important beats the page's). A page that a hidden dialog had locked
 * (html or body `overflow: hidden`, body `position: fixed`: a consent platform's lock while
 * its message shows) scrolls again: the agent marks `<html>` so only then. The room the
 * page kept at the window's edge for a bar it hides (a cookie banner's padding at the body's
 * bottom) goes with it, likewise only where the agent marks `<html>` (data-blocksift-unpad).
 */
const HIDE_CSS = "[data-blocksift-hide] { display: none !important; }\n"
  + "html[data-blocksift-unlock] { overflow: auto !important; height: auto !important; }\n"
  + "html[data-blocksift-unlock] > body { overflow: visible !important; height: auto !important; }\n"
  + "html[data-blocksift-unlock=\"fixed\"] > body { position: static !important; }\n"
  + "html[data-blocksift-unpad~=\"html-top\"] { padding-top: 0 !important; }\n"
  + "html[data-blocksift-unpad~=\"html-bottom\"] { padding-bottom: 0 !important; }\n"
  + "html[data-blocksift-unpad~=\"body-top\"] > body { padding-top: 0 !important; }\n"
  + "html[data-blocksift-unpad~=\"body-bottom\"] > body { padding-bottom: 0 !important; }";
const STATS_KEY = "stats";

let client = null;
let clientKey = "";
/** tabId -> id of the extract request in flight for it (cancelled when superseded). */
const inflight = new Map();

// -- stats kept across restarts (tests read them; people see them in the options page) ---

let statsQueue = Promise.resolve();
function bumpStats(changes) {
  statsQueue = statsQueue.then(async () => {
    const stored = (await api.storage.local.get(STATS_KEY))[STATS_KEY] ?? {};
    const next = { ...stored };
    for (const [key, value] of Object.entries(changes)) {
      next[key] = typeof value === "number" && key.endsWith("Count") ? (stored[key] ?? 0) + value : value;
    }
    await api.storage.local.set({ [STATS_KEY]: next });
  }).catch(() => {});
  return statsQueue;
}
bumpStats({ backgroundStartCount: 1, backgroundStartedAt: Date.now() });

function recordHostEvent(event) {
  if (event.type === "connect") bumpStats({ hostConnectCount: 1 });
  else if (event.type === "hello") bumpStats({ hostVersion: event.hostVersion });
  else if (event.type === "disconnect") {
    bumpStats({ hostDisconnectCount: 1, lastDisconnect: { reason: event.reason, code: event.code, at: Date.now() } });
  }
}

/** Identity of a transport setting (storage may hand keys back in another order). */
function transportKey(transport) {
  const t = normalizeSettings({ transport }).transport;
  return JSON.stringify([t.kind, t.wsUrl, t.wsToken]);
}

async function hostClient(settings) {
  const key = transportKey(settings.transport);
  if (client && key === clientKey) return client;
  client?.close("transport changed");
  const openPort = settings.transport.kind === "websocket"
    ? websocketPortFactory(settings.transport.wsUrl, settings.transport.wsToken)
    : nativePortFactory(api, HOST_NAME, lastErrorMessage);
  client = new HostClient({ openPort, onEvent: recordHostEvent });
  clientKey = key;
  return client;
}

// -- the page agent ------------------------------------------------------------------------

async function callAgent(tabId, method, ...args) {
  const [first] = await api.scripting.executeScript({ target: { tabId }, func: agentCall, args: [method, args] });
  if (first?.error) throw new BlocksiftError(String(first.error?.message ?? first.error), { code: LOCAL_ERRORS.PAGE });
  const answer = first?.result;
  if (answer?.ok === true) return answer.value;
  throw new BlocksiftError(answer?.error ?? "the page did not answer (it may be changing or gone)",
    { code: LOCAL_ERRORS.PAGE });
}

/** The first call on a page: the browser refuses some pages (its own, the web stores).
 * `look` (reader only): the reader's theme, font and size, for the loading state drawn at once. */
async function beginOnPage(tabId, action, redraw = false, look = null) {
  try {
    return await callAgent(tabId, "begin", action, redraw, look);
  } catch (err) {
    // the page answered with a reason (callAgent's own errors), or the browser refused it
    const why = err instanceof BlocksiftError ? `: ${err.message}.`
      : ` (${err?.message ?? err}). Browser pages, the web store and pages of other extensions are off limits.`;
    throw new BlocksiftError(`blocksift cannot work on this page${why}`, { code: LOCAL_ERRORS.PAGE });
  }
}

async function setTabState(tabId, state) {
  await api.storage.session.set({ [`tab:${tabId}`]: { ...state, at: Date.now() } });
}

async function tabState(tabId) {
  return (await api.storage.session.get(`tab:${tabId}`))[`tab:${tabId}`] ?? null;
}

// -- actions ---------------------------------------------------------------------------------

/**
 * Run an action on a tab: "hide" (toggle), "overlay" (toggle) or "reader".
 * Resolves with {status, count?, ms?, error?}; page status goes to <html data-blocksift-*>.
 */
async function run({ action, tabId, algorithm, params, mode, startedAt = Date.now() }) {
  if (!["hide", "overlay", "reader"].includes(action)) throw new BlocksiftError(`unknown action ${action}`);
  const ranAt = Date.now();
  const [tab, settings, look] = await Promise.all([
    api.tabs.get(tabId), loadSettings(api.storage.local), action === "reader" ? readerLook() : null,
  ]);
  if (tab.incognito && !settings.privacy.runInPrivate) {
    throw new BlocksiftError("blocksift is switched off for private windows (see its options).", { code: "disabled" });
  }
  const host = await hostClient(settings);
  host.connect().catch(() => {}); // a cold host starts while the page is being snapshotted
  // An overlay mode switch (from the overlay's legend) redraws instead of toggling off.
  const { state: agentState, snapshot: snap } = await beginOnPage(tabId, action, action === "overlay" && Boolean(mode), look);
  const snapshotAt = Date.now();

  // Toggles: pressing again restores the page.
  if (action === "hide" && agentState?.hidden) {
    await api.scripting.removeCSS({ target: { tabId }, css: HIDE_CSS, origin: "USER" });
    const count = await callAgent(tabId, "unmarkHidden");
    const outcome = { status: "restored", action, count, ms: Date.now() - startedAt };
    await finish(tabId, outcome);
    return outcome;
  }
  if (action === "overlay" && agentState?.overlay && !mode) {
    const count = await callAgent(tabId, "clearOverlay");
    const outcome = { status: "overlay-cleared", action, count, ms: Date.now() - startedAt };
    await finish(tabId, outcome);
    return outcome;
  }

  let earlyReader = false;
  // Where a reader view's time goes, from the click (the reader adds its own phases).
  const since = (at) => (at ? at - startedAt : null);
  const phases = { background: since(ranAt), agent: since(snap?.beganAt), cover: since(snap?.coverAt), snapshot: since(snapshotAt) };
  try {
    if (action === "reader") {
      // The reader view opens at once with the page's title and a loading state; the text
      // replaces it when the host answers (a cold host takes a second to start).
      // The page already shows that state itself (the agent drew it before the snapshot).
      await api.storage.session.set({ [readerKey(tabId)]: { pending: true, url: snap.url, title: snap.title, lang: snap.lang, startedAt, phases } });
      phases.navigate = Date.now() - startedAt;
      await api.tabs.update(tabId, { url: readerUrl(tabId, { title: snap.title, url: snap.url, startedAt, coverAt: snap.coverAt, look }) });
      earlyReader = true;
      // The popup closes now rather than cover the loading reader view until the text is in.
      Promise.resolve(api.runtime.sendMessage({ type: MSG.READER_OPENING, tabId })).catch(() => {});
    }
    const choice = choiceFor(settings, snap.url);
    const hello = await host.connect();
    const paper = action === "overlay" && mode === "paper";
    const wanted = algorithmForAction(action, algorithm || choice.algorithm, paper);
    const chosen = algorithmOffered(hello, wanted);
    const request = extractRequest({
      // The host decides what to hide (its hide plan); the paper's blocks only on request.
      // The reader needs only the page's kind from it (a host without "reader": the plan).
      action: paper ? "extract"
        : action === "reader" && (hello?.actions ?? []).includes("reader") ? "reader" : "hide",
      url: settings.privacy.sendUrl ? snap.url : null,
      html: snap.html,
      algorithm: chosen,
      // Params belong to one algorithm: a fallback runs with its own defaults.
      params: chosen === (algorithm || choice.algorithm) ? (params ?? choice.params) : {},
      want: action === "reader" ? ["main"] : ["blocks"],
      isPrivate: isPrivateRequest(settings, tab.incognito),
      learnSite: settings.privacy.learnSites,
    });
    const previous = inflight.get(tabId);
    if (previous) host.cancel(previous);
    inflight.set(tabId, request.id);
    let reply;
    try {
      // "stage=host": the request is with the host (tests kill the host at this point).
      reply = await host.request(request, {
        // (not on a page being replaced by the reader view: it would only cost CPU)
        onSent: earlyReader ? undefined
          : () => callAgent(tabId, "setStatus", "working", { action, stage: "host" }).catch(() => {}),
      });
    } finally {
      if (inflight.get(tabId) === request.id) inflight.delete(tabId);
    }
    const result = reply.result;
    const plan = reply.hide ?? reply.page ?? null;
    const base = { action, algorithm: result.algorithm, hostMs: reply.timing?.totalMs ?? null, bytes: snap.html.length };
    if (earlyReader && (result.status !== "ok" || !result.main || (!result.main.html && !result.main.text))) {
      const message = result.status !== "ok"
        ? result.message || `${result.algorithm} found nothing to work with on this page.`
        : "No main text was found on this page.";
      await api.storage.session.set({ [readerKey(tabId)]: { url: snap.url, title: snap.title, startedAt, notice: { title: "No reader view", message } } });
      const outcome = { ...base, status: "not-suitable", message, ms: Date.now() - startedAt };
      await setTabState(tabId, outcome);
      return outcome;
    }
    if (result.status !== "ok") {
      const outcome = { ...base, status: "not-suitable", message: result.message || `${result.algorithm} found nothing to work with on this page.` };
      await callAgent(tabId, "toast", "Nothing to do here", { detail: outcome.message, kind: "info" });
      await finish(tabId, { ...outcome, ms: Date.now() - startedAt });
      return outcome;
    }
    if (action === "hide") {
      const ids = hidePlanIds(plan);
      // The host may hold back (only ads and banners, say) where it could damage the page; say
      // why, and what it still hides (a host before restrainedTo hid ads and banners only).
      const restraint = typeof plan?.restraint === "string" ? plan.restraint : "";
      const restrainedTo = restraint
        ? (typeof plan?.restrainedTo === "string" && plan.restrainedTo) || "ads and banners" : "";
      if (!ids.length) {
        // (said of the plan, which hides nothing: not that the page has no header or banner,
        // which hide may only have failed to recognise)
        // Held back, the page may well hold clutter hide left: "Nothing hidden", not "Nothing
        // to hide", over why, and what it would still have hidden (the toast's title says
        // what the popup's message starts with, which stands alone).
        const why = restraint
          ? `Hide holds back on this page: ${restraint}. So it hides only clear clutter, such as ads and banners, and found none.`
          : "";
        const message = restraint
          ? `Nothing hidden. ${why}`
          : "Nothing outside the main text looks like a link block, ad or banner here.";
        const outcome = { ...base, status: "not-suitable", message, restraint, restrainedTo };
        await callAgent(tabId, "toast", restraint ? "Nothing hidden" : "Nothing to hide",
          { detail: restraint ? why : outcome.message, kind: "info" });
        await finish(tabId, { ...outcome, ms: Date.now() - startedAt });
        return outcome;
      }
      // Marks and style sheet in parallel: the rule only matches marked elements.
      const [count] = await Promise.all([
        callAgent(tabId, "markHidden", ids),
        api.scripting.insertCSS({ target: { tabId }, css: HIDE_CSS, origin: "USER" }),
      ]);
      if (!count) {
        // The page replaced what the host named since the snapshot (a script re-drew it):
        // nothing is hidden, and the popup must not offer to undo it.
        await api.scripting.removeCSS({ target: { tabId }, css: HIDE_CSS, origin: "USER" }).catch(() => {});
        const message = "Nothing hidden: the page changed while its link blocks were being found. Try again.";
        const outcome = { ...base, status: "not-suitable", message, restraint, restrainedTo };
        await callAgent(tabId, "toast", "Nothing hidden", { detail: message, kind: "info" });
        await finish(tabId, { ...outcome, ms: Date.now() - startedAt });
        return outcome;
      }
      const outcome = { ...base, status: "hidden", count, restraint, restrainedTo, ms: Date.now() - startedAt };
      await finish(tabId, outcome);
      return outcome;
    }
    if (action === "overlay") {
      const items = paper ? paperOverlayItems(result) : planOverlayItems(plan);
      const count = await callAgent(tabId, "drawOverlay", items, paper ? "paper" : "explained");
      if (!count) {
        // None of the parts the host named is in the page any more (a script re-drew it
        // since the snapshot), or it named none: no empty legend, and the next press draws
        // again instead of "removing" outlines that were never there.
        // Blocks that are all in the page but show nothing (an empty or hidden main text on
        // a page whose content never loaded, wcxb-dev 4168) are no change of the page: "Try
        // again" would only say the same again.
        const unseen = items.length ? await callAgent(tabId, "overlayUnseen") : 0;
        await callAgent(tabId, "clearOverlay");
        const message = !items.length ? "Nothing to outline: no blocks were found on this page."
          : unseen === items.length ? "Nothing to outline: the blocks found on this page show nothing (they are empty or hidden)."
            : "Nothing outlined: the page changed while its blocks were being found. Try again.";
        const outcome = { ...base, status: "not-suitable", message };
        await callAgent(tabId, "toast", "Nothing outlined", { detail: message, kind: "info" });
        await finish(tabId, { ...outcome, ms: Date.now() - startedAt });
        return outcome;
      }
      const outcome = { ...base, status: "overlay", count, ms: Date.now() - startedAt };
      await finish(tabId, outcome);
      return outcome;
    }
    const main = result.main;
    if (!main || (!main.html && !main.text)) {
      const outcome = { ...base, status: "not-suitable", message: "No main text was found on this page." };
      await callAgent(tabId, "toast", "No reader view", { detail: outcome.message, kind: "info" });
      await finish(tabId, { ...outcome, ms: Date.now() - startedAt });
      return outcome;
    }
    await api.storage.session.set({
      [readerKey(tabId)]: {
        // An index page's title is its own, not its first story's headline.
        url: snap.url,
        title: (plan?.pageKind === "index" ? snap.title
          : main.metadata?.title || main.title) || snap.title,
        lang: main.metadata?.language || snap.lang, algorithm: result.algorithm,
        html: main.html, text: main.text, startedAt, hostMs: base.hostMs,
        pageKind: plan?.pageKind ?? "article", index: plan?.index ?? [],
        // an index page that says it sells (host: index_prices.sale_cues): its products
        sells: plan?.sells === true,
        metadata: main.metadata ?? null,
        // auto adapted to the site from labeled pages of it (stage "site"): the reader says
        // so, how many the user labeled and how many came from a dataset (the host's
        // stats.site_examples; an older host's result: the saved examples are listed)
        adaptedFrom: result.stage === "site" ? await adaptationOf(result.stats, snap.url, host) : null,
        // the frames it could not read that might have held text (no ads, buttons or strips)
        unreachable: textFramesOnly(snap.unreachable, snap.html, snap.url),
        phases: { ...phases, answered: Date.now() - startedAt },
      },
    });
    if (!earlyReader) await api.tabs.update(tabId, { url: readerUrl(tabId) });
    // The page is being replaced: record the outcome, but do not write into the old page.
    const outcome = { ...base, status: "reader", ms: Date.now() - startedAt };
    await setTabState(tabId, outcome);
    return outcome;
  } catch (err) {
    const error = err instanceof BlocksiftError ? err : new BlocksiftError(String(err?.message ?? err));
    const outcome = { status: "error", action, error: error.toJSON(), ms: Date.now() - startedAt };
    if (action === "reader" && !earlyReader) await callAgent(tabId, "clearCover").catch(() => {});
    if (earlyReader) {
      // The page is already the reader view: the message goes there.
      await api.storage.session.set({ [readerKey(tabId)]: { url: snap.url, title: snap.title, startedAt, notice: {
        title: error.code === LOCAL_ERRORS.HOST_MISSING ? "blocksift host not installed" : "blocksift could not finish",
        message: error.message, command: error.code === LOCAL_ERRORS.HOST_MISSING ? INSTALL_COMMAND : hintCommand(error.hint), error: true,
      } } }).catch(() => {});
      await setTabState(tabId, outcome).catch(() => {});
      return outcome;
    }
    try {
      if (error.code === LOCAL_ERRORS.HOST_MISSING) {
        await callAgent(tabId, "toast", "blocksift host not installed",
          { detail: "The extension needs its host program. Install it, then try again:", command: INSTALL_COMMAND });
      } else {
        await callAgent(tabId, "toast", "blocksift could not finish",
          { detail: error.message, command: hintCommand(error.hint) });
      }
      await finish(tabId, outcome);
    } catch {
      // the page went away; the popup still shows the error
    }
    return outcome;
  }
}

function readerKey(tabId) {
  return `reader:${tabId}`;
}

const READER_PREFS_KEY = "readerPrefs"; // reader.js keeps the reader's look there

/** The reader's theme, font and size: its loading state looks like it from the first frame. */
async function readerLook() {
  try {
    const prefs = (await api.storage.local.get(READER_PREFS_KEY))[READER_PREFS_KEY] ?? {};
    return { theme: prefs.theme ?? "light", font: prefs.font ?? "serif", size: prefs.size ?? 20 };
  } catch {
    return { theme: "light", font: "serif", size: 20 };
  }
}

function readerUrl(tabId, loading = null) {
  // The title, site, look and click time ride in the address, so the reader's first script
  // shows the title and a loading state before its modules or storage are read (readerboot.js).
  const query = loading ? `?${new URLSearchParams({
    title: String(loading.title || "").slice(0, 300),
    site: (() => { try { return new URL(loading.url).hostname.replace(/^www\./, ""); } catch { return ""; } })(),
    at: String(loading.startedAt ?? ""),
    cover: String(loading.coverAt ?? ""),
    theme: loading.look?.theme ?? "", font: loading.look?.font ?? "", size: String(loading.look?.size ?? ""),
  })}` : "";
  return api.runtime.getURL(`reader.html${query}#${encodeURIComponent(readerKey(tabId))}`);
}

/** The wanted algorithm if the host offers it, else the host's default (an older host). */
function algorithmOffered(hello, wanted) {
  const names = (hello?.algorithms ?? []).map((a) => a.name);
  if (!names.length || names.includes(wanted)) return wanted;
  return names.includes(hello.defaultAlgorithm) ? hello.defaultAlgorithm : names[0];
}

async function finish(tabId, outcome) {
  const details = {
    stage: null, action: outcome.action, count: outcome.count ?? null, ms: outcome.ms ?? null,
    bytes: outcome.bytes ?? null, "host-ms": outcome.hostMs ?? null,
    error: outcome.error?.message ?? outcome.message ?? null, "error-code": outcome.error?.code ?? null,
    restraint: outcome.restraint || null, "restrained-to": outcome.restrainedTo || null,
  };
  await callAgent(tabId, "setStatus", outcome.status, details);
  // Hide and the overlay are on and off independently (the outlines drawn over a hidden page
  // leave it hidden): the popup shows both as the page has them, not only the last action's.
  const live = await callAgent(tabId, "state").catch(() => null);
  if (live) Object.assign(outcome, { hidden: Boolean(live.hidden), overlay: Boolean(live.overlay) });
  await setTabState(tabId, outcome);
  await api.action.setBadgeText({ tabId, text: outcome.status === "error" ? "!" : "" }).catch(() => {});
}

async function activeTabId() {
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

// -- wiring ------------------------------------------------------------------------------

/** The extension's own pages (popup, options, reader, examples) start with this URL. */
const EXTENSION_URL = api.runtime.getURL("");

function refuseUntrusted(message, sender) {
  if (mayHandle(message, sender, api.runtime.id, EXTENSION_URL)) return;
  throw new BlocksiftError(`${message?.type ?? "this message"} is accepted only from the extension's own pages`,
    { code: "forbidden", hint: "a web page or a content script cannot ask for it" });
}

async function handle(message, sender) {
  refuseUntrusted(message, sender);
  switch (message?.type) {
    case MSG.RUN:
      // The overlay's own buttons send from the page: the tab is the sender's.
      return run({ ...message, tabId: message.tabId ?? sender?.tab?.id });
    case MSG.TAB_STATE:
      return tabState(message.tabId);
    case MSG.HOST_INFO: {
      const settings = await loadSettings(api.storage.local);
      const host = await hostClient(settings);
      await host.connect();
      // A fresh hello, not the connection's first: store problems may have appeared since.
      return { hello: await host.request(helloRequest()) };
    }
    case MSG.READER_BACK:
      await api.storage.session.set({ [`skipRule:${message.tabId}`]: message.url });
      return { ok: true };
    // -- labeling (labeling.js) --
    case MSG.LABEL:
      return startLabeling(message, labelingDeps);
    case MSG.LABEL_SAVE:
      return saveExample(message, sender, labelingDeps);
    case MSG.EXAMPLES:
      return examplesCall(message, labelingDeps);
    case MSG.EXPORT: {
      // reader "Save as ..." / options "export folder": the host writes the file
      const host = await hostClient(await loadSettings(api.storage.local));
      return host.request(exportRequest(message));
    }
    default:
      throw new BlocksiftError(`unknown message ${message?.type}`);
  }
}

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  handle(message, sender).then(
    (value) => sendResponse({ ok: true, value }),
    (err) => sendResponse({ ok: false, error: err instanceof BlocksiftError ? err.toJSON() : { message: String(err?.message ?? err), code: "internal" } }),
  );
  return true; // answer asynchronously
});

// -- labeling (labeling.js): what its functions need from here --
const labelingDeps = { api, hostClient, callAgent, beginOnPage };
api.runtime.onConnect.addListener((port) => {
  // Training is privileged: only the options page may open the port.
  if (senderKind(port.sender, api.runtime.id, EXTENSION_URL) !== "extension") {
    port.disconnect();
    return;
  }
  onTrainPort(port, labelingDeps);
});

api.commands.onCommand.addListener(async (command, tab) => {
  if (command === "label-page") {
    const tabId = tab?.id ?? await activeTabId();
    if (tabId === undefined) return;
    const outcome = await startLabeling({ tabId }, labelingDeps);
    // A refusal is said on the page, except in private windows (nothing is injected there).
    if (outcome.status === "refused" && outcome.code !== "private_window") {
      await callAgent(tabId, "toast", "Not labeling this page", { detail: outcome.message, kind: "info" }).catch(() => {});
    }
    return;
  }
  const action = { "reader-view": "reader", "hide-link-blocks": "hide", "show-blocks": "overlay" }[command];
  if (!action) return;
  const tabId = tab?.id ?? await activeTabId();
  if (tabId !== undefined) await run({ action, tabId });
});

// Per-site rules ("always do this on this site"): they need the site's host permission,
// which the popup requested when the user set the rule; without it tab.url is not visible.
api.tabs.onUpdated.addListener(async (tabId, changeInfo, tab) => {
  if (changeInfo.status === "loading") {
    inflight.delete(tabId);
    await api.storage.session.remove(`tab:${tabId}`);
    return;
  }
  if (changeInfo.status !== "complete" || !tab.url || !/^https?:/.test(tab.url)) return;
  const settings = await loadSettings(api.storage.local);
  const rule = ruleFor(settings, tab.url);
  if (!rule) return;
  const skipKey = `skipRule:${tabId}`;
  const skip = (await api.storage.session.get(skipKey))[skipKey];
  if (skip) {
    await api.storage.session.remove(skipKey);
    if (skip === tab.url) return; // the user came back from the reader view on purpose
  }
  await run({ action: rule.action, tabId });
});

api.tabs.onRemoved.addListener((tabId) => {
  const id = inflight.get(tabId);
  if (id && client) client.cancel(id);
  inflight.delete(tabId);
  api.storage.session.remove([`tab:${tabId}`, `reader:${tabId}`, `skipRule:${tabId}`]).catch(() => {});
});

// A changed transport takes effect on the next request.
api.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && changes[SETTINGS_KEY] && client) {
    const next = transportKey(changes[SETTINGS_KEY].newValue?.transport);
    if (next !== clientKey) {
      client.close("transport changed");
      client = null;
    }
  }
});
