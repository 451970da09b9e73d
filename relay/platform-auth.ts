/**
 * One rule for every call the platform makes to the relay, at its three addresses alike
 * (Activation `/activate`, Deactivation `/deactivate`, Webhook `/events`): the configured headers
 * (RELAY_PLATFORM_HEADERS), each in constant time, and when a secret is configured
 * (RELAY_WEBHOOK_SECRET) the secret as the address's last segment (`/activate/<secret>`…), in
 * constant time too. The relay does not start without one of them: an address the platform calls
 * without either would let anyone on the internet activate, sign out or feed any device.
 */
import { secretsEqual } from '../src-main/core/secret-compare';
import { HttpRejection } from '../src-main/core/http/http-rejection';

/** The platform's three addresses at the relay. */
export const PLATFORM_ROUTES = ['/activate', '/deactivate', '/events'] as const;
export type PlatformRoute = (typeof PLATFORM_ROUTES)[number];

export interface PlatformAuth {
  /** Headers the platform is configured to send with each call (shared secrets). */
  headers: Record<string, string>;
  /** The last segment of each address, when configured. */
  secret: string | undefined;
}

/** The authentication to check; throws when there is none (the relay must not start so). */
export function platformAuth(
  headers: Record<string, string> | undefined,
  secret: string | undefined,
): PlatformAuth {
  const auth = { headers: headers ?? {}, secret };
  if (Object.keys(auth.headers).length === 0 && !secret) {
    throw new Error(
      'The relay needs RELAY_WEBHOOK_SECRET or RELAY_PLATFORM_HEADERS: every call of the platform to it is authenticated by one of them.',
    );
  }
  return auth;
}

/**
 * Refuses a call to `path` (`route`, then the secret when configured) without the headers (401)
 * or without the right secret segment (403).
 */
export function checkPlatformCall(
  route: PlatformRoute,
  path: string,
  given: Record<string, string | string[] | undefined>,
  auth: PlatformAuth,
): void {
  for (const [name, expected] of Object.entries(auth.headers)) {
    const value = given[name.toLowerCase()];
    if (typeof value !== 'string' || !secretsEqual(value, expected)) {
      throw new HttpRejection(401, 'A required header is missing or wrong.');
    }
  }
  const rest = path.slice(route.length);
  const ok =
    auth.secret === undefined
      ? rest === ''
      : rest.startsWith('/') && secretsEqual(rest.slice(1), auth.secret);
  if (!ok) {
    throw new HttpRejection(
      403,
      'This is not an address the relay gave: it lacks the secret part or has a wrong one.',
    );
  }
}

/** A request path fit for the log: the secret segment of a platform address replaced by "…". */
export function loggedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  for (const route of PLATFORM_ROUTES) {
    if (path.startsWith(`${route}/`)) return `${route}/…`;
  }
  return path.startsWith('/connect/') ? '/connect/…' : path;
}
