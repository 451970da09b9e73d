/**
 * The allow-list behind Callbar's one `shell.openExternal` wrapper: the system browser is only
 * ever asked to open the platform's portal. A link in the renderer, a redirect or a compromised
 * page cannot make Callbar launch `file:`, `smb:`, `ms-msdt:` or any other handler.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * True when `url` may be opened in the system browser: an https URL of the configured portal's
 * origin, without credentials. A portal on this computer (the simulator, a development
 * platform) may be plain http, since that traffic never leaves the machine.
 */
export function isAllowedExternalUrl(url: string, portalUrl: string): boolean {
  let target: URL;
  let portal: URL;
  try {
    target = new URL(url);
    portal = new URL(portalUrl);
  } catch {
    return false;
  }
  if (target.username || target.password) return false;
  const secure =
    target.protocol === 'https:' ||
    (target.protocol === 'http:' && LOOPBACK_HOSTS.has(target.hostname));
  return secure && target.origin === portal.origin;
}

/** Why a URL was refused, in a sentence for the log (never the full URL: it may hold a code). */
export function refusedExternalUrl(url: string): string {
  let where = 'an unreadable address';
  try {
    const parsed = new URL(url);
    where = `${parsed.protocol}//${parsed.host}`;
  } catch {
    // keep the generic wording
  }
  return `Callbar refused to open ${where}: only the platform's portal is opened in the browser.`;
}
