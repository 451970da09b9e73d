/**
 * A real redis-server (Debian's package) for the relay's tests, on a free loopback port with its
 * data in a temporary folder (append-only file, so a restart keeps the streams as a deployed
 * Redis with persistence would). One per test file: start it in beforeAll, stop it in afterAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface RunningRedis {
  readonly url: string;
  /**
   * Stops the server (SIGTERM, so it writes its data) unless it is stopped, and starts it again
   * on the same port.
   */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): its connections stay open and nothing answers, until `resume`. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
  stop(): Promise<void>;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return redisServer([
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--save',
    '',
  ]);
}

/** Thrown when the server's port was taken between choosing it and binding it. */
export class PortTaken extends Error {}

/**
 * A redis-server with `args`, once it accepts connections. A server that exits first is reported
 * at once (not after the start timeout); one that lost its port to another process (a free port is
 * only free until someone binds it: another test file, or any outgoing connection's ephemeral
 * port) rejects with `PortTaken`, for `onFreePorts` to try again.
 */
export function redisServer(args: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start:\n${output}`)),
      20_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', () => {
      if (output.includes('Ready to accept connections')) return;
      fail(
        output.includes('Address already in use')
          ? new PortTaken(output)
          : new Error(`redis-server exited before it was ready:\n${output}`),
      );
    });
    child.once('error', (error) =>
      fail(
        new Error(`redis-server could not run (apt-get install redis-server): ${error.message}`),
      ),
    );
  });
}

/** Starts `start` on `count` fresh free ports, choosing again while a port was taken meanwhile. */
export async function onFreePorts<T>(
  count: number,
  start: (ports: number[]) => Promise<T>,
): Promise<{ ports: number[]; started: T }> {
  for (let attempt = 1; ; attempt += 1) {
    const ports: number[] = [];
    for (let index = 0; index < count; index += 1) ports.push(await freePort());
    try {
      return { ports, started: await start(ports) };
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 5) throw error;
    }
  }
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    // A paused server acts on SIGTERM only once it goes on.
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  });
}

export async function startRedis(): Promise<RunningRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-redis-'));
  const { ports, started } = await onFreePorts(1, ([free]) => launch(free!, dir));
  const port = ports[0]!;
  let child = started;
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await stopped(child);
      child = await launch(port, dir);
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    stop: () => stopped(child),
  };
}
