/**
 * The directory's cache file as bytes: where it is, how large it may be, and its read, which a
 * process's entry starts before it loads the rest of Callbar (`readCacheFileAhead`, in the
 * preview's and the desktop app's start.ts). The read then runs beside the bundle's compiling
 * and evaluating, on the I/O thread, and the bytes are there when the directory loads
 * (directory-cache.ts's readCacheFile takes them). This module imports little on purpose: its
 * importer runs it first.
 */
import { join } from 'node:path';
import { readBytesNoFollow, readBytesNoFollowAhead } from '../files/no-follow-file';

/** A cache file past this is refused unread (the largest tenants' caches are far smaller). */
export const MAX_CACHE_FILE_BYTES = 512 * 1024 * 1024;

/** The cache file's name in the profile folder (format 5). */
export const CACHE_FILE_NAME = 'directory.bin';

/** The cache file (format 5). */
export function cacheFile(dataDir: string): string {
  return join(dataDir, CACHE_FILE_NAME);
}

/** The one read started ahead, until the directory takes it. */
let ahead: { file: string; bytes: Promise<Buffer | undefined> } | undefined;

/**
 * Starts reading `dataDir`'s cache file now, for the directory to take when it loads; settles
 * (never rejects) once read. Its failure is the directory's to say (it reads the file again),
 * never an unhandled one.
 */
export function readCacheFileAhead(dataDir: string): Promise<void> {
  const file = cacheFile(dataDir);
  const bytes = readBytesNoFollowAhead(file, MAX_CACHE_FILE_BYTES);
  ahead = { file, bytes };
  return bytes.then(
    () => undefined,
    () => undefined,
  );
}

/**
 * The bytes of `dataDir`'s cache file (undefined: there is none): those read ahead when they are
 * of this file and the read succeeded, else read now. A read ahead is taken once, and dropped
 * whichever file is asked for, so no stale bytes stay in memory.
 */
export async function cacheFileBytes(dataDir: string): Promise<Buffer | undefined> {
  const file = cacheFile(dataDir);
  const taken = ahead;
  ahead = undefined;
  if (taken?.file === file) {
    const bytes = await taken.bytes.catch(() => null);
    if (bytes !== null) return bytes;
  }
  return readBytesNoFollow(file, MAX_CACHE_FILE_BYTES);
}
