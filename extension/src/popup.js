// Toolbar popup: the three actions, the algorithm and its main params, and the per-site rule.
// Opened as a page with ?tab=<id> (or ?tabUrl=<url>) it acts on that tab instead of the
// active one; tests and the latency benchmark drive it that way.

import { api } from "./api.js";
import { MSG, algorithmForAction } from "./protocol.js";
import {
  loadSettings, removeRule, ruleFor, saveSettings, siteOf, upsertRule,
} from "./settings.js";
import { ask, el, renderError, renderParams } from "./ui.js";

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const asPage = query.has("tab") || query.has("tabUrl");

let settings;
let tab;
let algorithms = [];
let busy = false;

function status(value) {
  document.documentElement.dataset.blocksiftStatus = value;
}

async function targetTab() {
  if (query.has("tab")) return api.tabs.get(Number(query.get("tab")));
  if (query.has("tabUrl")) {
    const wanted = query.get("tabUrl");
    const tabs = await api.tabs.query({});
    const matching = tabs.filter((t) => t.url === wanted);
    matching.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0));
    if (!matching.length) throw new Error(`no tab shows ${wanted}`);
    return matching[0];
  }
  const [active] = await api.tabs.query({ active: true, currentWindow: true });
  return active;
}

function showResult(outcome) {
  const box = $("result");
  box.classList.toggle("bad", outcome.status === "error");
  box.dataset.status = outcome.status;
  const ms = typeof outcome.ms === "number" ? ` in ${Math.round(outcome.ms)} ms` : "";
  switch (outcome.status) {
    case "hidden":
      box.textContent = `Hid ${outcome.count} piece${outcome.count === 1 ? "" : "s"} of clutter${ms}. Press again to undo.`
        + (outcome.restraint
          ? ` Only ${outcome.restrainedTo || "ads and banners"} were hidden: ${outcome.restraint}.` : "");
      break;
    case "restored":
      box.textContent = "Page restored.";
      break;
    case "overlay":
      box.textContent = `Outlined ${outcome.count} part${outcome.count === 1 ? "" : "s"} of the page${ms}.`;
      break;
    case "overlay-cleared":
      box.textContent = "Outlines removed.";
      break;
    case "reader":
      box.textContent = "Opening the reader view…";
      break;
    case "not-suitable":
      box.textContent = outcome.message;
      break;
    case "error":
      renderError(box, outcome.error);
      break;
    default:
      box.textContent = outcome.status;
  }
}

function showToggles(state) {
  // both as the page has them (background.js finish); an older state: the last action's
  const hidden = typeof state?.hidden === "boolean" ? state.hidden : state?.status === "hidden";
  const overlay = typeof state?.overlay === "boolean" ? state.overlay : state?.status === "overlay";
  $("act-hide").setAttribute("aria-pressed", String(hidden));
  $("act-hide").querySelector(".label").textContent = hidden ? "Show the page as it was" : "Hide clutter";
  $("act-overlay").setAttribute("aria-pressed", String(overlay));
  $("act-overlay").querySelector(".label").textContent = overlay ? "Remove the outlines" : "Show what was found";
}

async function act(action) {
  if (busy || !tab) return;
  busy = true;
  status("working");
  const startedAt = Date.now();
  for (const button of document.querySelectorAll(".actions button")) button.disabled = true;
  $("result").textContent = "Working…";
  let outcome;
  try {
    outcome = await ask(MSG.RUN, {
      action, tabId: tab.id, startedAt,
      algorithm: settings.algorithm, params: settings.params[settings.algorithm] ?? {},
    });
  } catch (err) {
    outcome = { status: "error", error: { message: err.message, code: err.code, hint: err.hint } };
  }
  busy = false;
  for (const button of document.querySelectorAll(".actions button")) button.disabled = false;
  showResult(outcome);
  showToggles(outcome);
  status(outcome.status === "error" ? "error" : "done");
  if (outcome.status === "reader" && !asPage) window.close();
}

// -- "Label this page" (labeling.js in the background, labeler.js on the page) --
async function label() {
  if (busy || !tab) return;
  busy = true;
  status("working");
  $("result").textContent = "Starting the labeler…";
  let outcome;
  try {
    // The labeler starts from the algorithm selected here (the background falls back to "auto").
    const chosen = $("algorithm").value;
    outcome = await ask(MSG.LABEL, { tabId: tab.id, startedAt: Date.now(),
      algorithm: chosen || undefined, params: settings.params[chosen] ?? {} });
  } catch (err) {
    outcome = { status: "error", error: { message: err.message, code: err.code, hint: err.hint } };
  }
  busy = false;
  const box = $("result");
  box.dataset.status = outcome.status;
  box.classList.toggle("bad", outcome.status !== "labeling");
  if (outcome.status === "labeling" && outcome.resumed) {
    box.textContent = "Still labeling this page: your marks are kept. To start over, press Cancel on the page's toolbar, then label again.";
  } else if (outcome.status === "labeling") {
    box.textContent = `Labeling with ${outcome.main} element${outcome.main === 1 ? "" : "s"} of main text from ${outcome.algorithm}: use the toolbar on the page.`;
  } else if (outcome.status === "refused") {
    box.textContent = outcome.message;
  } else {
    renderError(box, outcome.error);
  }
  status(outcome.status === "labeling" ? "done" : outcome.status === "refused" ? "refused" : "error");
  if (outcome.status === "labeling" && !asPage) window.close();
}

function renderAlgorithms() {
  const select = $("algorithm");
  const names = algorithms.length ? algorithms.map((a) => a.name) : [settings.algorithm];
  select.replaceChildren(...names.map((name) => el("option", { value: name, text: name })));
  select.value = names.includes(settings.algorithm) ? settings.algorithm : names[0];
  const info = algorithms.find((a) => a.name === select.value);
  $("algorithm-summary").textContent = info ? `${info.summary}` : "";
  showMethods(select.value);
  renderParams($("params"), info?.paramsSchema, settings.params[select.value] ?? {}, async (values) => {
    settings = await saveSettings(api.storage.local, { ...settings, params: { ...settings.params, [select.value]: values } });
    await refreshRule();
  });
}

/** Each action says which methods it runs: the reader the chosen one; hiding and outlining
 * the host's hide plan, which protects the chosen main text and takes linkblocks' link blocks
 * as one signal (the background applies the same rule, algorithmForAction). */
function showMethods(chosen) {
  for (const action of ["reader", "hide", "overlay"]) {
    const main = algorithmForAction(action, chosen);
    $(`uses-${action}`).textContent = action === "reader" ? `uses ${main}`
      : `uses ${main} (main text) + linkblocks`;
  }
}

async function refreshRule() {
  // A rule stores the algorithm and params in use when it was set; keep it in step.
  const rule = ruleFor(settings, tab?.url);
  if (rule) {
    settings = await saveSettings(api.storage.local, upsertRule(settings, {
      ...rule, algorithm: settings.algorithm, params: settings.params[settings.algorithm] ?? {},
    }));
  }
}

function renderRule() {
  const site = siteOf(tab?.url);
  $("always-site").textContent = site ?? "this site";
  $("always").disabled = !site;
  const rule = site ? ruleFor(settings, tab.url) : null;
  $("always").checked = Boolean(rule);
  if (rule) $("always-action").value = rule.action;
}

async function onAlwaysChange() {
  const site = siteOf(tab?.url);
  if (!site) return;
  if ($("always").checked) {
    // The rule runs on page load, which needs the site's permission: ask now, in the click.
    // Match patterns leave the port out (any port matches; Firefox refuses one).
    const { protocol, hostname } = new URL(tab.url);
    const wanted = { origins: [`${protocol}//${hostname}/*`] };
    let granted = false;
    try {
      granted = await api.permissions.request(wanted);
    } catch {
      // Not in a user gesture (keyboard-less automation): fine if already granted.
      granted = await api.permissions.contains(wanted).catch(() => false);
    }
    if (!granted) {
      $("always").checked = false;
      $("result").textContent = `blocksift needs permission to run on ${site} by itself.`;
      return;
    }
    settings = await saveSettings(api.storage.local, upsertRule(settings, {
      site, action: $("always-action").value, algorithm: settings.algorithm,
      params: settings.params[settings.algorithm] ?? {},
    }));
    $("result").textContent = `blocksift will ${$("always-action").value === "hide" ? "hide clutter" : "open the reader view"} on ${site} by itself.`;
  } else {
    settings = await saveSettings(api.storage.local, removeRule(settings, site));
  }
}

async function checkHost() {
  const box = $("host-status");
  try {
    const { hello } = await ask(MSG.HOST_INFO);
    algorithms = hello.algorithms ?? [];
    box.classList.remove("bad");
    box.textContent = `Host ${hello.hostVersion} · ${algorithms.length} algorithm${algorithms.length === 1 ? "" : "s"}`;
    box.dataset.state = "ok";
  } catch (err) {
    box.classList.add("bad");
    renderError(box, err);
    box.dataset.state = err.code ?? "error";
  }
  renderAlgorithms();
}

async function main() {
  status("loading");
  settings = await loadSettings(api.storage.local);
  try {
    tab = await targetTab();
  } catch (err) {
    $("result").textContent = String(err.message ?? err);
  }
  $("site").textContent = siteOf(tab?.url) ?? "";
  renderRule();
  renderAlgorithms();
  const state = tab ? await ask(MSG.TAB_STATE, { tabId: tab.id }).catch(() => null) : null;
  showToggles(state);
  if (state?.status && state.status !== "reader") showResult(state);
  // The reader view opened in the tab (its text still on the way): nothing more to see here.
  api.runtime.onMessage.addListener((message, sender) => {
    if (sender?.tab) return; // the background's word only, never a page's content script
    if (message?.type !== MSG.READER_OPENING || message.tabId !== tab?.id || !busy) return;
    $("result").textContent = "Opening the reader view…";
    status("reader-opening");
    if (!asPage) window.close();
  });
  $("act-reader").addEventListener("click", () => act("reader"));
  $("act-hide").addEventListener("click", () => act("hide"));
  $("act-overlay").addEventListener("click", () => act("overlay"));
  $("act-label").addEventListener("click", () => label());
  $("algorithm").addEventListener("change", async () => {
    settings = await saveSettings(api.storage.local, { ...settings, algorithm: $("algorithm").value });
    renderAlgorithms();
    await refreshRule();
  });
  $("always").addEventListener("change", onAlwaysChange);
  $("always-action").addEventListener("change", () => {
    if ($("always").checked) onAlwaysChange();
  });
  $("open-options").addEventListener("click", (event) => {
    event.preventDefault();
    api.runtime.openOptionsPage();
    if (!asPage) window.close();
  });
  try {
    const commands = await api.commands.getAll();
    const keys = Object.fromEntries(commands.map((c) => [c.name, c.shortcut]));
    const parts = [];
    if (keys["reader-view"]) parts.push(`${keys["reader-view"]} reader`);
    if (keys["hide-link-blocks"]) parts.push(`${keys["hide-link-blocks"]} hide`);
    $("shortcuts").textContent = parts.join(" · ");
  } catch {
    // commands API unavailable: keep the static hint
  }
  status("ready");
  // no status after the host check: an action clicked meanwhile owns the status now
  await checkHost();
  document.documentElement.dataset.blocksiftHost = $("host-status").dataset.state;
}

main();
