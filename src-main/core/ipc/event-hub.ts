import { CallbarEvent } from '../../../src-shared/contract';
import type { Translate } from '../text/said';
import { sayAgainWhenSaid } from '../text/translators';

/**
 * The one stream of events from core to whichever renderer transport is attached. Every event is
 * validated against the contract before anyone sees it. An event given as a function is made
 * only when someone listens: the call list and account status the core's start publishes, before
 * anything can subscribe, cost the start nothing.
 *
 * Core's sentences in an event (why a sync did not complete, an account's message, why a call
 * ended, why an import stopped, a notice) are worded in the window's language (`words`, when
 * given) here, for every event at once, as the router does for answers: an event that forgot
 * to was heard in English by a German window (the directory's sync error did).
 */
export class EventHub {
  readonly #listeners = new Set<(event: CallbarEvent) => void>();
  readonly #words: (() => Translate) | undefined;

  constructor(words?: () => Translate) {
    this.#words = words;
  }

  /**
   * Sends `event` to every listener; one outside the contract throws. Given as a function, the
   * event is made (and checked) only when someone listens.
   */
  publish(event: CallbarEvent | (() => CallbarEvent)): void {
    if (typeof event === 'function' && this.#listeners.size === 0) return;
    const checked = CallbarEvent.parse(typeof event === 'function' ? event() : event);
    const words = this.#words;
    const worded = words ? sayAgainWhenSaid(words, checked) : checked;
    for (const listener of this.#listeners) listener(worded);
  }

  subscribe(listener: (event: CallbarEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
