/**
 * Types a script into a page's search box in Chromium and collects each keystroke's
 * keydown → painted-list time (page-probe), then scrolls the list end to end and reads the
 * page's JS heap after a collection (Chrome DevTools Protocol).
 */
import type { Page } from 'playwright-core';
import { probeSource, WAIT_SOURCE, type KeyTiming } from './page-probe';
import type { Keystroke } from './typing';

/** The wait after which a keystroke counts as having changed nothing. */
const UNCHANGED_AFTER_MS = 1_000;

export interface TypingFigures {
  timings: KeyTiming[];
  /** Measured keystrokes after which the list did not change within a second. */
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
    const timing = (await page.evaluate(WAIT_SOURCE(UNCHANGED_AFTER_MS))) as KeyTiming | null;
    if (timing) timings.push(timing);
    else unchanged += 1;
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
  await list.evaluate(async (element) => {
    while (element.scrollTop + element.clientHeight < element.scrollHeight) {
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
