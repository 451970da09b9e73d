/**
 * A token bucket: up to `burst` takes at once, then `perSecond` on average. What the calls side
 * uses to take a flood of call events at a bounded rate (the excess is dropped, not queued). The
 * clock is the caller's, so a test drives it.
 */
export interface Rate {
  /** Takes allowed at once after a quiet period. */
  burst: number;
  /** Takes allowed per second on average beyond the burst. */
  perSecond: number;
}

export class TokenBucket {
  readonly #rate: Rate;
  readonly #now: () => number;
  #tokens: number;
  #at: number;

  constructor(rate: Rate, now: () => number) {
    this.#rate = rate;
    this.#now = now;
    this.#tokens = rate.burst;
    this.#at = now();
  }

  /** Takes one token if there is one; false means the caller should drop what it was given. */
  take(): boolean {
    if (!this.peek()) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Whether `count` tokens (default one) are there to take, taking none. */
  peek(count = 1): boolean {
    const now = this.#now();
    // A clock that went back refills nothing (and does not take tokens away).
    const elapsed = Math.max(0, now - this.#at);
    this.#at = now;
    this.#tokens = Math.min(
      this.#rate.burst,
      this.#tokens + (elapsed / 1000) * this.#rate.perSecond,
    );
    return this.#tokens >= count;
  }
}
