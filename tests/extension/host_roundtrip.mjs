// Drives the extension's HostClient against the real host process over stdin/stdout frames
// (the browser's native-messaging framing), without a browser. Run by test_host_client.py,
// which passes the host command in BLOCKSIFT_HOST_CMD (JSON array) and checks the summary
// this prints: replies, chunk counts, recovery after a kill, and every message sent.
import { spawn } from "node:child_process";
import { endianness } from "node:os";

import { HostClient } from "../../extension/src/hostclient.js";
import { cancelRequest, extractRequest, helloRequest, pingRequest } from "../../extension/src/protocol.js";

const [command, ...args] = JSON.parse(process.env.BLOCKSIFT_HOST_CMD);
const little = endianness() === "LE";
const sent = [];
const spawned = [];
let chunkCount = 0;

function nodePort() {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  spawned.push(child);
  let buffer = Buffer.alloc(0);
  let onMessage = () => {};
  let onDisconnect = () => {};
  child.stdout.on("data", (data) => {
    buffer = Buffer.concat([buffer, data]);
    while (buffer.length >= 4) {
      const size = little ? buffer.readUInt32LE(0) : buffer.readUInt32BE(0);
      if (buffer.length < 4 + size) break;
      const message = JSON.parse(buffer.subarray(4, 4 + size).toString("utf8"));
      buffer = buffer.subarray(4 + size);
      if (message.type === "chunk") chunkCount += 1;
      onMessage(message);
    }
  });
  child.on("exit", (code, signal) => onDisconnect(`Native host has exited (${signal ?? code}).`));
  child.stdin.on("error", () => {});
  return {
    postMessage: (message) => {
      sent.push({ ...message, ...(typeof message.html === "string" ? { html: message.html.slice(0, 200) } : {}) });
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

function longArticle(chars) {
  const paragraph = "Tides rise and fall with the moon and the sun; sailors read the tables. ".repeat(12);
  const parts = ["<html><head><title>Long</title></head><body><nav data-bsid='1'>",
    ...Array.from({ length: 8 }, (_, i) => `<a data-bsid='${2 + i}' href='/n${i}'>Nav ${i}</a>`), "</nav><article data-bsid='20'>"];
  let size = 0;
  let id = 21;
  while (size < chars) {
    parts.push(`<p data-bsid='${id}'>${paragraph}</p>`);
    size += paragraph.length;
    id += 1;
  }
  parts.push("</article></body></html>");
  return parts.join("");
}

async function outcome(promise) {
  try {
    return { ok: true, value: await promise };
  } catch (err) {
    return { ok: false, code: err.code, message: err.message };
  }
}

const events = [];
const client = new HostClient({ openPort: nodePort, onEvent: (e) => events.push(e.type) });
const summary = {};

const hello = await client.connect();
summary.hello = { protocol: hello.protocol, algorithms: hello.algorithms.map((a) => a.name), maxReplyBytes: hello.maxReplyBytes };

const ping = await client.request(pingRequest());
summary.ping = ping.type;

const html = longArticle(1_300_000);
const big = await client.request(extractRequest({ html, url: "http://127.0.0.1/long", want: ["main"] }));
summary.big = { status: big.result.status, mainHtml: big.result.main?.html.length ?? 0, mainText: big.result.main?.text.length ?? 0, chunks: chunkCount };

// Kill the host while a request is with it: the request fails clearly, the next one works.
const killed = client.request(extractRequest({ html, want: ["blocks", "main"] }), {
  onSent: () => spawned.at(-1).kill("SIGKILL"),
});
summary.killed = await outcome(killed);
const after = await outcome(client.request(extractRequest({ html: "<p data-bsid='1'>small page</p>", want: ["blocks"] })));
summary.after = { ok: after.ok, status: after.value?.result?.status, code: after.code, message: after.message };
summary.spawned = spawned.length;

// Cancel: the pending promise fails at once with "cancelled"; the host acknowledges.
const cancelled = client.request(extractRequest({ id: "to-cancel", html, want: ["blocks", "main"] }));
client.cancel("to-cancel");
summary.cancelled = await outcome(cancelled);
const inFlight = client.request(extractRequest({ id: "in-flight", html, want: ["blocks", "main"] }), {
  onSent: () => client.cancel("in-flight"),
});
summary.cancelledInFlight = await outcome(inFlight);
summary.afterCancel = (await client.request(pingRequest())).type;

// A host error reply becomes a rejected promise with the host's code.
summary.unknownAlgorithm = await outcome(client.request(extractRequest({ html: "<p>x</p>", algorithm: "nope" })));

summary.events = events;
summary.sent = sent;
summary.built = [helloRequest("h"), pingRequest("p"), cancelRequest("t", "c"),
  extractRequest({ id: "e", html: "<p>x</p>", url: null, params: { a: 1 }, want: ["blocks"], isPrivate: true }),
  extractRequest({ id: "f", html: "<p>x</p>", url: "https://e.org/", learnSite: true })];
client.close();
for (const child of spawned) child.kill();
process.stdout.write(JSON.stringify(summary));
