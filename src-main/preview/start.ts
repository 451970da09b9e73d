/**
 * The web preview's entry as built (out/preview-server/main.js, and the felt benchmark's
 * bundle): turns on Node's V8 code cache in the profile's folder (files/compile-cache.ts; Node
 * 22.1+), starts reading the directory's cache file (directory/cache-file-read.ts: it is read on
 * the I/O thread while the bundle compiles), then loads the preview (main.ts) — its whole bundle,
 * compiled once and read from the cache at the next start, as the desktop app's is
 * (src-main/app/start.ts).
 */
import { fileURLToPath } from 'node:url';
import { resolveDataDir } from '../core/config/data-dir';
import { enableProfileCompileCache } from '../core/files/compile-cache';

const dataDir = resolveDataDir();
enableProfileCompileCache(dataDir);
void (await import('../core/directory/cache-file-read')).readCacheFileAhead(dataDir);
// main.ts finds the build output beside this entry: bundled, it runs from a chunk a folder deeper.
process.env.CALLBAR_OUT_DIR ??= fileURLToPath(new URL('../../out', import.meta.url));
await import('./main');
