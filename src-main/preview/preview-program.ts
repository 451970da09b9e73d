/**
 * The web preview's program: starts reading the directory's cache file (directory/cache-file-read.ts:
 * it is read on the I/O thread while the rest of the program loads), then loads and runs the
 * preview (main.ts). Bundled as one CommonJS script (out/preview-server/preview.cjs), which the
 * built entry (start.ts) runs with a V8 code cache; `npm run preview` runs it through tsx.
 */
import { fileURLToPath } from 'node:url';
import { resolveDataDir } from '../core/config/data-dir';
import { readCacheFileAhead } from '../core/directory/cache-file-read';

void readCacheFileAhead(resolveDataDir());
// main.ts finds the build output in this checkout's out/ unless the entry said where it is.
process.env.CALLBAR_OUT_DIR ??= fileURLToPath(new URL('../../out', import.meta.url));
void import('./main').then(({ runPreview }) => runPreview());
