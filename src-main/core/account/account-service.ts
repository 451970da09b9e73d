/**
 * The user's session with the platform, put together: the token manager, activation through the
 * portal and the platform's handshake calls (activation.ts), the loopback receiver
 * (loopback-listening.ts) or the relay (relayed-session.ts), the record of the account connected
 * before, and the observable account state the rest of the app shows (account-status.ts).
 */
import type { AccountStatus, ReceiverRegistration } from '../../../src-shared/contract';
import { relayUrls } from '../config/relay-urls';
import { memoryStateFile, type StateFile } from '../config/state-file';
import type { Logger } from '../log/logger';
import { RelayLink, type RelayCursor } from '../relay/relay-link';
import { said, type Said } from '../text/said';
import type { StoredAccount } from '../vault/stored-account';
import type { Vault } from '../vault/vault';
import {
  afterConnection,
  ownAccount,
  sameHistory,
  type AccountHistory,
  type AccountHistoryStore,
  type AccountOwner,
} from './account-history';
import { accountStatus } from './account-status';
import { Activation, vaultMessage, type ActivationStart } from './activation';
import type { BodySignature } from './body-signature';
import { LoopbackListening } from './loopback-listening';
import type { ReceiverHandlers, RunningReceiver, WebhookEvent } from './receiver';
import { RelayedSession } from './relayed-session';
import { RetiredDevices } from './retired-devices';
import type { SessionEndedMarker } from './session-ended-marker';
import { processOnlyLock, type SessionLock } from './session-lock';
import { TokenManager } from './token-manager';

// Said by the parts (activation.ts, account-status.ts); their callers import them from here.
export type { ActivationStart } from './activation';
export {
  ATTEMPT_ENDED_CODES,
  endedAttemptWarning,
  relayEndedAttemptWarning,
} from './activation-attempts';
export { refusalHint, RELAY_REVOKED, relayRevokedMessage } from './account-status';

export interface AccountSettings {
  base_url: string;
  portal_url: string;
  slug: string;
  receiver_port: number;
  client_id?: string | undefined;
  /** Call events without the webhook secret (or headers) are accepted too: off by default. */
  accept_unauthenticated_events?: boolean | undefined;
  /** Relay mode when not empty: the relay's address(es) (see core/relay/relay-link.ts). */
  relay_url?: string | undefined;
}

export interface AccountServiceOptions {
  settings: AccountSettings;
  /** The integrator's client secret (from the environment); stored in the vault at activation. */
  clientSecret?: string | undefined;
  /** Headers the platform is configured to send with its calls to the receiver. */
  receiverHeaders?: Record<string, string>;
  /** The HMAC signature the platform puts on each call's body (see body-signature.ts). */
  receiverSignature?: BodySignature | undefined;
  vault: Vault;
  log: Logger;
  now?: () => number;
  /** Token manager tuning (tests shorten the backoff). */
  tokenOptions?: { refreshMarginMs?: number; backoff?: { initialMs: number; maxMs: number } };
  /** Shared with the profile's other processes (see profile.ts); this process only by default. */
  coordination?: { lock: SessionLock; endedMarker: SessionEndedMarker };
  /** The profile's record of the account it was connected to (this process only by default). */
  history?: AccountHistoryStore;
  /** Relay mode: where the profile's relay stream stopped (this process only by default). */
  relayCursor?: StateFile<RelayCursor>;
  /** Relay mode: how long `listen()` waits at most for the relay's backlog (default 5 s). */
  relayCatchUpMs?: number;
}

export class AccountService {
  readonly tokens: TokenManager;
  readonly #options: AccountServiceOptions;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #statusListeners = new Set<(status: AccountStatus) => void>();
  readonly #eventListeners = new Set<(event: WebhookEvent) => void>();
  readonly #lostListeners = new Set<() => void>();
  /** The loopback receiver and the webhook secret (its Webhook URL's). */
  readonly #loopback: LoopbackListening;
  #status: AccountStatus = { state: 'not-connected' };
  /** Whether start() read the session: until then `#status` is a placeholder, not the account's. */
  #started = false;
  readonly #historyStore: AccountHistoryStore;
  /** The record of the connected account, as last read or written. */
  #history: AccountHistory | undefined;
  /** Activation attempts and the platform's handshake calls. */
  readonly #activation: Activation;
  /** Relay mode: the session through the organisation's relay (nothing listens here). */
  readonly #relay: RelayedSession | undefined;
  #closing = false;

  constructor(options: AccountServiceOptions) {
    this.#options = options;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#historyStore = options.history ?? memoryStateFile();
    const urls = relayUrls(options.settings.relay_url ?? '');
    const relayCursor = options.relayCursor ?? memoryStateFile<RelayCursor>();
    const retired =
      urls.length > 0
        ? new RetiredDevices({
            vault: options.vault,
            lock: options.coordination?.lock ?? processOnlyLock,
            log: options.log,
            urls,
            now: this.#now,
            cursor: relayCursor,
          })
        : undefined;
    this.tokens = new TokenManager({
      vault: options.vault,
      log: options.log,
      now: this.#now,
      platformUrl: options.settings.base_url,
      ...options.coordination,
      ...options.tokenOptions,
      ...(retired ? { retire: (next, held) => retired.retire(next, held) } : {}),
    });
    this.tokens.onHealth(() => this.#publish());
    this.tokens.reach.onChange(() => this.#publish());
    this.#loopback = new LoopbackListening({
      port: options.settings.receiver_port,
      headers: options.receiverHeaders,
      signature: options.receiverSignature,
      acceptUnauthenticated: options.settings.accept_unauthenticated_events ?? false,
      vault: options.vault,
      log: options.log,
      handlers: this.receiverHandlers,
      publish: () => this.#publish(),
    });
    const link =
      urls.length > 0 ? new RelayLink({ urls, log: options.log, cursor: relayCursor }) : undefined;
    this.#relay =
      link && retired
        ? new RelayedSession(link, {
            tokens: this.tokens,
            log: options.log,
            retired,
            catchUpMs: options.relayCatchUpMs,
            event: ({ event }) => {
              for (const listener of this.#eventListeners) listener(event);
            },
            eventsLost: () => {
              for (const listener of this.#lostListeners) listener();
            },
            deactivate: (body) => this.#activation.deactivateRelayed(body),
            activate: (body, relayed) => this.#activation.activate(body, relayed),
            cancelActivation: (reason, code) => this.#activation.cancel(reason, code),
            publish: () => this.#publish(),
            closing: () => this.#closing,
          })
        : undefined;
    this.#activation = new Activation({
      settings: options.settings,
      clientSecret: options.clientSecret,
      tokens: this.tokens,
      log: options.log,
      now: this.#now,
      relay: this.#relay,
      listen: () => this.listen(),
      publish: () => this.#publish(),
      accountBefore: () => this.#history ?? this.#knownAccount(),
      connected: (before, account) =>
        this.#remember(afterConnection(before, this.#connectedAccount(account))),
    });
  }

  /** Restores the session from the keychain. Never throws: a keychain problem is a state. */
  async start(): Promise<AccountStatus> {
    this.#started = true;
    try {
      await this.tokens.load();
    } catch {
      this.#log.warn('the keychain is unavailable; the session cannot be restored', {
        reason: vaultMessage(this.tokens),
      });
    }
    this.#history = await this.#historyStore.read();
    // Asked again (the window's "Try again"): a keychain that works now gives the secret.
    await this.#loopback.retryWebhookSecret();
    const session = this.tokens.session;
    // A session from before the record existed: it is the account to compare the next one with.
    if (session && !this.#history) {
      await this.#remember(afterConnection(undefined, this.#connectedAccount(session)));
    }
    return this.#publish();
  }

  status(): AccountStatus {
    return this.#status;
  }

  /** Whether the session was read (start()): before that, status() says nothing of it. */
  get started(): boolean {
    return this.#started;
  }

  /**
   * Whose session this is (account and platform), when there is one usable with the platform the
   * settings name: the owner the directory and the call log show data of.
   */
  owner(): AccountOwner | undefined {
    const session = this.tokens.session;
    if (!session || this.tokens.otherPlatform) return undefined;
    const { tenant_id, user_extension, base_url } = session;
    return { tenant_id, user_extension, base_url };
  }

  onStatus(listener: (status: AccountStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => {
      this.#statusListeners.delete(listener);
    };
  }

  /** Call events the platform pushed to the Webhook URL. */
  onCallEvent(listener: (event: WebhookEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => {
      this.#eventListeners.delete(listener);
    };
  }

  /** Call events were lost on their way (relay mode: the relay dropped some it held for us). */
  onEventsLost(listener: () => void): () => void {
    this.#lostListeners.add(listener);
    return () => {
      this.#lostListeners.delete(listener);
    };
  }

  /** Whether the platform's call events reach this process now: its receiver or relay stream. */
  hearsCallEvents(): boolean {
    if (this.#relay) return this.#relay.hearsCallEvents();
    return this.#loopback.hearsCallEvents();
  }

  /**
   * Relay mode with a device: whether its stream opens at the relay now (`status --check`), with
   * the relay's host; nothing queued is taken.
   */
  async probeRelay(): Promise<{ host: string; problem: string | undefined } | undefined> {
    // Named before the probe: a relay that fails makes the link move on to the next address.
    const host = this.#relay?.link.host;
    const probe = await this.#relay?.probeStream();
    return probe && host ? { host, ...probe } : undefined;
  }

  /**
   * Starts the loopback receiver on the configured port (once), after reading the webhook secret
   * its Webhook URL contains (see webhook-auth.ts).
   */
  listen(): Promise<RunningReceiver> {
    if (this.#relay) return this.#relay.listen();
    return this.#loopback.listen();
  }

  /**
   * Relay mode: stops taking messages from the relay, before their listeners go away (what comes
   * after waits at the relay for the next process of the profile).
   */
  stopListening(): void {
    this.#relay?.close();
  }

  /**
   * Relay mode: tells the relay this device is placing a dial, so call events that name nobody
   * reach it (docs/relay.md). Never throws: a dial goes ahead without it.
   */
  async announceDial(): Promise<void> {
    await this.#relay?.announceDial();
  }

  /**
   * The exact URLs and headers to register with the platform (they hold the webhook secret: for
   * the person who asked, never for the log). The receiver's own address once it listens.
   */
  async receiverRegistration(): Promise<ReceiverRegistration> {
    if (this.#relay) return this.#relay.registration();
    return this.#loopback.registration();
  }

  /**
   * Creates a pending attempt, builds the portal link and hands the browser address that leads
   * to it (never the link itself) to `openUrl`, the system browser. Only one attempt is awaited
   * at a time: starting again cancels the previous one (see activation.ts).
   */
  startActivation(options: Parameters<Activation['start']>[0] = {}): Promise<ActivationStart> {
    return this.#activation.start(options);
  }

  /**
   * Abandons the awaited attempt, if any. Its error (and the status, until the next attempt)
   * carries the ended-attempt warning (ENDED_WARNING; in relay mode RELAY_ENDED_WARNING) after
   * `reason`.
   */
  cancelActivation(reason?: string | Said, code?: string): void {
    this.#activation.cancel(reason, code);
  }

  /**
   * The user saw that the session is for a different account than before: stop saying it. Only
   * the switch this process showed: when another process of the profile recorded a newer one
   * since (the CLI connected yet another account), that one stays, and is said here too.
   */
  async acknowledgeSwitch(): Promise<AccountStatus> {
    const shown = this.#history;
    const stored = await this.#historyStore.read();
    if (stored && shown && !sameHistory(stored, shown)) this.#history = stored;
    else if (shown?.replaced) await this.#remember(ownAccount(shown));
    return this.#publish();
  }

  /** Forgets the session on this computer only (the platform keeps the integration). */
  async deactivateLocal(): Promise<AccountStatus> {
    await this.tokens.forget();
    // Its relay device was retired with it: removed at the relay now, or later.
    await this.#relay?.forgotten();
    // The keychain answered: the webhook secret it could not give before may come now.
    await this.#loopback.retryWebhookSecret();
    return this.#publish();
  }

  /**
   * Another process of the profile changed the session in the keychain: this one follows
   * (TokenManager.followVault), and says what it is now.
   */
  async followVault(): Promise<void> {
    if (!this.#closing && (await this.tokens.followVault())) {
      this.#relay?.follow();
      this.#publish();
    }
  }

  /** Shuts down; a session the platform just issued is stored first (see TokenManager.close). */
  async close(): Promise<void> {
    this.#closing = true;
    this.#activation.cancel(said('errors:attempt.shuttingDown'));
    await this.#relay?.settled();
    this.#relay?.close();
    await this.#relay?.stopRemoving();
    await this.tokens.close();
    await this.#loopback.close();
  }

  readonly receiverHandlers: ReceiverHandlers = {
    activate: (body) => this.#activation.activate(body),
    deactivate: (body) => this.#activation.deactivate(body),
    event: (event) => {
      for (const listener of this.#eventListeners) listener(event);
    },
    landing: (attemptId) => this.#activation.landing(attemptId),
    connect: (nonce) => this.#activation.connectLink(nonce),
    activationRefused: (refusal) => this.#activation.refused(refusal),
  };

  #connectedAccount(session: Pick<StoredAccount, 'tenant_id' | 'user_extension' | 'base_url'>) {
    return {
      tenant_id: session.tenant_id,
      user_extension: session.user_extension,
      base_url: session.base_url,
      connected_at: new Date(this.#now()).toISOString(),
    };
  }

  /**
   * The account this profile knows of without a record: its session, or the one that ended (when
   * it was connected is not known; "now" only dates the record).
   */
  #knownAccount(): AccountHistory | undefined {
    const { tenant_id, user_extension } = this.#status;
    if (tenant_id === undefined || user_extension === undefined) return undefined;
    const base_url = this.tokens.session?.base_url ?? this.#options.settings.base_url;
    return this.#connectedAccount({ tenant_id, user_extension, base_url });
  }

  /** Keeps `history` as the record; a failed write is logged (the session itself is stored). */
  async #remember(history: AccountHistory): Promise<void> {
    this.#history = history;
    try {
      await this.#historyStore.write(history);
    } catch (error) {
      this.#log.warn('could not record the connected account', { error });
    }
  }

  #publish(): AccountStatus {
    const next = accountStatus({
      session: this.tokens.session,
      health: this.tokens.health,
      otherPlatform: this.tokens.otherPlatform,
      activating: this.#activation.activating,
      activationRefusal: this.#activation.refusal,
      endedAttempt: this.#activation.endedAttempt,
      relay: this.#relay
        ? { host: this.#relay.link.host, problem: this.#relay.problem, outage: this.#relay.outage }
        : undefined,
      platformOutage: this.tokens.reach.outage,
      receiverProblem: this.#loopback.problem,
      webhookProblem: this.#loopback.webhookProblem,
      acceptUnauthenticatedEvents: this.#options.settings.accept_unauthenticated_events ?? false,
      history: this.#history,
      baseUrl: this.#options.settings.base_url,
    });
    const changed = JSON.stringify(next) !== JSON.stringify(this.#status);
    this.#status = next;
    if (changed) for (const listener of this.#statusListeners) listener(next);
    return next;
  }
}
