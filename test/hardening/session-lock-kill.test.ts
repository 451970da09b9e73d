/**
 * kill -9 while holding the profile's session lock: the next process takes the lock over as soon
 * as it sees the holder no longer runs, not after the lock's staleness (10 s), nor after its
 * whole wait (60 s) when the clock was set back; a holder that still runs keeps it; without the
 * holder's record, the staleness is the limit.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { profileSessionLock } from '../../src-main/core/account/session-lock';
import { CallbarError } from '../../src-main/core/errors';
import { capturingLogger } from '../support/sim-harness';
import { recordFigure } from '../support/hardening/figures';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];

/** A process holding the lock of `dataDir`, once it says so. */
async function holder(dataDir: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '../support/hardening/hold-session-lock.ts'),
      dataDir,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for await (const line of createInterface({ input: child.stdout })) if (line === 'held') break;
  return {
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function profileDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-lock-kill-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the session lock after its holder was killed', () => {
  it('is taken over at once, even with staleness far away and the clock set back', async () => {
    const dataDir = profileDir();
    const held = await holder(dataDir);
    await held.kill();
    // As if the clock had been set back an hour since the holder last touched the lock.
    const future = new Date(Date.now() + 3600_000);
    utimesSync(join(dataDir, 'session.lock'), future, future);
    const { log, lines } = capturingLogger();
    // Ten minutes of staleness: only "the holder no longer runs" can explain getting the lock.
    const lock = profileSessionLock(dataDir, { log, staleMs: 10 * 60_000, waitMs: 30_000 });
    const started = performance.now();
    expect(await lock.hold(() => Promise.resolve('got it'))).toBe('got it');
    const waited = performance.now() - started;
    expect(lines.join('\n')).toContain('no longer runs');
    recordFigure('session lock, holder killed with -9', `taken over after ${waited.toFixed(0)} ms`);
  });

  it('is not taken from a holder that still runs', async () => {
    const dataDir = profileDir();
    const held = await holder(dataDir);
    try {
      const lock = profileSessionLock(dataDir, { log: capturingLogger().log, waitMs: 1_500 });
      const error = await lock.hold(() => Promise.resolve('got it')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CallbarError);
      expect((error as CallbarError).code).toBe('session_busy');
    } finally {
      await held.kill();
    }
  });

  it('without the holder record (killed right after taking it), waits for the staleness only', async () => {
    const dataDir = profileDir();
    const held = await holder(dataDir);
    await held.kill();
    rmSync(join(dataDir, 'session.lock.holder'));
    // A shorter staleness than the profile's 10 s keeps the suite quick; the rule is the same.
    const lock = profileSessionLock(dataDir, { log: capturingLogger().log, staleMs: 3_000 });
    const started = performance.now();
    expect(await lock.hold(() => Promise.resolve('got it'))).toBe('got it');
    recordFigure(
      'session lock, holder killed before recording itself',
      `taken over after ${((performance.now() - started) / 1000).toFixed(1)} s with a staleness of 3 s (the profile's: 10 s; the wait's limit: 60 s)`,
    );
  }, 60_000);
});
