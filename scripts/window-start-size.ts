/**
 * The JavaScript the window loads at start, measured on the renderer's production build (built
 * exactly as `npm run build` builds it, into a temporary folder): the entry chunk, the chunks it
 * imports, and one locale's start catalog (the largest of the hand-written locales), each
 * gzipped at level 9 on its own as a server or the app's archive would. The screens loaded when
 * opened and the other locales' catalogs are listed apart. A size is deterministic: the budget
 * is a test (test/integration/scripts/window-start-size.test.ts) and a figure of the bench
 * (`window_start_js_kb`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type InlineConfig, type Rollup } from 'vite';
import electronViteConfig from '../electron.vite.config';
import { CATALOG_LOCALES } from '../src-shared/i18n/locales';
import { WINDOW_CATALOG_ID } from './window-catalogs';

/** The budget of issue 45: at most 100 KB of gzip JavaScript at the window's start. */
export const WINDOW_START_BUDGET_KB = 100;

export interface ChunkSize {
  file: string;
  /** The modules in it (node_modules paths from the package name on, app paths from the repo). */
  modules: string[];
  rawKb: number;
  gzipKb: number;
}

export interface WindowStartSize {
  /** Entry + its imports + the largest start catalog of a hand-written locale, gzip KB. */
  startKb: number;
  /** The chunks counted in startKb (the catalog last). */
  start: ChunkSize[];
  /** Each hand-written locale's start catalog, gzip KB. */
  catalogKb: Record<string, number>;
  /** Everything else: screens loaded when opened, other catalogs. */
  later: ChunkSize[];
  /** Every chunk's gzip KB added up (what the issue measured before: one chunk). */
  allKb: number;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

function moduleName(id: string): string {
  const at = id.lastIndexOf('node_modules/');
  if (at >= 0) return id.slice(at + 'node_modules/'.length);
  return id.replace(/^.*?(src-renderer|src-shared|src-preload)\//, '$1/').replace('\0', '');
}

function sizeOf(chunk: Rollup.OutputChunk): ChunkSize {
  return {
    file: chunk.fileName,
    modules: Object.keys(chunk.modules).map(moduleName),
    rawKb: kb(Buffer.byteLength(chunk.code)),
    gzipKb: kb(gzipSync(chunk.code, { level: 9 }).length),
  };
}

/** Builds the renderer as `npm run build` does and measures what the window loads at start. */
export async function measureWindowStart(): Promise<WindowStartSize> {
  const renderer = (electronViteConfig as { renderer: InlineConfig }).renderer;
  const outDir = mkdtempSync(join(tmpdir(), 'callbar-window-size-'));
  // As `npm run build` builds, also under vitest (whose NODE_ENV is `test`, which would make
  // Vite build React's development version).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const output = (await build({
      ...renderer,
      configFile: false,
      logLevel: 'silent',
      build: { ...renderer.build, outDir, emptyOutDir: true, write: false },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    const items = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output);
    const chunks = items.filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
    const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));

    // What index.html loads (its module script), and every chunk that imports statically.
    const html = items.find((item) => item.fileName === 'index.html') as Rollup.OutputAsset;
    const scripts = [
      ...String(html.source).matchAll(/<script type="module"[^>]* src="\/?([^"]+)"/g),
    ];
    const startFiles = new Set<string>();
    const visit = (file: string) => {
      if (startFiles.has(file)) return;
      startFiles.add(file);
      for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
    };
    for (const [, file] of scripts) visit(file!);
    if (startFiles.size === 0) throw new Error('The built index.html loads no script.');

    const catalogOf = (locale: string) =>
      chunks.find((chunk) => chunk.facadeModuleId === `\0${WINDOW_CATALOG_ID}${locale}`);
    const catalogs = CATALOG_LOCALES.map((locale) => ({ locale, chunk: catalogOf(locale) }));
    const catalogKb: Record<string, number> = {};
    for (const { locale, chunk } of catalogs) {
      if (!chunk) throw new Error(`The build has no start catalog of "${locale}".`);
      catalogKb[locale] = sizeOf(chunk).gzipKb;
    }
    const largest = catalogs.reduce((a, b) =>
      catalogKb[a.locale]! >= catalogKb[b.locale]! ? a : b,
    );

    const start = [...startFiles].map((file) => sizeOf(byFile.get(file)!));
    start.push(sizeOf(largest.chunk!));
    const later = chunks
      .filter((chunk) => !startFiles.has(chunk.fileName) && chunk !== largest.chunk)
      .map(sizeOf);
    const sum = (sizes: ChunkSize[]) =>
      Math.round(sizes.reduce((total, size) => total + size.gzipKb, 0) * 10) / 10;
    return { startKb: sum(start), start, catalogKb, later, allKb: sum([...start, ...later]) };
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    rmSync(outDir, { recursive: true, force: true });
  }
}
