/**
 * Setting aside a profile file Callbar cannot use (it cannot be parsed, is too large, is not a
 * regular file, cannot be opened) before a write could replace what it still holds.
 *
 * Two processes of a profile may find the same file at once: one sets it aside and may write a new
 * one before the other acts, and the other must not move that new one. So a file is moved only
 * while it still is what the caller found: the same text, or still not readable. A symbolic link
 * is never moved (nor followed): a write replaces the link itself, never what it points to.
 */
import { lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readFileNoFollowSync } from './no-follow-file';

/**
 * Whether `file` still is what a reader found: `text` it could not parse, or (undefined) a file
 * it could not read at all. Read again within `maxBytes`, never through a link.
 */
function stillFound(file: string, text: string | undefined, maxBytes: number): boolean {
  let now: string | undefined;
  try {
    if (lstatSync(file).isSymbolicLink()) return false;
    now = readFileNoFollowSync(file, maxBytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    return text === undefined;
  }
  return now !== undefined && now === text;
}

/**
 * Moves `file` to `aside` (replacing what is there) if it still is what the reader found (see
 * {@link stillFound}); whether it moved it. Throws when the move fails (the caller logs it).
 */
export function setAsideIfStill(
  file: string,
  found: string | undefined,
  aside: string,
  maxBytes: number,
): boolean {
  if (!stillFound(file, found, maxBytes)) return false;
  renameSync(file, aside);
  return true;
}

/**
 * Removes all but the `keep` newest of the files set aside as `<file><prefix><time>` (the time in
 * milliseconds), so that they do not pile up. What cannot be removed stays.
 */
export function keepNewestAside(file: string, prefix: string, keep: number): void {
  const start = `${basename(file)}${prefix}`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  const aside = names
    .filter((name) => name.startsWith(start) && /^\d+$/.test(name.slice(start.length)))
    .sort((a, b) => Number(b.slice(start.length)) - Number(a.slice(start.length)));
  for (const name of aside.slice(keep)) {
    try {
      rmSync(join(dirname(file), name), { force: true });
    } catch {
      // A folder planted under that name, say: left as it is.
    }
  }
}
