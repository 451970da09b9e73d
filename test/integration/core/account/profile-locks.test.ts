/**
 * The profile's locks (the session lock, the dial lock) held at once by one process: each keeps its
 * own bookkeeping in proper-lockfile, so releasing one neither releases nor breaks the other (the
 * other's periodic mtime update used to throw an uncaught TypeError once the first was released).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { profileSessionLock } from '../../../../src-main/core/account/session-lock';
import { capturingLogger } from '../../../support/sim-harness';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('the dial lock taken and released while the session lock is held leaves the session lock whole', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-locks-'));
  dirs.push(dataDir);
  const { log, lines } = capturingLogger();
  const session = profileSessionLock(dataDir, { log, staleMs: 5_000 });
  const dial = profileSessionLock(dataDir, { log, name: 'dial.lock', staleMs: 5_000 });

  await session.hold(async () => {
    await dial.hold(() => Promise.resolve());
    expect(existsSync(join(dataDir, 'dial.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'session.lock'))).toBe(true);
    // Past one mtime update of the session lock (every staleMs / 2).
    await sleep(3_000);
  });

  expect(existsSync(join(dataDir, 'session.lock'))).toBe(false);
  expect(lines.join('\n')).not.toMatch(/could not release|taken over/);
  // Both can be taken again at once.
  await session.hold(() => dial.hold(() => Promise.resolve()));
});
