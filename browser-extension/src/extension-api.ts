/**
 * The WebExtension API under the name each browser gives it: Firefox's `browser` (promises), else
 * Chromium's `chrome` (promises in Manifest V3). Both are typed as Chromium's.
 */
export const api: typeof chrome =
  (globalThis as unknown as { browser?: typeof chrome }).browser ?? globalThis.chrome;

/** What a content script may ask the background (nothing else is answered). */
export type ContentRequest = { type: 'status' } | { type: 'dial'; link: string };

/** The background's answer to `status`: what a page's scan needs, or that Callbar is not there. */
export type PageStatus = { ok: true; region: string; label: string } | { ok: false };

/** As long as Callbar's host accepts a link. */
export const MAX_LINK = 512;
