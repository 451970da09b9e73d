/**
 * Activation: the attempts a person starts (a portal link behind a one-time browser address,
 * one awaited at a time), and what the platform's handshake calls do to them and to the
 * session: an activation's tokens stored (a repeated delivery answered as the first), a
 * deactivation applied only for the key that activated the session and its user, a refused
 * activation call said while the attempt waits, the landing page of each outcome.
 */
import type { AccountStatus } from '../../../src-shared/contract';
import { CallbarError } from '../errors';
import type { Logger } from '../log/logger';
import { RELAY_LANDING_PATH, type RelayedDeactivation } from '../relay/relay-protocol';
import { secretFingerprint, secretsEqual } from '../secret-compare';
import { said, type Said } from '../text/said';
import { inEnglish, spokenSaid } from '../text/translators';
import type { StoredAccount } from '../vault/stored-account';
import type { AccountHistory } from './account-history';
import {
  ActivationAttempts,
  ATTEMPT_LIFETIME_MS,
  ENDED_WARNING,
  RELAY_ENDED_WARNING,
  OPENED_TWICE,
  deliveryFingerprint,
  type ActivationAttempt,
} from './activation-attempts';
import { landingPageFor, type LandingPage } from './landing-page';
import { buildPortalLink } from './portal-link';
import {
  ReceiverRejection,
  type DeactivationBody,
  type HandshakeBody,
  type RefusedActivation,
  type RunningReceiver,
} from './receiver';
import type { RelayedSession, RelayedTokens } from './relayed-session';
import type { TokenManager } from './token-manager';

/** The refusal line of a waiting attempt changes at most this often (see refused). */
const REFUSAL_LINE_INTERVAL_MS = 1000;

/** Access tokens live 24 hours (contract 2.3); the activation call does not say so itself. */
const ACTIVATION_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The receiver's answer when an activation's tokens could not be stored. */
function notStored(): ReceiverRejection {
  // An answer to the platform (a program), not to a person: English, like the log.
  return new ReceiverRejection(503, inEnglish(said('errors:attempt.notStored')));
}

export interface ActivationStart {
  /** The portal address the user must open (contains the single-use confirmation key). */
  portalLink: string;
  /**
   * The address to start a browser with: `http://127.0.0.1:PORT/connect/<nonce>` (in relay mode
   * `https://relay…/connect/<nonce>`), which redirects to the portal link once. A command line
   * is readable by every local user; this address is worthless to them (a second use ends the
   * attempt).
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

/** What is wrong with the keychain, as the token manager's health says after a failure. */
export function vaultMessage(tokens: TokenManager): string {
  const health = tokens.health;
  return health.kind === 'vault-unavailable'
    ? health.message
    : inEnglish(said('errors:attempt.keychainFailed'));
}

/** What activation asks of the account service. */
export interface ActivationHost {
  readonly settings: {
    base_url: string;
    portal_url: string;
    slug: string;
    client_id?: string | undefined;
  };
  /** The integrator's client secret (stored in the vault with the tokens). */
  readonly clientSecret: string | undefined;
  readonly tokens: TokenManager;
  readonly log: Logger;
  now(): number;
  /** Relay mode: the session through the relay. */
  readonly relay: RelayedSession | undefined;
  /** Starts the loopback receiver (not in relay mode). */
  listen(): Promise<RunningReceiver>;
  /** The status changed. */
  publish(): AccountStatus;
  /** The account connected before, to compare a new session's with. */
  accountBefore(): AccountHistory | undefined;
  /** Records that `account` is connected now (after `before`). */
  connected(before: AccountHistory | undefined, account: StoredAccount): Promise<void>;
}

export class Activation {
  readonly #host: ActivationHost;
  readonly #attempts: ActivationAttempts;
  #waiter: Waiter | undefined;
  /** Why the awaited attempt's last activation call was refused (see refused). */
  #activationRefusal: Said | undefined;
  /** When #activationRefusal last changed. */
  #refusalSaidAt = -Infinity;
  /** How the last activation attempt ended without connecting, until the next one starts. */
  #endedAttempt: string | undefined;
  /** Per attempt id: tells `landed` that its landing page was served with the outcome. */
  readonly #landingServed = new Map<string, () => void>();

  constructor(host: ActivationHost) {
    this.#host = host;
    this.#attempts = new ActivationAttempts(() => host.now());
  }

  /** An attempt is awaited. */
  get activating(): boolean {
    return this.#waiter !== undefined;
  }

  /** Why the awaited attempt's last activation call was refused. */
  get refusal(): Said | undefined {
    return this.#activationRefusal;
  }

  /** How the last attempt ended without connecting, until the next one starts. */
  get endedAttempt(): string | undefined {
    return this.#endedAttempt;
  }

  /**
   * Creates a pending attempt, builds the portal link and hands the browser address that leads
   * to it (never the link itself) to `openUrl`, the system browser. Only one attempt is awaited
   * at a time: starting again cancels the previous one.
   */
  async start(
    options: {
      openUrl?: (url: string) => Promise<void> | void;
      tenantParams?: Record<string, string>;
      timeoutMs?: number;
      /** Accept only this user (e.g. reconnecting the account whose session ended). */
      expectedUser?: { tenant_id: string; user_extension: string };
    } = {},
  ): Promise<ActivationStart> {
    const { client_id } = this.#host.settings;
    if (!client_id || !this.#host.clientSecret) {
      throw new CallbarError(
        'client_credentials_missing',
        said('errors:account.credentialsMissing'),
        {
          field: client_id ? 'client_secret' : 'client_id',
        },
      );
    }
    const relay = this.#host.relay;
    const receiver = relay ? undefined : await this.#host.listen();
    if (this.#waiter?.attempt.outcome.kind === 'claimed') {
      throw new CallbarError('activation_finishing', said('errors:account.activationFinishing'));
    }
    this.cancel(said('errors:attempt.replaced'));
    this.#endedAttempt = undefined;
    this.#activationRefusal = undefined;
    this.#refusalSaidAt = -Infinity;
    const attempt = this.#attempts.create(options.expectedUser);
    const portalLink = buildPortalLink({
      portalUrl: this.#host.settings.portal_url,
      slug: this.#host.settings.slug,
      confirmationKey: attempt.confirmationKey,
      redirectUrl: receiver
        ? `${receiver.origin}/done?attempt=${attempt.id}`
        : `${relay!.link.origin}${RELAY_LANDING_PATH}`,
      ...(options.tenantParams ? { tenantParams: options.tenantParams } : {}),
    });
    // Relay mode: the relay knows of the wait (and holds the one-time connect link) before
    // anyone can use the portal link.
    const handoff = relay
      ? await relay.link.prepareHandoff(attempt.confirmationKey, portalLink)
      : undefined;
    const completion = new Promise<AccountStatus>((resolve, reject) => {
      const timeoutMs = Math.min(options.timeoutMs ?? ATTEMPT_LIFETIME_MS, ATTEMPT_LIFETIME_MS);
      const timer = setTimeout(() => {
        const refusal = this.#activationRefusal;
        this.cancel(
          refusal ?? said('errors:attempt.timedOut'),
          refusal ? 'activation_refused' : 'activation_timeout',
        );
      }, timeoutMs);
      timer.unref();
      this.#waiter = { attempt, portalLink, resolve, reject, timer };
    });
    if (relay && handoff) {
      const abort = new AbortController();
      this.#waiter!.relayWait = abort;
      relay.waitForHandoff(attempt.confirmationKey, abort.signal, handoff.awaitHandoff);
    }
    const landed = new Promise<void>((resolve) => this.#landingServed.set(attempt.id, resolve));
    // Relay mode: the browser lands on the relay's page, which Callbar does not serve.
    if (relay) this.#landingServed.get(attempt.id)?.();
    this.#host.publish();
    this.#host.log.info('activation started', { attempt: attempt.id });
    // Never the portal link itself: a one-time address that redirects to it once (served by the
    // receiver, or in relay mode by the relay).
    const browserUrl = receiver
      ? `${receiver.origin}/connect/${attempt.browserNonce}`
      : handoff!.browserUrl;
    await options.openUrl?.(browserUrl);
    return { portalLink, browserUrl, completion, landed };
  }

  /**
   * Abandons the awaited attempt, if any. Its error (and the status, until the next attempt)
   * carries the ended-attempt warning (ENDED_WARNING; in relay mode RELAY_ENDED_WARNING) after
   * `reason`.
   */
  cancel(
    reason: string | Said = said('errors:attempt.cancelled'),
    code = 'activation_cancelled',
  ): void {
    // The platform's tokens have arrived and are being stored: the attempt is not abandoned (nor
    // its link "ended"); it completes connected a moment later, and closing waits for the write.
    if (this.#waiter?.attempt.outcome.kind === 'claimed') {
      this.#host.log.info('activation attempt not cancelled: its tokens are being stored', {
        code,
      });
      return;
    }
    const waiter = this.#takeWaiter(this.#waiter?.attempt);
    if (!waiter) return;
    const warning = this.#host.relay ? RELAY_ENDED_WARNING : ENDED_WARNING;
    const message = said('errors:attempt.ended', { reason, warning });
    if (waiter.attempt.outcome.kind === 'pending') {
      this.#attempts.settle(waiter.attempt, { kind: 'failed', message });
    }
    this.#endedAttempt = inEnglish(message);
    this.#host.log.info('activation attempt ended without connecting', {
      attempt: waiter.attempt.id,
      code,
    });
    waiter.reject(new CallbarError(code, message));
    this.#host.publish();
  }

  /**
   * The receiver refused an activation call while an attempt is awaited. When it carries the
   * attempt's confirmation key (or a valid signature), it is the platform's, refused for a reason
   * the person must fix (a header or signature setting): the status says so at once, in one line
   * that replaces the last and changes at most once a second, and if the attempt ends unconnected
   * it says this instead of "No confirmation arrived". Any other is no news for the person (any
   * local program can send one; the receiver logs it). The attempt goes on either way: the
   * platform may send it again once fixed, and no refusal may end it.
   */
  refused(refusal: RefusedActivation): void {
    const attempt = this.#waiter?.attempt;
    if (attempt?.outcome.kind !== 'pending') return;
    const own =
      refusal.signed ||
      (refusal.confirmationKey !== undefined &&
        secretsEqual(refusal.confirmationKey, attempt.confirmationKey));
    if (!own) return;
    const message = said('errors:attempt.refused', { reason: spokenSaid(refusal.reason) });
    const now = this.#host.now();
    if (
      JSON.stringify(message) === JSON.stringify(this.#activationRefusal) ||
      now - this.#refusalSaidAt < REFUSAL_LINE_INTERVAL_MS
    ) {
      return;
    }
    this.#activationRefusal = message;
    this.#refusalSaidAt = now;
    this.#host.log.warn('an activation call was refused while an attempt is awaited', {
      reason: refusal.reason,
    });
    this.#host.publish();
  }

  /** `/connect/<nonce>`: the first request goes on to the portal; any other ends the attempt. */
  connectLink(nonce: string): { redirect: string } | LandingPage {
    const use = this.#attempts.useBrowserNonce(nonce);
    const waiter = this.#waiter;
    if (use.kind === 'first' && waiter?.attempt === use.attempt) {
      return { redirect: waiter.portalLink };
    }
    if (use.kind === 'refused' && use.attempt.outcome.kind === 'pending') {
      const message = use.reason === 'again' ? OPENED_TWICE : said('landing:stopped.openedLate');
      this.#host.log.warn('connect link refused; the activation attempt ends', {
        attempt: use.attempt.id,
        reason: use.reason,
      });
      if (waiter?.attempt === use.attempt) this.cancel(message, 'activation_link_reused');
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

  async activate(body: HandshakeBody, relayed?: RelayedTokens): Promise<void> {
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
    const storing = this.#store(attempt, body, relayed);
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
      const session = this.#host.tokens.session;
      const current =
        session?.confirmation_key_sha256 !== undefined &&
        secretsEqual(secretFingerprint(body.confirmation_key), session.confirmation_key_sha256);
      if (attempt.outcome.kind === 'connected' && current) {
        this.#host.log.info('a repeated activation call answered as the first; nothing changed', {
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
    relayed?: RelayedTokens,
  ): Promise<void> {
    const before = this.#host.accountBefore();
    const account: StoredAccount = {
      access_token: body.access_token,
      refresh_token: body.refresh_token,
      expires_at: this.#host.now() + ACTIVATION_TOKEN_LIFETIME_MS,
      tenant_id: body.tenant_id,
      user_extension: body.user_extension,
      client_id: this.#host.settings.client_id ?? '',
      client_secret: this.#host.clientSecret ?? '',
      base_url: this.#host.settings.base_url,
      confirmation_key_sha256: secretFingerprint(body.confirmation_key),
      ...(relayed ? { relay_device: relayed.device } : {}),
    };
    try {
      await this.#host.tokens.adopt(account);
    } catch {
      this.#attempts.settle(attempt, { kind: 'failed', message: vaultMessage(this.#host.tokens) });
      const waiter = this.#takeWaiter(attempt);
      this.#host.publish();
      waiter?.reject(new CallbarError('vault_unavailable', vaultMessage(this.#host.tokens)));
      throw notStored();
    }
    // The relay makes the device once told: what the person does next (Unsubscribe) finds it.
    await relayed?.stored();
    this.#attempts.settle(attempt, {
      kind: 'connected',
      tenant_id: body.tenant_id,
      user_extension: body.user_extension,
    });
    this.#endedAttempt = undefined;
    // Detached before the record's write, so a timeout meanwhile cannot fail a connected attempt.
    const waiter = this.#takeWaiter(attempt);
    await this.#host.connected(before, account);
    this.#host.log.info('activated', {
      tenant_id: body.tenant_id,
      user_extension: body.user_extension,
    });
    const status = this.#host.publish();
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
  deactivateRelayed(body: RelayedDeactivation): Promise<void> {
    return this.deactivate(
      { tenant_id: body.tenant_id, user_extension: body.user_extension, confirmation_key: '' },
      body.key_sha256,
    );
  }

  /**
   * The platform's deactivation: for a pending attempt's key, or the key that activated this
   * session (`keySha256`: its SHA-256, when only that is known), and this session's user.
   */
  async deactivate(
    body: DeactivationBody,
    keySha256 = secretFingerprint(body.confirmation_key),
  ): Promise<void> {
    const session = this.#host.tokens.session;
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
      await this.#host.tokens.forget();
    } catch {
      if (attempt) this.#attempts.settle(attempt, { kind: 'pending' });
      this.#host.publish();
      throw new ReceiverRejection(503, 'Callbar could not remove the tokens; try again.');
    }
    // The landing page of the attempt being unsubscribed (a pending one, or the one that
    // connected this session) says so, not what it said before.
    const unsubscribed =
      attempt ??
      (body.confirmation_key ? this.#attempts.findByKey(body.confirmation_key) : undefined);
    if (unsubscribed) this.#attempts.settle(unsubscribed, { kind: 'disconnected' });
    this.#host.log.info('deactivated', {
      tenant_id: body.tenant_id,
      user_extension: body.user_extension,
    });
    const waiter = this.#takeWaiter(attempt);
    this.#host.publish();
    waiter?.reject(new CallbarError('deactivated', said('errors:account.deactivated')));
  }

  landing(attemptId: string | null): LandingPage {
    const attempt = attemptId ? this.#attempts.byId(attemptId) : undefined;
    const outcome = attempt?.outcome.kind;
    if (attempt && outcome !== 'pending' && outcome !== 'claimed') {
      this.#landingServed.get(attempt.id)?.();
      this.#landingServed.delete(attempt.id);
    }
    return landingPageFor(attempt?.outcome);
  }
}
