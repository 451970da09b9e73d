import { randomBytes, randomUUID } from 'node:crypto';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';
import { secretFingerprint, secretsEqual } from '../secret-compare';

/** How long a portal link stays good. */
export const ATTEMPT_LIFETIME_MS = 10 * 60 * 1000;

/** Why an attempt ended when its one-time connect link was opened a second time. */
export const OPENED_TWICE: Said = said('landing:stopped.openedTwice');
/** Its English (what tests quote). */
export const linkOpenedTwice = (): string => inEnglish(OPENED_TWICE);

/** How long the loopback link the browser is started with may wait for its one use. */
export const BROWSER_NONCE_LIFETIME_MS = 2 * 60 * 1000;

/**
 * Said whenever an activation attempt ends without connecting (timeout, cancel, the process
 * quitting, a replaced or reused link): the platform still accepts the attempt's portal link, and
 * once nothing of Callbar's listens on the receiver port, whoever binds it gets the tokens.
 */
export const ENDED_WARNING = said('errors:attempt.endedWarning');
/** The warning's English (what tests and the docs quote). */
export const endedAttemptWarning = (): string => inEnglish(ENDED_WARNING);

/**
 * The same in relay mode: nothing listens on this computer, and the relay hands the platform's
 * tokens only to the key pair of the attempt, which ended; the platform still counts the link.
 */
export const RELAY_ENDED_WARNING = said('errors:attempt.relayEndedWarning');
/** Its English. */
export const relayEndedAttemptWarning = (): string => inEnglish(RELAY_ENDED_WARNING);

/** The error codes of an attempt that ended unconnected (their message ends with the warning). */
export const ATTEMPT_ENDED_CODES: ReadonlySet<string> = new Set([
  'activation_cancelled',
  'activation_timeout',
  'activation_link_reused',
  'activation_refused',
]);

export type AttemptOutcome =
  | { kind: 'pending' }
  /** A receiver call with this key is storing the tokens right now. */
  | { kind: 'claimed' }
  | { kind: 'connected'; tenant_id: string; user_extension: string }
  | { kind: 'disconnected' }
  | { kind: 'failed'; message: string | Said };

/** One activation handshake in flight: the key in the portal link and what became of it. */
export interface ActivationAttempt {
  /** Public id, carried in the redirect_url so the landing page can tell how it went. */
  readonly id: string;
  /** The secret confirmation_key (256 bits from the CSPRNG), single-use. */
  readonly confirmationKey: string;
  readonly expiresAt: number;
  /** When set, only this identity may complete the attempt (reconnecting a known account). */
  readonly expected: { tenant_id: string; user_extension: string } | undefined;
  /**
   * The single-use secret of the loopback address the browser is started with
   * (`/connect/<nonce>`), which redirects to the portal link: a browser's command line is
   * readable by every local user, so it must not carry the confirmation key.
   */
  readonly browserNonce: string;
  /** How often `/connect/<nonce>` was requested. */
  browserOpens: number;
  outcome: AttemptOutcome;
  /**
   * The activation delivery that claimed the attempt: its fingerprint (identity, key and tokens,
   * hashed: never the tokens) and when storing it ended, either way. An identical repeat (a
   * platform retrying the call) is answered as the first was.
   */
  delivery?: { fingerprint: string; stored: Promise<void> };
}

/** The fingerprint of one activation delivery: the same for an identical repeat only. */
export function deliveryFingerprint(body: {
  tenant_id: string;
  user_extension: string;
  confirmation_key: string;
  access_token: string;
  refresh_token: string;
}): string {
  const { tenant_id, user_extension, confirmation_key, access_token, refresh_token } = body;
  return secretFingerprint(
    JSON.stringify([tenant_id, user_extension, confirmation_key, access_token, refresh_token]),
  );
}

/** What a request for `/connect/<nonce>` found. */
export type BrowserNonceUse =
  | { kind: 'first'; attempt: ActivationAttempt }
  /** Opened before, or too late: the attempt must end. */
  | { kind: 'refused'; attempt: ActivationAttempt; reason: 'again' | 'expired' }
  | { kind: 'unknown' };

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
      browserNonce: randomBytes(32).toString('base64url'),
      browserOpens: 0,
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

  /** Counts a request for `/connect/<nonce>`; only the first, in time, may go on to the portal. */
  useBrowserNonce(nonce: string): BrowserNonceUse {
    let found: ActivationAttempt | undefined;
    for (const attempt of this.#attempts.values()) {
      if (secretsEqual(nonce, attempt.browserNonce)) found = attempt;
    }
    if (!found) return { kind: 'unknown' };
    found.browserOpens += 1;
    if (found.browserOpens > 1) return { kind: 'refused', attempt: found, reason: 'again' };
    if (this.#now() > found.expiresAt - ATTEMPT_LIFETIME_MS + BROWSER_NONCE_LIFETIME_MS) {
      return { kind: 'refused', attempt: found, reason: 'expired' };
    }
    return { kind: 'first', attempt: found };
  }

  /** The attempt whose key this is, whatever became of it. */
  findByKey(confirmationKey: string): ActivationAttempt | undefined {
    let found: ActivationAttempt | undefined;
    for (const attempt of this.#attempts.values()) {
      if (secretsEqual(confirmationKey, attempt.confirmationKey)) found = attempt;
    }
    return found;
  }

  /**
   * The unexpired attempt an activation delivery with this key and `fingerprint` already claimed
   * (compared in constant time, as keys are), if this delivery is an identical repeat of it.
   */
  findRepeat(confirmationKey: string, fingerprint: string): ActivationAttempt | undefined {
    const attempt = this.findByKey(confirmationKey);
    const delivery = attempt?.delivery;
    if (!attempt || !delivery || attempt.expiresAt <= this.#now()) return undefined;
    return secretsEqual(fingerprint, delivery.fingerprint) ? attempt : undefined;
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
