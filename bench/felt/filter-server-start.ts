/**
 * Starts the channel baseline's filter server (bench/felt/baseline/filter-server.ts) in a process
 * of its own on the given contacts, and stops it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './build';

export interface RunningFilterServer {
  /** The channel baseline page's address (served by it, asking it over a WebSocket). */
  url: string;
  stop(): void;
}

export async function startFilterServer(
  contacts: readonly unknown[],
  pageFolder: string,
): Promise<RunningFilterServer> {
  const folder = mkdtempSync(join(tmpdir(), 'felt-filter-'));
  const file = join(folder, 'contacts.json');
  writeFileSync(file, JSON.stringify(contacts));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/felt/baseline/filter-server.ts'), file, pageFolder],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const stop = () => {
    child.kill();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const port = /^port (\d+)$/.exec(line)?.[1];
      if (port) {
        const origin = `127.0.0.1:${port}`;
        return { url: `http://${origin}/?channel=${encodeURIComponent(`ws://${origin}`)}`, stop };
      }
    }
    throw new Error('the filter server ended before it printed its port');
  } catch (error) {
    stop();
    throw error;
  }
}
