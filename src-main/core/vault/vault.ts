/**
 * The vault: where the connected account (tokens and client credentials) is kept. Only the OS
 * keychain qualifies; there is no plaintext fallback. When the keychain cannot be used, every
 * operation fails with {@link VaultUnavailable}, whose message tells the user how to fix it.
 */
import { randomBytes } from 'node:crypto';
import { CallbarError } from '../errors';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';
import type { StoredAccount } from './stored-account';

/** Storage for the one account of a profile. */
export interface Vault {
  /** The stored account, or `undefined` when there is none. */
  load(): Promise<StoredAccount | undefined>;
  /** Validates and stores `account`, replacing any previous one. */
  save(account: StoredAccount): Promise<void>;
  /** Removes the stored account (nothing happens when there is none). */
  clear(): Promise<void>;
  /**
   * The profile's webhook secret (the last part of the Webhook URL the user registers, see
   * account/webhook-auth.ts): created on first use, then kept apart from the account, so
   * forgetting or replacing the session keeps the registered URL valid.
   */
  webhookSecret(): Promise<string>;
  /**
   * The relay devices the profile stopped using and the relay may still hold
   * (relay/retired-devices.ts: their credentials, so a secret), as stored; undefined when none.
   * An entry of its own, so it outlives the session it came from (a deactivation).
   */
  readRetiredDevices(): Promise<string | undefined>;
  /** Replaces that entry; undefined removes it. */
  writeRetiredDevices(text: string | undefined): Promise<void>;
}

/** A new webhook secret: 192 random bits, URL-safe (32 characters). */
export function newWebhookSecret(): string {
  return randomBytes(24).toString('base64url');
}

/** Each platform's keychain and the usual advice (`errors:vault.keychain…`, `…fix…`). */
const KEYCHAIN_ADVICE: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'Linux',
  darwin: 'Darwin',
  win32: 'Win32',
};

/**
 * The OS keychain could not be used: not installed, not reachable, locked, or not answering.
 * `reason` says what failed; it must never contain a token or a secret.
 */
export class VaultUnavailable extends CallbarError {
  /** What failed, as reported by the keychain (also part of the message). */
  readonly reason: string;

  constructor(
    reason: string | Said,
    options: {
      cause?: unknown;
      platform?: NodeJS.Platform;
      /** What the user should do, when it is not the platform's usual advice. */
      fix?: Said;
    } = {},
  ) {
    const platform = KEYCHAIN_ADVICE[options.platform ?? process.platform] ?? 'Other';
    super(
      'vault_unavailable',
      said('errors:vault.unavailable', {
        keychain: said(`errors:vault.keychain${platform}`),
        reason: typeof reason === 'string' ? reason.replace(/\.+$/, '') : reason,
        fix: options.fix ?? said(`errors:vault.fix${platform}`),
      }),
      { cause: options.cause },
    );
    this.name = 'VaultUnavailable';
    this.reason = typeof reason === 'string' ? reason : inEnglish(reason);
  }
}
