// Options page, "Examples" section: the labeled examples the host stores (list, view,
// delete, export, import; one row per page: a page labeled again shows its newest label, with
// "Restore earlier label"), training farsw from them with the host's progress, and the sites where
// labeling never runs. Everything goes through the background to the host on this computer.
// Status for tests and tools: <html data-examples-status> (loading|ready|error),
// data-examples-count, data-train-status (running|trained|error), data-train-progress (progress
// messages received), data-export-path, data-import-status (running|imported|error),
// data-import-progress (percent of the file sent), data-import-added, data-import-undo-status
// (running|undone|error: the import's Undo) and data-import-undone (examples it took back).

import { api } from "./api.js";
import {
  IMPORT_CHUNK_BYTES, MSG, TRAIN_PORT, bytesToBase64, importChunkCount, newUploadId,
} from "./protocol.js";
import { loadLabeling, parseSiteList, saveLabeling } from "./labelsettings.js";
import { ask, el, renderError } from "./ui.js";

const $ = (id) => document.getElementById(id);
const LIST_LIMIT = 500;
const root = document.documentElement;
let listEmpty = false; // the host said it holds no example: nothing to export or train on
let training = false;
let importing = false;

/**
 * Export and Train only when there is something: an export of no example replaced the last
 * export's file with an empty one, and training said "no labeled pages to train on: … or
 * name a dataset", a command line's words.
 */
function enableActions() {
  const why = listEmpty ? "No examples yet: label a page first" : null;
  $("examples-export").disabled = listEmpty;
  $("train").disabled = listEmpty || training;
  for (const id of ["examples-export", "train"]) {
    if (why) $(id).title = why; else $(id).removeAttribute("title");
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

async function renderList() {
  root.dataset.examplesStatus = "loading";
  const body = $("examples-table").querySelector("tbody");
  try {
    const reply = await ask(MSG.EXAMPLES, { op: "list", limit: LIST_LIMIT });
    body.replaceChildren(...reply.items.map(row));
    // The list holds the newest LIST_LIMIT; say so when there are more (Export has them all).
    const more = reply.total - reply.items.length;
    $("examples-more").hidden = more <= 0;
    $("examples-more").textContent = more > 0
      ? `Showing the newest ${reply.items.length} of ${reply.total} examples; Export writes all of them, and blocksift examples list --limit ${reply.total} lists them all.` : "";
    $("examples-empty").hidden = reply.total > 0;
    $("examples-table").hidden = reply.total === 0;
    root.dataset.examplesCount = String(reply.total);
    listEmpty = reply.total === 0;
    enableActions();
    root.dataset.examplesStatus = "ready";
  } catch (err) {
    $("examples-table").hidden = true;
    $("examples-more").hidden = true;
    $("examples-empty").hidden = false;
    renderError($("examples-empty"), err);
    listEmpty = false; // not known: the buttons stay, and say what the host says
    enableActions();
    root.dataset.examplesStatus = "error";
  }
}

function row(item) {
  const view = el("button", { type: "button", class: "link", text: item.title || item.url || `Example ${item.exampleId}`,
    title: "View the main text and marked blocks" });
  view.addEventListener("click", () => showExample(item.exampleId));
  // Named by its example: a screen reader going from button to button heard "Delete" on
  // every row, with nothing to say which example each one deletes.
  const remove = el("button", { type: "button", class: "delete", text: "Delete", title: "Delete this example",
    "aria-label": `Delete “${item.title || item.url || `Example ${item.exampleId}`}”` });
  remove.addEventListener("click", async () => {
    remove.disabled = true;
    // The list is drawn again without this row: the focus goes to the next example's title
    // (the one before when this is the last), not to the page's start with the button.
    const here = remove.closest("tr");
    const neighbour = (here?.nextElementSibling ?? here?.previousElementSibling)?.dataset.exampleId;
    let focusAfter = neighbour ? titleOf(neighbour) : () => $("examples-undo");
    try {
      // Kept in its line of #examples-deleted, so its Undo can store it again. The host deletes
      // the earlier label this one replaced with it: Undo puts that one back too, first, so that
      // this one replaces it again and "Restore earlier label" works as before the delete.
      const { example } = await ask(MSG.EXAMPLES, { op: "get", exampleId: item.exampleId });
      const earlier = item.replaces
        ? (await ask(MSG.EXAMPLES, { op: "get", exampleId: item.replaces }).catch(() => null))?.example ?? null : null;
      await ask(MSG.EXAMPLES, { op: "delete", exampleId: item.exampleId });
      if ($("example-view").dataset.exampleId === String(item.exampleId)) $("example-view").hidden = true;
      showDeleted(example, earlier);
    } catch (err) {
      addLine(errorLine(`“${nameOf(item)}” was not deleted: `, err));
      focusAfter = () => document.querySelector(`tr[data-example-id="${item.exampleId}"] button.delete`);
    }
    await renderList();
    (focusAfter() ?? $("examples-undo") ?? $("examples-refresh")).focus();
  });
  const title = [view];
  if (item.replaces) {
    // Labeling a page again replaced its earlier example; the host keeps that one restorable.
    const restore = el("button", { type: "button", class: "link restore-earlier", text: "Restore earlier label",
      title: `Put back example ${item.replaces}, the label this one replaced (this one can then be restored the same way)` });
    restore.addEventListener("click", () => restoreEarlier(item, restore));
    title.push(el("div", { class: "muted small replaced-note" }, "Replaced your earlier label of this page. ", restore));
  }
  return el("tr", { "data-example-id": item.exampleId, "data-replaces": item.replaces ?? "" },
    el("td", { class: "title" }, ...title), el("td", { class: "site", text: item.site ?? "—" }),
    el("td", { class: "date", text: new Date(item.created * 1000).toLocaleString() }),
    // the unit shows where a narrow window stacks the cells without their column heads
    el("td", { class: "chars" }, String(item.mainChars), el("span", { class: "unit", text: ` ${item.mainChars === 1 ? "character" : "characters"}` })),
    el("td", { class: "blocks" }, String(item.blocks), el("span", { class: "unit", text: ` ${item.blocks === 1 ? "block" : "blocks"}` })),
    el("td", { class: "actions-cell" }, remove));
}

/** A function finding an example's title button in the list as drawn then. */
function titleOf(exampleId) {
  return () => document.querySelector(`tr[data-example-id="${exampleId}"] button.link`);
}

function nameOf(example) {
  return example.title || example.url || `Example ${example.exampleId}`;
}

/** The row's "Restore earlier label": the replaced example saved again, replacing this one. */
async function restoreEarlier(item, button) {
  button.disabled = true;
  let focusAfter = () => document.querySelector(`tr[data-example-id="${item.exampleId}"] button.restore-earlier`);
  try {
    const { example } = await ask(MSG.EXAMPLES, { op: "get", exampleId: item.replaces });
    // Saved again as the page's label now: a new number and date, at the top of the list.
    const reply = await ask(MSG.EXAMPLES, { op: "restore", example, keep: false });
    addLine(el("p", { text: `Restored your earlier label of “${nameOf(example)}” as example ${reply.exampleId}; `
      + "the label it replaced can be restored the same way." }));
    root.dataset.examplesRestored = String(reply.exampleId);
    focusAfter = titleOf(reply.exampleId);
  } catch (err) {
    button.disabled = false;
    addLine(errorLine("Your earlier label was not restored: ", err));
  }
  await renderList();
  focusAfter()?.focus();
}

/**
 * #examples-deleted holds one line per deletion, each with its own Undo, until that Undo is
 * used (or the page is closed); what an Undo or "Restore earlier label" did goes after a few
 * seconds or with the next line, an error with the next line. A second delete used to replace the first one's
 * message and Undo, and the first example could no longer be brought back.
 */
function addLine(line) {
  const box = $("examples-deleted");
  for (const done of [...box.children].filter((child) => !child.hasAttribute("data-pending"))) done.remove();
  box.append(line);
  nameNewestUndo();
  box.scrollTop = box.scrollHeight; // the newest line, where the box scrolls (many deletions)
  if (!line.hasAttribute("data-pending") && !line.classList.contains("bad")) clearLater(line);
}

/** How long a line saying what was restored stays (a deletion's line stays while its Undo does). */
const DONE_FOR_MS = 8000;

/**
 * A confirmation goes after DONE_FOR_MS, as "Saved." does: the box sticks over the list, and a
 * stale "Restored …" would be read as news of the next action. Errors stay until the next line.
 */
function clearLater(line) {
  setTimeout(() => {
    if (!line.hasAttribute("data-pending") && !line.classList.contains("bad")) line.remove();
  }, DONE_FOR_MS);
}

/**
 * The newest deletion's Undo is #examples-undo: where the focus goes when the list is left
 * empty, and what tools press. The others are found in their lines (data-example-id).
 */
function nameNewestUndo() {
  const buttons = [...$("examples-deleted").querySelectorAll("p[data-pending] button[data-undo]")];
  for (const button of buttons) button.removeAttribute("id");
  buttons.at(-1)?.setAttribute("id", "examples-undo");
  root.dataset.examplesUndoable = String(buttons.length);
}

/** The error with its hint (renderError), as a span to put in a line. */
function errorText(err) {
  const why = el("span");
  renderError(why, err);
  return why;
}

/** A line saying what failed (`what`, then the error with its hint), announced at once. */
function errorLine(what, err) {
  return el("p", { class: "bad", role: "alert" }, what, errorText(err));
}

/**
 * "Deleted ..." with an Undo that stores the example again (with its number and date, so it
 * is back at its place in the list), after the earlier label of its page it had replaced, if
 * any. Each deletion keeps its own line and Undo: a user who deleted two examples and wants
 * one of them back gets that one, without the other being stored again against their will.
 */
function showDeleted(example, earlier = null) {
  const line = el("p", { "data-pending": "", "data-example-id": example.exampleId });
  const undo = el("button", { type: "button", "data-undo": "", text: "Undo",
    title: `Store “${nameOf(example)}” again`, "aria-label": `Undo the delete of “${nameOf(example)}”` });
  const restoredEarlier = Boolean(earlier);
  undo.addEventListener("click", async () => {
    undo.disabled = true;
    let focusAfter = () => undo; // kept in its line when the store failed
    try {
      if (earlier) {
        await ask(MSG.EXAMPLES, { op: "restore", example: earlier });
        earlier = null; // a second press (after an error below) does not store it twice
      }
      const reply = await ask(MSG.EXAMPLES, { op: "restore", example });
      // The page may have been labeled again since: the restored label then replaced that one.
      const replaced = reply.replaced?.length && !restoredEarlier
        ? " It replaced the label of this page saved since (restorable from its row)."
        : reply.replaced?.length ? " Your earlier label of this page is restorable from its row again." : "";
      line.replaceChildren(`Restored “${nameOf(example)}” as example ${reply.exampleId}.${replaced}`);
      line.removeAttribute("data-pending"); // done: it goes after a few seconds, or with the next line
      nameNewestUndo();
      clearLater(line);
      root.dataset.examplesRestored = String(reply.exampleId);
      focusAfter = titleOf(reply.exampleId); // back at its place in the list
    } catch (err) {
      undo.disabled = false;
      line.replaceChildren(`“${nameOf(example)}” was not restored: `, errorText(err), " ", undo);
    }
    await renderList();
    (focusAfter() ?? $("examples-refresh")).focus();
  });
  line.append(`Deleted “${nameOf(example)}”${earlier ? " and the earlier label of its page it had replaced" : ""}. `, undo);
  addLine(line);
  root.dataset.examplesDeleted = String(example.exampleId);
}

async function showExample(exampleId) {
  const box = $("example-view");
  box.hidden = false;
  box.dataset.exampleId = String(exampleId);
  box.replaceChildren(el("p", { class: "muted", text: "Loading…" }));
  try {
    const { example } = await ask(MSG.EXAMPLES, { op: "get", exampleId });
    const blocks = example.blocks ?? [];
    const close = el("button", { type: "button", class: "close-view", text: "Close",
      title: "Close this example's view" });
    close.addEventListener("click", () => closeExample(box));
    const heading = el("h4", { text: example.title || `Example ${exampleId}`, tabindex: "-1" });
    box.replaceChildren(
      el("div", { class: "view-head" }, heading, close),
      el("p", { class: "muted small view-meta" },
        example.url ? el("span", { text: example.url }) : "(no address)",
        ` · ${new Date(example.created * 1000).toLocaleString()}`
        + (example.algorithm ? ` · corrected ${example.algorithm}` : "")
        // an example imported from a dataset or an export without marked blocks is labeled by
        // its text: it said "corrected — · 0 elements"
        + (example.mainIdList?.length ? ` · ${plural(example.mainIdList.length, "element")}`
          : " · labeled by its text (no element ids)")),
      el("div", { class: "main-text", text: example.mainText }),
      el("p", { class: "small", text: blocks.length ? `${plural(blocks.length, "marked block")}:` : "No marked blocks." }),
      ...blocks.map((block) => el("div", { class: "block" },
        el("span", { class: `kind ${block.kind}`, text: block.kind }), " ",
        el("span", { text: `${plural(block.ids?.length ?? 0, "element")} · ${(block.text ?? "").slice(0, 200)}` }))));
    // The view is under the whole list: bring it into sight (its top, when it is taller than
    // the window) and the keyboard's focus with it, or a click on a title low in the window
    // seemed to do nothing.
    heading.focus({ preventScroll: true });
    box.scrollIntoView({ block: "nearest" });
  } catch (err) {
    renderError(box, err);
  }
}

/** Close the example's view; the focus goes back to the title it was opened from. */
function closeExample(box) {
  const exampleId = box.dataset.exampleId;
  box.hidden = true;
  delete box.dataset.exampleId;
  document.querySelector(`tr[data-example-id="${exampleId}"] button.link`)?.focus();
}

async function exportExamples() {
  const out = $("examples-export-result");
  out.classList.remove("bad");
  out.textContent = "Exporting…";
  try {
    const withBlocks = $("examples-with-blocks").checked;
    const reply = await ask(MSG.EXAMPLES, { op: "export", withBlocks });
    // Which kind of file, and that it took the last export's place (the host says whether a
    // file was there): both exports said the same words, so a second one looked like nothing
    // had happened.
    out.replaceChildren(`Wrote ${plural(reply.count, "example")} ${withBlocks ? "with their marked blocks"
      : "without their marked blocks (page and main text only)"} to `, el("code", { text: reply.path }),
      ` at ${new Date().toLocaleTimeString()}${reply.replaced ? ", in place of the export before" : ""}`
      + " (the datasets' format: blocksift eval and blocksift train read it).");
    root.dataset.exportPath = reply.path;
    root.dataset.exportCount = String(reply.count);
  } catch (err) {
    out.classList.add("bad");
    renderError(out, err);
  }
}

/**
 * Import: the picked file goes to the host in chunks (examples.import; a browser cannot name a
 * file on the host's machine), with the share sent shown; the host imports it whole once the
 * last one is in (a bad line adds nothing) and says what it did, which stays in its line with
 * the list drawn again. An error stays until the next import.
 */
async function importFile(file) {
  const out = $("examples-import-result");
  const button = $("examples-import");
  const choice = $("examples-import-duplicates");
  importing = true;
  button.disabled = true;
  choice.disabled = true;
  out.classList.remove("bad");
  out.removeAttribute("role");
  root.dataset.importStatus = "running";
  delete root.dataset.importAdded;
  delete root.dataset.importUndoStatus;
  delete root.dataset.importUndone;
  const onDuplicate = choice.value;
  const uploadId = newUploadId();
  const count = importChunkCount(file.size);
  const progress = (percent, what = "") => {
    root.dataset.importProgress = String(percent);
    out.textContent = `Importing “${file.name}”… ${percent} %${what}`;
  };
  progress(0);
  try {
    let reply = null;
    for (let index = 0; index < count; index += 1) {
      const start = index * IMPORT_CHUNK_BYTES;
      const bytes = new Uint8Array(await file.slice(start, start + IMPORT_CHUNK_BYTES).arrayBuffer());
      const last = index === count - 1;
      // the last chunk's answer comes once the host has read, checked and stored the whole
      // file: that wait says so
      if (last) progress(100, ": sent; adding the examples…");
      reply = await ask(MSG.EXAMPLES, { op: "import", uploadId, index, data: bytesToBase64(bytes), last,
        onDuplicate, ...(index === 0 ? { name: file.name, size: file.size } : {}) });
      if (!last) progress(Math.floor((100 * (start + bytes.length)) / file.size));
    }
    out.replaceChildren(...importedWords(reply, onDuplicate));
    // what it added can be taken back at once (a wrong file, a colleague's examples), earlier
    // labels it replaced included; a host from before addedRanges offers no undo
    if (reply.added && reply.addedRanges?.length) out.querySelector("p").after(el("p", { class: "undo-row" }, undoImportButton(reply)));
    root.dataset.importAdded = String(reply.added);
    root.dataset.importStatus = "imported";
  } catch (err) {
    out.classList.add("bad");
    out.setAttribute("role", "alert");
    // the host's "cannot import: " would say it twice
    const why = { ...(err?.toJSON?.() ?? {}), message: String(err?.message ?? err).replace(/^cannot import: /, "") };
    out.replaceChildren(`“${file.name}” was not imported: `, errorText(why));
    if (err?.code === 1008) {
      out.append(" This host is older than the options page's Import: update blocksift, or run blocksift examples import FILE.");
    }
    root.dataset.importStatus = "error";
  } finally {
    importing = false;
    button.disabled = false;
    choice.disabled = false;
  }
  await renderList();
}

/**
 * "Undo import" in the import's result line: the examples it added are deleted and the earlier
 * labels they replaced come back (examples.undoImport, one transaction at the host). The line
 * then says what was undone and the button goes; an error stays under it, the button with it.
 */
function undoImportButton(reply) {
  const button = el("button", { type: "button", id: "examples-undo-import", class: "undo-import", text: "Undo import",
    title: `Delete the ${plural(reply.added, "example")} this import added`
      + (reply.replaced ? ` and put back the ${plural(reply.replaced, "earlier label")} they replaced` : ""),
    "aria-label": `Undo the import of “${reply.name}”` });
  button.addEventListener("click", () => undoImport(reply, button));
  return button;
}

async function undoImport(reply, button) {
  if (importing || button.disabled) return;
  const out = $("examples-import-result");
  button.disabled = true;
  $("examples-import").disabled = true; // one change of the list at a time
  out.querySelector(".undo-error")?.remove();
  root.dataset.importUndoStatus = "running";
  let focusAfter = () => button;
  try {
    const done = await ask(MSG.EXAMPLES, { op: "undoImport", ranges: reply.addedRanges });
    out.classList.remove("bad");
    out.removeAttribute("role");
    out.replaceChildren(el("p", { text: undoneWords(done, reply) }));
    root.dataset.importUndone = String(done.removed);
    root.dataset.importUndoStatus = "undone";
    focusAfter = () => $("examples-import"); // the button went: where the right file is picked
  } catch (err) {
    button.disabled = false;
    out.append(el("p", { class: "bad undo-error", role: "alert" }, `The import of “${reply.name}” was not undone: `, errorText(err)));
    root.dataset.importUndoStatus = "error";
  } finally {
    $("examples-import").disabled = importing;
  }
  await renderList();
  focusAfter()?.focus();
}

/** What examples.importUndone says, in one line ("Took back the 12 imported examples; 3 earlier labels are back."). */
function undoneWords(done, reply) {
  let line;
  if (!done.removed && !done.restored) {
    line = `Nothing of the import of “${reply.name}” was left to take back.`;
  } else {
    line = done.removed === 1 ? "Took back the imported example" : `Took back the ${done.removed} imported examples`;
    line += done.restored
      ? `; ${plural(done.restored, "earlier label")} ${done.restored === 1 ? "is" : "are"} back.` : ".";
  }
  const relabeled = done.relabeled ?? 0;
  const deleted = Math.max(0, (done.missing ?? 0) - relabeled);
  const left = [
    deleted ? `${deleted} deleted since` : "",
    relabeled ? `${relabeled} labeled again since (the newer ${relabeled === 1 ? "label stays" : "labels stay"})` : "",
  ].filter(Boolean);
  if (left.length) line += ` Left as ${done.missing === 1 ? "it was" : "they were"}: ${left.join(", ")}.`;
  return line;
}

/** What an import did, as the host's examples.imported says it: one line, then the skipped pages. */
function importedWords(reply, onDuplicate) {
  const parts = [];
  let line = reply.added
    ? `Imported ${plural(reply.added, "example")} from “${reply.name}”`
    : `Imported no example from “${reply.name}”`;
  if (reply.replaced) line += `, taking the place of ${reply.replaced} stored here (each restorable from its row)`;
  const listed = reply.skipped ?? [];
  const already = listed.filter((skip) => /has an example already/.test(skip.reason)).length;
  const skipped = reply.skippedCount ?? listed.length;
  if (skipped) {
    const allAlready = already === listed.length && listed.length === skipped;
    line += allAlready
      ? `; ${skipped} already stored ${skipped === 1 ? "was" : "were"} skipped`
        + (onDuplicate === "skip" ? " (“take the file's” imports their labels instead)" : "")
      : `; ${skipped} skipped`;
  }
  line += ".";
  if (reply.ownAddress) {
    line += ` ${plural(reply.ownAddress, "page")} without an address in the file ${reply.ownAddress === 1 ? "was" : "were"} stored under the address the page names for itself.`;
  }
  if (reply.noAddress) {
    line += ` ${plural(reply.noAddress, "page")} name${reply.noAddress === 1 ? "s" : ""} no address: stored, but ${reply.noAddress === 1 ? "it adapts" : "they adapt"} the reader view on no site.`;
  }
  parts.push(el("p", { text: line }));
  if (skipped && !(already === listed.length && listed.length === skipped)) {
    const more = skipped - listed.length;
    parts.push(el("details", {}, el("summary", { text: `Why ${skipped === 1 ? "one was" : `${skipped} were`} skipped` }),
      el("ul", {}, ...listed.map((skip) => el("li", { text: `${skip.url}: ${skip.reason}` })),
        more > 0 ? el("li", { text: `… and ${more} more` }) : null)));
  }
  return parts;
}

function showTraining(state) {
  const status = $("train-status");
  const bar = $("train-progress");
  status.classList.toggle("bad", state.state === "error");
  if (state.state === "running") {
    bar.hidden = false;
    bar.max = Math.max(1, state.total || 1);
    if (state.total) bar.value = state.done; else bar.removeAttribute("value"); // indeterminate
    status.textContent = `Training: ${state.stage}${state.total ? ` (${state.done}/${state.total})` : ""}…`;
  } else if (state.state === "trained") {
    bar.hidden = false;
    bar.max = 1;
    bar.value = 1;
    status.textContent = `Trained ${state.algorithm} on ${plural(state.pages, "page")}; the new model is in use.`;
    $("train-rules").replaceChildren(...(state.rules ?? []).map((rule) => el("li", { text: rule })));
  } else if (state.state === "error") {
    bar.hidden = true;
    renderError(status, state.error);
  }
  root.dataset.trainStatus = state.state;
}

function train() {
  training = true;
  enableActions();
  $("train-rules").replaceChildren();
  showTraining({ state: "running", stage: "starting", done: 0, total: 0 });
  let progressCount = 0;
  const port = api.runtime.connect({ name: TRAIN_PORT });
  port.onMessage.addListener((message) => {
    if (message.type === "progress") {
      progressCount += 1;
      root.dataset.trainProgress = String(progressCount);
      showTraining({ state: "running", stage: message.stage, done: message.done, total: message.total });
      return;
    }
    if (message.type === "trained") showTraining({ state: "trained", ...message });
    else showTraining({ state: "error", error: message });
    training = false;
    enableActions();
    port.disconnect();
  });
  port.onDisconnect.addListener(() => { training = false; enableActions(); });
  port.postMessage({ train: { algorithm: "farsw", useExamples: true } });
}

async function renderExcluded() {
  const labeling = await loadLabeling(api.storage.local);
  $("excluded-sites").value = labeling.excludedSites.join("\n");
}

let excludedTimer = 0;

/**
 * Saved next to its button; the confirmation goes after a few seconds (as the settings' "Saved."
 * does), so a second save is seen to be confirmed. A failure said nothing at all (the promise's
 * error went to the console); it says "Not saved: …" now, and stays until a save works.
 */
async function saveExcluded() {
  const status = $("excluded-status");
  clearTimeout(excludedTimer);
  status.textContent = "";
  status.classList.remove("bad");
  try {
    const sites = parseSiteList($("excluded-sites").value);
    const saved = await saveLabeling(api.storage.local, { excludedSites: sites });
    $("excluded-sites").value = saved.excludedSites.join("\n");
    status.textContent = saved.excludedSites.length
      ? `Saved: labeling never runs on ${plural(saved.excludedSites.length, "site")}.` : "Saved: no excluded sites.";
    excludedTimer = setTimeout(() => { status.textContent = ""; }, DONE_FOR_MS);
    root.dataset.excludedSaved = String(Date.now());
  } catch (err) {
    status.classList.add("bad");
    status.textContent = `Not saved: ${err?.message ?? err}`;
  }
}

async function main() {
  $("examples-refresh").addEventListener("click", renderList);
  // "Check again" or another transport on the options page (options.js): the list follows,
  // so an error from the host before does not stay under a host that answers now.
  document.addEventListener("blocksift:host-checked", () => renderList());
  $("example-view").addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("example-view").hidden) {
      event.preventDefault();
      closeExample($("example-view"));
    }
  });
  $("examples-export").addEventListener("click", exportExamples);
  // The file picker is the hidden input's, opened by the button; the same file picked again
  // is imported again (the input is emptied after each pick, or it fired no change).
  $("examples-import").addEventListener("click", () => { if (!importing) $("examples-import-file").click(); });
  $("examples-import-file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    try {
      if (file && !importing) await importFile(file);
    } finally {
      event.target.value = "";
    }
  });
  $("train").addEventListener("click", train);
  $("excluded-save").addEventListener("click", saveExcluded);
  await renderExcluded();
  const last = (await api.storage.local.get("training")).training;
  if (last?.state && last.state !== "running") showTraining(last);
  await renderList();
}

main();
