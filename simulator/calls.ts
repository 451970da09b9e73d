/**
 * Calls and their legs. Click-to-dial is two-step (contract 4.6): the user's own phone rings
 * first (caller leg); once it is answered the destination rings (callee leg); once that answers
 * both legs are bridged; the call ends when either side hangs up. An incoming call has an
 * external caller leg (already up) and the user's ringing callee leg. Every leg state change is
 * a call event, sent to each participating user.
 *
 * Legs progress by the control API (answer / end) or, with auto-answer on, by timers on the
 * simulator clock, so a test can advance the clock instead of waiting.
 */
import type { ScheduledTask, SimClock } from './clock';
import type { AutoAnswer } from './options';
import { isoWithOffset } from './timestamps';
import type { User, World } from './world';

export type LegState = 'ringing' | 'answered' | 'bridged' | 'ended';
export type CallEventKind = 'ringing' | 'answered' | 'bridged' | 'hangup';
export type HangupCause = 'normal_clearing' | 'originator_cancel' | 'call_rejected';
export type CallState = 'ringing' | 'connected' | 'ended';

export interface CallLeg {
  id: string;
  call_id: string;
  leg: 'caller' | 'callee';
  /** The extension or number on this leg. */
  party: string;
  /** The tenant user on this leg, if it is one. */
  user_extension: string | null;
  state: LegState;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
  hangup_cause: HangupCause | null;
}

export interface Call {
  id: string;
  tenant_id: string;
  kind: 'click-to-dial' | 'inbound';
  from: string;
  to: string;
  state: CallState;
  created_at: string;
  ended_at: string | null;
  legs: CallLeg[];
}

/** The webhook payload: one leg's state change, as seen by one participating user. */
export interface CallEvent {
  /** The call leg id (contract 2.6 / 6.2). */
  id: string;
  call_id: string;
  event: CallEventKind;
  state: LegState;
  /** Of the call, from the receiving user's point of view. */
  direction: 'outbound' | 'inbound';
  leg: 'caller' | 'callee';
  party: string;
  from: string;
  to: string;
  tenant_id: string;
  /** The user whose integration receives the event. */
  user_extension: string;
  timestamp: string;
  /** Per call, increasing with every state change: lets a receiver spot reordering. */
  sequence: number;
  hangup_cause?: HangupCause;
}

export class CallStateError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_state',
    message: string,
  ) {
    super(message);
    this.name = 'CallStateError';
  }
}

interface CallRecord extends Call {
  sequence: number;
  timer: ScheduledTask | undefined;
}

const MAX_CALLS = 1000;

export interface CallEngineDeps {
  clock: SimClock;
  world: World;
  timeZone: string;
  autoAnswer: () => AutoAnswer | null;
  emit: (event: CallEvent) => void;
  newId: (prefix: 'call' | 'leg') => string;
}

export class CallEngine {
  private readonly calls = new Map<string, CallRecord>();
  private readonly legToCall = new Map<string, string>();

  constructor(private readonly deps: CallEngineDeps) {}

  list(): Call[] {
    return [...this.calls.values()].map(view);
  }

  get(callId: string): Call | undefined {
    const call = this.calls.get(callId);
    return call && view(call);
  }

  clickToDial(user: User, destination: string): { call: Call; leg: CallLeg } {
    const at = this.deps.clock.now();
    const call = this.newCall(user.tenantId, 'click-to-dial', user.extension, destination, at);
    const leg = this.addLeg(call, 'caller', user.extension, user.extension, 'ringing', at);
    this.autoStep(
      call,
      (auto) => auto.userAnswerMs,
      (due) => this.answerLeg(call, leg, due),
      at,
    );
    return { call: view(call), leg: { ...leg } };
  }

  incoming(tenantId: string, extension: string, from: string): Call {
    const at = this.deps.clock.now();
    const call = this.newCall(tenantId, 'inbound', from, extension, at);
    const callerUser = this.deps.world.userByExtension(tenantId, from);
    // Both legs exist before the first event, so the called user receives both.
    const caller = this.addLeg(
      call,
      'caller',
      from,
      callerUser?.extension ?? null,
      'answered',
      at,
      false,
    );
    const leg = this.addLeg(call, 'callee', extension, extension, 'ringing', at, false);
    this.emit(call, caller, 'answered', at);
    this.emit(call, leg, 'ringing', at);
    this.autoStep(
      call,
      (auto) => auto.userAnswerMs,
      (due) => this.answerLeg(call, leg, due),
      at,
    );
    return view(call);
  }

  answer(legId: string): Call {
    const { call, leg } = this.find(legId);
    if (leg.state !== 'ringing') {
      throw new CallStateError('invalid_state', `Leg ${legId} is ${leg.state}, not ringing.`);
    }
    this.answerLeg(call, leg, this.deps.clock.now());
    return view(call);
  }

  end(legId: string): Call {
    const { call, leg } = this.find(legId);
    if (call.state === 'ended') {
      throw new CallStateError('invalid_state', `Call ${call.id} has already ended.`);
    }
    this.endCall(call, leg, this.deps.clock.now());
    return view(call);
  }

  /**
   * The hangup command (contract 4.6, 5.6): each participant hangs up with their own call leg, so
   * the leg must be the user's and still up; undefined otherwise (another participant's leg, the
   * external party's leg, an unknown or ended one).
   */
  hangup(user: User, legId: string): { call: Call; leg: CallLeg } | undefined {
    const callId = this.legToCall.get(legId);
    const call = callId === undefined ? undefined : this.calls.get(callId);
    const leg = call?.legs.find((candidate) => candidate.id === legId);
    if (!call || !leg || call.tenant_id !== user.tenantId) return undefined;
    if (leg.user_extension !== user.extension || leg.state === 'ended') return undefined;
    this.endCall(call, leg, this.deps.clock.now());
    return { call: view(call), leg: { ...leg } };
  }

  close(): void {
    for (const call of this.calls.values()) call.timer?.cancel();
  }

  private find(legId: string): { call: CallRecord; leg: CallLeg } {
    const callId = this.legToCall.get(legId);
    const call = callId === undefined ? undefined : this.calls.get(callId);
    const leg = call?.legs.find((candidate) => candidate.id === legId);
    if (!call || !leg) throw new CallStateError('not_found', `No call leg ${legId}.`);
    return { call, leg };
  }

  private newCall(
    tenantId: string,
    kind: Call['kind'],
    from: string,
    to: string,
    at: number,
  ): CallRecord {
    const call: CallRecord = {
      id: this.deps.newId('call'),
      tenant_id: tenantId,
      kind,
      from,
      to,
      state: 'ringing',
      created_at: this.time(at),
      ended_at: null,
      legs: [],
      sequence: 0,
      timer: undefined,
    };
    this.calls.set(call.id, call);
    while (this.calls.size > MAX_CALLS) {
      const oldest = [...this.calls.values()].find((candidate) => candidate.state === 'ended');
      if (!oldest) break;
      this.calls.delete(oldest.id);
      for (const leg of oldest.legs) this.legToCall.delete(leg.id);
    }
    return call;
  }

  private addLeg(
    call: CallRecord,
    role: CallLeg['leg'],
    party: string,
    userExtension: string | null,
    state: 'ringing' | 'answered',
    at: number,
    announce = true,
  ): CallLeg {
    const leg: CallLeg = {
      id: this.deps.newId('leg'),
      call_id: call.id,
      leg: role,
      party,
      user_extension: userExtension,
      state,
      created_at: this.time(at),
      answered_at: state === 'answered' ? this.time(at) : null,
      ended_at: null,
      hangup_cause: null,
    };
    call.legs.push(leg);
    this.legToCall.set(leg.id, call.id);
    if (announce) this.emit(call, leg, state, at);
    return leg;
  }

  private answerLeg(call: CallRecord, leg: CallLeg, at: number): void {
    if (leg.state !== 'ringing' || call.state === 'ended') return;
    call.timer?.cancel();
    leg.state = 'answered';
    leg.answered_at = this.time(at);
    this.emit(call, leg, 'answered', at);
    if (call.kind === 'click-to-dial' && leg.leg === 'caller') {
      const user = this.deps.world.userByExtension(call.tenant_id, call.to);
      const callee = this.addLeg(call, 'callee', call.to, user?.extension ?? null, 'ringing', at);
      this.autoStep(
        call,
        (auto) => auto.destinationAnswerMs,
        (due) => this.answerLeg(call, callee, due),
        at,
      );
      return;
    }
    call.state = 'connected';
    for (const each of call.legs) {
      if (each.state === 'ended') continue;
      each.state = 'bridged';
      this.emit(call, each, 'bridged', at);
    }
    this.autoStep(
      call,
      (auto) => auto.hangupAfterMs,
      (due) => this.endCall(call, leg, due),
      at,
    );
  }

  private endCall(call: CallRecord, by: CallLeg, at: number): void {
    if (call.state === 'ended') return;
    call.timer?.cancel();
    call.timer = undefined;
    const cause: HangupCause =
      call.state === 'connected'
        ? 'normal_clearing'
        : by.leg === 'caller'
          ? 'originator_cancel'
          : 'call_rejected';
    const order = [by, ...call.legs.filter((leg) => leg !== by)];
    call.state = 'ended';
    call.ended_at = this.time(at);
    for (const leg of order) {
      if (leg.state === 'ended') continue;
      leg.state = 'ended';
      leg.ended_at = this.time(at);
      leg.hangup_cause = cause;
      this.emit(call, leg, 'hangup', at);
    }
  }

  private autoStep(
    call: CallRecord,
    delay: (auto: AutoAnswer) => number | null,
    step: (due: number) => void,
    from: number,
  ): void {
    call.timer?.cancel();
    call.timer = undefined;
    const auto = this.deps.autoAnswer();
    const wait = auto ? delay(auto) : null;
    if (wait === null) return;
    call.timer = this.deps.clock.scheduleAt(from + wait, step);
  }

  private emit(
    call: CallRecord,
    leg: CallLeg,
    kind: CallEventKind | 'ringing' | 'answered',
    at: number,
  ): void {
    call.sequence++;
    const recipients = new Map<string, CallLeg>();
    for (const each of call.legs) {
      if (each.user_extension !== null && !recipients.has(each.user_extension))
        recipients.set(each.user_extension, each);
    }
    for (const [extension, ownLeg] of recipients) {
      this.deps.emit({
        id: leg.id,
        call_id: call.id,
        event: kind,
        state: leg.state,
        direction: ownLeg.leg === 'caller' ? 'outbound' : 'inbound',
        leg: leg.leg,
        party: leg.party,
        from: call.from,
        to: call.to,
        tenant_id: call.tenant_id,
        user_extension: extension,
        timestamp: this.time(at),
        sequence: call.sequence,
        ...(kind === 'hangup' && leg.hangup_cause ? { hangup_cause: leg.hangup_cause } : {}),
      });
    }
  }

  private time(at: number): string {
    return isoWithOffset(at, this.deps.timeZone);
  }
}

function view(call: CallRecord | Call): Call {
  return {
    id: call.id,
    tenant_id: call.tenant_id,
    kind: call.kind,
    from: call.from,
    to: call.to,
    state: call.state,
    created_at: call.created_at,
    ended_at: call.ended_at,
    legs: call.legs.map((leg) => ({ ...leg })),
  };
}
