import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** Builds the web preview's `window.callbar` bridge (never part of a packaged app). */
export default defineConfig({
  build: {
    outDir: 'out/preview',
    emptyOutDir: true,
    lib: {
      entry: resolve('src-preload/web-bridge.ts'),
      formats: ['iife'],
      name: 'callbarBridge',
      fileName: () => 'bridge.js',
    },
  },
});
