import { randomBytes, randomUUID } from 'node:crypto';
import { secretsEqual } from './secret-compare';

/** How long a portal link stays good. */
export const ATTEMPT_LIFETIME_MS = 10 * 60 * 1000;

export type AttemptOutcome =
  | { kind: 'pending' }
  /** A receiver call with this key is storing the tokens right now. */
  | { kind: 'claimed' }
  | { kind: 'connected'; tenant_id: string; user_extension: string }
  | { kind: 'disconnected' }
  | { kind: 'failed'; message: string };

/** One activation handshake in flight: the key in the portal link and what became of it. */
export interface ActivationAttempt {
  /** Public id, carried in the redirect_url so the landing page can tell how it went. */
  readonly id: string;
  /** The secret confirmation_key (256 bits from the CSPRNG), single-use. */
  readonly confirmationKey: string;
  readonly expiresAt: number;
  /** When set, only this identity may complete the attempt (reconnecting a known account). */
  readonly expected: { tenant_id: string; user_extension: string } | undefined;
  outcome: AttemptOutcome;
}

/**
 * The pending attempts. A key is accepted once, only before it expires, and is compared in
 * constant time against every pending key.
 */
export class ActivationAttempts {
  readonly #attempts = new Map<string, ActivationAttempt>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  create(expected?: { tenant_id: string; user_extension: string }): ActivationAttempt {
    this.#forgetOld();
    const attempt: ActivationAttempt = {
      id: randomUUID(),
      confirmationKey: randomBytes(32).toString('base64url'),
      expiresAt: this.#now() + ATTEMPT_LIFETIME_MS,
      expected,
      outcome: { kind: 'pending' },
    };
    this.#attempts.set(attempt.id, attempt);
    return attempt;
  }

  /** The pending, unexpired attempt whose key this is (claim it before any await). */
  findPending(confirmationKey: string): ActivationAttempt | undefined {
    let found: ActivationAttempt | undefined;
    const now = this.#now();
    for (const attempt of this.#attempts.values()) {
      // Compare against every attempt so timing does not reveal which one matched.
      const matches = secretsEqual(confirmationKey, attempt.confirmationKey);
      if (matches && attempt.outcome.kind === 'pending' && attempt.expiresAt > now) {
        found = attempt;
      }
    }
    return found;
  }

  /** The attempt whose key this is, whatever became of it. */
  findByKey(confirmationKey: string): ActivationAttempt | undefined {
    let found: ActivationAttempt | undefined;
    for (const attempt of this.#attempts.values()) {
      if (secretsEqual(confirmationKey, attempt.confirmationKey)) found = attempt;
    }
    return found;
  }

  settle(attempt: ActivationAttempt, outcome: AttemptOutcome): void {
    attempt.outcome = outcome;
  }

  byId(id: string): ActivationAttempt | undefined {
    return this.#attempts.get(id);
  }

  #forgetOld(): void {
    const cutoff = this.#now() - ATTEMPT_LIFETIME_MS;
    for (const [id, attempt] of this.#attempts) {
      if (attempt.expiresAt < cutoff) this.#attempts.delete(id);
    }
  }
}
