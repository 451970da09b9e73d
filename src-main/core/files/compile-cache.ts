/**
 * Node's on-disk V8 code cache (`module.enableCompileCache`, Node 22.1+) for Callbar's Node
 * programs, as the desktop app turns on its own (src-main/app/start.ts): every module loaded
 * after it is compiled once and read from the cache at the next start. On Node 20 there is none,
 * and a start is only slower.
 *
 * The cache is code the next start runs, so it lives only where nobody else can write: in a
 * profile folder an earlier start already checked (the user's own, closed to others; see
 * profile-folder.ts), in a real `compile-cache` folder (a link planted in its place is
 * replaced). A profile not made yet gets no cache this time. Light on purpose (node:fs,
 * node:module and two modules of node:fs alone): whatever its caller imports before calling it
 * is compiled without a cache.
 */
import { statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { usersOwnFolder } from './folder-owner';
import { ownSubfolder } from './own-subfolder';

/** Node 22's API (the project's @types/node is Node 20's). */
const { enableCompileCache } = nodeModule as typeof nodeModule & {
  enableCompileCache?: (directory?: string) => unknown;
};

/** The code cache's folder inside a profile. */
export const COMPILE_CACHE_FOLDER = 'compile-cache';

/**
 * Turns the code cache on in `dataDir`'s `compile-cache` folder when the runtime has one and the
 * profile folder is this user's alone; true when it did. (`enable`: Node's own, by default.)
 */
export function enableProfileCompileCache(
  dataDir: string,
  enable: ((directory: string) => unknown) | undefined = enableCompileCache,
): boolean {
  if (!enable) return false;
  try {
    if (!usersOwnFolder(statSync(dataDir))) return false;
    const folder = join(dataDir, COMPILE_CACHE_FOLDER);
    ownSubfolder(folder);
    enable(folder);
    return true;
  } catch {
    // No profile yet, or none to use: this start compiles everything.
    return false;
  }
}
