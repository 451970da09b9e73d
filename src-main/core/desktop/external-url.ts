/**
 * The allow-list behind Callbar's one `shell.openExternal` wrapper: the system browser is only
 * ever asked to open the platform's portal (a link in the window), Callbar's one-time connect
 * link (the core, to connect) or a CRM link built from a template in the settings
 * (core/crm/crm-template.ts `isCrmUrl`). A link in the renderer, a redirect or a compromised
 * page cannot make Callbar launch `file:`, `smb:`, `ms-msdt:` or any other handler.
 */

import { originForLog } from '../http/origin-for-log';

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

/**
 * True when `url` is Callbar's own one-time connect link on this computer
 * (`http://127.0.0.1:<receiver_port>/connect/<nonce>`): the only address the core starts the
 * browser with, so the portal's confirmation key never appears on a browser's command line.
 */
export function isConnectLink(url: string, receiverPort: number): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return (
    target.protocol === 'http:' &&
    target.hostname === '127.0.0.1' &&
    target.port === String(receiverPort) &&
    !target.username &&
    !target.password &&
    /^\/connect\/[A-Za-z0-9_-]+$/.test(target.pathname) &&
    target.search === '' &&
    target.hash === ''
  );
}

/** Why a URL was refused, in a sentence for the log. */
export function refusedExternalUrl(url: string): string {
  return `Callbar refused to open ${originForLog(url)} in the browser: it is not the platform's portal, Callbar's connect link or a CRM link set in Settings.`;
}
