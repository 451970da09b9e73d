/**
 * Follows calls from the platform's webhook events. Only the leg `id` is contractual, so the
 * tracker works with `{id}` alone: a dial is a current call as soon as the platform accepts it,
 * and the first few unknown leg ids arriving within seconds of its news are attached to it (the
 * attribution rule, see CallLimits). Richer fields (call_id, state, direction, party, sequence,
 * hangup cause) are used when present; the newest events are kept raw, within a byte budget;
 * repeated and older deliveries do not move a call backwards; calls with no news expire.
 *
 * Whoever can post to the receiver can send anything, so everything is bounded: events taken
 * per second (a token bucket; the excess is dropped and logged once per interval), calls a leg
 * of no known call may start, legs per call, events and event bytes per call, calls followed.
 *
 * One call is one record in every process of the profile: an event of a leg this process does not
 * know first reads the call log again when another process changed it (`callbar dial` while the
 * window hears the events), and while another process's dial is in flight or just answered, such
 * events wait for that dial's record to reach the log (other-dial-wait.ts), so its legs attach
 * to it rather than start a second record of the same call (call-log.ts merges any that still do).
 */
import { randomUUID } from 'node:crypto';
import type {
  Call,
  CallParty,
  CallSource,
  CallState,
  DialTarget,
} from '../../../src-shared/contract';
import { sameAccount, type AccountOwner } from '../account/account-history';
import { errorMessage } from '../errors';
import { said, type Said, type Translate } from '../text/said';
import { inEnglish } from '../text/translators';
import type { Logger } from '../log/logger';
import { summarizedWarnings, type SummarizedWarnings } from '../log/summarized-warnings';
import {
  CallEventFields,
  deliveryKey,
  describeHangupCause,
  directionOf,
  legStateOf,
  type LegState,
} from './call-event';
import { MAX_RECENT_CALLS, mergeCallLogs, type CallLogFile } from './call-log';
import {
  hiddenByClearing,
  isFinished,
  pendingClearing,
  settleClearing,
  startClearing,
  undoClearing,
} from './recent-clearing';
import { EMPTY_CALL_LOG, type CallLog, type CallRecord, type LegRecord } from './call-log-format';
import { callInWords, setReason } from './call-reason';
import { OtherDialWait } from './other-dial-wait';
import { TokenBucket, type Rate } from './token-bucket';

export interface CallLimits {
  /**
   * Calls followed at once; beyond it the oldest is given up, calls Callbar did not place
   * before the user's dials.
   */
  current: number;
  /**
   * The attribution rule for a leg id no call knows (all `{id}`-only events give): it is taken
   * to be a leg of the current call with the latest news (the platform accepting the dial, or an
   * event of one of its legs), if that news is at most this old...
   */
  attachWindowMs: number;
  /** ...and that has fewer legs attached this way than this; otherwise it starts a new call. */
  guessedLegs: number;
  /** Legs one call keeps, however they were attributed; events of further legs are dropped. */
  legs: number;
  /**
   * Events of the calls followed taken; beyond it they are dropped (a flood), and said once per
   * interval. (Events of unknown legs are bounded by the rule above and by newCalls.)
   */
  events: Rate;
  /** Calls that a leg of no known call may start (someone calls the user); beyond it dropped. */
  newCalls: Rate;
  /** A dial no event ever confirmed is given up after this long. */
  unconfirmedMs: number;
  /** A call known to be connected is given up after this long without news. */
  connectedSilenceMs: number;
  /** Any other call is given up after this long without news. */
  silenceMs: number;
}

export const DEFAULT_CALL_LIMITS: CallLimits = {
  current: 20,
  // A click-to-dial rings the user's own phone, then, once they answer, the destination (contract
  // 4.6): two legs, the second within a second of the news that the first was answered. One more
  // for a PBX that hands the destination to another leg (forwarding, voicemail).
  attachWindowMs: 15_000,
  guessedLegs: 3,
  legs: 8,
  // A call makes about eight events over its life; a user rarely has more than a few at once.
  events: { burst: 50, perSecond: 10 },
  newCalls: { burst: 5, perSecond: 1 / 6 },
  unconfirmedMs: 2 * 60_000,
  connectedSilenceMs: 4 * 60 * 60_000,
  silenceMs: 60 * 60_000,
};

const MAX_EVENTS_KEPT = 30;
/** Raw events kept per call, as JSON; the oldest roll off first. */
const MAX_CALL_EVENT_BYTES = 8 * 1024;
/** A bigger event is kept as the fields Callbar read from it, with its size. */
const MAX_EVENT_BYTES = 2 * 1024;
const MAX_DELIVERY_KEYS = 64;
/** Events of unknown legs held while a dial is in flight. */
const MAX_HELD_EVENTS = 20;

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
  readonly #listeners = new Set<() => void>();
  #state: CallLog;
  #writing: Promise<unknown> = Promise.resolve();
  #writeQueued = false;
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
    this.#state = options.file?.read() ?? EMPTY_CALL_LOG;
    this.#eventRate = new TokenBucket(this.#limits.events, this.#now);
    this.#newCallRate = new TokenBucket(this.#limits.newCalls, this.#now);
    this.#dropped = summarizedWarnings(options.log, 'call events dropped (summary)');
    const { dialElsewhere } = options;
    this.#otherDial = dialElsewhere
      ? new OtherDialWait({
          dialElsewhere,
          claimed: (raw) => {
            this.#catchUp();
            const event = CallEventFields.safeParse(raw);
            return (
              !event.success ||
              (this.#known(event.data) ?? this.#claimingCall(event.data, this.#now())) !== undefined
            );
          },
          release: (events) => {
            this.#catchUp();
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
    if (!owner) return [];
    const { clearing } = this.#state;
    return this.#state.calls.filter(
      (record) =>
        record.owner && sameAccount(record.owner, owner) && !hiddenByClearing(record, clearing),
    );
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Resolves when everything changed so far is on disk. */
  flushed(): Promise<void> {
    return this.#writing.then(() => undefined);
  }

  /** Picks up what another process (the app, the CLI) wrote. */
  reload(): void {
    if (!this.#options.file) return;
    this.#absorb(this.#options.file.read());
  }

  /** A current call by Callbar's id, or the newest current call. */
  current(callId?: string): CallRecord | undefined {
    return this.records().find(
      (record) => !isFinished(record) && (callId === undefined || record.call.id === callId),
    );
  }

  byLeg(legId: string): CallRecord | undefined {
    return this.#state.calls.find((record) => record.legs.some((leg) => leg.id === legId));
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
    const record = this.#newRecord(now, {
      direction: 'outgoing',
      state: 'dialing',
      party: this.#partyOf(target),
      source,
    });
    if (answer.call_id) record.platform_call_id = answer.call_id;
    if (answer.call_leg_id) this.#addLeg(record, answer.call_leg_id).own = true;
    this.#insert(record);
    this.#log.info('dial accepted', { call: record.call.id, legs: record.call.leg_ids.length });
    this.#changed();
    return record.call;
  }

  /** A dial the platform refused, for the recent list. */
  recordFailed(target: DialTarget, source: CallSource, reason: string | Said): void {
    const record = this.#newRecord(this.#now(), {
      direction: 'outgoing',
      state: 'failed',
      party: this.#partyOf(target),
      source,
    });
    setReason(record, reason);
    record.call.ended_at = record.call.started_at;
    this.#insert(record);
    this.#changed();
  }

  /**
   * A leg the platform refused to hang up (another party's, over, or never real): it is no
   * longer tried for this call, and its late events are ignored.
   */
  dropLeg(callId: string, legId: string): void {
    const record = this.#state.calls.find((each) => each.call.id === callId);
    if (!record?.legs.some((leg) => leg.id === legId)) return;
    record.legs = record.legs.filter((leg) => leg.id !== legId);
    record.call.leg_ids = record.call.leg_ids.filter((id) => id !== legId);
    record.updated_ms = this.#now();
    this.#retireLegs([legId]);
    this.#changed();
  }

  /** Ends a call locally (hung up, refused hangup, given up). */
  end(callId: string, reason: Said): void {
    const record = this.#state.calls.find((each) => each.call.id === callId);
    if (!record || isFinished(record)) return;
    this.#finish(record, this.#now(), reason);
    this.#changed();
  }

  /** Who a dial goes to: the directory's contact for the number, or the one the target named. */
  #partyOf(target: DialTarget): CallParty {
    const party = this.#options.identify(target.destination);
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
      record.call.party = known;
      record.updated_ms = Math.max(now, record.updated_ms);
      changed = true;
    }
    if (changed) this.#changed();
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

  /** Takes in what another process wrote to the call log since this one last read or wrote it. */
  #catchUp(): void {
    const changed = this.#options.file?.readIfChanged();
    if (changed) this.#absorb(changed);
  }

  /**
   * Clears the recent calls, undoably: they are hidden, and kept in the log (so a crash loses
   * nothing) until `undoMs` from now; then settleClearing drops them (recent-clearing.ts). A clear
   * still pending is settled first. Returns the ids of the calls that settling dropped.
   */
  clearRecent(undoMs: number): string[] {
    const settled = this.settleClearing(true);
    const cleared = startClearing(this.#state, this.#now(), undoMs);
    if (cleared !== this.#state) {
      this.#state = cleared;
      this.#changed();
    }
    return settled;
  }

  /**
   * Brings back the calls of the clear that can still be undone.
   * @throws CallbarError `nothing_to_undo` when there is none (never cleared, undone, or too late).
   */
  undoClear(): void {
    this.#state = undoClearing(this.#state, this.#now());
    this.#changed();
  }

  /** The clear that can still be undone: how many calls it hides and until when. */
  pendingClear(): { count: number; until_ms: number } | undefined {
    return pendingClearing(this.#state, this.#now(), this.#options.owner());
  }

  /**
   * Drops the calls of a clear whose undo time is over (`now`: at once); returns their ids (the
   * notes on them go too).
   */
  settleClearing(now = false): string[] {
    const settled = settleClearing(this.#state, this.#now(), now);
    if (!settled) return [];
    this.#state = settled.log;
    this.#retire(settled.dropped);
    this.#changed();
    return settled.dropped.map((record) => record.call.id);
  }

  /** Gives up calls the platform has said nothing about for too long. */
  expire(): void {
    const now = this.#now();
    let changed = false;
    for (const record of this.#state.calls) {
      if (isFinished(record)) continue;
      const silent = now - record.news_ms;
      const unconfirmed = record.events.length === 0;
      const limit = unconfirmed
        ? this.#limits.unconfirmedMs
        : record.call.state === 'connected'
          ? this.#limits.connectedSilenceMs
          : this.#limits.silenceMs;
      if (silent < limit) continue;
      this.#finish(
        record,
        now,
        unconfirmed
          ? said('errors:callEnd.noEvents')
          : said('errors:callEnd.silent', { minutes: Math.round(silent / 60_000) }),
      );
      changed = true;
    }
    if (changed) this.#changed();
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
    if (!this.byLeg(event.id)) this.#catchUp();
    let record = this.#known(event);
    if (!record && this.#state.retired_legs.includes(event.id)) return;
    // A late event of a call just cleared does not bring it back (Undo does).
    if (record && hiddenByClearing(record, this.#state.clearing)) return;
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
      record = this.#claimingCall(event, now);
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
    const key = deliveryKey(event);
    if (key !== undefined) {
      if (record.delivery_keys.includes(key)) {
        this.#log.debug('a repeated call event was ignored', { leg: event.id });
        return;
      }
      record.delivery_keys = [...record.delivery_keys, key].slice(-MAX_DELIVERY_KEYS);
    }
    record.events = newestWithinBytes([...record.events, storable(raw, event)]);
    record.news_ms = now;
    record.updated_ms = now;
    if (event.call_id) {
      record.platform_call_id ??= event.call_id;
      record.events_name_call = true;
    }
    let leg = known;
    if (!leg) {
      leg = this.#addLeg(record, event.id);
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
      this.#applyLegState(leg, legStateOf(event), event.sequence);
      this.#settle(record, now, describeHangupCause(event.hangup_cause));
    }
    this.#changed();
  }

  /** The record an event's leg (or its call_id) belongs to, if known. */
  #known(event: CallEventFields): CallRecord | undefined {
    const record = this.byLeg(event.id);
    if (record || !event.call_id) return record;
    return this.#state.calls.find((each) => each.platform_call_id === event.call_id);
  }

  /** Newer state wins; an ended leg stays ended; an older delivery does not move it back. */
  #applyLegState(leg: LegRecord, state: LegState | undefined, sequence: number | undefined) {
    if (state === undefined || leg.state === 'ended') return;
    if (sequence !== undefined && leg.sequence !== undefined && sequence < leg.sequence) return;
    leg.state = state;
    if (sequence !== undefined) leg.sequence = Math.max(sequence, leg.sequence ?? 0);
  }

  /**
   * The call still open for new legs under the attribution rule (news within the window, fewer
   * guessed legs than the cap) whose news is the latest (a leg follows the news of the one
   * before it), unless the event says it belongs elsewhere (another call_id, the other
   * direction, no call_id where the call's events name one). With `{id}` alone this is all
   * there is to go on.
   */
  #claimingCall(event: CallEventFields, now: number): CallRecord | undefined {
    const direction = directionOf(event);
    const open = this.#state.calls.filter(
      (record) =>
        !isFinished(record) &&
        now - record.news_ms <= this.#limits.attachWindowMs &&
        record.legs.filter((leg) => leg.guessed).length < this.#limits.guessedLegs &&
        (direction === undefined || direction === record.call.direction) &&
        !(record.events_name_call && !event.call_id) &&
        !(record.platform_call_id && event.call_id && record.platform_call_id !== event.call_id),
    );
    // Newest first, so on equal news the newest call wins.
    return open.reduce<CallRecord | undefined>(
      (latest, record) => (latest && latest.news_ms >= record.news_ms ? latest : record),
      undefined,
    );
  }

  /** A leg of no call Callbar placed: someone calls the user (or the user dialled elsewhere). */
  #newIncoming(event: CallEventFields, now: number): CallRecord {
    const from = otherParty(event);
    const party: CallParty = from
      ? this.#options.identify(from)
      : { number: '', display: inEnglish(said('errors:callEnd.unknownCaller')) };
    const record = this.#newRecord(now, {
      direction: directionOf(event) ?? 'incoming',
      state: 'in-progress',
      party,
    });
    this.#insert(record);
    this.#log.info('a call Callbar did not place', { call: record.call.id });
    return record;
  }

  #newRecord(
    now: number,
    fields: Pick<Call, 'direction' | 'state' | 'party'> & Partial<Call>,
  ): CallRecord {
    const owner = this.#options.owner();
    return {
      ...(owner ? { owner } : {}),
      call: {
        id: randomUUID(),
        started_at: new Date(now).toISOString(),
        leg_ids: [],
        ...fields,
      },
      legs: [],
      started_ms: now,
      updated_ms: now,
      news_ms: now,
      delivery_keys: [],
      events: [],
    };
  }

  #addLeg(record: CallRecord, id: string): LegRecord {
    const leg: LegRecord = { id };
    record.legs.push(leg);
    record.call.leg_ids = [...record.call.leg_ids, id];
    return leg;
  }

  #insert(record: CallRecord): void {
    const calls = [record, ...this.#state.calls];
    const current = calls.filter((each) => !isFinished(each));
    // Oldest first, calls Callbar did not place before the user's dials: legs of no known call
    // (a flood of them, too) never push out the call the user placed.
    const givingUp = current
      .reverse()
      .sort((a, b) => Number(a.call.source !== undefined) - Number(b.call.source !== undefined))
      .slice(0, Math.max(0, current.length - this.#limits.current));
    for (const stale of givingUp) {
      this.#finish(stale, record.started_ms, said('errors:callEnd.tooMany'));
    }
    const finished = calls.filter(isFinished);
    const dropped = new Set(finished.slice(MAX_RECENT_CALLS));
    this.#state = { ...this.#state, calls: calls.filter((each) => !dropped.has(each)) };
    this.#retire([...dropped]);
  }

  #retire(records: CallRecord[]): void {
    if (records.length === 0) return;
    this.#retireLegs(records.flatMap((record) => record.call.leg_ids));
    const ids = records.map((record) => record.call.id);
    this.#state = {
      ...this.#state,
      removed_ids: [...this.#state.removed_ids, ...ids].slice(-500),
    };
  }

  #retireLegs(legs: string[]): void {
    this.#state = {
      ...this.#state,
      retired_legs: [...this.#state.retired_legs, ...legs].slice(-500),
    };
  }

  /** The call's state from its legs, as far as the events said anything. */
  #settle(record: CallRecord, now: number, cause: Said | undefined): void {
    const state = this.#derive(record);
    if (state === 'ended') {
      this.#finish(record, now, cause ?? said('errors:callEnd.ended'));
      return;
    }
    if (state === 'connected' && !record.call.connected_at) {
      record.call.connected_at = new Date(now).toISOString();
    }
    record.call.state = state;
  }

  #derive(record: CallRecord): CallState {
    const { legs, call } = record;
    if (legs.length === 0) return call.state;
    const isOwn = (leg: LegRecord) =>
      leg.own ??
      (leg.role === undefined
        ? undefined
        : (leg.role === 'caller') === (call.direction === 'outgoing'));
    const own = legs.filter((leg) => isOwn(leg) === true);
    const others = legs.filter((leg) => isOwn(leg) !== true);
    const has = (group: LegRecord[], state: LegState) => group.some((leg) => leg.state === state);
    // The call is over for the user when their leg ends, or when every other party's has.
    const othersGone = others.length > 0 && others.every((leg) => leg.state === 'ended');
    if (has(own, 'ended') || othersGone || legs.every((leg) => leg.state === 'ended')) {
      return 'ended';
    }
    if (legs.every((leg) => leg.state === undefined)) return 'in-progress';
    if (has(legs, 'bridged')) return 'connected';
    if (call.direction === 'outgoing') {
      if (has(others, 'answered')) return 'connected';
      if (has(others, 'ringing') || has(own, 'answered')) return 'ringing';
      if (has(own, 'ringing')) return 'calling-you';
    } else {
      if (has(own, 'answered')) return 'connected';
      if (has(own, 'ringing')) return 'ringing';
    }
    return 'in-progress';
  }

  #finish(record: CallRecord, now: number, reason: Said): void {
    record.call.state = 'ended';
    record.call.ended_at = new Date(now).toISOString();
    setReason(record, reason);
    record.updated_ms = now;
  }

  #absorb(log: CallLog): void {
    const before = JSON.stringify(this.#state);
    this.#state = mergeCallLogs(this.#state, log);
    if (JSON.stringify(this.#state) !== before) this.#emit();
  }

  #changed(): void {
    const file = this.#options.file;
    if (file && !this.#writeQueued) {
      // One write waits at a time and takes the state as it is then: a burst is one write.
      this.#writeQueued = true;
      this.#writing = this.#writing
        .then(() => {
          this.#writeQueued = false;
          return file.write(structuredClone(this.#state));
        })
        .then(
          (merged) => this.#absorb(merged),
          (error: unknown) =>
            this.#log.warn('the call log could not be saved', { error: errorMessage(error) }),
        );
    }
    this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The other side's number as an event names it (`from` of a call to the user, else `to`). */
function otherParty(event: CallEventFields): string | undefined {
  return directionOf(event) === 'outgoing' ? event.to : event.from;
}

/** An event as kept with its call: as it came, or, when big, the fields read from it and its size. */
function storable(raw: unknown, event: CallEventFields): unknown {
  const bytes = jsonBytes(raw);
  return bytes <= MAX_EVENT_BYTES ? raw : { ...event, truncated_bytes: bytes };
}

/** The newest events, at most MAX_EVENTS_KEPT and MAX_CALL_EVENT_BYTES of JSON. */
function newestWithinBytes(events: unknown[]): unknown[] {
  const kept = events.slice(-MAX_EVENTS_KEPT);
  let total = kept.reduce<number>((sum, event) => sum + jsonBytes(event), 0);
  while (kept.length > 1 && total > MAX_CALL_EVENT_BYTES) total -= jsonBytes(kept.shift());
  return kept;
}

/** The JSON length of a value (one that cannot be written as JSON counts as too big). */
function jsonBytes(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
