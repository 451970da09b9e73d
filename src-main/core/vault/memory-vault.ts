/**
 * An in-memory vault, for unit tests only (the app always uses the OS keychain). It validates like
 * the keychain vault: `save` refuses an invalid account, `load` of a bad entry is `vault_corrupt`.
 * Set `unavailable` to make every operation fail as if the keychain were out of reach.
 */
import { parseStoredAccount, serializeAccount, type StoredAccount } from './stored-account';
import { newWebhookSecret, VaultUnavailable, type Vault } from './vault';

/** Options of {@link MemoryVault}. */
export interface MemoryVaultOptions {
  /** An account already stored. */
  account?: StoredAccount;
  /** Start unavailable (`true`, or the reason to report). */
  unavailable?: boolean | string;
}

/** A {@link Vault} in memory (tests only). */
export class MemoryVault implements Vault {
  /** When set, every operation fails with VaultUnavailable (`true`, or the reason to report). */
  unavailable: boolean | string;
  #entry: string | undefined;
  #webhookSecret: string | undefined;
  #retiredDevices: string | undefined;

  constructor(options: MemoryVaultOptions = {}) {
    this.unavailable = options.unavailable ?? false;
    this.#entry = options.account === undefined ? undefined : serializeAccount(options.account);
  }

  load(): Promise<StoredAccount | undefined> {
    return this.#run(() =>
      this.#entry === undefined ? undefined : parseStoredAccount(this.#entry),
    );
  }

  save(account: StoredAccount): Promise<void> {
    return this.#run(() => {
      this.#entry = serializeAccount(account);
    });
  }

  clear(): Promise<void> {
    return this.#run(() => {
      this.#entry = undefined;
    });
  }

  webhookSecret(): Promise<string> {
    return this.#run(() => (this.#webhookSecret ??= newWebhookSecret()));
  }

  readRetiredDevices(): Promise<string | undefined> {
    return this.#run(() => this.#retiredDevices);
  }

  writeRetiredDevices(text: string | undefined): Promise<void> {
    return this.#run(() => {
      this.#retiredDevices = text;
    });
  }

  /** Replaces the stored entry with raw text, e.g. to test how a corrupt entry is handled. */
  putRawEntry(text: string): void {
    this.#entry = text;
  }

  async #run<T>(operation: () => T): Promise<T> {
    await Promise.resolve();
    this.#checkAvailable();
    return operation();
  }

  #checkAvailable(): void {
    if (this.unavailable === false) return;
    const reason =
      typeof this.unavailable === 'string' ? this.unavailable : 'the test made it unavailable';
    throw new VaultUnavailable(reason);
  }
}
