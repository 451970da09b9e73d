/**
 * The TokenManager: the only code that reads tokens.
 *
 * - Proactive: a token within `refreshMarginMs` of expiry is refreshed before use.
 * - Single-flight: any number of concurrent callers share one POST /v3/oauth/token/.
 * - Durable: a new pair is written to the vault before anyone uses it; if the vault fails the pair
 *   is kept in memory (the old refresh token is already spent) and saved at the next chance.
 * - One refresh across processes: the refresh runs under the profile's {@link SessionLock}, and
 *   re-reads the vault first; a pair another process already refreshed is used as it is.
 * - invalid_grant ends the session, unless the vault by then holds another pair (adopted): the
 *   refused pair is wiped, a non-secret "session ended" marker is left for every other process,
 *   health becomes `revoked`, no retry.
 * - Bound to its platform: the token is handed out only for the `base_url` it was issued by, and
 *   only when that is the platform the settings name (`platformUrl`).
 * - A network failure keeps the old pair, reports `offline` and retries with backoff; while the
 *   old access token is still valid, callers keep getting it.
 * - Two clocks judge expiry (token-expiry.ts); the platform's 401 (or a DRF platform's 403
 *   saying the same: see PlatformClient) has the last word (one refresh, the request once more).
 * - Closing waits for the session write in flight (session-writes.ts): `close()` (the app's quit,
 *   the preview's stop, the CLI's end or Ctrl+C) waits at most {@link SAVE_WAIT_MS}, and no
 *   refresh starts once it was called.
 */
import { said } from '../text/said';
import { inEnglish } from '../text/translators';
import { CallbarError } from '../errors';
import type { AccessTokens } from '../api/access-tokens';
import type { Logger } from '../log/logger';
import type { StoredAccount } from '../vault/stored-account';
import type { Vault } from '../vault/vault';
import { samePlatform } from '../http/directory-url';
import { memoryEndedMarker, type SessionEndedMarker } from './session-ended-marker';
import { processOnlyLock, type SessionLock } from './session-lock';
import type { SessionInfo, TokenHealth } from './session-info';
import { RefreshRetry } from './refresh-retry';
import { SESSION_ENDED, SessionHealth } from './session-health';
import { SessionWrites } from './session-writes';
import { requestRefresh, type RefreshOutcome } from './token-endpoint';
import { TokenExpiry } from './token-expiry';
import { OutageWatch } from '../http/outage-watch';

export type { SessionInfo, TokenHealth } from './session-info';

export interface TokenManagerOptions {
  vault: Vault;
  log: Logger;
  now?: () => number;
  /** A clock that only moves forward, in milliseconds (default `performance.now`). */
  monotonicNow?: () => number;
  refreshMarginMs?: number;
  requestTimeoutMs?: number;
  backoff?: { initialMs: number; maxMs: number };
  /** Serialises refreshes with the profile's other processes (default: this process only). */
  lock?: SessionLock;
  /** Tells the profile's other processes that the session ended (default: in memory). */
  endedMarker?: SessionEndedMarker;
  /** The platform the settings name; a session issued by another one is not used. */
  platformUrl?: string;
  /** Relay mode, holding the lock: the keychain's session becomes `next` (RetiredDevices.retire). */
  retire?: (next: StoredAccount | undefined, held: StoredAccount | undefined) => Promise<void>;
}

export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

/** How long closing waits for a session write in flight before giving up (and saying so). */
export const SAVE_WAIT_MS = 10_000;

/** How often followVault waits for this process's own write or refresh before it gives up. */
const FOLLOW_ROUNDS = 4;

export class TokenManager implements AccessTokens {
  readonly #vault: Vault;
  readonly #log: Logger;
  readonly #now: () => number;
  /** When the pair in use expires, by the wall clock and a monotonic one. */
  readonly #expiry: TokenExpiry;
  readonly #timeoutMs: number;
  readonly #lock: SessionLock;
  readonly #platformUrl: string | undefined;
  readonly #retire: TokenManagerOptions['retire'];
  #account: StoredAccount | undefined;
  #unsaved = false;
  #refreshing: Promise<StoredAccount> | undefined;
  /** Retries after a refresh the network failed. */
  readonly #retry: RefreshRetry;
  readonly #health: SessionHealth;
  /** Session writes in flight (see {@link saving}); closing waits for them. */
  readonly #writes = new SessionWrites();
  #closing = false;
  /** Whether the platform answers: fed by every request to it (AccessTokens.reach). */
  readonly reach: OutageWatch;

  constructor(options: TokenManagerOptions) {
    this.#vault = options.vault;
    this.#log = options.log;
    this.#health = new SessionHealth(options.log, options.endedMarker ?? memoryEndedMarker());
    this.#now = options.now ?? Date.now;
    this.#expiry = new TokenExpiry(
      this.#now,
      options.monotonicNow ?? (() => performance.now()),
      options.refreshMarginMs ?? REFRESH_MARGIN_MS,
    );
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#retry = new RefreshRetry(options.backoff ?? { initialMs: 2_000, maxMs: 5 * 60_000 });
    this.#lock = options.lock ?? processOnlyLock;
    this.#platformUrl = options.platformUrl;
    this.#retire = options.retire;
    this.reach = new OutageWatch(this.#now);
  }

  /**
   * Reads the session from the vault (throws VaultUnavailable when the keychain is out of reach);
   * with none there, a session-ended marker makes the health `revoked`. A pair this process
   * obtained but could not store yet (the keychain failed right after a refresh) is newer than
   * the vault's, whose refresh token the platform has spent: that pair is stored instead.
   */
  async load(): Promise<void> {
    const unsaved = this.#unsaved ? this.#account : undefined;
    if (unsaved) {
      await this.#lock.hold(() => this.#persist(unsaved));
      this.#log.info('stored the session renewed while the keychain was unavailable');
      return;
    }
    const account = await this.#health.inVault(() => this.#vault.load());
    this.#account = this.#expiry.track(account);
    this.#unsaved = false;
    if (account) {
      if (this.#health.current.kind === 'revoked') this.#health.set({ kind: 'ok' });
      return;
    }
    await this.#health.fromEndedMarker();
  }

  /** Takes a freshly activated session: stored in the vault first, then used. */
  async adopt(account: StoredAccount): Promise<void> {
    this.#retry.stop();
    // Used before the write ends: once none is in flight, followVault compares the vault with it.
    await this.#writes.run(async () => {
      await this.#lock.hold(async () => {
        await this.#retire?.(account, this.#account);
        await this.#health.inVault(() => this.#vault.save(account));
      });
      this.#account = this.#expiry.track(account);
      this.#unsaved = false;
    });
    this.#retry.reset();
    this.#health.set({ kind: 'ok' });
    await this.#health.clearEndedMarker();
  }

  /** Forgets the session here and in the vault (and that it had ended). */
  async forget(): Promise<void> {
    this.#retry.stop();
    const forgotten = this.#account;
    this.#account = undefined;
    this.#unsaved = false;
    // A session write: followVault (told of this very lock) must not adopt it before it is cleared.
    await this.#writes.run(() =>
      this.#lock.hold(async () => {
        await this.#retire?.(undefined, forgotten);
        await this.#health.inVault(() => this.#vault.clear());
      }),
    );
    this.#health.set({ kind: 'ok' });
    await this.#health.clearEndedMarker();
  }

  /**
   * Another process of the profile changed the vault (it held the lock): a session it forgot
   * (`callbar deactivate-local`) or found ended is so here too; one it renewed or connected is
   * used. While this process stores or renews a pair, the vault is read once that is done (before,
   * the change was skipped until the vault changed again). True when the session here changed.
   */
  async followVault(): Promise<boolean> {
    const busy = () => this.#writes.active || !!this.#refreshing;
    const stopped = () => this.#closing || this.#unsaved;
    for (let round = 0; round < FOLLOW_ROUNDS && !stopped(); round += 1) {
      if (busy()) await Promise.allSettled([this.#writes.idle(), this.#refreshing]);
      if (busy() || stopped()) continue;
      const held = this.#account;
      const stored = await this.#vault.load().catch(() => null);
      if (stored === null || stopped()) return false;
      if (busy() || this.#account !== held) continue; // changed here meanwhile: read again
      if (stored?.refresh_token === held?.refresh_token) return false;
      this.#retry.reset();
      this.#account = this.#expiry.track(stored);
      if (!stored) await this.#health.fromEndedMarker();
      else if (this.#health.current.kind !== 'ok') this.#health.set({ kind: 'ok' });
      return true;
    }
    return false;
  }

  /** Who the session belongs to, and until when its access token is good; never the tokens. */
  get session(): SessionInfo | undefined {
    if (!this.#account) return undefined;
    const { tenant_id, user_extension, expires_at, base_url, confirmation_key_sha256 } =
      this.#account;
    return { tenant_id, user_extension, expires_at, base_url, confirmation_key_sha256 };
  }

  /** Relay mode: the device identity stored with the session (a secret: never for the log). */
  get relayDevice(): StoredAccount['relay_device'] {
    return this.#account?.relay_device;
  }

  get health(): TokenHealth {
    return this.#health.current;
  }

  /**
   * Why the session may not be used with the platform the settings name (it was issued by
   * another one), or undefined when it may.
   */
  get otherPlatform(): string | undefined {
    const account = this.#account;
    if (!account || !this.#platformUrl || samePlatform(account.base_url, this.#platformUrl)) {
      return undefined;
    }
    return inEnglish(
      said('errors:account.otherPlatform', { url: account.base_url, setting: this.#platformUrl }),
    );
  }

  onHealth(listener: (health: TokenHealth) => void): () => void {
    return this.#health.onChange(listener);
  }

  /** A valid access token, refreshed first when it is within the margin of expiry. */
  async getAccessToken(): Promise<string> {
    return (await this.#usableAccount()).access_token;
  }

  async #usableAccount(): Promise<StoredAccount> {
    const account = this.#requireAccount();
    if (this.#unsaved) await this.#persist(account);
    if (this.#expiry.fresh(account)) return account;
    return this.#refreshOnce(account);
  }

  /**
   * The platform did not take `rejected` (a 401, or an authentication failure's 403): refresh
   * once (shared with every other caller that saw the same token rejected) and return the new
   * pair. If another caller or process already replaced the token, that one is returned without
   * a second refresh.
   */
  async #refreshAfterRejection(rejected: string): Promise<StoredAccount> {
    const account = this.#requireAccount();
    if (account.access_token !== rejected) return account;
    return this.#refreshOnce(account, rejected);
  }

  /**
   * Runs `send` with a token and the base URL of the platform that issued it (the only place it
   * may go); when `isRejected` says the platform did not take the token (a 401, or what the
   * caller knows to mean the same), refreshes once and runs it once more.
   */
  async authorized<T>(
    send: (token: string, baseUrl: string) => Promise<T>,
    isRejected: (result: T) => boolean | Promise<boolean>,
  ): Promise<T> {
    const account = await this.#usableAccount();
    const first = await send(account.access_token, account.base_url);
    if (!(await isRejected(first))) return first;
    const next = await this.#refreshAfterRejection(account.access_token);
    return send(next.access_token, next.base_url);
  }

  /** Stops background retries (on shutdown). */
  dispose(): void {
    this.#retry.stop();
  }

  /**
   * True while the platform may have issued a pair the vault does not hold yet: a refresh request
   * is on its way or answered and not stored, or an activation's pair is being stored. A process
   * that ends now may end the session.
   */
  get saving(): boolean {
    return this.#writes.active;
  }

  /**
   * Shuts down without losing the session: stops retries, lets no refresh start any more, and
   * waits for the session write in flight, if any, at most `waitMs`; then gives up and logs it.
   */
  async close(waitMs = SAVE_WAIT_MS): Promise<void> {
    this.#closing = true;
    this.#retry.stop();
    await this.#writes.settled(waitMs, this.#log);
  }

  #requireAccount(): StoredAccount {
    const elsewhere = this.otherPlatform;
    if (elsewhere) throw new CallbarError('needs_activation', elsewhere);
    if (this.#account) return this.#account;
    const health = this.#health.current;
    if (health.kind === 'revoked') throw new CallbarError('needs_activation', health.message);
    throw new CallbarError('not_connected', said('errors:account.notConnected'));
  }

  /**
   * One refresh of `account` per process at a time; `rejected` is the access token the platform
   * answered 401 to (a reactive refresh), undefined for a proactive one.
   */
  #refreshOnce(account: StoredAccount, rejected?: string): Promise<StoredAccount> {
    this.#refreshing ??= this.#lock
      .hold(() => this.#refreshHoldingLock(account, rejected))
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  async #refreshHoldingLock(
    known: StoredAccount,
    rejected: string | undefined,
  ): Promise<StoredAccount> {
    // Forgotten or replaced (deactivated, re-activated) in this process while waiting.
    if (this.#account !== known) return this.#requireAccount();
    const account = await this.#reread(known);
    if (account !== known) {
      const stillGood =
        rejected === undefined ? this.#expiry.fresh(account) : account.access_token !== rejected;
      if (stillGood) return account;
    }
    if (this.#closing) {
      // Its new pair might not be stored before the process ends; the next start refreshes.
      throw new CallbarError('closing', said('errors:account.closing'));
    }
    // From here until the new pair is stored, the platform may hold a pair the vault does not.
    return this.#writes.run(async () => {
      const outcome = await requestRefresh({
        baseUrl: account.base_url,
        refreshToken: account.refresh_token,
        clientId: account.client_id,
        clientSecret: account.client_secret,
        timeoutMs: this.#timeoutMs,
        reach: this.reach,
      });
      const answeredAt = performance.now();
      const answeredMonotonic = this.#expiry.monotonicNow();
      if (this.#account !== account) {
        // Forgotten or replaced (deactivated, re-activated) while the request was in flight.
        return this.#requireAccount();
      }
      return this.#settle(account, outcome, rejected !== undefined, answeredAt, answeredMonotonic);
    });
  }

  /**
   * The session as the vault holds it now, inside the lock: another process may have refreshed
   * it (that pair is adopted), replaced it, forgotten it or found it ended.
   */
  async #reread(account: StoredAccount): Promise<StoredAccount> {
    // A pair this process could not save yet is the newest there is: save it first.
    if (this.#unsaved) {
      await this.#persist(account);
      return account;
    }
    const stored = await this.#health.inVault(() => this.#vault.load());
    if (!stored) {
      this.#account = undefined;
      this.#retry.stop();
      await this.#health.fromEndedMarker();
      return this.#requireAccount();
    }
    if (stored.refresh_token === account.refresh_token) return account;
    this.#log.info('using the session another Callbar process renewed or replaced');
    this.#account = this.#expiry.track(stored);
    this.#retry.reset();
    this.#health.set({ kind: 'ok' });
    return this.#requireAccount();
  }

  async #settle(
    account: StoredAccount,
    outcome: RefreshOutcome,
    forced: boolean,
    answeredAt: number,
    answeredMonotonic: number,
  ): Promise<StoredAccount> {
    switch (outcome.kind) {
      case 'ok': {
        const next: StoredAccount = {
          ...account,
          access_token: outcome.tokens.access_token,
          refresh_token: outcome.tokens.refresh_token,
          expires_at: this.#now() + outcome.tokens.expires_in * 1000,
        };
        this.#expiry.renewed(next, answeredMonotonic, outcome.tokens.expires_in * 1000);
        // The old refresh token is spent now: keep the new pair whatever the vault says.
        this.#account = next;
        this.#retry.reset();
        await this.#persist(next);
        // The window in which a crash loses the new pair (the old one is already spent).
        const storedAfterMs = performance.now() - answeredAt;
        this.#log.info('access token refreshed', {
          expires_at: new Date(next.expires_at).toISOString(),
          stored_after_ms: Math.round(storedAfterMs * 100) / 100,
        });
        this.#health.set({ kind: 'ok' });
        return next;
      }
      case 'invalid_grant':
        return this.#sessionRefused(account);
      case 'invalid_client':
        this.#log.error('the platform rejected the client credentials during refresh');
        throw new CallbarError('invalid_client', said('errors:account.invalidClient'));
      case 'transient': {
        const offline = said('errors:account.offline', { reason: outcome.reason });
        const message = inEnglish(offline);
        this.#log.warn('token refresh failed; will retry', {
          reason: outcome.reason,
          failures: this.#retry.failures + 1,
        });
        this.#health.set({ kind: 'offline', message });
        this.#retry.schedule(() => {
          const current = this.#account;
          if (current) this.#refreshOnce(current, current.access_token).catch(() => undefined);
        });
        // The old access token may still be good (proactive refresh): keep using it.
        if (!forced && this.#expiry.maybeValid(account)) return account;
        throw new CallbarError('offline', offline);
      }
      case 'redirected':
        // Not followed, so nothing was spent: the session stays as it is, for a platform that
        // stops redirecting (or a corrected base_url).
        this.#log.error('token refresh was redirected; not followed', { error: outcome.error });
        throw outcome.error;
      case 'unexpected':
        this.#log.error('token refresh got an unexpected answer', { reason: outcome.reason });
        throw new CallbarError(
          'refresh_failed',
          said('errors:account.refreshUnexpected', { reason: outcome.reason }),
        );
    }
  }

  /**
   * The platform refused `account`'s refresh token. If the vault holds another pair by now (a
   * process without the lock, or a new activation), that one is used; otherwise the session has
   * ended: the marker is left for the other processes first, then the refused pair (only that
   * one) is wiped.
   */
  async #sessionRefused(account: StoredAccount): Promise<StoredAccount> {
    const stored = await this.#vault.load().catch(() => undefined);
    if (stored && stored.refresh_token !== account.refresh_token) {
      this.#log.info('refresh token refused, but another process had renewed the session');
      this.#account = this.#expiry.track(stored);
      this.#health.set({ kind: 'ok' });
      return this.#requireAccount();
    }
    this.#log.warn('refresh token rejected (invalid_grant); the session needs a new activation');
    this.#account = undefined;
    this.#unsaved = false;
    this.#retry.stop();
    await this.#health.ended(account, this.#now());
    if (stored) {
      await this.#retire?.(undefined, account);
      try {
        await this.#vault.clear();
      } catch (error) {
        this.#log.warn('could not wipe the dead session from the keychain', { error });
      }
    }
    throw new CallbarError('needs_activation', SESSION_ENDED);
  }

  async #persist(account: StoredAccount): Promise<void> {
    try {
      await this.#writes.run(() => this.#health.inVault(() => this.#vault.save(account)));
      this.#unsaved = false;
    } catch (error) {
      this.#unsaved = true;
      throw error;
    }
  }
}
