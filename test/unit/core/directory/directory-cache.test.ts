import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DirectoryContact } from '../../../../src-shared/contract';
import {
  cacheFile,
  readCache,
  writeCache,
  type CachedDirectory,
} from '../../../../src-main/core/directory/directory-cache';
import { Directory } from '../../../../src-main/core/directory/directory';
import { createLogger } from '../../../../src-main/core/log/logger';

/**
 * The directory cache's file formats (issue 31): contacts stored as columns (format 4), a file
 * of format 3 (one object per contact) read and rewritten, anything else discarded.
 */
const owner = { tenant_id: 'acme', user_extension: '201', base_url: 'http://127.0.0.1:1/' };
const contacts: DirectoryContact[] = [
  {
    id: 7,
    phonebook: 1,
    phonebook_name: 'Company',
    display_name: 'Ada Lovelace',
    company: 'Analytical Engines',
    number: '+44 20 7123 4567',
    secondary_number: '+44 7700 900123',
    speed_dial: 7341,
  },
  {
    id: 9,
    phonebook: 2,
    phonebook_name: 'Suppliers',
    display_name: 'Émile Zola',
    company: '',
    number: '030 1234567',
    secondary_number: null,
    speed_dial: null,
  },
];
const cache: CachedDirectory = {
  owner,
  synced_at: '2026-11-25T10:00:00.000Z',
  phonebooks: [
    { id: 1, description: 'Company', priority: 10 },
    { id: 2, description: 'Suppliers', priority: 5 },
  ],
  contacts,
};

/** A cache file as Callbar wrote it before issue 31 (format 3). */
const formatThree = { format: 3, ...cache };

const profile = () => mkdtempSync(join(tmpdir(), 'callbar-cache-'));
const fileOf = (dataDir: string) =>
  JSON.parse(readFileSync(cacheFile(dataDir), 'utf8')) as Record<string, unknown>;

describe('directory cache formats', () => {
  it('writes the contacts as columns (format 4) and reads them back whole', async () => {
    const dataDir = profile();
    await writeCache(dataDir, cache);
    const file = fileOf(dataDir);
    expect(file.format).toBe(4);
    expect(file.contacts).toEqual({
      id: [7, 9],
      phonebook: [1, 2],
      phonebook_name: ['Company', 'Suppliers'],
      display_name: ['Ada Lovelace', 'Émile Zola'],
      company: ['Analytical Engines', ''],
      number: ['+44 20 7123 4567', '030 1234567'],
      secondary_number: ['+44 7700 900123', null],
      speed_dial: [7341, null],
    });
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache });
  });

  it('reads a format-3 file and rewrites it in format 4', async () => {
    const dataDir = profile();
    writeFileSync(cacheFile(dataDir), JSON.stringify(formatThree));
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache, migratedFrom: 3 });
    expect(fileOf(dataDir).format).toBe(4);
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache });
  });

  it('a directory started on a format-3 file searches it and says it converted it', async () => {
    const dataDir = profile();
    writeFileSync(cacheFile(dataDir), JSON.stringify(formatThree));
    const lines: string[] = [];
    const directory = new Directory({
      dataDir,
      region: 'DE',
      log: createLogger((line) => lines.push(line), 'debug'),
      phonebooks: () => undefined,
      owner: () => owner,
      intervalMs: 60_000,
    });
    expect((await directory.load()).contacts).toBe(2);
    expect(directory.search('zola').hits.map((hit) => hit.contact.id)).toEqual([9]);
    expect(lines.some((line) => line.includes('converted to the current format'))).toBe(true);
    await directory.close();
  });

  it.each([
    ['columns of different lengths', { ...fileOfFour(), contacts: { ...columnsOf(), id: [7] } }],
    ['a contact of format 3 without its number', { ...formatThree, contacts: [{ id: 1 }] }],
    ['a format it never wrote', { ...formatThree, format: 5 }],
  ])('discards %s (and deletes the file)', async (_what, content) => {
    const dataDir = profile();
    writeFileSync(cacheFile(dataDir), JSON.stringify(content));
    const read = await readCache(dataDir, owner);
    expect(read.status).toBe('discarded');
    expect(await readCache(dataDir, owner)).toEqual({ status: 'missing' });
  });

  it("does not read another account's file of either format", async () => {
    for (const content of [formatThree, fileOfFour()]) {
      const dataDir = profile();
      writeFileSync(cacheFile(dataDir), JSON.stringify(content));
      expect(await readCache(dataDir, { ...owner, user_extension: '202' })).toEqual({
        status: 'discarded',
        reason: 'it belongs to another account or platform',
      });
    }
  });
});

function columnsOf() {
  return {
    id: [7, 9],
    phonebook: [1, 2],
    phonebook_name: ['Company', 'Suppliers'],
    display_name: ['Ada Lovelace', 'Émile Zola'],
    company: ['Analytical Engines', ''],
    number: ['+44 20 7123 4567', '030 1234567'],
    secondary_number: ['+44 7700 900123', null],
    speed_dial: [7341, null],
  };
}

function fileOfFour() {
  return {
    format: 4,
    owner,
    synced_at: cache.synced_at,
    phonebooks: cache.phonebooks,
    contacts: columnsOf(),
  };
}
