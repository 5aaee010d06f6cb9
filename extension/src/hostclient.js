// Client side of the host connection: one port per background life, requests matched to
// replies by id, chunked replies reassembled, every pending request failed with a clear
// error when the port closes, and a fresh port (new host process) on the next request.
// The port itself comes from a factory, so the same client runs over native messaging and
// over the loopback WebSocket, and node tests can drive it with an in-memory pair.

import {
  BlocksiftError, ChunkAssembler, LOCAL_ERRORS, PROTOCOL_VERSION, cancelRequest, helloRequest,
  hostError, portClosedError, wellFormed,
} from "./protocol.js";
import { ERROR_CODES } from "./wireconstants.js";

export class HostClient {
  /**
   * @param {object} options
   * @param {() => object} options.openPort returns {postMessage, onMessage(cb), onDisconnect(cb), disconnect}
   * @param {(event: object) => void} [options.onEvent] connect/hello/disconnect notifications
   */
  constructor({ openPort, onEvent = () => {}, requestTimeoutMs = 120000, helloTimeoutMs = 20000 }) {
    this.openPort = openPort;
    this.onEvent = onEvent;
    this.requestTimeoutMs = requestTimeoutMs;
    this.helloTimeoutMs = helloTimeoutMs;
    this.port = null;
    this.ready = null;      // Promise of the hello reply for the current port
    this.info = null;       // last hello reply
    this.pending = new Map(); // id -> {resolve, reject, timer}
    this.starting = new Set(); // ids of requests waiting for the connection
    this.cancelledEarly = new Set(); // ... of which these were cancelled meanwhile
    this.assembler = new ChunkAssembler();
    this.generation = 0;
    this.everReceived = false;
  }

  /** Open a port if none is open; resolves with the host's hello reply. */
  connect() {
    if (this.ready) return this.ready;
    const generation = ++this.generation;
    this.everReceived = false;
    let port;
    try {
      port = this.openPort();
    } catch (err) {
      return Promise.reject(portClosedError(err?.message ?? String(err)));
    }
    this.port = port;
    port.onMessage((message) => {
      if (generation === this.generation) this.receive(message);
    });
    port.onDisconnect((reason) => {
      if (generation === this.generation) this.closed(reason);
    });
    this.onEvent({ type: "connect", generation });
    const hello = helloRequest();
    this.ready = this.send(hello, this.helloTimeoutMs).then((reply) => {
      if (reply.type === "error") throw hostError(reply);
      if (reply.type !== "hello") throw new BlocksiftError("The host did not answer hello.", { code: LOCAL_ERRORS.BAD_REPLY });
      if (reply.protocol !== PROTOCOL_VERSION) {
        throw new BlocksiftError(
          `The host speaks protocol ${reply.protocol}, this extension speaks ${PROTOCOL_VERSION}. Update both.`,
          { code: "unsupported_protocol" });
      }
      this.info = reply;
      this.onEvent({ type: "hello", generation, hostVersion: reply.hostVersion });
      return reply;
    });
    // A failed hello leaves no half-open state behind: the next call reconnects, and the
    // port is closed, or a host that answered late (or in the wrong protocol) would live on.
    this.ready.catch(() => {
      if (generation !== this.generation) return;
      this.reset();
      try {
        port.disconnect();
      } catch {
        // already closed
      }
    });
    return this.ready;
  }

  /** Send a request after hello; resolves with its (reassembled) reply. */
  async request(message, { timeoutMs = this.requestTimeoutMs, onSent = null, onProgress = null } = {}) {
    this.starting.add(message.id);
    try {
      await this.connect();
    } finally {
      this.starting.delete(message.id);
    }
    if (this.cancelledEarly.delete(message.id)) {
      throw new BlocksiftError("Cancelled.", { code: "cancelled" });
    }
    const replied = this.send(message, timeoutMs);
    if (onProgress && this.pending.has(message.id)) this.pending.get(message.id).onProgress = onProgress;
    if (onSent && this.pending.has(message.id)) onSent();
    const reply = await replied;
    if (reply.type === "error") throw hostError(reply);
    return reply;
  }

  /** Ask the host to stop a request; its pending promise fails at once. */
  cancel(target, error = new BlocksiftError("Cancelled.", { code: "cancelled" })) {
    const entry = this.pending.get(target);
    if (!entry) {
      // Still waiting for the connection: it fails as soon as it would be sent.
      if (!this.starting.has(target)) return false;
      this.cancelledEarly.add(target);
      return true;
    }
    this.settle(target, null, error);
    this.assembler.drop(target);
    try {
      if (this.port) this.port.postMessage(cancelRequest(target));
    } catch {
      // the port is gone; nothing left to cancel
    }
    return true;
  }

  /** Close the port on purpose (settings changed); pending requests fail. */
  close(reason = "closed by the extension") {
    const port = this.port;
    this.closed(reason);
    try {
      port?.disconnect();
    } catch {
      // already closed
    }
  }

  // -- internals -------------------------------------------------------------------------

  send(message, timeoutMs) {
    return new Promise((resolve, reject) => {
      const timer = timeoutMs > 0 ? setTimeout(() => {
        if (this.pending.has(message.id)) {
          const error = new BlocksiftError(
            `The host did not answer within ${Math.round(timeoutMs / 1000)} s.`, { code: LOCAL_ERRORS.TIMEOUT });
          if (message.type === "extract") this.cancel(message.id, error);
          else this.settle(message.id, null, error);
        }
      }, timeoutMs) : null;
      this.pending.set(message.id, { resolve, reject, timer });
      try {
        this.port.postMessage(wellFormed(message));
      } catch (err) {
        const text = String(err?.message ?? err);
        // Chromium throws synchronously at 64 MiB (the port stays open), or when the port
        // closed a moment ago and its disconnect event is still on its way.
        const error = /exceeded maximum allowed size/i.test(text)
          ? new BlocksiftError(`The page is too large to send to the host (${text}).`, { code: LOCAL_ERRORS.TOO_LARGE })
          : portClosedError(text, { everConnected: true });
        this.settle(message.id, null, error);
      }
    });
  }

  receive(message) {
    this.everReceived = true;
    if (!message || typeof message !== "object") return;
    if (message.type === "chunk") {
      let full;
      try {
        full = this.assembler.add(message);
      } catch (err) {
        this.settle(message.id, null, err);
        return;
      }
      if (full) this.deliver(full);
      return;
    }
    this.deliver(message);
  }

  deliver(reply) {
    if (reply.type === "cancelled") return; // acknowledgement; the request already failed
    if (reply.type === "progress") {
      // Long requests (training) report progress before their one final reply.
      this.pending.get(reply.id)?.onProgress?.(reply);
      return;
    }
    if (reply.id == null && reply.type === "error") {
      // An error the host could not attach to a request: fail everything, it is fatal for us.
      for (const id of [...this.pending.keys()]) this.settle(id, null, hostError(reply));
      return;
    }
    this.settle(reply.id, reply, null);
  }

  settle(id, reply, error) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    if (error) entry.reject(error);
    else entry.resolve(reply);
  }

  closed(reason) {
    const error = portClosedError(reason, { everConnected: this.everReceived });
    this.onEvent({ type: "disconnect", generation: this.generation, reason: String(reason || ""), code: error.code });
    this.reset();
    for (const id of [...this.pending.keys()]) this.settle(id, null, error);
  }

  reset() {
    this.generation += 1; // late events from the old port are ignored
    this.port = null;
    this.ready = null;
    this.assembler.clear();
  }
}

/** A port factory over native messaging (`runtime.connectNative`). */
export function nativePortFactory(api, hostName, lastErrorMessage) {
  return () => {
    const port = api.runtime.connectNative(hostName);
    return {
      postMessage: (message) => port.postMessage(message),
      onMessage: (cb) => port.onMessage.addListener(cb),
      onDisconnect: (cb) => port.onDisconnect.addListener((p) => cb(lastErrorMessage(p) || "the host exited")),
      disconnect: () => port.disconnect(),
    };
  };
}

/**
 * A port factory over the host's loopback WebSocket server (`blocksift serve`, see
 * docs/websocket.md): one JSON message per frame; the token travels as the subprotocol
 * `blocksift.token.<token>` next to `blocksift.v1` (the browser WebSocket API cannot set
 * headers, and a query parameter would end up in logs).
 */
export function websocketPortFactory(url, token) {
  return () => {
    const target = new URL(url);
    if (!["ws:", "wss:"].includes(target.protocol)) throw new Error(`not a WebSocket URL: ${url}`);
    const protocols = ["blocksift.v1", ...(token ? [`blocksift.token.${token}`] : [])];
    const socket = new WebSocket(target.href, protocols);
    const queue = [];
    let onMessage = () => {};
    let onDisconnect = () => {};
    let closed = false;
    socket.addEventListener("open", () => {
      for (const text of queue.splice(0)) socket.send(text);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(message);
    });
    const fail = (reason) => {
      if (closed) return;
      closed = true;
      onDisconnect(reason);
    };
    socket.addEventListener("close", (event) => {
      if (event.code === ERROR_CODES.unauthorized) {
        fail(`the WebSocket server refused the token (${event.reason || "unauthorized"}); copy it from \`blocksift serve --print-token\` into the options`);
      } else if (event.code === 1006) {
        fail(`cannot reach the blocksift WebSocket server at ${url} (is \`blocksift serve\` running?)`);
      } else {
        fail(`WebSocket closed (${event.code}${event.reason ? `: ${event.reason}` : ""})`);
      }
    });
    return {
      postMessage: (message) => {
        const text = JSON.stringify(message);
        if (socket.readyState === WebSocket.OPEN) socket.send(text);
        else if (socket.readyState === WebSocket.CONNECTING) queue.push(text);
        else throw new Error("WebSocket is closed");
      },
      onMessage: (cb) => { onMessage = cb; },
      onDisconnect: (cb) => { onDisconnect = cb; },
      disconnect: () => { closed = true; socket.close(); },
    };
  };
}
