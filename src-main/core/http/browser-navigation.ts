import type { IncomingHttpHeaders } from 'node:http';

/**
 * One-time links (the receiver's `/connect/<nonce>`, the web preview's start address) are for
 * the browser Callbar started: a navigation the browser made by itself, which browsers mark
 * `Sec-Fetch-Site: none` (older browsers and other clients send no such header). A request another
 * page caused (an <img>, an <iframe>, fetch, a link or a form) says `cross-site`, `same-site` or
 * `same-origin` and must not spend the link, even from a page that learned it (a shared
 * machine's browser history).
 */
export function openedByTheBrowserItself(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  return site === undefined || site === 'none';
}
