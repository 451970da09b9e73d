/**
 * The session's health as the TokenManager last found it (ok, offline, revoked, the keychain out
 * of reach), told to its listeners when it changes. The keychain's state is part of it: a vault
 * operation run through {@link SessionHealth.inVault} that fails makes it `vault-unavailable`
 * (with a message a person can act on), the next one that succeeds makes it `ok`. A session the
 * platform ended is `revoked` in every process of the profile: the ended marker
 * (session-ended-marker.ts) says so until the user connects again or forgets the session.
 */
import { CallbarError } from '../errors';
import type { Logger } from '../log/logger';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';
import type { StoredAccount } from '../vault/stored-account';
import type { SessionEndedMarker } from './session-ended-marker';
import type { TokenHealth } from './session-info';

export const SESSION_ENDED = said('errors:account.sessionEnded');
export const sessionEndedMessage = (): string => inEnglish(SESSION_ENDED);

export class SessionHealth {
  readonly #log: Logger;
  readonly #marker: SessionEndedMarker;
  readonly #listeners = new Set<(health: TokenHealth) => void>();
  #health: TokenHealth = { kind: 'ok' };

  constructor(log: Logger, marker: SessionEndedMarker) {
    this.#log = log;
    this.#marker = marker;
  }

  get current(): TokenHealth {
    return this.#health;
  }

  onChange(listener: (health: TokenHealth) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  set(health: TokenHealth): void {
    const changed = JSON.stringify(health) !== JSON.stringify(this.#health);
    this.#health = health;
    if (changed) for (const listener of this.#listeners) listener(health);
  }

  /** Runs a vault operation, its outcome the keychain's part of the health. */
  async inVault<T>(operation: () => Promise<T>): Promise<T> {
    try {
      const result = await operation();
      if (this.#health.kind === 'vault-unavailable') this.set({ kind: 'ok' });
      return result;
    } catch (error) {
      let message: string;
      if (error instanceof CallbarError) message = error.message;
      else {
        this.#log.error('unexpected keychain failure', { error });
        message = inEnglish(said('errors:account.keychainUnexpected'));
      }
      this.set({ kind: 'vault-unavailable', message });
      throw error;
    }
  }

  /** The platform ended `account`'s session (at `now`): `revoked` here, and the marker left. */
  async ended(account: StoredAccount, now: number): Promise<void> {
    const identity = { tenant_id: account.tenant_id, user_extension: account.user_extension };
    this.set({ kind: 'revoked', message: sessionEndedMessage(), identity });
    try {
      await this.#marker.write({
        ...identity,
        base_url: account.base_url,
        ended_at: new Date(now).toISOString(),
      });
    } catch (error) {
      this.#log.warn('could not leave the session-ended marker', { error });
    }
  }

  /** With no session in the vault: the marker says it ended (`revoked`), else nothing. */
  async fromEndedMarker(): Promise<void> {
    const ended = await this.#marker.read();
    if (ended) {
      const identity = { tenant_id: ended.tenant_id, user_extension: ended.user_extension };
      this.set({ kind: 'revoked', message: sessionEndedMessage(), identity });
    } else if (this.#health.kind === 'revoked') {
      this.set({ kind: 'ok' });
    }
  }

  /** A session connected or forgotten: the marker goes (a failure is logged). */
  async clearEndedMarker(): Promise<void> {
    await this.#marker.clear().catch((error: unknown) => {
      this.#log.warn('could not remove the session-ended marker', { error });
    });
  }
}
