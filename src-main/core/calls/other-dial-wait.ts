/**
 * Call events of legs no call knows, held while another process of the profile may still be
 * writing the record of a dial it placed (`callbar dial` while the window hears the events):
 * they wait, OTHER_DIAL_WAIT_MS at most, until that record is in the call log and claims the
 * first of them, or nobody is dialling any more; then they are taken in, in their order. So
 * one call is one record, not a dial in one process and "a call to you" in the other.
 */
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';

/** How long events of unknown legs wait for another process's dial to reach the call log. */
export const OTHER_DIAL_WAIT_MS = 3_000;
/** How often the call log is looked at meanwhile. */
const OTHER_DIAL_POLL_MS = 50;

export interface OtherDialWaitOptions {
  /** Whether another process dials now or just did (false: known at once that none does). */
  dialElsewhere: () => false | Promise<boolean>;
  /** Reads what another process wrote; true when a call now claims this held event. */
  claimed: (event: unknown) => boolean;
  /** Takes the held events in, in order (after the wait). */
  release: (events: unknown[]) => void;
  /** The most events held (beyond it they are dropped, and `dropped` says so). */
  max: number;
  dropped: () => void;
  log: Logger;
}

export class OtherDialWait {
  readonly #options: OtherDialWaitOptions;
  #held: unknown[] = [];
  #closed = false;

  constructor(options: OtherDialWaitOptions) {
    this.#options = options;
  }

  /** Whether events are held now (later events of unknown legs then queue behind them). */
  get holding(): boolean {
    return this.#held.length > 0;
  }

  /** Queues an event behind those held. */
  queue(event: unknown): void {
    if (this.#held.length < this.#options.max) this.#held.push(event);
    else this.#options.dropped();
  }

  /**
   * Holds `event` when another process may be dialling; false (nothing held) when it is known at
   * once that none is.
   */
  hold(event: unknown): boolean {
    const asking = this.#options.dialElsewhere();
    if (asking === false) return false;
    this.#held.push(event);
    void this.#wait(asking);
    return true;
  }

  close(): void {
    this.#closed = true;
  }

  async #wait(first: Promise<boolean>): Promise<void> {
    const { claimed, dialElsewhere, release, log } = this.#options;
    const until = Date.now() + OTHER_DIAL_WAIT_MS;
    let asking: false | Promise<boolean> = first;
    try {
      while (!this.#closed && Date.now() < until && (await asking)) {
        if (claimed(this.#held[0])) break;
        await new Promise((resolve) => setTimeout(resolve, OTHER_DIAL_POLL_MS));
        asking = dialElsewhere();
      }
    } catch (error) {
      log.warn('could not tell whether another process is dialling', {
        error: errorMessage(error),
      });
    }
    const held = this.#held;
    this.#held = [];
    if (!this.#closed) release(held);
  }
}
