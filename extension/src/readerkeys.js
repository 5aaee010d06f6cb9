// The reader view's keyboard shortcuts: one list for the reader (which handles them) and the
// options page (which lists them). Keys without Ctrl, Alt or Meta, ignored while typing.

export const READER_KEYS = Object.freeze([
  { key: "Escape", label: "Esc", action: "back", description: "Back to the page" },
  { key: "l", label: "L", action: "listen", description: "Listen: read aloud, pause, resume" },
  { key: "L", label: "Shift+L", action: "stop", description: "Stop reading aloud" },
  { key: "]", label: "]", action: "faster", description: "Read aloud faster" },
  { key: "[", label: "[", action: "slower", description: "Read aloud slower" },
  { key: "n", label: "N", action: "next", description: "Next sentence (while reading aloud)" },
  { key: "b", label: "B", action: "previous", description: "Previous sentence (while reading aloud)" },
  { key: "=", label: "+", action: "larger", description: "Larger text" },
  { key: "+", label: "+", action: "larger", description: "", hidden: true },
  { key: "-", label: "−", action: "smaller", description: "Smaller text" },
  { key: "t", label: "T", action: "theme", description: "Next theme (light, sepia, dark)" },
  { key: "c", label: "C", action: "copy", description: "Copy the article as Markdown" },
  { key: "s", label: "S", action: "save", description: "Save as Markdown into your folder" },
  { key: "?", label: "?", action: "help", description: "Show these shortcuts" },
]);

/** The action bound to a keydown event, or null (typing, or a modifier held). */
export function readerAction(event) {
  if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return null;
  const target = event.target;
  if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return null;
  return READER_KEYS.find((entry) => entry.key === event.key)?.action ?? null;
}
