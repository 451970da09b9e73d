/**
 * The profile's file lock (withFileLock) after the clock was set back: a lock left by a process
 * that died while the clock was an hour ahead is dated an hour ahead of the clock now. It counted
 * as fresh until the clock caught up, and every write under it (the call log, the directory's
 * cache) failed meanwhile; it is taken over once the lock's own wait is over.
 */
import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { withFileLock } from '../../../../src-main/core/files/lockfile';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('takes over a lock a dead process left while the clock was an hour ahead', async () => {
  dir = await mkdtemp(join(tmpdir(), 'callbar-lock-'));
  const file = join(dir, 'calls.json');
  await mkdir(`${file}.lock`);
  const ahead = new Date(Date.now() + 3_600_000);
  await utimes(`${file}.lock`, ahead, ahead);
  await expect(withFileLock(file, () => Promise.resolve('written'))).resolves.toBe('written');
}, 30_000);
