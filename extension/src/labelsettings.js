// Labeling settings: the sites where "Label this page" never runs (banks, mail, ...). Kept
// under their own storage key so the general settings (settings.js) stay as they are. Pure
// functions plus two storage helpers, so node tests run them without a browser.

import { siteOf } from "./settings.js";

export const LABELING_KEY = "labeling";

/** A site as the user typed it ("https://www.Bank.example/login" -> "bank.example"); null if unusable. */
export function cleanSite(text) {
  let value = String(text ?? "").trim().toLowerCase();
  if (!value) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//.test(value)) value = `http://${value}`;
  const site = siteOf(value);
  return site && /^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/.test(site) ? site : null;
}

export function normalizeLabeling(raw) {
  const src = raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {};
  const sites = [];
  for (const item of Array.isArray(src.excludedSites) ? src.excludedSites : []) {
    const site = cleanSite(item);
    if (site && !sites.includes(site)) sites.push(site);
  }
  sites.sort();
  return { excludedSites: sites };
}

/** Parse a textarea: one site per line (or separated by commas/spaces). */
export function parseSiteList(text) {
  return normalizeLabeling({ excludedSites: String(text ?? "").split(/[\s,]+/) }).excludedSites;
}

/** The excluded entry matching a URL (the site itself or any subdomain of it), or null. */
export function excludedEntry(labeling, url) {
  const site = siteOf(url);
  if (!site) return null;
  return labeling.excludedSites.find((entry) => site === entry || site.endsWith(`.${entry}`)) ?? null;
}

export async function loadLabeling(storageArea) {
  return normalizeLabeling((await storageArea.get(LABELING_KEY))?.[LABELING_KEY]);
}

export async function saveLabeling(storageArea, labeling) {
  const clean = normalizeLabeling(labeling);
  await storageArea.set({ [LABELING_KEY]: clean });
  return clean;
}
