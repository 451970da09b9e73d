import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DirectoryContact } from '../../../../src-shared/contract';
import {
  cacheFile,
  legacyCacheFile,
  readCache,
  readCacheFile,
  writeCache,
  type CachedDirectory,
} from '../../../../src-main/core/directory/directory-cache';
import { Directory } from '../../../../src-main/core/directory/directory';
import {
  CacheFileV4,
  readCacheFileV4,
} from '../../../../src-main/core/directory/directory-cache-format';
import { searchTextsOf } from '../../../../src-main/core/directory/search-texts';
import { createLogger } from '../../../../src-main/core/log/logger';

/**
 * The directory cache's files: format 5 (`directory.bin`, issue 45: a binary snapshot with the
 * scan's search texts; its bytes are tested in directory-snapshot.test.ts), formats 4 (columns,
 * issue 31) and 3 (one object per contact) in `directory.json` read and rewritten as format 5,
 * anything else discarded.
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
/** The format of the cache file (format 5, directory.bin), as its snapshot says. */
const formatOf = (dataDir: string) => readFileSync(cacheFile(dataDir)).readUInt32LE(8);

describe('directory cache formats', () => {
  it('writes a format-5 snapshot (directory.bin, user-only) and reads it back whole', async () => {
    const dataDir = profile();
    await writeCache(dataDir, cache);
    expect(formatOf(dataDir)).toBe(5);
    expect(readFileSync(cacheFile(dataDir)).subarray(1, 6).toString()).toBe('CBDIR');
    if (process.platform !== 'win32') {
      const { statSync } = await import('node:fs');
      expect(statSync(cacheFile(dataDir)).mode & 0o777).toBe(0o600);
    }
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache });
  });

  it('stores the search texts it is given, and reads them back for the scan', async () => {
    const dataDir = profile();
    const texts = searchTextsOf(contacts, 'DE');
    await writeCache(dataDir, cache, texts);
    const read = await readCacheFile(dataDir);
    expect(read.status).toBe('ok');
    const stored = read.status === 'ok' ? read.cache.texts : undefined;
    expect(stored?.stamp).toBe(texts.stamp);
    for (const key of ['names', 'companies', 'numbers'] as const) {
      expect(Buffer.compare(stored![key].bytes, texts[key].bytes)).toBe(0);
      expect([...stored![key].ends]).toEqual([...texts[key].ends]);
    }
    expect([...stored!.companyOf]).toEqual([...texts.companyOf]);
    // Without texts, none are stored (the scan then makes its own).
    await writeCache(dataDir, cache);
    const bare = await readCacheFile(dataDir);
    expect(bare.status === 'ok' && bare.cache.texts).toBeUndefined();
  });

  it('reads a format-4 directory.json and rewrites it as directory.bin (format 5)', async () => {
    const dataDir = profile();
    writeFileSync(legacyCacheFile(dataDir), JSON.stringify(fileOfFour()));
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache, migratedFrom: 4 });
    expect(formatOf(dataDir)).toBe(5);
    expect(existsSync(legacyCacheFile(dataDir))).toBe(false);
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache });
  });

  it('reads a format-3 file and rewrites it in format 5', async () => {
    const dataDir = profile();
    writeFileSync(legacyCacheFile(dataDir), JSON.stringify(formatThree));
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache, migratedFrom: 3 });
    expect(formatOf(dataDir)).toBe(5);
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache });
  });

  it('a directory started on a format-3 file searches it, says it converted it, and stores its search texts', async () => {
    const dataDir = profile();
    writeFileSync(legacyCacheFile(dataDir), JSON.stringify(formatThree));
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
    const converted = await readCacheFile(dataDir);
    expect(converted.status === 'ok' && converted.cache.texts?.stamp).toBe(
      searchTextsOf(contacts, 'DE').stamp,
    );
  });

  it('a directory.json beside a directory.bin is left unread, and goes when the cache is written', async () => {
    const dataDir = profile();
    await writeCache(dataDir, cache);
    writeFileSync(legacyCacheFile(dataDir), JSON.stringify({ ...fileOfFour(), synced_at: 'x' }));
    expect(await readCache(dataDir, owner)).toEqual({ status: 'ok', cache });
    await writeCache(dataDir, cache);
    expect(existsSync(legacyCacheFile(dataDir))).toBe(false);
  });

  it.each([
    ['columns of different lengths', { ...fileOfFour(), contacts: { ...columnsOf(), id: [7] } }],
    ['a contact of format 3 without its number', { ...formatThree, contacts: [{ id: 1 }] }],
    ['a format it never wrote in JSON', { ...formatThree, format: 5 }],
  ])('discards a directory.json with %s (and deletes the file)', async (_what, content) => {
    const dataDir = profile();
    writeFileSync(legacyCacheFile(dataDir), JSON.stringify(content));
    const read = await readCache(dataDir, owner);
    expect(read.status).toBe('discarded');
    expect(existsSync(legacyCacheFile(dataDir))).toBe(false);
    expect(await readCache(dataDir, owner)).toEqual({ status: 'missing' });
  });

  it('discards a damaged directory.bin, and an older directory.json beside it', async () => {
    const dataDir = profile();
    await writeCache(dataDir, cache);
    const bytes = readFileSync(cacheFile(dataDir));
    writeFileSync(cacheFile(dataDir), bytes.subarray(0, bytes.length - 9));
    writeFileSync(legacyCacheFile(dataDir), JSON.stringify(fileOfFour()));
    const read = await readCache(dataDir, owner);
    expect(read).toEqual({
      status: 'discarded',
      reason: 'its checksum does not match (it is damaged or cut short)',
    });
    expect(existsSync(cacheFile(dataDir))).toBe(false);
    expect(await readCache(dataDir, owner)).toEqual({ status: 'missing' });
  });

  it('a directory started on a damaged cache says why once, and starts empty', async () => {
    const dataDir = profile();
    await writeCache(dataDir, cache);
    const bytes = readFileSync(cacheFile(dataDir));
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(cacheFile(dataDir), bytes);
    const lines: string[] = [];
    const directory = new Directory({
      dataDir,
      region: 'DE',
      log: createLogger((line) => lines.push(line), 'debug'),
      phonebooks: () => undefined,
      owner: () => owner,
      intervalMs: 60_000,
    });
    // As a start does it: the file read ahead, the account turning connected, then load.
    directory.prefetch();
    await directory.accountChanged(true);
    expect((await directory.load()).contacts).toBe(0);
    const said = lines.filter((line) => line.includes('the cached directory was discarded'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('its checksum does not match');
    await directory.close();
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
    for (const write of [
      (dataDir: string) => writeCache(dataDir, cache),
      (dataDir: string) => writeFile(legacyCacheFile(dataDir), JSON.stringify(fileOfFour())),
    ]) {
      const mine = profile();
      await write(mine);
      connected = undefined;
      const directory = open(mine);
      directory.prefetch();
      connected = owner;
      expect((await directory.load()).contacts).toBe(2);
      await directory.close();

      const theirs = profile();
      await write(theirs);
      connected = undefined;
      const other = open(theirs);
      other.prefetch();
      connected = { ...owner, user_extension: '202' };
      expect((await other.load()).contacts).toBe(0);
      expect(await readCache(theirs, owner)).toEqual({ status: 'missing' });
      await other.close();
    }
  });

  it("does not read another account's file of any format", async () => {
    for (const write of [
      (dataDir: string) => writeCache(dataDir, cache),
      (dataDir: string) => writeFile(legacyCacheFile(dataDir), JSON.stringify(fileOfFour())),
      (dataDir: string) => writeFile(legacyCacheFile(dataDir), JSON.stringify(formatThree)),
    ]) {
      const dataDir = profile();
      await write(dataDir);
      expect(await readCache(dataDir, { ...owner, user_extension: '202' })).toEqual({
        status: 'discarded',
        reason: 'it belongs to another account or platform',
      });
      expect(await readCache(dataDir, owner)).toEqual({ status: 'missing' });
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
