// The reader's notice about embedded frames it could not read (other sites' frames): it names
// only frames that could hold the page's text. An ad, a social button or a site's navigation
// strip in a frame is no loss to a reader, and naming it ("2 embedded frames … (ads.…)")
// sends a person looking for text that was never there.
//
// The snapshot (agent.js) gives the frames' addresses; their sizes and names are read here from
// the snapshot's markup (the live DOM serialized): the size the page gives each frame in its
// width/height attributes or inline style.

/** Hosts and paths of ad servers and social widgets (like, share, follow buttons). */
const AD_LABEL = /(?:^|\.)(?:ads?\d*|adserver|adservice|adserving|pagead\d*)\.[^.]+\.[^.]+/i;
const AD_NETWORK = /(?:^|\.)(?:doubleclick|googlesyndication|googleadservices|amazon-adsystem|adnxs|taboola|outbrain|criteo|serving-sys|moatads|adform|pubmatic|rubiconproject|openx|casalemedia)\./i;
const AD_PATH = /\/(?:ads?|adframe|adserver|banners?|sponsor(?:ed)?)(?:[/._-]|$)|[?&](?:ad_?unit|adslot|slot_?id)=/i;
const WIDGET = /(?:^|\.)(?:facebook\.com\/plugins\/|platform\.twitter\.com\/|twitter\.com\/widgets|syndication\.twitter\.com\/|plusone\.google\.com\/|platform\.linkedin\.com\/|assets\.pinterest\.com\/|addthis\.com\/|sharethis\.com\/)|\/(?:plugins|widgets?)\/(?:like|share|follow|tweet)/i;
/** An id, class, name or title saying the frame is furniture, not text. */
const FURNITURE = /(?:^|[\s_-])(?:header|nav|navigation|menu|footer|banner|ads?|advert|advertisement|sponsor|social|share|like|tweet|widget)(?:$|[\s_-])/i;
/** Below these (CSS pixels) a frame is a strip or a button: no room for an article's text. */
const MIN_WIDTH = 250;
const MIN_HEIGHT = 200;

const FRAME_TAG = /<i?frame\b[^>]*>/gi;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function unescape(value) {
  return value.replace(/&amp;/g, "&").replace(/&quot;/g, "\"").replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

function attributes(tag) {
  const found = {};
  const body = tag.replace(/^<i?frame\b/i, "").replace(/\/?>$/, "");
  for (const match of body.matchAll(ATTRIBUTE)) {
    const name = match[1].toLowerCase();
    if (!(name in found)) found[name] = unescape(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return found;
}

/** A length in CSS pixels ("165", "165px"); null for a percentage or anything else. */
function pixels(value) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$/i.exec(value ?? "");
  return match ? Number(match[1]) : null;
}

function styleLength(style, property) {
  const match = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`, "i").exec(style ?? "");
  return match ? pixels(match[1]) : null;
}

function resolved(url, base) {
  try {
    return new URL(url, base || undefined).href;
  } catch {
    return url;
  }
}

/** The frames of ``html`` by their resolved address: attributes of the first with each. */
export function framesOf(html, baseUrl) {
  const frames = new Map();
  for (const match of String(html || "").matchAll(FRAME_TAG)) {
    const found = attributes(match[0]);
    if (!found.src) continue;
    const url = resolved(found.src.trim(), baseUrl);
    if (!frames.has(url)) frames.set(url, found);
  }
  return frames;
}

/** Whether a frame at ``url`` (``found``: its attributes, if known) could hold the page's text. */
export function mayHoldText(url, found) {
  let address;
  try {
    address = new URL(url);
  } catch {
    return true;
  }
  const where = `${address.hostname}${address.pathname}`;
  if (AD_LABEL.test(address.hostname) || AD_NETWORK.test(address.hostname)
      || AD_PATH.test(`${address.pathname}${address.search}`) || WIDGET.test(where)) return false;
  if (!found) return true;
  const names = [found.id, found.class, found.name, found.title].filter(Boolean).join(" ");
  if (FURNITURE.test(names)) return false;
  const width = styleLength(found.style, "width") ?? pixels(found.width);
  const height = styleLength(found.style, "height") ?? pixels(found.height);
  return !((width !== null && width < MIN_WIDTH) || (height !== null && height < MIN_HEIGHT));
}

/** The snapshot's ``unreachable`` with only the frames that could hold the page's text
 * counted and named (the frames it counted but did not name stay counted). */
export function textFramesOnly(unreachable, html, baseUrl) {
  if (!unreachable || !unreachable.frames) return unreachable ?? null;
  const urls = unreachable.frameUrls ?? [];
  const frames = framesOf(html, baseUrl);
  const kept = urls.filter((url) => mayHoldText(url, frames.get(url)));
  return { ...unreachable, frames: Math.max(0, unreachable.frames - (urls.length - kept.length)), frameUrls: kept };
}
