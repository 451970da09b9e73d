import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import {
  WINDOW_PARSER_ALIAS,
  windowCatalogs,
  windowChunkFileName,
} from './scripts/window-catalogs.ts';
import { startChunkName } from './scripts/window-chunks.ts';

export default defineConfig({
  main: {
    build: {
      // start.js (package.json's main) turns the V8 code cache on, then loads index.js, the shell.
      rollupOptions: {
        input: { index: resolve('src-main/app/main.ts'), start: resolve('src-main/app/start.ts') },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload must be one self-contained CommonJS file.
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        input: { index: resolve('src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    // The catalogs compiled at build time, one chunk per locale; no ICU parser in the window.
    plugins: [react(), windowCatalogs()],
    resolve: { alias: [WINDOW_PARSER_ALIAS] },
    build: {
      minify: true,
      // Electron's Chromium preloads modules itself: no polyfill in the window's first chunk.
      modulePreload: { polyfill: false },
      rollupOptions: {
        input: { index: resolve('src-renderer/index.html') },
        // src-shared/i18n's modules only define things (its pseudo-locale table, core's i18next
        // set-up): the window takes what it uses from them and leaves the rest out.
        treeshake: {
          moduleSideEffects: (id: string) =>
            !id.includes('/src-shared/i18n/') && !id.includes('/node_modules/i18next-icu/'),
        },
        // What the window loads at start in one chunk (scripts/window-chunks.ts).
        output: {
          codeSplitting: { groups: [{ name: startChunkName() }] },
          chunkFileNames: windowChunkFileName,
        },
      },
    },
  },
});
