import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

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
    plugins: [react()],
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
