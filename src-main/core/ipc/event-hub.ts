import { CallbarEvent } from '../../../src-shared/contract';

/**
 * The one stream of events from core to whichever renderer transport is attached. Every event is
 * validated against the contract before anyone sees it. An event nobody listens to is neither
 * made (given as a function) nor checked: those of the core's own start, published before
 * anything can subscribe, cost the start nothing.
 */
export class EventHub {
  readonly #listeners = new Set<(event: CallbarEvent) => void>();

  /** Sends `event` (or what `make` makes, made only when someone listens) to every listener. */
  publish(event: CallbarEvent | (() => CallbarEvent)): void {
    if (this.#listeners.size === 0) return;
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
