// Generated from the host's wire definitions by extension/tools/gen_wire_constants.py.
// Do not edit: change the host and run the script (the build and pack steps check it).

export const PROTOCOL_VERSION = 1;
export const HOST_VERSION = "0.1.0";
export const ID_ATTR = "data-bsid";
export const HIDDEN_ATTR = "data-bshidden";
export const MAX_ID_LENGTH = 128;
export const REQUEST_TYPES = Object.freeze(["hello", "extract", "cancel", "ping", "examples.save", "examples.list", "examples.get", "examples.delete", "examples.export", "examples.import", "examples.undoImport", "examples.repair", "train", "export.folder", "export.save", "export.render"]);
export const REPLY_TYPES = Object.freeze(["hello", "result", "error", "pong", "cancelled", "chunk", "examples.saved", "examples.list", "examples.item", "examples.deleted", "examples.exported", "examples.received", "examples.imported", "examples.importUndone", "examples.repaired", "progress", "trained", "export.folder", "export.saved", "export.rendered"]);
export const ERROR_CODES = Object.freeze({"frame_empty": 1001, "frame_too_large": 1002, "frame_truncated": 1003, "invalid_utf8": 1004, "invalid_json": 1005, "lone_surrogate": 1006, "invalid_message": 1007, "unknown_type": 1008, "unsupported_protocol": 1009, "duplicate_id": 1010, "unknown_algorithm": 2001, "invalid_params": 2002, "page_error": 2003, "not_found": 2004, "timeout": 3001, "cancelled": 3002, "busy": 3003, "internal": 3004, "memory_limit": 3005, "store_damaged": 3006, "private_window": 2005, "unauthorized": 4001, "forbidden_origin": 4002});
export const WANTS = Object.freeze(["blocks", "main"]);
export const REQUEST_ACTIONS = Object.freeze(["extract", "hide", "reader"]);
export const EXPORT_FORMATS = Object.freeze(["markdown", "html", "epub"]);
export const EXAMPLES_LIST_MAX = 10000;
export const IMPORT_CHUNK_MAX_CHARS = 1048576;
export const IMPORT_MAX_BYTES = 536870912;
export const UNDO_IMPORT_MAX_RANGES = 1000;
export const HIDE_PLAN_VERSION = 1;
export const READER_ALLOWED_TAGS = Object.freeze(["a", "abbr", "annotation", "article", "aside", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "math", "menclose", "mfenced", "mfrac", "mi", "mmultiscripts", "mn", "mo", "mover", "mpadded", "mphantom", "mprescripts", "mroot", "mrow", "ms", "mspace", "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable", "mtd", "mtext", "mtr", "munder", "munderover", "none", "ol", "p", "picture", "pre", "q", "s", "samp", "section", "semantics", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "wbr"]);
export const READER_ALLOWED_ATTRIBUTES = Object.freeze(["alt", "cite", "class", "colspan", "columnspan", "datetime", "dir", "display", "displaystyle", "encoding", "fence", "height", "href", "lang", "linethickness", "lspace", "mathvariant", "notation", "reversed", "rowspan", "rspace", "scope", "scriptlevel", "separator", "span", "src", "start", "stretchy", "title", "type", "value", "width"]);
export const SAFE_URL_SCHEMES = Object.freeze(["http", "https", "mailto"]);
export const RTL_LANGUAGES = Object.freeze(["ar", "arc", "azb", "bal", "ckb", "dv", "fa", "glk", "he", "iw", "ji", "khw", "ks", "lrc", "mzn", "nqo", "pnb", "prs", "ps", "sd", "skr", "syr", "ug", "ur", "yi"]);
export const RTL_SCRIPTS = Object.freeze(["adlm", "arab", "hebr", "mand", "mend", "nkoo", "rohg", "samr", "syrc", "thaa"]);
