/**
 * Who a folder belongs to, as the profile's checks read it (profile-folder.ts at start, and
 * code-cache.ts before the rest of the program loads). Light on purpose (types alone): the
 * code cache's check runs it first.
 */
import type { Stats } from 'node:fs';

/** The mode bits that let the group or others in (a profile folder has none: 0700). */
export const OPEN_TO_OTHERS = 0o077;

/** The running user, for the owner check (absent on Windows, where ACLs decide instead). */
export function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** Whether `stats` is of a folder the running user owns and nobody else may enter. */
export function usersOwnFolder(stats: Stats): boolean {
  const uid = currentUid();
  const othersMay = uid !== undefined && (stats.uid !== uid || (stats.mode & OPEN_TO_OTHERS) !== 0);
  return stats.isDirectory() && !othersMay;
}
