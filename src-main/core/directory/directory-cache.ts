/**
 * The last complete directory, kept in the profile folder (`directory.json`, user-only, written
 * atomically) so search works at start, before the first sync and offline. Its formats are in
 * directory-cache-format: a file of the previous format is read and rewritten in the current one;
 * a file that cannot be read, is corrupt, has a format Callbar no longer reads or belongs to
 * another account or platform is discarded: the caller logs it and syncs again; it never stops
 * Callbar. It is read only once the account is known (a cache whose owner cannot be checked is
 * not shown).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DirectoryContact } from '../../../src-shared/contract';
import { type AccountOwner, sameAccount } from '../account/account-history';
import { writeFileAtomic } from '../config/atomic-write';
import { readFileNoFollow } from '../config/no-follow-file';
import { errorMessage } from '../errors';
import {
  CACHE_FORMAT,
  CacheFileV3,
  type CacheFileV4,
  contactColumns,
  contactRows,
  contactsOfV3,
  readCacheFileV4,
} from './directory-cache-format';
import type { PhonebookSummary } from './directory-sync';

/** A `directory.json` past this is refused unread (the largest tenants' caches are far smaller). */
const MAX_CACHE_FILE_BYTES = 512 * 1024 * 1024;

/** The cached directory as Callbar holds it (whatever the file's format). */
export interface CachedDirectory {
  /** Whose directory this is: the account it was synced for and the platform (base_url). */
  owner: AccountOwner;
  synced_at: string;
  phonebooks: PhonebookSummary[];
  contacts: DirectoryContact[];
}

export function cacheFile(dataDir: string): string {
  return join(dataDir, 'directory.json');
}

export type CacheRead =
  | {
      status: 'ok';
      cache: CachedDirectory;
      /** The format the file had when it was older than CACHE_FORMAT (it is rewritten). */
      migratedFrom?: number;
    }
  | { status: 'missing' }
  | { status: 'discarded'; reason: string };

/** The cache file read, not yet checked for its owner (readCacheFile). */
export type CacheFileRead =
  | { status: 'ok'; cache: CachedDirectory; format: number }
  | { status: 'missing' }
  | { status: 'discarded'; reason: string };

/**
 * Reads the cache; it must have been written for `owner` (account and platform). A file of
 * format 3 is rewritten in format 4 (if that fails, it is read again next time).
 */
export async function readCache(dataDir: string, owner: AccountOwner): Promise<CacheRead> {
  return ownCache(dataDir, await readCacheFile(dataDir), owner);
}

/**
 * Reads and checks the cache file before whose it is can be known (at start, beside the
 * keychain's read): a file that is corrupt or of a format Callbar no longer reads is discarded.
 * `ownCache` then says whether it is `owner`'s.
 */
export async function readCacheFile(dataDir: string): Promise<CacheFileRead> {
  const file = cacheFile(dataDir);
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
  if (format === CACHE_FORMAT) {
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
  return { status: 'ok', cache, format };
}

/** The cache file read, when it is `owner`'s (a file of format 3 is rewritten in format 4). */
export async function ownCache(
  dataDir: string,
  read: CacheFileRead,
  owner: AccountOwner,
): Promise<CacheRead> {
  if (read.status !== 'ok') return read;
  const { cache, format } = read;
  if (!sameAccount(cache.owner, owner)) {
    return discard(cacheFile(dataDir), 'it belongs to another account or platform');
  }
  if (format === CACHE_FORMAT) return { status: 'ok', cache };
  await writeCache(dataDir, cache).catch(() => undefined);
  return { status: 'ok', cache, migratedFrom: format };
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
}

/** Writes `cache` in the current format, replacing the file atomically. */
export async function writeCache(dataDir: string, cache: CachedDirectory): Promise<void> {
  const file: CacheFileV4 = {
    format: CACHE_FORMAT,
    owner: {
      tenant_id: cache.owner.tenant_id,
      user_extension: cache.owner.user_extension,
      base_url: cache.owner.base_url,
    },
    synced_at: cache.synced_at,
    phonebooks: cache.phonebooks.map(({ id, description, priority }) => ({
      id,
      description,
      priority,
    })),
    contacts: contactColumns(cache.contacts),
  };
  await writeFileAtomic(cacheFile(dataDir), JSON.stringify(file), { mode: 0o600, dirMode: 0o700 });
}
