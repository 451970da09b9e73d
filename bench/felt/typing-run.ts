/**
 * Types a script into a page's search box in Chromium and collects each keystroke's
 * keydown → painted-list time (page-probe), then scrolls the list end to end and reads the
 * page's JS heap after a collection (Chrome DevTools Protocol).
 */
import type { Page } from 'playwright-core';
import { probeSource, WAIT_SOURCE, type KeyTiming } from './page-probe';
import type { Keystroke } from './typing';

/** The wait after which a keystroke counts as having changed nothing. */
const UNCHANGED_AFTER_MS = 500;

export interface TypingFigures {
  timings: KeyTiming[];
  /** Measured keystrokes after which the list did not change within half a second. */
  unchanged: number;
}

export async function typeScript(page: Page, keys: readonly Keystroke[]): Promise<TypingFigures> {
  await page.locator('.search-box').focus();
  await page.evaluate(probeSource('section.search'));
  const timings: KeyTiming[] = [];
  let unchanged = 0;
  for (const key of keys) {
    await page.waitForTimeout(key.pauseMs);
    await page.keyboard.press(key.key);
    if (!key.measured) continue;
    const timing = await page.evaluate<KeyTiming | null>(WAIT_SOURCE(UNCHANGED_AFTER_MS));
    if (timing) timings.push(timing);
    else unchanged += 1;
    const done = timings.length + unchanged;
    if (done % 100 === 0) console.log(`    … ${done} keystrokes`);
  }
  return { timings, unchanged };
}

/**
 * Types `query`, scrolls the results from the first row to the last, collects garbage and reads
 * the JS heap in use (MB).
 */
export async function heapAfterScrolling(page: Page, query: string): Promise<number> {
  await page.locator('.search-box').fill(query);
  const list = page.getByTestId('results');
  await list.waitFor();
  // Page by page to the last row (until the list scrolls no further), a frame each.
  await list.evaluate(async (element) => {
    for (let before = -1; element.scrollTop > before;) {
      before = element.scrollTop;
      element.scrollTop += element.clientHeight;
      await new Promise((frame) => requestAnimationFrame(frame));
    }
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 2 ** 20;
}

/**
 * The search call alone as the page makes it, each query timed in the page, ms: `channel` through
 * window.callbar.directory.search (the preview's bridge: one WebSocket, the router, JSON both
 * ways), and, interleaved with it in the same run, `http`: the same call as one HTTP POST, the
 * preview's transport before the channel (still answered).
 */
export async function bridgeRoundTrips(
  page: Page,
  queries: readonly string[],
): Promise<{ channel: number[]; http: number[] }> {
  return page.evaluate(`(async (queries) => {
    const channel = [];
    const http = [];
    const session = sessionStorage.getItem('callbar.preview.session');
    for (const query of queries) {
      let started = performance.now();
      const result = await window.callbar.directory.search({ query, limit: 200 });
      if (!result.ok) throw new Error(result.error.message);
      channel.push(performance.now() - started);
      started = performance.now();
      const response = await fetch('/__callbar/invoke/directory.search', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Callbar-Session': session },
        body: JSON.stringify({ query, limit: 200 }),
        credentials: 'omit',
      });
      if (!(await response.json()).ok) throw new Error('the HTTP search failed');
      http.push(performance.now() - started);
    }
    return { channel, http };
  })(${JSON.stringify(queries)})`);
}
