/**
 * Installed in the page under test: times each measured keystroke from its `keydown` (the
 * event's own timestamp) to the frame that shows the changed list: the first DOM change of the
 * search section after the key (the list, its highlights, the "no match" line), then the next
 * `requestAnimationFrame`. A keystroke that changes nothing within the wait is counted apart.
 *
 * On the way it notes where the time goes (the split): the `input` event, the end of its handling
 * (a listener on the window, bubbling: after React's handler and its render of the typed text), and
 * for the page's search call (`window.callbar.directory.search`, wrapped: whatever transport
 * carries it) when it was sent and when its answer arrived, parsed.
 * Plain JavaScript source (page.evaluate of a string): a compiled function could carry the
 * bundler's helpers, which the page does not have.
 */

export interface KeyTiming {
  key: string;
  /** The search box's text after the key. */
  text: string;
  /** keydown → the list's DOM changed, ms. */
  domMs: number;
  /** keydown → the frame showing it (requestAnimationFrame), ms. */
  paintMs: number;
  /** keydown → the `input` event, ms. */
  inputMs?: number;
  /** keydown → the `input` event handled (React's handler and render done), ms. */
  inputDoneMs?: number;
  /** keydown → the search request sent (window.callbar.directory.search called), ms. */
  sentMs?: number;
  /** keydown → the search answer arrived, parsed and checked (its promise resolved), ms. */
  answeredMs?: number;
}

/** Installs `window.__feltProbe` watching `section` (a CSS selector). */
export function probeSource(section: string): string {
  return `(() => {
    const root = document.querySelector(${JSON.stringify(section)});
    if (!root) throw new Error('no ${section} in the page');
    let pending, done, result;
    const since = (key) => performance.now() - key.at;
    addEventListener('keydown', (event) => {
      if (event.key === 'Escape') return;
      pending = { key: event.key, at: event.timeStamp, split: {} };
      result = undefined;
    }, true);
    addEventListener('input', () => {
      if (pending) pending.split.inputMs = since(pending);
    }, true);
    // Last on the event's way (window, bubbling): after the page's handlers and their microtasks.
    addEventListener('input', () => {
      if (pending) pending.split.inputDoneMs = since(pending);
    });
    // The page's search call, whatever carries it (the preview's channel, Electron's IPC).
    const api = window.callbar && window.callbar.directory;
    if (api) {
      const search = api.search;
      api.search = (request) => {
        const key = pending;
        const timed = key && key.split.sentMs === undefined;
        if (!timed) return search(request);
        key.split.sentMs = since(key);
        return search(request).then((answer) => {
          key.split.answeredMs = since(key);
          return answer;
        });
      };
    }
    new MutationObserver(() => {
      const key = pending;
      if (!key) return;
      pending = undefined;
      const domMs = since(key);
      requestAnimationFrame(() => {
        const text = document.querySelector('.search-box')?.value ?? '';
        result = { key: key.key, text, domMs, paintMs: since(key), ...key.split };
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
