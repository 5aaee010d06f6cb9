// Options page: default algorithm and params, per-site rules (listed, editable, one-click
// revert), transport and privacy switches. Every change is saved at once.

import { api } from "./api.js";
import { MSG } from "./protocol.js";
import { READER_KEYS } from "./readerkeys.js";
import { RULE_ACTIONS, loadSettings, removeRule, saveSettings, upsertRule } from "./settings.js";
import { ask, el, renderError, renderParams } from "./ui.js";

const $ = (id) => document.getElementById(id);
let settings;
let algorithms = [];
let hostAnswered = false; // whether `algorithms` is the host's list (its hello)

let saving = Promise.resolve();

/** How long "Saved." stays at the foot of the window. */
const SAVED_FOR_MS = 4000;
let savedTimer = 0;

/**
 * "Saved." (or `note`) at the foot of the window, for SAVED_FOR_MS: it stood at the page's top,
 * out of sight of a change further down, and stayed for good, so after the next change nothing
 * said whether that one was saved. A save while it still shows takes it away for a moment
 * first: the eye sees a new confirmation, and a screen reader says the words again. Clears the
 * error of a save before. <html data-blocksift-saved> is stamped once it shows.
 */
function showSaved(note) {
  const status = $("saved");
  clearTimeout(savedTimer);
  $("save-error").textContent = "";
  const show = () => {
    status.textContent = note;
    document.documentElement.dataset.blocksiftSaved = String(Date.now());
    savedTimer = setTimeout(() => { status.textContent = ""; }, SAVED_FOR_MS);
  };
  if (status.textContent) {
    status.textContent = "";
    savedTimer = setTimeout(show, 150);
  } else {
    show();
  }
}

/** "Not saved: …" at the foot of the window; it stays until a save works (never vanishes by itself). */
function showNotSaved(err) {
  clearTimeout(savedTimer);
  $("saved").textContent = "";
  $("save-error").textContent = `Not saved: ${err?.message ?? err}`;
  document.documentElement.dataset.blocksiftSaveError = String(Date.now());
}

/**
 * Save a change. `change` maps the current settings to the new ones; changes run one after
 * another, each on the result of the previous, so quick edits never overwrite each other.
 */
function save(change, note = "Saved.") {
  saving = saving.then(async () => {
    settings = await saveSettings(api.storage.local, change(settings));
    showSaved(note);
  }).catch(showNotSaved);
  return saving;
}

function algorithmNames() {
  const names = algorithms.map((a) => a.name);
  if (!names.includes(settings.algorithm)) names.unshift(settings.algorithm);
  return names;
}

function renderAlgorithm() {
  const select = $("algorithm");
  select.replaceChildren(...algorithmNames().map((name) => el("option", { value: name, text: name })));
  select.value = settings.algorithm;
  const info = algorithms.find((a) => a.name === settings.algorithm);
  $("algorithm-summary").textContent = info?.summary ?? "";
  $("algorithm-paper").textContent = info?.paper ? `Paper: ${info.paper}` : "";
  const values = settings.params[settings.algorithm] ?? {};
  if (!info) {
    // The parameters come with the host's hello: without it, say so and what is kept (it
    // said "This algorithm has no numeric parameters.", of linkblocks with c_t set).
    const kept = Object.entries(values).map(([k, v]) => `${k}=${v}`).join(", ");
    $("params").replaceChildren(el("p", { class: "muted", text: (hostAnswered
      ? `The host has no method named ${settings.algorithm}, so its parameters cannot be listed.`
      : `The host did not answer, so ${settings.algorithm}'s parameters cannot be listed here (Check again above).`)
      + (kept ? ` Your values are kept: ${kept}.` : "") }));
    return;
  }
  renderParams($("params"), info.paramsSchema, values, (next) =>
    save((s) => ({ ...s, params: { ...s.params, [s.algorithm]: next } })),
  { onInvalid: (message) => showNotSaved(new Error(message)) });
}

function renderRules() {
  const body = $("rules").querySelector("tbody");
  body.replaceChildren();
  $("no-rules").hidden = settings.rules.length > 0;
  $("rules").hidden = settings.rules.length === 0;
  for (const rule of settings.rules) {
    const action = el("select", { "aria-label": `Action on ${rule.site}` },
      RULE_ACTIONS.map((name) => el("option", { value: name, text: name === "hide" ? "hide link blocks" : "reader view" })));
    action.value = rule.action;
    action.addEventListener("change", () => {
      const value = action.value;
      save((s) => upsertRule(s, { ...rule, action: value }));
    });
    const algorithm = el("select", { "aria-label": `Algorithm on ${rule.site}` },
      [el("option", { value: "", text: `default (${settings.algorithm})` }),
        ...algorithmNames().map((name) => el("option", { value: name, text: name }))]);
    algorithm.value = rule.algorithm ?? "";
    algorithm.addEventListener("change", () => {
      const value = algorithm.value || null;
      save((s) => upsertRule(s, { ...rule, algorithm: value, params: {} }));
    });
    const params = Object.entries(rule.params).map(([k, v]) => `${k}=${v}`).join(", ") || "defaults";
    const revert = el("button", { type: "button", class: "revert", text: "Revert", title: `Remove the rule for ${rule.site}` });
    revert.addEventListener("click", async () => {
      await save((s) => removeRule(s, rule.site), `Rule for ${rule.site} removed.`);
      // The site permission was only asked for this rule; give it back.
      api.permissions.remove({ origins: [`*://${rule.site}/*`, `*://www.${rule.site}/*`] }).catch(() => {});
      renderRules();
    });
    body.append(el("tr", { "data-site": rule.site },
      el("td", { class: "site", text: rule.site }), el("td", {}, action), el("td", {}, algorithm),
      el("td", {}, el("code", { text: params })), el("td", { class: "actions-cell" }, revert)));
  }
}

function renderTransport() {
  for (const radio of document.querySelectorAll("input[name=transport]")) {
    radio.checked = radio.value === settings.transport.kind;
  }
  $("ws-fields").hidden = settings.transport.kind !== "websocket";
  $("ws-url").value = settings.transport.wsUrl;
  $("ws-token").value = settings.transport.wsToken;
}

function renderPrivacy() {
  $("send-url").checked = settings.privacy.sendUrl;
  $("always-private").checked = settings.privacy.alwaysPrivate;
  $("run-in-private").checked = settings.privacy.runInPrivate;
  $("learn-sites").checked = settings.privacy.learnSites;
}

async function renderStats() {
  const stats = (await api.storage.local.get("stats")).stats ?? {};
  const rows = [
    ["Host version", stats.hostVersion ?? "—"],
    ["Host connections", stats.hostConnectCount ?? 0],
    ["Last disconnect", stats.lastDisconnect ? `${stats.lastDisconnect.reason} (${new Date(stats.lastDisconnect.at).toLocaleString()})` : "—"],
  ];
  $("stats").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: String(v) })]));
}

const STORE_NAMES = { sites: "The learned site layouts", examples: "The examples database" };
const STORE_STATES = {
  replaced: "could not be read and was replaced by a fresh one",
  refused: "cannot be read; it is not used until it is repaired",
  repaired: "could not be read and was repaired",
};

/** Stores the host could not read: what was kept aside and how to restore it (never silent). */
function renderStoreProblems(problems) {
  const box = $("store-problems");
  box.hidden = problems.length === 0;
  document.documentElement.dataset.storeProblems = String(problems.length);
  box.replaceChildren(...problems.map((problem) => {
    const kept = problem.keptAside?.length ? ` Kept aside: ${problem.keptAside.join(", ")}.` : "";
    const item = el("div", { class: "store-problem" },
      el("strong", { text: `${STORE_NAMES[problem.store] ?? problem.store} ${STORE_STATES[problem.state] ?? ""}` }),
      el("p", { class: "small", text: `${problem.path}: ${problem.problem}.${kept}` }),
      el("p", { class: "small", text: problem.restore }));
    if (problem.store === "examples" && problem.state === "refused") {
      const button = el("button", { type: "button", id: "repair-examples", text: "Repair the examples database" });
      const result = el("p", { class: "small", role: "status", id: "repair-result" });
      button.addEventListener("click", async () => {
        button.disabled = true;
        result.textContent = "Repairing…";
        try {
          const value = await ask(MSG.EXAMPLES, { op: "repair" });
          result.textContent = value.damaged
            ? `Recovered ${value.recovered} example(s); the damaged file is kept at ${value.keptAside[0]}.`
            : "The database was readable; nothing to repair.";
          document.documentElement.dataset.repairStatus = "done";
        } catch (err) {
          renderError(result, err);
          document.documentElement.dataset.repairStatus = "error";
        }
        button.disabled = false;
      });
      item.append(button, result);
    }
    return item;
  }));
}

/**
 * Ask the host for its hello and show it. `all`: the other sections that ask the host follow
 * (the saved articles' folder here, the Examples list through "blocksift:host-checked"), as
 * after "Check again" or a change of the transport, which may reach another host or none.
 */
async function checkHost({ all = false } = {}) {
  const box = $("host-status");
  box.textContent = "Checking…";
  try {
    const { hello } = await ask(MSG.HOST_INFO);
    algorithms = hello.algorithms ?? [];
    hostAnswered = true;
    box.classList.remove("bad");
    box.textContent = `Connected: host ${hello.hostVersion}, protocol ${hello.protocol}, algorithms: ${algorithms.map((a) => a.name).join(", ")}`;
    renderStoreProblems(hello.storeProblems ?? []);
  } catch (err) {
    box.classList.add("bad");
    renderError(box, err);
  }
  renderAlgorithm();
  renderRules();
  await renderStats();
  if (all) {
    await renderExportFolder();
    document.dispatchEvent(new Event("blocksift:host-checked"));
  }
}

async function renderKeys() {
  const row = (list, key, description) => list.append(el("dt", {}, el("kbd", { text: key })), el("dd", { text: description }));
  const browserKeys = $("browser-keys");
  browserKeys.replaceChildren();
  try {
    for (const command of await api.commands.getAll()) {
      const description = command.name === "_execute_action" ? "Open the blocksift popup" : command.description;
      row(browserKeys, command.shortcut || "not set", description);
    }
  } catch {
    row(browserKeys, "—", "This browser does not list extension shortcuts.");
  }
  const readerKeys = $("reader-keys");
  readerKeys.replaceChildren();
  for (const entry of READER_KEYS.filter((item) => !item.hidden)) row(readerKeys, entry.label, entry.description);
}

async function exportFolder(folder) {
  const reply = await api.runtime.sendMessage({ type: MSG.EXPORT, kind: "folder", folder });
  if (!reply?.ok) throw new Error(reply?.error?.message ?? "The extension's background did not answer.");
  return reply.value.folder;
}

async function renderExportFolder() {
  const status = $("export-folder-status");
  try {
    const folder = await exportFolder();
    if (folder) $("export-folder").value = folder;
    status.textContent = folder ? "Articles are saved here." : "No folder chosen yet.";
  } catch (err) {
    status.textContent = `The host could not be asked: ${err.message ?? err}`;
  }
}

async function main() {
  settings = await loadSettings(api.storage.local);
  renderKeys();
  $("export-folder-save").addEventListener("click", async () => {
    const status = $("export-folder-status");
    try {
      const folder = await exportFolder($("export-folder").value.trim());
      $("export-folder").value = folder;
      status.textContent = `Articles will be saved in ${folder}.`;
      document.documentElement.dataset.blocksiftExportFolder = folder;
    } catch (err) {
      status.textContent = `Not changed: ${err.message ?? err}`;
    }
  });
  renderAlgorithm();
  renderRules();
  renderTransport();
  renderPrivacy();
  $("algorithm").addEventListener("change", async () => {
    const algorithm = $("algorithm").value;
    await save((s) => ({ ...s, algorithm }));
    renderAlgorithm();
    renderRules();
  });
  $("reset-params").addEventListener("click", async () => {
    await save((s) => ({ ...s, params: { ...s.params, [s.algorithm]: {} } }), "Settings reset to this method's defaults.");
    renderAlgorithm();
  });
  for (const radio of document.querySelectorAll("input[name=transport]")) {
    radio.addEventListener("change", async () => {
      await save((s) => ({ ...s, transport: { ...s.transport, kind: radio.value } }));
      $("ws-fields").hidden = settings.transport.kind !== "websocket";
      await checkHost({ all: true }); // the Host section said "Connected" to the one before
    });
  }
  // Values are read when the user changes them, not when the queued save runs (a re-render in
  // between would otherwise hand the save the old value).
  const privacy = (key, id) => {
    const value = $(id).checked;
    return save((s) => ({ ...s, privacy: { ...s.privacy, [key]: value } }));
  };
  const transport = async (key, id) => {
    const value = $(id).value;
    await save((s) => ({ ...s, transport: { ...s.transport, [key]: value } }));
    if (settings.transport.kind === "websocket") await checkHost({ all: true });
  };
  $("ws-url").addEventListener("change", () => transport("wsUrl", "ws-url"));
  $("ws-token").addEventListener("change", () => transport("wsToken", "ws-token"));
  $("send-url").addEventListener("change", () => privacy("sendUrl", "send-url"));
  $("always-private").addEventListener("change", () => privacy("alwaysPrivate", "always-private"));
  $("run-in-private").addEventListener("change", () => privacy("runInPrivate", "run-in-private"));
  $("learn-sites").addEventListener("change", () => privacy("learnSites", "learn-sites"));
  $("check-host").addEventListener("click", () => checkHost({ all: true }));
  api.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && changes.settings) {
      loadSettings(api.storage.local).then((next) => {
        settings = next;
        renderRules();
      });
    }
  });
  document.documentElement.dataset.blocksiftStatus = "ready";
  await checkHost();
  await renderExportFolder();
}

main();
