// One namespace for both browsers: Firefox has `browser` (promises); Chromium 156 defines
// both, and its `chrome.*` also returns promises in MV3.
export const api = globalThis.browser ?? globalThis.chrome;

/** The last port/API error message, read the way each browser reports it. */
export function lastErrorMessage(port) {
  return port?.error?.message ?? globalThis.chrome?.runtime?.lastError?.message ?? "";
}
