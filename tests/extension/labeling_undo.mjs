// Undo of a delete through the extension's own requests (labeling.js restoreRequest, the
// options page's Undo) against the real host and its SQLite file, no browser. Run by
// test_labeling_messages.py (BLOCKSIFT_HOST_CMD, EXPORT_PATH), which checks the summary.

import { HostClient } from "../../extension/src/hostclient.js";
import { stdioPort } from "./stdio_port.mjs";
import { examplesRequest, examplesSaveRequest } from "../../extension/src/protocol.js";
import { restoreRequest } from "../../extension/src/labeling.js";

const [command, ...args] = JSON.parse(process.env.BLOCKSIFT_HOST_CMD);
const client = new HostClient({ openPort: () => stdioPort(command, args) });
const ask = (request) => client.request(request);

const page = (title, text) => `<html data-bsid='0'><head><title>${title}</title></head><body data-bsid='1'>`
  + `<nav data-bsid='2'><a data-bsid='3' href='/'>Home</a></nav><article data-bsid='4'><p data-bsid='5'>${text}</p>`
  + `<p data-bsid='6'>${text} Again, at more length than the first line.</p></article></body></html>`;
const save = (name, mainIds = ["5", "6"]) => ask(examplesSaveRequest({
  url: `http://127.0.0.1/${name}.html`, html: page(name, `The ${name} page.`), title: name, mainIds, algorithm: "auto",
}));
const get = async (exampleId) => (await ask(examplesRequest("get", { exampleId }))).example;
const listed = async () => (await ask(examplesRequest("list", { limit: 50 }))).items
  .map(({ exampleId, title, created, replaces }) => ({ exampleId, title, created, replaces }));

const summary = {};
for (const name of ["first", "middle", "last"]) await save(name);
summary.before = await listed();
// The options page's Delete keeps what `get` gave, then Undo stores it again.
const middle = await get(summary.before[1].exampleId);
await ask(examplesRequest("delete", { exampleId: middle.exampleId }));
summary.undone = await ask(restoreRequest(middle));
summary.after = await listed();
summary.exported = await ask(examplesRequest("export", { path: process.env.EXPORT_PATH }));

// A label that replaced an earlier one: Undo puts back the earlier label, then this one.
await save("twice", ["5"]);
await save("twice");
const [newer] = await listed();
const newerExample = await get(newer.exampleId);
const earlier = await get(newer.replaces);
await ask(examplesRequest("delete", { exampleId: newer.exampleId }));
summary.twiceBefore = newer;
summary.earlierBefore = { exampleId: earlier.exampleId, created: earlier.created };
summary.earlierUndone = await ask(restoreRequest(earlier));
summary.newerUndone = await ask(restoreRequest(newerExample));
summary.twiceAfter = (await listed())[0];
// "Restore earlier label" stores the earlier label as the page's label now: a new number.
summary.restoredEarlier = await ask(restoreRequest(await get(summary.twiceAfter.replaces), { keep: false }));
summary.final = await listed();
client.close();
process.stdout.write(JSON.stringify(summary));
