/**
 * Call events of legs no call knows, held while another process of the profile may still be
 * writing the record of a dial it placed (`callbar dial` while the window hears the events):
 * they wait until that record is in the call log and claims the first of them, or nobody is
 * dialling any more (a dial in flight counts while its process runs; an answered one for
 * OTHER_DIAL_WAIT_MS after its answer), OTHER_DIAL_MAX_WAIT_MS at most; then they are taken in,
 * in their order. So one call is one record, not a dial in one process and "a call to you" in
 * the other.
 *
 * The platform posts a dial's first events before it answers the dial, and the dial's answer may
 * take seconds to reach its process (a slow platform, a busy computer): the wait lasts as long
 * as the dial is in flight. (It was OTHER_DIAL_WAIT_MS from the first event, whatever the dial
 * did: a dial answered later than that was two records, the window's "call to you" holding the
 * legs and the dial's own left "dialing" with none, which `callbar hangup` could not end.)
 */
import { errorMessage } from '../errors';
import type { Logger } from '../log/logger';

/** How long after its answer another process's dial may take to reach the call log. */
export const OTHER_DIAL_WAIT_MS = 3_000;
/**
 * The longest events of unknown legs wait: a dial in flight (the platform client gives up after
 * 15 s) and then OTHER_DIAL_WAIT_MS for its record.
 */
export const OTHER_DIAL_MAX_WAIT_MS = 15_000 + OTHER_DIAL_WAIT_MS;
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
    const until = Date.now() + OTHER_DIAL_MAX_WAIT_MS;
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
