import { CallbarEvent } from '../../../src-shared/contract';

/**
 * The one stream of events from core to whichever renderer transport is attached. Every event is
 * validated against the contract before anyone sees it.
 */
export class EventHub {
  readonly #listeners = new Set<(event: CallbarEvent) => void>();

  publish(event: CallbarEvent): void {
    const checked = CallbarEvent.parse(event);
    for (const listener of this.#listeners) listener(checked);
  }

  subscribe(listener: (event: CallbarEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
