/**
 * The session's health as the TokenManager last found it (ok, offline, revoked, the keychain out
 * of reach), told to its listeners when it changes. The keychain's state is part of it: a vault
 * operation run through {@link SessionHealth.inVault} that fails makes it `vault-unavailable`
 * (with a message a person can act on), the next one that succeeds makes it `ok`.
 */
import { CallbarError } from '../errors';
import type { Logger } from '../log/logger';
import { said } from '../text/said';
import { inEnglish } from '../text/translators';
import type { TokenHealth } from './session-info';

export class SessionHealth {
  readonly #log: Logger;
  readonly #listeners = new Set<(health: TokenHealth) => void>();
  #health: TokenHealth = { kind: 'ok' };

  constructor(log: Logger) {
    this.#log = log;
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
}
