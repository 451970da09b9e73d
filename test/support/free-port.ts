import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { browserRefusesPort } from '../../src-main/core/http/browser-refused-ports';

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

/** The range drawn from; CALLBAR_TEST_PORTS=low-high narrows it (free-port.test.ts crowds it). */
const [LOWEST, ABOVE] = (() => {
  const narrowed = /^(\d+)-(\d+)$/.exec(process.env.CALLBAR_TEST_PORTS ?? '');
  if (narrowed) return [Number(narrowed[1]), Number(narrowed[2]) + 1];
  const lowest = 10_000;
  return [lowest, Math.max(lowest + 1_000, ephemeralStart())];
})();

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The ports handed out, across every process of the run: a port chosen and not yet bound is free
 * to the check, so another draw of the same port (in this process: a relay's public and metrics
 * ports, chosen one after the other; or in another: the three stages of `npm test` run side by
 * side, and a demo chose three ports that another stage's test then took before the demo bound
 * them) would give one port to two listeners. Each port handed out is a file in one folder,
 * created only if absent, holding the process's id; a file whose process has ended is taken over.
 */
const reserved =
  process.env.CALLBAR_TEST_PORTS_DIR ?? join(tmpdir(), `callbar-test-ports-${userInfo().uid}`);

function processLives(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process id a reservation holds; undefined while it is being written or just removed. */
function holderOf(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the reservation if there is none; true when this process wrote it. */
function create(file: string): boolean {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/** True when `port` is now this process's to use: never handed out, or by a process now gone. */
function reserve(port: number): boolean {
  const file = join(reserved, String(port));
  mkdirSync(reserved, { recursive: true });
  if (create(file)) return true;
  const gone = holderOf(file);
  if (gone === undefined || processLives(gone)) return false;
  // Its process has ended: take it over, one process at a time (a lock beside it, made only if
  // absent). Without it, one process could remove the reservation another had just taken over,
  // and both would hold the port (a CI run handed one port to both of free-port.test.ts's
  // processes). A process that dies holding the lock leaves that one port unused.
  const lock = `${file}.taking`;
  try {
    mkdirSync(lock);
  } catch {
    return false;
  }
  try {
    if (holderOf(file) !== gone) return false;
    rmSync(file, { force: true });
    return create(file);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A loopback port nobody listens on right now, and one the kernel will not hand out itself. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (ABOVE - LOWEST));
    // A port browsers and Node's fetch refuse (the Fetch standard's "bad ports"; in the range
    // drawn from, 10080) could not be reached by a test's fetch ("fetch failed", a CI run's
    // Connect in import-dialog.spec.ts) nor by Chromium.
    if (browserRefusesPort(port)) continue;
    if (reserve(port) && (await listensOn(port))) return port;
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${ABOVE}`);
}
