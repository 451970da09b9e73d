import { CallbarEvent } from '../../../src-shared/contract';

/**
 * The one stream of events from core to whichever renderer transport is attached. Every event is
 * validated against the contract before anyone sees it. An event given as a function is made
 * only when someone listens: the call list and account status the core's start publishes, before
 * anything can subscribe, cost the start nothing.
 */
export class EventHub {
  readonly #listeners = new Set<(event: CallbarEvent) => void>();

  /**
   * Sends `event` to every listener; one outside the contract throws. Given as a function, the
   * event is made (and checked) only when someone listens.
   */
  publish(event: CallbarEvent | (() => CallbarEvent)): void {
    if (typeof event === 'function' && this.#listeners.size === 0) return;
    const checked = CallbarEvent.parse(typeof event === 'function' ? event() : event);
    for (const listener of this.#listeners) listener(checked);
  }

  subscribe(listener: (event: CallbarEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
