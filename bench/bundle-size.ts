/**
 * The window's JavaScript (scripts/window-start-size.ts): the renderer's production build,
 * built exactly as `npm run build` builds it, each chunk gzipped at level 9. What the window loads
 * at start (`window_start_js_kb`: the start chunk and one locale's catalog, the largest of the
 * hand-written ones) against the 100 KB budget (a test holds it:
 * test/integration/scripts/window-start-size.test.ts), and what loads later (the screens opened
 * later with their texts, the other locales).
 */
import {
  measureWindowStart,
  WINDOW_START_BUDGET_KB,
  type ChunkSize,
} from '../scripts/window-start-size';

export interface BundleFigures {
  /** gzip KB of JavaScript at the window's start. */
  window_start_js_kb: number;
  /** gzip KB of every chunk of the window, added up. */
  window_all_js_kb: number;
  /** gzip KB of each hand-written locale's start catalog. */
  catalog_kb: Record<string, number>;
}

const row = (chunk: ChunkSize) =>
  `  ${chunk.file.padEnd(44)} ${`${chunk.rawKb} KB`.padStart(10)} ${`${chunk.gzipKb} KB`.padStart(9)}`;

export async function bundleSize(): Promise<BundleFigures> {
  const size = await measureWindowStart();
  console.log(`  ${'at start'.padEnd(44)} ${'raw'.padStart(10)} ${'gzip -9'.padStart(9)}`);
  for (const chunk of size.start) console.log(row(chunk));
  const verdict = size.startKb <= WINDOW_START_BUDGET_KB ? 'within' : 'OVER';
  console.log(
    `  window_start_js_kb: ${size.startKb} KB gzip — ${verdict} the ${WINDOW_START_BUDGET_KB} KB budget`,
  );
  console.log(`  start catalogs: ${JSON.stringify(size.catalogKb)} (KB gzip)`);
  console.log('  later (screens opened later with their texts, other locales):');
  for (const chunk of [...size.later].sort((a, b) => b.gzipKb - a.gzipKb)) console.log(row(chunk));
  console.log(`  every chunk added up: ${size.allKb} KB gzip`);
  return {
    window_start_js_kb: size.startKb,
    window_all_js_kb: size.allKb,
    catalog_kb: size.catalogKb,
  };
}
