// Drives the labeling messages through the extension's HostClient against the real host
// (stdio frames, no browser): examples.save / list / get / export / delete and train with
// its progress replies. Run by test_labeling_messages.py, which passes the host command in
// BLOCKSIFT_HOST_CMD and the export path in EXPORT_PATH, and checks the summary printed.

import { HostClient } from "../../extension/src/hostclient.js";
import { stdioPort } from "./stdio_port.mjs";
import { examplesRequest, examplesSaveRequest, trainRequest } from "../../extension/src/protocol.js";

const [command, ...args] = JSON.parse(process.env.BLOCKSIFT_HOST_CMD);
const sent = [];

function nodePort() {
  return stdioPort(command, args, { onSend: (message) => sent.push(message) });
}

async function outcome(promise) {
  try {
    return { ok: true, value: await promise };
  } catch (err) {
    return { ok: false, code: err.code, message: err.message };
  }
}

const html = "<html data-bsid='0'><head><title>Rock pools</title></head><body data-bsid='1'>"
  + "<nav data-bsid='2'><a data-bsid='3' href='/a'>Home</a> <a data-bsid='4' href='/b'>News</a></nav>"
  + "<article data-bsid='5'><p data-bsid='6'>Rock pools keep sea water when the tide goes out.</p>"
  + "<p data-bsid='7'>Subscribe to our newsletter today.</p>"
  + "<p data-bsid='8'>Anemones close up to keep their water in.</p></article></body></html>";

const client = new HostClient({ openPort: nodePort });
const summary = {};
summary.saved = await outcome(client.request(examplesSaveRequest({
  url: "http://127.0.0.1/pools.html", html, title: "Rock pools", mainIds: ["6", "8"],
  blocks: [{ kind: "links", ids: ["2", "3", "4"], text: "Home News" }], algorithm: "auto",
  algorithmOutput: { algorithm: "auto", main: { elementIds: ["5", "6", "7", "8"], text: "" }, blocks: [] },
})));
summary.privateRefused = await outcome(client.request(examplesSaveRequest({ html, mainIds: ["6"], isPrivate: true })));
summary.emptyRefused = await outcome(client.request(examplesSaveRequest({ html, mainIds: [] })));
summary.list = await outcome(client.request(examplesRequest("list", { limit: 10 })));
const exampleId = summary.saved.value?.exampleId;
summary.get = await outcome(client.request(examplesRequest("get", { exampleId })));
summary.exported = await outcome(client.request(examplesRequest("export", { path: process.env.EXPORT_PATH, withBlocks: true })));
const progress = [];
summary.trained = await outcome(client.request(trainRequest(), { onProgress: (p) => progress.push(p.stage) }));
summary.progress = progress;
summary.deleted = await outcome(client.request(examplesRequest("delete", { exampleId })));
summary.listAfter = await outcome(client.request(examplesRequest("list", {})));
summary.sent = sent.map((m) => ({ ...m, html: typeof m.html === "string" ? m.html : undefined }));
client.close();
process.stdout.write(JSON.stringify(summary));
