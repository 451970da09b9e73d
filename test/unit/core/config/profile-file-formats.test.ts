/**
 * Each small file of the profile has its own versioned format (config/file-format.ts): a file an
 * older Callbar wrote (no `version`) is read and rewritten with the version; a file a newer
 * Callbar wrote is refused, kept aside whole under its own name and said so, never overwritten.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountHistoryFile } from '../../../../src-main/core/account/account-history';
import { SessionEndedFile } from '../../../../src-main/core/account/session-ended-marker';
import { RecentDialsFile } from '../../../../src-main/core/calls/dial-guard';
import type { FileFormat } from '../../../../src-main/core/config/file-format';
import { profileStateFile } from '../../../../src-main/core/config/state-file';
import { InstallationIdFile } from '../../../../src-main/core/desktop/installation-id';
import {
  loadWindowBounds,
  saveWindowBounds,
  WINDOW_STATE_FILE,
} from '../../../../src-main/core/desktop/window-state';
import { LearntRateFile } from '../../../../src-main/core/directory/request-pacer';
import { FavouritesFile } from '../../../../src-main/core/favourites/favourites';
import { createLogger } from '../../../../src-main/core/log/logger';
import { RelayCursorFile } from '../../../../src-main/core/relay/relay-link';

interface Case {
  file: string;
  format: FileFormat<unknown>;
  /** The file as Callbar wrote it before formats had versions. */
  old: Record<string, unknown>;
  /** What reading it gives. */
  content: unknown;
}

const account = {
  tenant_id: 't1',
  user_extension: '201',
  base_url: 'https://pbx.example.com',
  connected_at: '2026-01-02T03:04:05.000Z',
};
const CASES: Case[] = [
  {
    file: 'favourites.json',
    format: FavouritesFile,
    old: { format: 1, favourites: [{ contact_id: 7, starred_at: 1700000000000 }] },
    content: { favourites: [{ contact_id: 7, starred_at: 1700000000000 }] },
  },
  {
    file: 'last-account.json',
    format: AccountHistoryFile,
    old: { ...account, replaced: { ...account, user_extension: '202' } },
    content: { ...account, replaced: { ...account, user_extension: '202' } },
  },
  {
    file: 'session-ended.json',
    format: SessionEndedFile,
    old: { tenant_id: 't1', user_extension: '201', base_url: 'x', ended_at: '2026-01-02' },
    content: { tenant_id: 't1', user_extension: '201', base_url: 'x', ended_at: '2026-01-02' },
  },
  {
    file: 'last-dial.json',
    format: RecentDialsFile,
    old: { dials: [{ destination: '+4312345', at: 1, in_flight: false, pid: 42, host: 'desk' }] },
    content: {
      dials: [{ destination: '+4312345', at: 1, in_flight: false, pid: 42, host: 'desk' }],
    },
  },
  {
    file: 'rate-limit.json',
    format: LearntRateFile,
    old: { budget: 10, window_ms: 1000, learnt_at: '2026-01-02T03:04:05.000Z' },
    content: { budget: 10, window_ms: 1000, learnt_at: '2026-01-02T03:04:05.000Z' },
  },
  {
    file: 'relay-cursor.json',
    format: RelayCursorFile,
    old: { device_id: 'd1', offset: '1700000000000-0' },
    content: { device_id: 'd1', offset: '1700000000000-0' },
  },
  {
    file: 'update-id.json',
    format: InstallationIdFile,
    old: { id: '9b2f7a52-3c1e-4f0a-8d6b-1e2f3a4b5c6d' },
    content: { id: '9b2f7a52-3c1e-4f0a-8d6b-1e2f3a4b5c6d' },
  },
];

function open(testCase: Case) {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-format-'));
  const lines: string[] = [];
  const log = createLogger((line) => lines.push(line), 'debug');
  const path = join(dir, testCase.file);
  return { dir, path, lines, state: profileStateFile(path, testCase.format, log, testCase.file) };
}

describe.each(CASES)('$file', (testCase) => {
  it('an older, unversioned file is read (migrated) and rewritten with its version', async () => {
    const { path, state } = open(testCase);
    writeFileSync(path, JSON.stringify(testCase.old));
    const read = await state.read();
    expect(read).toEqual(testCase.content);
    await state.write(read);
    const written = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({ version: 1, ...(testCase.content as object) });
    // The file validates against its own versioned disk schema.
    expect(testCase.format.schema.parse(written)).toEqual(written);
    expect(await state.read()).toEqual(testCase.content);
  });

  it('a newer version is refused, kept aside whole and said so; never overwritten', async () => {
    const { dir, path, lines, state } = open(testCase);
    const future = JSON.stringify({ version: 2, what: 'a newer Callbar wrote this' });
    writeFileSync(path, future);
    expect(await state.read()).toBeUndefined();
    expect(existsSync(path)).toBe(false);
    const aside = readdirSync(dir).filter((name) => name.startsWith(`${testCase.file}.version-2-`));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(future);
    expect(lines.join('\n')).toContain(
      'written in format version 2 by a newer Callbar; this one reads up to 1: kept aside',
    );
  });

  it('a file that cannot be parsed is kept aside before a write, said once', async () => {
    const { dir, path, lines, state } = open(testCase);
    for (const broken of ['{"version":1,', JSON.stringify({ version: 1, wrong: true })]) {
      writeFileSync(path, broken);
      expect(await state.read()).toBeUndefined();
      expect(await state.read()).toBeUndefined();
      await state.write(testCase.content);
      expect(readFileSync(join(dir, `${testCase.file}.unreadable`), 'utf8')).toBe(broken);
    }
    const said = lines.filter((line) => line.includes('cannot be read'));
    expect(said).toHaveLength(2);
    expect(said[1]).toContain(`${testCase.file}.unreadable`);
  });
  it('a file too large to read, or a folder or a pipe in its place, is kept aside before a write', async () => {
    const { dir, path, lines, state } = open(testCase);
    const unreadable = join(dir, `${testCase.file}.unreadable`);
    // Larger than the 64 kB a state file may hold (a hand edit pasted a long list, say).
    const large = JSON.stringify({ version: 1, pad: ' '.repeat(70 * 1024) });
    writeFileSync(path, large);
    expect(await state.read()).toBeUndefined();
    await state.write(testCase.content);
    expect(readFileSync(unreadable, 'utf8')).toBe(large);
    expect(await state.read()).toEqual(testCase.content);

    rmSync(path);
    rmSync(unreadable);
    mkdirSync(path);
    writeFileSync(join(path, 'inside'), 'kept');
    expect(await state.read()).toBeUndefined();
    await state.write(testCase.content);
    expect(readFileSync(join(unreadable, 'inside'), 'utf8')).toBe('kept');
    expect(await state.read()).toEqual(testCase.content);

    if (process.platform !== 'win32') {
      rmSync(unreadable, { recursive: true });
      rmSync(path);
      execFileSync('mkfifo', [path]);
      expect(await state.read()).toBeUndefined();
      await state.write(testCase.content);
      expect(lstatSync(unreadable).isFIFO()).toBe(true);
    }
    expect(lines.filter((line) => line.includes('cannot be read: kept aside'))).toHaveLength(
      process.platform === 'win32' ? 2 : 3,
    );
  });

  it('a link in its place is not followed nor moved: the write replaces the link only', async () => {
    const { dir, path, state } = open(testCase);
    const target = join(dir, 'elsewhere.json');
    writeFileSync(target, JSON.stringify({ version: 1, pad: ' '.repeat(70 * 1024) }));
    symlinkSync(target, path);
    expect(await state.read()).toBeUndefined();
    await state.write(testCase.content);
    expect(existsSync(join(dir, `${testCase.file}.unreadable`))).toBe(false);
    expect(readFileSync(target, 'utf8')).toContain('pad');
    expect(await state.read()).toEqual(testCase.content);
  });
});

describe('window-state.json', () => {
  it('an unversioned file is read; a save writes version 1; a newer version means default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-format-'));
    const file = join(dir, WINDOW_STATE_FILE);
    const bounds = { x: 10, y: 20, width: 400, height: 600 };
    writeFileSync(file, JSON.stringify(bounds));
    expect(loadWindowBounds(dir)).toEqual(bounds);
    await saveWindowBounds(dir, bounds);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, ...bounds });
    writeFileSync(file, JSON.stringify({ version: 2, ...bounds }));
    expect(loadWindowBounds(dir)).toBeUndefined();
  });
});
