/**
 * Reading a profile file in one buffer of its fstat size: the whole text comes back (several
 * 64 KB chunks' worth, multi-byte characters across any boundary), and a file holding more than
 * its fstat said (it grew; /proc files say 0) is read on while bounded, refused past the bound.
 */
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  readBytesNoFollowAhead,
  readFileNoFollow,
  readFileNoFollowSync,
} from '../../../../src-main/core/files/no-follow-file';
import { CallbarError } from '../../../../src-main/core/errors';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileHolding(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-read-'));
  dirs.push(dir);
  const file = join(dir, 'file.json');
  writeFileSync(file, text);
  return file;
}

/** A /proc file: a regular file whose fstat size is 0 though it holds text (Linux only). */
const PROC_FILE = '/proc/self/status';
const onLinux = existsSync(PROC_FILE) ? it : it.skip;

/** readBytesNoFollowAhead's bytes as text, as the others read them. */
const readAhead = async (path: string, maxBytes: number) =>
  (await readBytesNoFollowAhead(path, maxBytes))?.toString('utf8');

describe('readFileNoFollow / readFileNoFollowSync / readBytesNoFollowAhead', () => {
  const text = 'Zoë Müller ☎ '.repeat(30_000); // ~480 KB, multi-byte characters throughout

  it('reads the whole text of a file larger than one chunk', async () => {
    const file = fileHolding(text);
    expect(await readFileNoFollow(file, 1 << 20)).toBe(text);
    expect(readFileNoFollowSync(file, 1 << 20)).toBe(text);
    expect(await readAhead(file, 1 << 20)).toBe(text);
  });

  it('reads an empty file as empty text and an absent one as undefined', async () => {
    const file = fileHolding('');
    expect(await readFileNoFollow(file, 10)).toBe('');
    expect(readFileNoFollowSync(file, 10)).toBe('');
    expect(await readAhead(file, 10)).toBe('');
    expect(await readFileNoFollow(`${file}.absent`, 10)).toBeUndefined();
    expect(await readAhead(`${file}.absent`, 10)).toBeUndefined();
  });

  it('reads ahead the file that was there when asked, whatever replaces it before the read', async () => {
    const file = fileHolding('the cache at start');
    const bytes = readBytesNoFollowAhead(file, 1 << 20);
    // Another process's rename, before this one's main thread is free again.
    writeFileSync(`${file}.new`, 'a cache written since');
    renameSync(`${file}.new`, file);
    expect((await bytes)?.toString()).toBe('the cache at start');
  });

  onLinux('reads on past the fstat size of a file holding more than it said', async () => {
    const asyncText = await readFileNoFollow(PROC_FILE, 1 << 20);
    const syncText = readFileNoFollowSync(PROC_FILE, 1 << 20);
    const aheadText = await readAhead(PROC_FILE, 1 << 20);
    for (const read of [asyncText, syncText, aheadText])
      expect(read).toMatch(/^Name:\t.+\n[\s\S]*VmRSS:/);
  });

  onLinux('refuses a file that holds more than the bound its fstat size passed', async () => {
    await expect(readFileNoFollow(PROC_FILE, 40)).rejects.toThrow(CallbarError);
    await expect(readFileNoFollow(PROC_FILE, 40)).rejects.toThrow(/40 bytes/);
    expect(() => readFileNoFollowSync(PROC_FILE, 40)).toThrow(/40 bytes/);
    await expect(readAhead(PROC_FILE, 40)).rejects.toThrow(/40 bytes/);
  });
});
