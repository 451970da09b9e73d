/**
 * The ports a browser refuses to connect to: the Fetch standard's "bad ports"
 * (https://fetch.spec.whatwg.org/#bad-port), which Chromium, Firefox, Safari and Node's fetch all
 * enforce ("fetch failed", cause "bad port"; in Chromium ERR_UNSAFE_PORT). A loopback listener
 * the user's browser must reach (the receiver the portal redirects to, the web preview, the demo's
 * simulator) must not listen on one: the portal's redirect would fail with an opaque error.
 *
 * The list itself is browser-refused-ports.json, so that scripts/demo.mjs (plain Node, no
 * TypeScript) and the tests' port chooser read this same list.
 */
import ports from './browser-refused-ports.json' with { type: 'json' };

const REFUSED: ReadonlySet<number> = new Set(ports);

/** The refused ports, in ascending order. */
export const BROWSER_REFUSED_PORTS: readonly number[] = ports;

/** True when browsers refuse to connect to `port`. */
export function browserRefusesPort(port: number): boolean {
  return REFUSED.has(port);
}

/** The first port above `port` that browsers connect to (6665 → 6670), for a suggestion. */
export function acceptedPortAbove(port: number): number {
  let next = port + 1;
  while (REFUSED.has(next)) next += 1;
  return next;
}
