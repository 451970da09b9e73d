/**
 * The account in relay mode: nothing listens on this computer. The device's stream brings call
 * events and the user's deactivation (applied only by the device whose session the key
 * activated); an activation's tokens are handed over at the relay and confirmed once stored; a
 * dial is announced; a device the relay revoked is said in the status.
 */
import type { ReceiverRegistration } from '../../../src-shared/contract';
import { errorMessage } from '../errors';
import type { Outage } from '../http/outage-watch';
import type { Logger } from '../log/logger';
import { summarizedWarnings, type SummarizedWarnings } from '../log/summarized-warnings';
import { RetryDelay } from '../http/retry-delay';
import type { LostMessages, RelayLink, RelayStream } from '../relay/relay-link';
import type { RetiredDevices } from './retired-devices';
import type {
  AttemptEnd,
  DeviceMessage,
  HandoffContent,
  RelayedDeactivation,
} from '../relay/relay-protocol';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';
import type { StoredAccount } from '../vault/stored-account';
import { RELAY_REVOKED, relayElsewhere, type StatusProblem } from './account-status';
import { OPENED_TWICE } from './activation-attempts';
import { ReceiverRejection, type HandshakeBody, type RunningReceiver } from './receiver';
import type { TokenManager } from './token-manager';

/** How each way the relay ends an attempt is said, with its error code. */
const RELAY_ATTEMPT_ENDS: Record<AttemptEnd, [Said, string]> = {
  'link-reused': [OPENED_TWICE, 'activation_link_reused'],
  'registered-twice': [said('errors:relay.registeredTwice'), 'activation_link_reused'],
  unknown: [said('errors:relay.attemptUnknown'), 'activation_timeout'],
};

/** How long `listen()` in relay mode waits for the relay's backlog before going on. */
const RELAY_CATCH_UP_MS = 5000;

/** How long closing waits for the removal of retired devices under way. */
const REMOVAL_WAIT_MS = 3000;

/**
 * How long a device another process of the profile just stored may be unknown at the relay: the
 * relay makes it once that process confirms the store (waitForHandoff), a moment after the
 * keychain's write this process follows. Refused meanwhile, its stream is asked again.
 */
const FOLLOWED_DEVICE_GRACE_MS = 60_000;

/** Tokens handed over at the relay: its device, and `stored`, said once they are stored. */
export interface RelayedTokens {
  device: NonNullable<StoredAccount['relay_device']>;
  /** Tells the relay (which makes the device then); the activation completes after it. */
  stored: () => Promise<void>;
}

/** What the relayed session asks of the account service. */
export interface RelayedSessionHost {
  readonly tokens: TokenManager;
  readonly log: Logger;
  /** The relay devices this profile no longer uses, until the relay removed them. */
  readonly retired: RetiredDevices;
  /** How long `listen()` waits at most for the relay's backlog (default 5 s). */
  readonly catchUpMs: number | undefined;
  /** A call event from the stream, for the service's listeners. */
  event(event: DeviceMessage & { type: 'event' }): void;
  /** Messages the relay held for this device were dropped: call events may be missing. */
  eventsLost(): void;
  /** The user's deactivation; a ReceiverRejection 403 when it is not this session's. */
  deactivate(body: RelayedDeactivation): Promise<void>;
  /** Stores the tokens of an activation the relay handed over (as the receiver's would). */
  activate(body: HandshakeBody, relayed: RelayedTokens): Promise<void>;
  /** Ends the awaited attempt unconnected. */
  cancelActivation(reason: Said, code: string): void;
  /** The status changed. */
  publish(): void;
  /** The service is shutting down (no stream opens any more). */
  closing(): boolean;
}

export class RelayedSession {
  readonly link: RelayLink;
  readonly #host: RelayedSessionHost;
  /** The device's open stream, while there is a session with a device identity. */
  #stream: RelayStream | undefined;
  /** Why events cannot arrive (the relay revoked this device). */
  #problem: StatusProblem | undefined;
  /** The device whose stream is open (or is asked again in a moment: #followed). */
  #streamDevice: string | undefined;
  /** The device the relay refused (revoked). */
  #revokedDevice: string | undefined;
  /** The wait for an activation's handoff, until the relay has the confirmation. */
  #handoff: Promise<void> | undefined;
  /** The removal of retired devices under way, and when it is tried again. */
  #removing: Promise<void> | undefined;
  #removalTimer: NodeJS.Timeout | undefined;
  readonly #removalDelay = new RetryDelay({ initialMs: 30_000, maxMs: 30 * 60_000 });
  /**
   * A device followed from another process's write (follow()) whose stream has not been live
   * here yet, until when a refusal of it means "not made yet" rather than "revoked".
   */
  #followed: { device: string; until: number } | undefined;
  readonly #followedDelay = new RetryDelay({ initialMs: 500, maxMs: 5000 });
  #reopenTimer: NodeJS.Timeout | undefined;
  readonly #removalStop = new AbortController();
  /**
   * Each gap the relay says is logged, the first at once and the rest once a while: a broken or
   * hostile relay saying one after another (twenty thousand a second) wrote a line each before.
   */
  readonly #gaps: SummarizedWarnings;

  constructor(link: RelayLink, host: RelayedSessionHost) {
    this.link = link;
    this.#host = host;
    this.#gaps = summarizedWarnings(host.log, 'the relay dropped more messages for this computer');
  }

  /** Why call events cannot arrive: the relay revoked this device, or another relay issued it. */
  get problem(): StatusProblem | undefined {
    const device = this.#host.tokens.relayDevice;
    if (!device || this.#device()) return this.#problem;
    const said = relayElsewhere(device.relay_urls!.join(', '), this.link.urls.join(', '));
    return { title: inEnglish(said.title), message: inEnglish(said.message) };
  }

  /**
   * The session's relay device, unless another relay than the settings name now issued it: its
   * credential is never sent to an address it was not issued at (the person connects again).
   */
  #device(): StoredAccount['relay_device'] {
    const device = this.#host.tokens.relayDevice;
    const issuedAt = device?.relay_urls;
    if (issuedAt && this.link.urls.some((url) => !issuedAt.includes(url))) return undefined;
    return device;
  }

  /**
   * Whether the platform's call events reach this process now: its stream is connected and
   * served its backlog (not while it connects, is down or reconnects).
   */
  hearsCallEvents(): boolean {
    return this.#stream?.live === true;
  }

  /**
   * While the stream has failed to connect FAILURES_FOR_OUTAGE times in a row: call events wait at
   * the relay, and arrive once a connection serves them.
   */
  get outage(): Outage | undefined {
    return this.#stream?.outage;
  }

  /**
   * Opens the device's stream (when the session has a device identity) and waits a moment for
   * what the relay queued meanwhile, so the caller sees it (the CLI's next command). The
   * "receiver" returned is the relay's address.
   */
  async listen(): Promise<RunningReceiver> {
    const stream = this.open();
    if (stream) {
      let timer: NodeJS.Timeout | undefined;
      // The backlog served, or the stream over before it (a queued deactivation applied, the
      // device revoked): either way there is nothing more to wait for.
      await Promise.race([
        stream.ready,
        stream.ended,
        new Promise(
          (resolve) => (timer = setTimeout(resolve, this.#host.catchUpMs ?? RELAY_CATCH_UP_MS)),
        ),
      ]);
      clearTimeout(timer);
    }
    // The next command (or the app's next start) tries again what could not be removed before.
    this.removeRetired();
    return {
      port: 0,
      origin: this.link.origin,
      close: () => {
        this.close();
        return Promise.resolve();
      },
    };
  }

  /** Opens the device's stream, unless it is open, closing, revoked or there is no device. */
  open(): RelayStream | undefined {
    // Revoked: the relay refuses this device until it is activated again; asking again would
    // only repeat the refusal.
    if (this.#stream || this.#host.closing() || this.#problem) return this.#stream;
    const device = this.#device();
    if (!device) return undefined;
    this.#streamDevice = device.device_id;
    this.#stream = this.link.connect(
      device,
      (message) => this.#message(message),
      () => {
        // A device the session no longer holds (removed once a new one was stored): the
        // session's own is streamed instead.
        if (this.#host.tokens.relayDevice?.device_id !== device.device_id) {
          this.close();
          this.open();
          return;
        }
        // Another process stored it and has not told the relay yet: asked again in a moment.
        const followed = this.#followed;
        if (followed?.device === device.device_id && performance.now() < followed.until) {
          this.close();
          this.#streamDevice = device.device_id;
          this.#reopenTimer = setTimeout(() => this.open(), this.#followedDelay.next()).unref();
          return;
        }
        this.#followed = undefined;
        this.#problem = {
          title: inEnglish(RELAY_REVOKED.title),
          message: inEnglish(RELAY_REVOKED.message),
        };
        this.#host.log.warn('the relay refused this device');
        this.close();
        this.#revokedDevice = device.device_id;
        this.#host.publish();
      },
      () => {
        // Served its backlog: the relay answers again, and what waits for removal goes now.
        if (this.#stream?.live) {
          if (this.#followed?.device === device.device_id) this.#followed = undefined;
          this.removeRetired();
        }
        this.#host.publish();
      },
    );
    return this.#stream;
  }

  /** Stops taking messages from the relay (what comes after waits at the relay). */
  close(): void {
    clearTimeout(this.#reopenTimer);
    this.#stream?.close();
    this.#stream = undefined;
    this.#streamDevice = undefined;
    this.#gaps.flush();
  }

  /**
   * The session in the keychain changed (another process of the profile connected, maybe
   * another user, or forgot it): a stream of a device the session no longer holds is closed, and
   * the session's own device is streamed. Before, the old device's stream went on (another
   * user's call events shown) and, once that device was removed, said this computer was revoked.
   * The new device may not be made at the relay yet (the other process stores it, then tells the
   * relay): refused within FOLLOWED_DEVICE_GRACE_MS, its stream is asked again; before, this
   * process said "revoked" for good when it followed faster than the other told the relay.
   */
  follow(): void {
    const followed = this.#streamDevice ?? this.#revokedDevice;
    const device = this.#host.tokens.relayDevice?.device_id;
    if (followed === undefined || followed === device) return;
    this.close();
    this.#problem = undefined;
    this.#revokedDevice = undefined;
    this.#followed =
      device === undefined
        ? undefined
        : { device, until: performance.now() + FOLLOWED_DEVICE_GRACE_MS };
    this.#followedDelay.reset();
    if (!this.#host.closing()) this.open();
  }

  /** The session was forgotten on this computer: the relay forgets its device too. */
  async forgotten(): Promise<void> {
    this.close();
    this.#problem = undefined;
    this.#revokedDevice = undefined;
    this.removeRetired();
    await this.#removing;
  }

  /**
   * Removes the relay devices this profile no longer uses (retired-devices.ts), unless that is
   * under way; tried again after a pause that grows (30 s to 30 minutes) while the relay cannot be
   * reached, and whenever a stream serves its backlog.
   */
  removeRetired(): void {
    if (this.#removing || this.#host.closing() || !this.#host.retired.pending) return;
    clearTimeout(this.#removalTimer);
    const { retired, tokens, log } = this.#host;
    this.#removing = retired
      .sweep(tokens.relayDevice?.device_id, this.#removalStop.signal)
      .catch((error: unknown) => {
        log.warn('could not remove the relay devices this computer no longer uses', {
          reason: errorMessage(error),
        });
        return false;
      })
      .then((settled) => {
        this.#removing = undefined;
        if (settled) this.#removalDelay.reset();
        if (settled || this.#host.closing()) return;
        this.#removalTimer = setTimeout(() => this.removeRetired(), this.#removalDelay.next());
        this.#removalTimer.unref();
      });
  }

  /** Closing: the removal under way is given a moment (a CLI command ends next), then stopped. */
  async stopRemoving(): Promise<void> {
    clearTimeout(this.#removalTimer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#removing,
      new Promise((resolve) => (timer = setTimeout(resolve, REMOVAL_WAIT_MS))),
    ]);
    clearTimeout(timer);
    this.#removalStop.abort();
  }

  /** Whether the device's stream opens now (undefined), else what was met; none: no device. */
  async probeStream(): Promise<{ problem: string | undefined } | undefined> {
    const device = this.#device();
    if (!device) return undefined;
    return { problem: await this.link.probeStream(device.credential) };
  }

  /** Waits for the activation handoff under way, if any (closing waits for it). */
  async settled(): Promise<void> {
    await this.#handoff;
  }

  /**
   * One message of the device's stream: a call event, the user's deactivation, or that messages
   * were dropped before this one (LostMessages).
   */
  async #message(message: DeviceMessage | LostMessages): Promise<void> {
    if (message.type === 'event') {
      this.#host.event(message);
      return;
    }
    if (message.type === 'lost') {
      // Call events, or a deactivation: neither can be asked of the platform again. A lost
      // deactivation shows when the platform refuses the tokens (the session then ends).
      this.#gaps.warn(
        'gap',
        'the relay dropped messages queued for this computer before it read them',
        { lost: message.lost },
      );
      this.#host.eventsLost();
      return;
    }
    // Checked as on loopback: only the deactivation of this session's own activation (the relay
    // passes the key's SHA-256, never the key, which would wait in its queue).
    try {
      await this.#host.deactivate(message.body);
    } catch (error) {
      // Not this session's (another user, or none any more): nothing to do. Anything else (the
      // keychain) is tried again from the same offset when the stream reconnects.
      if (!(error instanceof ReceiverRejection) || error.status !== 403) throw error;
      this.#host.log.info('a deactivation from the relay did not concern this session');
      return;
    }
    // Its device was retired with the session: removed at the relay now, or later.
    this.close();
    this.removeRetired();
  }

  /**
   * Tells the relay this device is placing a dial, so call events that name nobody reach it
   * (docs/relay.md). Never throws: a dial goes ahead without it.
   */
  async announceDial(): Promise<void> {
    const device = this.#device();
    if (!device) return;
    await this.link.announceDial(device.credential).catch((error: unknown) => {
      this.#host.log.warn('could not announce the dial to the relay', {
        reason: errorMessage(error),
      });
    });
  }

  /** The addresses to register with the platform: the relay's. */
  registration(): ReceiverRegistration {
    const { origin } = this.link;
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

  /**
   * Waits at the relay for the platform's activation of `key`, stores the tokens it hands over
   * (as the receiver's activation would), and tells the relay whether they are stored: only then
   * does the relay answer the platform (200, or 503). `abort` stops the wait.
   */
  waitForHandoff(
    key: string,
    abort: AbortSignal,
    awaitHandoff: (signal: AbortSignal) => Promise<HandoffContent | AttemptEnd | undefined>,
  ): void {
    const run = async () => {
      const handoff = await awaitHandoff(abort);
      if (!handoff) return;
      if (typeof handoff === 'string') {
        this.#host.cancelActivation(...RELAY_ATTEMPT_ENDS[handoff]);
        return;
      }
      const { device_id, credential } = handoff;
      const device = { device_id, credential, relay_urls: [...this.link.urls] };
      let stored = false;
      let told = false;
      // The relay makes the device when it hears the tokens are stored; the activation completes
      // only after that, with the device's stream open. Before, it completed first, and what the
      // person did at once (Unsubscribe, stop listening) could come before the device existed.
      const confirmStored = async () => {
        told = true;
        try {
          await this.link.confirm(key, handoff.credential, true);
        } catch (error) {
          this.#host.log.warn('activation through the relay failed', {
            reason: errorMessage(error),
          });
          return;
        }
        this.#problem = undefined;
        this.#revokedDevice = undefined;
        this.close();
        if (!this.#host.closing()) this.open();
      };
      try {
        await this.#host.activate(handoff.body, { device, stored: confirmStored });
        stored = true;
      } finally {
        if (!told && !stored) await this.link.confirm(key, handoff.credential, false);
      }
      // A repeat of the handoff whose tokens were stored before (nothing stored again).
      if (!told) await confirmStored();
    };
    // `close()` waits for it: the relay must hear that the tokens are stored before the process
    // ends, or it refuses the platform's call.
    this.#handoff = run().catch((error: unknown) => {
      this.#host.log.warn('activation through the relay failed', { reason: errorMessage(error) });
    });
  }
}
