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
  /** Stops the server (SIGTERM, so it writes its data) and starts it again on the same port. */
  restart(): Promise<void>;
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

/** A redis-server with `args`, once it accepts connections. */
export function redisServer(args: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${output}`)),
      20_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(`redis-server could not run (apt-get install redis-server): ${error.message}`),
      );
    });
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'callbar-redis-'));
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await stopped(child);
      child = await launch(port, dir);
    },
    stop: () => stopped(child),
  };
}
