/**
 * The last complete directory, kept in the profile folder (`directory.json`, user-only, written
 * atomically) so search works at start, before the first sync and offline. A file that cannot be
 * read, is corrupt, has an older format or belongs to another account or platform is discarded:
 * the caller logs it and syncs again; it never stops Callbar. It is read only once the account is
 * known (a cache whose owner cannot be checked is not shown).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DirectoryContact } from '../../../src-shared/contract';
import { AccountOwner, sameAccount } from '../account/account-history';
import { writeFileAtomic } from '../config/atomic-write';
import { readFileNoFollow } from '../config/no-follow-file';
import { errorMessage } from '../errors';

/** 3: the owner is the account and its platform as fields (2 had them in one string). */
export const CACHE_FORMAT = 3;

/** A `directory.json` past this is refused unread (the largest tenants' caches are far smaller). */
const MAX_CACHE_FILE_BYTES = 512 * 1024 * 1024;

export const CachedDirectory = z.object({
  format: z.literal(CACHE_FORMAT),
  /** Whose directory this is: the account it was synced for and the platform (base_url). */
  owner: AccountOwner,
  synced_at: z.iso.datetime(),
  phonebooks: z.array(
    z.object({ id: z.number().int(), description: z.string(), priority: z.number().int() }),
  ),
  contacts: z.array(DirectoryContact),
});
export type CachedDirectory = z.infer<typeof CachedDirectory>;

export function cacheFile(dataDir: string): string {
  return join(dataDir, 'directory.json');
}

export type CacheRead =
  | { status: 'ok'; cache: CachedDirectory }
  | { status: 'missing' }
  | { status: 'discarded'; reason: string };

/** Reads the cache; it must have been written for `owner` (account and platform). */
export async function readCache(dataDir: string, owner: AccountOwner): Promise<CacheRead> {
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
  if (format !== CACHE_FORMAT) {
    return discard(file, `it has format ${JSON.stringify(format ?? null)}, not ${CACHE_FORMAT}`);
  }
  const parsed = CachedDirectory.safeParse(raw);
  if (!parsed.success) return discard(file, 'its content is not a directory');
  if (!sameAccount(parsed.data.owner, owner)) {
    return discard(file, 'it belongs to another account or platform');
  }
  return { status: 'ok', cache: parsed.data };
}

async function discard(file: string, reason: string): Promise<CacheRead> {
  await rm(file, { force: true });
  return { status: 'discarded', reason };
}

/** Deletes the cache (a directory of an account no longer connected here). */
export async function removeCache(dataDir: string): Promise<void> {
  await rm(cacheFile(dataDir), { force: true });
}

export async function writeCache(dataDir: string, cache: CachedDirectory): Promise<void> {
  await writeFileAtomic(cacheFile(dataDir), JSON.stringify(cache), { mode: 0o600, dirMode: 0o700 });
}
