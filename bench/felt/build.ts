/**
 * What the felt benchmark runs, built into one folder under out/ (so the bundle finds
 * node_modules): the renderer and the preview bridge as `npm run build` builds them, the web
 * preview's main bundled with esbuild as out/preview-server is (scripts/node-bundle.mjs: a
 * shipped app starts bundled JavaScript, never TypeScript compiled at start), and the baseline
 * page.
 */
import { build as esbuild } from 'esbuild';
import { nodeBundleOptions, previewProgramOptions } from '../../scripts/node-bundle.mjs';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import electronViteConfig from '../../electron.vite.config';
import bridgeConfig from '../../vite.bridge.config';
import { WINDOW_PARSER_ALIAS, windowCatalogs } from '../../scripts/window-catalogs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface FeltBuild {
  /** CALLBAR_OUT_DIR for the preview: renderer/ and preview/bridge.js. */
  outDir: string;
  /** The bundled `src-main/preview/main.ts`. */
  previewMain: string;
  /** The baseline page's folder (index.html, assets). */
  baselineDir: string;
  remove(): void;
}

/** `readable`: the renderer and the preview not minified (for a profile with the functions' own names). */
export async function buildFelt({ readable = false } = {}): Promise<FeltBuild> {
  const outDir = join(ROOT, 'out', `felt-bench-${process.pid}`);
  mkdirSync(outDir, { recursive: true });
  const renderer = (electronViteConfig as { renderer: InlineConfig }).renderer;
  const quiet = { configFile: false as const, logLevel: 'silent' as const };
  await build({
    ...renderer,
    ...quiet,
    root: join(ROOT, 'src-renderer'),
    build: {
      ...renderer.build,
      outDir: join(outDir, 'renderer'),
      emptyOutDir: true,
      ...(readable ? { minify: false } : {}),
    },
  });
  const bridge = bridgeConfig as InlineConfig;
  await build({
    ...bridge,
    ...quiet,
    root: ROOT,
    build: { ...bridge.build, outDir: join(outDir, 'preview'), emptyOutDir: true },
  });
  const baselineDir = join(outDir, 'baseline');
  await build({
    ...quiet,
    root: join(ROOT, 'bench/felt/baseline'),
    base: './',
    // The window's ResultList speaks through the window's i18n (compiled catalogs).
    plugins: [react(), windowCatalogs()],
    resolve: { alias: [WINDOW_PARSER_ALIAS] },
    build: { outDir: baselineDir, emptyOutDir: true, minify: true, target: 'es2022' },
  });
  // Bundled as `npm run build` bundles out/preview-server: the entry (preview-main.mjs) runs the
  // program (preview.cjs, one CommonJS script) with a V8 code cache.
  await esbuild({
    ...nodeBundleOptions,
    entryPoints: { 'preview-main': 'src-main/preview/start.ts' },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
  });
  await esbuild({
    ...previewProgramOptions,
    outdir: outDir,
    ...(readable ? { minify: false } : {}),
  });
  const previewMain = join(outDir, 'preview-main.mjs');
  return {
    outDir,
    previewMain,
    baselineDir,
    remove: () => rmSync(outDir, { recursive: true, force: true }),
  };
}
