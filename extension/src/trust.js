// Who may ask the background for what. A message's sender is one of the extension's own
// pages (popup, options, reader, examples), one of its content scripts running inside a web
// page (whose own scripts can tamper with that page), or something else. Privileged
// messages (run, examples, export, train, settings, host info) are accepted only from the
// extension's own pages; a content script may send only what it needs.

import { MSG } from "./protocol.js";

/**
 * What a content script may send: the labeler saves the example it shows; the overlay's
 * button switches the overlay of its own tab (no tabId: the background uses the sender's).
 */
const CONTENT_SCRIPT_RULES = Object.freeze({
  [MSG.LABEL_SAVE]: () => true,
  [MSG.RUN]: (message) => message?.action === "overlay" && message?.tabId === undefined,
});
export const CONTENT_SCRIPT_MESSAGES = Object.freeze(new Set(Object.keys(CONTENT_SCRIPT_RULES)));

/** "extension" (one of our pages), "content" (our script in a web page) or "foreign". */
export function senderKind(sender, extensionId, extensionUrl) {
  if (!sender || !extensionId || sender.id !== extensionId) return "foreign";
  const url = String(sender.url ?? "");
  const origin = sender.origin;
  const ourPage = url.startsWith(extensionUrl)
    && (origin === undefined || extensionUrl.startsWith(`${origin}/`));
  if (ourPage) return "extension";
  return sender.tab ? "content" : "foreign";
}

/** Whether ``message`` from ``sender`` may be handled. */
export function mayHandle(message, sender, extensionId, extensionUrl) {
  const kind = senderKind(sender, extensionId, extensionUrl);
  if (kind === "extension") return true;
  const rule = Object.hasOwn(CONTENT_SCRIPT_RULES, message?.type) ? CONTENT_SCRIPT_RULES[message.type] : null;
  return kind === "content" && rule !== null && rule(message);
}
