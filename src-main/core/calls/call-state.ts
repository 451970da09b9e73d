/**
 * A call's state from its legs': a newer leg state wins, an ended leg stays ended, an older
 * delivery does not move a leg back; the call is over for the user when their leg ends or every
 * other party's has, connected once a leg is bridged or the right one answered; a call the
 * platform says nothing about for too long is given up.
 */
import type { CallState } from '../../../src-shared/contract';
import { said, type Said } from '../text/said';
import type { LegState } from './call-event';
import type { CallLimits } from './call-limits';
import type { CallRecord, LegRecord } from './call-log-format';
import { setReason } from './call-reason';
import { isFinished } from './recent-clearing';

/** Newer state wins; an ended leg stays ended; an older delivery does not move it back. */
export function applyLegState(
  leg: LegRecord,
  state: LegState | undefined,
  sequence: number | undefined,
): void {
  if (state === undefined || leg.state === 'ended') return;
  if (sequence !== undefined && leg.sequence !== undefined && sequence < leg.sequence) return;
  leg.state = state;
  if (sequence !== undefined) leg.sequence = Math.max(sequence, leg.sequence ?? 0);
}

/** The call's state from its legs, as far as the events said anything. */
export function settleCall(record: CallRecord, now: number, cause: Said | undefined): void {
  const state = callStateOf(record);
  if (state === 'ended') {
    finishCall(record, now, cause ?? said('errors:callEnd.ended'));
    return;
  }
  if (state === 'connected' && !record.call.connected_at) {
    record.call.connected_at = new Date(now).toISOString();
  }
  record.call.state = state;
}

function callStateOf(record: CallRecord): CallState {
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

/** Ends a call: given up, hung up, or over by its legs. */
export function finishCall(record: CallRecord, now: number, reason: Said): void {
  record.call.state = 'ended';
  record.call.ended_at = new Date(now).toISOString();
  setReason(record, reason);
  record.updated_ms = Math.max(now, record.updated_ms);
}

/**
 * Why a current call is given up now the platform has said nothing about it for too long (a
 * dial no event confirmed, a connected call, any other: each its own limit); undefined while not.
 */
export function silenceEnding(
  record: CallRecord,
  now: number,
  limits: Pick<CallLimits, 'unconfirmedMs' | 'connectedSilenceMs' | 'silenceMs'>,
): Said | undefined {
  if (isFinished(record)) return undefined;
  const silent = now - record.news_ms;
  const unconfirmed = record.events.length === 0;
  const limit = unconfirmed
    ? limits.unconfirmedMs
    : record.call.state === 'connected'
      ? limits.connectedSilenceMs
      : limits.silenceMs;
  if (silent < limit) return undefined;
  return unconfirmed
    ? said('errors:callEnd.noEvents')
    : said('errors:callEnd.silent', { minutes: Math.round(silent / 60_000) });
}
