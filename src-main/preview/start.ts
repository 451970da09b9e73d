/**
 * The web preview's entry as built (out/preview-server/main.js, and the felt benchmark's): runs
 * the preview's program (preview-program.ts, bundled beside it as preview.cjs) with a V8 code
 * cache kept in the profile's folder (files/code-cache.ts), made after a start ran, so the next
 * start neither parses the bundle nor compiles what a start runs. Light on purpose: this entry
 * is compiled without a cache.
 */
import { fileURLToPath } from 'node:url';
import { resolveDataDir } from '../core/config/data-dir';
import { runWithCodeCache } from '../core/files/code-cache';

// The build output this entry is part of (the renderer, the bridge), unless told otherwise.
process.env.CALLBAR_OUT_DIR ??= fileURLToPath(new URL('..', import.meta.url));
runWithCodeCache(fileURLToPath(new URL('./preview.cjs', import.meta.url)), resolveDataDir());
