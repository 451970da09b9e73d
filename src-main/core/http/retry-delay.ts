/**
 * How long to wait before the next attempt after a failure (a relay link reconnecting, a token
 * refresh retried while offline): exponential from `initialMs`, capped at `maxMs`, with jitter (a
 * random half of each step), so the devices of a relay node that died, or every desk of an office
 * whose network came back, do not all try again in the same instant. The random source is the
 * caller's, so a test can drive it.
 */
export interface RetryDelayOptions {
  /** The first pause's upper bound (default 100 ms). */
  initialMs?: number;
  /** The longest pause (default 5 s). */
  maxMs?: number;
  /** A number in [0, 1) (default Math.random). */
  random?: () => number;
}

export class RetryDelay {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #random: () => number;
  #failures = 0;

  constructor(options: RetryDelayOptions = {}) {
    this.#initialMs = options.initialMs ?? 100;
    this.#maxMs = Math.max(options.maxMs ?? 5000, this.#initialMs);
    this.#random = options.random ?? Math.random;
  }

  /** How many failures in a row so far. */
  get failures(): number {
    return this.#failures;
  }

  /** The pause before the next attempt (between half the step and the step, at most maxMs). */
  next(): number {
    const step = Math.min(this.#maxMs, this.#initialMs * 2 ** Math.min(this.#failures, 30));
    this.#failures += 1;
    return step / 2 + this.#random() * (step / 2);
  }

  /** An attempt succeeded: the next failure starts from the first step again. */
  reset(): void {
    this.#failures = 0;
  }
}
