/**
 * When the directory's timer tries a failed sync again (SyncProblems.retryDue): a minute after a
 * first failure, then twice as long after each failure in a row, up to the sync interval; at
 * once after a sync completed, and when the clock was set back. A cancelled sync is no failure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, SyncProblems } from '../../../../src-main/core/directory/sync-problem';
import { CallbarError } from '../../../../src-main/core/errors';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { said } from '../../../../src-main/core/text/said';

const OWNER = { tenant_id: 'acme', user_extension: '201', base_url: 'sim' };
const INTERVAL_MS = 15 * 60_000;
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function rig() {
  const dataDir = await mkdtemp(join(tmpdir(), 'callbar-sync-retry-'));
  dirs.push(dataDir);
  const clock = { at: 1_000_000, now: () => clock.at, sleep: () => Promise.resolve() };
  const problems = new SyncProblems({ dataDir, log: silentLogger, intervalMs: INTERVAL_MS }, clock);
  /** Whether a try is due `ms` after the last failure. */
  const dueAfter = (ms: number) => {
    const failedAt = clock.at;
    clock.at = failedAt + ms;
    const due = problems.retryDue();
    clock.at = failedAt;
    return due;
  };
  return { problems, clock, dueAfter };
}

describe("a failed sync's retries", () => {
  it('wait 1, 2, 4, 8 minutes after failures in a row, then the sync interval', async () => {
    const { problems, dueAfter } = await rig();
    expect(problems.retryDue()).toBe(true);
    const waits: number[] = [];
    for (let failure = 1; failure <= 6; failure++) {
      await problems.keep(OWNER, new Error('the platform is away'), 0);
      // The shortest wait (in minutes) after which a try is due.
      let minutes = 1;
      while (!dueAfter(minutes * 60_000) && minutes <= 60) minutes++;
      expect(dueAfter(minutes * 60_000 - 1)).toBe(false);
      waits.push(minutes);
    }
    expect(waits).toEqual([1, 2, 4, 8, 15, 15]);
    expect(FIRST_RETRY_MS).toBe(60_000);
  });

  it('start again from nothing once a sync completed; a cancelled sync is no failure', async () => {
    const { problems, dueAfter } = await rig();
    for (let failure = 1; failure <= 3; failure++) {
      await problems.keep(OWNER, new Error('the platform is away'), 0);
    }
    expect(dueAfter(60_000)).toBe(false);
    await problems.clear();
    expect(problems.retryDue()).toBe(true);
    await problems.keep(
      OWNER,
      new CallbarError('sync_cancelled', said('errors:directory.closing')),
      0,
    );
    expect(problems.retryDue()).toBe(true);
  });

  it('try at once when the clock was set back', async () => {
    const { problems, dueAfter } = await rig();
    await problems.keep(OWNER, new Error('the platform is away'), 0);
    expect(dueAfter(30_000)).toBe(false);
    expect(dueAfter(-3_600_000)).toBe(true);
  });
});
