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
import {
  CacheFileV4,
  readCacheFileV4,
} from '../../../../src-main/core/directory/directory-cache-format';
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

  it('reads the file ahead of the account (prefetch), and shows it to its owner alone', async () => {
    let connected: typeof owner | undefined;
    const open = (dataDir: string) =>
      new Directory({
        dataDir,
        region: 'DE',
        log: createLogger(() => undefined, 'error'),
        phonebooks: () => undefined,
        owner: () => connected,
        intervalMs: 60_000,
      });
    const mine = profile();
    writeFileSync(cacheFile(mine), JSON.stringify(fileOfFour()));
    const directory = open(mine);
    directory.prefetch();
    connected = owner;
    expect((await directory.load()).contacts).toBe(2);
    await directory.close();

    const theirs = profile();
    writeFileSync(cacheFile(theirs), JSON.stringify(fileOfFour()));
    connected = undefined;
    const other = open(theirs);
    other.prefetch();
    connected = { ...owner, user_extension: '202' };
    expect((await other.load()).contacts).toBe(0);
    expect(await readCache(theirs, owner)).toEqual({ status: 'missing' });
    await other.close();
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

describe('the format-4 read without zod for every value', () => {
  type Columns = ReturnType<typeof columnsOf>;
  const column = (key: keyof Columns, values: unknown[]) => ({
    ...fileOfFour(),
    contacts: { ...columnsOf(), [key]: values },
  });
  const keys = Object.keys(columnsOf()) as (keyof Columns)[];
  /** Values that break a column of each kind somewhere in the middle. */
  const wrong: Record<string, unknown[]> = {
    integer: [1.5, '7', null, 2 ** 53, -(2 ** 60), true, {}, [7]],
    nullableInteger: [1.5, '7', 2 ** 53, false, {}, [], 'null'],
    text: [7, null, true, {}, ['Ada'], undefined],
    nullableText: [7, true, {}, ['Ada']],
  };
  const kindOf = (key: keyof Columns): string =>
    key === 'id' || key === 'phonebook'
      ? 'integer'
      : key === 'speed_dial'
        ? 'nullableInteger'
        : key === 'secondary_number'
          ? 'nullableText'
          : 'text';
  const broken: [string, unknown][] = [
    ['nothing', null],
    ['an array', [fileOfFour()]],
    ['another format', { ...fileOfFour(), format: 3 }],
    ['no owner', { ...fileOfFour(), owner: undefined }],
    ['a sync time that is no date', { ...fileOfFour(), synced_at: 'yesterday' }],
    [
      'a phonebook without priority',
      { ...fileOfFour(), phonebooks: [{ id: 1, description: 'x' }] },
    ],
    ['no columns', { ...fileOfFour(), contacts: undefined }],
    ['columns as an array', { ...fileOfFour(), contacts: [columnsOf()] }],
    ['columns as rows', { ...fileOfFour(), contacts: [{ id: 7 }] }],
    ...keys.flatMap((key): [string, unknown][] => [
      [`no ${key} column`, { ...fileOfFour(), contacts: { ...columnsOf(), [key]: undefined } }],
      [`${key} as a value`, column(key, columnsOf()[key][0] as never)],
      [`${key} one short`, column(key, columnsOf()[key].slice(1))],
      [`${key} one long`, column(key, [...columnsOf()[key], columnsOf()[key][0]])],
      ...wrong[kindOf(key)]!.map((value): [string, unknown] => [
        `${key} holding ${JSON.stringify(value) ?? 'undefined'}`,
        column(key, [columnsOf()[key][0], value]),
      ]),
    ]),
  ];

  it.each(broken)('refuses %s, as the zod schema does', (_what, content) => {
    // Through JSON, as the file is read (undefined values vanish, as in a file).
    const raw: unknown = JSON.parse(JSON.stringify(content) ?? 'null');
    expect(CacheFileV4.safeParse(raw).success).toBe(false);
    expect(readCacheFileV4(raw)).toBeUndefined();
  });

  it('reads a valid file as the zod schema does, leaving unknown keys out', () => {
    const valid = [
      fileOfFour(),
      { ...fileOfFour(), extra: 1, contacts: { ...columnsOf(), extra: [1, 2] } },
      { ...fileOfFour(), contacts: Object.fromEntries(keys.map((key) => [key, []])) },
    ];
    for (const content of valid) {
      expect(readCacheFileV4(content)).toEqual(CacheFileV4.parse(content));
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
