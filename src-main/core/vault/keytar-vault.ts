/**
 * The vault in the OS keychain through keytar: macOS Keychain, Windows Credential Manager, or a
 * Secret Service (GNOME Keyring, KWallet) over D-Bus on Linux.
 *
 * - One entry per profile: service "Callbar", account `profile-<16 hex of sha256(data dir)>`, so
 *   two data dirs never share a session. The value is the StoredAccount as JSON. The profile's
 *   webhook secret has an entry of its own next to it (`profile-<…>-webhook`), and so have the
 *   relay devices it stopped using until the relay removed them (`profile-<…>-relay-retired`).
 * - Every keytar failure, including failing to load the native module, is a VaultUnavailable.
 * - Every call has a deadline: a locked keyring can wait forever for a password prompt. A call
 *   that missed its deadline still occupies one of libuv's four thread-pool threads (the file
 *   system and crypto use the same pool), so while one is stuck no new keychain call is started;
 *   they fail at once instead.
 * - `save` reads the entry back and compares: cheap insurance that the write landed.
 * - On Linux, "no entry" from a read or a delete is confirmed by a throw-away write, because
 *   libsecret reports a locked keyring as empty (see `#checkUnlocked`).
 * - Nothing is ever written to disk by this module.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type * as KeytarModule from 'keytar';
import { errorMessage } from '../errors';
import { said } from '../text/said';
import { parseStoredAccount, serializeAccount, type StoredAccount } from './stored-account';
import { newWebhookSecret, VaultUnavailable, type Vault } from './vault';

type Keytar = Pick<typeof KeytarModule, 'getPassword' | 'setPassword' | 'deletePassword'>;

/** The keychain service name of every Callbar entry. */
export const KEYCHAIN_SERVICE = 'Callbar';

/** How long a keychain call may take before it counts as unavailable. */
export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 5_000;

/** Options of {@link KeytarVault} and {@link openVault}. */
export interface KeytarVaultOptions {
  /** The profile's data dir; the keychain entry is keyed by its absolute path. */
  dataDir: string;
  /** Deadline of each keychain call, in milliseconds (default 5 s). */
  timeoutMs?: number;
}

/** The keychain account name of the profile in `dataDir`. */
export function keychainAccountName(dataDir: string): string {
  const digest = createHash('sha256').update(resolve(dataDir)).digest('hex');
  return `profile-${digest.slice(0, 16)}`;
}

let keytarLoading: Promise<Keytar> | undefined;

/** keytar, loaded on first use so a missing native library is a VaultUnavailable, not a crash. */
function loadKeytar(): Promise<Keytar> {
  // keytar is CommonJS: Node's ESM loader puts module.exports on `default`; a bundler's interop
  // may hand over module.exports itself.
  keytarLoading ??= import('keytar').then(
    (module) => (module as { default?: Keytar }).default ?? module,
  );
  return keytarLoading;
}

/** keytar talks to a Secret Service through libsecret everywhere but on macOS and Windows. */
const USES_SECRET_SERVICE = process.platform !== 'darwin' && process.platform !== 'win32';

/** Keychain calls that missed their deadline and have not settled yet (process-wide). */
let stuckCalls = 0;

/** A {@link Vault} in the OS keychain. */
export class KeytarVault implements Vault {
  /** The keychain account name of this profile's entry. */
  readonly accountName: string;
  readonly #timeoutMs: number;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: KeytarVaultOptions) {
    this.accountName = keychainAccountName(options.dataDir);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
  }

  load(): Promise<StoredAccount | undefined> {
    return this.#oneAtATime(async () => {
      const text = await this.#call('reading the sign-in', (keytar) =>
        keytar.getPassword(KEYCHAIN_SERVICE, this.accountName),
      );
      if (text !== null) return parseStoredAccount(text);
      await this.#checkUnlocked('reading the sign-in');
      return undefined;
    });
  }

  async save(account: StoredAccount): Promise<void> {
    // Validated before queueing: a bad account never reaches the keychain.
    const text = serializeAccount(account);
    return this.#oneAtATime(async () => {
      await this.#call('storing the sign-in', (keytar) =>
        keytar.setPassword(KEYCHAIN_SERVICE, this.accountName, text),
      );
      const stored = await this.#call('checking the stored sign-in', (keytar) =>
        keytar.getPassword(KEYCHAIN_SERVICE, this.accountName),
      );
      if (stored !== text) {
        throw new VaultUnavailable(said('errors:vault.readBack'));
      }
    });
  }

  clear(): Promise<void> {
    return this.#oneAtATime(async () => {
      const deleted = await this.#call('removing the sign-in', (keytar) =>
        keytar.deletePassword(KEYCHAIN_SERVICE, this.accountName),
      );
      if (!deleted) await this.#checkUnlocked('removing the sign-in');
    });
  }

  /**
   * The webhook secret, in an entry of its own (`<account>-webhook`), created on first use. A
   * locked keyring that reads as empty refuses the write, so no second secret replaces the one
   * the user registered. When two processes create it at once, both use the one read back.
   */
  webhookSecret(): Promise<string> {
    const name = `${this.accountName}-webhook`;
    return this.#oneAtATime(async () => {
      const stored = await this.#call('reading the webhook secret', (keytar) =>
        keytar.getPassword(KEYCHAIN_SERVICE, name),
      );
      if (stored) return stored;
      const created = newWebhookSecret();
      await this.#call('storing the webhook secret', (keytar) =>
        keytar.setPassword(KEYCHAIN_SERVICE, name, created),
      );
      const kept = await this.#call('checking the stored webhook secret', (keytar) =>
        keytar.getPassword(KEYCHAIN_SERVICE, name),
      );
      if (!kept) throw new VaultUnavailable(said('errors:vault.noSecret'));
      return kept;
    });
  }

  readRetiredDevices(): Promise<string | undefined> {
    const name = `${this.accountName}-relay-retired`;
    return this.#oneAtATime(async () => {
      const text = await this.#call('reading the relay devices to remove', (keytar) =>
        keytar.getPassword(KEYCHAIN_SERVICE, name),
      );
      return text ?? undefined;
    });
  }

  writeRetiredDevices(text: string | undefined): Promise<void> {
    const name = `${this.accountName}-relay-retired`;
    return this.#oneAtATime(async () => {
      await this.#call('storing the relay devices to remove', async (keytar) => {
        if (text === undefined) await keytar.deletePassword(KEYCHAIN_SERVICE, name);
        else await keytar.setPassword(KEYCHAIN_SERVICE, name, text);
      });
    });
  }

  /**
   * With libsecret, a locked keyring whose unlock prompt fails or is dismissed answers "no such
   * entry" rather than an error, so "nothing stored" is only believed once a throw-away entry
   * could be written (and removed) next to ours: a locked keyring refuses that write.
   */
  async #checkUnlocked(doing: string): Promise<void> {
    if (!USES_SECRET_SERVICE) return;
    const checkName = `${this.accountName}-check`;
    try {
      await this.#call(doing, (keytar) =>
        keytar.setPassword(KEYCHAIN_SERVICE, checkName, 'Callbar checks that the keychain is open'),
      );
    } finally {
      await this.#call(doing, (keytar) => keytar.deletePassword(KEYCHAIN_SERVICE, checkName)).catch(
        () => undefined,
      );
    }
  }

  /** Runs the vault's operations one after another, so a save's read-back sees its own write. */
  #oneAtATime<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** One keytar call with a deadline; every failure becomes a VaultUnavailable. */
  async #call<T>(doing: string, operation: (keytar: Keytar) => Promise<T>): Promise<T> {
    if (stuckCalls > 0) {
      throw new VaultUnavailable(said('errors:vault.busy'));
    }
    let keytar: Keytar;
    try {
      keytar = await loadKeytar();
    } catch (error) {
      throw new VaultUnavailable(said('errors:vault.library', { detail: describe(error) }), {
        cause: error,
      });
    }
    let pending: Promise<T>;
    try {
      pending = operation(keytar);
    } catch (error) {
      throw new VaultUnavailable(describe(error), { cause: error });
    }
    return new Promise<T>((resolvePromise, rejectPromise) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        stuckCalls += 1;
        rejectPromise(
          new VaultUnavailable(
            `it did not answer within ${formatSeconds(this.#timeoutMs)} while ${doing} (it may be locked and waiting for a password prompt)`,
          ),
        );
      }, this.#timeoutMs);
      const settle = () => {
        if (late) stuckCalls -= 1;
        clearTimeout(timer);
      };
      pending.then(
        (value) => {
          settle();
          if (!late) resolvePromise(value);
        },
        (error: unknown) => {
          settle();
          if (!late) rejectPromise(keychainFailure(error));
        },
      );
    });
  }
}

/** The vault of the profile in `dataDir`: its entry in the OS keychain. */
export function openVault(options: KeytarVaultOptions): KeytarVault {
  return new KeytarVault(options);
}

/**
 * libsecret keeps its connection to the Secret Service for the life of the process, addressed to
 * the daemon that answered first: once that daemon is gone (restarted, killed, the session's
 * keyring replaced), every call fails with "The name :1.23 was not provided by any .service files"
 * although a new daemon serves the keychain. keytar cannot reconnect; a new process can.
 */
const VANISHED_SERVICE = /The name :[0-9.]+ was not provided by any \.service files/;

/** What keytar threw, as the VaultUnavailable the vault reports, with advice that fits it. */
export function keychainFailure(error: unknown): VaultUnavailable {
  if (USES_SECRET_SERVICE && VANISHED_SERVICE.test(errorMessage(error))) {
    return new VaultUnavailable(said('errors:vault.restarted'), {
      cause: error,
      fix: said('errors:vault.fixRestarted'),
    });
  }
  if (USES_SECRET_SERVICE && /locked collection/i.test(errorMessage(error))) {
    return new VaultUnavailable(said('errors:vault.locked', { detail: describe(error) }), {
      cause: error,
      fix: said('errors:vault.fixLocked'),
    });
  }
  return new VaultUnavailable(describe(error), { cause: error });
}

/** keytar's (or the loader's) message; these name what failed and never carry the stored value. */
function describe(error: unknown): string {
  const message = errorMessage(error);
  return message.length > 300 ? `${message.slice(0, 297)}…` : message;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
