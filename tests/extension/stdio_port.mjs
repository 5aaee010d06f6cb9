// A native-messaging port over a spawned host's stdin/stdout (32-bit native-endian length +
// UTF-8 JSON), shaped like the browser's Port so HostClient can drive the real host in node.
import { spawn } from "node:child_process";
import { endianness } from "node:os";

const little = endianness() === "LE";

/**
 * Spawn `command args` and return a Port. `onSpawn(child)` sees each process, `onFrame(msg)`
 * each decoded reply frame, `onSend(msg)` each message posted.
 */
export function stdioPort(command, args, { onSpawn = () => {}, onFrame = () => {}, onSend = () => {} } = {}) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  onSpawn(child);
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
      onFrame(message);
      onMessage(message);
    }
  });
  child.on("exit", (code, signal) => onDisconnect(`Native host has exited (${signal ?? code}).`));
  child.stdin.on("error", () => {});
  return {
    postMessage: (message) => {
      onSend(message);
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
