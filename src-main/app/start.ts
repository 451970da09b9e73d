/**
 * The desktop app's entry (package.json's main: out/main/start.js): turns on Node's on-disk V8
 * code cache (`module.enableCompileCache`, Node 22.1+; Electron 45 runs Node 24), then loads the
 * shell (out/main/index.js, main.ts). Every module loaded from here on — the shell's bundle,
 * imported after this on purpose, and the dependencies it imports — is compiled once and read
 * from the cache at the next start. The cache lives in Electron's per-user folder for the app
 * (`compile-cache/`), not in the shared temporary folder. Before the shell loads, the directory's
 * cache file starts being read on the I/O thread (core/directory/cache-file-read.ts), so its bytes
 * are there when the directory loads.
 */
import { app } from 'electron';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { resolveDataDir } from '../core/config/data-dir';

/** Node 22's API (the project's @types/node is Node 20's: the preview and CLI run there too). */
const { enableCompileCache } = nodeModule as typeof nodeModule & {
  enableCompileCache?: (directory?: string) => unknown;
};
try {
  // Electron's own per-user folder for the app (main.ts moves userData to Callbar's profile later).
  enableCompileCache?.(join(app.getPath('userData'), 'compile-cache'));
} catch {
  // A start without the cache is only slower.
}
void (await import('../core/directory/cache-file-read')).readCacheFileAhead(resolveDataDir());
// The shell's bundle by its built name, out of the bundler's sight (its chunks stay as they are).
await import(/* @vite-ignore */ new URL('./index.js', import.meta.url).href);
