/**
 * The attribution rule: which call a leg id no call knows belongs to. Only the leg `id` is
 * contractual, so with `{id}`-only events the rule is all there is to go on: the leg is taken to
 * be one of the current call with the latest news (the platform accepting the dial, or an event
 * of one of its legs), if that news is recent and the call has few legs attached this way
 * (CallLimits' attachWindowMs and guessedLegs); otherwise it starts a new call.
 */
import { directionOf, type CallEventFields } from './call-event';
import type { CallLimits } from './call-limits';
import type { CallRecord } from './call-log-format';
import { isFinished } from './recent-clearing';

/**
 * The call still open for new legs under the attribution rule (news within the window, fewer
 * guessed legs than the cap) whose news is the latest (a leg follows the news of the one
 * before it), unless the event says it belongs elsewhere (another call_id, the other
 * direction, no call_id where the call's events name one). With `{id}` alone this is all
 * there is to go on.
 */
export function claimingCall(
  calls: readonly CallRecord[],
  event: CallEventFields,
  now: number,
  limits: Pick<CallLimits, 'attachWindowMs' | 'guessedLegs'>,
): CallRecord | undefined {
  const direction = directionOf(event);
  const open = calls.filter(
    (record) =>
      !isFinished(record) &&
      now - record.news_ms <= limits.attachWindowMs &&
      record.legs.filter((leg) => leg.guessed).length < limits.guessedLegs &&
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
