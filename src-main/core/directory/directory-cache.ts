/**
 * The last complete directory, kept in the profile folder (`directory.bin`, user-only, written
 * atomically; the app and the CLI share it) so search works at start, before the first sync and
 * offline. Its formats are in directory-cache-format: format 5 is a binary snapshot
 * (directory-snapshot) read in one buffer, its contacts made when asked for, with the texts the
 * first searches read; a `directory.json` of format 3 or 4 (before issue 45) is read and
 * rewritten as `directory.bin`. A file that cannot be read, is damaged or hostile, has a format
 * Callbar does not read or belongs to another account or platform is discarded: the caller logs
 * it and syncs again; it never stops Callbar. It is read only once the account is known (a cache
 * whose owner cannot be checked is not shown).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DirectoryContact } from '../../../src-shared/contract';
import { type AccountOwner, sameAccount } from '../account/account-history';
import { writeFileAtomic } from '../files/atomic-write';
import { readFileNoFollow } from '../files/no-follow-file';
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';
import { cacheFile, cacheFileBytes, MAX_CACHE_FILE_BYTES } from './cache-file-read';
import { ContactList } from './contact-list';
import {
  CACHE_FORMAT,
  CacheFileV3,
  contactRows,
  contactsOfV3,
  readCacheFileV4,
} from './directory-cache-format';
import { encodeSnapshot, readSnapshot, SnapshotRefused } from './directory-snapshot';
import type { PhonebookSummary } from './directory-sync';
import { searchTextsOf, type SearchTexts } from './search-texts';

/** Where the cache file is (cache-file-read.ts, which its early read imports alone). */
export { cacheFile };

/** The cached directory as Callbar writes it. */
export interface CachedDirectory {
  /** Whose directory this is: the account it was synced for and the platform (base_url). */
  owner: AccountOwner;
  synced_at: string;
  phonebooks: PhonebookSummary[];
  contacts: DirectoryContact[];
}

/** The cached directory as read: its contacts made when asked for, the search texts stored. */
export interface LoadedDirectory extends Omit<CachedDirectory, 'contacts'> {
  contacts: ContactList;
  /** The scan's texts as the file holds them (undefined: it holds none). */
  texts: SearchTexts | undefined;
}

/** Where formats 3 and 4 were kept (read to migrate them). */
export function legacyCacheFile(dataDir: string): string {
  return join(dataDir, 'directory.json');
}

export type CacheRead =
  | {
      status: 'ok';
      cache: LoadedDirectory;
      /** The format the file had when it was older than CACHE_FORMAT (it is rewritten). */
      migratedFrom?: number;
    }
  | { status: 'missing' }
  | { status: 'discarded'; reason: string };

/** The cache file read, not yet checked for its owner (readCacheFile). */
export type CacheFileRead =
  | { status: 'ok'; cache: LoadedDirectory; format: number }
  | { status: 'missing' }
  | { status: 'discarded'; reason: string };

/**
 * Reads the cache with every contact made (what tests and tools compare); it must have been
 * written for `owner`. An older file is rewritten in format 5.
 */
export async function readCache(
  dataDir: string,
  owner: AccountOwner,
): Promise<
  | { status: 'ok'; cache: CachedDirectory; migratedFrom?: number }
  | Exclude<CacheRead, { status: 'ok' }>
> {
  const read = await ownCache(dataDir, await readCacheFile(dataDir), owner);
  if (read.status !== 'ok') return read;
  const { owner: whose, synced_at, phonebooks, contacts } = read.cache;
  return {
    status: 'ok',
    cache: { owner: whose, synced_at, phonebooks, contacts: [...contacts.all()] },
    ...(read.migratedFrom !== undefined ? { migratedFrom: read.migratedFrom } : {}),
  };
}

/**
 * Reads and checks the cache file before whose it is can be known (at start, beside the
 * keychain's read): a file that is damaged, hostile or of a format Callbar does not read is
 * discarded. `ownCache` then says whether it is `owner`'s.
 */
export async function readCacheFile(dataDir: string): Promise<CacheFileRead> {
  let bytes: Buffer | undefined;
  try {
    bytes = await cacheFileBytes(dataDir);
  } catch (error) {
    return { status: 'discarded', reason: `it cannot be read (${errorMessage(error)})` };
  }
  if (bytes === undefined) return readLegacyFile(dataDir);
  try {
    const { head, rows, texts } = readSnapshot(bytes);
    return {
      status: 'ok',
      cache: { ...head, contacts: ContactList.made(rows), texts },
      format: CACHE_FORMAT,
    };
  } catch (error) {
    if (!(error instanceof SnapshotRefused)) throw error;
    // A directory.json left beside a bad file is older still: both go.
    await removeCache(dataDir);
    return { status: 'discarded', reason: error.message };
  }
}

/** A `directory.json` of format 3 or 4, read to be migrated. */
async function readLegacyFile(dataDir: string): Promise<CacheFileRead> {
  const file = legacyCacheFile(dataDir);
  let text: string;
  try {
    const read = await readFileNoFollow(file, MAX_CACHE_FILE_BYTES);
    if (read === undefined) return { status: 'missing' };
    text = read;
  } catch (error) {
    return { status: 'discarded', reason: `it cannot be read (${errorMessage(error)})` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return discard(file, 'it is not valid JSON');
  }
  const format = (raw as { format?: unknown } | null)?.format;
  let cache: CachedDirectory;
  if (format === 4) {
    const parsed = readCacheFileV4(raw);
    if (!parsed) return discard(file, 'its content is not a directory');
    const { owner: whose, synced_at, phonebooks, contacts } = parsed;
    cache = { owner: whose, synced_at, phonebooks, contacts: contactRows(contacts) };
  } else if (format === 3) {
    const parsed = CacheFileV3.safeParse(raw);
    if (!parsed.success) return discard(file, 'its content is not a directory');
    const { owner: whose, synced_at, phonebooks } = parsed.data;
    cache = { owner: whose, synced_at, phonebooks, contacts: contactsOfV3(parsed.data) };
  } else {
    return discard(
      file,
      `it has format ${JSON.stringify(format ?? null)}, which Callbar no longer reads (it writes ${CACHE_FORMAT})`,
    );
  }
  return {
    status: 'ok',
    cache: { ...cache, contacts: ContactList.of(cache.contacts), texts: undefined },
    format: format,
  };
}

/**
 * The cache file read, when it is `owner`'s. A file of an older format is rewritten in format 5
 * (with the search texts for `region`, which the directory then reads too). What became of a
 * file not simply taken (discarded, converted) is said in `log`.
 */
export async function ownCache(
  dataDir: string,
  read: CacheFileRead,
  owner: AccountOwner,
  region?: string,
  log?: Logger,
): Promise<CacheRead> {
  const own = await ownCacheOf(dataDir, read, owner, region);
  if (own.status === 'discarded') {
    log?.warn('the cached directory was discarded; it is synced again', { reason: own.reason });
  }
  if (own.status === 'ok' && own.migratedFrom !== undefined) {
    log?.info('the cached directory was converted to the current format', {
      from: own.migratedFrom,
    });
  }
  return own;
}

async function ownCacheOf(
  dataDir: string,
  read: CacheFileRead,
  owner: AccountOwner,
  region: string | undefined,
): Promise<CacheRead> {
  if (read.status !== 'ok') return read;
  const { cache, format } = read;
  if (!sameAccount(cache.owner, owner)) {
    return discard(
      format === CACHE_FORMAT ? cacheFile(dataDir) : legacyCacheFile(dataDir),
      'it belongs to another account or platform',
    );
  }
  if (format === CACHE_FORMAT) return { status: 'ok', cache };
  const contacts = [...cache.contacts.all()];
  const texts = region === undefined ? undefined : searchTextsOf(contacts, region);
  await writeCache(dataDir, { ...cache, contacts }, texts).catch(() => undefined);
  return { status: 'ok', cache: { ...cache, texts }, migratedFrom: format };
}

async function discard(
  file: string,
  reason: string,
): Promise<{ status: 'discarded'; reason: string }> {
  await rm(file, { force: true });
  return { status: 'discarded', reason };
}

/** Deletes the cache (a directory of an account no longer connected here). */
export async function removeCache(dataDir: string): Promise<void> {
  await rm(cacheFile(dataDir), { force: true });
  await rm(legacyCacheFile(dataDir), { force: true });
}

/**
 * Writes `cache` in the current format, replacing the file atomically; with `texts` (the scan's
 * texts of these contacts, search-texts), those too, so a start reads them instead of making
 * them. A file of an older format goes.
 */
export async function writeCache(
  dataDir: string,
  cache: CachedDirectory,
  texts?: SearchTexts,
): Promise<void> {
  const { owner, synced_at, phonebooks, contacts } = cache;
  const bytes = encodeSnapshot({ owner, synced_at, phonebooks }, contacts, texts);
  await writeFileAtomic(cacheFile(dataDir), bytes, { mode: 0o600, dirMode: 0o700 });
  await rm(legacyCacheFile(dataDir), { force: true });
}
