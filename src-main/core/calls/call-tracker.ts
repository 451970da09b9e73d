/**
 * Follows calls from the platform's webhook events. Only the leg `id` is contractual, so the
 * tracker works with `{id}` alone: a dial is a current call as soon as the platform accepts it,
 * and the first few unknown leg ids arriving within seconds of its news are attached to it (the
 * attribution rule, leg-attribution.ts). Richer fields (call_id, state, direction, party,
 * sequence, hangup cause) are used when present; the newest events are kept raw, within a byte
 * budget (kept-events.ts); repeated and older deliveries do not move a call backwards
 * (call-state.ts); calls with no news expire. The calls live in the tracker's store
 * (call-store.ts).
 *
 * Whoever can post to the receiver can send anything, so everything is bounded (call-limits.ts):
 * events taken per second (a token bucket; the excess is dropped and logged once per interval),
 * calls a leg of no known call may start, legs per call, events and event bytes per call, calls
 * followed.
 *
 * One call is one record in every process of the profile: an event of a leg this process does not
 * know first reads the call log again when another process changed it (`callbar dial` while the
 * window hears the events), and while another process's dial is in flight or just answered, such
 * events wait for that dial's record to reach the log (other-dial-wait.ts), so its legs attach
 * to it rather than start a second record of the same call (call-log.ts merges any that still do).
 */
import type { Call, CallParty, CallSource, DialTarget } from '../../../src-shared/contract';
import type { AccountOwner } from '../account/account-history';
import { errorMessage } from '../errors';
import { said, type Said, type Translate } from '../text/said';
import { inEnglish } from '../text/translators';
import type { Logger } from '../log/logger';
import { summarizedWarnings, type SummarizedWarnings } from '../log/summarized-warnings';
import { CallEventFields, describeHangupCause, directionOf, legStateOf } from './call-event';
import { DEFAULT_CALL_LIMITS, type CallLimits } from './call-limits';
import type { CallLogFile } from './call-log';
import type { CallRecord } from './call-log-format';
import { addLeg, newCallRecord } from './call-records';
import { withExtension } from './call-party';
import { applyLegState, finishCall, settleCall, silenceEnding } from './call-state';
import { CallStore } from './call-store';
import { newDelivery, withEvent } from './kept-events';
import { claimingCall } from './leg-attribution';
import { callInWords, setReason } from './call-reason';
import { isFinished } from './recent-clearing';
import { OtherDialWait } from './other-dial-wait';
import { TokenBucket } from './token-bucket';

export { DEFAULT_CALL_LIMITS, type CallLimits } from './call-limits';

/** Events of unknown legs held while a dial is in flight. */
const MAX_HELD_EVENTS = 20;
/** How far news may lie ahead of the clock before the clock counts as set back. */
const CLOCK_SET_BACK_MS = 60_000;

export interface CallTrackerOptions {
  /** Where calls persist; without it they live in memory only. */
  file?: CallLogFile;
  /** The user's own extension (to tell their leg from the other party's). */
  ownExtension: () => string | undefined;
  /**
   * The account (and platform) connected now: new calls are recorded as theirs, and only theirs
   * are shown (view, current, records). None: no call is shown.
   */
  owner: () => AccountOwner | undefined;
  /** Who a number belongs to (the directory), as a party to show. */
  identify: (number: string) => CallParty;
  /**
   * Whether another process of the profile has a dial in flight or just answered (dial-guard.ts):
   * events of legs nobody knows then wait for its record (`false`: known at once that none has).
   * Without it they never wait.
   */
  dialElsewhere?: () => false | Promise<boolean>;
  log: Logger;
  now?: () => number;
  limits?: Partial<CallLimits>;
}

export interface CallsView {
  current: Call[];
  recent: Call[];
}

export class CallTracker {
  readonly #options: CallTrackerOptions;
  readonly #now: () => number;
  readonly #limits: CallLimits;
  readonly #log: Logger;
  readonly #store: CallStore;
  /** Dials sent and not yet answered: events of unknown legs wait for them. */
  #dialsInFlight = 0;
  #held: unknown[] = [];
  /** Events of unknown legs waiting for another process's dial (other-dial-wait.ts). */
  readonly #otherDial: OtherDialWait | undefined;
  readonly #eventRate: TokenBucket;
  readonly #newCallRate: TokenBucket;
  /** Events dropped by a bound: the first is logged, the rest summed once per interval. */
  readonly #dropped: SummarizedWarnings;

  constructor(options: CallTrackerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#limits = { ...DEFAULT_CALL_LIMITS, ...options.limits };
    this.#log = options.log;
    this.#store = new CallStore({
      ...(options.file ? { file: options.file } : {}),
      log: options.log,
      now: this.#now,
    });
    this.#eventRate = new TokenBucket(this.#limits.events, this.#now);
    this.#newCallRate = new TokenBucket(this.#limits.newCalls, this.#now);
    this.#dropped = summarizedWarnings(options.log, 'call events dropped (summary)');
    const { dialElsewhere } = options;
    this.#otherDial = dialElsewhere
      ? new OtherDialWait({
          dialElsewhere,
          claimed: (raw) => {
            this.#store.catchUp();
            const event = CallEventFields.safeParse(raw);
            return (
              !event.success ||
              (this.#known(event.data) ??
                claimingCall(this.#store.calls, event.data, this.#now(), this.#limits)) !==
                undefined
            );
          },
          release: (events) => {
            this.#store.catchUp();
            for (const event of events) this.#ingestSafely(event, true);
          },
          max: MAX_HELD_EVENTS,
          dropped: () =>
            this.#dropped.warn('held', 'too many call events wait for a dial; one was dropped'),
          log: options.log,
        })
      : undefined;
  }

  /** The account's calls; why each ended worded by `words` (else in English). */
  view(words?: Translate): CallsView {
    const current: Call[] = [];
    const recent: Call[] = [];
    for (const record of this.records()) {
      (isFinished(record) ? recent : current).push(callInWords(record, words));
    }
    return { current, recent };
  }

  /**
   * Every call record of the account connected now, newest first (the CLI's --json shows the raw
   * events too).
   */
  records(): readonly CallRecord[] {
    const owner = this.#options.owner();
    return owner ? this.#store.recordsOf(owner) : [];
  }

  onChange(listener: () => void): () => void {
    return this.#store.onChange(listener);
  }

  /** Resolves when everything changed so far is on disk. */
  flushed(): Promise<void> {
    return this.#store.flushed();
  }

  /** Picks up what another process (the app, the CLI) wrote. */
  reload(): void {
    this.#store.reload();
  }

  /** A current call by Callbar's id, or the newest current call. */
  current(callId?: string): CallRecord | undefined {
    return this.records().find(
      (record) => !isFinished(record) && (callId === undefined || record.call.id === callId),
    );
  }

  byLeg(legId: string): CallRecord | undefined {
    return this.#store.byLeg(legId);
  }

  /**
   * A dial is being sent. The platform may post its first event before it answers the dial, so
   * events of legs no call knows wait until the returned function is called (after
   * beginOutgoing, or after a failure), and then attach to the dial as if they came after it.
   */
  expectDial(): () => void {
    this.#dialsInFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#dialsInFlight--;
      if (this.#dialsInFlight > 0) return;
      const held = this.#held;
      this.#held = [];
      for (const event of held) this.ingest(event);
    };
  }

  /** A dial the platform accepted: a current call from now on. */
  beginOutgoing(
    target: DialTarget,
    source: CallSource,
    answer: { call_id?: string; call_leg_id?: string },
  ): Call {
    const now = this.#now();
    const record = newCallRecord(
      now,
      {
        direction: 'outgoing',
        state: 'dialing',
        party: this.#partyOf(target),
        source,
        ...(target.post_dial ? { keys: target.post_dial } : {}),
      },
      this.#options.owner(),
    );
    if (answer.call_id) record.platform_call_id = answer.call_id;
    if (answer.call_leg_id) addLeg(record, answer.call_leg_id).own = true;
    this.#store.add(record, this.#limits.current);
    this.#log.info('dial accepted', { call: record.call.id, legs: record.call.leg_ids.length });
    this.#store.changed();
    return record.call;
  }

  /** A dial the platform refused, for the recent list. */
  recordFailed(target: DialTarget, source: CallSource, reason: string | Said): void {
    const record = newCallRecord(
      this.#now(),
      {
        direction: 'outgoing',
        state: 'failed',
        party: this.#partyOf(target),
        source,
      },
      this.#options.owner(),
    );
    setReason(record, reason);
    record.call.ended_at = record.call.started_at;
    this.#store.add(record, this.#limits.current);
    this.#store.changed();
  }

  /**
   * A leg the platform refused to hang up (another party's, over, or never real): it is no
   * longer tried for this call, and its late events are ignored.
   */
  dropLeg(callId: string, legId: string): void {
    const record = this.#store.byId(callId);
    if (!record?.legs.some((leg) => leg.id === legId)) return;
    record.legs = record.legs.filter((leg) => leg.id !== legId);
    record.call.leg_ids = record.call.leg_ids.filter((id) => id !== legId);
    this.#store.touched(record, this.#now());
    this.#store.retireLegs([legId]);
    this.#store.changed();
  }

  /** Ends a call locally (hung up, refused hangup, given up). */
  end(callId: string, reason: Said): void {
    const record = this.#store.byId(callId);
    if (!record || isFinished(record)) return;
    finishCall(record, this.#now(), reason);
    this.#store.touched(record, this.#now());
    this.#store.changed();
  }

  /** Who a dial goes to (the extension written too): the directory's contact, or the target's. */
  #partyOf(target: DialTarget): CallParty {
    const party = withExtension(this.#options.identify(target.destination), target.extension);
    const contact = target.contact;
    if (!contact || party.name) return party;
    return {
      ...party,
      name: contact.display_name,
      ...(contact.company ? { company: contact.company } : {}),
      contact_id: contact.id,
    };
  }

  /**
   * Names the parties the directory did not know when their call came (a contact added since,
   * or a sync that finished later): every call of the account whose number is now a contact's.
   */
  reidentify(): void {
    const now = this.#now();
    let changed = false;
    for (const record of this.records()) {
      const { party } = record.call;
      if (party.name || !party.number) continue;
      const known = this.#options.identify(party.number);
      if (!known.name) continue;
      record.call.party = withExtension(known, party.extension);
      this.#store.touched(record, now);
      changed = true;
    }
    if (changed) this.#store.changed();
  }

  /** Writes the pending summary of dropped events (on shutdown). */
  close(): void {
    this.#otherDial?.close();
    this.#dropped.flush();
  }

  /**
   * One webhook delivery. Never throws: an event Callbar cannot use, or one beyond a bound, is
   * logged (a flood once per interval) and dropped.
   */
  ingest(raw: unknown): void {
    this.#ingestSafely(raw, false);
  }

  #ingestSafely(raw: unknown, waited: boolean): void {
    try {
      this.#ingest(raw, waited);
    } catch (error) {
      this.#log.error('a call event could not be handled', { error: errorMessage(error) });
    }
  }

  /**
   * Clears the recent calls, undoably: they are hidden, and kept in the log (so a crash loses
   * nothing) until `undoMs` from now; then settleClearing drops them (recent-clearing.ts). A clear
   * still pending is settled first. Returns the ids of the calls that settling dropped.
   */
  clearRecent(undoMs: number): string[] {
    return this.#store.clearRecent(undoMs);
  }

  /**
   * Brings back the calls of the clear that can still be undone.
   * @throws CallbarError `nothing_to_undo` when there is none (never cleared, undone, or too late).
   */
  undoClear(): void {
    this.#store.undoClear();
  }

  /** The clear that can still be undone: how many calls it hides and until when. */
  pendingClear(): { count: number; until_ms: number } | undefined {
    return this.#store.pendingClear(this.#options.owner());
  }

  /**
   * Drops the calls of a clear whose undo time is over (`now`: at once); returns their ids (the
   * notes on them go too).
   */
  settleClearing(now = false): string[] {
    return this.#store.settleClearing(now);
  }

  /** Gives up calls the platform has said nothing about for too long. */
  expire(): void {
    const now = this.#now();
    let changed = false;
    for (const record of this.#store.calls) {
      // News "later" than now: the clock was set back since, and how long ago it came is unknown;
      // its silence counts from now (not from when the clock catches up, maybe days later).
      if (!isFinished(record) && record.news_ms - now > CLOCK_SET_BACK_MS) {
        record.news_ms = now;
        this.#store.touched(record, now);
        changed = true;
      }
      const reason = silenceEnding(record, now, this.#limits);
      if (reason === undefined) continue;
      finishCall(record, now, reason);
      this.#store.touched(record, now);
      changed = true;
    }
    if (changed) this.#store.changed();
  }

  #ingest(raw: unknown, waited: boolean): void {
    const parsed = CallEventFields.safeParse(raw);
    if (!parsed.success) {
      this.#dropped.warn('no_leg_id', 'a call event without a usable leg id was ignored');
      return;
    }
    const event = parsed.data;
    const now = this.#now();
    // A leg this process does not know may be of a call another process wrote meanwhile.
    if (!this.byLeg(event.id)) this.#store.catchUp();
    let record = this.#known(event);
    if (!record && this.#store.isRetired(event.id)) return;
    // A late event of a call just cleared does not bring it back (Undo does).
    if (record && this.#store.isHidden(record)) return;
    // Events of unknown legs keep their order behind those waiting for another process's dial.
    if (!record && !waited && this.#otherDial?.holding) {
      this.#otherDial.queue(raw);
      return;
    }
    // Events of calls Callbar follows are taken at a bounded rate; unknown legs are bounded by
    // the attribution rule (a handful per call) and by the rate of new calls.
    if (record && !this.#eventRate.take()) {
      this.#dropped.warn(
        'too_fast',
        'call events arrive faster than calls make them; the excess is dropped',
        { per_second: this.#limits.events.perSecond },
      );
      return;
    }
    if (!record && this.#dialsInFlight > 0 && this.#held.length < MAX_HELD_EVENTS) {
      this.#held.push(raw);
      return;
    }
    let guessed = false;
    if (!record) {
      record = claimingCall(this.#store.calls, event, now, this.#limits);
      guessed = true;
    }
    // Maybe a leg of a dial another process placed, whose record is not in the log yet.
    if (!record && !waited && this.#otherDial?.hold(raw)) return;
    if (!record) {
      if (!this.#newCallRate.take()) {
        this.#dropped.warn(
          'new_calls',
          'call events of unknown legs start calls faster than anyone calls; the excess is dropped',
          { per_minute: Math.round(this.#limits.newCalls.perSecond * 60) },
        );
        return;
      }
      record = this.#newIncoming(event, now);
    }
    const known = record.legs.find((each) => each.id === event.id);
    if (!known && record.legs.length >= this.#limits.legs) {
      this.#dropped.warn(
        'too_many_legs',
        'a call has all the legs it keeps; an event was dropped',
        {
          call: record.call.id,
          legs: this.#limits.legs,
        },
      );
      return;
    }
    if (!newDelivery(record, event)) {
      this.#log.debug('a repeated call event was ignored', { leg: event.id });
      return;
    }
    record.events = withEvent(record.events, raw, event);
    record.news_ms = now;
    this.#store.touched(record, now);
    if (event.call_id) {
      record.platform_call_id ??= event.call_id;
      record.events_name_call = true;
    }
    let leg = known;
    if (!leg) {
      leg = addLeg(record, event.id);
      if (guessed) leg.guessed = true;
    }
    // A call whose first events did not say who calls learns it from a later one.
    if (!record.call.party.number) {
      const number = otherParty(event);
      if (number) record.call.party = this.#options.identify(number);
    }
    if (event.sequence !== undefined) {
      leg.first_sequence = Math.min(leg.first_sequence ?? event.sequence, event.sequence);
    }
    if (event.leg) leg.role = event.leg.toLowerCase();
    const own = this.#options.ownExtension();
    if (event.party && own) leg.own = event.party === own;
    if (!isFinished(record)) {
      applyLegState(leg, legStateOf(event), event.sequence);
      settleCall(record, now, describeHangupCause(event.hangup_cause));
    }
    this.#store.changed();
  }

  /** The record an event's leg (or its call_id) belongs to, if known. */
  #known(event: CallEventFields): CallRecord | undefined {
    const record = this.byLeg(event.id);
    if (record || !event.call_id) return record;
    return this.#store.calls.find((each) => each.platform_call_id === event.call_id);
  }

  /** A leg of no call Callbar placed: someone calls the user (or the user dialled elsewhere). */
  #newIncoming(event: CallEventFields, now: number): CallRecord {
    const from = otherParty(event);
    const party: CallParty = from
      ? this.#options.identify(from)
      : { number: '', display: inEnglish(said('errors:callEnd.unknownCaller')) };
    const record = newCallRecord(
      now,
      {
        direction: directionOf(event) ?? 'incoming',
        state: 'in-progress',
        party,
      },
      this.#options.owner(),
    );
    this.#store.add(record, this.#limits.current);
    this.#log.info('a call Callbar did not place', { call: record.call.id });
    return record;
  }
}

/** The other side's number as an event names it (`from` of a call to the user, else `to`). */
function otherParty(event: CallEventFields): string | undefined {
  return directionOf(event) === 'outgoing' ? event.to : event.from;
}
