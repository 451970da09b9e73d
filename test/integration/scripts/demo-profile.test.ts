/**
 * The demo's profile between runs without --state ("Nothing is kept after this run"): the last
 * run's contacts, calls and stars go, the person's settings, the log and the code cache stay, and
 * nothing goes while a Callbar still runs on the folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain script of the demo's, without types
import { forgetLastRun as forget } from '../../../scripts/demo-profile.mjs';

const forgetLastRun = forget as (dataDir: string) => boolean;

/** A demo profile as a run leaves it, its link door naming `pid`. */
function lastRun(pid: number): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-demo-'));
  for (const name of ['settings.json', 'directory.bin', 'calls.json', 'favourites.json']) {
    writeFileSync(join(dataDir, name), '{}');
  }
  mkdirSync(join(dataDir, 'logs'));
  writeFileSync(join(dataDir, 'logs', 'callbar.log'), '');
  mkdirSync(join(dataDir, 'compile-cache'));
  writeFileSync(join(dataDir, 'link-door.json'), JSON.stringify({ version: 1, pid }));
  return dataDir;
}

describe('the demo profile between runs', () => {
  it('forgets the last run’s account data, keeping the settings, the log and the code cache', () => {
    // A process id no process has (above the kernel's pid_max).
    const dataDir = lastRun(2 ** 30);
    expect(forgetLastRun(dataDir)).toBe(true);
    expect(readdirSync(dataDir).sort()).toEqual(['compile-cache', 'logs', 'settings.json']);
    expect(readdirSync(join(dataDir, 'logs'))).toEqual(['callbar.log']);
  });

  it('leaves everything while a Callbar still runs on the folder', () => {
    const dataDir = lastRun(process.pid);
    const before = readdirSync(dataDir).sort();
    expect(forgetLastRun(dataDir)).toBe(false);
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });

  it('has nothing to forget before the first run', () => {
    expect(forgetLastRun(join(tmpdir(), `callbar-demo-none-${process.pid}`))).toBe(true);
  });
});
