// Drives the extension's HostClient against the real host process over stdin/stdout frames
// (the browser's native-messaging framing), without a browser. Run by test_host_client.py,
// which passes the host command in BLOCKSIFT_HOST_CMD (JSON array) and checks the summary
// this prints: replies, chunk counts, recovery after a kill, and every message sent.

import { HostClient } from "../../extension/src/hostclient.js";
import { stdioPort } from "./stdio_port.mjs";
import { cancelRequest, extractRequest, helloRequest, hidePlanIds, pingRequest, planOverlayItems } from "../../extension/src/protocol.js";

const [command, ...args] = JSON.parse(process.env.BLOCKSIFT_HOST_CMD);
const sent = [];
const spawned = [];
let chunkCount = 0;

function nodePort() {
  return stdioPort(command, args, {
    onSpawn: (child) => spawned.push(child),
    onFrame: (message) => { if (message.type === "chunk") chunkCount += 1; },
    onSend: (message) => sent.push({ ...message, ...(typeof message.html === "string" ? { html: message.html.slice(0, 200) } : {}) }),
  });
}

function longArticle(chars) {
  const paragraph = "Tides rise and fall with the moon and the sun; sailors read the tables. ".repeat(12);
  const parts = ["<html><head><title>Long</title></head><body><nav data-bsid='1'>",
    ...Array.from({ length: 8 }, (_, i) => `<a data-bsid='${2 + i}' href='/n${i}'>Nav ${i}</a>`), "</nav><article data-bsid='20'>"];
  let size = 0;
  let id = 21;
  while (size < chars) {
    // numbered: the reader shows a paragraph that repeats another word for word only once
    parts.push(`<p data-bsid='${id}'>Part ${id}. ${paragraph}</p>`);
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

// A page script cut an emoji in half: the snapshot holds a lone surrogate, the host still reads it.
const torn = await outcome(client.request(extractRequest({
  html: "<html><body><article><h1>Torn</h1><p>Teaser text cut in the middle of an emoji \uD83D by a script, "
    + "with enough words around it to be the article of this small page.</p></article></body></html>",
  want: ["main"] })));
summary.loneSurrogate = torn.ok ? { ok: true, status: torn.value.result.status, text: torn.value.result.main?.text ?? "" } : torn;

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
// The hide plan: the host decides, the extension applies exactly its ids.
const hidePage = "<html data-bsid='0'><body data-bsid='1'><nav data-bsid='2'><a data-bsid='3' href='/a'>Home</a>"
  + "<a data-bsid='4' href='/b'>News</a><a data-bsid='5' href='/c'>Sport</a></nav><article data-bsid='6'>"
  + "<h1 data-bsid='7'>A story</h1><p data-bsid='8'>" + "Words of the story, with a <a data-bsid='9' href='/x'>link</a> inside. ".repeat(20)
  + "</p></article></body></html>";
const hidden = await client.request(extractRequest({ html: hidePage, want: ["blocks"], action: "hide" }));
summary.hide = { plan: hidden.hide, ids: hidePlanIds(hidden.hide), items: planOverlayItems(hidden.hide) };

summary.unknownAlgorithm = await outcome(client.request(extractRequest({ html: "<p>x</p>", algorithm: "nope" })));

// A hello that times out (a host slow to start) closes its port: the late host exits rather
// than living on beside the next one, and the next call starts a fresh host.
const slowSpawned = spawned.length;
const impatient = new HostClient({ openPort: nodePort, helloTimeoutMs: 1 });
summary.helloTimeout = await outcome(impatient.connect());
const lateHost = spawned.at(-1);
summary.lateHostExited = await new Promise((resolve) => {
  if (lateHost.exitCode !== null || lateHost.signalCode !== null) resolve(true);
  const timer = setTimeout(() => resolve(false), 10000);
  lateHost.once("exit", () => { clearTimeout(timer); resolve(true); });
});
impatient.helloTimeoutMs = 20000;
summary.afterHelloTimeout = (await impatient.request(pingRequest())).type;
summary.helloTimeoutSpawned = spawned.length - slowSpawned;
impatient.close();

summary.events = events;
summary.sent = sent;
summary.built = [helloRequest("h"), pingRequest("p"), cancelRequest("t", "c"),
  extractRequest({ id: "e", html: "<p>x</p>", url: null, params: { a: 1 }, want: ["blocks"], isPrivate: true }),
  extractRequest({ id: "f", html: "<p>x</p>", url: "https://e.org/", learnSite: true }),
  extractRequest({ id: "g", html: "<p>x</p>", want: ["blocks"], action: "hide" })];
client.close();
for (const child of spawned) child.kill();
process.stdout.write(JSON.stringify(summary));
