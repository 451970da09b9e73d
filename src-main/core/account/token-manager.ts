/**
 * The TokenManager: the only code that reads tokens.
 *
 * - Proactive: a token within `refreshMarginMs` of expiry is refreshed before use.
 * - Single-flight: any number of concurrent callers share one POST /v3/oauth/token/.
 * - Durable: a new pair is written to the vault before anyone uses it; if the vault fails the pair
 *   is kept in memory (the old refresh token is already spent) and saved at the next chance.
 * - invalid_grant ends the session: the vault entry is wiped, health becomes `revoked`, no retry.
 * - A network failure keeps the old pair, reports `offline` and retries with backoff; while the
 *   old access token is still valid, callers keep getting it.
 */
import { CallbarError } from '../errors';
import type { Logger } from '../log/logger';
import type { StoredAccount } from '../vault/stored-account';
import type { Vault } from '../vault/vault';
import { requestRefresh, type RefreshOutcome } from './token-endpoint';

export type TokenHealth =
  | { kind: 'ok' }
  | { kind: 'offline'; message: string }
  | { kind: 'revoked'; message: string; identity: { tenant_id: string; user_extension: string } }
  | { kind: 'vault-unavailable'; message: string };

/** What the rest of core may know about the session: everything but the secrets. */
export type SessionInfo = Pick<
  StoredAccount,
  'tenant_id' | 'user_extension' | 'expires_at' | 'base_url' | 'confirmation_key_sha256'
>;

export interface TokenManagerOptions {
  vault: Vault;
  log: Logger;
  now?: () => number;
  refreshMarginMs?: number;
  requestTimeoutMs?: number;
  backoff?: { initialMs: number; maxMs: number };
}

export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

export class TokenManager {
  readonly #vault: Vault;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #marginMs: number;
  readonly #timeoutMs: number;
  readonly #backoff: { initialMs: number; maxMs: number };
  readonly #listeners = new Set<(health: TokenHealth) => void>();
  #account: StoredAccount | undefined;
  #unsaved = false;
  #refreshing: Promise<StoredAccount> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  #health: TokenHealth = { kind: 'ok' };

  constructor(options: TokenManagerOptions) {
    this.#vault = options.vault;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#marginMs = options.refreshMarginMs ?? REFRESH_MARGIN_MS;
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#backoff = options.backoff ?? { initialMs: 2_000, maxMs: 5 * 60_000 };
  }

  /** Reads the session from the vault (throws VaultUnavailable when the keychain is out of reach). */
  async load(): Promise<void> {
    this.#account = await this.#inVault(() => this.#vault.load());
    this.#unsaved = false;
  }

  /** Takes a freshly activated session: stored in the vault first, then used. */
  async adopt(account: StoredAccount): Promise<void> {
    this.#stopRetrying();
    await this.#inVault(() => this.#vault.save(account));
    this.#account = account;
    this.#unsaved = false;
    this.#failures = 0;
    this.#setHealth({ kind: 'ok' });
  }

  /** Forgets the session here and in the vault. */
  async forget(): Promise<void> {
    this.#stopRetrying();
    this.#account = undefined;
    this.#unsaved = false;
    await this.#inVault(() => this.#vault.clear());
    this.#setHealth({ kind: 'ok' });
  }

  /** Who the session belongs to, and until when its access token is good; never the tokens. */
  get session(): SessionInfo | undefined {
    if (!this.#account) return undefined;
    const { tenant_id, user_extension, expires_at, base_url, confirmation_key_sha256 } =
      this.#account;
    return { tenant_id, user_extension, expires_at, base_url, confirmation_key_sha256 };
  }

  get health(): TokenHealth {
    return this.#health;
  }

  onHealth(listener: (health: TokenHealth) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** A valid access token, refreshed first when it is within the margin of expiry. */
  async getAccessToken(): Promise<string> {
    const account = this.#requireAccount();
    if (this.#unsaved) await this.#persist(account);
    if (account.expires_at - this.#marginMs > this.#now()) return account.access_token;
    return (await this.#refreshOnce(account)).access_token;
  }

  /**
   * The platform answered 401 to `rejected`: refresh once (shared with every other caller that
   * saw the same token rejected) and return the new token. If another caller already replaced
   * the token, that one is returned without a second refresh.
   */
  async #refreshAfterRejection(rejected: string): Promise<string> {
    const account = this.#requireAccount();
    if (account.access_token !== rejected) return account.access_token;
    return (await this.#refreshOnce(account, true)).access_token;
  }

  /** Runs `send` with a token; on a 401 refreshes once and runs it once more. */
  async authorized<T>(
    send: (token: string) => Promise<T>,
    isRejected: (result: T) => boolean,
  ): Promise<T> {
    const token = await this.getAccessToken();
    const first = await send(token);
    if (!isRejected(first)) return first;
    return send(await this.#refreshAfterRejection(token));
  }

  /** Stops background retries (on shutdown). */
  dispose(): void {
    this.#stopRetrying();
  }

  #requireAccount(): StoredAccount {
    if (this.#account) return this.#account;
    if (this.#health.kind === 'revoked') {
      throw new CallbarError('needs_activation', this.#health.message);
    }
    throw new CallbarError(
      'not_connected',
      'Callbar is not connected to your phone account yet. Connect it first.',
    );
  }

  #refreshOnce(account: StoredAccount, forced = false): Promise<StoredAccount> {
    this.#refreshing ??= this.#refresh(account, forced).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refresh(account: StoredAccount, forced: boolean): Promise<StoredAccount> {
    const outcome = await requestRefresh({
      baseUrl: account.base_url,
      refreshToken: account.refresh_token,
      clientId: account.client_id,
      clientSecret: account.client_secret,
      timeoutMs: this.#timeoutMs,
    });
    if (this.#account !== account) {
      // Forgotten or replaced (deactivated, re-activated) while the request was in flight.
      return this.#requireAccount();
    }
    return this.#settle(account, outcome, forced);
  }

  async #settle(
    account: StoredAccount,
    outcome: RefreshOutcome,
    forced: boolean,
  ): Promise<StoredAccount> {
    switch (outcome.kind) {
      case 'ok': {
        const next: StoredAccount = {
          ...account,
          access_token: outcome.tokens.access_token,
          refresh_token: outcome.tokens.refresh_token,
          expires_at: this.#now() + outcome.tokens.expires_in * 1000,
        };
        // The old refresh token is spent now: keep the new pair whatever the vault says.
        this.#account = next;
        this.#failures = 0;
        this.#stopRetrying();
        await this.#persist(next);
        this.#log.info('access token refreshed', {
          expires_at: new Date(next.expires_at).toISOString(),
        });
        this.#setHealth({ kind: 'ok' });
        return next;
      }
      case 'invalid_grant': {
        const message =
          'Your Callbar session has ended: the platform no longer accepts it (it was revoked or used elsewhere). Connect Callbar again to continue.';
        this.#log.warn(
          'refresh token rejected (invalid_grant); the session needs a new activation',
        );
        this.#account = undefined;
        this.#unsaved = false;
        this.#stopRetrying();
        this.#setHealth({
          kind: 'revoked',
          message,
          identity: { tenant_id: account.tenant_id, user_extension: account.user_extension },
        });
        try {
          await this.#vault.clear();
        } catch (error) {
          this.#log.warn('could not wipe the dead session from the keychain', { error });
        }
        throw new CallbarError('needs_activation', message);
      }
      case 'invalid_client':
        this.#log.error('the platform rejected the client credentials during refresh');
        throw new CallbarError(
          'invalid_client',
          "The platform rejected Callbar's client credentials (client_id / client_secret). Check CALLBAR_CLIENT_ID and CALLBAR_CLIENT_SECRET, then connect again.",
        );
      case 'transient': {
        const message = `Callbar cannot reach the platform right now (${outcome.reason}). It keeps trying in the background.`;
        this.#log.warn('token refresh failed; will retry', {
          reason: outcome.reason,
          failures: this.#failures + 1,
        });
        this.#setHealth({ kind: 'offline', message });
        this.#scheduleRetry();
        // The old access token may still be good (proactive refresh): keep using it.
        if (!forced && account.expires_at > this.#now()) return account;
        throw new CallbarError('offline', message);
      }
      case 'unexpected':
        this.#log.error('token refresh got an unexpected answer', { reason: outcome.reason });
        throw new CallbarError(
          'refresh_failed',
          `The platform's token endpoint answered unexpectedly: ${outcome.reason}.`,
        );
    }
  }

  async #persist(account: StoredAccount): Promise<void> {
    try {
      await this.#inVault(() => this.#vault.save(account));
      this.#unsaved = false;
    } catch (error) {
      this.#unsaved = true;
      throw error;
    }
  }

  /**
   * Runs a vault operation. The keychain's state is part of the health: a failure makes it
   * `vault-unavailable` (with a message a person can act on), the next success makes it `ok`.
   */
  async #inVault<T>(operation: () => Promise<T>): Promise<T> {
    try {
      const result = await operation();
      if (this.#health.kind === 'vault-unavailable') this.#setHealth({ kind: 'ok' });
      return result;
    } catch (error) {
      let message: string;
      if (error instanceof CallbarError) message = error.message;
      else {
        this.#log.error('unexpected keychain failure', { error });
        message = 'The system keychain failed unexpectedly.';
      }
      this.#setHealth({ kind: 'vault-unavailable', message });
      throw error;
    }
  }

  #scheduleRetry(): void {
    if (this.#retryTimer) return;
    this.#failures += 1;
    const base = Math.min(this.#backoff.maxMs, this.#backoff.initialMs * 2 ** (this.#failures - 1));
    const delay = base / 2 + Math.random() * (base / 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      const account = this.#account;
      if (!account) return;
      this.#refreshOnce(account, true).catch(() => undefined);
    }, delay);
    this.#retryTimer.unref();
  }

  #stopRetrying(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }

  #setHealth(health: TokenHealth): void {
    const changed = JSON.stringify(health) !== JSON.stringify(this.#health);
    this.#health = health;
    if (changed) for (const listener of this.#listeners) listener(health);
  }
}
