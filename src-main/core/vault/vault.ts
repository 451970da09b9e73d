/**
 * The vault: where the connected account (tokens and client credentials) is kept. Only the OS
 * keychain qualifies; there is no plaintext fallback. When the keychain cannot be used, every
 * operation fails with {@link VaultUnavailable}, whose message tells the user how to fix it.
 */
import { randomBytes } from 'node:crypto';
import { CallbarError } from '../errors';
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
}

/** A new webhook secret: 192 random bits, URL-safe (32 characters). */
export function newWebhookSecret(): string {
  return randomBytes(24).toString('base64url');
}

const KEYCHAIN_ADVICE: Partial<Record<NodeJS.Platform, { keychain: string; fix: string }>> = {
  linux: {
    keychain: 'the system keychain (Secret Service)',
    fix: 'Install and unlock GNOME Keyring or KWallet (Callbar also needs the libsecret library), then try again.',
  },
  darwin: {
    keychain: 'the macOS Keychain',
    fix: 'Unlock your login keychain in Keychain Access and allow Callbar to use it, then try again.',
  },
  win32: {
    keychain: 'Windows Credential Manager',
    fix: 'Make sure you are signed in to Windows with your own account and that Credential Manager works, then try again.',
  },
};

/**
 * The OS keychain could not be used: not installed, not reachable, locked, or not answering.
 * `reason` says what failed; it must never contain a token or a secret.
 */
export class VaultUnavailable extends CallbarError {
  /** What failed, as reported by the keychain (also part of the message). */
  readonly reason: string;

  constructor(
    reason: string,
    options: {
      cause?: unknown;
      platform?: NodeJS.Platform;
      /** What the user should do, when it is not the platform's usual advice. */
      fix?: string;
    } = {},
  ) {
    const advice = KEYCHAIN_ADVICE[options.platform ?? process.platform] ?? {
      keychain: 'the system keychain (a Secret Service such as GNOME Keyring or KWallet)',
      fix: 'Install and unlock a Secret Service provider such as GNOME Keyring or KWallet, then try again.',
    };
    super(
      'vault_unavailable',
      `Callbar keeps your sign-in in ${advice.keychain} and could not use it: ${reason.replace(/\.+$/, '')}. ${options.fix ?? advice.fix} Callbar never stores tokens in a file.`,
      { cause: options.cause },
    );
    this.name = 'VaultUnavailable';
    this.reason = reason;
  }
}
