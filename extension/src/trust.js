// Who may ask the background for what. A message's sender is one of the extension's own
// pages (popup, options, reader, examples), one of its content scripts running inside a web
// page (whose own scripts can tamper with that page), or something else. Privileged
// messages (run, examples, export, train, settings, host info) are accepted only from the
// extension's own pages; a content script may send only what it needs.

import { MSG } from "./protocol.js";

/** What a content script may send: the labeler only saves the example it shows. */
export const CONTENT_SCRIPT_MESSAGES = Object.freeze(new Set([MSG.LABEL_SAVE]));

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

/** Whether a message of ``type`` from ``sender`` may be handled. */
export function mayHandle(type, sender, extensionId, extensionUrl) {
  const kind = senderKind(sender, extensionId, extensionUrl);
  return kind === "extension" || (kind === "content" && CONTENT_SCRIPT_MESSAGES.has(type));
}
