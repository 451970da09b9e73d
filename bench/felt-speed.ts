/**
 * The speed a person feels (issue 31), measured from outside in Debian's Chromium driving the
 * real renderer against the real core through the web preview's transport:
 *
 * - keystroke → results painted: ≥ 500 keystrokes of realistic typing (felt/typing.ts) at the
 *   contract's largest tenant (8,700 contacts) and at 100,000, beside a baseline page (a plain
 *   input and Array.filter over the same contacts, rendered by the same ResultList) and the
 *   channel baseline (the same page asking the same filter in a process of its own over one
 *   WebSocket: what a process hop alone costs a keystroke);
 * - start → first result: the bundled preview started on a profile whose directory is cached,
 *   to the first search answered with hits; the cache read and the index build in process;
 * - memory: the preview's RSS and the core's heap with the directory indexed, the renderer's JS
 *   heap with the list scrolled end to end;
 * - the IPC router alone, in process; a tel: link to the click-to-dial request leaving.
 *
 * `npm run bench -- --felt` (about 8 minutes on 2 cores; not part of the plain `npm run bench`).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ContactIndex } from '../src-main/core/directory/contact-index';
import { readCache } from '../src-main/core/directory/directory-cache';
import { CODE_CACHE_FOLDER } from '../src-main/core/files/code-cache';
import { openVault } from '../src-main/core/vault/keytar-vault';
import { openBaseline } from './felt/baseline-page';
import { buildFelt, type FeltBuild } from './felt/build';
import { coreInProcess } from './felt/core-in-process';
import { feltProfile, type FeltProfile } from './felt/felt-profile';
import { startFilterServer } from './felt/filter-server-start';
import { previewNode, startPreview } from './felt/preview-start';
import { keystrokeSplit, showSplit } from './felt/split';
import { showSpread, spread, type Spread } from './felt/spread';
import {
  bridgeRoundTrips,
  heapAfterScrolling,
  typeScript,
  type TypingFigures,
} from './felt/typing-run';
import { typedQueries, typingScript, type Keystroke } from './felt/typing';
import { generateDirectory } from './search-data';

/** Directory sizes (CALLBAR_FELT_SIZES=100000: one of them, for a shorter run). */
const SIZES = (process.env.CALLBAR_FELT_SIZES ?? '8700,100000').split(',').map(Number);
/** Measured keystrokes per page and size (CALLBAR_FELT_KEYSTROKES: fewer, for a trial run). */
const KEYSTROKES = Number(process.env.CALLBAR_FELT_KEYSTROKES ?? 500);
/**
 * Starts per size for the start → first result median: seven, as the start probe's comparisons
 * take, since one start here moves by a fifth from one to the next (three made the median move
 * as much between runs as a round's changes).
 */
const STARTS = 7;

export interface FeltFigures {
  keystroke_paint_p99_ms_8700: number;
  keystroke_paint_p99_ms_100k: number;
  baseline_keystroke_paint_p99_ms_8700: number;
  baseline_keystroke_paint_p99_ms_100k: number;
  /** The baseline page with its filter behind one WebSocket: the same run's transport floor. */
  channel_baseline_keystroke_paint_p99_ms_8700: number;
  channel_baseline_keystroke_paint_p99_ms_100k: number;
  start_to_first_result_ms_100k: number;
  /** The first start after an install or an update, before the preview's code cache exists. */
  start_without_code_cache_ms_100k: number;
  index_build_ms_100k: number;
  core_rss_mb_100k: number;
  /** The Node the preview ran on (its version; CALLBAR_BENCH_NODE chooses another). */
  preview_node: string;
  /** Everything else measured, by size. */
  detail: Record<string, unknown>;
}

export async function feltSpeed(): Promise<FeltFigures> {
  const built = await buildFelt();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const felt = await feltProfile((dataDir) => openVault({ dataDir }));
  const detail: Record<string, Record<string, unknown>> = {};
  try {
    for (const size of SIZES) detail[size] = await measureSize(size, built, felt, browser);
  } finally {
    await browser.close();
    await felt.close();
    built.remove();
  }
  const at = (size: number, key: string) =>
    (detail[size]?.[key] as Spread | number | undefined) ?? NaN;
  const p99 = (size: number, key: string) => (at(size, key) as Partial<Spread>).p99 ?? NaN;
  return {
    keystroke_paint_p99_ms_8700: p99(8_700, 'keystroke_paint_ms'),
    keystroke_paint_p99_ms_100k: p99(100_000, 'keystroke_paint_ms'),
    baseline_keystroke_paint_p99_ms_8700: p99(8_700, 'baseline_keystroke_paint_ms'),
    baseline_keystroke_paint_p99_ms_100k: p99(100_000, 'baseline_keystroke_paint_ms'),
    channel_baseline_keystroke_paint_p99_ms_8700: p99(8_700, 'channel_baseline_keystroke_paint_ms'),
    channel_baseline_keystroke_paint_p99_ms_100k: p99(
      100_000,
      'channel_baseline_keystroke_paint_ms',
    ),
    start_to_first_result_ms_100k: at(100_000, 'start_to_first_result_ms') as number,
    start_without_code_cache_ms_100k: at(100_000, 'start_without_code_cache_ms') as number,
    index_build_ms_100k: at(100_000, 'index_build_ms') as number,
    core_rss_mb_100k: at(100_000, 'core_rss_mb') as number,
    preview_node: execFileSync(previewNode(), ['--version'], { encoding: 'utf8' }).trim(),
    detail,
  };
}

async function measureSize(
  size: number,
  built: FeltBuild,
  felt: FeltProfile,
  browser: Browser,
): Promise<Record<string, unknown>> {
  const { contacts, priorities } = generateDirectory(size);
  await felt.cache(contacts, priorities);
  const keys = typingScript(contacts, KEYSTROKES);
  const label = size.toLocaleString('en');
  console.log(`\n${label} contacts (${keys.filter((key) => key.measured).length} keystrokes)`);

  // Start → first result: the cache read and the index built before the address is printed. The
  // first start after an install or an update has no code cache yet (it writes one): measured
  // apart, then the median of STARTS starts as they come after it.
  rmSync(join(felt.dataDir, CODE_CACHE_FOLDER), { recursive: true, force: true });
  const uncached = await startPreview(built, felt.env, 'mar');
  await uncached.stop();
  const starts: { address: number; first: number }[] = [];
  for (let i = 0; i < STARTS; i++) {
    const preview = await startPreview(built, felt.env, 'mar');
    starts.push({ address: preview.addressMs, first: preview.firstResultMs });
    await preview.stop();
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const startMs = Math.round(median(starts.map((start) => start.first)));
  const addressMs = Math.round(median(starts.map((start) => start.address)));
  const { readMs, buildMs } = await readAndBuild(felt, priorities);
  console.log(
    `  start → first result ${startMs} ms (median of ${STARTS}; address printed at ${addressMs} ms; the first start without a code cache ${Math.round(uncached.firstResultMs)} ms); in process: cache read ${readMs} ms, index build ${buildMs} ms (median of 3)`,
  );

  const preview = await startPreview(built, felt.env, 'mar');
  try {
    const page = await browser.newPage({ viewport: { width: 420, height: 640 } });
    await page.goto(preview.url);
    await page.locator('.search-box').waitFor();
    const callbar = await typeScript(page, keys);
    const bridge = await bridgeRoundTrips(page, typedQueries(keys));
    const rendererHeap = await heapAfterScrolling(page, 'a');
    const rss = preview.rssMb();
    await page.close();

    const figures: Record<string, unknown> = {
      keystroke_paint_ms: spread(callbar.timings.map((timing) => timing.paintMs)),
      keystroke_dom_ms: spread(callbar.timings.map((timing) => timing.domMs)),
      keystroke_split_ms: keystrokeSplit(callbar.timings),
      keystrokes_unchanged: callbar.unchanged,
      bridge_search_ms: spread(bridge.channel),
      http_search_ms: spread(bridge.http),
      start_to_first_result_ms: startMs,
      start_without_code_cache_ms: Math.round(uncached.firstResultMs),
      start_to_address_ms: addressMs,
      cache_read_ms: readMs,
      index_build_ms: buildMs,
      core_rss_mb: Math.round(rss),
      renderer_heap_mb: Number(rendererHeap.toFixed(1)),
    };
    report(figures, callbar);
    // The baseline at every size: issue 45 compares the two at 8,700 and at 100,000.
    const baseline = await typeBaseline(browser, built, contacts, keys);
    Object.assign(figures, {
      baseline_keystroke_paint_ms: spread(baseline.timings.map((timing) => timing.paintMs)),
      baseline_keystrokes_unchanged: baseline.unchanged,
    });
    console.log(
      `  keystroke → painted, baseline (input + Array.filter): ${showSpread(figures.baseline_keystroke_paint_ms as Spread)}; ${baseline.unchanged} changed nothing`,
    );
    const channelBaseline = await typeBaseline(browser, built, contacts, keys, 'channel');
    Object.assign(figures, {
      channel_baseline_keystroke_paint_ms: spread(
        channelBaseline.timings.map((timing) => timing.paintMs),
      ),
      channel_baseline_keystrokes_unchanged: channelBaseline.unchanged,
    });
    console.log(
      `  keystroke → painted, channel baseline (the same filter in a process of its own, one WebSocket): ${showSpread(figures.channel_baseline_keystroke_paint_ms as Spread)}; ${channelBaseline.unchanged} changed nothing`,
    );
    await preview.stop();
    const inProcess = await coreInProcess(felt, typedQueries(keys), 200);
    console.log(
      `  in process: router.invoke('directory.search') ${showSpread(inProcess.router)}; directory.search alone ${showSpread(inProcess.direct)}`,
    );
    console.log(
      `  core heap with the directory indexed ${inProcess.heapMb} MB; tel: link → click-to-dial request ${showSpread(inProcess.telToRequest)}`,
    );
    return {
      ...figures,
      router_ms: inProcess.router,
      index_search_ms: inProcess.direct,
      core_heap_mb: inProcess.heapMb,
      tel_to_request_ms: inProcess.telToRequest,
    };
  } finally {
    await preview.stop();
  }
}

/** The cache read (file → contacts) and the index build, in this process, median of 3. */
async function readAndBuild(felt: FeltProfile, priorities: Map<number, number>) {
  const reads: number[] = [];
  const builds: number[] = [];
  for (let i = 0; i < 3; i++) {
    let started = performance.now();
    const read = await readCache(felt.dataDir, {
      tenant_id: felt.account.tenant_id,
      user_extension: felt.account.user_extension,
      base_url: felt.account.base_url,
    });
    reads.push(performance.now() - started);
    if (read.status !== 'ok') throw new Error(`the cache was not read: ${read.status}`);
    started = performance.now();
    ContactIndex.build(read.cache.contacts, {
      region: 'DE',
      priorityOf: (phonebook) => priorities.get(phonebook),
    });
    builds.push(performance.now() - started);
  }
  const median = (values: number[]) =>
    Math.round(values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
  return { readMs: median(reads), buildMs: median(builds) };
}

/**
 * The baseline page (a plain input and Array.filter) typed as Callbar's window was; `channel`:
 * its filter in a process of its own, asked over one WebSocket.
 */
async function typeBaseline(
  browser: Browser,
  built: FeltBuild,
  contacts: unknown[],
  keys: readonly Keystroke[],
  where: 'page' | 'channel' = 'page',
): Promise<TypingFigures> {
  const server =
    where === 'channel' ? await startFilterServer(contacts, built.baselineDir) : undefined;
  try {
    const page = await openBaseline(browser, built, contacts, server?.url);
    try {
      return await typeScript(page, keys);
    } finally {
      await page.context().close();
    }
  } finally {
    server?.stop();
  }
}

function report(figures: Record<string, unknown>, callbar: TypingFigures) {
  const show = (key: string) => showSpread(figures[key] as Spread);
  console.log(`  keystroke → painted, Callbar: ${show('keystroke_paint_ms')}`);
  console.log(
    `    (keystroke → list changed: ${show('keystroke_dom_ms')}; ${callbar.unchanged} keys changed nothing)`,
  );
  console.log(`    where the time goes:\n${showSplit(keystrokeSplit(callbar.timings), '      ')}`);
  console.log(
    `  the search call from the page over the channel (WebSocket, router, JSON): ${show('bridge_search_ms')}`,
  );
  console.log(
    `    the same call as one HTTP POST (the transport before), same run: ${show('http_search_ms')}`,
  );
  console.log(
    `  core RSS ${String(figures.core_rss_mb)} MB; renderer JS heap with the list scrolled end to end ${String(figures.renderer_heap_mb)} MB`,
  );
}
