/**
 * Runs a bundled CommonJS program (the web preview's server, out/preview-server/preview.cjs) with
 * a V8 code cache made after it ran: the cache holds the functions the start compiled, not only
 * the top level, so the next start neither parses the bundle nor compiles those functions again.
 * Node 20 has no code cache for ES modules, and Node 22's compile cache (`module.enableCompileCache`,
 * which the desktop app turns on) is made when a module is compiled, before it runs: it spares the
 * top level only.
 *
 * The cache is code the next start runs, so it lives only where nobody else can write: in a
 * profile folder an earlier start already checked (the user's own, closed to others; see
 * profile-folder.ts), in a real `compile-cache` folder (a link planted in its place is replaced).
 * A profile not made yet gets no cache this time. Its name holds a checksum of the bundle's
 * bytes and Node's version (V8 itself checks only the source's length), so a new build or a new
 * Node never reads an old cache; an older cache of the same program is removed when a new one is
 * written. A cache V8 rejects, or none, gives a start that compiles everything and writes one
 * after `saveAfterMs` (or at exit, whichever comes first). Anything wrong with the cache costs
 * speed, never the start. Light on purpose (node:fs, node:vm and the folder checks): it is
 * compiled without a cache.
 */
import {
  lstatSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { usersOwnFolder } from './folder-owner';
import { ownSubfolder } from './own-subfolder';

/** What {@link runWithCodeCache} did, for tests and the benchmark. */
export interface CodeCacheRun {
  /** The cache file this start read or writes (undefined: no profile folder to keep one in). */
  cacheFile: string | undefined;
  /** Whether V8 took the cache it was given (false: none, or rejected). */
  usedCache: boolean;
  /** Writes the cache now, if this start is to write one (tests; otherwise by timer or at exit). */
  save(): void;
}

/** The code cache's folder inside a profile. */
export const CODE_CACHE_FOLDER = 'compile-cache';

/**
 * `dataDir`'s code cache folder (made 0700 when missing, a link in its place replaced), when the
 * profile folder is there and this user's alone; else undefined.
 */
export function profileCodeCacheFolder(dataDir: string): string | undefined {
  try {
    if (!usersOwnFolder(statSync(dataDir))) return undefined;
    const folder = join(dataDir, CODE_CACHE_FOLDER);
    ownSubfolder(folder);
    return folder;
  } catch {
    return undefined; // No profile yet: this start compiles everything.
  }
}

/** A code cache past this is not read (the preview's is about 1.5 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The cache file's bytes, when it is a file of at most MAX_CACHE_BYTES: a link planted in its
 * place is not followed, nor anything huge read (either is replaced when the cache is written).
 */
function readIfThere(file: string): Buffer | undefined {
  try {
    const stats = lstatSync(file);
    return stats.isFile() && stats.size <= MAX_CACHE_BYTES ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `file` (a CommonJS bundle) as Node would require it, with the code cache kept in
 * `dataDir`'s cache folder.
 */
export function runWithCodeCache(
  file: string,
  dataDir: string,
  { saveAfterMs = 5_000 }: { saveAfterMs?: number } = {},
): CodeCacheRun {
  const bytes = readFileSync(file);
  const folder = profileCodeCacheFolder(dataDir);
  const stem = `${basename(file)}.`;
  const key = `${crc32(bytes).toString(16)}-${bytes.length}-${process.version}-${process.arch}`;
  const cacheFile = folder === undefined ? undefined : join(folder, `${stem}${key}.v8`);
  const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`,
    { filename: file, cachedData },
  );
  const usedCache = cachedData !== undefined && !script.cachedDataRejected;
  let pending = cacheFile !== undefined && !usedCache;
  const save = () => {
    if (!pending || cacheFile === undefined) return;
    pending = false;
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, cacheFile);
      // An older build's cache of the same program, and what a start killed mid-write left.
      for (const name of readdirSync(dirname(cacheFile))) {
        const other = join(dirname(cacheFile), name);
        if (name.startsWith(stem) && other !== cacheFile) rmSync(other, { force: true });
      }
    } catch {
      // A full disk or a folder gone: the next start compiles again.
      rmSync(temporary, { force: true });
    }
  };
  if (pending) {
    setTimeout(save, saveAfterMs).unref();
    process.once('exit', save);
  }
  const module = { exports: {} };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
  return { cacheFile, usedCache, save };
}
