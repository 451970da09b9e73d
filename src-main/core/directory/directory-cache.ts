/**
 * The last complete directory, kept in the profile folder (`directory.json`, user-only, written
 * atomically) so search works at start, before the first sync and offline. A file that cannot be
 * read, is corrupt, has an older format or belongs to another account is discarded: the caller
 * logs it and syncs again; it never stops Callbar.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DirectoryContact } from '../../../src-preload/contract';
import { writeFileAtomic } from '../config/atomic-write';
import { errorMessage } from '../errors';

export const CACHE_FORMAT = 2;

export const CachedDirectory = z.object({
  format: z.literal(CACHE_FORMAT),
  /** Whose directory this is: the platform and the account it was synced for. */
  owner: z.string(),
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

/** Reads the cache; `owner` (when known) must match the account it was written for. */
export async function readCache(dataDir: string, owner: string | undefined): Promise<CacheRead> {
  const file = cacheFile(dataDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
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
  if (owner !== undefined && parsed.data.owner !== owner) {
    return discard(file, 'it belongs to another account');
  }
  return { status: 'ok', cache: parsed.data };
}

async function discard(file: string, reason: string): Promise<CacheRead> {
  await rm(file, { force: true });
  return { status: 'discarded', reason };
}

export async function writeCache(dataDir: string, cache: CachedDirectory): Promise<void> {
  await writeFileAtomic(cacheFile(dataDir), JSON.stringify(cache), { mode: 0o600, dirMode: 0o700 });
}
