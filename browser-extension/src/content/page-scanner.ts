/**
 * Scans a page for numbers in small slices at idle time, so a page never waits for Callbar: the
 * text nodes are walked lazily, each slice stops after {@link SLICE_MS} (or earlier when the
 * browser's idle period ends) and the next one starts no sooner than twice its length later, so
 * the scan takes at most about 40 ms of any 100 ms of the main thread (the bench measures it). Numbers added later (a mail opened,
 * a list grown) arrive through a MutationObserver, batched: their roots join the queue and the
 * same slices scan them.
 */
import { numbersIn } from './number-finder';
import { markNumbers } from './number-marks';
import { mayScan, scannableText } from './text-walk';

/** The most one slice takes (ms); one number's text may take it a little over. */
export const SLICE_MS = 16;

export interface ScannerOptions {
  region: string;
  /** "Call {number}" in the user's language. */
  label: string;
  /**
   * Runs `work` at idle time, `pause` ms from now at the soonest (requestIdleCallback, with a
   * fallback); tests may replace it.
   */
  schedule?: (work: (timeRemaining: () => number) => void, pause: number) => void;
}

export interface ScanStats {
  /** Text nodes looked at, numbers marked. */
  nodes: number;
  marked: number;
  /** Each slice: when it started and how long it took (ms, performance.now()). */
  slices: { start: number; duration: number }[];
}

function idleSchedule(work: (timeRemaining: () => number) => void, pause: number): void {
  // Not sooner than twice the last slice's length after it; then whenever the page is idle (at
  // most a second later on a page that never is).
  setTimeout(() => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback((deadline) => work(() => deadline.timeRemaining()), { timeout: 1000 });
    } else {
      work(() => SLICE_MS);
    }
  }, pause);
}

export class PageScanner {
  readonly stats: ScanStats = { nodes: 0, marked: 0, slices: [] };
  readonly #options: ScannerOptions;
  readonly #schedule: NonNullable<ScannerOptions['schedule']>;
  readonly #roots: Node[] = [];
  #walk: Generator<Text> | undefined;
  #scheduled = false;
  /** How long the last slice took (the next one waits twice as long). */
  #lastSlice = 0;
  #observer: MutationObserver | undefined;
  #idle: (() => void)[] = [];

  constructor(options: ScannerOptions) {
    this.#options = options;
    this.#schedule = options.schedule ?? idleSchedule;
  }

  /** Queues `root` (an element or a text node) for scanning. */
  add(root: Node): void {
    this.#roots.push(root);
    this.#wake();
  }

  /** Scans what is added to `root` from now on. */
  observe(root: Node): void {
    this.#observer = new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'characterData') {
          if (mayScan(record.target)) this.add(record.target);
          continue;
        }
        for (const node of record.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.TEXT_NODE) continue;
          if (mayScan(node)) this.add(node);
        }
      }
    });
    this.#observer.observe(root, { childList: true, subtree: true, characterData: true });
  }

  disconnect(): void {
    this.#observer?.disconnect();
  }

  /** Resolves once nothing is left to scan (tests, the bench). */
  idle(): Promise<void> {
    if (!this.#scheduled && !this.#walk && this.#roots.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #wake(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule(
      (timeRemaining) => this.#slice(timeRemaining),
      Math.max(SLICE_MS, 2 * this.#lastSlice),
    );
  }

  #nextText(): Text | undefined {
    for (;;) {
      if (this.#walk) {
        const next = this.#walk.next();
        if (!next.done) return next.value;
        this.#walk = undefined;
      }
      const root = this.#roots.shift();
      if (!root) return undefined;
      // A root that left the page meanwhile, or one inside a later root's subtree, costs nothing.
      if (root.isConnected) this.#walk = scannableText(root);
    }
  }

  #slice(timeRemaining: () => number): void {
    this.#scheduled = false;
    const start = performance.now();
    const budget = Math.max(1, Math.min(SLICE_MS, timeRemaining()));
    const { region, label } = this.#options;
    let more = true;
    while (performance.now() - start < budget) {
      const text = this.#nextText();
      if (!text) {
        more = false;
        break;
      }
      this.stats.nodes += 1;
      const found = numbersIn(text.data, region);
      if (found.length > 0) this.stats.marked += markNumbers(text, found, label);
    }
    // What this slice changed is Callbar's own doing: not news for the observer.
    this.#observer?.takeRecords();
    this.#lastSlice = performance.now() - start;
    this.stats.slices.push({ start, duration: this.#lastSlice });
    if (more) this.#wake();
    else for (const resolve of this.#idle.splice(0)) resolve();
  }
}
