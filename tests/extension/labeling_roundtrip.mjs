// Drives the labeling messages through the extension's HostClient against the real host
// (stdio frames, no browser): examples.save / list / get / export / delete and train with
// its progress replies. Run by test_labeling_messages.py, which passes the host command in
// BLOCKSIFT_HOST_CMD and the export path in EXPORT_PATH, and checks the summary printed.
import { spawn } from "node:child_process";
import { endianness } from "node:os";

import { HostClient } from "../../extension/src/hostclient.js";
import { examplesRequest, examplesSaveRequest, trainRequest } from "../../extension/src/protocol.js";

const [command, ...args] = JSON.parse(process.env.BLOCKSIFT_HOST_CMD);
const little = endianness() === "LE";
const sent = [];

function nodePort() {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  let buffer = Buffer.alloc(0);
  let onMessage = () => {};
  let onDisconnect = () => {};
  child.stdout.on("data", (data) => {
    buffer = Buffer.concat([buffer, data]);
    while (buffer.length >= 4) {
      const size = little ? buffer.readUInt32LE(0) : buffer.readUInt32BE(0);
      if (buffer.length < 4 + size) break;
      onMessage(JSON.parse(buffer.subarray(4, 4 + size).toString("utf8")));
      buffer = buffer.subarray(4 + size);
    }
  });
  child.on("exit", (code, signal) => onDisconnect(`Native host has exited (${signal ?? code}).`));
  child.stdin.on("error", () => {});
  return {
    postMessage: (message) => {
      sent.push(message);
      const body = Buffer.from(JSON.stringify(message), "utf8");
      const head = Buffer.alloc(4);
      if (little) head.writeUInt32LE(body.length); else head.writeUInt32BE(body.length);
      child.stdin.write(Buffer.concat([head, body]));
    },
    onMessage: (cb) => { onMessage = cb; },
    onDisconnect: (cb) => { onDisconnect = cb; },
    disconnect: () => child.kill(),
  };
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
