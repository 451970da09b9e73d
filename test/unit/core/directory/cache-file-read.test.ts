import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cacheFile,
  cacheFileBytes,
  readCacheFileAhead,
} from '../../../../src-main/core/directory/cache-file-read';

/**
 * The cache file read ahead by a process's entry (preview and app start.ts): the directory takes
 * those bytes once, only for the file they are of; otherwise, and after, it reads the file anew.
 */
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'callbar-cache-read-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const profile = (name: string, bytes?: string) => {
  const dataDir = join(root, name);
  mkdirSync(dataDir, { mode: 0o700 });
  if (bytes !== undefined) writeFileSync(cacheFile(dataDir), bytes, { mode: 0o600 });
  return dataDir;
};

describe('the cache file read ahead', () => {
  it('gives the directory the bytes read at start, once; the next read is of the file as it is then', async () => {
    const dataDir = profile('a', 'read at start');
    await readCacheFileAhead(dataDir);
    // Another process writes a newer cache after the start's read.
    writeFileSync(cacheFile(dataDir), 'written since');
    expect((await cacheFileBytes(dataDir))?.toString()).toBe('read at start');
    expect((await cacheFileBytes(dataDir))?.toString()).toBe('written since');
  });

  it('is not given for another profile, and is dropped then (no stale bytes kept)', async () => {
    const first = profile('first', 'first profile');
    const second = profile('second', 'second profile');
    await readCacheFileAhead(first);
    expect((await cacheFileBytes(second))?.toString()).toBe('second profile');
    writeFileSync(cacheFile(first), 'first, rewritten');
    expect((await cacheFileBytes(first))?.toString()).toBe('first, rewritten');
  });

  it('says there is none when there is none, and reads it once it is there', async () => {
    const dataDir = profile('empty');
    await readCacheFileAhead(dataDir);
    expect(await cacheFileBytes(dataDir)).toBeUndefined();
    writeFileSync(cacheFile(dataDir), 'synced');
    expect((await cacheFileBytes(dataDir))?.toString()).toBe('synced');
  });

  it('leaves a refused file to the directory to say: a planted link is refused again, never followed', async () => {
    const dataDir = profile('linked');
    writeFileSync(join(root, 'elsewhere'), 'not the cache');
    symlinkSync(join(root, 'elsewhere'), cacheFile(dataDir));
    await readCacheFileAhead(dataDir);
    await expect(cacheFileBytes(dataDir)).rejects.toThrow();
  });
});
