/**
 * A folder inside the checked profile is Callbar's own: a symbolic link planted in its place is
 * replaced by a real folder. Light on purpose (node:fs alone): the code cache's folder is made by
 * it before the rest of the program is loaded (code-cache.ts).
 */
import { lstatSync, mkdirSync, rmSync } from 'node:fs';

/**
 * Makes sure `dir` (a folder inside the checked profile) is a real folder: created 0700 when
 * missing; a symbolic link in its place is removed (the link only) and the folder created.
 */
export function ownSubfolder(dir: string): void {
  try {
    if (lstatSync(dir).isSymbolicLink()) rmSync(dir, { force: true });
  } catch {
    // Absent: created below.
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}
