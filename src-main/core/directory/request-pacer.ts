/**
 * Keeps a burst of requests (a sync: about 90 pages for a full tenant at 100 contacts a page)
 * under the platform's rate limit instead of running into 429s. The contract does not publish the
 * limits, so the pacer allows `budget` requests per sliding `windowMs` and otherwise waits until
 * the oldest request leaves the window, the same rule the platform's throttle applies. One pacer
 * serves every sync of a process, so a sync started right after another waits its turn; a 429
 * from another process's traffic is still handled by the sync (wait for Retry-After, go on).
 */
import { systemClock, type Clock } from '../clock';

export interface PacerOptions {
  budget: number;
  windowMs: number;
  /** Whose time the window is measured in, and waited in (default: the process's real time). */
  clock?: Clock;
}

export class RequestPacer {
  readonly #budget: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  /** Start times of the requests in the window, oldest first. */
  readonly #sent: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(options: PacerOptions) {
    this.#budget = options.budget;
    this.#windowMs = options.windowMs;
    this.#clock = options.clock ?? systemClock;
  }

  /** Resolves when one more request may go out (in call order); counts it as sent. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#wait(signal));
    // The next caller waits for this one, whether it got its turn or was cancelled.
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** Requests counted in the current window. */
  get inWindow(): number {
    this.#expire();
    return this.#sent.length;
  }

  async #wait(signal?: AbortSignal): Promise<void> {
    for (;;) {
      this.#expire();
      if (this.#sent.length < this.#budget) {
        this.#sent.push(this.#clock.now());
        return;
      }
      await this.#clock.sleep(this.#sent[0]! + this.#windowMs - this.#clock.now(), signal);
    }
  }

  #expire(): void {
    const horizon = this.#clock.now() - this.#windowMs;
    while (this.#sent.length > 0 && this.#sent[0]! <= horizon) this.#sent.shift();
  }
}
