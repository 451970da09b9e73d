/**
 * When a session's access token expires, by two clocks: the wall clock (`expires_at`, which
 * survives restarts) and, within a process, a monotonic one started when the pair was obtained
 * or read (which the machine's clock being set forward or back does not move). A refresh is due
 * when either says so; after a failed refresh the old token is used while either says it is
 * valid.
 */
import type { StoredAccount } from '../vault/stored-account';

export class TokenExpiry {
  readonly #now: () => number;
  readonly #monotonicNow: () => number;
  readonly #marginMs: number;
  /** When each pair in use expires on the monotonic clock. */
  readonly #monotonicExpiry = new WeakMap<StoredAccount, number>();

  constructor(now: () => number, monotonicNow: () => number, marginMs: number) {
    this.#now = now;
    this.#monotonicNow = monotonicNow;
    this.#marginMs = marginMs;
  }

  /** Good for at least the margin by both clocks (a proactive refresh is due otherwise). */
  fresh(account: StoredAccount): boolean {
    return (
      account.expires_at - this.#marginMs > this.#now() &&
      this.#expiresMonotonic(account) - this.#marginMs > this.#monotonicNow()
    );
  }

  /** Not expired by at least one of the clocks (the platform may still take it). */
  maybeValid(account: StoredAccount): boolean {
    return (
      account.expires_at > this.#now() || this.#expiresMonotonic(account) > this.#monotonicNow()
    );
  }

  /**
   * Starts `account`'s monotonic expiry when this process takes it from the vault or an
   * activation: what is left of it by the wall clock now, counted from here on by real time.
   */
  track<T extends StoredAccount | undefined>(account: T): T {
    if (account && !this.#monotonicExpiry.has(account)) {
      this.#monotonicExpiry.set(account, this.#monotonicNow() + (account.expires_at - this.#now()));
    }
    return account;
  }

  /** A refreshed pair, answered at `answeredMonotonic`, good for `expiresInMs` from then. */
  renewed(account: StoredAccount, answeredMonotonic: number, expiresInMs: number): void {
    this.#monotonicExpiry.set(account, answeredMonotonic + expiresInMs);
  }

  /** The monotonic clock now. */
  monotonicNow(): number {
    return this.#monotonicNow();
  }

  /** When `account` expires on the monotonic clock (known from the refresh that obtained it). */
  #expiresMonotonic(account: StoredAccount): number {
    this.track(account);
    return this.#monotonicExpiry.get(account) ?? Number.POSITIVE_INFINITY;
  }
}
