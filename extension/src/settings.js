// User settings: default algorithm and params, per-site rules, transport, privacy switches.
// Pure functions over plain objects plus two storage helpers that take the storage area, so
// node tests run them without a browser.

export const SETTINGS_KEY = "settings";
export const SETTINGS_VERSION = 1;

export const TRANSPORTS = Object.freeze(["native", "websocket"]);
export const RULE_ACTIONS = Object.freeze(["reader", "hide"]);

export const DEFAULT_SETTINGS = Object.freeze({
  version: SETTINGS_VERSION,
  algorithm: "auto",  // reader view: auto; hide and overlay then use linkblocks
  params: {},  // {algorithmName: {param: value}}; missing params take the host's (paper) defaults
  transport: { kind: "native", wsUrl: "ws://127.0.0.1:8787/", wsToken: "" },
  privacy: {
    sendUrl: true,        // send the page address (resolves relative links in the reader view)
    alwaysPrivate: false, // ask the host to store nothing for every page, not only private windows
    runInPrivate: true,   // allow actions in private windows (always sent as private)
    learnSites: false,    // let the host store page structure to learn each site's template
  },
  rules: [],  // [{site, action, algorithm, params, createdAt}]
});

/** The site key of a URL (its host name, lower case, without "www."); null for non-web URLs. */
export function siteOf(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  return parsed.hostname.toLowerCase().replace(/^www\./, "");
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Only JSON scalars survive as param values; anything else is dropped. */
export function cleanParams(params) {
  const out = {};
  if (!isPlainObject(params)) return out;
  for (const [key, value] of Object.entries(params)) {
    if (typeof key !== "string" || !key) continue;
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
    else if (typeof value === "boolean" || typeof value === "string") out[key] = value;
  }
  return out;
}

function cleanRule(rule) {
  if (!isPlainObject(rule)) return null;
  const site = typeof rule.site === "string" ? rule.site.trim().toLowerCase().replace(/^www\./, "") : "";
  if (!site || !RULE_ACTIONS.includes(rule.action)) return null;
  return {
    site,
    action: rule.action,
    algorithm: typeof rule.algorithm === "string" && rule.algorithm ? rule.algorithm : null,
    params: cleanParams(rule.params),
    createdAt: Number.isFinite(rule.createdAt) ? rule.createdAt : 0,
  };
}

/** Settings as stored, merged over the defaults; bad fields fall back to defaults. */
export function normalizeSettings(raw) {
  const src = isPlainObject(raw) ? raw : {};
  const d = DEFAULT_SETTINGS;
  const transport = isPlainObject(src.transport) ? src.transport : {};
  const privacy = isPlainObject(src.privacy) ? src.privacy : {};
  const params = {};
  if (isPlainObject(src.params)) {
    for (const [name, value] of Object.entries(src.params)) params[name] = cleanParams(value);
  }
  const rules = [];
  const seen = new Set();
  for (const rule of Array.isArray(src.rules) ? src.rules : []) {
    const clean = cleanRule(rule);
    if (clean && !seen.has(clean.site)) {
      seen.add(clean.site);
      rules.push(clean);
    }
  }
  const bool = (v, fallback) => (typeof v === "boolean" ? v : fallback);
  return {
    version: SETTINGS_VERSION,
    algorithm: typeof src.algorithm === "string" && src.algorithm ? src.algorithm : d.algorithm,
    params,
    transport: {
      kind: TRANSPORTS.includes(transport.kind) ? transport.kind : d.transport.kind,
      wsUrl: typeof transport.wsUrl === "string" && /^wss?:\/\//.test(transport.wsUrl)
        ? transport.wsUrl : d.transport.wsUrl,
      wsToken: typeof transport.wsToken === "string" ? transport.wsToken : "",
    },
    privacy: {
      sendUrl: bool(privacy.sendUrl, d.privacy.sendUrl),
      alwaysPrivate: bool(privacy.alwaysPrivate, d.privacy.alwaysPrivate),
      runInPrivate: bool(privacy.runInPrivate, d.privacy.runInPrivate),
      learnSites: bool(privacy.learnSites, d.privacy.learnSites),
    },
    rules,
  };
}

/** The rule for a URL's site, or null. */
export function ruleFor(settings, url) {
  const site = siteOf(url);
  if (!site) return null;
  return settings.rules.find((rule) => rule.site === site) ?? null;
}

/** Settings with `rule` added or replacing the rule of the same site. */
export function upsertRule(settings, rule) {
  const clean = cleanRule({ createdAt: Date.now(), ...rule });
  if (!clean) throw new TypeError("a rule needs a site and an action (reader or hide)");
  const rules = settings.rules.filter((r) => r.site !== clean.site);
  rules.push(clean);
  rules.sort((a, b) => a.site.localeCompare(b.site));
  return { ...settings, rules };
}

/** Settings without the rule of `site` (one-click revert). */
export function removeRule(settings, site) {
  return { ...settings, rules: settings.rules.filter((r) => r.site !== site) };
}

/** Algorithm and params to use on a URL: the site's rule first, then the defaults. */
export function choiceFor(settings, url) {
  const rule = ruleFor(settings, url);
  const algorithm = rule?.algorithm || settings.algorithm;
  const params = { ...(settings.params[algorithm] ?? {}), ...(rule?.algorithm === algorithm ? rule.params : {}) };
  return { algorithm, params, rule };
}

/** Whether a request for this tab must ask the host to store nothing. */
export function isPrivateRequest(settings, incognito) {
  return Boolean(incognito) || settings.privacy.alwaysPrivate;
}

export async function loadSettings(storageArea) {
  const stored = await storageArea.get(SETTINGS_KEY);
  return normalizeSettings(stored?.[SETTINGS_KEY]);
}

export async function saveSettings(storageArea, settings) {
  const clean = normalizeSettings(settings);
  await storageArea.set({ [SETTINGS_KEY]: clean });
  return clean;
}
