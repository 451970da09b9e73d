/**
 * The user's session with the platform: activation through the portal, the receiver's handshake
 * handlers, the token manager, and the observable account state the rest of the app shows.
 */
import type { AccountStatus, ReceiverRegistration } from '../../../src-shared/contract';
import { memoryStateFile, type StateFile } from '../config/state-file';
import { CallbarError, errorMessage } from '../errors';
import type { Logger } from '../log/logger';
import {
  RELAY_LANDING_PATH,
  type AttemptEnd,
  type DeviceMessage,
  type HandoffContent,
  type RelayedDeactivation,
} from '../relay/relay-protocol';
import { RelayLink, relayUrls, type RelayCursor, type RelayStream } from '../relay/relay-link';
import type { StoredAccount } from '../vault/stored-account';
import type { Vault } from '../vault/vault';
import {
  accountSwitch,
  afterConnection,
  type AccountOwner,
  ownAccount,
  type AccountHistory,
  type AccountHistoryStore,
} from './account-history';
import {
  ActivationAttempts,
  ATTEMPT_LIFETIME_MS,
  OPENED_TWICE,
  deliveryFingerprint,
  type ActivationAttempt,
} from './activation-attempts';
import { landingPageFor, type LandingPage } from './landing-page';
import type { BodySignature } from './body-signature';
import { buildPortalLink } from './portal-link';
import {
  ReceiverRejection,
  startReceiver,
  type DeactivationBody,
  type HandshakeBody,
  type ReceiverHandlers,
  type RefusedActivation,
  type RunningReceiver,
  type WebhookEvent,
} from './receiver';
import { secretFingerprint, secretsEqual } from './secret-compare';
import type { SessionEndedMarker } from './session-ended-marker';
import type { SessionLock } from './session-lock';
import { TokenManager } from './token-manager';
import { said, type Said } from '../text/said';
import { inEnglish, spokenSaid } from '../text/translators';
import {
  receiverRegistration,
  UNAUTHENTICATED_EVENTS_WARNING,
  type WebhookAuth,
} from './webhook-auth';

/**
 * Said whenever an activation attempt ends without connecting (timeout, cancel, the process
 * quitting, a replaced or reused link): the platform still accepts the attempt's portal link, and
 * once nothing of Callbar's listens on the receiver port, whoever binds it gets the tokens.
 */
const ENDED_WARNING = said('errors:attempt.endedWarning');
/** The warning's English (what tests and the docs quote). */
export const ENDED_ATTEMPT_WARNING = inEnglish(ENDED_WARNING);

/**
 * The same in relay mode: nothing listens on this computer, and the relay hands the platform's
 * tokens only to the key pair of the attempt, which ended; the platform still counts the link.
 */
const RELAY_ENDED_WARNING = said('errors:attempt.relayEndedWarning');
/** Its English. */
export const RELAY_ENDED_ATTEMPT_WARNING = inEnglish(RELAY_ENDED_WARNING);

/** Said while an attempt waits after a refused activation call. */
const REFUSAL_HINT_SAID = said('errors:attempt.refusalHint');
/** Its English. */
export const REFUSAL_HINT = inEnglish(REFUSAL_HINT_SAID);

/** How each way the relay ends an attempt is said, with its error code. */
const RELAY_ATTEMPT_ENDS: Record<AttemptEnd, [Said, string]> = {
  'link-reused': [OPENED_TWICE, 'activation_link_reused'],
  'registered-twice': [said('errors:relay.registeredTwice'), 'activation_link_reused'],
  unknown: [said('errors:relay.attemptUnknown'), 'activation_timeout'],
};

/** The refusal line of a waiting attempt changes at most this often (see #activationRefused). */
const REFUSAL_LINE_INTERVAL_MS = 1000;

/** The error codes of an attempt that ended unconnected (their message ends with the warning). */
export const ATTEMPT_ENDED_CODES: ReadonlySet<string> = new Set([
  'activation_cancelled',
  'activation_timeout',
  'activation_link_reused',
  'activation_refused',
]);

/** Access tokens live 24 hours (contract 2.3); the activation call does not say so itself. */
const ACTIVATION_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The receiver's answer when an activation's tokens could not be stored. */
function notStored(): ReceiverRejection {
  // An answer to the platform (a program), not to a person: English, like the log.
  return new ReceiverRejection(503, inEnglish(said('errors:attempt.notStored')));
}

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

export interface ActivationStart {
  /** The portal address the user must open (contains the single-use confirmation key). */
  portalLink: string;
  /**
   * The address to start a browser with: `http://127.0.0.1:PORT/connect/<nonce>` (in relay mode
   * `https://relay…/connect/<nonce>`), which redirects to the portal link once. A command line is readable by every local user; this
   * address is worthless to them (a second use ends the attempt).
   */
  browserUrl: string;
  /** Settles when the receiver stored the tokens (connected), or on timeout / cancel. */
  completion: Promise<AccountStatus>;
  /**
   * Resolves once the browser was shown how the attempt ended (the landing page at redirect_url);
   * a process that exits after `completion` waits for it, or the browser finds nobody there.
   */
  landed: Promise<void>;
}

interface Waiter {
  attempt: ActivationAttempt;
  portalLink: string;
  resolve: (status: AccountStatus) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Relay mode: stops waiting at the relay for this attempt's handoff. */
  relayWait?: AbortController;
}

/**
 * Relay mode: the relay refused this device's credential (revoked by an administrator): the
 * status's own headline and its sentence.
 */
export const RELAY_REVOKED = {
  title: said('errors:account.relayRevokedTitle'),
  message: said('errors:account.relayRevoked'),
};
/** Its sentence in English. */
export const RELAY_REVOKED_MESSAGE = inEnglish(RELAY_REVOKED.message);

/** How long `listen()` in relay mode waits for the relay's backlog before going on. */
const RELAY_CATCH_UP_MS = 5000;

export class AccountService {
  readonly tokens: TokenManager;
  readonly #options: AccountServiceOptions;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #attempts: ActivationAttempts;
  readonly #statusListeners = new Set<(status: AccountStatus) => void>();
  readonly #eventListeners = new Set<(event: WebhookEvent) => void>();
  #waiter: Waiter | undefined;
  #receiver: Promise<RunningReceiver> | undefined;
  /** Why the receiver is not listening (activation and call events cannot arrive). */
  #receiverProblem: string | undefined;
  /** The profile's webhook secret, once read from (or created in) the keychain. */
  #webhookSecret: string | undefined;
  /** Why the webhook secret could not be read (call events are refused meanwhile). */
  #webhookProblem: string | undefined;
  #status: AccountStatus = { state: 'not-connected' };
  readonly #historyStore: AccountHistoryStore;
  /** The record of the connected account, as last read or written. */
  #history: AccountHistory | undefined;
  /** Why the awaited attempt's last activation call was refused (see #activationRefused). */
  #activationRefusal: Said | undefined;
  /** When #activationRefusal last changed. */
  #refusalSaidAt = -Infinity;
  /** How the last activation attempt ended without connecting, until the next one starts. */
  #endedAttempt: string | undefined;
  /** Per attempt id: tells `landed` that its landing page was served with the outcome. */
  readonly #landingServed = new Map<string, () => void>();
  /** Relay mode: the link to the organisation's relay (nothing listens on this computer). */
  readonly #relay: RelayLink | undefined;
  /** Relay mode: the device's open stream, while there is a session with a device identity. */
  #relayStream: RelayStream | undefined;
  /** Relay mode: why events cannot arrive (the relay revoked this device). */
  #relayProblem: { title: string; message: string } | undefined;
  /** Relay mode: the wait for an activation's handoff, until the relay has the confirmation. */
  #relayHandoff: Promise<void> | undefined;
  #closing = false;

  constructor(options: AccountServiceOptions) {
    this.#options = options;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#attempts = new ActivationAttempts(this.#now);
    this.#historyStore = options.history ?? memoryStateFile();
    this.tokens = new TokenManager({
      vault: options.vault,
      log: options.log,
      now: this.#now,
      platformUrl: options.settings.base_url,
      ...options.coordination,
      ...options.tokenOptions,
    });
    this.tokens.onHealth(() => this.#publish());
    const urls = relayUrls(options.settings.relay_url ?? '');
    this.#relay =
      urls.length > 0
        ? new RelayLink({
            urls,
            log: options.log,
            cursor: options.relayCursor ?? memoryStateFile(),
          })
        : undefined;
  }

  /** Restores the session from the keychain. Never throws: a keychain problem is a state. */
  async start(): Promise<AccountStatus> {
    try {
      await this.tokens.load();
    } catch {
      this.#log.warn('the keychain is unavailable; the session cannot be restored', {
        reason: this.#vaultMessage(),
      });
    }
    this.#history = await this.#historyStore.read();
    // Asked again (the window's "Try again"): a keychain that works now gives the secret.
    if (this.#webhookProblem) await this.#loadWebhookSecret();
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

  /** Whether the platform's call events reach this process now: its receiver or relay stream. */
  hearsCallEvents(): boolean {
    if (this.#relay) return this.#relayStream !== undefined;
    return this.#receiver !== undefined && this.#receiverProblem === undefined;
  }

  /**
   * Starts the loopback receiver on the configured port (once), after reading the webhook secret
   * its Webhook URL contains (see webhook-auth.ts).
   */
  listen(): Promise<RunningReceiver> {
    if (this.#relay) return this.#listenThroughRelay(this.#relay);
    this.#receiver ??= this.#loadWebhookSecret()
      .then(() =>
        startReceiver({
          port: this.#options.settings.receiver_port,
          handlers: this.receiverHandlers,
          auth: () => this.#webhookAuth(),
          log: this.#log,
        }),
      )
      .then(
        (receiver) => {
          this.#receiverProblem = undefined;
          this.#publish();
          return receiver;
        },
        (error: unknown) => {
          this.#receiver = undefined;
          this.#receiverProblem = errorMessage(error);
          this.#publish();
          throw error;
        },
      );
    return this.#receiver;
  }

  /**
   * Relay mode: opens the device's stream (when the session has a device identity) and waits a
   * moment for what the relay queued meanwhile, so the caller sees it (the CLI's next command).
   * Nothing listens on this computer; the "receiver" returned is the relay's address.
   */
  async #listenThroughRelay(relay: RelayLink): Promise<RunningReceiver> {
    const stream = this.#openRelayStream(relay);
    if (stream) {
      let timer: NodeJS.Timeout | undefined;
      // The backlog served, or the stream over before it (a queued deactivation applied, the
      // device revoked): either way there is nothing more to wait for.
      await Promise.race([
        stream.ready,
        stream.ended,
        new Promise(
          (resolve) =>
            (timer = setTimeout(resolve, this.#options.relayCatchUpMs ?? RELAY_CATCH_UP_MS)),
        ),
      ]);
      clearTimeout(timer);
    }
    return {
      port: 0,
      origin: relay.origin,
      close: () => {
        this.#closeRelayStream();
        return Promise.resolve();
      },
    };
  }

  #openRelayStream(relay: RelayLink): RelayStream | undefined {
    // Revoked: the relay refuses this device until it is activated again; asking again would
    // only repeat the refusal.
    if (this.#relayStream || this.#closing || this.#relayProblem) return this.#relayStream;
    const device = this.tokens.relayDevice;
    if (!device) return undefined;
    this.#relayStream = relay.connect(
      device,
      (message) => this.#relayMessage(relay, message),
      () => {
        this.#relayProblem = {
          title: inEnglish(RELAY_REVOKED.title),
          message: inEnglish(RELAY_REVOKED.message),
        };
        this.#log.warn('the relay refused this device');
        this.#closeRelayStream();
        this.#publish();
      },
    );
    return this.#relayStream;
  }

  /**
   * Relay mode: stops taking messages from the relay, before their listeners go away (what comes
   * after waits at the relay for the next process of the profile).
   */
  stopListening(): void {
    this.#closeRelayStream();
  }

  #closeRelayStream(): void {
    this.#relayStream?.close();
    this.#relayStream = undefined;
  }

  /** One message of the device's stream: a call event, or the user's deactivation. */
  async #relayMessage(relay: RelayLink, message: DeviceMessage): Promise<void> {
    if (message.type === 'event') {
      for (const listener of this.#eventListeners) listener(message.event);
      return;
    }
    const device = this.tokens.relayDevice;
    // Checked as on loopback: only the deactivation of this session's own activation (the relay
    // passes the key's SHA-256, never the key, which would wait in its queue).
    try {
      await this.#deactivateRelayed(message.body);
    } catch (error) {
      // Not this session's (another user, or none any more): nothing to do. Anything else (the
      // keychain) is tried again from the same offset when the stream reconnects.
      if (!(error instanceof ReceiverRejection) || error.status !== 403) throw error;
      this.#log.info('a deactivation from the relay did not concern this session');
      return;
    }
    this.#closeRelayStream();
    if (device) {
      await relay.forget(device.credential).catch((error: unknown) => {
        this.#log.warn('the relay could not forget this device', { reason: errorMessage(error) });
      });
    }
  }

  /**
   * Relay mode: tells the relay this device is placing a dial, so call events that name nobody
   * reach it (docs/relay.md). Never throws: a dial goes ahead without it.
   */
  async announceDial(): Promise<void> {
    const device = this.tokens.relayDevice;
    if (!this.#relay || !device) return;
    await this.#relay.announceDial(device.credential).catch((error: unknown) => {
      this.#log.warn('could not announce the dial to the relay', { reason: errorMessage(error) });
    });
  }

  /**
   * The exact URLs and headers to register with the platform (they hold the webhook secret: for
   * the person who asked, never for the log). The receiver's own address once it listens.
   */
  async receiverRegistration(): Promise<ReceiverRegistration> {
    if (this.#relay) {
      const { origin } = this.#relay;
      return {
        activation_url: `${origin}/activate`,
        deactivation_url: `${origin}/deactivate`,
        webhook_url: `${origin}/events`,
        headers: {},
        authentication: 'none',
        accepts_unauthenticated: false,
        problem: inEnglish(said('errors:attempt.relayRegistration')),
      };
    }
    await this.#loadWebhookSecret();
    const listening = await this.#receiver?.catch(() => undefined);
    const origin = listening?.origin ?? `http://127.0.0.1:${this.#options.settings.receiver_port}`;
    return receiverRegistration(origin, this.#webhookAuth(), this.#webhookProblem);
  }

  #webhookAuth(): WebhookAuth {
    return {
      headers: this.#options.receiverHeaders ?? {},
      signature: this.#options.receiverSignature,
      secret: this.#webhookSecret,
      acceptUnauthenticated: this.#options.settings.accept_unauthenticated_events ?? false,
    };
  }

  /**
   * Reads (or creates) the webhook secret, unless the platform's headers authenticate events.
   * A keychain that cannot give it is a problem the status says, not a failure: the receiver
   * still serves activation, and refuses call events.
   */
  async #loadWebhookSecret(): Promise<void> {
    if (this.#webhookSecret !== undefined) return;
    if (Object.keys(this.#options.receiverHeaders ?? {}).length > 0) return;
    if (this.#options.receiverSignature) return;
    try {
      this.#webhookSecret = await this.#options.vault.webhookSecret();
      this.#webhookProblem = undefined;
    } catch (error) {
      this.#webhookProblem = inEnglish(
        said('errors:account.noWebhookSecret', { reason: spokenSaid(errorMessage(error)) }),
      );
      this.#log.warn('the webhook secret is unavailable; call events are refused', {
        reason: errorMessage(error),
      });
    }
    this.#publish();
  }

  /**
   * Creates a pending attempt, builds the portal link and hands the browser address that leads
   * to it (never the link itself) to `openUrl`, the system browser. Only one attempt is awaited
   * at a time: starting again cancels the previous one.
   */
  async startActivation(
    options: {
      openUrl?: (url: string) => Promise<void> | void;
      tenantParams?: Record<string, string>;
      timeoutMs?: number;
      /** Accept only this user (e.g. reconnecting the account whose session ended). */
      expectedUser?: { tenant_id: string; user_extension: string };
    } = {},
  ): Promise<ActivationStart> {
    const { client_id } = this.#options.settings;
    if (!client_id || !this.#options.clientSecret) {
      throw new CallbarError(
        'client_credentials_missing',
        said('errors:account.credentialsMissing'),
        {
          field: client_id ? 'client_secret' : 'client_id',
        },
      );
    }
    const relay = this.#relay;
    const receiver = relay ? undefined : await this.listen();
    if (this.#waiter?.attempt.outcome.kind === 'claimed') {
      throw new CallbarError('activation_finishing', said('errors:account.activationFinishing'));
    }
    this.cancelActivation(said('errors:attempt.replaced'));
    this.#endedAttempt = undefined;
    this.#activationRefusal = undefined;
    this.#refusalSaidAt = -Infinity;
    const attempt = this.#attempts.create(options.expectedUser);
    const portalLink = buildPortalLink({
      portalUrl: this.#options.settings.portal_url,
      slug: this.#options.settings.slug,
      confirmationKey: attempt.confirmationKey,
      redirectUrl: receiver
        ? `${receiver.origin}/done?attempt=${attempt.id}`
        : `${relay!.origin}${RELAY_LANDING_PATH}`,
      ...(options.tenantParams ? { tenantParams: options.tenantParams } : {}),
    });
    // Relay mode: the relay knows of the wait (and holds the one-time connect link) before
    // anyone can use the portal link.
    const handoff = relay
      ? await relay.prepareHandoff(attempt.confirmationKey, portalLink)
      : undefined;
    const completion = new Promise<AccountStatus>((resolve, reject) => {
      const timeoutMs = Math.min(options.timeoutMs ?? ATTEMPT_LIFETIME_MS, ATTEMPT_LIFETIME_MS);
      const timer = setTimeout(() => {
        const refusal = this.#activationRefusal;
        this.cancelActivation(
          refusal ?? said('errors:attempt.timedOut'),
          refusal ? 'activation_refused' : 'activation_timeout',
        );
      }, timeoutMs);
      timer.unref();
      this.#waiter = { attempt, portalLink, resolve, reject, timer };
    });
    if (relay && handoff) this.#waitAtRelay(relay, this.#waiter!, handoff.awaitHandoff);
    const landed = new Promise<void>((resolve) => this.#landingServed.set(attempt.id, resolve));
    // Relay mode: the browser lands on the relay's page, which Callbar does not serve.
    if (relay) this.#landingServed.get(attempt.id)?.();
    this.#publish();
    this.#log.info('activation started', { attempt: attempt.id });
    // Never the portal link itself: a one-time address that redirects to it once (served by the
    // receiver, or in relay mode by the relay).
    const browserUrl = receiver
      ? `${receiver.origin}/connect/${attempt.browserNonce}`
      : handoff!.browserUrl;
    await options.openUrl?.(browserUrl);
    return { portalLink, browserUrl, completion, landed };
  }

  /**
   * Relay mode: waits at the relay for the platform's activation of `waiter`'s key, stores the
   * tokens it hands over (as the receiver's activation would), and tells the relay whether they
   * are stored: only then does the relay answer the platform (200, or 503).
   */
  #waitAtRelay(
    relay: RelayLink,
    waiter: Waiter,
    awaitHandoff: (signal: AbortSignal) => Promise<HandoffContent | AttemptEnd | undefined>,
  ): void {
    const abort = new AbortController();
    waiter.relayWait = abort;
    const key = waiter.attempt.confirmationKey;
    const run = async () => {
      const handoff = await awaitHandoff(abort.signal);
      if (!handoff) return;
      if (typeof handoff === 'string') {
        this.cancelActivation(...RELAY_ATTEMPT_ENDS[handoff]);
        return;
      }
      const device = { device_id: handoff.device_id, credential: handoff.credential };
      let stored = false;
      try {
        await this.#activate(handoff.body, device);
        stored = true;
      } finally {
        await relay.confirm(key, handoff.credential, stored);
      }
      this.#relayProblem = undefined;
      this.#closeRelayStream();
      if (!this.#closing) this.#openRelayStream(relay);
    };
    // `close()` waits for it: the relay must hear that the tokens are stored before the process
    // ends, or it refuses the platform's call.
    this.#relayHandoff = run().catch((error: unknown) => {
      this.#log.warn('activation through the relay failed', { reason: errorMessage(error) });
    });
  }

  /**
   * Abandons the awaited attempt, if any. Its error (and the status, until the next attempt)
   * carries ENDED_ATTEMPT_WARNING (in relay mode RELAY_ENDED_ATTEMPT_WARNING) after `reason`.
   */
  cancelActivation(
    reason: string | Said = said('errors:attempt.cancelled'),
    code = 'activation_cancelled',
  ): void {
    // The platform's tokens have arrived and are being stored: the attempt is not abandoned (nor
    // its link "ended"); it completes connected a moment later, and closing waits for the write.
    if (this.#waiter?.attempt.outcome.kind === 'claimed') {
      this.#log.info('activation attempt not cancelled: its tokens are being stored', { code });
      return;
    }
    const waiter = this.#takeWaiter(this.#waiter?.attempt);
    if (!waiter) return;
    const warning = this.#relay ? RELAY_ENDED_WARNING : ENDED_WARNING;
    const message = said('errors:attempt.ended', { reason, warning });
    if (waiter.attempt.outcome.kind === 'pending') {
      this.#attempts.settle(waiter.attempt, { kind: 'failed', message });
    }
    this.#endedAttempt = inEnglish(message);
    this.#log.info('activation attempt ended without connecting', {
      attempt: waiter.attempt.id,
      code,
    });
    waiter.reject(new CallbarError(code, message));
    this.#publish();
  }

  /** The user saw that the session is for a different account than before: stop saying it. */
  async acknowledgeSwitch(): Promise<AccountStatus> {
    if (this.#history?.replaced) await this.#remember(ownAccount(this.#history));
    return this.#publish();
  }

  /** Forgets the session on this computer only (the platform keeps the integration). */
  async deactivateLocal(): Promise<AccountStatus> {
    const device = this.tokens.relayDevice;
    await this.tokens.forget();
    this.#closeRelayStream();
    this.#relayProblem = undefined;
    if (device) await this.#relay?.forget(device.credential).catch(() => undefined);
    // The keychain answered: the webhook secret it could not give before may come now.
    if (this.#webhookProblem) await this.#loadWebhookSecret();
    return this.#publish();
  }

  /** Shuts down; a session the platform just issued is stored first (see TokenManager.close). */
  async close(): Promise<void> {
    this.#closing = true;
    this.cancelActivation(said('errors:attempt.shuttingDown'));
    await this.#relayHandoff;
    this.#closeRelayStream();
    await this.tokens.close();
    const receiver = await this.#receiver?.catch(() => undefined);
    await receiver?.close();
  }

  readonly receiverHandlers: ReceiverHandlers = {
    activate: (body) => this.#activate(body),
    deactivate: (body) => this.#deactivate(body),
    event: (event) => {
      for (const listener of this.#eventListeners) listener(event);
    },
    landing: (attemptId) => this.#landing(attemptId),
    connect: (nonce) => this.#connectLink(nonce),
    activationRefused: (refusal) => this.#activationRefused(refusal),
  };

  /**
   * The receiver refused an activation call while an attempt is awaited. When it carries the
   * attempt's confirmation key (or a valid signature), it is the platform's, refused for a reason
   * the person must fix (a header or signature setting): the status says so at once, in one line
   * that replaces the last and changes at most once a second, and if the attempt ends unconnected
   * it says this instead of "No confirmation arrived". Any other is no news for the person (any
   * local program can send one; the receiver logs it). The attempt goes on either way: the
   * platform may send it again once fixed, and no refusal may end it.
   */
  #activationRefused(refusal: RefusedActivation): void {
    const attempt = this.#waiter?.attempt;
    if (attempt?.outcome.kind !== 'pending') return;
    const own =
      refusal.signed ||
      (refusal.confirmationKey !== undefined &&
        secretsEqual(refusal.confirmationKey, attempt.confirmationKey));
    if (!own) return;
    const message = said('errors:attempt.refused', { reason: spokenSaid(refusal.reason) });
    const now = this.#now();
    if (
      JSON.stringify(message) === JSON.stringify(this.#activationRefusal) ||
      now - this.#refusalSaidAt < REFUSAL_LINE_INTERVAL_MS
    ) {
      return;
    }
    this.#activationRefusal = message;
    this.#refusalSaidAt = now;
    this.#log.warn('an activation call was refused while an attempt is awaited', {
      reason: refusal.reason,
    });
    this.#publish();
  }

  /** `/connect/<nonce>`: the first request goes on to the portal; any other ends the attempt. */
  #connectLink(nonce: string): { redirect: string } | LandingPage {
    const use = this.#attempts.useBrowserNonce(nonce);
    const waiter = this.#waiter;
    if (use.kind === 'first' && waiter?.attempt === use.attempt) {
      return { redirect: waiter.portalLink };
    }
    if (use.kind === 'refused' && use.attempt.outcome.kind === 'pending') {
      const message = use.reason === 'again' ? OPENED_TWICE : said('landing:stopped.openedLate');
      this.#log.warn('connect link refused; the activation attempt ends', {
        attempt: use.attempt.id,
        reason: use.reason,
      });
      if (waiter?.attempt === use.attempt) this.cancelActivation(message, 'activation_link_reused');
      else this.#attempts.settle(use.attempt, { kind: 'failed', message });
      return {
        ok: false,
        title: said('landing:stopped.title'),
        message: said('landing:stopped.message', {
          reason: said(
            use.reason === 'again' ? 'landing:stopped.openedTwice' : 'landing:stopped.openedLate',
          ),
          warning: said('landing:stopped.warning'),
        }),
      };
    }
    return {
      ok: false,
      title: said('landing:linkUsed.title'),
      message: said('landing:linkUsed.message'),
    };
  }

  async #activate(body: HandshakeBody, relayDevice?: StoredAccount['relay_device']): Promise<void> {
    const attempt = this.#attempts.findPending(body.confirmation_key);
    if (!attempt) return this.#repeatedActivation(body);
    if (!body.access_token || !body.refresh_token) {
      throw new ReceiverRejection(400, 'Activation needs access_token and refresh_token.');
    }
    const expected = attempt.expected;
    if (
      expected &&
      (expected.tenant_id !== body.tenant_id || expected.user_extension !== body.user_extension)
    ) {
      throw new ReceiverRejection(403, 'This activation is for a different user than expected.');
    }
    this.#attempts.settle(attempt, { kind: 'claimed' });
    const storing = this.#store(attempt, body, relayDevice);
    attempt.delivery = {
      fingerprint: deliveryFingerprint(body),
      stored: storing.then(
        () => undefined,
        () => undefined,
      ),
    };
    await storing;
  }

  /**
   * A delivery whose key no pending attempt has. An identical repeat of the one that claimed an
   * attempt, within the attempt's lifetime (a platform retrying the call, e.g. after a timeout),
   * is answered as that one was, once it is stored: 200 if it connected the session in use, 503
   * if the tokens could not be stored. Nothing is stored twice; anything else is refused as before.
   */
  async #repeatedActivation(body: HandshakeBody): Promise<void> {
    const attempt = this.#attempts.findRepeat(body.confirmation_key, deliveryFingerprint(body));
    if (attempt?.delivery) {
      await attempt.delivery.stored;
      const session = this.tokens.session;
      const current =
        session?.confirmation_key_sha256 !== undefined &&
        secretsEqual(secretFingerprint(body.confirmation_key), session.confirmation_key_sha256);
      if (attempt.outcome.kind === 'connected' && current) {
        this.#log.info('a repeated activation call answered as the first; nothing changed', {
          attempt: attempt.id,
        });
        return;
      }
      if (attempt.outcome.kind === 'failed') throw notStored();
    }
    throw new ReceiverRejection(403, 'Unknown, expired or already used confirmation_key.');
  }

  /** Stores the tokens of the delivery that claimed `attempt`, and settles it. */
  async #store(
    attempt: ActivationAttempt,
    body: HandshakeBody,
    relayDevice?: StoredAccount['relay_device'],
  ): Promise<void> {
    const before = this.#history ?? this.#knownAccount();
    const account: StoredAccount = {
      access_token: body.access_token,
      refresh_token: body.refresh_token,
      expires_at: this.#now() + ACTIVATION_TOKEN_LIFETIME_MS,
      tenant_id: body.tenant_id,
      user_extension: body.user_extension,
      client_id: this.#options.settings.client_id ?? '',
      client_secret: this.#options.clientSecret ?? '',
      base_url: this.#options.settings.base_url,
      confirmation_key_sha256: secretFingerprint(body.confirmation_key),
      ...(relayDevice ? { relay_device: relayDevice } : {}),
    };
    try {
      await this.tokens.adopt(account);
    } catch {
      this.#attempts.settle(attempt, { kind: 'failed', message: this.#vaultMessage() });
      const waiter = this.#takeWaiter(attempt);
      this.#publish();
      waiter?.reject(new CallbarError('vault_unavailable', this.#vaultMessage()));
      throw notStored();
    }
    this.#attempts.settle(attempt, {
      kind: 'connected',
      tenant_id: body.tenant_id,
      user_extension: body.user_extension,
    });
    this.#endedAttempt = undefined;
    // Detached before the record's write, so a timeout meanwhile cannot fail a connected attempt.
    const waiter = this.#takeWaiter(attempt);
    await this.#remember(afterConnection(before, this.#connectedAccount(account)));
    this.#log.info('activated', { tenant_id: body.tenant_id, user_extension: body.user_extension });
    const status = this.#publish();
    waiter?.resolve(status);
  }

  /** The waiter for `attempt`, detached so the published state is no longer "activating". */
  #takeWaiter(attempt: ActivationAttempt | undefined): Waiter | undefined {
    const waiter = this.#waiter;
    if (!waiter || waiter.attempt !== attempt) return undefined;
    this.#waiter = undefined;
    clearTimeout(waiter.timer);
    waiter.relayWait?.abort();
    return waiter;
  }

  /**
   * A deactivation through the relay: the same rule as the receiver's (below), with the key's
   * SHA-256 in place of the key. The relay queues it for every device of the user; only the one
   * whose session the key activated applies it.
   */
  #deactivateRelayed(body: RelayedDeactivation): Promise<void> {
    return this.#deactivate(
      { tenant_id: body.tenant_id, user_extension: body.user_extension, confirmation_key: '' },
      body.key_sha256,
    );
  }

  /**
   * The platform's deactivation: for a pending attempt's key, or the key that activated this
   * session (`keySha256`: its SHA-256, when only that is known), and this session's user.
   */
  async #deactivate(
    body: DeactivationBody,
    keySha256 = secretFingerprint(body.confirmation_key),
  ): Promise<void> {
    const session = this.tokens.session;
    const attempt = body.confirmation_key
      ? this.#attempts.findPending(body.confirmation_key)
      : undefined;
    const keyOfActivation =
      session?.confirmation_key_sha256 !== undefined &&
      secretsEqual(keySha256, session.confirmation_key_sha256);
    if (!attempt && !keyOfActivation) {
      throw new ReceiverRejection(403, 'Unknown, expired or already used confirmation_key.');
    }
    if (
      session &&
      (session.tenant_id !== body.tenant_id || session.user_extension !== body.user_extension)
    ) {
      throw new ReceiverRejection(403, 'This deactivation is for a different user.');
    }
    if (attempt) this.#attempts.settle(attempt, { kind: 'claimed' });
    try {
      await this.tokens.forget();
    } catch {
      if (attempt) this.#attempts.settle(attempt, { kind: 'pending' });
      this.#publish();
      throw new ReceiverRejection(503, 'Callbar could not remove the tokens; try again.');
    }
    // The landing page of the attempt being unsubscribed (a pending one, or the one that
    // connected this session) says so, not what it said before.
    const unsubscribed =
      attempt ??
      (body.confirmation_key ? this.#attempts.findByKey(body.confirmation_key) : undefined);
    if (unsubscribed) this.#attempts.settle(unsubscribed, { kind: 'disconnected' });
    this.#log.info('deactivated', {
      tenant_id: body.tenant_id,
      user_extension: body.user_extension,
    });
    const waiter = this.#takeWaiter(attempt);
    this.#publish();
    waiter?.reject(new CallbarError('deactivated', said('errors:account.deactivated')));
  }

  #landing(attemptId: string | null): LandingPage {
    const attempt = attemptId ? this.#attempts.byId(attemptId) : undefined;
    const outcome = attempt?.outcome.kind;
    if (attempt && outcome !== 'pending' && outcome !== 'claimed') {
      this.#landingServed.get(attempt.id)?.();
      this.#landingServed.delete(attempt.id);
    }
    return landingPageFor(attempt?.outcome);
  }

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

  /** What is wrong with the keychain, as the token manager's health says after a failure. */
  #vaultMessage(): string {
    const health = this.tokens.health;
    return health.kind === 'vault-unavailable'
      ? health.message
      : inEnglish(said('errors:attempt.keychainFailed'));
  }

  #computeStatus(): AccountStatus {
    const status = this.#withSwitch(this.#computeState());
    // An attempt that ended unconnected: its link must not be used; said until the next one.
    if (
      this.#endedAttempt &&
      (status.state === 'not-connected' || status.state === 'needs-activation')
    ) {
      const message = status.message
        ? inEnglish(
            said('errors:attempt.twoSentences', {
              first: spokenSaid(status.message),
              second: spokenSaid(this.#endedAttempt),
            }),
          )
        : this.#endedAttempt;
      return { ...status, message };
    }
    // A receiver that cannot listen concerns every state; say so unless something else is said.
    const problem = this.#relay ? this.#relayProblem?.message : this.#receiverProblem;
    const withProblem = problem && !status.message ? { ...status, message: problem } : status;
    const withReceiver = this.#relay ? { ...withProblem, relay: this.#relay.host } : withProblem;
    // A keychain that cannot give the webhook secret: said once, by the vault-unavailable state.
    const eventsWarning = this.#options.settings.accept_unauthenticated_events
      ? UNAUTHENTICATED_EVENTS_WARNING
      : status.state === 'vault-unavailable'
        ? undefined
        : this.#webhookProblem;
    return eventsWarning ? { ...withReceiver, events_warning: eventsWarning } : withReceiver;
  }

  /** The status, saying so when its account is not the one connected before (unacknowledged). */
  #withSwitch(status: AccountStatus): AccountStatus {
    const { tenant_id, user_extension } = status;
    if (tenant_id === undefined || user_extension === undefined) return status;
    const base_url = this.tokens.session?.base_url ?? this.#options.settings.base_url;
    const change = accountSwitch(this.#history, { tenant_id, user_extension, base_url });
    return change ? { ...status, account_switch: change } : status;
  }

  #computeState(): AccountStatus {
    const session = this.tokens.session;
    const health = this.tokens.health;
    const identity = session
      ? {
          tenant_id: session.tenant_id,
          user_extension: session.user_extension,
          access_token_expires_at: new Date(session.expires_at).toISOString(),
        }
      : {};
    if (health.kind === 'vault-unavailable') {
      return { state: 'vault-unavailable', ...identity, message: health.message };
    }
    if (this.#waiter) {
      const refusal = this.#activationRefusal;
      return refusal
        ? {
            state: 'activating',
            ...identity,
            message: inEnglish(
              said('errors:attempt.waiting', { refusal, hint: REFUSAL_HINT_SAID }),
            ),
          }
        : { state: 'activating', ...identity };
    }
    const otherPlatform = this.tokens.otherPlatform;
    if (otherPlatform) return { state: 'needs-activation', ...identity, message: otherPlatform };
    // Revoked at the relay: no call event can arrive until the person connects again.
    if (session && this.#relayProblem) {
      return { state: 'needs-activation', ...identity, ...this.#relayProblem };
    }
    if (health.kind === 'revoked') {
      return { state: 'needs-activation', ...health.identity, message: health.message };
    }
    if (!session) return { state: 'not-connected' };
    if (health.kind === 'offline')
      return { state: 'offline', ...identity, message: health.message };
    return { state: 'connected', ...identity };
  }

  #publish(): AccountStatus {
    const next = this.#computeStatus();
    const changed = JSON.stringify(next) !== JSON.stringify(this.#status);
    this.#status = next;
    if (changed) for (const listener of this.#statusListeners) listener(next);
    return next;
  }
}
