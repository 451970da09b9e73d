/**
 * Callbar's side of the device protocol (relay-protocol.ts): a desktop in relay mode only ever
 * connects out. It waits at the relay for its activation (the handoff sealed to a key pair made
 * for the attempt), confirms once the tokens are stored, announces the dials it places, and keeps
 * one server-sent-event stream open for deactivation and call events. The stream resumes where the
 * profile last stopped (Last-Event-ID, kept in the profile, so the next CLI command sees what
 * arrived between commands), and a relay that fails makes the link try the next of the configured
 * addresses.
 */
import type { StateFile } from '../config/state-file';
import { CallbarError, errorMessage } from '../errors';
import { RetryDelay } from '../http/retry-delay';
import { summarizedWarnings } from '../log/summarized-warnings';
import { NetworkError } from '../api/api-errors';
import { networkError } from '../api/platform-client';
import { OutageWatch, type Outage } from '../http/outage-watch';
import type { Logger } from '../log/logger';
import { randomBytes } from 'node:crypto';
import { secretFingerprint } from '../secret-compare';
import {
  AttemptEnd,
  DEVICE_PATHS,
  DeviceMessage,
  GAP_EVENT,
  keyName,
  MAX_SEALED_LINK_CHARS,
  RelayGap,
  SealedHandoff,
  StreamOffset,
  type ActivationConfirm,
  type ActivationProof,
  type ActivationRegistration,
  type HandoffContent,
} from './relay-protocol';
import { CONNECT_PATH, sealConnectLink } from './connect-link';
import { CursorSaver, laterOffset, type RelayCursor } from './relay-cursor';
import { pause, RELAY_IDLE_TIMEOUT_MS, serverSentEvents, SilenceWatchdog } from './event-stream';
import { handoffKeyPair, openHandoff } from './sealed-handoff';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';

/**
 * Messages the relay queued for this device after its offset and dropped before it read them (its
 * queue keeps the newest QUEUE_MAX_LENGTH): call events, a deactivation, whatever they were.
 */
export interface LostMessages {
  type: 'lost';
  lost: number;
}

export { laterOffset, RelayCursor, RelayCursorFile } from './relay-cursor';

export interface RelayLinkOptions {
  /** The relay's addresses, tried in turn when one fails. */
  urls: string[];
  log: Logger;
  /** Where the stream's offset is kept between processes of the profile. */
  cursor: StateFile<RelayCursor>;
  /** Longest pause between reconnection attempts (default 5 s; jittered, see RetryDelay). */
  maxBackoffMs?: number;
  /**
   * How long the stream may bring nothing, not even the relay's keep-alive, before it is taken
   * for dead and opened again (default RELAY_IDLE_TIMEOUT_MS).
   */
  idleTimeoutMs?: number;
  /** The jitter's random source (default Math.random). */
  random?: () => number;
  /** Waits `ms` or until `signal` aborts (default a timer); tests count the pauses. */
  pause?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * An open stream: `ready` once the relay sent every queued message; `close()` ends it; `ended`
 * settles when it stopped for good: closed, or the relay no longer knows the device (revoked),
 * after which it never reconnects by itself.
 */
export interface RelayStream {
  readonly ready: Promise<void>;
  readonly ended: Promise<'closed' | 'revoked'>;
  /** Connected, its backlog served: messages arrive as the relay gets them. */
  readonly live: boolean;
  /** Connections failing in a row (OutageWatch): what the relay queues waits there meanwhile. */
  readonly outage: Outage | undefined;
  close(): void;
}

export class RelayLink {
  readonly #options: RelayLinkOptions;
  readonly #pause: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #idleTimeoutMs: number;
  #current = 0;

  constructor(options: RelayLinkOptions) {
    if (options.urls.length === 0) throw new Error('RelayLink needs at least one address.');
    this.#options = options;
    this.#pause = options.pause ?? pause;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? RELAY_IDLE_TIMEOUT_MS;
  }

  #reconnectDelay(): RetryDelay {
    return new RetryDelay({
      ...(this.#options.maxBackoffMs !== undefined ? { maxMs: this.#options.maxBackoffMs } : {}),
      ...(this.#options.random ? { random: this.#options.random } : {}),
    });
  }

  /** The relay in use, e.g. `relay.example.com` (what `status` shows). */
  get host(): string {
    return new URL(this.origin).host;
  }

  get origin(): string {
    return this.#options.urls[this.#current]!;
  }

  /** Every address of the relay, in the settings' order. */
  get urls(): readonly string[] {
    return this.#options.urls;
  }

  /** The next address (after a failure), round the list. */
  #failover(): void {
    this.#current = (this.#current + 1) % this.#options.urls.length;
  }

  async #request(path: string, init: RequestInit & { credential?: string }): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.credential) headers.authorization = `Bearer ${init.credential}`;
    try {
      const response = await fetch(`${this.origin}${path}`, {
        ...init,
        headers,
        redirect: 'error',
      });
      if (response.status >= 500) this.#failover();
      return response;
    } catch (error) {
      this.#failover();
      throw error;
    }
  }

  /**
   * Registers at the relay the wait for the platform's activation of `confirmationKey` (before
   * the portal link is used, so the platform's call cannot come first and nobody else can
   * register the key first) with the one-time connect link to `portalLink` the browser is to be
   * started with (`browserUrl`), and gives the wait itself: it opens what the relay hands over,
   * gives why the relay ended the attempt (AttemptEnd: the connect link opened twice, someone else
   * registered the same key), or undefined once `signal` aborts. Only this process can poll or
   * cancel the wait: it alone knows the proof whose SHA-256 the registration carries. Network
   * failures while waiting are retried (the next relay).
   * @throws CallbarError `relay_unreachable` when no relay takes the registration.
   */
  async prepareHandoff(
    confirmationKey: string,
    portalLink: string,
  ): Promise<{
    browserUrl: string;
    awaitHandoff: (signal: AbortSignal) => Promise<HandoffContent | AttemptEnd | undefined>;
  }> {
    const name = keyName(confirmationKey);
    const { keyPair, publicKey } = await handoffKeyPair();
    const link = sealConnectLink(portalLink);
    if (link.sealed.length > MAX_SEALED_LINK_CHARS) {
      throw new CallbarError('relay_link_too_long', said('errors:relay.linkTooLong'));
    }
    const proof: ActivationProof = {
      key_sha256: name,
      proof: randomBytes(32).toString('base64url'),
    };
    const registration: ActivationRegistration = {
      key_sha256: name,
      public_key: publicKey,
      proof_sha256: secretFingerprint(proof.proof),
      connect_link: { name: link.name, sealed: link.sealed },
    };
    let registered: Response | undefined;
    for (let attempt = 0; attempt < this.#options.urls.length && !registered?.ok; attempt += 1) {
      await registered?.body?.cancel();
      registered = await this.#request(DEVICE_PATHS.activation, {
        method: 'POST',
        body: JSON.stringify(registration),
      }).catch(() => undefined);
    }
    await registered?.body?.cancel();
    if (!registered?.ok) {
      throw new CallbarError(
        'relay_unreachable',
        said('errors:relay.unreachable', { host: this.host }),
      );
    }
    // The relay that took the registration serves the link (any node: the store is shared).
    const browserUrl = `${this.origin}${CONNECT_PATH}${link.nonce}`;
    const awaitHandoff = async (signal: AbortSignal) => {
      const delay = this.#reconnectDelay();
      while (!signal.aborted) {
        try {
          const response = await this.#request(DEVICE_PATHS.wait, {
            method: 'POST',
            body: JSON.stringify(proof),
            signal,
          });
          if (response.status === 200) {
            const sealed = SealedHandoff.parse(await response.json());
            return await openHandoff(keyPair, name, sealed);
          }
          if (response.status === 410) {
            const ended = AttemptEnd.safeParse((await response.text()).trim());
            return ended.success ? ended.data : 'unknown';
          }
          await response.body?.cancel();
          if (response.status === 204) {
            delay.reset();
            continue;
          }
          // Our proof no longer matches the registration: someone else's holds the key.
          if (response.status === 403) return 'registered-twice';
          this.#options.log.warn('the relay refused to wait for the activation', {
            status: response.status,
          });
        } catch (error) {
          if (signal.aborted) break;
          this.#options.log.warn('the relay could not be reached while waiting for activation', {
            reason: errorMessage(error),
          });
        }
        await this.#pause(delay.next(), signal);
      }
      await this.#cancelWait(proof);
      return undefined;
    };
    return { browserUrl, awaitHandoff };
  }

  /**
   * Tells the relay that nobody waits for the activation any more (best effort, once: a relay
   * that cannot be reached drops the wait when it runs out).
   */
  async #cancelWait(cancel: ActivationProof): Promise<void> {
    try {
      const response = await this.#request(DEVICE_PATHS.cancel, {
        method: 'POST',
        body: JSON.stringify(cancel),
        signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS),
      });
      await response.body?.cancel();
    } catch (error) {
      this.#options.log.warn('the relay could not be told that the activation wait ended', {
        reason: errorMessage(error),
      });
    }
  }

  /** Tells the relay whether the handed-over tokens were stored (it answers the platform so). */
  async confirm(confirmationKey: string, credential: string, stored: boolean): Promise<void> {
    const body: ActivationConfirm = { key_sha256: keyName(confirmationKey), credential, stored };
    const response = await this.#request(DEVICE_PATHS.confirm, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    await response.body?.cancel();
    if (!response.ok) {
      throw new CallbarError(
        'relay_unreachable',
        said('errors:relay.refusedConfirmation', { status: response.status }),
      );
    }
  }

  /** "This device is placing a dial now": events of the call that name nobody reach it. */
  async announceDial(credential: string): Promise<void> {
    const response = await this.#request(DEVICE_PATHS.dial, {
      method: 'POST',
      body: '{}',
      credential,
      signal: AbortSignal.timeout(3000),
    });
    await response.body?.cancel();
  }

  /**
   * Whether the device's stream opens now, for `callbar status --check`: the relay's answer only
   * (nothing of the stream is read, so nothing queued is taken). Undefined when it opens; else
   * what was met, in a few words.
   */
  async probeStream(credential: string): Promise<string | undefined> {
    try {
      const response = await this.#request(DEVICE_PATHS.stream, {
        method: 'GET',
        credential,
        signal: AbortSignal.timeout(5000),
      });
      await response.body?.cancel();
      return response.ok ? undefined : `the relay answered ${response.status}`;
    } catch (error) {
      const detail = failureDetail(error);
      return typeof detail === 'string' ? detail : inEnglish(detail);
    }
  }

  /**
   * Opens the device's stream and hands each message to `onMessage` in order (the offset is saved
   * after it returns), and, before the next one, that messages were dropped (LostMessages: the
   * relay's queue for the device was full); reconnects (the next relay, from the saved offset, after a jittered pause
   * that grows with each failure in a row) until closed. A 401 (revoked) calls `onRevoked` and
   * stops for good: no request after it. `onChange` hears when `live` or `outage` changes.
   */
  connect(
    device: { device_id: string; credential: string },
    onMessage: (message: DeviceMessage | LostMessages) => Promise<void>,
    onRevoked: () => void,
    onChange: () => void = () => undefined,
  ): RelayStream {
    const controller = new AbortController();
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const { log, cursor } = this.#options;
    // What a broken or hostile relay sends that is not understood, however much: a line at once,
    // then one a while for the rest (it never floods the log).
    const unread = summarizedWarnings(log, 'the relay sent more Callbar does not understand');
    const delay = this.#reconnectDelay();
    /**
     * The offset this stream's messages were handled up to. A reconnection never starts behind
     * it, whatever the profile's file says: a file that cannot be read at that moment (too many
     * open files while thousands of streams move to another node) or could not be written would
     * otherwise replay the device's whole queue from the start.
     */
    let reached: string | undefined;
    let live = false;
    const watch = new OutageWatch();
    watch.onChange(onChange);
    const setLive = (now: boolean) => {
      if (live === now) return;
      live = now;
      onChange();
    };
    const run = async (): Promise<'closed' | 'revoked'> => {
      while (!controller.signal.aborted) {
        const saved = await cursor.read();
        const offset =
          laterOffset(saved?.device_id === device.device_id ? saved.offset : undefined, reached) ??
          '0-0';
        // One connection's own signal: fetch and the body's reader listen to it, not to the
        // stream's, so a week of reconnections leaves no listener behind on the stream's signal
        // (each attempt's one is removed below). It also ends a connection gone silent.
        const attempt = new AbortController();
        const endAttempt = () => attempt.abort(controller.signal.reason);
        controller.signal.addEventListener('abort', endAttempt, { once: true });
        const saver = new CursorSaver(cursor, device.device_id);
        const watchdog = new SilenceWatchdog(this.#idleTimeoutMs, () =>
          attempt.abort(new Error('the relay sent nothing (not even a keep-alive) for too long')),
        );
        try {
          const response = await fetch(`${this.origin}${DEVICE_PATHS.stream}`, {
            headers: { authorization: `Bearer ${device.credential}`, 'last-event-id': offset },
            signal: attempt.signal,
            redirect: 'error',
          });
          if (response.status === 401) {
            await response.body?.cancel();
            onRevoked();
            markReady();
            return 'revoked';
          }
          if (!response.ok || !response.body) {
            await response.body?.cancel();
            throw new Error(`the relay answered ${response.status}`);
          }
          let moveOn = false;
          const heard = () => {
            watchdog.heard();
            saver.heard();
          };
          for await (const event of serverSentEvents(response.body, attempt.signal, heard)) {
            // Closed: what comes now is for the next process (the offset stays where it was).
            if (controller.signal.aborted) break;
            // The relay node is stopping: connect again at once (the proxy, or the next
            // address, leads to another node), from the saved offset.
            if (event.event === 'reconnect') {
              moveOn = true;
              break;
            }
            if (event.event === 'ready') {
              // Only a stream that served its backlog counts as a success (one the relay or a
              // proxy ends at once keeps the pauses growing).
              delay.reset();
              watch.answered();
              setLive(true);
              markReady();
              continue;
            }
            if (event.event === GAP_EVENT) {
              const gap = RelayGap.safeParse(safeJson(event.data));
              if (gap.success) await onMessage({ type: 'lost', lost: gap.data.lost });
              else unread.warn('gap', 'the relay sent a gap Callbar does not understand');
              continue;
            }
            const message = DeviceMessage.safeParse(safeJson(event.data));
            if (!message.success) {
              unread.warn('message', 'the relay sent a message Callbar does not understand');
            } else {
              await onMessage(message.data);
            }
            if (StreamOffset.safeParse(event.id).success) {
              reached = laterOffset(reached, event.id);
              // Kept for the profile's next process; this one goes on from `reached` anyway.
              await saver.save(event.id!).catch((error: unknown) =>
                log.warn('could not save the position in the relay stream', {
                  reason: errorMessage(error),
                }),
              );
            }
          }
          setLive(false);
          if (moveOn && !controller.signal.aborted) {
            log.info('the relay node is stopping; connecting again', { relay: this.host });
            this.#failover();
            continue;
          }
          if (!controller.signal.aborted) throw new Error('the relay ended the stream');
        } catch (error) {
          setLive(false);
          if (controller.signal.aborted) break;
          const reason = attempt.signal.aborted
            ? errorMessage(attempt.signal.reason)
            : failureDetail(error);
          log.warn('the relay stream broke; reconnecting', { relay: this.host, reason });
          watch.failed(reason);
          this.#failover();
          await this.#pause(delay.next(), controller.signal);
        } finally {
          watchdog.stop();
          controller.signal.removeEventListener('abort', endAttempt);
          // Whatever this connection still holds (a body not read to its end) is let go.
          if (!attempt.signal.aborted) attempt.abort();
        }
      }
      return 'closed';
    };
    const ended = run()
      .catch((error: unknown) => {
        log.error('the relay stream stopped', { error });
        return 'closed' as const;
      })
      .finally(() => unread.flush());
    return {
      ready,
      ended,
      get live() {
        return live;
      },
      get outage() {
        return watch.outage;
      },
      close: () => controller.abort(),
    };
  }
}

/** A connection's failure in a few words ("connection refused", "the relay answered 503"). */
function failureDetail(error: unknown): string | Said {
  const failure = networkError('the relay stream', error);
  return failure instanceof NetworkError ? failure.detail : errorMessage(error);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** How long the relay may take to hear that an activation wait ended. */
const CANCEL_TIMEOUT_MS = 3_000;
