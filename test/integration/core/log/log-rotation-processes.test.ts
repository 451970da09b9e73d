/**
 * Several processes of one profile writing the log at once (the app, `callbar native-host`, a CLI
 * command): real processes through the real file logger, with a small cap so that they rotate
 * the file hundreds of times. A process that found the file full a moment after another rotated
 * it renamed the other's fresh file over the one just rotated: the log kept one line of history
 * instead of a file's worth.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../../..');
const CAP = 2000;
const WRITERS = ['app', 'native-host', 'cli'];
const LINES = 4000;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function writer(path: string, name: string): Promise<{ smallestRotated: number }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'test/support/hardening/log-writer-child.ts'),
      path,
      String(CAP),
      String(LINES),
      name,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as { smallestRotated: number })
        : reject(new Error(`writer ${name} exited ${code}`)),
    ),
  );
}

it('three processes rotating one log: every rotated file is a full one, and every line is whole', async () => {
  dir = mkdtempSync(join(tmpdir(), 'callbar-log-'));
  const path = join(dir, 'callbar.log');
  const seen = await Promise.all(WRITERS.map((name) => writer(path, name)));
  const lines = [path, `${path}.1`].flatMap((file) =>
    readFileSync(file, 'utf8').trimEnd().split('\n'),
  );
  const lineBytes = Buffer.byteLength(lines[0]! + '\n');
  // Each rotated file was the log when full: at most one line short of the cap.
  for (const { smallestRotated } of seen) {
    expect(smallestRotated).toBeGreaterThan(CAP - lineBytes);
  }
  for (const line of lines) expect(JSON.parse(line)).toMatchObject({ message: 'line' });
  // No rotation lock left behind.
  expect(readdirSync(dir).sort()).toEqual(['callbar.log', 'callbar.log.1']);
});
