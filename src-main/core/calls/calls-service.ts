/**
 * Calls as the window, the tray, tel: links and the CLI use them: parse, dial (one click is one
 * call, never retried), confirm a link, hang up without knowing which leg is the user's, and the
 * snapshot of current, recent and pending calls. Every dial is classified first: the policy
 * settings may refuse it, and a link to an emergency, premium-rate, foreign or unknown number
 * always asks (a link to a service code is refused), whatever "dial links without asking" says.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import type {
  Call,
  CallSource,
  CallsSnapshot,
  DialOutcome,
  DialTarget,
} from '../../../src-shared/contract';
import { ApiError, RateLimitedError } from '../api/api-errors';
import type { CallControlApi } from '../api/call-control-api';
import { CallbarError, sayingOf } from '../errors';
import { said, type Translate } from '../text/said';
import type { Logger } from '../log/logger';
import { isFinished } from './call-log';
import type { CallRecord } from './call-log-format';
import type { CallNotes } from './call-notes';
import type { CallTracker } from './call-tracker';
import type { DialPolicy } from '../numbers/destination-class';
import { legsToTry } from './hangup-order';
import { memoryDialGuard, type DialGuard } from './dial-guard';
import { isDialLink, notANumber } from '../numbers/dial-link';
import { parseDialTarget, type CallDirectory } from './dial-target';
import { RecentCalls } from './recent-calls';
import { uncertainDial } from './uncertain-dial';
import { checkDial, rereadLink, waitingLink, type WaitingLink } from './waiting-link';

/** A link waiting for the user's yes is forgotten after this long. */
export const PENDING_LIFETIME_MS = 5 * 60_000;
const EXPIRY_CHECK_MS = 30_000;
/** How long a cancelled dial the platform placed waits for its first leg to hang it up. */
const CANCEL_WAIT_MS = 10_000;

export interface CallSettings extends DialPolicy {
  region: CountryCode;
  vanity_numbers: boolean;
  /** Links ask before dialing ("dial links without asking" is this turned off). */
  confirm_web_links: boolean;
  /** What a tel:/callto: link may dial besides the dialling policy (policies link_allowed_*). */
  link_policy?: DialPolicy;
}

export interface CallsServiceOptions {
  /** Call control for the connected account (throws `not_connected` without a session). */
  callControl: () => CallControlApi;
  tracker: CallTracker;
  settings: () => CallSettings;
  /** Saves "dial links without asking" (the user's `always`). */
  dialLinksWithoutAsking: () => Promise<void>;
  directory: CallDirectory;
  /** Where call events come from (the receiver); the service feeds them to the tracker. */
  callEvents?: (listener: (event: unknown) => void) => () => void;
  /**
   * Hears that call events were lost on their way (the relay's queue for this computer was full
   * and dropped its oldest): the current calls may have changed unheard.
   */
  eventsLost?: (listener: () => void) => () => void;
  /** Starts receiving call events (the receiver), for a process that does not yet. */
  listen?: () => Promise<unknown>;
  /** Whether call events reach this process now (its receiver runs, or its relay stream). */
  hearsEvents?: () => boolean;
  /** Just before a dial is sent (relay mode: announces it, so events naming nobody arrive). */
  beforeDial?: () => Promise<void>;
  log: Logger;
  now?: () => number;
  /**
   * The repeat-dial guard (dial-guard.ts): the profile's, shared by its processes; by default this
   * process's only.
   */
  dialGuard?: DialGuard;
  /** The user's notes on calls (call-notes.ts); without them calls carry no note. */
  notes?: CallNotes;
  /**
   * The language of the snapshots this service hands out (why each call ended): the app's is
   * the window's; none, English (the CLI words its own lines).
   */
  words?: () => Translate;
}

export class CallsService {
  readonly tracker: CallTracker;
  readonly #options: CallsServiceOptions;
  readonly #now: () => number;
  readonly #dialGuard: DialGuard;
  /** The calls as shown (notes, numbers in the region now) and the undoable Clear. */
  readonly #recent: RecentCalls;
  /** Dials being noted as ended (dial-guard.ts); `close()` waits for them. */
  readonly #endings = new Set<Promise<void>>();
  readonly #listeners = new Set<(snapshot: CallsSnapshot) => void>();
  #pending: WaitingLink | undefined;
  /** The dial on its way to the platform, which the user may still cancel (`cancelDial`). */
  #inFlight: { cancelled: boolean } | undefined;
  /** Hang ups on their way, by call: Hang up pressed again meanwhile joins the one on its way. */
  readonly #hangingUp = new Map<string, Promise<CallsSnapshot>>();
  #expiryTimer: NodeJS.Timeout | undefined;
  readonly #unsubscribe: (() => void)[];

  constructor(options: CallsServiceOptions) {
    this.#options = options;
    this.tracker = options.tracker;
    this.#now = options.now ?? Date.now;
    this.#dialGuard = options.dialGuard ?? memoryDialGuard(options.log, this.#now);
    this.#recent = new RecentCalls(options);
    this.#unsubscribe = [
      this.tracker.onChange(() => this.#emit()),
      options.callEvents?.((event) => this.tracker.ingest(event)) ?? (() => undefined),
      options.eventsLost?.(() => this.#eventsLost()) ?? (() => undefined),
    ];
  }

  /**
   * Call events were lost on their way: a current call may have ended, or changed, unheard. The
   * platform cannot be asked for a call's state (the contract has no such request), so each is
   * ended here, saying why, rather than shown as it was for hours.
   */
  #eventsLost(): void {
    for (const record of this.tracker.records()) {
      if (!isFinished(record)) this.tracker.end(record.call.id, said('errors:callEnd.eventsLost'));
    }
  }

  /** Checks for calls with no news and for a Clear past its undo time every half minute. */
  startExpiry(): void {
    const check = () => {
      this.tracker.expire();
      void this.#recent.settle();
    };
    check();
    this.#expiryTimer ??= setInterval(check, EXPIRY_CHECK_MS);
    this.#expiryTimer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#expiryTimer);
    this.#recent.close();
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.tracker.close();
    await Promise.all(this.#endings);
    await this.tracker.flushed();
  }

  /** Starts receiving the platform's call events; says what to do when that is impossible. */
  async listenForEvents(): Promise<void> {
    try {
      if (!this.#options.listen) {
        throw new CallbarError('not_available', said('errors:calls.noReceiver'));
      }
      await this.#options.listen();
    } catch (error) {
      throw new CallbarError(
        'cannot_follow',
        said('errors:calls.cannotFollow', { reason: sayingOf(error) }),
        { cause: error },
      );
    }
  }

  onChange(listener: (snapshot: CallsSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Current, recent and pending calls, why each ended worded by `words` (by default the
   * service's language; null: in English).
   */
  snapshot(words: Translate | null | undefined = this.#options.words?.()): CallsSnapshot {
    const pending = this.#pending;
    if (pending && this.#now() - pending.at > PENDING_LIFETIME_MS) this.#pending = undefined;
    // Read again when the region changed while it waits: never the old country's number.
    if (this.#pending) {
      const read = (input: string) => this.parse(input);
      this.#pending = rereadLink(this.#pending, this.#options.settings(), read);
    }
    return { ...this.#recent.view(words ?? undefined), pending: this.#pending?.dial ?? null };
  }

  /** Picks up what another process (the app, the CLI) wrote: calls and notes. */
  async reload(): Promise<void> {
    this.tracker.reload();
    await this.#options.notes?.load();
  }

  /**
   * Sets the note on one of the account's calls ('' removes it).
   * @throws CallbarError `call_not_found`, or `note_invalid` (too long, control characters).
   */
  async setNote(callId: string, note: string): Promise<CallsSnapshot> {
    const notes = this.#options.notes;
    if (!notes) throw new CallbarError('not_available', said('errors:callNotes.notKept'));
    this.tracker.reload();
    if (!this.tracker.records().some((record) => record.call.id === callId)) {
      throw new CallbarError('call_not_found', said('errors:callNotes.callGone'), {
        field: 'call_id',
      });
    }
    await notes.set(callId, note);
    this.#emit();
    return this.snapshot();
  }

  /** What `input` would dial, without dialing. */
  parse(input: string): DialTarget {
    const settings = this.#options.settings();
    return parseDialTarget(input, {
      region: settings.region,
      vanityNumbers: settings.vanity_numbers,
      directory: this.#options.directory,
    });
  }

  /**
   * Click-to-dial. A tel-link source waits for the user's yes unless links dial without asking.
   * @throws CallbarError `invalid_number`, `duplicate_dial`, or what the platform said.
   */
  async dial(input: string, source: CallSource, link?: string): Promise<DialOutcome> {
    const target = this.parse(input);
    const settings = this.#options.settings();
    const dial = checkDial(target, source, settings, link);
    if (dial) {
      this.#pending = waitingLink(dial, input, settings, this.#now());
      this.#emit();
      return { status: 'needs-confirmation', pending: dial };
    }
    const call = await this.#place(target, source);
    // As the lists show it (a written extension in `display`, `number_shown`), not as recorded.
    return { status: 'dialing', call: this.#recent.shown(call, this.#options.words?.()), target };
  }

  /** A tel:, callto: or sip: link handed over by the OS (the shell and `callbar open-url`). */
  openUrl(url: string): Promise<DialOutcome> {
    if (!isDialLink(url)) {
      throw notANumber(url, said('errors:number.linkSchemes'));
    }
    return this.dial(url, 'tel-link', url.trim());
  }

  /**
   * The user's answer to the pending link; `always` also stops asking for links (ordinary ones:
   * a link that asks for a reason keeps asking).
   */
  async confirm(id: string, accept: boolean, always: boolean): Promise<CallsSnapshot> {
    const pending = this.snapshot().pending;
    if (!pending || pending.id !== id) {
      throw new CallbarError('no_pending_dial', said('errors:calls.noPendingDial'));
    }
    this.#pending = undefined;
    this.#emit();
    if (accept) {
      if (always) await this.#options.dialLinksWithoutAsking();
      await this.#place(pending.target, pending.source);
    }
    return this.snapshot();
  }

  /**
   * Hangs up a current call (default: the newest the user placed, else the newest). The user's
   * own leg is not always known, so it tries the call's legs, the one most likely the user's
   * first (legsToTry), until one is accepted. A leg refused with 403 (another party's, or one
   * that was never this call's) is dropped from the call; a 429 stops at once, saying when to
   * try again. Each leg is sent once: nothing is retried. Pressed again while it is on its way
   * (a double click, Esc and the button), it is the same hangup: a second one sent the legs the
   * first had ended, refused 403, said "already ended" and dropped them from the call.
   */
  async hangup(callId?: string): Promise<CallsSnapshot> {
    this.tracker.reload();
    const record =
      callId === undefined
        ? (this.tracker.records().find((each) => isPlaced(each) && !isFinished(each)) ??
          this.tracker.current())
        : this.tracker.current(callId);
    if (!record) {
      throw new CallbarError(
        'no_current_call',
        said(callId ? 'errors:calls.callGone' : 'errors:calls.noCallToHangUp'),
      );
    }
    const id = record.call.id;
    const running =
      this.#hangingUp.get(id) ?? this.#hangUp(record).finally(() => this.#hangingUp.delete(id));
    this.#hangingUp.set(id, running);
    return running;
  }

  async #hangUp(record: CallRecord): Promise<CallsSnapshot> {
    let legs = legsToTry(record);
    if (legs.length === 0 && isPlaced(record) && this.#options.hearsEvents?.()) {
      // Hang up pressed right after the dial: its answer named no leg (all the contract
      // guarantees) and the platform's first event, which names one, is on its way.
      await this.firstLeg(record.call.id, FIRST_LEG_WAIT_MS);
      legs = legsToTry(this.tracker.current(record.call.id) ?? record);
    }
    if (legs.length === 0) {
      throw new CallbarError('no_call_leg', said('errors:calls.noCallLeg'));
    }
    for (const leg of legs) {
      try {
        await this.#hangupLeg(leg);
        this.tracker.end(record.call.id, said('errors:callEnd.youHungUp'));
        return this.snapshot();
      } catch (error) {
        if (error instanceof RateLimitedError) {
          const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
          throw new CallbarError(
            'rate_limited',
            said('errors:calls.hangupRateLimited', { seconds }),
            { cause: error },
          );
        }
        if (!(error instanceof CallbarError && error.code === 'call_not_active')) throw error;
        this.tracker.dropLeg(record.call.id, leg);
        this.#options.log.info('hangup refused for one leg; it was dropped, trying the next', {
          call: record.call.id,
        });
      }
    }
    this.tracker.end(record.call.id, said('errors:callEnd.alreadyEnded'));
    throw new CallbarError('call_not_active', said('errors:calls.callNotActive'));
  }

  /** Hangs up one call leg by its id (the CLI's `hangup CALL_LEG_ID`). */
  async hangupLeg(legId: string): Promise<CallsSnapshot> {
    this.tracker.reload();
    const record = this.tracker.byLeg(legId);
    try {
      await this.#hangupLeg(legId);
    } catch (error) {
      if (record && error instanceof CallbarError && error.code === 'call_not_active') {
        this.tracker.end(record.call.id, said('errors:callEnd.alreadyEnded'));
      }
      throw error;
    }
    if (record) this.tracker.end(record.call.id, said('errors:callEnd.youHungUp'));
    return this.snapshot();
  }

  /**
   * Abandons the dial on its way to the platform (the window's Cancel beside "Calling …"): not
   * sent yet, it never is (the dial ends with `dial_cancelled`); already sent, the call the
   * platform places is hung up as soon as it answers, the way Hang up does it.
   * @throws CallbarError `no_dial_in_flight` when no dial is on its way.
   */
  cancelDial(): CallsSnapshot {
    if (!this.#inFlight) {
      throw new CallbarError('no_dial_in_flight', said('errors:calls.noDialInFlight'));
    }
    this.#inFlight.cancelled = true;
    return this.snapshot();
  }

  /** Clears the recent calls, undoably for a few seconds (recent-calls.ts keeps them till then). */
  async clearRecent(): Promise<CallsSnapshot> {
    await this.#recent.clear();
    return this.snapshot();
  }

  /** Brings back the calls of the last Clear; CallbarError `nothing_to_undo` when too late. */
  undoClear(): CallsSnapshot {
    this.#recent.undo();
    return this.snapshot();
  }

  /**
   * Sends the dial once; a second one of the same destination in flight or just after, from this
   * process or another of the profile, is refused (dial-guard.ts).
   */
  async #place(target: DialTarget, source: CallSource): Promise<Call> {
    const destination = target.destination;
    // Not connected: nothing to guard (and nothing written).
    const callControl = this.#options.callControl();
    // Events that arrive from now on may be this dial's (held until it is answered).
    const release = this.tracker.expectDial();
    const flight = { cancelled: false };
    this.#inFlight = flight;
    let ended: (() => Promise<void>) | undefined;
    try {
      ended = await this.#dialGuard.claim(destination, target.display);
      if (flight.cancelled) {
        throw new CallbarError('dial_cancelled', said('errors:calls.dialCancelled'));
      }
      await this.#options.beforeDial?.();
      const answer = await callControl.clickToDial(destination).catch((error: unknown) => {
        throw isForbidden(error)
          ? new CallbarError('dial_forbidden', said('errors:calls.dialForbidden'), {
              cause: error,
            })
          : error;
      });
      const call = this.tracker.beginOutgoing(target, source, answer);
      if (!flight.cancelled) return call;
      // The events held meanwhile attach to the call now, naming the legs to hang up.
      release();
      return await this.#hangUpCancelled(call);
    } catch (error) {
      const uncertain = uncertainDial(error);
      if (uncertain) {
        // The platform may have placed it: follow it, so its legs attach if events arrive.
        this.tracker.beginOutgoing(target, source, {});
        throw uncertain;
      }
      if (
        error instanceof ApiError ||
        (error instanceof CallbarError && error.code === 'dial_forbidden')
      ) {
        this.tracker.recordFailed(target, source, sayingOf(error));
      }
      throw error;
    } finally {
      if (this.#inFlight === flight) this.#inFlight = undefined;
      release();
      if (ended) {
        // Noted in the background (the outcome is the platform's answer as it came); close waits.
        const ending = ended().finally(() => this.#endings.delete(ending));
        this.#endings.add(ending);
      }
    }
  }

  /**
   * The call the platform placed after the user cancelled it: hung up the normal way. When the
   * platform has not said which legs it is yet, the call stays shown and the error says what to do.
   */
  async #hangUpCancelled(call: Call): Promise<Call> {
    await this.firstLeg(call.id, CANCEL_WAIT_MS);
    try {
      await this.hangup(call.id);
    } catch (error) {
      throw new CallbarError(
        'cancel_too_late',
        said('errors:calls.cancelTooLate', { reason: sayingOf(error) }),
        { cause: error },
      );
    }
    return this.tracker.view().recent.find(({ id }) => id === call.id) ?? call;
  }

  /**
   * Waits (at most `ms`) until the platform's events name a leg of the call: an empty answer to
   * the dial (all the contract guarantees) leaves nothing to hang up before then. True once a
   * leg is known, false when the time ran out (or the call is no longer current).
   */
  async firstLeg(callId: string, ms: number): Promise<boolean> {
    const known = () => (this.tracker.current(callId)?.legs.length ?? 0) > 0;
    if (known()) return true;
    return new Promise<boolean>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve(known());
      };
      const timer = setTimeout(done, ms);
      const stop = this.tracker.onChange(() => {
        if (known()) done();
      });
    });
  }

  /** One leg; the platform says only 403 for an ended or unknown leg, or another party's. */
  async #hangupLeg(legId: string): Promise<void> {
    try {
      await this.#options.callControl().hangup(legId);
    } catch (error) {
      if (!isForbidden(error)) throw error;
      throw new CallbarError('call_not_active', said('errors:calls.callNotActive'), {
        field: 'call_leg_id',
        cause: error,
      });
    }
  }

  #emit(): void {
    const snapshot = this.snapshot();
    for (const listener of this.#listeners) listener(snapshot);
  }
}

/** A 403 refusing the request (not one saying the token was not taken: that is no one's rights). */
function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && !error.authenticationFailed;
}

/** Whether the user placed the call (a dial from Callbar), rather than received it. */
/**
 * How long Hang up waits for the platform's first event about a call it just placed, when this
 * process hears events (an event names the leg to end; seconds after the dial it has come).
 */
const FIRST_LEG_WAIT_MS = 5_000;

function isPlaced(record: CallRecord): boolean {
  return record.call.source !== undefined;
}
