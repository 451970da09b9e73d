import { RateLimitedError } from './api-errors';

/** A read waits for the platform's Retry-After up to this long; beyond it, it fails at once. */
const MAX_WAIT_MS = 60_000;

/**
 * A command waits out a remainder this short instead of being refused: a caller that slept the
 * Retry-After itself (an import) wakes on a timer Node counts in whole milliseconds, up to one
 * before the gate's deadline by `performance.now()` (6 of 300 20-ms timers here), and was refused
 * and counted a 429 that was never sent.
 */
export const COMMAND_GRACE_MS = 250;

/** The contract's rate-limit scopes. */
export type RateScope = 'phonebook' | 'call-control';

/**
 * Remembers, per scope, until when the platform asked us to wait (429 + Retry-After). Reads wait
 * their turn (up to a bound); commands are refused at once instead of being sent into a 429.
 */
export class RateLimitGate {
  /**
   * Until when, on a clock that only moves forward (a Retry-After is a duration): a machine clock
   * set back after a 429 would otherwise refuse every dial for as long as it was set back.
   */
  readonly #blockedUntil = new Map<RateScope, number>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  block(scope: RateScope, retryAfterMs: number): void {
    const until = this.#now() + retryAfterMs;
    this.#blockedUntil.set(scope, Math.max(until, this.#blockedUntil.get(scope) ?? 0));
  }

  /**
   * Resolves when a request in `scope` may go out; throws RateLimitedError if it may not wait
   * (a command, past COMMAND_GRACE_MS).
   */
  async pass(scope: RateScope, endpoint: string, mayWait: boolean): Promise<void> {
    const remaining = (this.#blockedUntil.get(scope) ?? 0) - this.#now();
    if (remaining <= 0) return;
    if (remaining > (mayWait ? MAX_WAIT_MS : COMMAND_GRACE_MS)) {
      throw new RateLimitedError(undefined, endpoint, remaining);
    }
    await new Promise((resolve) => setTimeout(resolve, remaining));
  }
}

/** A scope's limit as the platform announces it: `limit` requests per `windowMs`. */
export interface RatePolicy {
  limit: number;
  windowMs: number;
}

/**
 * The first policy of a `RateLimit-Policy` header (the IETF RateLimit fields draft): `10;w=60`
 * or `"default";q=10;w=60`; undefined when absent or not understood.
 */
export function parseRatePolicy(header: string | null): RatePolicy | undefined {
  const first = header?.split(',')[0];
  if (!first) return undefined;
  let limit: number | undefined;
  let windowSeconds: number | undefined;
  for (const [index, part] of first.split(';').entries()) {
    const [name, value] = part.trim().split('=') as [string, string | undefined];
    if (index === 0 && value === undefined && /^\d+$/.test(name)) limit = Number(name);
    else if (name === 'q' && value && /^\d+$/.test(value)) limit = Number(value);
    else if (name === 'w' && value && /^\d+$/.test(value)) windowSeconds = Number(value);
  }
  if (!limit || !windowSeconds) return undefined;
  return { limit, windowMs: windowSeconds * 1000 };
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; a missing header means 1 s. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}
