import { RetryDelay } from '../http/retry-delay';

/**
 * The token manager's retries after a refresh that failed for the network: one timer at a time,
 * each further failure waiting longer (RetryDelay's backoff), a success starting over.
 */
export class RefreshRetry {
  readonly #delay: RetryDelay;
  #timer: NodeJS.Timeout | undefined;

  constructor(backoff: { initialMs: number; maxMs: number }) {
    this.#delay = new RetryDelay(backoff);
  }

  /** Failures since the last success. */
  get failures(): number {
    return this.#delay.failures;
  }

  /** Runs `retry` after the next delay, unless a retry is already scheduled. */
  schedule(retry: () => void): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      retry();
    }, this.#delay.next());
    this.#timer.unref();
  }

  /** Stops the scheduled retry, if any. */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A refresh succeeded (or the session changed): no retry, and the backoff starts over. */
  reset(): void {
    this.#delay.reset();
    this.stop();
  }
}
