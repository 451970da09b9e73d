import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where a test's fixed port comes from: below the kernel's ephemeral range. A port the kernel
 * hands out (`listen(0)`, or the local end of any outgoing connection) is free only until the
 * kernel hands it out again, and a suite making thousands of connections took a receiver's or a
 * redis-server's port between choosing it and binding it (CI failed on it twice). Ports below the
 * range are never handed out by the kernel, so only another explicit choice can collide with
 * one: a random one, checked by binding it.
 */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    return Number(low) || 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 10_000;
const ABOVE = Math.max(LOWEST + 1_000, ephemeralStart());

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The ports this process handed out: a port chosen and not yet bound (a relay's public and
 * metrics ports, chosen one after the other) is free to the check, so the same draw twice would
 * give one port to two listeners. Never twice, then (files sharing a worker share this too).
 */
const handedOut = new Set<number>();

/** A loopback port nobody listens on right now, and one the kernel will not hand out itself. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (ABOVE - LOWEST));
    if (handedOut.has(port)) continue;
    if (await listensOn(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${ABOVE}`);
}
