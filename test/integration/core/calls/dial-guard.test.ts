/**
 * The repeat-dial guard on a real profile folder: separate guards (as separate processes of the
 * profile have) racing for one destination, a dial in flight, one whose process died, the clock
 * set back, and a profile folder where the dial cannot be noted. (Two real `callbar dial`
 * processes at once: test/integration/cli/calls.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  IN_FLIGHT_MAX_MS,
  profileDialGuard,
  REPEAT_GUARD_MS,
  type RecentDials,
} from '../../../../src-main/core/calls/dial-guard';
import { CallbarError } from '../../../../src-main/core/errors';
import { capturingLogger } from '../../../support/sim-harness';

const profileDir = () => mkdtempSync(join(tmpdir(), 'callbar-dial-guard-'));

/** What a claim came to: the release, or the refusal's code. */
async function outcome(claim: Promise<() => Promise<void>>) {
  return claim.then(
    (release) => ({ release }),
    (error: unknown) => ({ refused: (error as CallbarError).code }),
  );
}

describe('the repeat-dial guard of a profile', () => {
  it('twenty guards of one profile claiming one number at once: exactly one dial', async () => {
    const dir = profileDir();
    const { log } = capturingLogger();
    const guards = Array.from({ length: 20 }, () => profileDialGuard(dir, log));
    const outcomes = await Promise.all(
      guards.map((guard) => outcome(guard.claim('+4930123456', '+49 30 123456'))),
    );
    expect(outcomes.filter((each) => 'release' in each)).toHaveLength(1);
    expect(outcomes.filter((each) => 'refused' in each).map((each) => each.refused)).toEqual(
      Array(19).fill('duplicate_dial'),
    );
    // Another number is another click.
    expect(await outcome(guards[3]!.claim('2200', 'Extension 2200'))).toHaveProperty('release');
  });

  it('a dial in flight blocks for as long as it lasts; once ended, for REPEAT_GUARD_MS more', async () => {
    const dir = profileDir();
    let now = 1_000_000;
    const { log } = capturingLogger();
    const app = profileDialGuard(dir, log, () => now);
    const cli = profileDialGuard(dir, log, () => now);
    const ended = await app.claim('2200', 'Extension 2200');
    now += 10_000; // a slow platform
    await expect(cli.claim('2200', 'Extension 2200')).rejects.toMatchObject({
      code: 'duplicate_dial',
      message: expect.stringContaining('Already calling Extension 2200') as unknown,
    });
    await ended();
    now += REPEAT_GUARD_MS - 1;
    await expect(cli.claim('2200', 'Extension 2200')).rejects.toMatchObject({
      code: 'duplicate_dial',
    });
    now += 1;
    await (
      await cli.claim('2200', 'Extension 2200')
    )();
  });

  it('a dial in flight in a process that died blocks only REPEAT_GUARD_MS; the clock set back does not block', async () => {
    const dir = profileDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
      .stdout.toString()
      .trim();
    let now = 5_000_000;
    const record: RecentDials = {
      dials: [
        { destination: '2200', at: now, in_flight: true, pid: Number(dead), host: hostname() },
      ],
    };
    writeFileSync(join(dir, 'last-dial.json'), JSON.stringify(record));
    const guard = profileDialGuard(dir, capturingLogger().log, () => now);
    await expect(guard.claim('2200', 'Extension 2200')).rejects.toMatchObject({
      code: 'duplicate_dial',
    });
    now += REPEAT_GUARD_MS;
    const release = await guard.claim('2200', 'Extension 2200');
    await release();
    const stored = JSON.parse(readFileSync(join(dir, 'last-dial.json'), 'utf8')) as RecentDials;
    expect(stored.dials).toEqual([
      { destination: '2200', at: now, in_flight: false, pid: process.pid, host: hostname() },
    ]);
    // The clock set back an hour: that record is "in the future", and blocks nothing.
    now -= 3600_000;
    await (
      await guard.claim('2200', 'Extension 2200')
    )();
    // A record in flight older than IN_FLIGHT_MAX_MS blocks nothing, even of a live process.
    const stale = profileDialGuard(dir, capturingLogger().log, () => now + IN_FLIGHT_MAX_MS);
    const hung = await guard.claim('+4930123456', '+49 30 123456');
    await (
      await stale.claim('+4930123456', '+49 30 123456')
    )();
    await hung();
  });

  it('a profile folder where the dial cannot be noted: refused, saying nothing was dialed', async () => {
    const dir = profileDir();
    mkdirSync(join(dir, 'last-dial.json')); // a folder where the file belongs
    // ...that cannot be kept aside either (a folder of that name, not empty, is in the way).
    mkdirSync(join(dir, 'last-dial.json.unreadable', 'in-the-way'), { recursive: true });
    const { log, lines } = capturingLogger();
    const error = (await profileDialGuard(dir, log)
      .claim('2200', 'Extension 2200')
      .catch((e: unknown) => e)) as CallbarError;
    expect(error).toBeInstanceOf(CallbarError);
    expect(error.code).toBe('dial_unrecorded');
    expect(error.message).toMatch(
      /cannot make sure the call is placed only once\. Nothing was dialed\.$/,
    );
    expect(lines.join('\n')).toContain('record of recent dials');
  });
});
