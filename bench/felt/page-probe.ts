/**
 * Installed in the page under test: times each measured keystroke from its `keydown` (the
 * event's own timestamp) to the frame that shows the changed list: the first DOM change of the
 * search section after the key (the list, its highlights, the "no match" line), then the next
 * `requestAnimationFrame`. A keystroke that changes nothing within the wait is counted apart.
 * Plain JavaScript source (page.evaluate of a string): a compiled function could carry the
 * bundler's helpers, which the page does not have.
 */

export interface KeyTiming {
  key: string;
  /** keydown → the list's DOM changed, ms. */
  domMs: number;
  /** keydown → the frame showing it (requestAnimationFrame), ms. */
  paintMs: number;
}

/** Installs `window.__feltProbe` watching `section` (a CSS selector). */
export function probeSource(section: string): string {
  return `(() => {
    const root = document.querySelector(${JSON.stringify(section)});
    if (!root) throw new Error('no ${section} in the page');
    let pending, done, result;
    addEventListener('keydown', (event) => {
      if (event.key === 'Escape') return;
      pending = { key: event.key, at: event.timeStamp };
      result = undefined;
    }, true);
    new MutationObserver(() => {
      const key = pending;
      if (!key) return;
      pending = undefined;
      const domMs = performance.now() - key.at;
      requestAnimationFrame(() => {
        result = { key: key.key, domMs, paintMs: performance.now() - key.at };
        if (done) done(result);
      });
    }).observe(root, { childList: true, subtree: true, characterData: true });
    window.__feltProbe = {
      waitFor: (timeoutMs) => new Promise((resolve) => {
        if (result) return resolve(result);
        const timer = setTimeout(() => { done = undefined; pending = undefined; resolve(null); }, timeoutMs);
        done = (timing) => { clearTimeout(timer); done = undefined; resolve(timing); };
      }),
    };
  })()`;
}

/** Waits (in the page) for the last keystroke's timing; null when nothing changed in time. */
export const WAIT_SOURCE = (timeoutMs: number) => `window.__feltProbe.waitFor(${timeoutMs})`;
